//! Latency of the language server as an editor sees it: the release binary
//! over stdio, on generated Terraform of 100 KB, 1 MB and 10 MB
//! (`tools/gen-hcl.py`, seed 1). Per size: the `initialize`
//! round trip, open → first diagnostics, one-character edits →
//! `publishDiagnostics` of that version, hover and completion, and typing
//! `{` or `"` in the middle of the file. Prints p50/p99 per measure.
//!
//! Then what real editors do (issue 18), each with its memory or latency:
//! browsing and closing 40 modules of 1 MB (memory held afterwards), a
//! client that stops reading while the user types, a keystroke after a
//! save in another module, a 200 MiB header line, and hovers in a module
//! directory of 10,000 files with an 8 MB sibling.
//!
//! `tokens`: whole-document semantic tokens per size, in process (the ide
//! layer's tokens and their LSP encoding; goal at 10 MB: ≤ 50 ms) against
//! one counting pass over the same bytes, and through the server against
//! `documentSymbol` of the same document, both measured in the same run.
//!
//! ```sh
//! cargo build --release && cargo bench --bench lsp_latency
//! LSP_BENCH_SIZES=100KB,10MB LSP_BENCH_EDITS=200 cargo bench --bench lsp_latency
//! LSP_BENCH_PARTS=modules,stall,save,header,siblings,calls,pull,tokens cargo bench --bench lsp_latency
//! (calls: HCL_TYPES_BASE_BIN=a build without module calls gives the corpus ratio)
//! HCL_TYPES_BIN=/path/to/other/hcl-types cargo bench --bench lsp_latency   # another build
//! ```
//!
//! The server is driven by hand (`benches/client`): no JSON parsing by the
//! harness counts as server time.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

mod client;
#[path = "lsp_latency/editors.rs"]
mod editors;
#[path = "../tests/it/paths/mod.rs"]
mod paths;
use client::{generated, ms, percentile, position, Server};
use editors::{header, modules, save, siblings, stall};

impl Server {
    /// Resident and peak memory of the server process (Linux).
    fn memory(&self) -> Option<(u64, u64)> {
        Some((self.status("VmRSS:")?, self.status("VmHWM:")?))
    }

    /// A memory field of /proc/PID/status, in bytes.
    fn status(&self, key: &str) -> Option<u64> {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).ok()?;
        let line = status.lines().find(|l| l.starts_with(key))?;
        Some(line.split_whitespace().nth(1)?.parse::<u64>().ok()? * 1024)
    }

    /// The CPU time the server's threads have run (Linux: `schedstat` of
    /// each, in nanoseconds; a thread that ended no longer counts).
    fn cpu(&self) -> Duration {
        let tasks = std::fs::read_dir(format!("/proc/{}/task", self.child.id()));
        let ns: u64 = tasks
            .into_iter()
            .flatten()
            .flatten()
            .filter_map(|t| std::fs::read_to_string(t.path().join("schedstat")).ok())
            .filter_map(|s| s.split_whitespace().next()?.parse::<u64>().ok())
            .sum();
        Duration::from_nanos(ns)
    }

    /// Resident memory as (anonymous, file-backed: the program's code).
    fn split(&self) -> (f64, f64) {
        (mb(self.status("RssAnon:").unwrap_or(0)), mb(self.status("RssFile:").unwrap_or(0)))
    }

    /// Starts the server and initializes it as VS Code would (it watches
    /// files for the server and answers configuration requests).
    fn editor() -> Server {
        let mut server = Server::start();
        let caps = json!({
            "general": {"positionEncodings": ["utf-16"]},
            "workspace": {"configuration": true, "didChangeWatchedFiles": {"dynamicRegistration": true}},
        });
        let id = server.request("initialize", json!({"processId": null, "rootUri": null, "capabilities": caps}));
        server.response(id);
        server.notify("initialized", json!({}));
        server
    }

    fn open(&mut self, path: &Path, text: &str) {
        let uri = format!("file://{}", path.display());
        self.notify(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": uri, "languageId": "terraform", "version": 1, "text": text}}),
        );
    }
}

