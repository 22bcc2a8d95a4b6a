//! Keystrokes in every kind of block and attribute (issue 17): the release
//! server over stdio types a character at spots drawn at random from
//! variable descriptions, defaults, types and validation messages,
//! variable / local / output names, local values, outputs, resources, data
//! sources, module calls and their `source` strings, a tfvars file and a
//! PCL program, then deletes it.
//! Per kind: p50/p99 of the server's time (`didChange` → first byte of the
//! matching `publishDiagnostics`), of a real client's (VS Code's
//! vscode-jsonrpc in Node, decoding the JSON: benches/keystroke_client.mjs)
//! and the publication's size; then each kind's 10 MB / 100 KB ratio from
//! the same run. In process, through one `Memo` as the server keeps it:
//! the analysis's own time, how many edits were patched in place and, for
//! the others, why each ran in full (the engine's `GiveUp` reasons).
//!
//! ```sh
//! cargo build --release && cargo bench --bench keystroke_kinds
//! KEYS_BENCH_SIZES=100KB,10MB KEYS_BENCH_EDITS=40 KEYS_BENCH_NODE=0 cargo bench --bench keystroke_kinds
//! KEYS_BENCH_SIZES=10MB KEYS_BENCH_KINDS=resource KEYS_BENCH_WRAP="perf record -g -o /tmp/perf.data --" \
//!     KEYS_BENCH_NODE=0 cargo bench --bench keystroke_kinds
//! HCL_TYPES_BIN=/path/to/other/hcl-types cargo bench --bench keystroke_kinds   # another build
//! KEYS_BENCH_WATCH=1 cargo bench --bench keystroke_kinds   # a client that watches files (VS Code)
//! KEYS_BENCH_TRACE=1 cargo bench --bench keystroke_kinds   # every keystroke's time, in order (stderr)
//! KEYS_BENCH_PAUSE_MS=0 cargo bench --bench keystroke_kinds   # no pause after opening (1000 by default)
//! ```
//!
//! Inputs: `tools/gen-hcl.py` (seed 1) for Terraform; the tfvars
//! file assigns every fourth variable with a one-line default; the PCL
//! program is generated here to the same size. The Node client needs
//! vscode-jsonrpc, installed on first use into target/bench-node with npm.
//! The server is driven by hand as in lsp_latency (`benches/client`).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

mod client;
use client::{binary, generated, ms, percentile, position, root, Server};

/// Every fourth variable with a one-line default, assigned that default.
fn tfvars(tf: &str) -> String {
    let mut out = String::new();
    let mut k = 0;
    for block in tf.split("\nvariable \"").skip(1) {
        let Some(name) = block.split('"').next() else { continue };
        let body = &block[..block.find("\n}").unwrap_or(block.len())];
        let Some(line) = body.lines().find(|l| l.starts_with("  default     = ")) else { continue };
        let value = &line["  default     = ".len()..];
        if value.ends_with('{') || value.ends_with('[') || value.ends_with('(') {
            continue;
        }
        k += 1;
        if k % 4 == 0 {
            out += &format!("{name} = {value}\n");
        }
    }
    out
}

/// A PCL program of about `bytes`: configs, resources, top-level
/// attributes and outputs referring to each other.
fn pcl(bytes: usize) -> String {
    let mut out = String::from("# A generated Pulumi program.\n\n");
    let mut n = 0;
    while out.len() < bytes {
        out += &format!(
            "config \"site{n}\" \"string\" {{\n  default = \"site {n}\"\n}}\n\n\
             config \"replicas{n}\" \"int\" {{\n  default = {n}\n}}\n\n\
             resource \"bucket{n}\" \"aws:s3:Bucket\" {{\n  website = {{\n    indexDocument = \"index-${{site{n}}}.html\"\n  }}\n  tags = {{ Name = \"bucket {n}\" }}\n}}\n\n\
             greeting{n} = \"Hello from ${{site{n}}} (${{replicas{n}}})\"\n\n\
             endpoint{n} = replicas{n} > 1 ? bucket{n}.websiteEndpoint : greeting{n}\n\n\
             output \"endpoint{n}\" {{\n  value = endpoint{n}\n}}\n\n"
        );
        n += 1;
    }
    out
}

// ---------------------------------------------------------------------------
// Where to type, per kind.

/// Offsets just after each match of `pat`.
fn after(text: &str, pat: &str) -> Vec<usize> {
    text.match_indices(pat).map(|(i, m)| i + m.len()).collect()
}

/// The end of the quoted label starting after each match of `pat`.
fn label_ends(text: &str, pat: &str) -> Vec<usize> {
    after(text, pat).into_iter().filter_map(|i| text[i..].find('"').map(|e| i + e)).collect()
}

