//! The language server in process, for the smaller protocol requests
//! (issue 48.5): `textDocument/declaration`, `textDocument/onTypeFormatting`
//! (`}` and newline, as `terraform fmt` indents), `workspace/executeCommand`
//! (`hcl-types.checkWorkspace`, `hcl-types.reloadSchemas`), and hover on an
//! argument's name (48.1).

use crate::lsp_support;

use lsp_support::*;
use serde_json::{json, Value};

#[tokio::test]
async fn declaration_goes_to_the_variable_as_definition_does() {
    let mut s = Session::start(Enc::Utf16).await;
    let fixture = "variable \"region\" {\n  type = string\n}\noutput \"r\" { value = var.reg$0ion }\n";
    let decl = s.at("textDocument/declaration", "main.tf", fixture).await;
    let def = s.at("textDocument/definition", "main.tf", fixture).await;
    assert_eq!(decl, def);
    assert_eq!(decl["range"]["start"], json!({"line": 0, "character": 9}), "{decl}");
}

/// A module call's argument: its declaration is the module's variable.
#[tokio::test]
async fn declaration_of_a_module_argument_is_the_modules_variable() {
    let mut s = Session::start(Enc::Utf16).await;
    std::fs::create_dir_all(s.dir.join("net")).unwrap();
    s.disk("net/main.tf", "variable \"cidr\" {\n  type = string\n}\n");
    let decl = s
        .at(
            "textDocument/declaration",
            "main.tf",
            "module \"net\" {\n  source = \"./net\"\n  ci$0dr   = \"10.0.0.0/16\"\n}\n",
        )
        .await;
    assert!(decl["uri"].as_str().is_some_and(|u| u.ends_with("net/main.tf")), "{decl}");
    assert_eq!(decl["range"]["start"]["line"], 0, "{decl}");
}

async fn on_type(s: &mut Session, name: &str, text: &str, ch: &str) -> Value {
    let (text, offset) = cursor(text);
    let u = s.open(name, &text).await;
    let pos = position(&text, offset, s.enc);
    s.request(
        "textDocument/onTypeFormatting",
        json!({"textDocument": {"uri": u}, "position": pos, "ch": ch, "options": {"tabSize": 4, "insertSpaces": true}}),
    )
    .await
}

#[tokio::test]
async fn a_newline_is_indented_as_terraform_fmt_would() {
    let mut s = Session::start(Enc::Utf16).await;
    // Enter after `lifecycle {` in a block not closed yet: the new line
    // gets four spaces (fmt's two per level, whatever the tab size).
    let edits = on_type(&mut s, "a.tf", "resource \"a\" \"b\" {\n  lifecycle {\n$0", "\n").await;
    assert_eq!(
        edits,
        json!([{"newText": "    ", "range": {"start": {"line": 2, "character": 0}, "end": {"line": 2, "character": 0}}}])
    );
    // Already indented so: nothing to do.
    let edits = on_type(&mut s, "b.tf", "locals {\n  $0\n}\n", "\n").await;
    assert_eq!(edits, json!([]));
}

#[tokio::test]
async fn a_closing_brace_formats_the_block_it_closes() {
    let mut s = Session::start(Enc::Utf16).await;
    // The block's `=` aligned and the brace put back, as `terraform fmt`
    // writes them; the edit covers only what changes.
    let text = "locals {\n  a=1\n  bb = 2\n    }$0\n";
    let edits = on_type(&mut s, "a.tf", text, "}").await;
    let (plain, _) = cursor(text);
    let formatted = apply(&plain, &edits);
    assert_eq!(formatted, "locals {\n  a  = 1\n  bb = 2\n}\n", "{edits}");
    // A document that does not parse yet: the brace's line only.
    let text = "resource \"a\" \"b\" {\n  lifecycle {\n      }$0\n  x = \n";
    let edits = on_type(&mut s, "b.tf", text, "}").await;
    // (Four of the six spaces go: the minimal edit.)
    assert_eq!(
        edits,
        json!([{"newText": "", "range": {"start": {"line": 2, "character": 2}, "end": {"line": 2, "character": 6}}}])
    );
}

