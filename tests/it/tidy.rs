//! Tidiness the compiler does not check (rust-analyzer's `tidy.rs`, issue
//! 46.5): files of at most [`FILE_LINES`] lines, functions of at most
//! [`FN_LINES`], no `[dependencies]` entry a crate's sources never name,
//! no glob import (`use …::*`) outside tests and preludes, and the root
//! tests in the one binary of `tests/it/`, where none changes the process's
//! environment or current directory (they all share one process).
//!
//! Today's exceptions are listed, one a line, in `tests/tidy-allow.txt`.
//! The list only shrinks: an entry that no longer needs to be there fails
//! the test too, so it stays true. (A moved file moves its entries.)

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use crate::architecture::{dependencies, non_test_lines, root, rust_files};

/// Lines a source file may have.
const FILE_LINES: usize = 800;
/// Lines a function may span, signature to closing brace.
const FN_LINES: usize = 150;
const ALLOWLIST: &str = "tests/tidy-allow.txt";

/// Where the project's own Rust lives (the vendored parser, the fuzz
/// targets and the spikes are not ours to tidy here).
fn our_rust_files() -> Vec<PathBuf> {
    let mut files = Vec::new();
    for dir in ["src", "crates", "tests", "benches"] {
        rust_files(&root().join(dir), &mut files);
    }
    files.sort();
    files
}

fn relative(path: &Path) -> String {
    path.strip_prefix(root()).unwrap_or(path).display().to_string()
}

/// `file-size PATH` for each file over [`FILE_LINES`].
fn long_files(files: &[PathBuf], out: &mut BTreeSet<String>) {
    for f in files {
        let n = std::fs::read_to_string(f).unwrap().lines().count();
        if n > FILE_LINES {
            out.insert(format!("file-size {}", relative(f)));
        }
    }
}

/// The name of the function a (rustfmt-formatted) line starts, if any.
fn fn_name(line: &str) -> Option<&str> {
    let mut rest = line.trim_start();
    for prefix in ["pub(crate) ", "pub(super) ", "pub ", "const ", "async ", "unsafe ", "extern \"C\" "] {
        rest = rest.strip_prefix(prefix).unwrap_or(rest);
    }
    let rest = rest.strip_prefix("fn ")?;
    let end = rest.find(|c: char| !(c.is_alphanumeric() || c == '_'))?;
    Some(&rest[..end])
}

/// The functions of `text` and their lengths in lines: from the line that
/// starts one to the first line after it that is its indentation and `}`.
/// Declarations without a body (`fn f();`) and one-line ones are skipped.
fn functions(text: &str) -> Vec<(String, usize)> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let Some(name) = fn_name(line) else { continue };
        let indent = &line[..line.len() - line.trim_start().len()];
        let close = format!("{indent}}}");
        // The signature ends at the first line ending in `{`; one ending in
        // `;` or `}` first is a declaration or a one-line function.
        let ends = |j: usize| lines[j].ends_with(['{', ';', '}']);
        let Some(sig_end) = (i..lines.len()).find(|&j| ends(j)) else { continue };
        if !lines[sig_end].ends_with('{') {
            continue;
        }
        if let Some(end) = (sig_end + 1..lines.len()).find(|&j| lines[j] == close) {
            out.push((name.to_string(), end - i + 1));
        }
    }
    out
}

/// `fn-size PATH::NAME` for each function over [`FN_LINES`].
fn long_functions(files: &[PathBuf], out: &mut BTreeSet<String>) {
    for f in files {
        for (name, n) in functions(&std::fs::read_to_string(f).unwrap()) {
            if n > FN_LINES {
                out.insert(format!("fn-size {}::{name}", relative(f)));
            }
        }
    }
}

/// `glob PATH` for each file outside the tests that imports with `*`
/// (a `prelude::*` aside); test modules (`#[cfg(test)]` on) are left out.
fn glob_imports(files: &[PathBuf], out: &mut BTreeSet<String>) {
    for f in files {
        let rel = relative(f);
        let test_file = rel.starts_with("tests/") || rel.starts_with("benches/") || rel.contains("/tests/");
        if test_file || rel.ends_with("/tests.rs") {
            continue;
        }
        let glob = non_test_lines(f).iter().any(|(_, line)| is_glob_import(line));
        if glob {
            out.insert(format!("glob {rel}"));
        }
    }
}

