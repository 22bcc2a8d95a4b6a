//! The language server in process, for what depends on the client's
//! capabilities in folding, selection, links and document symbols:
//! hierarchical symbols only to a client that takes them, whole-line
//! folds to one that folds only lines.

use crate::lsp_support;

use lsp_support::*;
use serde_json::json;

const TF: &str = "resource \"aws_instance\" \"web\" {\n  lifecycle {\n    prevent_destroy = true\n  }\n}\n";

#[tokio::test]
async fn symbols_nest_for_a_client_that_takes_a_tree_and_are_flat_otherwise() {
    let mut s = Session::start(Enc::Utf16).await;
    let u = s.open("main.tf", TF).await;
    let syms = s.request("textDocument/documentSymbol", json!({"textDocument": {"uri": u}})).await;
    assert_eq!(syms[0]["name"], "aws_instance.web", "{syms}");
    assert_eq!(syms[0]["children"][0]["name"], "lifecycle", "{syms}");
    assert_eq!(syms[0]["children"][0]["children"][0]["name"], "prevent_destroy", "{syms}");

    let mut s = Session::start_as(Enc::Utf16, json!({}), json!({})).await;
    let u = s.open("main.tf", TF).await;
    let syms = s.request("textDocument/documentSymbol", json!({"textDocument": {"uri": u}})).await;
    assert_eq!(syms[0]["name"], "aws_instance.web", "{syms}");
    assert_eq!(syms[0]["location"]["uri"], u.as_str(), "{syms}");
    assert!(syms[0].get("children").is_none(), "{syms}");
}

#[tokio::test]
async fn folds_keep_the_closing_brace_visible_for_a_line_folding_client() {
    let mut s = Session::start(Enc::Utf16).await;
    let u = s.open("main.tf", TF).await;
    let folds = s.request("textDocument/foldingRange", json!({"textDocument": {"uri": u}})).await;
    assert_eq!(
        folds,
        json!([
            {"startLine": 0, "endLine": 3, "kind": "region"},
            {"startLine": 1, "endLine": 2, "kind": "region"},
        ])
    );

    let mut s = Session::start_as(Enc::Utf16, json!({}), json!({})).await;
    let u = s.open("main.tf", TF).await;
    let folds = s.request("textDocument/foldingRange", json!({"textDocument": {"uri": u}})).await;
    assert_eq!(
        folds[0],
        json!({"startLine": 0, "startCharacter": 0, "endLine": 4, "endCharacter": 1, "kind": "region"})
    );
}

#[tokio::test]
async fn selection_ranges_answer_each_position_and_links_point_at_the_registry() {
    let mut s = Session::start(Enc::Utf16).await;
    let u = s.open("main.tf", TF).await;
    let sel = s
        .request(
            "textDocument/selectionRange",
            json!({"textDocument": {"uri": u}, "positions": [{"line": 2, "character": 6}, {"line": 0, "character": 0}]}),
        )
        .await;
    assert_eq!(sel.as_array().map(Vec::len), Some(2), "{sel}");
    assert_eq!(sel[0]["range"], json!({"start": {"line": 2, "character": 4}, "end": {"line": 2, "character": 19}}));
    let links = s.request("textDocument/documentLink", json!({"textDocument": {"uri": u}})).await;
    assert_eq!(
        links[0]["target"], "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/instance",
        "{links}"
    );
}

#[tokio::test]
async fn reference_lenses_by_default_and_none_when_the_setting_says_so() {
    let tf = "variable \"n\" {}\noutput \"o\" { value = var.n }\nlocals { a = var.n }\n";
    let mut s = Session::start_with(Enc::Utf16, json!({"hclTypes": {"codeLens": {"references": false}}})).await;
    let u = s.open("main.tf", tf).await;
    let lenses = s.request("textDocument/codeLens", json!({"textDocument": {"uri": u}})).await;
    assert_eq!(lenses, json!([]));

    // On by default (issue 48.5): a client that shows lenses asks for them.
    let mut s = Session::start(Enc::Utf16).await;
    let u = s.open("main.tf", tf).await;
    let lenses = s.request("textDocument/codeLens", json!({"textDocument": {"uri": u}})).await;
    let titles: Vec<&str> = lenses.as_array().unwrap().iter().filter_map(|l| l["command"]["title"].as_str()).collect();
    assert_eq!(titles, ["2 references", "0 references"], "{lenses}");

    // An output is read by the module's callers: an open one that calls it
    // twice, reading the output three times.
    std::fs::create_dir_all(s.dir.join("app")).unwrap();
    s.disk("app/main.tf", "module \"a\" {\n  source = \"../\"\n}\nmodule \"b\" {\n  source = \"../\"\n}\nlocals {\n  x = module.a.o\n  y = [module.b.o, module.a.o]\n}\n");
    let app = s.open("app/main.tf", &std::fs::read_to_string(s.dir.join("app/main.tf")).unwrap()).await;
    let _ = s
        .request("textDocument/hover", json!({"textDocument": {"uri": app}, "position": {"line": 0, "character": 0}}))
        .await;
    let lenses = s.request("textDocument/codeLens", json!({"textDocument": {"uri": u}})).await;
    let titles: Vec<&str> = lenses.as_array().unwrap().iter().filter_map(|l| l["command"]["title"].as_str()).collect();
    // And the module, called twice by that caller, says so on its first item.
    assert_eq!(titles, ["2 module calls", "2 references", "3 references"], "{lenses}");
}

async fn logs_after_settings(s: &mut Session, settings: serde_json::Value) -> Vec<serde_json::Value> {
    let seen = s.logs.lock().unwrap().len();
    s.notify("workspace/didChangeConfiguration", json!({"settings": settings})).await;
    for _ in 0..100 {
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
        let l = s.logs.lock().unwrap();
        if l.len() > seen {
            return l[seen..].to_vec();
        }
    }
    Vec::new()
}

#[tokio::test]
async fn log_messages_follow_the_log_level_setting_and_set_trace() {
    let mut s = Session::start(Enc::Utf16).await;
    let info = logs_after_settings(&mut s, json!({"hclTypes": {"logLevel": "info"}})).await;
    assert!(info.iter().any(|m| m["message"].as_str().is_some_and(|t| t.starts_with("settings changed"))), "{info:?}");
    // `error` lets no info message through; `$/setTrace` `messages` does again.
    assert!(logs_after_settings(&mut s, json!({"hclTypes": {"logLevel": "error"}})).await.is_empty());
    // The old name still works as a string; VS Code's `trace: {server: …}`
    // object (its client tracing) says nothing about the level.
    assert!(!logs_after_settings(&mut s, json!({"hclTypes": {"trace": "info"}})).await.is_empty());
    assert!(logs_after_settings(&mut s, json!({"hclTypes": {"logLevel": "error"}})).await.is_empty());
    assert!(logs_after_settings(&mut s, json!({"hclTypes": {"trace": {"server": "verbose"}}})).await.is_empty());
    s.notify("$/setTrace", json!({"value": "messages"})).await;
    let again = logs_after_settings(&mut s, json!({"hclTypes": {}})).await;
    assert!(!again.is_empty());
}
