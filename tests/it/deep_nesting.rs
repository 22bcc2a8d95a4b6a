//! Deep nesting (issue 27 item 10): Terraform 1.11 validates 65, 200,
//! 1,000, 10,000 and 50,000 nested `[`, `(` and `{a = …}` (and 100,000
//! nested blocks); hcl-edit's parser stopped at 64. hcl-types accepts
//! `MAX_NESTING` (512) levels and says one `syntax` error beyond, never
//! overflowing a stack: `check` as a user runs it, and the language server
//! in process on the runtime `hcl-types lsp` runs on (`lsp::runtime`: its
//! threads and rayon's get the stack such a tree needs). Run in a debug
//! build by `cargo test`, whose stack frames are the biggest.

use std::path::Path;
use std::process::Command;

use crate::lsp_support;

use lsp_support::{Enc, Session};
use serde_json::json;

/// The deepest nesting `locals { x = … }` holds: the block's body is one
/// level, the attribute's value none, each constructor inside one.
const DEEPEST: usize = 511;

/// `locals { NAMEn = … }` with `n` levels of each kind of nesting (`n`
/// nested blocks in plain HCL), each valid for Terraform (`terraform validate` says so up to 50,000).
fn programs(n: usize) -> Vec<(String, String)> {
    let kinds: [(&str, &str, &str, &str); 7] = [
        ("list", "[", "1", "]"),
        ("paren", "(", "1", ")"),
        ("object", "{a = ", "1", "}"),
        ("template", "\"${", "1", "}\""),
        ("call", "tolist(", "[1]", ")"),
        ("for", "[for v in ", "[1]", " : v]"),
        ("try", "try(", "1", ")"),
    ];
    let mut out: Vec<(String, String)> = kinds
        .iter()
        .map(|(name, open, leaf, close)| {
            // A `[1]` leaf is a level of its own.
            let m = if leaf.starts_with('[') { n - 1 } else { n };
            // (Named by depth too: the files share one module, where a
            // local is declared once; `_`: kept deliberately, so none is
            // an unused one, analysis.md §5.1.)
            let text = format!("locals {{\n  _{name}{n} = {}{leaf}{}\n}}\n", open.repeat(m), close.repeat(m));
            (format!("{name}{n}.tf"), text)
        })
        .collect();
    // Nested blocks, in plain HCL (Terraform has no block type that nests
    // freely; it parses 100,000 and then rejects the unknown type).
    let blocks = format!("{}{}", "b {\n".repeat(n + 1), "}\n".repeat(n + 1));
    out.push((format!("blocks{n}.hcl"), blocks));
    out
}

fn tempdir(name: &str) -> crate::scratch::Scratch {
    crate::scratch::named(name)
}

fn check(dir: &Path) -> (Option<i32>, String) {
    let o = Command::new(env!("CARGO_BIN_EXE_hcl-types")).arg("check").arg(dir).output().expect("run hcl-types");
    (o.status.code(), String::from_utf8_lossy(&o.stdout).into_owned())
}

#[test]
fn check_accepts_what_terraform_accepts_up_to_the_limit() {
    let dir = tempdir("ok");
    for n in [65, 200, DEEPEST] {
        for (name, text) in programs(n) {
            std::fs::write(dir.join(name), text).unwrap();
        }
    }
    let (status, out) = check(&dir);
    assert_eq!((status, out.as_str()), (Some(0), ""));
}

