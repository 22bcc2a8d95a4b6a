//! Soak test of the language server's text store (robustness issue): 10,000
//! random incremental edits through the in-process server, each checked
//! against a from-scratch analysis of the text an independent model says
//! the document has. In a debug build the count is 1,000 (the server and
//! the check each analyse the module once per edit, which is ~20× slower
//! unoptimised); `SOAK_EDITS` and `SOAK_SEED` override count and seed.
//! `scripts/test` runs the 10,000 with `SOAK_EDITS=10000` in the debug
//! build (~40 s; 5 s in a release build, which costs a release build of
//! the tests).
//!
//! Edits use random, clamped, past-the-end, reversed and mid-surrogate
//! ranges, astral characters, CRLF and CR line breaks, several changes per
//! notification, stale versions (never applied), and bursts of changes sent
//! without waiting (analyses then race on the blocking pool). Checked:
//! published diagnostics never go back to an older version, the newest
//! diagnostics of every document of the edited module are exactly those of
//! the from-scratch analysis, and hovers at random positions agree with
//! `ide::hover` on the model's text.
//!
//! Regression inputs found by the fuzz targets (fuzz/) are at the end.

use std::collections::HashMap;
use std::path::PathBuf;

use futures::future::Either;
use futures::{FutureExt, StreamExt};
use hcl_types::analysis::{analyze, Document, FileKind, SourceFile};
use hcl_types::ide;
use hcl_types::lsp::Backend;
use hcl_types::syntax::diagnostic::Severity;
use serde_json::{json, Value};
use tower::{Service, ServiceExt};
use tower_lsp_server::jsonrpc::{Request, Response};
use tower_lsp_server::{ClientSocket, LspService};

/// An independent model of the text store (the same as
/// fuzz/fuzz_targets/common/model.rs): LSP positions over a `String`, from
/// the spec. Lines end at `\n`, `\r\n` or `\r`; columns are UTF-8 bytes or
/// UTF-16 units; everything clamps; a reversed range is ordered.
mod model {
    /// (start, content end) byte offsets of every line.
    pub fn lines(text: &str) -> Vec<(usize, usize)> {
        let b = text.as_bytes();
        let mut out = Vec::new();
        let (mut start, mut i) = (0, 0);
        while i < b.len() {
            match b[i] {
                b'\n' => {
                    out.push((start, i));
                    start = i + 1;
                }
                b'\r' => {
                    out.push((start, i));
                    if b.get(i + 1) == Some(&b'\n') {
                        i += 1;
                    }
                    start = i + 1;
                }
                _ => {}
            }
            i += 1;
        }
        out.push((start, b.len()));
        out
    }

    pub fn offset(text: &str, line: u32, character: u32, utf8: bool) -> usize {
        let ls = lines(text);
        let Some(&(start, end)) = ls.get(line as usize) else { return text.len() };
        let want = character as usize;
        if utf8 {
            let mut at = start + want.min(end - start);
            while !text.is_char_boundary(at) {
                at -= 1;
            }
            at
        } else {
            let (mut units, mut at) = (0, start);
            for c in text[start..end].chars() {
                if units + c.len_utf16() > want {
                    break;
                }
                units += c.len_utf16();
                at += c.len_utf8();
            }
            at
        }
    }

    pub fn position(text: &str, offset: usize, utf8: bool) -> (u32, u32) {
        let mut offset = offset.min(text.len());
        while !text.is_char_boundary(offset) {
            offset -= 1;
        }
        let ls = lines(text);
        let line = ls.iter().rposition(|&(s, _)| s <= offset).unwrap_or(0);
        let start = ls[line].0;
        let character = if utf8 { offset - start } else { text[start..offset].encode_utf16().count() };
        (line as u32, character as u32)
    }

    pub fn line_len(text: &str, line: u32, utf8: bool) -> Option<u32> {
        let &(s, e) = lines(text).get(line as usize)?;
        Some(if utf8 { (e - s) as u32 } else { text[s..e].encode_utf16().count() as u32 })
    }

