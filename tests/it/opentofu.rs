//! OpenTofu's files and dialect (issue 29 items 4, 6, 7; analysis.md §7):
//! `check` and the language server read the same files of a module, as
//! OpenTofu's `internal/configs/parser_config_dir.go` (opentofu/opentofu)
//! picks them: `.tofu` and `.tofutest.hcl` files, and of `x.tf` beside
//! `x.tofu` only `x.tofu` (`filterTfPathsWithTofuAlternatives`).

use crate::lsp_support;

use std::path::Path;
use std::process::Command;

use lsp_support::*;
use serde_json::{json, Value};

fn dir(name: &str) -> crate::scratch::Scratch {
    crate::scratch::named(name)
}

fn write(dir: &Path, name: &str, text: &str) {
    std::fs::write(dir.join(name), text).unwrap();
}

/// `hcl-types check ARGS` in `dir`: (stdout, stderr).
fn check(dir: &Path, args: &[&str]) -> (String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_hcl-types")).current_dir(dir).arg("check").args(args).output().unwrap();
    (String::from_utf8_lossy(&out.stdout).into_owned(), String::from_utf8_lossy(&out.stderr).into_owned())
}

fn codes(diags: &[Value]) -> Vec<String> {
    diags.iter().map(|d| d["code"].as_str().unwrap().to_string()).collect()
}

const USES: &str = "output \"r\" {\n  value = var.region\n}\n\noutput \"o\" {\n  value = var.old\n}\n";
/// Shadowed by `variables.tofu`: were it read, `var.old` would be declared.
const TF_VARS: &str = "variable \"region\" {\n  type = string\n}\n\nvariable \"old\" {\n  type = string\n}\n";
const TOFU_VARS: &str = "variable \"region\" {\n  type = string\n}\n";

#[test]
fn check_reads_the_tofu_file_in_place_of_the_tf_file() {
    let d = dir("walk");
    write(&d, "outputs.tf", USES);
    write(&d, "variables.tf", TF_VARS);
    write(&d, "variables.tofu", TOFU_VARS);
    let (out, err) = check(&d, &["."]);
    assert_eq!(out.lines().count(), 1, "{out}");
    assert!(out.contains("outputs.tf:6:11: error[undefined-reference]: `var.old` is not declared"), "{out}");
    assert!(err.contains("in 2 files"), "variables.tf is not part of the module: {err}");
}

#[test]
fn a_named_tf_file_is_checked_in_place_of_its_tofu_alternative() {
    // The file named is the one looked at: its `.tofu` alternative is left
    // out instead, so `var.old` is declared and `var.region` once.
    let d = dir("named");
    write(&d, "outputs.tf", USES);
    write(&d, "variables.tf", TF_VARS);
    write(&d, "variables.tofu", TOFU_VARS);
    let (out, err) = check(&d, &["variables.tf", "outputs.tf"]);
    assert_eq!(out, "", "{out}{err}");
    assert!(err.contains("0 errors") && err.contains("in 2 files"), "{err}");
}

/// A module of only `.tf` files with OpenTofu's `enabled`: the terraform
/// dialect does not check it, the opentofu dialect does (a bool:
/// `resourceLifecycleBlockSchema` in internal/configs/resource.go).
const ENABLED: &str = "resource \"terraform_data\" \"x\" {\n  lifecycle {\n    enabled = \"sometimes\"\n  }\n}\n";

#[test]
fn the_opentofu_dialect_is_selected_by_option_or_by_a_tofu_file() {
    let d = dir("dialect");
    write(&d, "main.tf", ENABLED);
    let (out, _) = check(&d, &["."]);
    assert_eq!(out, "", "terraform dialect: `enabled` is not OpenTofu's there");
    for dialect in ["opentofu", "tofu"] {
        let (out, _) = check(&d, &["--dialect", dialect, "."]);
        assert!(out.contains("main.tf:3:15: error[invalid-value]: invalid value for `bool`"), "{dialect}: {out}");
    }
    // Any `.tofu` file makes the module OpenTofu's, its `.tf` files too.
    write(&d, "versions.tofu", "terraform {\n  required_version = \">= 1.11\"\n}\n");
    let (out, _) = check(&d, &["."]);
    assert!(out.contains("main.tf:3:15: error[invalid-value]"), "{out}");
    // And a `.tf` file named alone is checked within that module.
    let (out, _) = check(&d, &["main.tf"]);
    assert!(out.contains("main.tf:3:15: error[invalid-value]"), "{out}");
}

#[tokio::test]
async fn the_server_reads_the_files_check_reads() {
    let mut s = Session::start(Enc::Utf16).await;
    s.disk("variables.tf", TF_VARS);
    s.disk("variables.tofu", TOFU_VARS);
    let u = s.open("outputs.tf", USES).await;
    let diags = s.diagnostics(&u, 1).await;
    assert_eq!(codes(&diags), vec!["undefined-reference"], "{diags:?}");
    assert!(diags[0]["message"].as_str().unwrap().contains("`var.old`"), "{diags:?}");

    // The module has a `.tofu` file: an open `.tf` file follows OpenTofu.
    let u = s.open("main.tf", ENABLED).await;
    let diags = s.diagnostics(&u, 1).await;
    assert_eq!(codes(&diags), vec!["invalid-value"], "{diags:?}");
}