#[test]
fn check_says_one_syntax_error_far_beyond_the_limit() {
    let dir = tempdir("far");
    let programs = programs(100_000);
    for (name, text) in &programs {
        std::fs::write(dir.join(name), text).unwrap();
    }
    let (status, out) = check(&dir);
    assert_eq!(status, Some(1), "{out}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), programs.len(), "{out}");
    for l in lines {
        assert!(
            l.contains("error[syntax]: syntax error: invalid nesting depth; expected at most 512 nested levels"),
            "{l}"
        );
    }
}

/// Just past the limit is the same one error.
#[test]
fn check_says_one_syntax_error_just_past_the_limit() {
    let dir = tempdir("past");
    let programs = programs(DEEPEST + 1);
    for (name, text) in &programs {
        std::fs::write(dir.join(name), text).unwrap();
    }
    let (status, out) = check(&dir);
    assert_eq!(
        (status, out.lines().filter(|l| l.contains("error[syntax]")).count()),
        (Some(1), programs.len()),
        "{out}"
    );
}

/// Every per-position and per-document request at the middle of the
/// document's one line of nesting.
async fn everything(s: &mut Session, u: &str, column: usize) {
    let doc = json!({"uri": u});
    let at = json!({"textDocument": doc, "position": {"line": 1, "character": column}});
    for method in
        ["textDocument/hover", "textDocument/completion", "textDocument/signatureHelp", "textDocument/definition"]
    {
        s.request(method, at.clone()).await;
    }
    let range = json!({"start": {"line": 0, "character": 0}, "end": {"line": 9, "character": 0}});
    s.request("textDocument/inlayHint", json!({"textDocument": doc, "range": range})).await;
    s.request("textDocument/semanticTokens/full", json!({"textDocument": doc})).await;
    s.request("textDocument/documentSymbol", json!({"textDocument": doc})).await;
}

#[test]
fn the_server_accepts_the_deepest_nesting_and_survives_far_beyond() {
    lsp::runtime().expect("runtime").block_on(the_server_at_the_limit());
}

async fn the_server_at_the_limit() {
    let mut s = Session::start(Enc::Utf8).await;
    for (name, text) in programs(DEEPEST) {
        let u = s.open(&name, &text).await;
        let diags = s.diagnostics(&u, 1).await;
        assert!(diags.is_empty(), "{name}: {diags:?}");
        everything(&mut s, &u, text.lines().nth(1).map_or(0, |l| l.len() / 2)).await;
    }
    for (name, text) in programs(100_000) {
        let u = s.open(&format!("far-{name}"), &text).await;
        let diags = s.diagnostics(&u, 1).await;
        assert_eq!(diags.len(), 1, "{name}: {diags:?}");
        assert_eq!(diags[0]["code"], "syntax");
        assert!(diags[0]["message"].as_str().unwrap().contains("at most 512 nested levels"), "{:?}", diags[0]);
        everything(&mut s, &u, 50_000).await;
    }
    // Terraform's JSON syntax, to the limit and far past it.
    let u = s.open("ok.tf.json", &json_program(DEEPEST)).await;
    assert!(s.diagnostics(&u, 1).await.is_empty());
    everything(&mut s, &u, DEEPEST).await;
    let u = s.open("far.tf.json", &json_program(100_000)).await;
    assert_eq!(s.diagnostics(&u, 1).await.len(), 1);
    everything(&mut s, &u, 50_000).await;
}

/// `locals { x = … }` in Terraform's JSON syntax with `n` nested lists:
/// the JSON is two levels deeper than the lowered value (the file's object
/// and `locals`'), blocks with labels more.
fn json_program(n: usize) -> String {
    format!("{{\"locals\": {{\"_x\": {}1{}}}}}\n", "[".repeat(n), "]".repeat(n))
}

/// A `.tf.json` is held to the native syntax's limit, not to a tighter
/// one of its own: a value nested to the limit reads (its JSON deeper than
/// 300: issue 42 item 9, a false syntax error; Terraform's JSON parser has
/// no limit), one past it is the native error, and far past it one error,
/// never an overflow.
#[test]
fn json_is_held_to_the_native_limit() {
    let dir = tempdir("json");
    std::fs::write(dir.join("ok.tf.json"), json_program(DEEPEST)).unwrap();
    let (status, out) = check(&dir);
    assert_eq!((status, out.as_str()), (Some(0), ""));
    for (name, n) in [("past", DEEPEST + 1), ("far", 100_000)] {
        let dir = tempdir(&format!("json-{name}"));
        std::fs::write(dir.join("x.tf.json"), json_program(n)).unwrap();
        let (status, out) = check(&dir);
        assert_eq!(status, Some(1), "{out}");
        assert_eq!(out.lines().count(), 1, "{out}");
        assert!(out.contains("error[syntax]: syntax error: "), "{out}");
    }
}