/// Line ranges of the top-level `locals` blocks.
fn locals_lines(text: &str) -> Vec<(usize, &str)> {
    let mut lines = Vec::new();
    let (mut inside, mut at) = (false, 0);
    for line in text.split_inclusive('\n') {
        if line.starts_with("locals {") {
            inside = true;
        } else if line.starts_with('}') {
            inside = false;
        } else if inside {
            lines.push((at, line));
        }
        at += line.len();
    }
    lines
}

/// The spots of each kind in a document.
fn spots(kind: &str, text: &str) -> Vec<usize> {
    // The same spots in the module beside `versions.tf`.
    let kind =
        [" (versions.tf)", " (override.tf)", " (symbols)"].iter().fold(kind, |k, s| k.strip_suffix(s).unwrap_or(k));
    match kind {
        "variable description" => after(text, "  description = \"The "),
        "variable default" => after(text, "\n  default     = ")
            .into_iter()
            .filter_map(|i| {
                let line = &text[i..i + text[i..].find('\n').unwrap_or(0)];
                line.find('"').map(|q| i + q + 1)
            })
            .collect(),
        "variable type" => after(text, "\n  type        = ")
            .into_iter()
            .map(|i| i + text[i..].find(|c: char| !c.is_ascii_alphanumeric()).unwrap_or(0))
            .collect(),
        "validation message" => after(text, "error_message = \"The "),
        "variable rename" | "variable rename (tfvars)" => label_ends(text, "\nvariable \""),
        "local value" => locals_lines(text)
            .into_iter()
            .filter(|(_, l)| l.starts_with("  l_"))
            .filter_map(|(at, l)| l.find('"').map(|q| at + q + 1))
            .collect(),
        "local rename" => locals_lines(text)
            .into_iter()
            .filter(|(_, l)| l.starts_with("  l_"))
            .filter_map(|(at, l)| l.find(" =").map(|e| at + e))
            .collect(),
        "output value" => after(text, "\n  value       = "),
        "output rename" => label_ends(text, "\noutput \""),
        "resource" => after(text, "Name = \""),
        "data source" => after(text, "values = [\""),
        "module call" => after(text, "version = \"~> "),
        "module source" => after(text, "source  = \"./modules/"),
        "tfvars" => {
            after(text, " = ").into_iter().map(|i| if text[i..].starts_with('"') { i + 1 } else { i }).collect()
        }
        "pcl" => after(text, "Hello from ").into_iter().chain(after(text, "Name = \"bucket ")).collect(),
        "pcl rename" => label_ends(text, "\nconfig \"site"),
        _ => unreachable!("kind {kind}"),
    }
}

/// A module to type in: its directory, the documents to open (the first is
/// typed in unless a kind says otherwise) and the kinds typed there.
struct Module {
    name: &'static str,
    docs: Vec<(PathBuf, &'static str, String)>,
    kinds: Vec<(&'static str, usize)>,
}

/// An override file beside the module typed in (analysis.md §6.1).
const OVERRIDE_TF: &str = r#"output "override_only" {
  value = "o"
}
"#;

/// A `symbols` block beside the module typed in (OpenTofu's symbol
/// libraries; the library itself is not there, as before it is written).
const SYMBOLS_TOFU: &str = r#"symbols "lib" {
  source = "./lib"
}
"#;

/// `versions.tf` of the module typed in beside it.
const VERSIONS_TF: &str = r#"terraform {
  required_version = "~> 1.5.0"
}

variable "api_token" {
  type      = string
  ephemeral = true
  default   = "token"
}

output "api_token" {
  value     = var.api_token
  ephemeral = true
}
"#;