fn report(what: &str, size: &str, v: &mut [Duration]) -> (Duration, Duration) {
    let (p50, p99) = (percentile(v, 0.5), percentile(v, 0.99));
    println!("{size:>6}  {what:<34} n={:<4} p50 {:>9.3} ms  p99 {:>9.3} ms", v.len(), ms(p50), ms(p99));
    (p50, p99)
}

/// The server's latencies on a generated file of `size`: opening it,
/// `edits` keystrokes, hovers and completions, unbalanced brackets typed
/// mid-file, and its memory afterwards.
fn bench(size: &str, edits: usize) {
    let (path, mut text) = generated(size);
    let uri = format!("file://{}", path.display());
    let mut server = opened(size, &uri, &text);
    let version = keystrokes(&mut server, size, &uri, &mut text, edits);
    hovers(&mut server, size, &uri, &text, edits);
    unbalanced(&mut server, size, &uri, &text, version);
    memory_after(&server, size, &text);
}

/// A server initialized, with the file open: the `initialize` round trip
/// and open → first diagnostics.
fn opened(size: &str, uri: &str, text: &str) -> Server {
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

    server
}

/// One-character edits at string values spread over the file, each to the
/// `publishDiagnostics` of its version; the last version.
fn keystrokes(server: &mut Server, size: &str, uri: &str, text: &mut String, edits: usize) -> i32 {
    // Places to type at: inside string values of resources, spread over the file.
    let spots: Vec<usize> = text.match_indices("Name = \"").map(|(i, m)| i + m.len()).collect();
    assert!(!spots.is_empty(), "no edit spots in the generated file");
    let mut version = 1;
    let mut keystrokes = Vec::new();
    for k in 0..edits {
        let at = spots[(k * 7919) % spots.len()];
        // Type a character, or delete the one typed before.
        let (range, new) = if k % 2 == 0 {
            (json!({"start": position(text, at), "end": position(text, at)}), "x")
        } else {
            (json!({"start": position(text, at), "end": position(text, at + 1)}), "")
        };
        let prev = spots[((k - k % 2) * 7919) % spots.len()];
        let at = if k % 2 == 1 { prev } else { at };
        let range =
            if k % 2 == 1 { json!({"start": position(text, at), "end": position(text, at + 1)}) } else { range };
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

    version
}

/// Hovers on references and completions, hovers on argument and block
/// names, against the round trip of a request the server does not know.
fn hovers(server: &mut Server, size: &str, uri: &str, text: &str, edits: usize) {
    // The baseline of hovers: the round trip of a request the server does
    // not know (answered -32601 by tower-lsp-server), between them.
    let mut pings = Vec::new();
    let mut ping = |server: &mut Server| {
        let t = Instant::now();
        let id = server.request("hcl-types/noSuchRequest", json!({}));
        server.response(id);
        pings.push(t.elapsed());
    };
    let mut hovers = Vec::new();
    let mut completions = Vec::new();
    let refs: Vec<usize> = text.match_indices("var.").map(|(i, _)| i + 5).take(2000).collect();
    for k in 0..edits.min(refs.len()) {
        let at = refs[(k * 104_729) % refs.len()];
        let pos = position(text, at);
        let t = Instant::now();
        let id = server.request("textDocument/hover", json!({"textDocument": {"uri": uri}, "position": pos}));
        server.response(id);
        hovers.push(t.elapsed());
        let t = Instant::now();
        let id = server.request("textDocument/completion", json!({"textDocument": {"uri": uri}, "position": pos}));
        server.response(id);
        completions.push(t.elapsed());
        ping(server);
    }

    // Hover on argument and block names (issue 48.1): a name two spaces
    // into its line before `=` or a block's `{` (a resource's, module's or
    // provider's arguments, `type`, `description`, a local's name, nested
    // blocks), in the same file, as many as the hovers above.
    let names: Vec<usize> = text
        .match_indices("\n  ")
        .map(|(i, _)| i + 3)
        .filter(|&i| {
            // Two spaces in: an argument of a top-level block, not a key
            // of an object value.
            let line = &text[i..text[i..].find('\n').map_or(text.len(), |e| i + e)];
            let word = line.split(|c: char| !(c.is_alphanumeric() || c == '_')).next().unwrap_or("");
            let rest = line[word.len()..].trim_start();
            !word.is_empty() && (rest.starts_with('=') || rest.ends_with('{') && !rest.contains('='))
        })
        .collect();
    let mut name_hovers = Vec::new();
    let mut answered = 0;
    for k in 0..edits.min(names.len()) {
        let at = names[(k * 104_729) % names.len()];
        let pos = position(text, at + 1);
        let t = Instant::now();
        let id = server.request("textDocument/hover", json!({"textDocument": {"uri": uri}, "position": pos}));
        let body = server.response(id);
        name_hovers.push(t.elapsed());
        answered += usize::from(!body.contains("\"result\":null"));
        ping(server);
    }
    let (_, h99) = report("hover on references", size, &mut hovers);
    report("completion", size, &mut completions);
    let (_, n99) = report("hover on argument names", size, &mut name_hovers);
    let (p50, _) = report("unknown request (hover baseline)", size, &mut pings);
    println!(
        "{size:>6}  {:<34} p99 {:.1}× / {:.1}× the baseline's p50; {answered} of {} names answered",
        "hover: references / names",
        ms(h99) / ms(p50).max(1e-6),
        ms(n99) / ms(p50).max(1e-6),
        name_hovers.len()
    );
}

/// `{` or `"` typed in the middle of the file (unbalancing the rest),
/// each to its diagnostics, then removed.
fn unbalanced(server: &mut Server, size: &str, uri: &str, text: &str, mut version: i32) {
    // An unbalanced `{` or `"` in the middle of the file, then removed.
    let mut unbalanced = Vec::new();
    for (k, ch) in ["{", "\"", "{", "\"", "{", "\"", "{", "\"", "{", "\""].iter().enumerate() {
        let middle = text[..text.len() / 2 + k * 977].rfind("\n}\n").map_or(0, |i| i + 3);
        let p = position(text, middle);
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
}

/// The server's memory once the user pauses (it gives freed memory back
/// then), per byte of the file.
fn memory_after(server: &Server, size: &str, text: &str) {
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

fn mb(bytes: u64) -> f64 {
    bytes as f64 / 1e6
}

/// A fresh directory under target/bench-data.
fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/bench-data").join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("bench dir");
    dir
}

/// The largest corpus repository's module calls: `check` of the whole
/// corpus against a build that does not follow calls (HCL_TYPES_BASE_BIN,
/// when given), opening a file deep in the repository, and keystrokes in a
/// called module's variable type until its caller is published again.
fn calls(edits: usize) {
    let Some(corpus) = paths::shared("corpus", "the lsp_latency bench's `calls` part") else { return };
    let bin = std::env::var_os("HCL_TYPES_BIN")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/release/hcl-types"));
    let run = |bin: &Path| {
        let t = Instant::now();
        let ok = Command::new(bin).arg("check").arg(&corpus).stdout(Stdio::null()).stderr(Stdio::null()).status();
        assert!(ok.is_ok(), "could not run {}", bin.display());
        t.elapsed()
    };
    if let Some(base) = std::env::var_os("HCL_TYPES_BASE_BIN").map(PathBuf::from) {
        let (mut ours, mut theirs) = (Vec::new(), Vec::new());
        for _ in 0..5 {
            ours.push(run(&bin));
            theirs.push(run(&base));
        }
        let (o, b) = (percentile(&ours, 0.5), percentile(&theirs, 0.5));
        println!(
            "{:<48} {:>9.3} ms vs {:>9.3} ms without calls: {:.2}×",
            "check the whole corpus (p50 of 5)",
            ms(o),
            ms(b),
            o.as_secs_f64() / b.as_secs_f64()
        );
    }
    let repo = corpus.join("terraform/GoogleCloudPlatform__cloud-foundation-fabric");
    let deep = repo.join("fast/stages/2-networking/factory-addresses.tf");
    let text = std::fs::read_to_string(&deep).expect("corpus file");
    let mut server = Server::editor();
    let t = Instant::now();
    server.open(&deep, &text);
    server.diagnostics_of(&format!("file://{}", deep.display()), 1);
    println!("{:<48} {:>9.3} ms", "open a file deep in fabric → first diagnostics", ms(t.elapsed()));
    let (rss, peak) = server.memory().unwrap_or_default();
    println!("{:<48} {:>6.1} MB resident, {:>6.1} MB peak", "server memory after it", mb(rss), mb(peak));

    let caller = repo.join("fast/stages/3-secops-dev/main.tf");
    let caller_uri = format!("file://{}", caller.display());
    server.open(&caller, &std::fs::read_to_string(&caller).unwrap());
    server.diagnostics_of(&caller_uri, 1);
    let child = repo.join("modules/project/variables.tf");
    let child_text = std::fs::read_to_string(&child).unwrap();
    let line = child_text.lines().position(|l| l.starts_with("variable \"prefix\"")).unwrap() + 2;
    assert!(child_text.lines().nth(line).unwrap().contains("type        = string"));
    let child_uri = format!("file://{}", child.display());
    server.open(&child, &child_text);
    server.diagnostics_of(&child_uri, 1);
    let mut times = Vec::new();
    let mut ty = "string";
    for version in 2..edits as i32 + 2 {
        let next = if ty == "string" { "any" } else { "string" };
        let (start, end) = (json!({"line": line, "character": 16}), json!({"line": line, "character": 16 + ty.len()}));
        let t = Instant::now();
        server.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": child_uri, "version": version}, "contentChanges": [{"range": {"start": start, "end": end}, "text": next}]}),
        );
        server.diagnostics_of(&caller_uri, 1);
        times.push(t.elapsed());
        ty = next;
    }
    report("a called module's variable type → its caller", "", &mut times);
}

/// Pull diagnostics against publications, in one run on the 10 MB file: a
/// client that pulls (as VS Code does) after each change, against one that
/// waits for the publication, both timed to the whole message read. Half
/// the edits keep every diagnostic where it was (a character typed and
/// deleted in a string: the pull is answered `unchanged`), half move all
/// that follow (a line break added and removed: the whole list again).
fn pull(edits: usize) {
    let (path, text) = generated("10MB");
    let uri = format!("file://{}", path.display());
    let spots: Vec<usize> = text.match_indices("Name = \"").map(|(i, m)| i + m.len()).collect();
    let mut times: Vec<[Vec<Duration>; 2]> = Vec::new();
    for pulls in [false, true] {
        let mut server = Server::start();
        let mut caps = json!({"general": {"positionEncodings": ["utf-16"]}});
        if pulls {
            caps["textDocument"] = json!({"diagnostic": {"dynamicRegistration": true}});
            caps["workspace"] = json!({"diagnostics": {"refreshSupport": true}});
        }
        let id = server.request("initialize", json!({"processId": null, "rootUri": null, "capabilities": caps}));
        server.response(id);
        server.notify("initialized", json!({}));
        server.open(&path, &text);
        let mut result = Value::Null;
        let mut pulled = |server: &mut Server| {
            let id = server
                .request("textDocument/diagnostic", json!({"textDocument": {"uri": uri}, "previousResultId": result}));
            // Read as the publication is (not decoded: that is the client's
            // time, the same for both).
            let body = server.response(id);
            let at = body.find("\"resultId\":\"").expect("a result id") + 12;
            result = Value::String(body[at..at + body[at..].find('"').unwrap()].to_string());
        };
        if pulls {
            pulled(&mut server);
        } else {
            server.diagnostics(1);
        }
        let mut kinds = [Vec::new(), Vec::new()];
        let mut version = 1;
        for k in 0..edits {
            let at = spots[(k * 7919) % spots.len()];
            let kind = k % 2;
            let new = ["x", "\n"][kind];
            let p = position(&text, at);
            let after = if kind == 0 {
                json!({"line": p["line"], "character": p["character"].as_u64().unwrap() + 1})
            } else {
                json!({"line": p["line"].as_u64().unwrap() + 1, "character": 0})
            };
            for (range, typed) in [(json!({"start": p, "end": p}), new), (json!({"start": p, "end": after}), "")] {
                version += 1;
                let t = Instant::now();
                server.notify(
                    "textDocument/didChange",
                    json!({"textDocument": {"uri": uri, "version": version}, "contentChanges": [{"range": range, "text": typed}]}),
                );
                if pulls {
                    pulled(&mut server);
                } else {
                    server.diagnostics(version);
                }
                kinds[kind].push(t.elapsed());
            }
        }
        times.push(kinds);
    }
    for (kind, what) in ["a character in a string", "a line break"].iter().enumerate() {
        let push = report(&format!("{what} → publication"), "10MB", &mut times[0][kind]);
        let pull = report(&format!("{what} → pulled"), "10MB", &mut times[1][kind]);
        println!(
            "{:>6}  {:<34} p50 {:.2}×, p99 {:.2}×",
            "10MB",
            format!("{what}: pull / push"),
            ms(pull.0) / ms(push.0),
            ms(pull.1) / ms(push.1)
        );
    }
}

fn main() {
    // `cargo bench` passes --bench; nothing else is read from the command line.
    let sizes = std::env::var("LSP_BENCH_SIZES").unwrap_or_else(|_| "100KB,1MB,10MB".into());
    let edits: usize = std::env::var("LSP_BENCH_EDITS").ok().and_then(|v| v.parse().ok()).unwrap_or(100);
    let parts = std::env::var("LSP_BENCH_PARTS")
        .unwrap_or_else(|_| "latency,modules,stall,save,header,siblings,calls,pull,tokens".into());
    let parts: Vec<&str> = parts.split(',').map(str::trim).collect();
    if parts.contains(&"latency") {
        for size in sizes.split(',') {
            bench(size.trim(), edits);
        }
    }
    if parts.contains(&"modules") {
        modules();
    }
    if parts.contains(&"stall") {
        stall();
    }
    if parts.contains(&"save") {
        save(edits);
    }
    if parts.contains(&"header") {
        header();
    }
    if parts.contains(&"siblings") {
        siblings(edits);
    }
    if parts.contains(&"pull") {
        pull(edits);
    }
    if parts.contains(&"calls") {
        calls(edits);
    }
    if parts.contains(&"tokens") {
        for size in sizes.split(',') {
            tokens(size.trim());
        }
    }
    if parts.contains(&"hover") {
        for size in sizes.split(',') {
            hover(size.trim(), edits);
        }
    }
}

/// Whole-document semantic tokens (issue 48.2): in process, the ide
/// layer's tokens, their LSP encoding and the JSON of the answer, each
/// run against one pass that counts the text's lines (the least any
/// whole-document answer costs); through the server, `semanticTokens/full`
/// against `documentSymbol` (another whole-document answer) alternately,
/// then `range` (a screen of 60 lines at spots spread over the file) and
/// `full/delta` after a keystroke, each by wall time to the whole answer
/// read and by the server's CPU time (all its threads, `/proc`).
fn tokens(size: &str) {
    use hcl_types::analysis::{Document, Memo, SourceFile};
    let (path, text) = generated(size);
    let docs = vec![Document::parse(SourceFile::new(&path, text.as_str()).expect("a source file"))];
    let analysis = Memo::default().analysis(&docs);
    let runs = 15;
    let (mut base, mut ide_t, mut enc_t, mut json_t, mut total) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let (mut count, mut bytes) = (0, 0);
    // Timed by this thread's CPU time (wall time on a loaded machine
    // counts the other jobs).
    for _ in 0..runs {
        let t = thread_cpu();
        let lines = std::hint::black_box(text.as_bytes()).iter().filter(|&&b| b == b'\n').count();
        base.push(thread_cpu() - t);
        let t = thread_cpu();
        let toks = hcl_types::ide::semantic_tokens(&docs, &analysis, 0);
        let found = thread_cpu() - t;
        let t = thread_cpu();
        let data = hcl_types::lsp::encode_semantic_tokens(&text, &toks, hcl_types::lsp::Encoding::Utf16, None);
        let encoded = thread_cpu() - t;
        let t = thread_cpu();
        let json = hcl_types::lsp::semantic_tokens_json(&data);
        let written = thread_cpu() - t;
        ide_t.push(found);
        enc_t.push(encoded);
        json_t.push(written);
        total.push(found + encoded + written);
        (count, bytes) = (data.len(), json.len());
        std::hint::black_box(lines);
    }
    report("lines counted (baseline), CPU", size, &mut base);
    report("semantic tokens: ide, CPU", size, &mut ide_t);
    report("semantic tokens: LSP encoding, CPU", size, &mut enc_t);
    report("semantic tokens: JSON, CPU", size, &mut json_t);
    let (p50, p99) = report("semantic tokens in process, CPU", size, &mut total);
    let b50 = percentile(&base, 0.5);
    println!(
        "{size:>6}  {:<34} {count} tokens, {:.1} MB of JSON; p50 {:.1}× the baseline, p99 {:.1}× its p50",
        "",
        mb(bytes as u64),
        ms(p50) / ms(b50).max(1e-6),
        ms(p99) / ms(b50).max(1e-6)
    );
    tokens_cached(size, &path, &text, runs, b50);

    let uri = format!("file://{}", path.display());
    let mut server = Server::editor();
    server.open(&path, &text);
    server.diagnostics(1);
    let timed = |server: &mut Server, method: &str, params: Value| {
        let (cpu, t) = (server.cpu(), Instant::now());
        let id = server.request(method, params);
        let body = server.response(id);
        (t.elapsed(), server.cpu().saturating_sub(cpu), body)
    };
    let (mut full, mut full_cpu, mut symbols, mut symbols_cpu) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let mut result = String::new();
    for _ in 0..runs {
        let (wall, cpu, body) =
            timed(&mut server, "textDocument/semanticTokens/full", json!({"textDocument": {"uri": uri}}));
        full.push(wall);
        full_cpu.push(cpu);
        result = result_id(&body);
        let (wall, cpu, _) = timed(&mut server, "textDocument/documentSymbol", json!({"textDocument": {"uri": uri}}));
        symbols.push(wall);
        symbols_cpu.push(cpu);
    }
    let (f50, _) = report("semanticTokens/full (server)", size, &mut full);
    let (fc50, _) = report("semanticTokens/full: server CPU", size, &mut full_cpu);
    let (s50, _) = report("documentSymbol (server baseline)", size, &mut symbols);
    let (sc50, _) = report("documentSymbol: server CPU", size, &mut symbols_cpu);
    println!(
        "{size:>6}  {:<34} p50 ratio {:.2} (server CPU {:.2})",
        "semanticTokens/full : documentSymbol",
        ms(f50) / ms(s50).max(1e-6),
        ms(fc50) / ms(sc50).max(1e-6)
    );

    // A screen of the file, at spots spread over it.
    let lines = text.lines().count().max(61);
    let (mut range, mut range_cpu) = (Vec::new(), Vec::new());
    for k in 0..runs * 2 {
        let line = (k * 7919) % (lines - 60);
        let r = json!({"start": {"line": line, "character": 0}, "end": {"line": line + 60, "character": 0}});
        let (wall, cpu, _) =
            timed(&mut server, "textDocument/semanticTokens/range", json!({"textDocument": {"uri": uri}, "range": r}));
        range.push(wall);
        range_cpu.push(cpu);
    }
    report("semanticTokens/range, 60 lines", size, &mut range);
    report("semanticTokens/range: server CPU", size, &mut range_cpu);

    // A character typed into a string value, then the delta from the last answer.
    let spots: Vec<usize> = text.match_indices("Name = \"").map(|(i, m)| i + m.len()).collect();
    let (mut delta, mut delta_cpu, mut sent) = (Vec::new(), Vec::new(), 0);
    for k in 0..runs {
        let p = position(&text, spots[(k * 7919) % spots.len()]);
        let version = k as i32 + 2;
        server.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": uri, "version": version}, "contentChanges": [{"range": {"start": p, "end": p}, "text": "x"}]}),
        );
        server.diagnostics(version);
        let params = json!({"textDocument": {"uri": uri}, "previousResultId": result});
        let (wall, cpu, body) = timed(&mut server, "textDocument/semanticTokens/full/delta", params);
        assert!(body.contains("\"edits\""), "a delta, not the whole tokens: {}", &body[..body.len().min(200)]);
        delta.push(wall);
        delta_cpu.push(cpu);
        sent = sent.max(body.len());
        result = result_id(&body);
    }
    report("semanticTokens/full/delta", size, &mut delta);
    report("semanticTokens/full/delta: CPU", size, &mut delta_cpu);
    println!("{size:>6}  {:<34} at most {sent} bytes a delta", "");
}

