//! Latency of the language server as an editor sees it: the release binary
//! over stdio, on generated Terraform of 100 KB, 1 MB and 10 MB
//! (`tools/gen-hcl.py`, seed 1). Per size: the `initialize`
//! round trip, open → first diagnostics, one-character edits →
//! `publishDiagnostics` of that version, hover and completion, and typing
//! `{` or `"` in the middle of the file. Prints p50/p99 per measure.
//!
//! ```sh
//! cargo build --release && cargo bench --bench lsp_latency
//! LSP_BENCH_SIZES=100KB,10MB LSP_BENCH_EDITS=200 cargo bench --bench lsp_latency
//! ```
//!
//! Messages are framed and matched by hand (the method and the version are
//! found in the body's text), so the harness's own JSON parsing of a large
//! diagnostics message does not count as server time.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

fn input(size: &str) -> (PathBuf, String) {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let dir = root.join(format!("target/bench-data/lsp-{size}"));
    std::fs::create_dir_all(&dir).expect("bench dir");
    let path = dir.join("main.tf");
    if !path.exists() {
        let ok = Command::new("python3")
            .arg(root.join("tools/gen-hcl.py"))
            .args(["--size", size, "--seed", "1", "-o"])
            .arg(&path)
            .status()
            .is_ok_and(|s| s.success());
        assert!(ok, "could not run gen-hcl.py (python3 is needed)");
    }
    let text = std::fs::read_to_string(&path).expect("bench input");
    (path, text)
}

impl Server {
    /// Resident and peak memory of the server process (Linux).
    fn memory(&self) -> Option<(u64, u64)> {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).ok()?;
        let field = |key: &str| -> Option<u64> {
            let line = status.lines().find(|l| l.starts_with(key))?;
            Some(line.split_whitespace().nth(1)?.parse::<u64>().ok()? * 1024)
        };
        Some((field("VmRSS:")?, field("VmHWM:")?))
    }
}

struct Server {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    next: i64,
}

