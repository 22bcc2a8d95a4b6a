//! Semantic tokens through the server (issue 48.2): the whole document in
//! both encodings (multi-line tokens split per line), `semanticTokens/range`,
//! and `semanticTokens/full/delta` against the last result.

use crate::lsp_support;

use lsp_support::*;
use serde_json::{json, Value};

const TEXT: &str =
    "/* 😀\n   two */ locals { a = \"é${var.x}\" }\nresource \"t\" \"n\" {\n  v = <<EOT\n  ${local.a}\nEOT\n}\n";

fn want() -> Vec<&'static str> {
    vec![
        "/* 😀:comment",
        "   two */:comment",
        "locals:type",
        "a:variable+3",
        "\":string",
        "é:string",
        "${:operator",
        "var:namespace+4",
        "x:parameter",
        "}:operator",
        "\":string",
        "resource:type",
        "\"t\":type",
        "\"n\":variable+1",
        "v:property",
        "<<EOT:string",
        "  :string",
        "${:operator",
        "local:namespace+4",
        "a:variable+2",
        "}:operator",
        "EOT:string",
    ]
}

#[tokio::test]
async fn full_tokens_colour_the_whole_file_in_both_encodings() {
    both(|enc| {
        Box::pin(async move {
            let mut s = Session::start(enc).await;
            let u = s.open("main.tf", TEXT).await;
            let t = s.request("textDocument/semanticTokens/full", json!({"textDocument": {"uri": u}})).await;
            assert_eq!(decode_tokens(TEXT, &t["data"], enc), want(), "{enc:?}");
            assert!(t["resultId"].is_string(), "{t}");
        })
    })
    .await;
}

#[tokio::test]
async fn range_tokens_are_those_of_the_lines_asked() {
    let mut s = Session::start(Enc::Utf16).await;
    let u = s.open("main.tf", TEXT).await;
    let range = json!({"start": {"line": 2, "character": 0}, "end": {"line": 4, "character": 0}});
    let t = s.request("textDocument/semanticTokens/range", json!({"textDocument": {"uri": u}, "range": range})).await;
    // Decoded from the range's first token: its `delta_line` counts from line 0.
    assert_eq!(decode_tokens(TEXT, &t["data"], Enc::Utf16), want()[11..16]);
}

/// Applies a delta's edits (LSP: `start` and `deleteCount` count integers).
fn apply(old: &[Value], edits: &Value) -> Vec<Value> {
    let mut data = old.to_vec();
    let mut edits: Vec<&Value> = edits.as_array().unwrap().iter().collect();
    edits.sort_by_key(|e| std::cmp::Reverse(e["start"].as_u64().unwrap()));
    for e in edits {
        let (start, n) = (e["start"].as_u64().unwrap() as usize, e["deleteCount"].as_u64().unwrap() as usize);
        let new = e["data"].as_array().cloned().unwrap_or_default();
        data.splice(start..start + n, new);
    }
    data
}

#[tokio::test]
async fn a_delta_sends_the_changed_tokens_only_and_a_forgotten_id_gets_them_all() {
    let mut s = Session::start(Enc::Utf16).await;
    let big: String = (0..200).map(|i| format!("locals {{ a{i} = var.x{i} }}\n")).collect();
    let u = s.open("main.tf", &big).await;
    let first = s.request("textDocument/semanticTokens/full", json!({"textDocument": {"uri": u}})).await;
    let old = first["data"].as_array().unwrap().clone();
    // Rename one local in the middle: `a100` becomes `bb100 + 1`.
    let line = 100;
    let edit = json!({"range": {"start": {"line": line, "character": 9}, "end": {"line": line, "character": 10}},
                      "text": "bb"});
    s.notify("textDocument/didChange", json!({"textDocument": {"uri": u, "version": 2}, "contentChanges": [edit]}))
        .await;
    let changed = big.replacen("a100 =", "bb100 =", 1);
    s.diagnostics(&u, 2).await;
    let d = s
        .request(
            "textDocument/semanticTokens/full/delta",
            json!({"textDocument": {"uri": u}, "previousResultId": first["resultId"]}),
        )
        .await;
    assert_ne!(d["resultId"], first["resultId"]);
    let edits = &d["edits"];
    let sent: usize = edits.as_array().unwrap().iter().map(|e| e["data"].as_array().map_or(0, Vec::len)).sum();
    assert!(sent <= 15, "only the changed tokens are sent: {d}");
    let patched = apply(&old, edits);
    let fresh = s.request("textDocument/semanticTokens/full", json!({"textDocument": {"uri": u}})).await;
    assert_eq!(Value::Array(patched.clone()), fresh["data"]);
    assert!(decode_tokens(&changed, &Value::Array(patched), Enc::Utf16).contains(&"bb100:variable+3".to_string()));
    // An id the server never gave (or forgot) gets the full tokens.
    let again = s
        .request(
            "textDocument/semanticTokens/full/delta",
            json!({"textDocument": {"uri": u}, "previousResultId": "no such id"}),
        )
        .await;
    assert_eq!(again["data"], fresh["data"]);
}

