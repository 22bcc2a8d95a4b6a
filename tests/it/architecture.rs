//! The layering docs/architecture.md states, checked: each crate depends
//! only on the layers below it, and nothing below the project layer
//! touches the disk, the environment or a process.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

pub(crate) fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The `[dependencies]` keys of a manifest (workspace crates are named by
/// their layer: `types = { package = "hcl-types-algebra", … }`).
pub(crate) fn dependencies(manifest: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(manifest).unwrap();
    let mut out = Vec::new();
    let mut in_deps = false;
    for line in text.lines() {
        let line = line.trim();
        if line.starts_with('[') {
            // (A workspace's shared table is not a package's dependencies.)
            in_deps = line == "[dependencies]"
                || line.ends_with(".dependencies]") && !line.contains("dev-") && !line.starts_with("[workspace");
            continue;
        }
        if in_deps {
            if let Some((key, _)) = line.split_once('=') {
                let key = key.trim().trim_end_matches(".workspace").to_string();
                if !key.is_empty() && !key.starts_with('#') {
                    out.push(key);
                }
            }
        }
    }
    out
}

const LAYERS: [&str; 7] = ["types", "syntax", "schema", "analysis", "ide", "project", "lsp"];

#[test]
fn each_crate_depends_only_on_layers_below_it() {
    for (i, layer) in LAYERS.iter().enumerate() {
        let deps = dependencies(&root().join("crates").join(layer).join("Cargo.toml"));
        for d in deps.iter().filter(|d| LAYERS.contains(&d.as_str())) {
            let j = LAYERS.iter().position(|l| l == d).unwrap();
            assert!(j < i, "crates/{layer} depends on {d}, which is not below it");
        }
        // The editor features are plain data: no LSP types below the server.
        if *layer != "lsp" {
            assert!(!deps.iter().any(|d| d.contains("lsp")), "crates/{layer} depends on an LSP crate: {deps:?}");
        }
    }
}

/// Source lines outside `#[cfg(test)]` modules.
pub(crate) fn non_test_lines(file: &Path) -> Vec<(usize, String)> {
    let text = std::fs::read_to_string(file).unwrap();
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let code = line.trim_start();
        if code.starts_with("#[cfg(test)]") || code.starts_with("#[cfg(all(test") {
            break;
        }
        out.push((n + 1, line.to_string()));
    }
    out
}

pub(crate) fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let p = e.path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// Whether `code` names `x` as a path of its own: `fs::` but not `refs::`.
fn used(code: &str, x: &str) -> bool {
    code.match_indices(x).any(|(i, _)| !code[..i].ends_with(|c: char| c.is_alphanumeric() || c == '_'))
}

/// The lines of the Rust files under `dir` (tests left out) that use one
/// of `forbidden`.
fn uses(dir: &Path, forbidden: &[&str]) -> Vec<String> {
    let mut files = Vec::new();
    rust_files(dir, &mut files);
    let mut found = Vec::new();
    for f in files {
        for (n, line) in non_test_lines(&f) {
            let code = line.split("//").next().unwrap_or("");
            if forbidden.iter().any(|x| used(code, x)) {
                found.push(format!("{}:{n}: {}", f.display(), line.trim()));
            }
        }
    }
    found
}

#[test]
fn nothing_below_the_project_layer_does_io() {
    let forbidden = ["std::fs", "fs::", "std::process", "std::net", "std::env::var", "File::open"];
    let found: Vec<String> = ["types", "syntax", "schema", "analysis", "ide", "fmt"]
        .iter()
        .flat_map(|layer| uses(&root().join("crates").join(layer).join("src"), &forbidden))
        .collect();
    assert!(found.is_empty(), "I/O below the project layer (move it to crates/project):\n{}", found.join("\n"));
}

/// The language server converts and orchestrates; the files it analyses
/// are read by the project layer (`project::documents`, `disk`, `graph`),
/// the same as `check`'s. (Its own stdio, and re-executing itself with the
/// allocator tuned, are the server's business.)
#[test]
fn the_language_server_reads_no_files_itself() {
    let forbidden =
        ["read_dir", "fs::read", "fs::metadata", "symlink_metadata", "File::open", "canonicalize", "fsread::"];
    let found = uses(&root().join("crates/lsp/src"), &forbidden);
    assert!(found.is_empty(), "file reads in the language server (move them to crates/project):\n{}", found.join("\n"));
}

#[test]
fn a_forbidden_path_is_matched_as_a_whole_name() {
    assert!(used("use std::fs::File;", "fs::"));
    assert!(used("let x = fs::read(p);", "fs::"));
    assert!(!used("use refs::*;", "fs::"));
    assert!(!used("my_fs::x()", "fs::"));
}