/// `text` with the (non-overlapping) edits applied.
fn apply(text: &str, edits: &Value) -> String {
    let lines: Vec<&str> = text.split('\n').collect();
    let offset = |p: &Value| -> usize {
        let line = p["line"].as_u64().unwrap() as usize;
        lines[..line].iter().map(|l| l.len() + 1).sum::<usize>() + p["character"].as_u64().unwrap() as usize
    };
    let mut out = text.to_string();
    let mut edits: Vec<&Value> = edits.as_array().unwrap().iter().collect();
    edits.sort_by_key(|e| std::cmp::Reverse(offset(&e["range"]["start"])));
    for e in edits {
        let (a, b) = (offset(&e["range"]["start"]), offset(&e["range"]["end"]));
        out.replace_range(a..b, e["newText"].as_str().unwrap());
    }
    out
}

#[tokio::test]
async fn an_unknown_command_is_refused_and_the_two_run() {
    let mut s = Session::start(Enc::Utf16).await;
    let e = s.try_request("workspace/executeCommand", json!({"command": "nope", "arguments": []})).await.unwrap_err();
    assert!(e.message.contains("hcl-types.checkWorkspace"), "{e:?}");
}

/// "Check workspace" publishes the closed files of the open module (and
/// of its callers) to a client that does not pull.
#[tokio::test]
async fn check_workspace_publishes_the_closed_files_of_the_open_modules() {
    let mut s = Session::start(Enc::Utf16).await;
    s.disk("other.tf", "output \"o\" { value = var.missing }\n");
    let u = s.open("main.tf", "locals { a = 1 }\n").await;
    let _ = s.diagnostics(&u, 1).await;
    let other = uri(&s.dir.join("other.tf"));
    let seen = s.publications();
    let answer = s.request("workspace/executeCommand", json!({"command": "hcl-types.checkWorkspace"})).await;
    assert_eq!(answer["closedFiles"], 1, "{answer}");
    let diags = s.diagnostics_after(&other, seen).await;
    assert!(diags.iter().any(|d| d["message"].as_str().is_some_and(|m| m.contains("missing"))), "{diags:?}");
}

/// "Reload schemas" reads the schema files again, though their time did
/// not change (a file replaced within the same second, or on a file
/// system whose times are coarse).
#[tokio::test]
async fn reload_schemas_reads_the_schema_files_again() {
    let dir = tempdir();
    let schema = dir.join("schema.json");
    let demo = include_str!("../schemas/demo.json");
    std::fs::write(&schema, demo).unwrap();
    let t0 = std::fs::metadata(&schema).unwrap().modified().unwrap();
    let mut s =
        Session::start_with(Enc::Utf16, json!({"hclTypes": {"providerSchemas": [schema.to_string_lossy()]}})).await;
    let text = "resource \"demo_instance\" \"t\" {\n  na$0me = 1\n}\n";
    let before = s.at("textDocument/hover", "main.tf", text).await;
    assert!(first_block(&before) != "any", "{before}");
    // The same file without its resource types, at the same time.
    std::fs::write(&schema, demo.replace("demo_instance", "demo_gone")).unwrap();
    std::fs::File::options().write(true).open(&schema).unwrap().set_modified(t0).unwrap();
    let answer = s.request("workspace/executeCommand", json!({"command": "hcl-types.reloadSchemas"})).await;
    assert_eq!(answer["schemaFiles"], 1, "{answer}");
    let after = s.at("textDocument/hover", "main.tf", text).await;
    let prose = after["contents"]["value"].as_str().unwrap_or_default().to_string();
    assert!(prose.contains("no provider schema loaded has this type"), "{after}");
}