/// A large answer (over stdio its integers are written as JSON by the
/// handler and put in by the transport, `crates/lsp/src/splice.rs`) is
/// the same as in-process tokens: `full`, `range` over the whole text, and
/// `full/delta` from an id the server does not hold.
#[tokio::test]
async fn a_large_answer_is_spliced_whole_into_its_own_response() {
    let mut s = Session::start(Enc::Utf16).await;
    let big: String = (0..3000).map(|i| format!("locals {{ a{i} = var.x{i} }}\n")).collect();
    let u = s.open("main.tf", &big).await;
    let full = s.request("textDocument/semanticTokens/full", json!({"textDocument": {"uri": u}})).await;
    let data = full["data"].as_array().expect("the tokens").clone();
    assert_eq!(data.len(), 3000 * 4 * 5, "four tokens a line: {}", data.len());
    let decoded = decode_tokens(&big, &full["data"], Enc::Utf16);
    assert_eq!(decoded[4..8], ["locals:type", "a1:variable+3", "var:namespace+4", "x1:parameter"][..]);
    let end = json!({"line": 3000, "character": 0});
    let range = json!({"start": {"line": 0, "character": 0}, "end": end});
    let all = s.request("textDocument/semanticTokens/range", json!({"textDocument": {"uri": u}, "range": range})).await;
    assert_eq!(all["data"], full["data"]);
    let delta = s
        .request(
            "textDocument/semanticTokens/full/delta",
            json!({"textDocument": {"uri": u}, "previousResultId": "no such id"}),
        )
        .await;
    assert_eq!(delta["data"], full["data"]);
    assert_ne!(delta["resultId"], full["resultId"]);
}

/// After edits, the whole-document tokens the server puts together from
/// what it kept (items' tokens, the last encoding) are those a server
/// that opens the edited text computes afresh: edits that add lines,
/// break a string, type before a multi-line comment and past non-ASCII
/// text.
#[tokio::test]
async fn full_tokens_after_edits_are_those_of_the_edited_text_opened_afresh() {
    let mut text: String =
        (0..60).map(|i| format!("locals {{ a{i} = \"é${{var.x{i}}}\" }}\n/* 😀\n c{i} */\n")).collect();
    let mut s = Session::start(Enc::Utf16).await;
    let u = s.open("main.tf", &text).await;
    s.request("textDocument/semanticTokens/full", json!({"textDocument": {"uri": u}})).await;
    // (line, character in UTF-16, text): each applied to the text too.
    let edits = [(30, 0, "x = 1\n"), (91, 15, "\""), (3, 0, "# c\n\n"), (150, 17, "é")];
    for (version, (line, character, new)) in edits.into_iter().enumerate() {
        let start = text.split_inclusive('\n').take(line).map(str::len).sum::<usize>();
        let l = &text[start..];
        let at = start
            + l.char_indices()
                .scan(0, |u, (i, c)| Some((i, std::mem::replace(u, *u + c.len_utf16()))))
                .find(|&(_, u)| u == character)
                .map_or(l.len(), |(i, _)| i);
        text.insert_str(at, new);
        let range =
            json!({"start": {"line": line, "character": character}, "end": {"line": line, "character": character}});
        let version = version as i64 + 2;
        s.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": u, "version": version}, "contentChanges": [{"range": range, "text": new}]}),
        )
        .await;
        s.diagnostics(&u, version).await;
        let kept = s.request("textDocument/semanticTokens/full", json!({"textDocument": {"uri": u}})).await;
        let mut fresh = Session::start(Enc::Utf16).await;
        let v = fresh.open("main.tf", &text).await;
        let want = fresh.request("textDocument/semanticTokens/full", json!({"textDocument": {"uri": v}})).await;
        assert_eq!(kept["data"], want["data"], "after edit {version}");
    }
}
