//! What a hostile repository may cost the language server (issue 42,
//! items 4, 5 and 9), through the real transport (`lsp_support`): a file
//! too large for the memory budget is skipped and said to be, never read.

use crate::lsp_support;

use hcl_types::project::fsread::SOURCE_CAP;
use lsp_support::*;
use serde_json::json;

/// The `file-not-read` warnings among `diags`.
fn not_read(diags: &[serde_json::Value]) -> Vec<String> {
    diags.iter().filter(|d| d["code"] == "file-not-read").map(|d| d["message"].as_str().unwrap().to_owned()).collect()
}

/// A closed sibling past the source cap (a 60 MB one killed the server
/// under the old 64 MiB cap: ~200 bytes of heap a byte) is not read: the
/// open file is analysed without it and says so; once it is small again,
/// it is read.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_closed_sibling_over_the_cap_is_skipped_with_a_warning() {
    let mut s = Session::start(Enc::Utf8).await;
    // Sparse: the size alone refuses it, before a byte is read.
    let big = std::fs::File::create(s.dir.join("big.tf")).unwrap();
    big.set_len(SOURCE_CAP + 1).unwrap();
    drop(big);
    let u = s.open("main.tf", "locals {\n  _a = local.b\n}\n").await;
    let diags = s.diagnostics(&u, 1).await;
    assert_eq!(not_read(&diags), ["`big.tf` of this module was not read: larger than 12 MiB: not read"], "{diags:?}");
    // The open file is still analysed.
    assert!(diags.iter().any(|d| d["code"] == "undefined-reference"), "{diags:?}");
    // Small again, and declaring what was missing: read.
    std::fs::write(s.dir.join("big.tf"), "locals {\n  b = 1\n}\n").unwrap();
    let u2 = uri(&s.dir.join("big.tf"));
    s.notify("workspace/didChangeWatchedFiles", json!({"changes": [{"uri": u2, "type": 2}]})).await;
    s.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": u, "version": 2}, "contentChanges": [{"text": "locals {\n  _a = local.b\n}\n\n"}]}),
    )
    .await;
    let diags = s.diagnostics(&u, 2).await;
    assert!(diags.is_empty(), "{diags:?}");
}

/// An open document past the cap is not parsed: one `file-not-read`
/// warning, and the server goes on answering; cut below the cap, it is
/// analysed again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_open_document_over_the_cap_is_not_analysed() {
    let mut s = Session::start(Enc::Utf8).await;
    let line = format!("# {}\n", "x".repeat(1000));
    let text = format!("locals {{\n  _a = local.b\n}}\n{}", line.repeat(SOURCE_CAP as usize / line.len() + 1));
    let u = s.open("huge.tf", &text).await;
    let diags = s.diagnostics(&u, 1).await;
    assert_eq!(diags.len(), 1, "{:?}", &diags[..diags.len().min(3)]);
    assert_eq!(diags[0]["code"], "file-not-read");
    assert!(diags[0]["message"].as_str().unwrap().contains("larger than 12 MiB: not analysed"), "{:?}", diags[0]);
    let hover = s
        .request("textDocument/hover", json!({"textDocument": {"uri": u}, "position": {"line": 1, "character": 3}}))
        .await;
    assert!(hover.is_null(), "{hover}");
    s.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": u, "version": 2}, "contentChanges": [{"text": "locals {\n  _a = local.b\n}\n"}]}),
    )
    .await;
    let diags = s.diagnostics(&u, 2).await;
    assert_eq!(diags.len(), 1, "{diags:?}");
    assert_eq!(diags[0]["code"], "undefined-reference");
}

/// Neovim and Helix do not watch files for the server: a change of the
/// root `.hcl-types.hcl` on disk (a `git checkout`, an edit elsewhere) is
/// seen by the server's own watch and the open modules are published
/// again, without a keystroke (issue 42, item 9: they kept stale results).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_changed_configuration_file_is_published_without_a_keystroke() {
    let mut s = Session::start(Enc::Utf8).await;
    // A repository: with no workspace folder, the configuration file is
    // looked for no higher than the open file's (config.md).
    std::fs::create_dir_all(s.dir.join(".git")).unwrap();
    s.disk(".hcl-types.hcl", "severity = { undefined-reference = \"warning\" }\n");
    std::fs::create_dir_all(s.dir.join("app")).unwrap();
    let u = s.open("app/main.tf", "locals {\n  _a = local.b\n}\n").await;
    let warned = s.newest_until(&u, |d| d.len() == 1 && d[0]["severity"] == 2).await;
    assert_eq!(warned[0]["code"], "undefined-reference", "{warned:?}");
    // Written over on disk; the client says nothing.
    s.disk(".hcl-types.hcl", "severity = { undefined-reference = \"off\" }\n");
    let off = s.newest_until(&u, |d| d.is_empty()).await;
    assert!(off.is_empty(), "still published with the old file: {off:?}");
}

/// A configuration file past its limits (100,000 globs took 1.1 GB and
/// held every request for seconds) is not used, and says why when open.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_configuration_file_past_its_limits_says_so() {
    let mut s = Session::start(Enc::Utf8).await;
    let globs: Vec<String> = (0..1001).map(|i| format!("\"d{i}/**\"")).collect();
    let text = format!("exclude = [{}]\n", globs.join(", "));
    let u = s.open(".hcl-types.hcl", &text).await;
    let said = |d: &[serde_json::Value]| !not_read(d).is_empty();
    let diags = s.newest_until(&u, said).await;
    assert_eq!(
        not_read(&diags),
        ["this configuration file is not used: `exclude`: 1001 exclude patterns: at most 1000 are read"],
        "{diags:?}"
    );
}