#[tokio::test]
async fn an_open_tf_file_takes_the_place_of_its_tofu_alternative() {
    let mut s = Session::start(Enc::Utf16).await;
    s.disk("variables.tofu", TOFU_VARS);
    s.disk("outputs.tf", USES);
    // As `check variables.tf` reads it: declares `old`, and `region` once.
    let u = s.open("variables.tf", TF_VARS).await;
    assert_eq!(s.diagnostics(&u, 1).await, Vec::<Value>::new());
    let o = s.open("outputs.tf", USES).await;
    assert_eq!(s.diagnostics(&o, 1).await, Vec::<Value>::new(), "var.old is declared by the open variables.tf");
}

#[tokio::test]
async fn a_tofutest_file_is_a_test_file_of_its_module() {
    // `tofuTestExt` (parser_config_dir.go): like `.tftest.hcl`, its `run`
    // blocks see the module's variables at their types.
    let mut s = Session::start(Enc::Utf16).await;
    s.disk("variables.tofu", "variable \"n\" {\n  type = number\n}\n");
    let test = "run \"r\" {\n  assert {\n    condition     = var.n\n    error_message = \"e\"\n  }\n}\n";
    let u = s.open("main.tofutest.hcl", test).await;
    let diags = s.diagnostics(&u, 1).await;
    assert_eq!(codes(&diags), vec!["type-mismatch"], "{diags:?}");
    assert!(diags[0]["message"].as_str().unwrap().contains("`bool` is expected"), "{diags:?}");
}

#[tokio::test]
async fn hover_says_a_module_with_a_tofu_file_is_an_opentofu_module() {
    let mut s = Session::start(Enc::Utf16).await;
    let fixture = "variable \"reg$0ion\" {\n  type = string\n}\n";
    let h = s.at("textDocument/hover", "main.tf", fixture).await;
    assert!(!h["contents"]["value"].as_str().unwrap().contains("OpenTofu"), "{h}");
    let mut s = Session::start(Enc::Utf16).await;
    s.disk("versions.tofu", "terraform {}\n");
    let h = s.at("textDocument/hover", "main.tf", fixture).await;
    assert_eq!(first_block(&h), "string");
    assert!(h["contents"]["value"].as_str().unwrap().contains("An OpenTofu module"), "{h}");
}

/// Issue 29 item 8 (docs/spec/opentofu-symbol-libraries.md): the server
/// reads a module's symbol library from disk as `check` does. The blog
/// post's module (https://github.com/opentofu/opentofu.org/pull/439):
/// `symbols::lib::hello(var.location)` passes a `vec3` object where the
/// function takes a `string` (its review's finding), and go to definition
/// on the call leads into the `.sym.hcl` file.
#[tokio::test]
async fn the_server_reads_symbol_libraries() {
    let mut s = Session::start(Enc::Utf16).await;
    std::fs::create_dir_all(s.dir.join("example-lib")).unwrap();
    let lib = "typedef \"vec3\" {\n  type = object({ x = number, y = number, z = number })\n}\n\nfunction \"hello\" {\n  parameter \"name\" {\n    type = string\n  }\n  type   = string\n  return = \"Hello, ${name}!\"\n}\n";
    s.disk("example-lib/example.sym.hcl", lib);
    let main = "language { experiments = [symbol_libraries] }\nsymbols \"lib\" {\n  source = \"./example-lib\"\n}\nvariable \"location\" {\n  type    = symbols::lib::vec3()\n  default = { x = 0, y = 0, z = 0 }\n}\noutput \"hello_location\" {\n  value = symbols::lib::he$0llo(var.location)\n}\n";
    let (text, _) = cursor(main);
    let u = s.open("main.tofu", &text).await;
    let diags = s.diagnostics(&u, 1).await;
    assert_eq!(codes(&diags), vec!["type-mismatch"], "{diags:?}");
    let d = s.at("textDocument/definition", "main.tofu", main).await;
    assert!(d["uri"].as_str().unwrap().ends_with("example-lib/example.sym.hcl"), "{d}");
    assert_eq!(d["range"]["start"]["line"], 4, "the label of `function \"hello\"`: {d}");

    // An edit of the library, open in the editor, reaches the module that
    // imports it: `hello` now takes any value.
    // (Opening the library republishes main.tofu too: the newest
    // publication is the one looked at.)
    let l = s.open("example-lib/example.sym.hcl", lib).await;
    let any = lib.replace("    type = string\n  }", "    type = any\n  }");
    s.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": l, "version": 2}, "contentChanges": [{"text": any}]}),
    )
    .await;
    let diags = s.newest_until(&u, |d| d.is_empty()).await;
    assert_eq!(diags, Vec::<Value>::new(), "the library's edit reached main.tofu");

    // And one on disk (the client's watched-file event), back to `string`.
    s.notify("textDocument/didClose", json!({"textDocument": {"uri": l}})).await;
    let seen = s.publications();
    s.disk("example-lib/example.sym.hcl", lib);
    s.notify("workspace/didChangeWatchedFiles", json!({"changes": [{"uri": l, "type": 2}]})).await;
    let diags = s.newest_until(&u, |d| !d.is_empty()).await;
    assert_eq!(codes(&diags), vec!["type-mismatch"], "after publication {seen}: {diags:?}");
}