    pub fn apply(text: &mut String, range: Option<((u32, u32), (u32, u32))>, new: &str, utf8: bool) {
        match range {
            None => *text = new.to_string(),
            Some((s, e)) => {
                let a = offset(text, s.0, s.1, utf8);
                let b = offset(text, e.0, e.1, utf8);
                text.replace_range(a.min(b)..a.max(b), new);
            }
        }
    }
}

/// splitmix64: small, seedable, good enough for choosing edits.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
    fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }
    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

const DIR: &str = "/nonexistent-hcl-types-soak";

const SEEDS: [(&str, &str); 4] = [
    (
        "main.tf",
        "locals {\n  name   = \"net-😀\"\n  cidrs  = [for s in var.subnets : s.cidr]\n  zone   = var.subnets[\"a\"].zone\n  count  = length(var.subnets) + 1\n  bad    = var.missing\n}\r\n\r\noutput \"first\" {\n  value = local.cidrs[0]\n}\n\nresource \"aws_vpc\" \"this\" {\n  cidr_block = var.cidr\n  tags = { Name = \"${local.name}-vpc\" }\n}\n",
    ),
    (
        "variables.tf",
        "variable \"subnets\" {\n  type = map(object({ cidr = string, zone = optional(string, \"eu-1a\") }))\n  default = {\n    a = { cidr = \"10.0.0.0/24\" }\n  }\n}\n\nvariable \"cidr\" {\n  type    = string\n  default = 10\n}\n\nvariable \"flags\" {\n  type    = list(bool)\n  default = [true, \"yes\", 1]\n}\n\nvariable \"legacy\" {\n  type = \"string\"\n}\n",
    ),
    (
        "main.pp",
        "config \"size\" \"int\" {\n  default = 2\n}\nconfig tags \"map(string)\" {}\r\nresource bucket \"aws:s3:Bucket\" {\n  tags = tags\n  count = size + 1\n}\noutput name {\n  value = bucket.id\n}\n",
    ),
    (
        "main.hcl",
        "config \"c\" \"bool\" {}\nconfig \"o\" \"output(string)\" {}\nconfig \"p\" \"promise(int)\" {}\nconfig \"u\" \"union(none, list(string))\" {}\nx = { note = \"😀😀\", v = c ? o : p }\ny = [for s in u : upper(s)]\rz = lookup({}, \"k\", 1)\n",
    ),
];

const PIECES: &[&str] = &[
    "variable \"x\" {\n  type = ",
    "}\n",
    "locals {\n",
    "output \"o\" {\n  value = ",
    "config q \"list(int)\" {}\n",
    "{",
    "}",
    "(",
    ")",
    "[",
    "]",
    "\"",
    "${",
    "<<EOF\nx\nEOF\n",
    "type = ",
    "default = ",
    "list(",
    "object({ a = ",
    "optional(",
    "map(string)",
    "union(",
    "string",
    "number",
    "int",
    "any",
    "none",
    "var.subnets",
    "var.x",
    "local.",
    "local.cidrs",
    ".a",
    "[0]",
    "[*]",
    " ? ",
    " : ",
    " + ",
    "for k, v in ",
    " => ",
    "1",
    "1.5",
    "99999999999999999999999999999999",
    "true",
    "null",
    "\"s\"",
    "\n",
    "\r\n",
    "\r",
    " ",
    ",",
    "=",
    "# c\n",
    "/* c */",
    "upper(",
    "lookup(",
];

/// Whole lines, inserted at the start of a line: the text stays mostly
/// well-formed, so type checks (not only syntax errors) are exercised.
const LINES: &[&str] = &[
    "variable \"v2\" {\n  type = list(object({ a = string, b = optional(number) }))\n  default = [{ a = \"x\" }, { a = 1, b = \"2\" }]\n}\n",
    "variable \"v3\" {\n  type = map(string)\n}\n",
    "locals {\n  l2 = var.v2[0].b + 1\n  l3 = { for k, v in var.v3 : k => upper(v) }\n}\n",
    "output \"o2\" {\n  value = local.l2\n}\n",
    "  extra = var.subnets[\"a\"].cidr\n",
    "  n = 1\n",
    "  s = \"😀 ${local.name}\"\n",
    "  t = [1, \"a\", true]\n",
    "config \"k\" \"list(int)\" {\n  default = [1, \"x\"]\n}\n",
    "w = k[0] + 1\n",
    "# comment 😀\r\n",
    "\n",
];

