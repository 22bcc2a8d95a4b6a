//! What real editors do (issue 18), each with its memory or latency:
//! browsing and closing 40 modules of 1 MB, a client that stops reading
//! while the user types, a keystroke after a save in another module, a
//! 200 MiB header line, and hovers beside 10,000 files.

use std::io::Write;
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use super::{generated, mb, ms, report, scratch, Server};

/// Opens and closes 40 modules of 1 MB one after another, as a user
/// browsing them does: the memory held afterwards, with nothing open,
/// against the empty server's.
pub(super) fn modules() {
    let (_, text) = generated("1MB");
    let root = scratch("lsp-modules");
    let mut server = Server::editor();
    std::thread::sleep(Duration::from_millis(500));
    let (empty, _) = server.memory().unwrap_or_default();
    let empty_split = server.split();
    for k in 0..40 {
        let dir = root.join(format!("m{k:02}"));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("main.tf");
        std::fs::write(&path, &text).unwrap();
        server.open(&path, &text);
        server.diagnostics(1);
        server.notify("textDocument/didClose", json!({"textDocument": {"uri": format!("file://{}", path.display())}}));
    }
    // The server gives freed memory back once the user pauses.
    std::thread::sleep(Duration::from_millis(2000));
    if let Some((rss, peak)) = server.memory() {
        let ((anon0, file0), (anon, file)) = (empty_split, server.split());
        println!(
            "{:<48} empty {:>5.1} MB (anon {anon0:.1} + code {file0:.1}), after {:>5.1} MB (anon {anon:.1} + code {file:.1}) = {:.2}x, peak {:.0} MB",
            "40 modules of 1 MB opened and closed: RSS",
            mb(empty),
            mb(rss),
            rss as f64 / empty as f64,
            mb(peak)
        );
    }
}

/// A client that stops reading while the user types 100 characters into
/// a file with 7 MB of diagnostics: the server's memory while it is
/// stalled, and how many publications it then gets.
pub(super) fn stall() {
    let dir = scratch("lsp-stall");
    let text: String =
        (0..16_000).map(|i| format!("variable \"v{i}\" {{\n  type    = number\n  default = \"x\"\n}}\n")).collect();
    let path = dir.join("main.tf");
    std::fs::write(&path, &text).unwrap();
    let uri = format!("file://{}", path.display());
    let mut server = Server::editor();
    server.open(&path, &text);
    let bytes = server.diagnostics(1);
    std::thread::sleep(Duration::from_millis(1500));
    let (before, _) = server.memory().unwrap_or_default();
    let last = 101;
    for version in 2..=last {
        let at = json!({"line": 2, "character": 13});
        server.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": uri, "version": version}, "contentChanges": [{"range": {"start": at, "end": at}, "text": "1"}]}),
        );
        // Typing speed: each keystroke is analysed before the next.
        std::thread::sleep(Duration::from_millis(150));
    }
    std::thread::sleep(Duration::from_millis(3000));
    let (stalled, _) = server.memory().unwrap_or_default();
    let mut received = 0;
    loop {
        let body = server.read();
        if body.contains("textDocument/publishDiagnostics") {
            received += 1;
            if body.rfind("\"version\":").is_some_and(|i| body[i..].starts_with(&format!("\"version\":{last}"))) {
                break;
            }
        }
    }
    println!(
        "{:<48} {:>6.1} MB before, {:>6.1} MB stalled ({} KB per publication); {received} publications for 100 edits",
        "client stops reading during 100 keystrokes: RSS",
        mb(before),
        mb(stalled),
        bytes / 1000
    );
}

