//! Nomad job files (issue 29 item 5; analysis.md §8): `check` and the
//! language server analyse each `*.nomad` / `*.nomad.hcl` file as a unit of
//! its own, as `nomad job run` parses one file (`jobspec2/parse.go` in
//! hashicorp/nomad), so two jobs of one directory may declare the same
//! variable differently.

use crate::lsp_support;

use lsp_support::*;
use serde_json::Value;

const WEB: &str =
    "variable \"count\" {\n  type = number\n}\n\njob \"web\" {\n  group \"g\" {\n    count = var.count + 1\n  }\n}\n";
const BATCH: &str = "variable \"count\" {\n  type = list(string)\n}\n\nlocals {\n  args = join(\",\", var.count)\n}\n\njob \"batch\" {\n  meta {\n    m = var.web_only\n  }\n}\n";

fn codes(diags: &[Value]) -> Vec<String> {
    diags.iter().map(|d| d["code"].as_str().unwrap().to_string()).collect()
}

#[test]
fn check_finds_every_job_file_and_checks_each_alone() {
    let d = crate::scratch::named("test");
    std::fs::write(d.join("web.nomad.hcl"), WEB.replace("count = var.count + 1", "count = var.count + var.web_only"))
        .unwrap();
    std::fs::write(d.join("batch.nomad"), BATCH).unwrap();
    std::fs::write(d.join("web_only.nomad.hcl"), "variable \"web_only\" {\n  type = number\n}\n").unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_hcl-types"))
        .current_dir(&d)
        .args(["check", "."])
        .output()
        .unwrap();
    let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    // `var.web_only` is declared in a third job file: neither job sees it.
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 2, "{stdout}");
    assert!(lines[0].starts_with("./batch.nomad:11:9: error[undefined-reference]: `var.web_only`"), "{stdout}");
    assert!(lines[1].starts_with("./web.nomad.hcl:7:25: error[undefined-reference]: `var.web_only`"), "{stdout}");
    assert!(stderr.contains("in 3 files"), "the .nomad file is walked: {stderr}");
}

#[tokio::test]
async fn the_server_analyses_each_open_job_alone() {
    let mut s = Session::start(Enc::Utf16).await;
    let web = s.open("web.nomad.hcl", WEB).await;
    let batch = s.open("batch.nomad.hcl", BATCH).await;
    // Were they one module, one `count` would win and the other job's use
    // of it would be a type error.
    assert_eq!(s.diagnostics(&web, 1).await, Vec::<Value>::new());
    let diags = s.diagnostics(&batch, 1).await;
    assert_eq!(codes(&diags), vec!["undefined-reference"], "{diags:?}");
    assert!(diags[0]["message"].as_str().unwrap().contains("`var.web_only`"), "{diags:?}");
    // A job on disk beside them is no part of either.
    s.disk("other.nomad.hcl", "variable \"web_only\" {\n  type = string\n}\n");
    let seen = s.publications();
    s.notify("textDocument/didSave", serde_json::json!({"textDocument": {"uri": batch}})).await;
    let diags = s.diagnostics_after(&batch, seen).await;
    assert_eq!(codes(&diags), vec!["undefined-reference"], "{diags:?}");
}

/// A Nomad variable specification (analysis.md §8.1) open in the editor is
/// a unit of its own, read as `nomad var put` reads it (command/var_put.go
/// of hashicorp/nomad): HCL1's dotted item names are no syntax error, and a
/// key Nomad refuses is.
#[tokio::test]
async fn the_server_reads_a_variable_specification_as_nomad_does() {
    let mut s = Session::start(Enc::Utf16).await;
    let spec =
        s.open("spec.nv.hcl", "path = \"nomad/jobs/web\"\n\nitems {\n  db.password = \"x\"\n  port = 5432\n}\n").await;
    assert_eq!(s.diagnostics(&spec, 1).await, Vec::<Value>::new());
    let other = s.open("other.nv.hcl", "path = \"a\"\npaths = \"b\"\n").await;
    let diags = s.diagnostics(&other, 1).await;
    assert_eq!(codes(&diags), vec!["unsupported-argument"], "{diags:?}");
}