#[tokio::test]
async fn hover_on_an_argument_name_describes_it() {
    let mut s = Session::start(Enc::Utf16).await;
    let h = s.at("textDocument/hover", "main.tf", "resource \"aws_instance\" \"web\" {\n  cou$0nt = 2\n}\n").await;
    assert_eq!(first_block(&h), "number", "{h}");
    assert!(h["contents"]["value"].as_str().unwrap().contains("Meta-argument `count`"), "{h}");
}

/// Every request's handler runs under the dispatcher's panic guard
/// (crates/lsp/src/dispatch.rs, issue 46.4): a panic injected into it is
/// answered with one internal error naming the method, logged, and the
/// same request then answers. Before, a panic in `formatting` (run on the
/// message loop) or anywhere outside `blocking` ended the session.
#[tokio::test]
async fn a_panicking_request_handler_is_an_error_answer_and_the_server_goes_on() {
    let mut s = Session::start(Enc::Utf16).await;
    let text = "locals {\n  a = 1\n}\noutput \"o\" { value = local.a }\n";
    let u = s.open("main.tf", text).await;
    let doc = json!({"uri": u});
    let at = json!({"line": 3, "character": 28});
    let range = json!({"start": {"line": 0, "character": 0}, "end": {"line": 4, "character": 0}});
    let options = json!({"tabSize": 2, "insertSpaces": true});
    let requests = [
        ("textDocument/hover", json!({"textDocument": doc, "position": at})),
        ("textDocument/completion", json!({"textDocument": doc, "position": at})),
        ("textDocument/definition", json!({"textDocument": doc, "position": at})),
        ("textDocument/formatting", json!({"textDocument": doc, "options": options})),
        ("textDocument/rangeFormatting", json!({"textDocument": doc, "range": range, "options": options})),
        ("textDocument/semanticTokens/full", json!({"textDocument": doc})),
        ("textDocument/documentSymbol", json!({"textDocument": doc})),
        ("textDocument/foldingRange", json!({"textDocument": doc})),
        ("textDocument/codeAction", json!({"textDocument": doc, "range": range, "context": {"diagnostics": []}})),
        ("textDocument/inlayHint", json!({"textDocument": doc, "range": range})),
    ];
    for (method, params) in requests {
        hcl_types::lsp::inject_panic(method, s.dir.to_str().unwrap());
        let e = s.try_request(method, params.clone()).await.expect_err(method);
        assert_eq!(e.code, tower_lsp_server::jsonrpc::ErrorCode::InternalError, "{method}: {e:?}");
        assert!(e.message.contains(method) && e.message.contains("panic injected"), "{method}: {e:?}");
        s.try_request(method, params).await.unwrap_or_else(|e| panic!("{method} after its panic: {e:?}"));
        let logged =
            s.logs.lock().unwrap().iter().any(|l| l["type"] == 1 && l["message"].as_str().unwrap().contains(method));
        assert!(logged, "{method}: no error logged");
    }
}

