//! The layering docs/architecture.md states, checked: each crate depends
//! only on the layers below it, and nothing below the project layer
//! touches the disk, the environment or a process.

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
