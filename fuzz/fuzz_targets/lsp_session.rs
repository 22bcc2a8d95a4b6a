//! An LSP session against the in-process server: opens, incremental
//! changes (random, out-of-range and reversed ranges, astral characters,
//! stale versions, bursts of changes and requests in flight together),
//! closes, settings changes and every request at random positions.
//!
//! Checked: every request gets an `Ok` response; positions in responses lie
//! inside the current text; published diagnostics never go back to an
//! older version; and after every step, the newest diagnostics of every
//! open document are exactly those of a from-scratch analysis of the text
//! an independent model (common/model.rs) says the document has.

#![no_main]

#[path = "common/model.rs"]
mod model;

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::OnceLock;

use arbitrary::{Arbitrary, Unstructured};
use futures::future::Either;
use futures::{FutureExt, StreamExt};
use hcl_types::analysis::{analyze, Document, FileKind, SourceFile};
use hcl_types::syntax::diagnostic::{Code, Severity};
use hcl_types::lsp::Backend;
use libfuzzer_sys::fuzz_target;
use serde_json::{json, Value};
use tower::{Service, ServiceExt};
use tower_lsp_server::jsonrpc::{Request, Response};
use tower_lsp_server::{ClientSocket, LspService};

/// A directory that does not exist: the module is the open documents only.
const DIR: &str = "/nonexistent-hcl-types-fuzz";
const NAMES: [&str; 6] = ["main.tf", "variables.tf", "terraform.tfvars", "main.pp", "main.hcl", "other.hcl"];

const PIECES: &[&str] = &[
    "variable \"x\" {\n",
    "variable \"y\" {\n  type = object({ a = optional(string, \"d\"), b = list(number) })\n}\n",
    "locals {\n",
    "output \"o\" {\n  value = ",
    "config c \"list(int)\" {\n",
    "config \"o\" \"output(string)\" {}\n",
    "resource \"r\" \"t\" {\n",
    "}\n",
    "{",
    "}",
    "(",
    ")",
    "[",
    "]",
    "\"",
    "${",
    "%{ if true }",
    "%{ endif }",
    "<<EOF\n",
    "EOF\n",
    "<<-X\n",
    "type = ",
    "default = ",
    "list(",
    "object({",
    "optional(",
    "map(",
    "tuple([",
    "union(",
    "promise(",
    "string",
    "number",
    "int",
    "any",
    "none",
    "var.x",
    "var.y.a",
    "local.",
    "local.l",
    " l = ",
    ".a",
    "[0]",
    "[*]",
    " ? ",
    " : ",
    " + ",
    "for k, v in ",
    " => ",
    "...",
    "1",
    "1.5",
    "99999999999999999999999999999999",
    "true",
    "null",
    "\"s\"",
    "😀",
    "𝕏",
    "é",
    "\u{10FFFF}",
    "\r\n",
    "\r",
    "\n",
    " ",
    ",",
    "=",
    "#c\n",
    "/* c */",
    "lookup(",
    "upper(",
    "provider::p::f(",
    "\u{feff}",
    "\0",
];

#[derive(Arbitrary, Debug)]
enum Coord {
    Small(u8),
    Huge(u32),
}

impl Coord {
    fn get(&self) -> u32 {
        match self {
            Coord::Small(n) => *n as u32 % 24,
            Coord::Huge(n) => *n,
        }
    }
}

#[derive(Arbitrary, Debug)]
struct Pos {
    line: Coord,
    character: Coord,
}

impl Pos {
    fn get(&self) -> (u32, u32) {
        (self.line.get(), self.character.get())
    }
}

fn pos_json((line, character): (u32, u32)) -> Value {
    json!({"line": line, "character": character})
}

#[derive(Arbitrary, Debug)]
enum Text {
    Raw(String),
    Pieces(Vec<u8>),
    Astral(u8),
    Empty,
}

impl Text {
    fn get(&self) -> String {
        match self {
            Text::Raw(s) => s.chars().take(200).collect(),
            Text::Pieces(v) => v.iter().take(40).map(|&i| PIECES[i as usize % PIECES.len()]).collect(),
            Text::Astral(n) => ["😀", "𝕏a", "\u{10FFFF}", "é😀\r\n"][*n as usize % 4].repeat(*n as usize % 5 + 1),
            Text::Empty => String::new(),
        }
    }
}