/// Whole-document tokens as the server answers `full`: the first request
/// (every item classified, all encoded) and the one after a keystroke (a
/// character typed into a string value: one item re-parsed, its analysis
/// done before the clock starts; the items' tokens from `ide::TokenCache`,
/// encoded again only where the edit changed them), each with the JSON of
/// the answer, by this thread's CPU time.
fn tokens_cached(size: &str, path: &Path, text: &str, runs: usize, b50: Duration) {
    use hcl_types::analysis::{Document, Memo, SourceFile};
    use hcl_types::ide::TokenCache;
    let mut memo = Memo::default();
    let mut docs = vec![Document::parse(SourceFile::new(path, text).expect("a source file"))];
    let analysis = memo.analysis(&docs);
    let answer = |cache: &mut TokenCache, docs: &[Document], analysis: &hcl_types::analysis::ModuleAnalysis| {
        let toks = cache.tokens(docs, analysis, 0);
        let text = docs[0].file.text.as_str();
        let data = hcl_types::lsp::encode_semantic_tokens(text, toks, hcl_types::lsp::Encoding::Utf16, None);
        hcl_types::lsp::semantic_tokens_json(&data).len()
    };
    let mut first = Vec::new();
    for _ in 0..runs.min(5) {
        let t = thread_cpu();
        std::hint::black_box(answer(&mut TokenCache::default(), &docs, &analysis));
        first.push(thread_cpu() - t);
    }
    report("tokens, first (empty cache), CPU", size, &mut first);
    first_wall(size, runs, &|| answer(&mut TokenCache::default(), &docs, &analysis));
    let mut cache = TokenCache::default();
    cache.tokens(&docs, &analysis, 0);
    let enc = hcl_types::lsp::Encoding::Utf16;
    let mut last = Some(hcl_types::lsp::encode_semantic_tokens_since(None, &docs[0], cache.take_tokens(), enc).0);
    let mut text = text.to_string();
    let (mut ide_t, mut enc_t, mut total, mut classified, mut again) = (Vec::new(), Vec::new(), Vec::new(), 0, 0);
    for k in 0..runs {
        let spots: Vec<usize> = text.match_indices("Name = \"").map(|(i, m)| i + m.len()).collect();
        text.insert(spots[(k * 7919) % spots.len()], 'x');
        docs = vec![docs[0].edit(SourceFile::new(path, text.as_str()).expect("a source file"))];
        let analysis = memo.analysis(&docs);
        // As the server answers `full`: the items' tokens from the cache,
        // encoded again where the edit changed them, then the JSON.
        let t = thread_cpu();
        cache.tokens(&docs, &analysis, 0);
        let found = thread_cpu() - t;
        let (encoded, spare) =
            hcl_types::lsp::encode_semantic_tokens_since(last.take(), &docs[0], cache.take_tokens(), enc);
        cache.give_back(spare.unwrap_or_default());
        let encoded_t = thread_cpu() - t - found;
        std::hint::black_box(hcl_types::lsp::semantic_tokens_json(&encoded.data).len());
        let all = thread_cpu() - t;
        again = again.max(encoded.encoded_again());
        last = Some(encoded);
        classified = classified.max(cache.classified());
        ide_t.push(found);
        enc_t.push(encoded_t);
        total.push(all);
    }
    report("tokens after a keystroke: ide, CPU", size, &mut ide_t);
    report("tokens after a keystroke: encoding", size, &mut enc_t);
    let (p50, _) = report("tokens after a keystroke, all, CPU", size, &mut total);
    println!(
        "{size:>6}  {:<34} at most {classified} item(s) classified, {again} tokens encoded; p50 {:.1}× the baseline",
        "",
        ms(p50) / ms(b50).max(1e-6)
    );
}