/// Type keywords and constructors, swapped for one another in place.
const WORDS: &[&str] = &["string", "number", "bool", "int", "any", "list", "map", "set", "object", "tuple", "optional"];

const ASTRAL: [&str; 4] = ["😀", "𝕏", "\u{10FFFF}", "é😀"];

struct Doc {
    name: &'static str,
    text: String,
    version: i32,
}

/// Per URI, in arrival order: (version, diagnostics).
type Published = HashMap<String, Vec<(Option<i64>, Vec<Value>)>>;

struct Soak {
    service: LspService<Backend>,
    socket: ClientSocket,
    utf8: bool,
    docs: Vec<Doc>,
    published: Published,
    next_id: i64,
    rng: Rng,
    hovers: usize,
    /// Diagnostics compared, by code.
    seen: std::cell::RefCell<std::collections::BTreeMap<&'static str, usize>>,
}

type Edit = (Option<((u32, u32), (u32, u32))>, String);

fn uri(name: &str) -> String {
    format!("file://{DIR}/{name}")
}

fn pos_json((line, character): (u32, u32)) -> Value {
    json!({"line": line, "character": character})
}

fn answered(method: &str, resp: Option<Response>) -> Value {
    let resp = resp.unwrap_or_else(|| panic!("{method}: no response"));
    resp.into_parts().1.unwrap_or_else(|e| panic!("{method} failed: {e:?}"))
}

impl Soak {
    async fn start(utf8: bool, seed: u64) -> Soak {
        let (service, socket) = LspService::new(Backend::new);
        let docs = SEEDS.iter().map(|(name, text)| Doc { name, text: text.to_string(), version: 1 }).collect();
        let mut s = Soak {
            service,
            socket,
            utf8,
            docs,
            published: HashMap::new(),
            next_id: 0,
            rng: Rng(seed),
            hovers: 0,
            seen: Default::default(),
        };
        let encodings = if utf8 { json!(["utf-8", "utf-16"]) } else { json!(["utf-16"]) };
        let init = s.build("initialize", json!({"capabilities": {"general": {"positionEncodings": encodings}}}), true);
        let fut = s.service.call(init);
        let init = answered("initialize", s.drive(fut).await.unwrap());
        assert_eq!(init["capabilities"]["positionEncoding"], if utf8 { "utf-8" } else { "utf-16" });
        s.notify("initialized", json!({})).await;
        for i in 0..s.docs.len() {
            let (name, text) = (s.docs[i].name, s.docs[i].text.clone());
            s.notify(
                "textDocument/didOpen",
                json!({"textDocument": {"uri": uri(name), "languageId": "hcl", "version": 1, "text": text}}),
            )
            .await;
        }
        for i in 0..s.docs.len() {
            s.check_module(i);
        }
        s
    }

    fn record(&mut self, msg: Request) {
        if msg.method() != "textDocument/publishDiagnostics" {
            return;
        }
        let p = msg.params().cloned().unwrap_or(Value::Null);
        let u = p["uri"].as_str().unwrap().to_string();
        let version = p["version"].as_i64();
        let list = self.published.entry(u.clone()).or_default();
        if let (Some(v), Some((Some(prev), _))) = (version, list.last()) {
            assert!(v >= *prev, "diagnostics of {u} for version {v} published after version {prev}");
        }
        list.push((version, p["diagnostics"].as_array().cloned().unwrap_or_default()));
    }