impl Server {
    fn start() -> Server {
        let bin = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/release/hcl-types");
        assert!(bin.exists(), "{} is missing: run cargo build --release first", bin.display());
        let mut child = Command::new(bin)
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

    fn send(&mut self, msg: &Value) {
        let body = msg.to_string();
        write!(self.stdin, "Content-Length: {}\r\n\r\n{body}", body.len()).unwrap();
        self.stdin.flush().unwrap();
    }

    fn request(&mut self, method: &str, params: Value) -> i64 {
        let id = self.next;
        self.next += 1;
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        id
    }

    fn notify(&mut self, method: &str, params: Value) {
        self.send(&json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    /// The next message's body.
    fn read(&mut self) -> String {
        let mut len = 0;
        loop {
            let mut line = String::new();
            assert!(self.stdout.read_line(&mut line).unwrap() > 0, "the server closed its output");
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
        String::from_utf8(body).unwrap()
    }

    /// Reads until the response to `id`; answers server requests on the way.
    fn response(&mut self, id: i64) -> String {
        let want = format!("\"id\":{id}");
        loop {
            let body = self.read();
            if body.contains(&want) && !body.contains("\"method\"") {
                return body;
            }
            self.answer_server_request(&body);
        }
    }

    /// Reads until diagnostics for `version` are published.
    fn diagnostics(&mut self, version: i32) -> usize {
        let want = format!("\"version\":{version}");
        loop {
            let body = self.read();
            if body.contains("textDocument/publishDiagnostics")
                && body.rfind("\"version\":").is_some_and(|i| body[i..].starts_with(&want))
            {
                return body.len();
            }
            self.answer_server_request(&body);
        }
    }

    fn answer_server_request(&mut self, body: &str) {
        if body.contains("\"method\"") && body.contains("\"id\"") {
            if let Ok(v) = serde_json::from_str::<Value>(body) {
                self.send(&json!({"jsonrpc": "2.0", "id": v["id"], "result": null}));
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

fn percentile(v: &mut [Duration], p: f64) -> Duration {
    v.sort();
    v[((v.len() as f64 - 1.0) * p).round() as usize]
}

fn report(what: &str, size: &str, v: &mut [Duration]) -> (Duration, Duration) {
    let (p50, p99) = (percentile(v, 0.5), percentile(v, 0.99));
    println!("{size:>6}  {what:<34} n={:<4} p50 {:>9.3} ms  p99 {:>9.3} ms", v.len(), ms(p50), ms(p99));
    (p50, p99)
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// LSP position (UTF-16) of a byte offset in ASCII-or-not text.
fn position(text: &str, offset: usize) -> Value {
    let before = &text[..offset];
    let line = before.matches('\n').count();
    let start = before.rfind('\n').map_or(0, |i| i + 1);
    json!({"line": line, "character": before[start..].encode_utf16().count()})
}

fn bench(size: &str, edits: usize) {
    let (path, mut text) = input(size);
    let uri = format!("file://{}", path.display());
    let mut server = Server::start();
    let t = Instant::now();
    let id = server.request(
        "initialize",
        json!({"processId": null, "rootUri": null, "capabilities": {"general": {"positionEncodings": ["utf-16"]}}}),
    );
    server.response(id);
    let init = t.elapsed();
    server.notify("initialized", json!({}));
    println!("{size:>6}  {:<34} {:>9.3} ms", "initialize round trip", ms(init));

    let t = Instant::now();
    server.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": uri, "languageId": "terraform", "version": 1, "text": text}}),
    );
    let bytes = server.diagnostics(1);
    println!(
        "{size:>6}  {:<34} {:>9.3} ms ({} KB of diagnostics)",
        "open → diagnostics",
        ms(t.elapsed()),
        bytes / 1000
    );

    // Places to type at: inside string values of resources, spread over the file.
    let spots: Vec<usize> = text.match_indices("Name = \"").map(|(i, m)| i + m.len()).collect();
    assert!(!spots.is_empty(), "no edit spots in the generated file");
    let mut version = 1;
    let mut keystrokes = Vec::new();
    for k in 0..edits {
        let at = spots[(k * 7919) % spots.len()];
        // Type a character, or delete the one typed before.
        let (range, new) = if k % 2 == 0 {
            (json!({"start": position(&text, at), "end": position(&text, at)}), "x")
        } else {
            (json!({"start": position(&text, at), "end": position(&text, at + 1)}), "")
        };
        let prev = spots[((k - k % 2) * 7919) % spots.len()];
        let at = if k % 2 == 1 { prev } else { at };
        let range =
            if k % 2 == 1 { json!({"start": position(&text, at), "end": position(&text, at + 1)}) } else { range };
        if k % 2 == 0 {
            text.insert_str(at, new);
        } else {
            text.replace_range(at..at + 1, "");
        }
        version += 1;
        let t = Instant::now();
        server.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": uri, "version": version}, "contentChanges": [{"range": range, "text": new}]}),
        );
        server.diagnostics(version);
        keystrokes.push(t.elapsed());
    }
    report("keystroke → publishDiagnostics", size, &mut keystrokes);

    let mut hovers = Vec::new();
    let mut completions = Vec::new();
    let refs: Vec<usize> = text.match_indices("var.").map(|(i, _)| i + 5).take(2000).collect();
    for k in 0..edits.min(refs.len()) {
        let at = refs[(k * 104_729) % refs.len()];
        let pos = position(&text, at);
        let t = Instant::now();
        let id = server.request("textDocument/hover", json!({"textDocument": {"uri": uri}, "position": pos}));
        server.response(id);
        hovers.push(t.elapsed());
        let t = Instant::now();
        let id = server.request("textDocument/completion", json!({"textDocument": {"uri": uri}, "position": pos}));
        server.response(id);
        completions.push(t.elapsed());
    }
    report("hover", size, &mut hovers);
    report("completion", size, &mut completions);

    // An unbalanced `{` or `"` in the middle of the file, then removed.
    let mut unbalanced = Vec::new();
    for (k, ch) in ["{", "\"", "{", "\"", "{", "\"", "{", "\"", "{", "\""].iter().enumerate() {
        let middle = text[..text.len() / 2 + k * 977].rfind("\n}\n").map_or(0, |i| i + 3);
        let p = position(&text, middle);
        for (new, end) in [(*ch, p.clone()), ("", position(&format!("{}{ch}", &text[..middle]), middle + 1))] {
            version += 1;
            let t = Instant::now();
            server.notify(
                "textDocument/didChange",
                json!({"textDocument": {"uri": uri, "version": version}, "contentChanges": [{"range": {"start": p, "end": end}, "text": new}]}),
            );
            server.diagnostics(version);
            if !new.is_empty() {
                unbalanced.push(t.elapsed());
            }
        }
    }
    report("typing { or \" mid-file → diagnostics", size, &mut unbalanced);

    // Memory once the user pauses (the server gives freed memory back then).
    std::thread::sleep(Duration::from_millis(1500));
    if let Some((rss, peak)) = server.memory() {
        let per = |b: u64| b as f64 / text.len() as f64;
        println!(
            "{size:>6}  {:<34} {:>6} MB = {:.1} B/byte (peak {} MB = {:.1} B/byte)",
            "server memory after the edits",
            rss / 1_000_000,
            per(rss),
            peak / 1_000_000,
            per(peak)
        );
    }
}

fn main() {
    // `cargo bench` passes --bench; nothing else is read from the command line.
    let sizes = std::env::var("LSP_BENCH_SIZES").unwrap_or_else(|_| "100KB,1MB,10MB".into());
    let edits: usize = std::env::var("LSP_BENCH_EDITS").ok().and_then(|v| v.parse().ok()).unwrap_or(100);
    let _ = Path::new(".");
    for size in sizes.split(',') {
        bench(size.trim(), edits);
    }
}