/// A notification's handler panicking is a log line and the server goes
/// on; a `didChange` that panics between applying its text and parsing it
/// leaves the client's text (the next change applies on top of it, and the
/// diagnostics are of both), `didOpen` the document open.
#[tokio::test]
async fn a_panicking_notification_handler_is_logged_and_the_text_stays_the_clients() {
    let mut s = Session::start(Enc::Utf16).await;
    let marker = s.dir.to_str().unwrap().to_owned();
    let logged = |s: &Session, method: &str| {
        s.logs.lock().unwrap().iter().any(|l| l["type"] == 1 && l["message"].as_str().unwrap().contains(method))
    };
    let logs = s.logs.clone();
    let wait_log = |method: &'static str| {
        let logs = logs.clone();
        async move {
            for _ in 0..1000 {
                if logs.lock().unwrap().iter().any(|l| l["message"].as_str().unwrap().contains(method)) {
                    return;
                }
                tokio::time::sleep(std::time::Duration::from_millis(10)).await;
            }
            panic!("no log line for {method}");
        }
    };
    hcl_types::lsp::inject_panic("textDocument/didOpen", &marker);
    let u = s.open("main.tf", "locals {\n  a = 1\n}\n").await;
    wait_log("textDocument/didOpen").await;
    hcl_types::lsp::inject_panic("textDocument/didChange", &marker);
    let end = json!({"start": {"line": 3, "character": 0}, "end": {"line": 3, "character": 0}});
    let change = json!({"range": end, "text": "output \"o\" { value = local.a }\n"});
    s.notify("textDocument/didChange", json!({"textDocument": {"uri": u, "version": 2}, "contentChanges": [change]}))
        .await;
    wait_log("textDocument/didChange").await;
    let name = json!({"start": {"line": 1, "character": 2}, "end": {"line": 1, "character": 3}});
    let rename = json!({"range": name, "text": "b"});
    s.notify("textDocument/didChange", json!({"textDocument": {"uri": u, "version": 3}, "contentChanges": [rename]}))
        .await;
    // (Besides the unread local's hint, analysis.md §5.1.)
    let mut diags = s.diagnostics(&u, 3).await;
    diags.retain(|d| d["code"] != "unused-local");
    assert_eq!(diags.len(), 1, "{diags:?}");
    assert_eq!(diags[0]["range"]["start"]["line"], 3, "{diags:?}");
    assert!(diags[0]["message"].as_str().unwrap().contains('a'), "{diags:?}");
    // A notification that is not a document's: the watched files.
    hcl_types::lsp::inject_panic("workspace/didChangeWatchedFiles", &marker);
    s.notify("workspace/didChangeWatchedFiles", json!({"changes": [{"uri": uri(&s.dir.join("x.tf")), "type": 1}]}))
        .await;
    wait_log("workspace/didChangeWatchedFiles").await;
    assert!(logged(&s, "textDocument/didChange"));
    let h = s
        .request("textDocument/hover", json!({"textDocument": {"uri": u}, "position": {"line": 1, "character": 2}}))
        .await;
    assert!(!h.is_null(), "the server answers after three panics");
}

/// A module's analysis panicking on the blocking pool (after a change) is
/// logged, naming it, and costs that analysis only: the next change is
/// analysed and published. Before, `blocking` swallowed the panic silently.
#[tokio::test]
async fn a_panicking_analysis_is_logged_and_the_next_change_publishes() {
    let mut s = Session::start(Enc::Utf16).await;
    let u = s.open("main.tf", "locals {\n  a = 1\n}\n").await;
    let _ = s.diagnostics(&u, 1).await;
    hcl_types::lsp::inject_panic("analysis", s.dir.to_str().unwrap());
    let end = json!({"start": {"line": 3, "character": 0}, "end": {"line": 3, "character": 0}});
    let change = |v: i64, text: &str| json!({"textDocument": {"uri": u, "version": v}, "contentChanges": [{"range": end, "text": text}]});
    s.notify("textDocument/didChange", change(2, "output \"o\" { value = local.b }\n")).await;
    for _ in 0..1000 {
        let logged = s.logs.lock().unwrap().iter().any(|l| {
            l["type"] == 1 && l["message"].as_str().unwrap().contains("internal error in the analysis of a module")
        });
        if logged {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    s.notify("textDocument/didChange", change(3, "# done\n")).await;
    // (Besides the unread local's hint, analysis.md §5.1.)
    let mut diags = s.diagnostics(&u, 3).await;
    diags.retain(|d| d["code"] != "unused-local");
    assert_eq!(diags.len(), 1, "{diags:?}");
    assert!(diags[0]["message"].as_str().unwrap().contains('b'), "{diags:?}");
    let logs = s.logs.lock().unwrap();
    assert!(logs.iter().any(|l| l["message"].as_str().unwrap().contains("the analysis of a module")), "{logs:?}");
}