/// docs/architecture.md.
fn architecture_md() -> String {
    std::fs::read_to_string(root().join("docs/architecture.md")).unwrap()
}

/// The backquoted words of `text`.
fn quoted(text: &str) -> Vec<&str> {
    text.split('`').skip(1).step_by(2).collect()
}

/// The Rust files of the workspace's own crates and the root package.
fn workspace_sources() -> Vec<PathBuf> {
    let mut files = Vec::new();
    rust_files(&root().join("crates"), &mut files);
    rust_files(&root().join("src"), &mut files);
    rust_files(&root().join("tests/it"), &mut files);
    files
}

/// Every file (`handlers/text_sync.rs`, `module/patch.rs`) and every item
/// (`project::graph::OpenDocs`, `Memo::analysis`, `Backend::state`) the page
/// names exists: a file by the end of its path, an item as a definition
/// (`fn`, `struct`, `enum`, `trait`, `type`, `mod`, `const`, `static`, a
/// field) of its last name.
#[test]
fn the_names_architecture_md_gives_exist() {
    let sources: Vec<(String, String)> = workspace_sources()
        .into_iter()
        .map(|f| (f.display().to_string(), std::fs::read_to_string(&f).unwrap()))
        .collect();
    let mut dirs = Vec::new();
    for f in &sources {
        let mut p = Path::new(&f.0);
        while let Some(parent) = p.parent() {
            dirs.push(format!("{}/", parent.display()));
            p = parent;
        }
    }
    let defined = |name: &str| {
        let defs = ["fn ", "struct ", "enum ", "trait ", "type ", "mod ", "const ", "static ", "macro_rules! "];
        sources.iter().any(|(_, text)| {
            text.match_indices(name).any(|(i, _)| {
                let before = &text[..i];
                let after = &text[i + name.len()..];
                let whole = !after.starts_with(|c: char| c.is_alphanumeric() || c == '_');
                whole
                    && (defs.iter().any(|d| before.ends_with(d)) || after.starts_with(':') && !after.starts_with("::"))
            })
        })
    };
    let mut missing = Vec::new();
    for word in quoted(&architecture_md()) {
        let word = word.trim_end_matches("()");
        let plain = |c: char| c.is_alphanumeric() || "_:/.".contains(c);
        if word.is_empty() || !word.chars().all(plain) || word.starts_with(['.', '/']) {
            continue;
        }
        if word.ends_with(".rs") || word.ends_with('/') {
            let file = word.split("::").next().unwrap();
            let found = root().join(file).exists()
                || sources.iter().any(|(p, _)| p.ends_with(&format!("/{file}")))
                || dirs.iter().any(|d| d.ends_with(&format!("/{file}")));
            if !found {
                missing.push(word.to_string());
            }
        } else if word.contains("::") && !word.contains('/') {
            let last = word.rsplit("::").next().unwrap();
            if !last.is_empty() && !defined(last) {
                missing.push(word.to_string());
            }
        }
    }
    assert!(missing.is_empty(), "docs/architecture.md names what is not in the code: {missing:?}");
}

/// The handler files `handlers/mod.rs` declares and the `LanguageServer`
/// impl (`crates/lsp/src/lib.rs`) calls into.
fn handler_files() -> (BTreeSet<String>, BTreeSet<String>) {
    let dir = root().join("crates/lsp/src/handlers");
    let files: BTreeSet<String> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .filter_map(|e| e.file_name().to_str().map(String::from))
        .filter(|n| n.ends_with(".rs") && n != "mod.rs")
        .collect();
    let lib = std::fs::read_to_string(root().join("crates/lsp/src/lib.rs")).unwrap();
    let impl_ = &lib[lib.find("impl LanguageServer for Backend").expect("the LanguageServer impl")..];
    let called: BTreeSet<String> = impl_
        .match_indices("handlers::")
        .filter_map(|(i, m)| impl_[i + m.len()..].split("::").next().map(|f| format!("{f}.rs")))
        .collect();
    (files, called)
}

/// One file per request (or family of requests) in `handlers/`, every one
/// of them serving one; every method of the `LanguageServer` impl goes
/// through the dispatcher (`request!`, `notification!` or `self.sync`, all
/// under `lsp::dispatch`'s panic guard), as the page says.
#[test]
fn every_request_has_its_handler_and_runs_under_the_dispatcher() {
    let (files, called) = handler_files();
    assert_eq!(files, called, "handlers/*.rs against the handlers the LanguageServer impl calls");
    let lib = std::fs::read_to_string(root().join("crates/lsp/src/lib.rs")).unwrap();
    let impl_ = &lib[lib.find("impl LanguageServer for Backend").expect("the LanguageServer impl")..];
    let methods: Vec<&str> = impl_.split("\n    async fn ").skip(1).collect();
    assert!(methods.len() > 20, "the LanguageServer impl's methods");
    for m in methods {
        let body = &m[..m.find("\n    }").unwrap_or(m.len())];
        let name = &m[..m.find('(').unwrap_or(0)];
        assert!(
            body.contains("request!(") || body.contains("notification!(") || body.contains("self.sync::<"),
            "{name} does not go through the dispatcher"
        );
    }
    let doc = architecture_md();
    assert!(
        doc.contains("every request and notification\n  handler runs under one panic guard (`lsp::dispatch`"),
        "docs/architecture.md says every handler runs under the dispatcher's guard"
    );
}