fn modules(size: &str) -> Vec<Module> {
    let (_, tf) = generated(size);
    let base = root().join(format!("target/bench-data/keys-{size}"));
    let write = |dir: &str, name: &str, text: &str| {
        let dir = base.join(dir);
        std::fs::create_dir_all(&dir).expect("bench dir");
        let path = dir.join(name);
        if std::fs::read_to_string(&path).ok().as_deref() != Some(text) {
            std::fs::write(&path, text).expect("bench input");
        }
        path
    };
    let tf_kinds = [
        "variable description",
        "variable default",
        "variable type",
        "validation message",
        "variable rename",
        "local value",
        "local rename",
        "output value",
        "output rename",
        "resource",
        "data source",
        "module call",
        "module source",
    ];
    let vars = tfvars(&tf);
    let program = pcl(tf.len());
    vec![
        Module {
            name: "main.tf",
            docs: vec![(write("tf", "main.tf", &tf), "terraform", tf.clone())],
            kinds: tf_kinds.iter().map(|k| (*k, 0)).collect(),
        },
        Module {
            name: "main.tf + terraform.tfvars",
            docs: vec![
                (write("tfvars", "main.tf", &tf), "terraform", tf.clone()),
                (write("tfvars", "terraform.tfvars", &vars), "terraform-vars", vars),
            ],
            kinds: vec![("tfvars", 1), ("variable rename (tfvars)", 0)],
        },
        // What real root modules have beside their code: a pinned
        // `required_version` (one that excludes newer functions) and an
        // ephemeral variable. Each makes a module-level pass judge the
        // whole module (versions.rs, ephemeral.rs).
        Module {
            name: "main.tf + versions.tf",
            docs: vec![
                (write("versions", "main.tf", &tf), "terraform", tf.clone()),
                (write("versions", "versions.tf", VERSIONS_TF), "terraform", VERSIONS_TF.to_string()),
            ],
            kinds: vec![
                ("variable default (versions.tf)", 0),
                ("local value (versions.tf)", 0),
                ("output value (versions.tf)", 0),
                ("resource (versions.tf)", 0),
                ("module source (versions.tf)", 0),
            ],
        },
        // Issue 46's done-means: override files and `symbols` blocks, whose
        // modules were judged whole (every keystroke a full run).
        Module {
            name: "main.tf + override.tf",
            docs: vec![
                (write("override", "main.tf", &tf), "terraform", tf.clone()),
                (write("override", "override.tf", OVERRIDE_TF), "terraform", OVERRIDE_TF.to_string()),
            ],
            kinds: vec![("local value (override.tf)", 0), ("resource (override.tf)", 0)],
        },
        Module {
            name: "main.tofu + symbols",
            docs: vec![
                (write("symbols", "main.tofu", &tf), "opentofu", tf.clone()),
                (write("symbols", "symbols.tofu", SYMBOLS_TOFU), "opentofu", SYMBOLS_TOFU.to_string()),
            ],
            kinds: vec![("local value (symbols)", 0), ("resource (symbols)", 0)],
        },
        Module {
            name: "main.pp",
            docs: vec![(write("pcl", "main.pp", &program), "pcl", program)],
            kinds: vec![("pcl", 0), ("pcl rename", 0)],
        },
    ]
}

// ---------------------------------------------------------------------------
// The edits.

struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) % n.max(1) as u64) as usize
    }
}

/// One keystroke: typing `x` at a spot or deleting it again (the texts are
/// back to the original after each pair, so spots stay valid).
struct Edit {
    kind: &'static str,
    doc: usize,
    /// Where, in bytes: `x` typed at `at`, or `at..at + 1` deleted.
    at: usize,
    version: i32,
    range: Value,
    text: &'static str,
}

fn plan(m: &Module, edits: usize, seed: u64) -> Vec<Edit> {
    let mut rng = Rng(seed);
    let spots: Vec<Vec<usize>> = m.kinds.iter().map(|(kind, doc)| spots(kind, &m.docs[*doc].2)).collect();
    // KEYS_BENCH_KINDS=resource,tfvars types only those kinds.
    let only = std::env::var("KEYS_BENCH_KINDS").ok();
    let wanted = |k: &usize| only.as_ref().is_none_or(|o| o.split(',').any(|w| w == m.kinds[*k].0));
    let mut order: Vec<usize> = (0..m.kinds.len()).filter(wanted).flat_map(|k| std::iter::repeat_n(k, edits)).collect();
    for i in (1..order.len()).rev() {
        order.swap(i, rng.below(i + 1));
    }
    let mut versions = vec![1; m.docs.len()];
    let mut out = Vec::new();
    for k in order {
        let (kind, doc) = m.kinds[k];
        assert!(!spots[k].is_empty(), "no spots for {kind} in {}", m.name);
        let at = spots[k][rng.below(spots[k].len())];
        let text = &m.docs[doc].2;
        let p = position(text, at);
        let typed = format!("{}x", &text[..at]);
        for (range, new) in
            [(json!({"start": p, "end": p}), "x"), (json!({"start": p, "end": position(&typed, at + 1)}), "")]
        {
            versions[doc] += 1;
            out.push(Edit { kind, doc, at, version: versions[doc], range, text: new });
        }
    }
    out
}

fn uri(path: &Path) -> String {
    format!("file://{}", path.display())
}

/// Per kind: server times and publication sizes.
type Measured = BTreeMap<&'static str, (Vec<Duration>, Vec<usize>)>;