/// A keystroke in a module with a 1 MB sibling on disk, alone and right
/// after a save in another module.
pub(super) fn save(edits: usize) {
    let (_, big) = generated("1MB");
    let root = scratch("lsp-save");
    let (a, b) = (root.join("a"), root.join("b"));
    for dir in [&a, &b] {
        std::fs::create_dir_all(dir).unwrap();
        std::fs::write(dir.join("big.tf"), &big).unwrap();
    }
    let small = "locals {\n  x = \"\"\n}\n";
    let (main_a, main_b) = (a.join("main.tf"), b.join("main.tf"));
    std::fs::write(&main_a, small).unwrap();
    std::fs::write(&main_b, small).unwrap();
    let (uri_a, uri_b) = (format!("file://{}", main_a.display()), format!("file://{}", main_b.display()));
    let mut server = Server::editor();
    server.open(&main_a, small);
    server.diagnostics_of(&uri_a, 1);
    server.open(&main_b, small);
    server.diagnostics_of(&uri_b, 1);
    let mut version = 1;
    let (mut plain, mut after_save) = (Vec::new(), Vec::new());
    for k in 0..edits * 2 {
        if k % 2 == 1 {
            server.notify("textDocument/didSave", json!({"textDocument": {"uri": uri_b}}));
        }
        version += 1;
        let at = json!({"line": 1, "character": 7});
        let t = Instant::now();
        server.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": uri_a, "version": version}, "contentChanges": [{"range": {"start": at, "end": at}, "text": "x"}]}),
        );
        server.diagnostics_of(&uri_a, version);
        if k % 2 == 1 { &mut after_save } else { &mut plain }.push(t.elapsed());
    }
    report("keystroke, 1 MB sibling on disk", "", &mut plain);
    report("the same after a save in another module", "", &mut after_save);
}

/// A header line of 200 MiB: the server's peak memory.
pub(super) fn header() {
    let dir = scratch("lsp-header");
    let mut server = Server::editor();
    let path = dir.join("main.tf");
    std::fs::write(&path, "locals {\n  a = 1\n}\n").unwrap();
    server.open(&path, "locals {\n  a = 1\n}\n");
    server.diagnostics(1);
    let (_, before) = server.memory().unwrap_or_default();
    let line = vec![b'a'; 1 << 20];
    server.stdin.write_all(b"X-Junk: ").unwrap();
    for _ in 0..200 {
        server.stdin.write_all(&line).unwrap();
    }
    server.stdin.write_all(b"\r\n\r\n").unwrap();
    server.stdin.flush().unwrap();
    let id = server.request("shutdown", Value::Null);
    let _ = server.response(id);
    let (_, after) = server.memory().unwrap_or_default();
    println!("{:<48} peak {:>6.1} MB before, {:>6.1} MB after", "a 200 MiB header line", mb(before), mb(after));
}

/// Hovers in a small open file whose directory holds 10,000 other
/// `.tf` files and an 8 MB one.
pub(super) fn siblings(edits: usize) {
    let (_, big) = generated("10MB");
    let dir = scratch("lsp-siblings");
    for k in 0..10_000 {
        std::fs::write(dir.join(format!("s{k:05}.tf")), format!("locals {{\n  s{k} = {k}\n}}\n")).unwrap();
    }
    std::fs::write(dir.join("big.tf"), &big[..big.len() * 86 / 100]).unwrap();
    let path = dir.join("main.tf");
    let text = "output \"o\" {\n  value = local.s1\n}\n";
    std::fs::write(&path, text).unwrap();
    let uri = format!("file://{}", path.display());
    let mut server = Server::editor();
    let t = Instant::now();
    server.open(&path, text);
    server.diagnostics(1);
    println!("{:<48} {:>9.3} ms", "10,000 siblings + 8 MB: open → diagnostics", ms(t.elapsed()));
    let mut hovers = Vec::new();
    for _ in 0..edits {
        let t = Instant::now();
        let id = server.request(
            "textDocument/hover",
            json!({"textDocument": {"uri": uri}, "position": {"line": 1, "character": 16}}),
        );
        server.response(id);
        hovers.push(t.elapsed());
    }
    report("hover beside 10,000 files and an 8 MB one", "", &mut hovers);
}
