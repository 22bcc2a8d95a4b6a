//! Terraform's JSON syntax (`*.tf.json`) in the editor (issue 29 item 4):
//! a module file like any `.tf`, re-read whole after every edit since its
//! document holds its lowering to native syntax (docs/spec/analysis.md §7.1).

use crate::lsp_support;

use lsp_support::*;
use serde_json::{json, Value};

const VARIABLES: &str =
    "{\n  \"variable\": {\n    \"region\": {\n      \"type\": \"string\",\n      \"default\": \"a\"\n    }\n  }\n}\n";

#[tokio::test]
async fn json_files_declare_and_edits_to_them_are_reread() {
    let mut s = Session::start(Enc::Utf16).await;
    s.disk("variables.tf.json", VARIABLES);
    let j = s.open("variables.tf.json", VARIABLES).await;
    let m = s.open("main.tf", "output \"r\" {\n  value = var.region\n}\n").await;
    assert!(s.diagnostics(&m, 1).await.is_empty(), "var.region is declared in variables.tf.json");
    assert!(s.diagnostics(&j, 1).await.is_empty());
    // An incremental edit (the server must not splice it into the lowering):
    // `"a"` becomes `["a"]`, a tuple for a string variable, on line 5.
    s.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": j, "version": 2}, "contentChanges": [
            {"range": {"start": {"line": 4, "character": 17}, "end": {"line": 4, "character": 20}}, "text": "[\"a\"]"}
        ]}),
    )
    .await;
    let diags = s.diagnostics(&j, 2).await;
    assert_eq!(diags.len(), 1, "{diags:?}");
    assert_eq!(diags[0]["range"]["start"]["line"], 4, "{diags:?}");
    // A comma too many: one syntax error at the offending `}`.
    s.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": j, "version": 3}, "contentChanges": [
            {"range": {"start": {"line": 4, "character": 22}, "end": {"line": 4, "character": 22}}, "text": ","}
        ]}),
    )
    .await;
    let diags = s.diagnostics(&j, 3).await;
    assert_eq!(diags.len(), 1, "{diags:?}");
    assert_eq!(diags[0]["code"], "syntax");
    assert_eq!(diags[0]["range"]["start"], json!({"line": 5, "character": 4}), "{diags:?}");
}

/// A minified JSON file with multi-byte characters and escapes ahead of
/// its errors (issue 29, point 4 follow-ups): the diagnostics, a hover and
/// a definition are at the JSON's own line and column, in both position
/// encodings. The lowering adds a line per attribute, which is where the
/// positions drifted.
#[tokio::test]
async fn one_line_json_keeps_its_positions() {
    both(|enc| {
        Box::pin(async move {
            let mut s = Session::start(enc).await;
            let text = r#"{"variable":{"zone":{"type":"number"}},"locals":{"_é":"ü\/\b😀","_a":"${var.nope}","_b":"${var.zone}"}}"#;
            let j = s.open("min.tf.json", text).await;
            let diags = s.diagnostics(&j, 1).await;
            assert_eq!(diags.len(), 1, "{diags:?}");
            let at = text.find("var.nope").unwrap();
            assert_eq!(diags[0]["range"]["start"], position(text, at, enc), "{diags:?}");
            assert_eq!(diags[0]["range"]["end"], position(text, at + "var.nope".len(), enc), "{diags:?}");
            // Hover on the reference in the last template, and on the
            // declaration's own name.
            let hover_at = |name: &str, n: usize| {
                json!({"textDocument": {"uri": j}, "position": position(text, text.find(name).unwrap() + n, enc)})
            };
            let h = s.request("textDocument/hover", hover_at("var.zone", 5)).await;
            assert_eq!(first_block(&h), "number", "{h}");
            let at = text.find("var.zone").unwrap();
            assert_eq!(h["range"]["start"], position(text, at, enc), "{h}");
            let h = s.request("textDocument/hover", hover_at("\"zone\"", 2)).await;
            assert_eq!(first_block(&h), "number", "{h}");
            assert_eq!(h["range"]["start"], position(text, text.find("\"zone\"").unwrap(), enc), "{h}");
            // Definition: from the reference to the declaration's name.
            let d = s.request("textDocument/definition", hover_at("var.zone", 5)).await;
            assert_eq!(d["range"]["start"], position(text, text.find("\"zone\"").unwrap(), enc), "{d}");
        })
    })
    .await;
}

/// A minified module file with a multi-byte key ahead of a declaration's use.
const MINIFIED: &str = r#"{"variable":{"zone":{"type":"number"}},"locals":{"é":"ü","twice":"${var.zone * 2}"}}"#;

/// A session with [`MINIFIED`] open and analysed, and its URI.
async fn minified() -> (Session, String) {
    let mut s = Session::start(Enc::Utf16).await;
    let j = s.open("min.tf.json", MINIFIED).await;
    let _ = s.diagnostics(&j, 1).await;
    (s, j)
}