    /// Runs `fut` while collecting what the server sends to the client.
    async fn drive<F: std::future::Future>(&mut self, fut: F) -> F::Output {
        let mut fut = std::pin::pin!(fut);
        let out = loop {
            match futures::future::select(fut.as_mut(), self.socket.next()).await {
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
        self.service.ready().now_or_never().expect("ready once initialized").expect("service alive");
        self.service.call(req).map(|r| r.expect("service alive")).boxed()
    }

    async fn notify(&mut self, method: &str, params: Value) {
        let req = self.build(method, params, false);
        let fut = self.call(req);
        assert!(self.drive(fut).await.is_none());
    }

    /// A random position: mostly inside the text, sometimes past a line's
    /// end, past the last line, or inside a surrogate pair.
    fn position(&mut self, doc: usize) -> (u32, u32) {
        let text = &self.docs[doc].text;
        let lines = model::lines(text).len() as u32;
        let r = self.rng.below(100);
        if r < 3 {
            return (lines + self.rng.below(3) as u32, self.rng.below(10) as u32);
        }
        if r < 5 {
            return (self.rng.below(lines as usize) as u32, u32::MAX - self.rng.below(2) as u32);
        }
        let line = self.rng.below(lines as usize) as u32;
        let len = model::line_len(text, line, self.utf8).unwrap();
        (line, self.rng.below(len as usize + 3) as u32)
    }

    fn replacement(&mut self) -> String {
        let r = self.rng.below(100);
        if r < 35 {
            String::new()
        } else if r < 75 {
            self.rng.pick(PIECES).to_string()
        } else if r < 85 {
            self.rng.pick(&ASTRAL).repeat(1 + self.rng.below(3))
        } else {
            // A slice of a seed: keeps the text looking like HCL.
            let seed = self.rng.pick(&SEEDS).1;
            let mut a = self.rng.below(seed.len());
            let mut b = (a + self.rng.below(40)).min(seed.len());
            while !seed.is_char_boundary(a) {
                a -= 1;
            }
            while !seed.is_char_boundary(b) {
                b -= 1;
            }
            seed[a..b].to_string()
        }
    }

    /// A range from byte offsets in the model's text.
    fn range_of(&self, doc: usize, a: usize, b: usize) -> Option<((u32, u32), (u32, u32))> {
        let text = &self.docs[doc].text;
        Some((model::position(text, a, self.utf8), model::position(text, b, self.utf8)))
    }

    fn edit(&mut self, doc: usize) -> Edit {
        let r = self.rng.below(100);
        if (2..22).contains(&r) {
            // A whole line, at the start of a line.
            let lines = model::lines(&self.docs[doc].text);
            let at = self.rng.pick(&lines).0;
            let line = self.rng.pick(LINES).to_string();
            return (self.range_of(doc, at, at), line);
        }
        if (22..27).contains(&r) {
            // A whole line deleted.
            let lines = model::lines(&self.docs[doc].text);
            let i = self.rng.below(lines.len());
            let end = lines.get(i + 1).map_or(lines[i].1, |l| l.0);
            return (self.range_of(doc, lines[i].0, end), String::new());
        }
        if (27..47).contains(&r) {
            // A type word swapped for another.
            let text = &self.docs[doc].text;
            let hits: Vec<(usize, &str)> = WORDS.iter().flat_map(|w| text.match_indices(w)).collect();
            if !hits.is_empty() {
                let (at, w) = *self.rng.pick(&hits);
                let new = self.rng.pick(WORDS).to_string();
                return (self.range_of(doc, at, at + w.len()), new);
            }
        }
        if r < 2 || self.docs[doc].text.len() > 8_000 {
            // Everything replaced: back to a seed, sometimes with a twist.
            let seed = SEEDS.iter().find(|(n, _)| *n == self.docs[doc].name).unwrap().1;
            return (None, format!("{seed}{}", self.replacement()));
        }
        let start = self.position(doc);
        let end = if self.rng.chance(30) {
            start
        } else if self.rng.chance(10) {
            self.position(doc)
        } else {
            (start.0.saturating_add(self.rng.below(2) as u32), start.1.saturating_add(self.rng.below(12) as u32))
        };
        let (start, end) = if self.rng.chance(10) { (end, start) } else { (start, end) };
        (Some((start, end)), self.replacement())
    }

    fn change_json((range, text): &Edit) -> Value {
        match range {
            Some((a, b)) => json!({"range": {"start": pos_json(*a), "end": pos_json(*b)}, "text": text}),
            None => json!({"text": text}),
        }
    }

    /// One didChange of one to three changes; sometimes a stale version,
    /// which the server must not apply. Returns how many edits it made.
    async fn step(&mut self, doc: usize) -> usize {
        let n = 1 + self.rng.below(3) * usize::from(self.rng.chance(20));
        let edits: Vec<Edit> = (0..n).map(|_| self.edit(doc)).collect();
        let stale = self.rng.chance(3);
        let jump = self.rng.below(2) as i32;
        let d = &self.docs[doc];
        let version = if stale { d.version - jump } else { d.version + 1 + jump };
        let params = json!({"textDocument": {"uri": uri(d.name), "version": version}, "contentChanges": edits.iter().map(Self::change_json).collect::<Vec<_>>()});
        let before = self.published.get(&uri(d.name)).map_or(0, Vec::len);
        self.notify("textDocument/didChange", params).await;
        let d = &mut self.docs[doc];
        if !stale {
            for (r, t) in &edits {
                model::apply(&mut d.text, *r, t, self.utf8);
            }
            d.version = version;
        } else {
            let after = self.published.get(&uri(d.name)).map_or(0, Vec::len);
            assert_eq!(before, after, "a stale change must not be analysed");
        }
        n
    }

    /// A piece typed one character at a time, each checked.
    async fn typing(&mut self, doc: usize) -> usize {
        let piece = if self.rng.chance(50) { *self.rng.pick(PIECES) } else { *self.rng.pick(LINES) };
        let text = &self.docs[doc].text;
        let mut at = self.rng.below(text.len() + 1);
        while !text.is_char_boundary(at) {
            at -= 1;
        }
        for c in piece.chars() {
            let p = model::position(&self.docs[doc].text, at, self.utf8);
            let d = &mut self.docs[doc];
            d.version += 1;
            let params = json!({"textDocument": {"uri": uri(d.name), "version": d.version}, "contentChanges": [Self::change_json(&(Some((p, p)), c.to_string()))]});
            self.notify("textDocument/didChange", params).await;
            let d = &mut self.docs[doc];
            model::apply(&mut d.text, Some((p, p)), &c.to_string(), self.utf8);
            at += c.len_utf8();
            self.check_module(doc);
        }
        piece.chars().count()
    }

    /// Two to six single-change didChange notifications sent together.
    async fn burst(&mut self, doc: usize) -> usize {
        let n = 2 + self.rng.below(5);
        let mut futs = Vec::new();
        for _ in 0..n {
            let e = self.edit(doc);
            let d = &mut self.docs[doc];
            model::apply(&mut d.text, e.0, &e.1, self.utf8);
            d.version += 1;
            let params = json!({"textDocument": {"uri": uri(d.name), "version": d.version}, "contentChanges": [Self::change_json(&e)]});
            let req = self.build("textDocument/didChange", params, false);
            futs.push(self.call(req));
        }
        for r in self.drive(futures::future::join_all(futs)).await {
            assert!(r.is_none());
        }
        n
    }

    /// The documents of `doc`'s module, in the server's (path) order.
    fn module(&self, doc: usize) -> (Vec<usize>, Vec<Document>) {
        let family = |i: usize| FileKind::for_path(std::path::Path::new(self.docs[i].name)).unwrap().family();
        let mut members: Vec<usize> = (0..self.docs.len()).filter(|&i| family(i) == family(doc)).collect();
        members.sort_by_key(|&i| self.docs[i].name);
        let docs = members
            .iter()
            .map(|&i| {
                let path = PathBuf::from(DIR).join(self.docs[i].name);
                Document::parse(SourceFile::new(path, self.docs[i].text.as_str()).unwrap())
            })
            .collect();
        (members, docs)
    }

    /// The newest diagnostics of every document of `doc`'s module are of its
    /// newest version and equal to a from-scratch analysis.
    fn check_module(&self, doc: usize) {
        let (members, docs) = self.module(doc);
        let analysis = analyze(&docs);
        let range = |t: &str, r: &std::ops::Range<usize>| json!({"start": pos_json(model::position(t, r.start, self.utf8)), "end": pos_json(model::position(t, r.end, self.utf8))});
        for (k, &i) in members.iter().enumerate() {
            let d = &self.docs[i];
            let u = uri(d.name);
            let want: Vec<Value> = analysis.diagnostics[k]
                .iter()
                // (The lints off unless named are not published: analysis.md §5.1.)
                .filter(|x| x.code.on_by_default())
                .map(|x| {
                    *self.seen.borrow_mut().entry(x.code.as_str()).or_default() += 1;
                    let related: Vec<Value> = x
                        .related
                        .iter()
                        .map(|r| {
                            let j = match &r.path {
                                Some(p) => members.iter().position(|&m| PathBuf::from(DIR).join(self.docs[m].name) == *p).unwrap(),
                                None => k,
                            };
                            let other = &self.docs[members[j]];
                            json!({"location": {"uri": uri(other.name), "range": range(&other.text, &r.range)}, "message": r.message})
                        })
                        .collect();
                    let mut want = json!({
                        "range": range(&d.text, &x.range),
                        "severity": match x.severity { Severity::Error => 1, Severity::Warning => 2, Severity::Hint => 4 },
                        "code": x.code.as_str(),
                        "source": "hcl-types",
                        "message": x.message,
                        "relatedInformation": related,
                    });
                    // (Unused declarations are tagged unnecessary: 1.)
                    if hcl_types::syntax::diagnostic::UNUSED_LINTS.contains(&x.code) {
                        want["tags"] = json!([1]);
                    }
                    want
                })
                .collect();
            let (version, got) = self.published[&u].last().unwrap_or_else(|| panic!("no diagnostics for {u}"));
            assert_eq!(*version, Some(d.version as i64), "{u}: diagnostics are not of the newest version");
            let got: Vec<Value> = got
                .iter()
                .map(|g| {
                    let mut g = g.clone();
                    if g.get("relatedInformation").is_none() {
                        g["relatedInformation"] = json!([]);
                    }
                    g
                })
                .collect();
            assert_eq!(got, want, "{u} version {} ({:?} positions), text:\n{:?}", d.version, self.encoding(), d.text);
        }
    }

    fn encoding(&self) -> &'static str {
        if self.utf8 {
            "utf-8"
        } else {
            "utf-16"
        }
    }

    /// A hover at a random position agrees with `ide::hover` on the model.
    async fn check_hover(&mut self, doc: usize) {
        // Half the time on a type word or a reference, where hovers answer.
        let text = &self.docs[doc].text;
        let hits: Vec<usize> = WORDS
            .iter()
            .chain(&["var.", "local.", " = "])
            .flat_map(|w| text.match_indices(w).map(|(i, _)| i + 1))
            .collect();
        let at = if !hits.is_empty() && self.rng.chance(50) {
            let at = *self.rng.pick(&hits);
            model::position(text, at, self.utf8)
        } else {
            self.position(doc)
        };
        let u = uri(self.docs[doc].name);
        let req = self.build("textDocument/hover", json!({"textDocument": {"uri": u}, "position": pos_json(at)}), true);
        let fut = self.call(req);
        let got = answered("hover", self.drive(fut).await);
        let (members, docs) = self.module(doc);
        let index = members.iter().position(|&i| i == doc).unwrap();
        let text = &self.docs[doc].text;
        let offset = model::offset(text, at.0, at.1, self.utf8);
        let want = match ide::hover(&docs, index, offset) {
            None => Value::Null,
            Some(h) => {
                self.hovers += 1;
                json!({
                    "contents": {"kind": "markdown", "value": h.markdown()},
                    "range": {"start": pos_json(model::position(text, h.range.start, self.utf8)), "end": pos_json(model::position(text, h.range.end, self.utf8))},
                })
            }
        };
        assert_eq!(got, want, "hover at {at:?} ({}) in {u}, text:\n{text:?}", self.encoding());
    }
}

async fn soak(utf8: bool, edits: usize, seed: u64) -> (usize, std::collections::BTreeMap<&'static str, usize>) {
    let mut s = Soak::start(utf8, seed).await;
    let mut done = 0;
    let mut steps = 0;
    while done < edits {
        let doc = s.rng.below(s.docs.len());
        let r = s.rng.below(100);
        done += if r < 5 {
            s.burst(doc).await
        } else if r < 7 {
            s.typing(doc).await
        } else {
            s.step(doc).await
        };
        s.check_module(doc);
        steps += 1;
        if steps % 5 == 0 {
            s.check_hover(doc).await;
        }
    }
    let req = s.build("shutdown", Value::Null, true);
    let fut = s.call(req);
    assert!(answered("shutdown", s.drive(fut).await).is_null());
    (s.hovers, s.seen.into_inner())
}

fn env_or<T: std::str::FromStr>(name: &str, default: T) -> T {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

#[test]
fn ten_thousand_incremental_edits_match_from_scratch_analysis() {
    let edits: usize = env_or("SOAK_EDITS", if cfg!(debug_assertions) { 1_000 } else { 10_000 });
    let seed: u64 = env_or("SOAK_SEED", 0x5eed_2026);
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    let started = std::time::Instant::now();
    // Half the edits with UTF-16 positions, half with UTF-8.
    let (h16, mut seen) = rt.block_on(soak(false, edits / 2, seed));
    let (h8, seen8) = rt.block_on(soak(true, edits - edits / 2, seed ^ 0xa5a5));
    for (code, n) in seen8 {
        *seen.entry(code).or_default() += n;
    }
    assert!(h16 + h8 > 0, "no hover ever answered: the check is vacuous");
    assert!(seen.len() > 3, "too few kinds of diagnostics compared: {seen:?}");
    eprintln!(
        "soak: {edits} edits in {:.1?} (seed {seed:#x}); {} hovers; diagnostics compared: {seen:?}",
        started.elapsed(),
        h16 + h8
    );
}

// Regression inputs found by the fuzz targets (fuzz/fuzz_targets/*).

fn assert_on_boundaries(what: &str, text: &str, diags: &[hcl_types::syntax::diagnostic::Diagnostic]) {
    for d in diags {
        let r = &d.range;
        assert!(r.start <= r.end && r.end <= text.len(), "{what} {text:?}: {d:?} out of bounds");
        assert!(
            text.is_char_boundary(r.start) && text.is_char_boundary(r.end),
            "{what} {text:?}: {d:?} splits a character"
        );
    }
}

/// fuzz/type_expr, input `ject({i😀`: a type-syntax error at the end of the
/// text is reported from hcl-edit's error offset, which is the last *byte*
/// of the input — inside the final multi-byte character (`{a😀` gave
/// 5..6 in a 6-byte text). Through a `config` label (PCL, HCL) the bad range
/// reaches the module diagnostics.
#[test]
fn regression_type_syntax_error_ends_on_a_character_boundary() {
    use hcl_types::syntax::typeexpr::{parse_type_str, TypeContext};
    use hcl_types::syntax::Dialect;
    for text in ["ject({i😀", "{a😀", "{i é", "object({i😀"] {
        for dialect in [Dialect::Terraform, Dialect::Pcl, Dialect::Hcl] {
            for ctx in [TypeContext::new(dialect), TypeContext::variable(dialect)] {
                assert_on_boundaries("type", text, &parse_type_str(text, ctx).diagnostics);
            }
        }
    }
    for (name, text) in [("main.hcl", "config \"x\" \"{a😀\" {}\n"), ("main.pp", "config x \"{a😀\" {}\n")] {
        let docs = vec![Document::parse(SourceFile::new(PathBuf::from(DIR).join(name), text).unwrap())];
        assert_on_boundaries(name, text, &analyze(&docs).diagnostics[0]);
    }
}
