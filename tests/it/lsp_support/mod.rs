//! The in-process language server harness the LSP tests share: a session
//! of the real server as `hcl-types lsp` runs it (`lsp::serve`: the checked
//! transport, the outbox and its one writer), on pipes instead of stdin
//! and stdout; positions in both encodings; fixtures whose cursor is `$0`.
#![allow(dead_code)]

use std::collections::HashMap;
use std::path::Path;
use std::sync::{Arc, Mutex};

use serde_json::{json, Value};
use tokio::io::AsyncWriteExt;
use tokio::sync::{mpsc, oneshot};

/// Answers waited for, by request id.
type Pending = Arc<Mutex<HashMap<i64, oneshot::Sender<Value>>>>;

/// The server's output stream: what its writer thread writes arrives here.
struct Pipe(mpsc::UnboundedSender<Vec<u8>>);

impl std::io::Write for Pipe {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.send(buf.to_vec()).map_err(|_| std::io::ErrorKind::BrokenPipe)?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// The next whole frame's body at the front of `buf`, taken out.
fn frame(buf: &mut Vec<u8>) -> Option<Vec<u8>> {
    let end = buf.windows(4).position(|w| w == b"\r\n\r\n")?;
    let header = std::str::from_utf8(&buf[..end]).expect("an ASCII header");
    let length: usize = header
        .lines()
        .find_map(|l| l.strip_prefix("Content-Length: "))
        .and_then(|n| n.trim().parse().ok())
        .expect("a Content-Length header");
    if buf.len() < end + 4 + length {
        return None;
    }
    let body = buf[end + 4..end + 4 + length].to_vec();
    buf.drain(..end + 4 + length);
    Some(body)
}

#[derive(Clone, Copy, PartialEq, Debug)]
pub enum Enc {
    Utf8,
    Utf16,
}

pub struct Session {
    /// The server's input.
    input: tokio::io::DuplexStream,
    pending: Pending,
    pub next_id: i64,
    pub enc: Enc,
    /// publishDiagnostics params, in arrival order.
    pub published: Arc<Mutex<Vec<Value>>>,
    /// window/logMessage params, in arrival order.
    pub logs: Arc<Mutex<Vec<Value>>>,
    /// window/showMessage params, in arrival order.
    pub shown: Arc<Mutex<Vec<Value>>>,
    /// The workspace folder, removed with the session.
    pub dir: crate::scratch::Scratch,
}

/// A fresh directory, removed when dropped.
pub fn tempdir() -> crate::scratch::Scratch {
    crate::scratch::named("test")
}

pub fn uri(path: &Path) -> String {
    format!("file://{}", path.display())
}

/// Splits a fixture at its `$0` marker: (text, byte offset).
pub fn cursor(fixture: &str) -> (String, usize) {
    let at = fixture.find("$0").expect("fixture needs a $0 cursor");
    (fixture.replacen("$0", "", 1), at)
}

/// The LSP position of a byte offset, computed independently of the server.
pub fn position(text: &str, offset: usize, enc: Enc) -> Value {
    let before = &text[..offset];
    let line = before.matches('\n').count();
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let col = match enc {
        Enc::Utf8 => offset - line_start,
        Enc::Utf16 => before[line_start..].encode_utf16().count(),
    };
    json!({"line": line, "character": col})
}

impl Session {
    pub async fn start(enc: Enc) -> Session {
        Session::start_with(enc, json!({"hclTypes": {"inlayHints": {"enable": true}}})).await
    }

    /// A session whose `initialize` carries `options` as its
    /// initializationOptions.
    pub async fn start_with(enc: Enc, options: Value) -> Session {
        // What VS Code and Neovim 0.11 say they take.
        let text = json!({"completion": {"completionItem": {"snippetSupport": true}},
                          "hover": {"contentFormat": ["markdown", "plaintext"]},
                          "documentSymbol": {"hierarchicalDocumentSymbolSupport": true},
                          "foldingRange": {"lineFoldingOnly": true}});
        Session::start_as(enc, options, text).await
    }

    /// A session whose client says it can do what `text_document` says
    /// (LSP's `textDocument` client capabilities).
    pub async fn start_as(enc: Enc, options: Value, text_document: Value) -> Session {
        Session::start_full(enc, options, text_document, None).await
    }

    /// A session whose workspace folder is its directory.
    pub async fn start_in_folder(enc: Enc) -> Session {
        Session::start_in_folder_with(enc, json!({}), &[]).await
    }

    /// A session whose workspace folder is its directory, holding `files`
    /// (relative path, text) before `initialize`.
    pub async fn start_in_folder_with(enc: Enc, options: Value, files: &[(&str, &str)]) -> Session {
        let text = json!({"hover": {"contentFormat": ["markdown", "plaintext"]}});
        let dir = tempdir();
        for (name, body) in files {
            let path = dir.join(name);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, body).unwrap();
        }
        Session::start_full(enc, options, text, Some(dir)).await
    }