/// The other position-bearing answers in a minified JSON file are at the
/// JSON's places too: highlights (a declaration's name and its use),
/// outline symbols, inlay hints after a local's name, and the semantic
/// token of a type keyword inside a JSON string.
#[tokio::test]
async fn one_line_json_answers_at_its_own_places() {
    let (mut s, j) = minified().await;
    let text = MINIFIED;
    let at = |needle: &str, n: usize| position(text, text.find(needle).unwrap() + n, Enc::Utf16);
    let h = s
        .request("textDocument/documentHighlight", json!({"textDocument": {"uri": j}, "position": at("var.zone", 5)}))
        .await;
    let mut starts: Vec<Value> = h.as_array().unwrap().iter().map(|h| h["range"]["start"].clone()).collect();
    starts.sort_by_key(|p| p["character"].as_u64());
    assert_eq!(starts, [at("zone", 0), at("var.zone", 4)], "{h}");
    let symbols = s.request("textDocument/documentSymbol", json!({"textDocument": {"uri": j}})).await;
    let names: Vec<(String, Value)> = symbols
        .as_array()
        .unwrap()
        .iter()
        .map(|s| (s["name"].as_str().unwrap().to_string(), s["selectionRange"]["start"].clone()))
        .collect();
    assert!(names.contains(&("local.twice".into(), at("twice", 0))), "{symbols}");
    assert!(names.contains(&("var.zone".into(), at("\"zone\"", 0))), "{symbols}");
    let hints = s
        .request(
            "textDocument/inlayHint",
            json!({"textDocument": {"uri": j}, "range": {"start": {"line": 0, "character": 0}, "end": {"line": 1, "character": 0}}}),
        )
        .await;
    let places: Vec<Value> = hints.as_array().unwrap().iter().map(|h| h["position"].clone()).collect();
    assert!(places.contains(&at("twice", 5)), "after `twice`: {hints}");
    let tokens = s.request("textDocument/semanticTokens/full", json!({"textDocument": {"uri": j}})).await;
    let data = tokens["data"].as_array().unwrap();
    assert_eq!((&data[0], &data[1], &data[2]), (&json!(0), &at("number", 0)["character"], &json!(6)), "{tokens}");
}

/// Expand selection in a minified JSON file starts at the word under the
/// cursor in the JSON, and every range holds the one before; folding of a
/// JSON block spans its own lines.
#[tokio::test]
async fn selection_and_folding_follow_the_json() {
    let (mut s, j) = minified().await;
    let text = MINIFIED;
    let at = |needle: &str, n: usize| position(text, text.find(needle).unwrap() + n, Enc::Utf16);
    let r = s
        .request("textDocument/selectionRange", json!({"textDocument": {"uri": j}, "positions": [at("zone * 2", 1)]}))
        .await;
    assert_eq!(r[0]["range"], json!({"start": at("zone * 2", 0), "end": at("zone * 2", 4)}), "{r}");
    let mut chain = vec![r[0]["range"].clone()];
    let mut p = &r[0]["parent"];
    while !p.is_null() {
        chain.push(p["range"].clone());
        p = &p["parent"];
    }
    let col = |v: &Value| v["character"].as_u64().unwrap();
    for w in chain.windows(2) {
        assert!(col(&w[1]["start"]) <= col(&w[0]["start"]) && col(&w[0]["end"]) <= col(&w[1]["end"]), "{chain:?}");
    }
    let pretty = "{\n  \"locals\": {\n    \"a\": 1,\n    \"b\": [\n      1,\n      2\n    ]\n  }\n}\n";
    let p = s.open("pretty.tf.json", pretty).await;
    let _ = s.diagnostics(&p, 1).await;
    let folds = s.request("textDocument/foldingRange", json!({"textDocument": {"uri": p}})).await;
    let spans: Vec<(u64, u64)> = folds
        .as_array()
        .unwrap()
        .iter()
        .map(|f| (f["startLine"].as_u64().unwrap(), f["endLine"].as_u64().unwrap()))
        .collect();
    // (To the line before the closing bracket, which stays visible.)
    assert!(spans.contains(&(1, 6)) && spans.contains(&(3, 5)), "{folds}");
}

/// Definition of a called module's output declared in a minified JSON file
/// (a file of another module, not among the caller's documents) lands on
/// the output's name in that JSON.
#[tokio::test]
async fn definition_into_a_callees_one_line_json() {
    let mut s = Session::start(Enc::Utf16).await;
    let child = r#"{"variable":{"é":{},"size":{"type":"number"}},"output":{"first":{"value":1},"out":{"value":"${var.size}"}}}"#;
    std::fs::create_dir_all(s.dir.join("child")).unwrap();
    s.disk("child/outputs.tf.json", child);
    let main = "module \"c\" {\n  source = \"./child\"\n  size   = 1\n}\noutput \"x\" { value = module.c.out }\n";
    let m = s.open("main.tf", main).await;
    let _ = s.diagnostics(&m, 1).await;
    let pos = position(main, main.find("c.out").unwrap() + 3, Enc::Utf16);
    let d = s.request("textDocument/definition", json!({"textDocument": {"uri": m}, "position": pos})).await;
    assert!(d["uri"].as_str().unwrap().ends_with("child/outputs.tf.json"), "{d}");
    assert_eq!(d["range"]["start"], position(child, child.find("\"out\"").unwrap(), Enc::Utf16), "{d}");
}