#[derive(Arbitrary, Debug)]
enum Version {
    Next,
    Same,
    Older,
    Jump(u16),
}

#[derive(Arbitrary, Debug)]
struct Change {
    range: Option<(Pos, Pos)>,
    text: Text,
}

#[derive(Arbitrary, Debug)]
enum Req {
    Hover,
    Completion,
    SignatureHelp,
    Definition,
    InlayHint,
    SemanticTokens,
    DocumentSymbol,
    CodeAction,
}

#[derive(Arbitrary, Debug)]
enum Op {
    Open {
        doc: u8,
        text: Text,
    },
    Change {
        doc: u8,
        version: Version,
        changes: Vec<Change>,
    },
    Close {
        doc: u8,
    },
    Request {
        doc: u8,
        req: Req,
        at: Pos,
        end: Pos,
    },
    Configure {
        code: u8,
        severity: u8,
        inlay: bool,
    },
    /// Changes and requests sent without waiting for each other.
    Burst(Vec<(u8, Option<Change>, Req, Pos)>),
}

#[derive(Debug)]
struct Input {
    utf8: bool,
    ops: Vec<Op>,
}

impl<'a> Arbitrary<'a> for Input {
    fn arbitrary(u: &mut Unstructured<'a>) -> arbitrary::Result<Self> {
        let utf8 = u.arbitrary()?;
        let mut ops = Vec::new();
        while ops.len() < 48 && !u.is_empty() {
            ops.push(u.arbitrary()?);
        }
        Ok(Input { utf8, ops })
    }
}

struct Doc {
    text: String,
    version: i32,
}

/// Published diagnostics: (uri, version, diagnostics).
type Published = (String, Option<i64>, Vec<Value>);

struct Session {
    service: LspService<Backend>,
    socket: ClientSocket,
    published: Vec<Published>,
    /// Per URI: the highest version published since it was last opened.
    high: BTreeMap<String, i64>,
    next_id: i64,
    utf8: bool,
    open: BTreeMap<usize, Doc>,
    severity: BTreeMap<Code, Option<Severity>>,
}

fn uri(doc: usize) -> String {
    format!("file://{DIR}/{}", NAMES[doc])
}

fn path(doc: usize) -> PathBuf {
    PathBuf::from(DIR).join(NAMES[doc])
}

impl Session {
    fn record(&mut self, msg: Request) {
        if msg.method() != "textDocument/publishDiagnostics" {
            return;
        }
        let p = msg.params().cloned().unwrap_or(Value::Null);
        let u = p["uri"].as_str().unwrap_or_default().to_string();
        let version = p["version"].as_i64();
        if let Some(v) = version {
            let high = self.high.entry(u.clone()).or_insert(v);
            assert!(v >= *high, "diagnostics for {u} version {v} published after version {high}");
            *high = v;
        }
        let diags = p["diagnostics"].as_array().cloned().unwrap_or_default();
        self.published.push((u, version, diags));
    }

    /// Runs `fut` while collecting what the server sends to the client.
    async fn drive<F: std::future::Future>(&mut self, fut: F) -> F::Output {
        let mut fut = std::pin::pin!(fut);
        let out = loop {
            let next = self.socket.next();
            match futures::future::select(fut.as_mut(), next).await {
                Either::Left((out, _)) => break out,
                Either::Right((Some(msg), _)) => self.record(msg),
                Either::Right((None, _)) => break fut.await,
            }
        };
        while let Some(Some(msg)) = self.socket.next().now_or_never() {
            self.record(msg);
        }
        out
    }

    fn build(&mut self, method: &str, params: Value, request: bool) -> Request {
        let b = Request::build(method.to_string()).params(params);
        if request {
            self.next_id += 1;
            b.id(self.next_id).finish()
        } else {
            b.finish()
        }
    }