/// The first answer on rayon's pool (the server's) and, alternately, on
/// a pool of one thread (the sequential path): by wall time, and by the
/// CPU time of the busiest thread (the caller's or a pool thread's, each
/// read by `clock_gettime` on that thread; on a loaded machine the
/// answer's own length, where wall time counts the other jobs too).
fn first_wall(size: &str, runs: usize, answer: &(dyn Fn() -> usize + Sync)) {
    let one = rayon::ThreadPoolBuilder::new().num_threads(1).build().expect("a pool of one thread");
    let global = rayon::ThreadPoolBuilder::new().build().expect("a pool");
    let (mut parallel, mut sequential, mut p_cpu, mut s_cpu) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let run = |pool: &rayon::ThreadPool, wall: &mut Vec<Duration>, cpu: &mut Vec<Duration>| {
        let before = pool.broadcast(|_| thread_cpu());
        let (t, c) = (std::time::Instant::now(), thread_cpu());
        std::hint::black_box(pool.install(answer));
        wall.push(t.elapsed());
        let caller = thread_cpu() - c;
        let after = pool.broadcast(|_| thread_cpu());
        let busiest = after.iter().zip(&before).map(|(a, b)| *a - *b).max().unwrap_or_default();
        cpu.push(caller.max(busiest));
    };
    for _ in 0..runs {
        run(&global, &mut parallel, &mut p_cpu);
        run(&one, &mut sequential, &mut s_cpu);
    }
    let (p, _) = report("tokens, first, parallel, wall", size, &mut parallel);
    let (s, _) = report("tokens, first, one thread, wall", size, &mut sequential);
    let (pc, _) = report("tokens, first, parallel, busiest", size, &mut p_cpu);
    let (sc, _) = report("tokens, first, one thread, busiest", size, &mut s_cpu);
    println!(
        "{size:>6}  {:<34} parallel : one thread {:.2} (wall), {:.2} (busiest thread's CPU) on {} threads",
        "",
        ms(p) / ms(s).max(1e-6),
        ms(pc) / ms(sc).max(1e-6),
        global.current_num_threads()
    );
}

