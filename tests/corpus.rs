//! The real-world corpus (`tests/data/corpus/`): working Terraform modules and
//! Pulumi programs must check with no error other than the known true
//! positives (`tests/data/corpus/expected-errors.tsv`) and the ones we triaged
//! as real bugs (`tests/corpus/true-positives.tsv`).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

mod paths;

use hcl_types::cli::check::{run_analysis, CommonArgs, Format, LineIndex};
use hcl_types::diagnostic::Severity;

fn corpus() -> PathBuf {
    paths::data("corpus")
}

/// (path under the corpus, line, code) → the rest of the row.
type Rows = BTreeMap<(String, usize, String), Vec<String>>;

fn rows(path: &Path) -> Rows {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let cols: Vec<&str> = l.split('\t').collect();
            assert!(cols.len() >= 4, "{}: short row {l:?}", path.display());
            let line = cols[1].parse().unwrap_or_else(|_| panic!("{}: bad line in {l:?}", path.display()));
            ((cols[0].to_string(), line, cols[2].to_string()), cols[3..].iter().map(|c| c.to_string()).collect())
        })
        .collect()
}

struct Found {
    severity: Severity,
    message: String,
}

#[test]
fn corpus_has_only_known_errors() {
    let root = corpus();
    let expected = rows(&root.join("expected-errors.tsv"));
    let triaged = rows(Path::new("tests/corpus/true-positives.tsv"));
    let args = CommonArgs {
        paths: vec![root.clone()],
        format: Format::Text,
        dialect: None,
        var_files: Vec::new(),
        var_file_table: Some(root.join("tfvars-targets.tsv")),
    };
    let (reports, failures) = run_analysis(&args, false);
    assert!(failures.is_empty(), "I/O failures: {:?}", failures.iter().map(|f| &f.path).collect::<Vec<_>>());
    assert!(reports.len() > 2500, "expected the whole corpus, found {} files", reports.len());

    let mut found: BTreeMap<(String, usize, String), Found> = BTreeMap::new();
    let mut per_folder: BTreeMap<String, [usize; 3]> = BTreeMap::new();
    for r in &reports {
        let rel = r.path.strip_prefix(&root).unwrap_or(&r.path).to_string_lossy().replace('\\', "/");
        let parts: Vec<&str> = rel.split('/').collect();
        let folder = if parts[0] == "terraform" { parts[1].to_string() } else { parts[0].to_string() };
        let counts = per_folder.entry(folder).or_default();
        let index = LineIndex::new(&r.text);
        for d in &r.diagnostics {
            let (line, _) = index.position(&r.text, d.range.start);
            let slot = match d.severity {
                Severity::Error => 0,
                Severity::Warning => 1,
                Severity::Hint => 2,
            };
            counts[slot] += 1;
            found.insert(
                (rel.clone(), line, d.code.as_str().to_string()),
                Found { severity: d.severity, message: d.message.clone() },
            );
        }
    }
    for (folder, [e, w, h]) in &per_folder {
        eprintln!("{folder}: {e} errors, {w} warnings, {h} hints");
    }

    let unknown: Vec<String> = found
        .iter()
        .filter(|(k, f)| f.severity == Severity::Error && !expected.contains_key(*k) && !triaged.contains_key(*k))
        .map(|((p, l, c), f)| format!("{p}:{l}: {c}: {}", f.message))
        .collect();
    assert!(unknown.is_empty(), "errors on working code (false positives, or triage them):\n{}", unknown.join("\n"));

    let stale: Vec<String> = triaged
        .keys()
        .filter(|k| !matches!(found.get(*k), Some(f) if f.severity == Severity::Error))
        .map(|(p, l, c)| format!("{p}:{l}: {c}"))
        .collect();
    assert!(stale.is_empty(), "triaged errors no longer reported:\n{}", stale.join("\n"));

    // A known true positive counts as found at its line, as an error or (where
    // types.md §5 makes a traversal through an optional value always null) a
    // warning, or through a triaged row that stands for it.
    let stands_for: BTreeSet<(String, usize)> =
        triaged.iter().filter_map(|((p, _, _), rest)| rest[0].parse::<usize>().ok().map(|l| (p.clone(), l))).collect();
    let (mut as_error, mut as_warning, mut missing) = (0, 0, Vec::new());
    for k in expected.keys() {
        match found.get(k).map(|f| f.severity) {
            Some(Severity::Error) => as_error += 1,
            Some(Severity::Warning) => as_warning += 1,
            _ if stands_for.contains(&(k.0.clone(), k.1)) => as_error += 1,
            _ => missing.push(format!("{}:{}: {}", k.0, k.1, k.2)),
        }
    }
    eprintln!(
        "known true positives: {} of {}: {as_error} as errors, {as_warning} as warnings",
        as_error + as_warning,
        expected.len()
    );
    assert!(missing.is_empty(), "known true positives not reported:\n{}", missing.join("\n"));
}
