//! Terraform 1.15's type arguments outside variables, in the editor: an
//! output's `type` and `convert`'s second argument (issue 28 items 1–2).
//! Cursors are `$0`.

use crate::lsp_support;

use lsp_support::*;
use serde_json::{json, Value};

fn labels(v: &Value) -> Vec<String> {
    let items = v.get("items").unwrap_or(v);
    items.as_array().unwrap().iter().map(|i| i["label"].as_str().unwrap().to_string()).collect()
}

const OUTPUT: &str = "output \"y\" {\n  type  = object({ a = optional(li$0st(string), []) })\n  value = {}\n}\n";

#[tokio::test]
async fn hover_in_an_output_type_shows_the_type_it_denotes() {
    let mut s = Session::start(Enc::Utf16).await;
    let h = s.at("textDocument/hover", "outputs.tf", OUTPUT).await;
    assert_eq!(first_block(&h), "list(string)");
    // On the output's name: the declared type with the default applied.
    let h = s.at("textDocument/hover", "outputs.tf", &OUTPUT.replace("$0", "").replacen("\"y\"", "\"$0y\"", 1)).await;
    assert_eq!(first_block(&h), "object({a = list(string)})");
}

#[tokio::test]
async fn completion_in_an_output_type_offers_type_constructors() {
    both(|enc| {
        Box::pin(async move {
            let mut s = Session::start(enc).await;
            let c = s.at("textDocument/completion", "outputs.tf", "output \"o\" {\n  type = list($0\n}\n").await;
            let l = labels(&c);
            for want in ["string", "number", "object", "map"] {
                assert!(l.contains(&want.to_string()), "{enc:?}: {want} missing from {l:?}");
            }
            // An output's value is no type position.
            let c = s.at("textDocument/completion", "outputs.tf", "output \"o\" {\n  value = li$0\n}\n").await;
            assert!(!labels(&c).contains(&"object".to_string()), "{enc:?}");
        })
    })
    .await;
}

#[tokio::test]
async fn semantic_tokens_cover_an_output_type() {
    let mut s = Session::start(Enc::Utf16).await;
    let text = "output \"o\" {\n  type  = map(string)\n  value = {}\n}\n";
    let u = s.open("o.tf", text).await;
    let t = s.request("textDocument/semanticTokens/full", json!({"textDocument": {"uri": u}})).await;
    // `map` a constructor and `string` a type keyword (both the language's own: +4).
    let got = decode_tokens(text, &t["data"], Enc::Utf16);
    assert_eq!(
        got,
        ["output:type", "\"o\":property+1", "type:property", "map:function+4", "string:type+4", "value:property"]
    );
}

/// The module, which Terraform 1.15.5 validates with exactly two
/// errors: an output value that is no string, and `convert([1], bool)`.
#[tokio::test]
async fn typed_outputs_and_convert_are_checked_as_terraform_does() {
    let mut s = Session::start(Enc::Utf16).await;
    let text = "variable \"n\" {\n  type    = number\n  default = 1\n}\noutput \"x\" {\n  type  = string\n  value = [var.n]\n}\noutput \"y\" {\n  type  = object({ a = optional(string, \"z\") })\n  value = {}\n}\nlocals {\n  _c = convert(var.n, string)\n  _d = convert({ a = 1 }, map(string))\n  _e = convert([1], bool)\n}\n";
    let u = s.open("main.tf", text).await;
    let diags = s.diagnostics(&u, 1).await;
    let found: Vec<(u64, String)> = diags
        .iter()
        .map(|d| (d["range"]["start"]["line"].as_u64().unwrap(), d["code"].as_str().unwrap().to_string()))
        .collect();
    // (`[1]` is a constant: `invalid-value`, as everywhere a constant meets a type; issue 43.)
    assert_eq!(found, [(6, "type-mismatch".to_string()), (15, "invalid-value".to_string())], "{diags:?}");
    let h = s.at("textDocument/hover", "main.tf", &text.replace("  _c = convert", "  $0_c = convert")).await;
    assert_eq!(first_block(&h), "string");
}

/// Editing an output's `type` (the incremental analysis patches the edited
/// block): the output's type and its value's check follow each keystroke.
#[tokio::test]
async fn editing_an_output_type_is_followed() {
    let mut s = Session::start(Enc::Utf16).await;
    let text = "output \"o\" {\n  type  = number\n  value = \"x\"\n}\n";
    let u = s.open("o.tf", text).await;
    let codes = |d: &[Value]| d.iter().map(|d| d["code"].as_str().unwrap().to_string()).collect::<Vec<_>>();
    assert_eq!(codes(&s.diagnostics(&u, 1).await), ["invalid-value"]);
    // `number` → `string`: the value now fits.
    let change = json!({"range": {"start": {"line": 1, "character": 10}, "end": {"line": 1, "character": 16}}, "text": "string"});
    s.notify("textDocument/didChange", json!({"textDocument": {"uri": u, "version": 2}, "contentChanges": [change]}))
        .await;
    assert!(s.diagnostics(&u, 2).await.is_empty());
    let h = s
        .request("textDocument/hover", json!({"textDocument": {"uri": u}, "position": {"line": 0, "character": 8}}))
        .await;
    assert_eq!(first_block(&h), "string");
    // And back to a type the value does not fit.
    let change =
        json!({"range": {"start": {"line": 1, "character": 10}, "end": {"line": 1, "character": 16}}, "text": "bool"});
    s.notify("textDocument/didChange", json!({"textDocument": {"uri": u, "version": 3}, "contentChanges": [change]}))
        .await;
    assert_eq!(codes(&s.diagnostics(&u, 3).await), ["invalid-value"]);
    let h = s
        .request("textDocument/hover", json!({"textDocument": {"uri": u}, "position": {"line": 0, "character": 8}}))
        .await;
    assert_eq!(first_block(&h), "bool");
}
