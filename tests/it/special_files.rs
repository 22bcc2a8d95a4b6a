//! Files that are not what their names say (issue 27): a FIFO, a device,
//! or a file too large, where a module file, a manifest or a schema is
//! expected. `check` and the language server (the real binary, over
//! stdio) must end or answer in bounded time and say what they skipped.
//! Everything that could hang runs under a deadline, so a regression
//! fails instead of hanging the suite.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::paths;

/// How long anything here may take; far more than any of it needs.
const DEADLINE: Duration = Duration::from_secs(30);

fn tempdir(name: &str) -> crate::scratch::Scratch {
    crate::scratch::named(name)
}

fn write(dir: &Path, rel: &str, text: &str) {
    let path = dir.join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

fn mkfifo(path: &Path) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    let _ = std::fs::remove_file(path);
    assert!(Command::new("mkfifo").arg(path).status().unwrap().success());
}

/// A sparse file of `len` bytes (costs no disk).
fn sparse(path: &Path, len: u64) {
    std::fs::File::create(path).unwrap().set_len(len).unwrap();
}

/// Kills the child when dropped (a test that fails leaves no process).
struct Reaper(Child);

impl Drop for Reaper {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Waits for the child, killing it past the deadline.
fn wait(child: &mut Child, what: &str) -> std::process::ExitStatus {
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status;
        }
        if start.elapsed() > DEADLINE {
            let _ = child.kill();
            panic!("{what}: still running after {DEADLINE:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// `hcl-types ARGS` in `dir`: (exit code, stdout, stderr), or a failure
/// past the deadline.
fn check(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let child = Command::new(env!("CARGO_BIN_EXE_hcl-types"))
        .current_dir(dir)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut child = Reaper(child);
    // Drained on threads: a full pipe must not look like a hang.
    let drain = |r: Option<Box<dyn Read + Send>>| {
        std::thread::spawn(move || {
            let mut s = String::new();
            if let Some(mut r) = r {
                let _ = r.read_to_string(&mut s);
            }
            s
        })
    };
    let out = drain(child.0.stdout.take().map(|o| Box::new(o) as Box<dyn Read + Send>));
    let err = drain(child.0.stderr.take().map(|e| Box::new(e) as Box<dyn Read + Send>));
    let status = wait(&mut child.0, &format!("hcl-types {}", args.join(" ")));
    (status.code().unwrap_or(-1), out.join().unwrap(), err.join().unwrap())
}

#[test]
fn check_of_a_fifo_or_a_device_is_an_io_failure() {
    let dir = tempdir("named");
    mkfifo(&dir.join("x.tf"));
    let (code, _, err) = check(&dir, &["check", "x.tf"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("x.tf: error: not a regular file (a FIFO)"), "{err}");
    let (code, _, err) = check(&dir, &["check", "/dev/zero"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("/dev/zero: error: not a regular file (a character device)"), "{err}");
    // Named through a link that leads out of the checked tree: not read,
    // and what it leads to not looked at (issue 42.8): a warning that says
    // the same whatever is there, not an exit status that tells its kind.
    std::os::unix::fs::symlink("/dev/zero", dir.join("zero.tf")).unwrap();
    std::os::unix::fs::symlink("/etc/hostname", dir.join("host.tf")).unwrap();
    for (name, args) in [("zero.tf", &["check", "zero.tf"][..]), ("host.tf", &["check", "host.tf"])] {
        let (code, out, err) = check(&dir, args);
        assert_eq!(code, 0, "{err}");
        let said = format!("{name}:1:1: warning[outside-tree]: this file or path leads outside the checked tree");
        assert!(out.contains(&said), "{out}");
        assert!(!err.contains("character device") && !err.contains(": error:"), "{err}");
    }
    // Or in a linked directory.
    std::os::unix::fs::symlink("/etc", dir.join("etc")).unwrap();
    let (code, out, err) = check(&dir, &["check", "etc/hostname.tf"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("etc/hostname.tf:1:1: warning[outside-tree]"), "{out}");
    let (code, _, err) = check(&dir, &["types", "zero.tf"]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("zero.tf: warning: this file or path leads outside the checked tree"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_fifo_manifest_does_not_hang_check() {
    let dir = tempdir("manifest");
    let call = "module \"vpc\" {\n  source = \"terraform-aws-modules/vpc/aws\"\n}\n";
    write(&dir, "main.tf", call);
    mkfifo(&dir.join(".terraform/modules/modules.json"));
    let (code, out, err) = check(&dir, &["check", "."]);
    assert!(out.contains("./main.tf:2:12: hint[module-source]"), "{out}");
    assert!(err.contains("modules.json: error: not a regular file (a FIFO)"), "{err}");
    assert_eq!(code, 2, "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn fifo_tables_and_schemas_do_not_hang_check() {
    let dir = tempdir("options");
    write(&dir, "main.tf", "locals {\n  x = 1\n}\n");
    mkfifo(&dir.join("table.tsv"));
    mkfifo(&dir.join("schema.json"));
    for args in [
        ["check", ".", "--var-file-table", "table.tsv"],
        ["check", ".", "--provider-schema", "schema.json"],
        ["check", ".", "--package-schema", "schema.json"],
    ] {
        let (code, _, err) = check(&dir, &args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.contains(": error: not a regular file (a FIFO)"), "{args:?}: {err}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The race of issue 27: a `.tf` file found as a regular file, then
/// swapped for a FIFO before it is read. Reading it must refuse the FIFO
/// (what was opened is judged), not wait for a writer.
#[test]
fn a_file_swapped_for_a_fifo_after_discovery_is_refused() {
    let dir = tempdir("swap");
    write(&dir, "main.tf", BAD_BOOL);
    write(&dir, "x.tf", "locals {}\n");
    let (modules, failures) = hcl_types::cli::check::discover(&[dir.to_path_buf()]);
    assert!(failures.is_empty());
    let files: Vec<PathBuf> = modules.into_values().flatten().collect();
    assert_eq!(files.len(), 2, "{files:?}");
    mkfifo(&dir.join("x.tf"));
    let (tx, rx) = mpsc::channel();
    let roots = vec![dir.to_path_buf()];
    std::thread::spawn(move || {
        let checked =
            hcl_types::project::check::check_modules(&[&files], None, &hcl_types::project::check::Quiet, None, &roots);
        let failures: Vec<(PathBuf, String)> =
            checked.into_iter().flat_map(|(_, f)| f).map(|f| (f.path, f.message)).collect();
        let _ = tx.send(failures);
    });
    let failures = rx.recv_timeout(DEADLINE).expect("reading the swapped file blocked");
    assert_eq!(failures, [(dir.join("x.tf"), "not a regular file (a FIFO): not read".to_string())]);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A module file over the cap is skipped and said to be, whether checked
/// or read as a called module; the rest is checked.
#[test]
fn files_over_the_cap_are_skipped_and_reported() {
    let dir = tempdir("cap");
    write(&dir, "root/main.tf", "module \"c\" {\n  source = \"../child\"\n  n      = \"x\"\n}\n");
    write(&dir, "root/vars.tf", "variable \"b\" {\n  type    = bool\n  default = \"maybe\"\n}\n");
    write(&dir, "child/vars.tf", "variable \"n\" {\n  type = number\n}\n");
    sparse(&dir.join("root/huge.tf"), 13 << 20);
    sparse(&dir.join("child/huge.tf"), 13 << 20);
    let (code, out, err) = check(&dir, &["check", "root"]);
    assert!(err.contains("root/huge.tf: error: larger than 12 MiB: not read"), "{err}");
    assert!(err.contains("child/huge.tf: error: larger than 12 MiB: not read"), "{err}");
    assert!(out.contains("root/vars.tf:3:13: error[invalid-value]"), "{out}");
    assert!(out.contains("root/main.tf:3:12: error[invalid-value]"), "the child's variable: {out}");
    assert_eq!(code, 2, "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The language server over stdio, each message read under the deadline.
struct Server {
    child: Reaper,
    stdin: std::process::ChildStdin,
    messages: mpsc::Receiver<Value>,
    next_id: i64,
}

impl Server {
    fn start(dir: &Path, options: Value) -> Server {
        let child = Command::new(env!("CARGO_BIN_EXE_hcl-types"))
            .current_dir(dir)
            .arg("lsp")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let mut child = Reaper(child);
        let stdin = child.0.stdin.take().unwrap();
        let stdout = child.0.stdout.take().unwrap();
        let (tx, messages) = mpsc::channel();
        std::thread::spawn(move || {
            let mut r = BufReader::new(stdout);
            loop {
                let mut len = 0;
                loop {
                    let mut line = String::new();
                    if r.read_line(&mut line).unwrap_or(0) == 0 {
                        return;
                    }
                    let line = line.trim_end();
                    if line.is_empty() {
                        break;
                    }
                    if let Some(n) = line.strip_prefix("Content-Length: ") {
                        len = n.parse().unwrap();
                    }
                }
                let mut body = vec![0; len];
                if r.read_exact(&mut body).is_err() {
                    return;
                }
                if tx.send(serde_json::from_slice(&body).unwrap()).is_err() {
                    return;
                }
            }
        });
        let mut s = Server { child, stdin, messages, next_id: 1 };
        let root = format!("file://{}", dir.display());
        s.request("initialize", json!({"rootUri": root, "capabilities": {}, "initializationOptions": options}));
        s.notify("initialized", json!({}));
        s
    }

    fn send(&mut self, msg: Value) {
        let body = msg.to_string();
        write!(self.stdin, "Content-Length: {}\r\n\r\n{body}", body.len()).unwrap();
        self.stdin.flush().unwrap();
    }

    fn notify(&mut self, method: &str, params: Value) {
        self.send(json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    /// The first message after now that `want` accepts.
    fn until(&mut self, what: &str, want: impl Fn(&Value) -> bool) -> Value {
        let end = Instant::now() + DEADLINE;
        loop {
            let left = end.saturating_duration_since(Instant::now());
            match self.messages.recv_timeout(left) {
                Ok(m) if want(&m) => return m,
                Ok(_) => {}
                Err(_) => panic!("no {what} within {DEADLINE:?}"),
            }
        }
    }

    fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        let m = self.until(&format!("answer to {method}"), |m| m["id"] == id && m.get("method").is_none());
        m["result"].clone()
    }

    fn open(&mut self, path: &Path, text: &str) -> String {
        let uri = format!("file://{}", path.display());
        let doc = json!({"uri": uri, "languageId": "terraform", "version": 1, "text": text});
        self.notify("textDocument/didOpen", json!({"textDocument": doc}));
        uri
    }

    /// The next diagnostics published for `uri`.
    fn diagnostics(&mut self, uri: &str) -> Vec<Value> {
        let m = self.until(&format!("diagnostics of {uri}"), |m| {
            m["method"] == "textDocument/publishDiagnostics" && m["params"]["uri"] == uri
        });
        m["params"]["diagnostics"].as_array().cloned().unwrap_or_default()
    }

    /// `shutdown` answered, and the process gone after `exit`.
    fn stop(mut self) {
        self.request("shutdown", Value::Null);
        self.notify("exit", Value::Null);
        let status = wait(&mut self.child.0, "the server after exit");
        assert!(status.success(), "{status}");
    }
}

const BAD_BOOL: &str =
    "variable \"b\" {\n  type    = bool\n  default = \"maybe\"\n}\noutput \"b\" {\n  value = var.b\n}\n";

fn codes(diags: &[Value]) -> Vec<&str> {
    diags.iter().filter_map(|d| d["code"].as_str()).collect()
}

/// A FIFO named in `providerSchemas` or `packageSchemas` is left out like
/// any unreadable file; it used to freeze the whole server.
#[test]
fn a_fifo_schema_setting_does_not_freeze_the_server() {
    let dir = tempdir("lsp-settings");
    let fifo = dir.join("schema.json");
    mkfifo(&fifo);
    let named = json!([fifo.to_string_lossy()]);
    let mut s = Server::start(&dir, json!({"hclTypes": {"providerSchemas": named, "packageSchemas": named}}));
    write(&dir, "main.tf", BAD_BOOL);
    let u = s.open(&dir.join("main.tf"), BAD_BOOL);
    assert_eq!(codes(&s.diagnostics(&u)), ["invalid-value"]);
    let settings =
        json!({"settings": {"hclTypes": {"providerSchemas": named, "severity": {"invalid-value": "warning"}}}});
    s.notify("workspace/didChangeConfiguration", settings);
    let diags = s.diagnostics(&u);
    assert_eq!(diags[0]["severity"], 2, "{diags:?}");
    s.stop();
    let _ = std::fs::remove_dir_all(&dir);
}

/// A schema file replaced by a FIFO after it was loaded: hover reads its
/// descriptions from the file, and must not wait on the FIFO.
#[test]
fn a_schema_replaced_by_a_fifo_does_not_block_hover() {
    let Some(google) = paths::shared("schemas/terraform/google-4.27.0.json", "a schema replaced by a FIFO") else {
        return;
    };
    let dir = tempdir("lsp-hover");
    let schema = dir.join("google.json");
    std::fs::copy(google, &schema).unwrap();
    let mut s = Server::start(&dir, json!({"hclTypes": {"providerSchemas": [schema.to_string_lossy()]}}));
    let text = "resource \"google_compute_network\" \"x\" {\n  mtu = 1460\n}\n";
    write(&dir, "main.tf", text);
    let u = s.open(&dir.join("main.tf"), text);
    s.diagnostics(&u);
    mkfifo(&schema);
    let at = json!({"textDocument": {"uri": u}, "position": {"line": 1, "character": 3}});
    let h = s.request("textDocument/hover", at);
    let shown = h["contents"]["value"].as_str().unwrap_or_default();
    assert!(shown.contains("number"), "{h}");
    s.stop();
    let _ = std::fs::remove_dir_all(&dir);
}

/// FIFOs where the server reads a module (a sibling `x.tf`, the modules
/// manifest of a registry call) are skipped: the module is published and
/// the server still shuts down.
#[test]
fn fifo_module_files_do_not_block_the_server() {
    let dir = tempdir("lsp-module");
    mkfifo(&dir.join("x.tf"));
    mkfifo(&dir.join(".terraform/modules/modules.json"));
    std::os::unix::fs::symlink("/dev/zero", dir.join("zero.tf")).unwrap();
    let text = format!("{BAD_BOOL}module \"vpc\" {{\n  source = \"terraform-aws-modules/vpc/aws\"\n}}\n");
    write(&dir, "main.tf", &text);
    let mut s = Server::start(&dir, json!({}));
    let u = s.open(&dir.join("main.tf"), &text);
    let diags = s.diagnostics(&u);
    assert_eq!(codes(&diags), ["invalid-value", "module-source"], "{diags:?}");
    s.stop();
    let _ = std::fs::remove_dir_all(&dir);
}