    async fn start_full(
        enc: Enc,
        options: Value,
        text_document: Value,
        folder: Option<crate::scratch::Scratch>,
    ) -> Session {
        let (input, server_in) = tokio::io::duplex(1 << 20);
        let (tx, mut rx) = mpsc::unbounded_channel();
        tokio::spawn(hcl_types::lsp::serve(server_in, Pipe(tx)));
        let published = Arc::new(Mutex::new(Vec::new()));
        let logs = Arc::new(Mutex::new(Vec::new()));
        let shown = Arc::new(Mutex::new(Vec::new()));
        let pending: Pending = Arc::default();
        let (sink, log_sink, answers) = (published.clone(), logs.clone(), pending.clone());
        let shown_sink = shown.clone();
        // The client's side of the stream: answers go to whoever waits
        // for them, publications and log messages are kept in order; the
        // server's own requests are left unanswered.
        tokio::spawn(async move {
            let mut buf = Vec::new();
            while let Some(bytes) = rx.recv().await {
                buf.extend(bytes);
                while let Some(body) = frame(&mut buf) {
                    let msg: Value = serde_json::from_slice(&body).expect("the server writes JSON");
                    match msg["method"].as_str() {
                        Some("textDocument/publishDiagnostics") => sink.lock().unwrap().push(msg["params"].clone()),
                        Some("window/logMessage") => log_sink.lock().unwrap().push(msg["params"].clone()),
                        Some("window/showMessage") => shown_sink.lock().unwrap().push(msg["params"].clone()),
                        Some(_) => {}
                        None => {
                            let waiting = msg["id"].as_i64().and_then(|id| answers.lock().unwrap().remove(&id));
                            if let Some(waiting) = waiting {
                                let _ = waiting.send(msg);
                            }
                        }
                    }
                }
            }
        });
        let in_folder = folder.is_some();
        let dir = folder.unwrap_or_else(tempdir);
        let mut s = Session { input, pending, next_id: 1, enc, published, logs, shown, dir };
        let folders = match in_folder {
            true => json!([{"uri": uri(&s.dir), "name": "folder"}]),
            false => Value::Null,
        };
        let encodings = match enc {
            Enc::Utf8 => json!(["utf-8", "utf-16"]),
            Enc::Utf16 => json!(["utf-16"]),
        };
        let init = s
            .request(
                "initialize",
                json!({"capabilities": {"general": {"positionEncodings": encodings}, "textDocument": text_document},
                       "initializationOptions": options, "workspaceFolders": folders}),
            )
            .await;
        let negotiated = init["capabilities"]["positionEncoding"].as_str().unwrap().to_string();
        assert_eq!(negotiated, if enc == Enc::Utf8 { "utf-8" } else { "utf-16" });
        s.notify("initialized", json!({})).await;
        s
    }

    pub async fn request(&mut self, method: &str, params: Value) -> Value {
        self.try_request(method, params).await.unwrap_or_else(|e| panic!("{method} failed: {e:?}"))
    }