/// Whether `line` is a `use` with a `*` other than `prelude::*`.
fn is_glob_import(line: &str) -> bool {
    let code = line.split("//").next().unwrap_or("").trim();
    let is_use = ["use ", "pub use ", "pub(crate) use ", "pub(super) use "].iter().any(|p| code.starts_with(p));
    is_use && (code.contains("::*") || code.contains("{*") || code.contains(", *")) && !code.contains("prelude::*")
}

/// `dep CRATE NAME` for each `[dependencies]` entry of the root package
/// and of each crate under `crates/` that its sources never name.
fn unused_dependencies(out: &mut BTreeSet<String>) {
    let mut crates: Vec<PathBuf> =
        std::fs::read_dir(root().join("crates")).unwrap().flatten().map(|e| e.path()).collect();
    crates.push(root());
    crates.sort();
    for dir in crates {
        let mut files = Vec::new();
        rust_files(&dir.join("src"), &mut files);
        let text: String = files.iter().map(|f| std::fs::read_to_string(f).unwrap()).collect();
        for dep in dependencies(&dir.join("Cargo.toml")) {
            let ident = dep.replace('-', "_");
            let named =
                [format!("{ident}::"), format!("use {ident}"), format!("extern crate {ident}")].iter().any(|x| {
                    text.match_indices(x.as_str())
                        .any(|(i, _)| !text[..i].ends_with(|c: char| c.is_alphanumeric() || c == '_'))
                });
            if !named {
                let krate = relative(&dir);
                out.insert(format!("dep {} {dep}", if krate.is_empty() { "." } else { &krate }));
            }
        }
    }
}

/// `process-global PATH` for a root test that changes what every test of
/// the one binary shares: the environment or the current directory (a
/// child process is given its own instead, as `schema.rs` does).
fn process_globals(files: &[PathBuf], out: &mut BTreeSet<String>) {
    // (This file names them, to look for them.)
    for f in files.iter().filter(|f| relative(f).starts_with("tests/it/") && !f.ends_with("tidy.rs")) {
        let text = std::fs::read_to_string(f).unwrap();
        let code = text.lines().map(|l| l.split("//").next().unwrap_or(""));
        if code.clone().any(|l| ["env::set_var(", "env::remove_var(", "set_current_dir("].iter().any(|x| l.contains(x)))
        {
            out.insert(format!("process-global {}", relative(f)));
        }
    }
}

/// `root-test PATH` for a test file beside `tests/it` (a binary of its own).
fn stray_root_tests(out: &mut BTreeSet<String>) {
    for e in std::fs::read_dir(root().join("tests")).unwrap().flatten() {
        if e.path().extension().is_some_and(|x| x == "rs") {
            out.insert(format!("root-test {}", relative(&e.path())));
        }
    }
}

#[test]
fn the_tree_is_tidy_but_for_the_listed_exceptions() {
    let files = our_rust_files();
    let mut found = BTreeSet::new();
    long_files(&files, &mut found);
    long_functions(&files, &mut found);
    glob_imports(&files, &mut found);
    unused_dependencies(&mut found);
    stray_root_tests(&mut found);
    process_globals(&files, &mut found);
    let listed: BTreeSet<String> = std::fs::read_to_string(root().join(ALLOWLIST))
        .unwrap()
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(String::from)
        .collect();
    let new: Vec<&String> = found.difference(&listed).collect();
    let gone: Vec<&String> = listed.difference(&found).collect();
    let mut said = String::new();
    if !new.is_empty() {
        said += &format!(
            "not tidy (files over {FILE_LINES} lines, functions over {FN_LINES}, glob imports, unused \
             dependencies, test files beside tests/it, root tests that set the environment or cwd): fix them\n  {}\n",
            new.iter().map(|s| s.as_str()).collect::<Vec<_>>().join("\n  ")
        );
    }
    if !gone.is_empty() {
        said += &format!(
            "no longer exceptions: remove them from {ALLOWLIST}\n  {}\n",
            gone.iter().map(|s| s.as_str()).collect::<Vec<_>>().join("\n  ")
        );
    }
    assert!(said.is_empty(), "{said}");
}

#[test]
fn a_function_spans_its_signature_to_its_closing_brace() {
    let text = "fn one() {}\n\npub(crate) fn two(\n    a: u8,\n) -> u8 {\n    a\n}\n\ntrait T {\n    fn decl(&self);\n    fn body(&self) {\n        x();\n    }\n}\n";
    assert_eq!(functions(text), [("two".to_string(), 5), ("body".to_string(), 3)]);
}
