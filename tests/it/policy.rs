//! Terraform policy files (issue 47 item 2; analysis.md §10): "Terraform
//! policy evaluates each policy file in a given directory separately"
//! (developer.hashicorp.com/terraform/policy/reference/policy), so the
//! language server, as `check` does (fixture 98), analyses each open
//! `*.policy.hcl` file as a unit of its own: two files may declare the same
//! input differently, and neither sees the other's.

use crate::lsp_support;

use lsp_support::*;
use serde_json::Value;

const SIZES: &str = "input \"limit\" {\n  type = number\n}\n\nresource_policy \"x\" \"p\" {\n  enforce {\n    condition     = input.limit > 2\n    error_message = \"small\"\n  }\n}\n";
const NAMES: &str = "input \"limit\" {\n  type = list(string)\n}\n\nresource_policy \"x\" \"q\" {\n  enforce {\n    condition     = length(input.limit) > 0 && input.env == \"dev\"\n    error_message = \"named\"\n  }\n}\n";

fn codes(diags: &[Value]) -> Vec<String> {
    diags.iter().map(|d| d["code"].as_str().unwrap().to_string()).collect()
}

#[tokio::test]
async fn the_server_analyses_each_open_policy_file_alone() {
    let mut s = Session::start(Enc::Utf16).await;
    let sizes = s.open("sizes.policy.hcl", SIZES).await;
    let names = s.open("names.policy.hcl", NAMES).await;
    // Were they one module, one `limit` would win and the other file's use
    // of it would be a type error.
    assert_eq!(s.diagnostics(&sizes, 1).await, Vec::<Value>::new());
    let diags = s.diagnostics(&names, 1).await;
    assert_eq!(codes(&diags), vec!["undefined-reference"], "{diags:?}");
    assert!(diags[0]["message"].as_str().unwrap().contains("`input.env`"), "{diags:?}");
    // A policy file on disk beside them is no part of either.
    s.disk("env.policy.hcl", "input \"env\" {\n  type = string\n}\n");
    let seen = s.publications();
    s.notify("textDocument/didSave", serde_json::json!({"textDocument": {"uri": names}})).await;
    let diags = s.diagnostics_after(&names, seen).await;
    assert_eq!(codes(&diags), vec!["undefined-reference"], "{diags:?}");
}