    /// A request's result, or its error response.
    pub async fn try_request(
        &mut self,
        method: &str,
        params: Value,
    ) -> Result<Value, tower_lsp_server::jsonrpc::Error> {
        let id = self.next_id;
        self.next_id += 1;
        let (tx, rx) = oneshot::channel();
        self.pending.lock().unwrap().insert(id, tx);
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})).await;
        let answer = tokio::time::timeout(std::time::Duration::from_secs(120), rx)
            .await
            .unwrap_or_else(|_| panic!("no answer to {method} in 120 s"))
            .expect("the server is running");
        match answer.get("error") {
            Some(e) => Err(serde_json::from_value(e.clone()).expect("a JSON-RPC error")),
            None => Ok(answer["result"].clone()),
        }
    }

    pub async fn notify(&mut self, method: &str, params: Value) {
        self.send(json!({"jsonrpc": "2.0", "method": method, "params": params})).await;
    }

    /// Writes one message to the server, framed as a client frames it.
    async fn send(&mut self, msg: Value) {
        let body = msg.to_string();
        let framed = format!("Content-Length: {}\r\n\r\n{body}", body.len());
        self.input.write_all(framed.as_bytes()).await.expect("the server reads its input");
    }

    /// Writes `name` to the session directory and opens it.
    pub async fn open(&mut self, name: &str, text: &str) -> String {
        let path = self.dir.join(name);
        std::fs::write(&path, text).unwrap();
        let u = uri(&path);
        self.notify(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": u, "languageId": "hcl", "version": 1, "text": text}}),
        )
        .await;
        u
    }

    /// Writes a sibling file without opening it.
    pub fn disk(&self, name: &str, text: &str) {
        std::fs::write(self.dir.join(name), text).unwrap();
    }

    pub async fn at(&mut self, method: &str, name: &str, fixture: &str) -> Value {
        let (text, offset) = cursor(fixture);
        let u = self.open(name, &text).await;
        let pos = position(&text, offset, self.enc);
        self.request(method, json!({"textDocument": {"uri": u}, "position": pos})).await
    }

    /// How many publications have arrived so far.
    pub fn publications(&self) -> usize {
        self.published.lock().unwrap().len()
    }

    /// The first diagnostics published for a URI after the first `seen`
    /// publications, waiting for them.
    pub async fn diagnostics_after(&self, u: &str, seen: usize) -> Vec<Value> {
        for _ in 0..3000 {
            let found = self.published.lock().unwrap().iter().skip(seen).find(|p| p["uri"] == u).cloned();
            if let Some(p) = found {
                return p["diagnostics"].as_array().cloned().unwrap_or_default();
            }
            tokio::time::sleep(std::time::Duration::from_millis(10)).await;
        }
        panic!("no new diagnostics for {u} after publication {seen}");
    }

    /// All inlay hints of a document as (position, label).
    pub async fn hints(&mut self, u: &str) -> Vec<(Value, String)> {
        let hints = self
            .request(
                "textDocument/inlayHint",
                json!({"textDocument": {"uri": u}, "range": {"start": {"line": 0, "character": 0}, "end": {"line": 999, "character": 0}}}),
            )
            .await;
        hints
            .as_array()
            .map(|a| a.iter().map(|h| (h["position"].clone(), h["label"].as_str().unwrap().to_string())).collect())
            .unwrap_or_default()
    }

    /// The newest diagnostics published for a URI once `done` holds of
    /// them (publications arrive asynchronously), or the last ones seen.
    pub async fn newest_until(&self, u: &str, done: impl Fn(&[Value]) -> bool) -> Vec<Value> {
        let mut last = Vec::new();
        for _ in 0..500 {
            let found = self.published.lock().unwrap().iter().rev().find(|p| p["uri"] == u).cloned();
            if let Some(p) = found {
                last = p["diagnostics"].as_array().cloned().unwrap_or_default();
                if done(&last) {
                    break;
                }
            }
            tokio::time::sleep(std::time::Duration::from_millis(10)).await;
        }
        last
    }

    /// The newest diagnostics published for a URI, waiting for them.
    pub async fn diagnostics(&self, u: &str, version: i64) -> Vec<Value> {
        for _ in 0..500 {
            let found = self.published.lock().unwrap().iter().rev().find(|p| p["uri"] == u).cloned();
            if let Some(p) = found {
                if p["version"] == version {
                    return p["diagnostics"].as_array().cloned().unwrap_or_default();
                }
            }
            tokio::time::sleep(std::time::Duration::from_millis(10)).await;
        }
        panic!("no diagnostics for {u} version {version}");
    }
}

pub async fn both(f: impl Fn(Enc) -> futures::future::BoxFuture<'static, ()>) {
    f(Enc::Utf8).await;
    f(Enc::Utf16).await;
}

pub fn first_block(hover: &Value) -> String {
    let md = hover["contents"]["value"].as_str().unwrap_or_default();
    let rest = md.strip_prefix("```hcl\n").unwrap_or_else(|| panic!("hover must open with a fenced block: {md}"));
    rest.split("\n```").next().unwrap().to_string()
}

/// The legend's names of token types, in the server's order (`lsp::TOKEN_TYPES`).
pub const TOKEN_TYPES: [&str; 12] = [
    "type",
    "function",
    "property",
    "keyword",
    "namespace",
    "variable",
    "parameter",
    "string",
    "number",
    "operator",
    "comment",
    "enumMember",
];

/// Semantic tokens' `data` read back against the text, computed
/// independently of the server: each token as `text:type`, and `+bits`
/// when it has modifiers.
pub fn decode_tokens(text: &str, data: &Value, enc: Enc) -> Vec<String> {
    let data: Vec<u64> = data.as_array().expect("data").iter().map(|v| v.as_u64().unwrap()).collect();
    let lines: Vec<&str> = text.split('\n').collect();
    let byte = |line: &str, col: u64| -> usize {
        let mut units = 0u64;
        for (i, c) in line.char_indices() {
            if units >= col {
                return i;
            }
            units += if enc == Enc::Utf8 { c.len_utf8() as u64 } else { c.len_utf16() as u64 };
        }
        line.len()
    };
    let (mut line, mut col) = (0u64, 0u64);
    data.chunks(5)
        .map(|t| {
            line += t[0];
            col = if t[0] == 0 { col + t[1] } else { t[1] };
            let l = lines[line as usize];
            let (s, e) = (byte(l, col), byte(l, col + t[2]));
            let mods = if t[4] == 0 { String::new() } else { format!("+{}", t[4]) };
            format!("{}:{}{mods}", &l[s..e], TOKEN_TYPES[t[3] as usize])
        })
        .collect()
}