/// Hover in process (issue 48.3): `ide::hover_with` on the module's
/// remembered analysis, the documents without their trees as the server
/// keeps them, on references and on argument and block names, by this
/// thread's CPU time.
fn hover(size: &str, n: usize) {
    use hcl_types::analysis::{Document, Memo, SourceFile};
    let (path, text) = generated(size);
    let docs = vec![Document::parse(SourceFile::new(&path, text.as_str()).expect("a source file"))];
    let mut memo = Memo::default();
    memo.analysis(&docs);
    let docs: Vec<Document> = docs.iter().map(Document::without_trees).collect();
    let refs: Vec<usize> = text.match_indices("var.").map(|(i, _)| i + 5).collect();
    let names: Vec<usize> = text
        .match_indices("\n  ")
        .map(|(i, _)| i + 3)
        .filter(|&i| {
            let line = &text[i..text[i..].find('\n').map_or(text.len(), |e| i + e)];
            let word = line.split(|c: char| !(c.is_alphanumeric() || c == '_')).next().unwrap_or("");
            let rest = line[word.len()..].trim_start();
            !word.is_empty() && (rest.starts_with('=') || rest.ends_with('{') && !rest.contains('='))
        })
        .collect();
    for (what, spots) in [("references", &refs), ("argument names", &names)] {
        let (mut times, mut answered) = (Vec::new(), 0);
        for k in 0..n.min(spots.len()) {
            let at = spots[(k * 104_729) % spots.len()];
            let t = thread_cpu();
            answered += usize::from(hcl_types::ide::hover_with(&docs, 0, at, &mut memo).is_some());
            times.push(thread_cpu() - t);
        }
        report(&format!("hover on {what}, in process, CPU"), size, &mut times);
        println!("{size:>6}  {:<34} {answered} of {} answered", "", times.len());
    }
}

/// The CPU time this thread has run (`CLOCK_THREAD_CPUTIME_ID`: other
/// jobs on a loaded machine do not count).
fn thread_cpu() -> Duration {
    let mut t = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: clock_gettime only writes the timespec it is given.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
    Duration::new(t.tv_sec as u64, t.tv_nsec as u32)
}

/// The `resultId` of an answer's text.
fn result_id(body: &str) -> String {
    let at = body.find("\"resultId\":\"").expect("a result id") + 12;
    body[at..at + body[at..].find('"').expect("a closed string")].to_string()
}