fn server_times(m: &Module, edits: &[Edit]) -> Measured {
    // KEYS_BENCH_WRAP="perf record -g -o FILE --" profiles the server.
    let mut server = Server::wrapped(&std::env::var("KEYS_BENCH_WRAP").unwrap_or_default());
    // KEYS_BENCH_WATCH=1: the client watches files for the server, as VS
    // Code does; otherwise the server looks at the disk again (the module's
    // directory, the called modules') before every analysis.
    let mut capabilities = json!({"general": {"positionEncodings": ["utf-16"]}});
    if std::env::var("KEYS_BENCH_WATCH").is_ok_and(|v| v == "1") {
        capabilities["workspace"] = json!({"didChangeWatchedFiles": {"dynamicRegistration": true}});
    }
    let id = server.request("initialize", json!({"processId": null, "rootUri": null, "capabilities": capabilities}));
    server.response(id);
    server.notify("initialized", json!({}));
    for (path, language, text) in &m.docs {
        let uri = uri(path);
        server.notify(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": uri, "languageId": language, "version": 1, "text": text}}),
        );
        server.diagnostics_of(&uri, 1);
    }
    // A pause after opening, as a user's before typing: the server frees
    // what the open's analysis left (a 10 MB file's trees, some 400 MB)
    // in the first pause. Typed into without one, the file's first few
    // hundred keystrokes end with that free beside a few dozen of them
    // (7-50 ms each; BENCHMARKS.md).
    let pause = std::env::var("KEYS_BENCH_PAUSE_MS").ok().and_then(|v| v.parse().ok()).unwrap_or(1000);
    std::thread::sleep(std::time::Duration::from_millis(pause));
    let mut out = Measured::new();
    // KEYS_BENCH_TRACE=1 prints each keystroke's server time, in order.
    let trace = std::env::var("KEYS_BENCH_TRACE").is_ok_and(|v| v == "1");
    for e in edits {
        let uri = uri(&m.docs[e.doc].0);
        let t = Instant::now();
        server.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": uri, "version": e.version}, "contentChanges": [{"range": e.range, "text": e.text}]}),
        );
        let (at, bytes) = server.published(Some(&uri), e.version);
        if trace {
            eprintln!("{:>4} {:<26} at {:>9} {:>8.2} ms", e.version, e.kind, e.at, ms(at - t));
        }
        let entry = out.entry(e.kind).or_default();
        entry.0.push(at - t);
        entry.1.push(bytes);
    }
    out
}

/// The same edits through the Node client; `None` when Node or
/// vscode-jsonrpc is not at hand.
fn client_times(m: &Module, edits: &[Edit], size: &str) -> Option<BTreeMap<String, Vec<f64>>> {
    if std::env::var("KEYS_BENCH_NODE").is_ok_and(|v| v == "0") {
        return None;
    }
    let modules = root().join("target/bench-node/node_modules");
    if !modules.join("vscode-jsonrpc").exists() {
        let dir = root().join("target/bench-node");
        std::fs::create_dir_all(&dir).ok()?;
        let ok = Command::new("npm")
            .args(["install", "--no-audit", "--no-fund", "--prefix"])
            .arg(&dir)
            .arg("vscode-jsonrpc@8")
            .status()
            .is_ok_and(|s| s.success());
        if !ok {
            eprintln!("npm install vscode-jsonrpc failed: no client times");
            return None;
        }
    }
    let open: Vec<Value> = m
        .docs
        .iter()
        .map(|(path, language, text)| json!({"uri": uri(path), "languageId": language, "text": text}))
        .collect();
    let edits: Vec<Value> = edits
        .iter()
        .map(|e| json!({"kind": e.kind, "uri": uri(&m.docs[e.doc].0), "version": e.version, "range": e.range, "text": e.text}))
        .collect();
    let plan_path = root()
        .join(format!("target/bench-data/keys-{size}/plan-{}.json", m.docs[0].0.parent()?.file_name()?.to_str()?));
    std::fs::write(&plan_path, json!({"server": binary(), "open": open, "edits": edits}).to_string()).ok()?;
    let out = Command::new("node")
        .arg(root().join("benches/keystroke_client.mjs"))
        .arg(&plan_path)
        .arg(&modules)
        .stderr(Stdio::inherit())
        .output()
        .ok()?;
    if !out.status.success() {
        eprintln!("the Node client failed: no client times");
        return None;
    }
    serde_json::from_slice(&out.stdout).ok()
}

/// Per kind: how many edits were patched, the analysis's own times, and
/// why the others ran in full (reason → count).
type InProcess = (usize, Vec<Duration>, BTreeMap<String, u32>);

