//! The dialect seam docs/architecture.md ("Adding a dialect") describes,
//! checked: each folder under crates/analysis/src/dialects/ is one
//! registered handler, the handlers' file rules decide what a file is as
//! the name tests they replaced did, and the analysis core names no
//! dialect's files itself.

use std::collections::BTreeSet;
use std::path::Path;

use analysis::dialects::{self, Name, ALL};
use analysis::FileKind;

use crate::architecture::root;

fn dialects_dir() -> std::path::PathBuf {
    root().join("crates/analysis/src/dialects")
}

#[test]
fn every_dialect_folder_is_registered_once() {
    let folders: BTreeSet<String> = std::fs::read_dir(dialects_dir())
        .unwrap()
        .flatten()
        .filter(|e| e.path().is_dir())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    let names: Vec<&str> = ALL.iter().map(|h| h.name()).collect();
    let registered: BTreeSet<String> = names.iter().map(|n| n.to_string()).collect();
    assert_eq!(names.len(), registered.len(), "a dialect registered twice: {names:?}");
    assert_eq!(folders, registered, "folders under src/dialects/ and the handlers in `dialects::ALL` differ");
}

#[test]
fn no_two_rules_read_the_same_name() {
    let mut seen = BTreeSet::new();
    for h in ALL {
        for r in h.files() {
            assert!(seen.insert(format!("{:?}", r.name)), "{:?} is claimed twice ({})", r.name, h.name());
        }
    }
}

/// What a file is, as the name tests of `FileKind::for_path`, `family_of`
/// and `Dialect::for_path` said before the rules replaced them
/// (tests/dialects/files.tsv).
#[test]
fn the_rules_say_what_a_file_is() {
    let table = std::fs::read_to_string(root().join("tests/dialects/files.tsv")).unwrap();
    let mut rows = 0;
    for line in table.lines().filter(|l| !l.starts_with('#') && !l.is_empty()) {
        let cols: Vec<&str> = line.split('\t').collect();
        let [name, kind, family, dialect] = cols[..] else { panic!("four columns: {line:?}") };
        let path = Path::new("/m").join(name);
        let shown = |x: Option<String>| x.unwrap_or_else(|| "-".to_string());
        assert_eq!(shown(FileKind::for_path(&path).map(|k| format!("{k:?}"))), kind, "{name}");
        assert_eq!(shown(analysis::family_of(&path).map(|f| format!("{f:?}"))), family, "{name}");
        assert_eq!(format!("{:?}", dialects::dialect_of(&path)), dialect, "{name}");
        rows += 1;
    }
    assert!(rows > 20, "{rows} rows");
    assert!(analysis::is_nomad(Path::new("j.nomad.hcl")) && !analysis::is_nomad(Path::new("v.nv.hcl")));
    assert!(analysis::is_terragrunt_unit(Path::new("u/terragrunt.hcl")));
    assert!(!analysis::is_terragrunt_unit(Path::new("u/terragrunt.stack.hcl")));
}

/// The string literals of `text`'s code (not its comments, not its
/// `#[cfg(test)]` module) that end a file name as `rule` does.
fn names(text: &str, rule: &Name) -> Vec<String> {
    let code = text.split("#[cfg(test)]").next().unwrap_or("");
    let mut found = Vec::new();
    for line in code.lines().filter(|l| !l.trim_start().starts_with("//")) {
        for (i, lit) in line.split('"').enumerate() {
            let hit = match rule {
                Name::Suffix(s) => lit.ends_with(s) && !lit.contains(' '),
                Name::Whole(w) => lit == *w,
            };
            if i % 2 == 1 && hit {
                found.push(line.trim().to_string());
            }
        }
    }
    found
}

/// Files that name dialects' files by rules of their own, not which
/// files a dialect reads: `terraform fmt`'s list of what it formats (the
/// formatter, below the analysis crate, and the command), the language
/// server's file watchers and the language ids a client gives. The list
/// only shrinks.
const OWN_LISTS: [&str; 4] =
    ["crates/fmt/src/lib.rs", "src/cli/fmt.rs", "crates/lsp/src/handlers/lifecycle.rs", "crates/lsp/src/from_proto.rs"];

/// The Rust files under `dir`, src/dialects/ left out.
fn code_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let p = e.path();
        if p == dialects_dir() || p.file_name().is_some_and(|n| n == "tests" || n == "target") {
            continue;
        } else if p.is_dir() {
            code_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") && !p.ends_with("tests.rs") {
            out.push(p);
        }
    }
}

/// A dialect's file names are its folder's to say: the code outside
/// src/dialects/ asks the rules. (Terraform's, OpenTofu's and plain HCL's
/// code is the analysis core itself, src/module/ and src/infer/, and the
/// formatter's and the project layer's defaults.)
#[test]
fn no_code_outside_a_dialects_folder_names_its_files() {
    let mut files = Vec::new();
    code_files(&root().join("crates"), &mut files);
    code_files(&root().join("src"), &mut files);
    let mut named = Vec::new();
    for h in ALL.iter().filter(|h| !matches!(h.name(), "terraform" | "opentofu" | "hcl")) {
        for r in h.files() {
            for f in &files {
                let rel = f.strip_prefix(root()).unwrap().display().to_string();
                if OWN_LISTS.contains(&rel.as_str()) {
                    continue;
                }
                for line in names(&std::fs::read_to_string(f).unwrap(), &r.name) {
                    named.push(format!("{rel} names {:?} ({}): {line}", r.name, h.name()));
                }
            }
        }
    }
    assert!(named.is_empty(), "ask `analysis::dialects` instead:\n{}", named.join("\n"));
}

/// A dialect's code is found by its path: `dialects/terragrunt/merge.rs`
/// is `analysis::dialects::terragrunt::merge`, not a module of another
/// pass that mounts the file with `#[path]` (how they were mounted until
/// the seam of 46.3 was made real).
#[test]
fn no_code_mounts_a_dialects_file_from_elsewhere() {
    let mut files = Vec::new();
    code_files(&root().join("crates"), &mut files);
    let mut mounted = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        for line in text.lines().filter(|l| l.trim_start().starts_with("#[path") && l.contains("dialects/")) {
            mounted.push(format!("{}: {}", f.strip_prefix(root()).unwrap().display(), line.trim()));
        }
    }
    assert!(mounted.is_empty(), "declare it in its folder's mod.rs instead:\n{}", mounted.join("\n"));
}