/// The lock order of docs/architecture.md ("Locks, and their order"): for
/// each numbered item, the guards it names (`NAME.locked()`).
fn documented_lock_ranks() -> Vec<(String, usize)> {
    let doc = architecture_md();
    let start = doc.find("## Locks, and their order").expect("the lock section");
    let section = &doc[start..start + 1 + doc[start + 1..].find("\n## ").unwrap()];
    let mut ranks = Vec::new();
    let mut rank = 0;
    for line in section.lines() {
        let head = line.split_once(". ").map(|(n, _)| n);
        if let Some(n) = head.and_then(|n| n.parse::<usize>().ok()) {
            rank = n;
        }
        if rank > 0 {
            for w in quoted(line) {
                if let Some(name) = w.strip_suffix(".locked()") {
                    ranks.push((name.to_string(), rank));
                }
            }
        }
    }
    ranks
}

/// The (held, taken) pairs of guards in one function: a guard bound by
/// `let NAME = ….IDENT.locked();` is held until its block closes or
/// `drop(NAME)`; another `.locked()` meanwhile is taken under it.
fn nested_locks(text: &str) -> Vec<(String, String, usize)> {
    let mut out = Vec::new();
    let mut held: Vec<(String, String, usize)> = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let code = line.split("//").next().unwrap_or("");
        if code.trim().is_empty() {
            continue;
        }
        let indent = line.len() - line.trim_start().len();
        held.retain(|(var, _, at)| indent >= *at && !code.contains(&format!("drop({var})")));
        let taken: Vec<&str> = code
            .match_indices(".locked()")
            .map(|(i, _)| {
                let before = &code[..i];
                let start = before.rfind(|c: char| !(c.is_alphanumeric() || c == '_')).map_or(0, |s| s + 1);
                &before[start..]
            })
            .collect();
        for t in &taken {
            for (_, h, _) in &held {
                out.push((h.clone(), t.to_string(), n + 1));
            }
        }
        let bound = code.trim_start().strip_prefix("let ").map(|r| r.trim_start_matches("mut "));
        if let (Some(rest), Some(last)) = (bound, taken.last()) {
            if code.trim_end().ends_with(".locked();") {
                let var: String = rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
                held.push((var, last.to_string(), indent));
            }
        }
    }
    out
}

/// Every guard held while another is taken in the same function follows
/// the page's order: the held one's item comes first, and none is taken
/// under a leaf (the last item) or under one of its own item.
#[test]
fn locks_are_taken_in_the_documented_order() {
    let ranks = documented_lock_ranks();
    for name in ["memo", "slot", "found", "state", "published", "queue"] {
        assert!(ranks.iter().any(|(n, _)| n == name), "the page ranks `{name}.locked()`: {ranks:?}");
    }
    let rank = |name: &str| ranks.iter().find(|(n, _)| n == name).map(|(_, r)| *r);
    let mut files = Vec::new();
    rust_files(&root().join("crates"), &mut files);
    let mut wrong = Vec::new();
    for f in files.iter().filter(|f| f.components().any(|c| c.as_os_str() == "src")) {
        let text: String = non_test_lines(f).into_iter().map(|(_, l)| l + "\n").collect();
        for (held, taken, line) in nested_locks(&text) {
            if let (Some(h), Some(t)) = (rank(&held), rank(&taken)) {
                if h >= t {
                    wrong.push(format!("{}:{line}: `{taken}` taken while `{held}` is held", f.display()));
                }
            }
        }
    }
    assert!(wrong.is_empty(), "against docs/architecture.md's lock order:\n{}", wrong.join("\n"));
}

#[test]
fn a_guard_is_held_until_its_block_ends_or_it_is_dropped() {
    let text = "fn f() {\n    let st = self.state.locked();\n    self.published.locked().remove(p);\n    drop(st);\n    self.memo.locked();\n    {\n        let mut slot = slot.locked();\n        x.found.locked();\n    }\n    self.state.locked();\n}\n";
    let pairs: Vec<(String, String, usize)> = nested_locks(text);
    assert_eq!(pairs, [("state".into(), "published".into(), 3), ("slot".into(), "found".into(), 8)]);
}