    fn call(&mut self, req: Request) -> futures::future::BoxFuture<'static, Option<Response>> {
        // The service is always ready once initialized.
        self.service.ready().now_or_never().expect("service ready").expect("service alive");
        self.service.call(req).map(|r| r.expect("service alive")).boxed()
    }

    async fn notify(&mut self, method: &str, params: Value) {
        let req = self.build(method, params, false);
        let fut = self.call(req);
        let resp = self.drive(fut).await;
        assert!(resp.is_none(), "{method} is a notification: {resp:?}");
    }

    async fn request(&mut self, method: &str, params: Value) -> Value {
        let req = self.build(method, params, true);
        let fut = self.call(req);
        let resp = self.drive(fut).await;
        answered(method, resp)
    }

    fn request_params(&self, doc: usize, req: &Req, at: (u32, u32), end: (u32, u32)) -> (&'static str, Value) {
        let td = json!({"uri": uri(doc)});
        let pp = json!({"textDocument": td, "position": pos_json(at)});
        let range = json!({"start": pos_json(at), "end": pos_json(end)});
        match req {
            Req::Hover => ("textDocument/hover", pp),
            Req::Completion => ("textDocument/completion", pp),
            Req::SignatureHelp => ("textDocument/signatureHelp", pp),
            Req::Definition => ("textDocument/definition", pp),
            Req::InlayHint => ("textDocument/inlayHint", json!({"textDocument": td, "range": range})),
            Req::SemanticTokens => ("textDocument/semanticTokens/full", json!({"textDocument": td})),
            Req::DocumentSymbol => ("textDocument/documentSymbol", json!({"textDocument": td})),
            Req::CodeAction => {
                ("textDocument/codeAction", json!({"textDocument": td, "range": range, "context": {"diagnostics": []}}))
            }
        }
    }

    /// Checks a response's positions against the model's text.
    fn check_response(&self, doc: usize, req: &Req, v: &Value) {
        let Some(d) = self.open.get(&doc) else { return };
        let text = &d.text;
        let valid = |p: &Value| {
            let line = p["line"].as_u64().expect("line") as u32;
            let ch = p["character"].as_u64().expect("character") as u32;
            let len = model::line_len(text, line, self.utf8);
            assert!(len.is_some_and(|l| ch <= l), "{req:?}: position {p} outside {text:?}");
        };
        let range = |r: &Value| {
            valid(&r["start"]);
            valid(&r["end"]);
        };
        match req {
            Req::Hover if !v.is_null() => range(&v["range"]),
            Req::InlayHint if !v.is_null() => v.as_array().expect("hints").iter().for_each(|h| valid(&h["position"])),
            Req::DocumentSymbol if !v.is_null() => v.as_array().expect("symbols").iter().for_each(|s| {
                range(&s["range"]);
                range(&s["selectionRange"]);
            }),
            Req::SemanticTokens if !v.is_null() => {
                let data: Vec<u32> =
                    v["data"].as_array().expect("data").iter().map(|n| n.as_u64().unwrap() as u32).collect();
                assert_eq!(data.len() % 5, 0);
                let (mut line, mut start) = (0u32, 0u32);
                for t in data.chunks(5) {
                    start = if t[0] == 0 { start + t[1] } else { t[1] };
                    line += t[0];
                    let len = model::line_len(text, line, self.utf8).expect("token line in the text");
                    assert!(start + t[2] <= len, "token {t:?} past the end of line {line} in {text:?}");
                }
            }
            _ => {}
        }
    }

    /// The newest diagnostics of every document are those of a from-scratch
    /// analysis of the model's text.
    fn check_diagnostics(&self) {
        for doc in 0..NAMES.len() {
            let u = uri(doc);
            let last = self.published.iter().rev().find(|p| p.0 == u);
            let Some(d) = self.open.get(&doc) else {
                if let Some(p) = last {
                    assert!(p.2.is_empty() && p.1.is_none(), "closed {u} still has diagnostics {p:?}");
                }
                continue;
            };
            let Some((_, version, got)) = last else { panic!("no diagnostics for open {u}") };
            assert_eq!(*version, Some(d.version as i64), "diagnostics of {u} are not of its newest version");
            let want = self.expected(doc);
            let got: Vec<Value> = got.iter().map(strip).collect();
            assert_eq!(got, want, "{u} text {:?}", d.text);
        }
    }

    fn expected(&self, doc: usize) -> Vec<Value> {
        let family = FileKind::for_path(&path(doc)).unwrap().family();
        let mut members: Vec<usize> =
            self.open.keys().copied().filter(|&i| FileKind::for_path(&path(i)).unwrap().family() == family).collect();
        members.sort_by_key(|&i| path(i));
        let docs: Vec<Document> = members
            .iter()
            .map(|&i| Document::parse(SourceFile::new(path(i), self.open[&i].text.as_str()).unwrap()))
            .collect();
        let index = members.iter().position(|&i| i == doc).unwrap();
        let analysis = analyze(&docs);
        let text = &self.open[&doc].text;
        let range = |t: &str, r: &std::ops::Range<usize>| json!({"start": pos_json(model::position(t, r.start, self.utf8)), "end": pos_json(model::position(t, r.end, self.utf8))});
        let mut out = Vec::new();
        for d in &analysis.diagnostics[index] {
            let sev = match self.severity.get(&d.code) {
                Some(None) => continue,
                Some(Some(s)) => *s,
                None => d.severity,
            };
            let related: Vec<Value> = d
                .related
                .iter()
                .filter_map(|r| {
                    let (ru, rt) = match &r.path {
                        Some(p) if *p != path(doc) => {
                            let j = members.iter().position(|&i| path(i) == *p)?;
                            (uri(members[j]), self.open[&members[j]].text.as_str())
                        }
                        _ => (uri(doc), text.as_str()),
                    };
                    Some(json!({"location": {"uri": ru, "range": range(rt, &r.range)}, "message": r.message}))
                })
                .collect();
            out.push(json!({
                "range": range(text, &d.range),
                "severity": match sev { Severity::Error => 1, Severity::Warning => 2, Severity::Hint => 4 },
                "code": d.code.as_str(),
                "message": d.message,
                "related": related,
            }));
        }
        out
    }

    async fn op(&mut self, op: &Op) {
        match op {
            Op::Open { doc, text } => {
                let doc = *doc as usize % NAMES.len();
                let text = text.get();
                let version = self.open.get(&doc).map_or(1, |d| d.version);
                self.high.remove(&uri(doc));
                self.notify(
                    "textDocument/didOpen",
                    json!({"textDocument": {"uri": uri(doc), "languageId": "hcl", "version": version, "text": text}}),
                )
                .await;
                self.open.insert(doc, Doc { text, version });
            }
            Op::Change { doc, version, changes } => {
                let doc = *doc as usize % NAMES.len();
                let current = self.open.get(&doc).map_or(1, |d| d.version);
                let v = match version {
                    Version::Next => current.saturating_add(1),
                    Version::Same => current,
                    Version::Older => current.saturating_sub(1),
                    Version::Jump(n) => current.saturating_add(*n as i32),
                };
                let changes: Vec<(Option<((u32, u32), (u32, u32))>, String)> = changes
                    .iter()
                    .take(8)
                    .map(|c| (c.range.as_ref().map(|(a, b)| (a.get(), b.get())), c.text.get()))
                    .collect();
                let params = json!({"textDocument": {"uri": uri(doc), "version": v}, "contentChanges": changes.iter().map(change_json).collect::<Vec<_>>()});
                self.notify("textDocument/didChange", params).await;
                let utf8 = self.utf8;
                if let Some(d) = self.open.get_mut(&doc) {
                    if v > d.version {
                        for (r, t) in &changes {
                            model::apply(&mut d.text, *r, t, utf8);
                        }
                        d.version = v;
                    }
                }
            }
            Op::Close { doc } => {
                let doc = *doc as usize % NAMES.len();
                self.notify("textDocument/didClose", json!({"textDocument": {"uri": uri(doc)}})).await;
                self.open.remove(&doc);
                self.high.remove(&uri(doc));
            }
            Op::Request { doc, req, at, end } => {
                let doc = *doc as usize % NAMES.len();
                let (method, params) = self.request_params(doc, req, at.get(), end.get());
                let v = self.request(method, params).await;
                self.check_response(doc, req, &v);
            }
            Op::Configure { code, severity, inlay } => {
                let code = Code::ALL[*code as usize % Code::ALL.len()];
                let (name, sev) = match severity % 5 {
                    0 => ("error", Some(Severity::Error)),
                    1 => ("warning", Some(Severity::Warning)),
                    2 => ("hint", Some(Severity::Hint)),
                    3 => ("off", None),
                    _ => ("bogus", Some(Severity::Error)),
                };
                // Settings replace the previous ones entirely.
                self.severity.clear();
                if name != "bogus" {
                    self.severity.insert(code, sev);
                }
                let settings =
                    json!({"hclTypes": {"severity": {code.as_str(): name}, "inlayHints": {"enable": inlay}}});
                self.notify("workspace/didChangeConfiguration", json!({"settings": settings})).await;
            }
            Op::Burst(items) => {
                let mut futs = Vec::new();
                let utf8 = self.utf8;
                for (doc, change, req, at) in items.iter().take(8) {
                    let doc = *doc as usize % NAMES.len();
                    if let Some(c) = change {
                        let (r, t) = (c.range.as_ref().map(|(a, b)| (a.get(), b.get())), c.text.get());
                        let Some(d) = self.open.get_mut(&doc) else { continue };
                        d.version += 1;
                        model::apply(&mut d.text, r, &t, utf8);
                        let params = json!({"textDocument": {"uri": uri(doc), "version": d.version}, "contentChanges": [change_json(&(r, t))]});
                        let req = self.build("textDocument/didChange", params, false);
                        futs.push(self.call(req).map(|r| (None, r)).boxed());
                    } else {
                        let (method, params) = self.request_params(doc, req, at.get(), at.get());
                        let req = self.build(method, params, true);
                        futs.push(self.call(req).map(move |r| (Some(method), r)).boxed());
                    }
                }
                let results = self.drive(futures::future::join_all(futs)).await;
                for (method, resp) in results {
                    match method {
                        Some(m) => {
                            answered(m, resp);
                        }
                        None => assert!(resp.is_none()),
                    }
                }
            }
        }
        self.check_diagnostics();
    }
}

