//! The language server driven over stdio by hand, shared by the LSP
//! benchmarks (`lsp_latency`, `keystroke_kinds`). Messages are framed and
//! matched by hand (the method, URI and version are found in the body's
//! text), so the harness's own JSON parsing of a large diagnostics message
//! never counts as server time.

// Each bench uses a part of it.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The server binary: `HCL_TYPES_BIN` compares another build (e.g. main's).
pub fn binary() -> PathBuf {
    let bin = std::env::var_os("HCL_TYPES_BIN").map_or_else(|| root().join("target/release/hcl-types"), PathBuf::from);
    assert!(bin.exists(), "{} is missing: run cargo build --release first", bin.display());
    bin
}

/// The generated Terraform of `size` (`tools/gen-hcl.py`, seed 1), made
/// on first use: its path and text.
pub fn generated(size: &str) -> (PathBuf, String) {
    let path = root().join(format!("target/bench-data/lsp-{size}/main.tf"));
    if !path.exists() {
        std::fs::create_dir_all(path.parent().unwrap()).expect("bench dir");
        let ok = Command::new("python3")
            .arg(root().join("tools/gen-hcl.py"))
            .args(["--size", size, "--seed", "1", "-o"])
            .arg(&path)
            .status()
            .is_ok_and(|s| s.success());
        assert!(ok, "could not run gen-hcl.py (python3 is needed)");
    }
    let text = std::fs::read_to_string(&path).expect("bench input");
    (path, text)
}

pub struct Server {
    pub child: Child,
    pub stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    next: i64,
}

impl Server {
    pub fn start() -> Server {
        Server::wrapped("")
    }

    /// Started under `wrap` (e.g. `perf record -g -o FILE --`; empty: none).
    pub fn wrapped(wrap: &str) -> Server {
        let mut words = wrap.split_whitespace();
        let mut command = match words.next() {
            Some(program) => {
                let mut c = Command::new(program);
                c.args(words).arg(binary());
                c
            }
            None => Command::new(binary()),
        };
        let mut child = command
            .arg("lsp")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start the server");
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::with_capacity(1 << 20, child.stdout.take().unwrap());
        Server { child, stdin, stdout, next: 1 }
    }

    pub fn send(&mut self, msg: &Value) {
        let body = msg.to_string();
        write!(self.stdin, "Content-Length: {}\r\n\r\n{body}", body.len()).unwrap();
        self.stdin.flush().unwrap();
    }

    pub fn request(&mut self, method: &str, params: Value) -> i64 {
        let id = self.next;
        self.next += 1;
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        id
    }

    pub fn notify(&mut self, method: &str, params: Value) {
        self.send(&json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    /// The next message's body and when its first line arrived.
    pub fn read_timed(&mut self) -> (String, Instant) {
        let mut len = 0;
        let mut first = None;
        loop {
            let mut line = String::new();
            assert!(self.stdout.read_line(&mut line).unwrap() > 0, "the server closed its output");
            first.get_or_insert_with(Instant::now);
            let line = line.trim_end();
            if line.is_empty() {
                break;
            }
            if let Some(v) = line.strip_prefix("Content-Length: ") {
                len = v.parse().unwrap();
            }
        }
        let mut body = vec![0; len];
        self.stdout.read_exact(&mut body).unwrap();
        (String::from_utf8(body).unwrap(), first.unwrap())
    }

    /// The next message's body.
    pub fn read(&mut self) -> String {
        self.read_timed().0
    }

    /// Reads until the response to `id`; answers server requests on the way.
    pub fn response(&mut self, id: i64) -> String {
        let want = format!("\"id\":{id}");
        loop {
            let body = self.read();
            if body.contains(&want) && !body.contains("\"method\"") {
                return body;
            }
            self.answer_server_request(&body);
        }
    }

    /// Reads until diagnostics for `version` of `uri` (any document when
    /// `None`) are published: when their first line arrived, and their size.
    pub fn published(&mut self, uri: Option<&str>, version: i32) -> (Instant, usize) {
        let want_uri = uri.map(|u| format!("\"uri\":{}", json!(u)));
        let want = format!("\"version\":{version}");
        loop {
            let (body, at) = self.read_timed();
            if body.contains("textDocument/publishDiagnostics")
                && want_uri.as_ref().is_none_or(|u| body.contains(u))
                && body.rfind("\"version\":").is_some_and(|i| body[i..].starts_with(&want))
            {
                return (at, body.len());
            }
            self.answer_server_request(&body);
        }
    }

    /// Reads until diagnostics for `version` are published: their size.
    pub fn diagnostics(&mut self, version: i32) -> usize {
        self.published(None, version).1
    }

    /// Reads until diagnostics for `version` of `uri` are published.
    pub fn diagnostics_of(&mut self, uri: &str, version: i32) {
        self.published(Some(uri), version);
    }

    /// Answers a request from the server as an editor with no settings would.
    pub fn answer_server_request(&mut self, body: &str) {
        if body.contains("\"method\"") && body.contains("\"id\"") {
            if let Ok(v) = serde_json::from_str::<Value>(body) {
                let result = if v["method"] == "workspace/configuration" { json!([null]) } else { Value::Null };
                self.send(&json!({"jsonrpc": "2.0", "id": v["id"], "result": result}));
            }
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let id = self.request("shutdown", Value::Null);
        let _ = self.response(id);
        self.notify("exit", Value::Null);
        let _ = self.child.wait();
    }
}

/// LSP position (UTF-16) of a byte offset.
pub fn position(text: &str, offset: usize) -> Value {
    let before = &text[..offset];
    let line = before.matches('\n').count();
    let start = before.rfind('\n').map_or(0, |i| i + 1);
    json!({"line": line, "character": before[start..].encode_utf16().count()})
}

pub fn percentile<T: Copy + PartialOrd>(v: &[T], p: f64) -> T {
    let mut v = v.to_vec();
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v[((v.len() as f64 - 1.0) * p).round() as usize]
}

pub fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}