/// The same edits in process through `Document::edit` and one `Memo` as
/// the server keeps it: per kind, how many were patched in place (not the
/// full combination), the analysis's own times and the give-ups.
fn in_process(m: &Module, edits: &[Edit]) -> BTreeMap<&'static str, InProcess> {
    use hcl_types::analysis::{Document, GiveUp, Memo, SourceFile};
    let mut texts: Vec<String> = m.docs.iter().map(|(_, _, t)| t.clone()).collect();
    let file = |path: &Path, text: &str| SourceFile::new(path, text).expect("a source file");
    let mut docs: Vec<Document> = m.docs.iter().map(|(p, _, t)| Document::parse(file(p, t))).collect();
    let mut memo = Memo::default();
    memo.analysis(&docs);
    let mut out: BTreeMap<&'static str, InProcess> = BTreeMap::new();
    for e in edits {
        let text = &mut texts[e.doc];
        if e.text.is_empty() {
            text.replace_range(e.at..e.at + 1, "");
        } else {
            text.insert_str(e.at, e.text);
        }
        docs[e.doc] = docs[e.doc].edit(file(&m.docs[e.doc].0, text));
        let (patches, gave_up, t) = (memo.patches(), memo.give_ups().clone(), Instant::now());
        memo.analysis(&docs);
        let entry = out.entry(e.kind).or_default();
        entry.1.push(t.elapsed());
        entry.0 += usize::from(memo.patches() > patches);
        for why in GiveUp::ALL {
            let n = memo.give_ups().get(why) - gave_up.get(why);
            if n > 0 {
                *entry.2.entry(format!("{why:?}")).or_default() += n;
            }
        }
    }
    out
}

// ---------------------------------------------------------------------------
// Reporting.

/// Per kind: (server p50, p99, client p50, p99) in ms, publication p50 bytes.
type Row = (f64, f64, Option<(f64, f64)>, usize);

fn bench(size: &str, edits: usize) -> BTreeMap<&'static str, Row> {
    let mut rows = BTreeMap::new();
    for (i, m) in modules(size).iter().enumerate() {
        let plan = plan(m, edits, 17 + i as u64);
        if plan.is_empty() {
            continue;
        }
        let server = server_times(m, &plan);
        let client = client_times(m, &plan, size);
        let analysis = in_process(m, &plan);
        for (kind, (times, sizes)) in server {
            let times: Vec<f64> = times.into_iter().map(ms).collect();
            let c = client.as_ref().and_then(|c| c.get(kind)).map(|c| (percentile(c, 0.5), percentile(c, 0.99)));
            let row = (percentile(&times, 0.5), percentile(&times, 0.99), c, percentile(&sizes, 0.5));
            let client = c.map_or("        -".into(), |(a, b)| format!("{a:>8.2} {b:>8.2}"));
            let (patched, own, gave_up) = &analysis[kind];
            let gave_up: Vec<String> = gave_up.iter().map(|(why, n)| format!("{why}={n}")).collect();
            let own: Vec<f64> = own.iter().copied().map(ms).collect();
            println!(
                "{size:>6}  {:<26} {:<24} n={:<3} server {:>7.2} {:>7.2}  client {client}  publication {:>7.1} KB  \
                 analysis {:>7.2} {:>7.2}  patched {patched}/{}  gave up: {}",
                m.name,
                kind,
                times.len(),
                row.0,
                row.1,
                row.3 as f64 / 1000.0,
                percentile(&own, 0.5),
                percentile(&own, 0.99),
                own.len(),
                if gave_up.is_empty() { "none".to_string() } else { gave_up.join(" ") }
            );
            rows.insert(kind, row);
        }
    }
    rows
}

fn main() {
    // `cargo bench` passes --bench; nothing else is read from the command line.
    let sizes = std::env::var("KEYS_BENCH_SIZES").unwrap_or_else(|_| "100KB,10MB".into());
    let edits: usize = std::env::var("KEYS_BENCH_EDITS").ok().and_then(|v| v.parse().ok()).unwrap_or(30);
    println!("p50 p99 in ms; each kind: {edits} spots, a character typed and deleted at each");
    let results: Vec<(String, BTreeMap<&str, Row>)> =
        sizes.split(',').map(|s| (s.trim().to_string(), bench(s.trim(), edits))).collect();
    if let (Some((small, a)), Some((large, b))) = (results.first(), results.last()) {
        if small != large {
            println!("\nratios {large} / {small} (server p50, server p99):");
            for (kind, x) in b {
                if let Some(y) = a.get(kind) {
                    println!("  {kind:<26} {:>7.1}x {:>7.1}x", x.0 / y.0, x.1 / y.1);
                }
            }
        }
    }
}