fn change_json((range, text): &(Option<((u32, u32), (u32, u32))>, String)) -> Value {
    match range {
        Some((a, b)) => json!({"range": {"start": pos_json(*a), "end": pos_json(*b)}, "text": text}),
        None => json!({"text": text}),
    }
}

fn answered(method: &str, resp: Option<Response>) -> Value {
    let resp = resp.unwrap_or_else(|| panic!("{method}: no response"));
    let (_, result) = resp.into_parts();
    result.unwrap_or_else(|e| panic!("{method} failed: {e:?}"))
}

/// The parts of a published diagnostic the model predicts.
fn strip(d: &Value) -> Value {
    let related: Vec<Value> = d["relatedInformation"].as_array().cloned().unwrap_or_default();
    assert_eq!(d["source"], "hcl-types");
    json!({
        "range": d["range"],
        "severity": d["severity"],
        "code": d["code"],
        "message": d["message"],
        "related": related,
    })
}

fn runtime() -> &'static tokio::runtime::Runtime {
    static RT: OnceLock<tokio::runtime::Runtime> = OnceLock::new();
    RT.get_or_init(|| tokio::runtime::Builder::new_current_thread().enable_all().build().expect("runtime"))
}

async fn session(input: &Input) {
    let (service, socket) = LspService::new(Backend::new);
    let mut s = Session {
        service,
        socket,
        published: Vec::new(),
        high: BTreeMap::new(),
        next_id: 0,
        utf8: input.utf8,
        open: BTreeMap::new(),
        severity: BTreeMap::new(),
    };
    let encodings = if input.utf8 { json!(["utf-8", "utf-16"]) } else { json!(["utf-16"]) };
    let init = s.build(
        "initialize",
        json!({"capabilities": {"general": {"positionEncodings": encodings}}, "initializationOptions": {"hclTypes": {"inlayHints": {"enable": true}}}}),
        true,
    );
    // Not `call`: the service is not ready until initialize has answered.
    let fut = s.service.call(init);
    let init = answered("initialize", s.drive(fut).await.expect("service alive"));
    assert_eq!(init["capabilities"]["positionEncoding"], if input.utf8 { "utf-8" } else { "utf-16" });
    s.notify("initialized", json!({})).await;
    for op in &input.ops {
        s.op(op).await;
    }
    let v = s.request("shutdown", Value::Null).await;
    assert!(v.is_null());
}

fuzz_target!(|input: Input| {
    runtime().block_on(session(&input));
});
