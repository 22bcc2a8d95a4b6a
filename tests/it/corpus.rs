//! The real-world corpus (`corpus/` of the shared directory, `../shared/corpus`
//! beside the checkout or `$HCL_TYPES_SHARED/corpus`: third-party files, read
//! where they lie and never committed; absent, each test here says so on one
//! line and passes). Every directory of it is checked: Terraform modules,
//! Pulumi programs, OpenTofu's and Terragrunt's own test modules, Terraform
//! Stacks and Pulumi HCL examples. Working code must check with no error
//! other than the known true positives (`expected-errors.tsv` there) and the
//! ones we triaged as real bugs (`tests/corpus/true-positives.tsv`), every
//! known true positive must be reported, the whole multiset of (path, line,
//! code, severity), warnings and hints included, must equal the checked-in
//! `tests/corpus/diagnostics.tsv` (refresh: `HCL_TYPES_BLESS=1 cargo test
//! --test it -- corpus::`, then review the diff), and the README's figures for it
//! must be the ones found.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use crate::paths;

use hcl_types::cli::check::{run_analysis, CommonArgs, Format};
use hcl_types::syntax::diagnostic::Severity;
use hcl_types::syntax::lines::LineIndex;

/// The corpus, or `None` (after one line naming `what`) when it is absent.
fn corpus(what: &str) -> Option<PathBuf> {
    paths::shared("corpus", what)
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

/// Where the expected multiset of diagnostics is kept (see its header).
const EXPECTED: &str = "tests/corpus/diagnostics.tsv";

/// The header of [`EXPECTED`], written when it is refreshed.
const HEADER: &str = "\
# Every diagnostic hcl-types reports on the real-world corpus, ../shared/corpus beside the
# checkout or $HCL_TYPES_SHARED/corpus (checked with --var-file-table
# ../shared/corpus/tfvars-targets.tsv), one row per diagnostic: path under the corpus, line,
# code, severity. tests/it/corpus.rs fails on any difference, so a change in errors, warnings
# or hints shows in review. After a deliberate change, refresh it with
#   HCL_TYPES_BLESS=1 cargo test --test it -- corpus::
# and read the diff: a new error must be a true positive, triaged in
# tests/corpus/true-positives.tsv (the test fails on an untriaged one even when blessed).
";

/// One reported diagnostic: (path under the corpus, line, code, severity).
type Row = (String, usize, String, String);

/// The rows of [`EXPECTED`] and its file count.
fn expected_rows() -> (usize, Vec<Row>) {
    let text =
        std::fs::read_to_string(EXPECTED).unwrap_or_else(|e| panic!("{EXPECTED}: {e} (bless it, see its header)"));
    let mut files = 0;
    let mut rows = Vec::new();
    for l in text.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
        let cols: Vec<&str> = l.split('\t').collect();
        match cols[..] {
            ["files", n] => files = n.parse().unwrap_or_else(|_| panic!("{EXPECTED}: bad count in {l:?}")),
            [path, line, code, severity] => rows.push((
                path.to_string(),
                line.parse().unwrap_or_else(|_| panic!("{EXPECTED}: bad line in {l:?}")),
                code.to_string(),
                severity.to_string(),
            )),
            _ => panic!("{EXPECTED}: bad row {l:?}"),
        }
    }
    (files, rows)
}

fn write_expected(files: usize, rows: &[Row]) {
    let mut out = format!("{HEADER}files\t{files}\n");
    for (p, l, c, s) in rows {
        out.push_str(&format!("{p}\t{l}\t{c}\t{s}\n"));
    }
    std::fs::write(EXPECTED, out).unwrap_or_else(|e| panic!("{EXPECTED}: {e}"));
}

/// What is in `a` and not in `b`, counting repeats (both sorted).
fn minus<'a>(a: &'a [Row], b: &[Row]) -> Vec<&'a Row> {
    let mut left: BTreeMap<&Row, usize> = BTreeMap::new();
    for r in b {
        *left.entry(r).or_default() += 1;
    }
    a.iter()
        .filter(|r| match left.get_mut(r) {
            Some(n) if *n > 0 => {
                *n -= 1;
                false
            }
            _ => true,
        })
        .collect()
}

/// `check` of the whole corpus, its tfvars files checked against their modules.
fn corpus_args(root: &Path) -> CommonArgs {
    CommonArgs {
        paths: vec![root.to_path_buf()],
        format: Format::Text,
        dialect: None,
        var_files: Vec::new(),
        var_file_table: Some(root.join("tfvars-targets.tsv")),
        provider_schemas: Vec::new(),
        package_schemas: Vec::new(),
        // Hermetic: no `.hcl-types.hcl` above the checkout applies.
        source: hcl_types::cli::check::SourceArgs { no_config: true, ..Default::default() },
    }
}

#[test]
fn corpus_has_only_known_errors() {
    let Some(root) = corpus("the real-world corpus") else { return };
    let expected = rows(&root.join("expected-errors.tsv"));
    let triaged = rows(Path::new("tests/corpus/true-positives.tsv"));
    let args = corpus_args(&root);
    let (reports, failures) = run_analysis(&args, false);
    assert!(failures.is_empty(), "I/O failures: {:?}", failures.iter().map(|f| &f.path).collect::<Vec<_>>());

    // Every diagnostic, and its message for the failure reports; per
    // directory of the corpus, its files, errors, warnings and hints.
    let mut found: Vec<Row> = Vec::new();
    let mut messages: BTreeMap<Row, String> = BTreeMap::new();
    let mut per_folder: BTreeMap<String, [usize; 4]> = BTreeMap::new();
    let mut lints: BTreeMap<&str, usize> = BTreeMap::new();
    for r in &reports {
        let rel = r.path.strip_prefix(&root).unwrap_or(&r.path).to_string_lossy().replace('\\', "/");
        let parts: Vec<&str> = rel.split('/').collect();
        let folder = if parts[0] == "terraform" { format!("terraform/{}", parts[1]) } else { parts[0].to_string() };
        let counts = per_folder.entry(folder).or_default();
        counts[3] += 1;
        let index = LineIndex::new(&r.text);
        // The lints off unless named (analysis.md §5.1) are counted apart.
        for d in r.diagnostics.iter().filter(|d| !d.code.on_by_default()) {
            *lints.entry(d.code.as_str()).or_default() += 1;
        }
        for d in r.diagnostics.iter().filter(|d| d.code.on_by_default()) {
            let (line, _) = index.position(&r.text, d.range.start);
            let slot = match d.severity {
                Severity::Error => 0,
                Severity::Warning => 1,
                Severity::Hint => 2,
            };
            counts[slot] += 1;
            let row = (rel.clone(), line, d.code.as_str().to_string(), d.severity.as_str().to_string());
            messages.entry(row.clone()).or_insert_with(|| d.message.clone());
            found.push(row);
        }
    }
    found.sort();
    for (folder, [e, w, h, files]) in &per_folder {
        eprintln!("{folder}: {e} errors, {w} warnings, {h} hints in {files} files");
    }
    for (code, n) in &lints {
        eprintln!("lint {code} (off unless named): {n}");
    }
    // Every directory of the corpus is checked (a new one included): none
    // gives no file.
    let unchecked: Vec<String> = subdirectories(&root)
        .into_iter()
        .filter(|d| !per_folder.keys().any(|f| f == d || f.starts_with(&format!("{d}/"))))
        .collect();
    assert!(unchecked.is_empty(), "corpus directories with no checked file: {unchecked:?}");
    let show = |r: &Row| format!("{}:{}: {}[{}]: {}", r.0, r.1, r.3, r.2, messages.get(r).map_or("", |m| m.as_str()));
    let key = |r: &Row| (r.0.clone(), r.1, r.2.clone());
    let errors: BTreeSet<(String, usize, String)> = found.iter().filter(|r| r.3 == "error").map(key).collect();

    let unknown: Vec<String> = found
        .iter()
        .filter(|r| r.3 == "error" && !expected.contains_key(&key(r)) && !triaged.contains_key(&key(r)))
        .map(show)
        .collect();
    assert!(unknown.is_empty(), "errors on working code (false positives, or triage them):\n{}", unknown.join("\n"));

    let stale: Vec<String> =
        triaged.keys().filter(|k| !errors.contains(*k)).map(|(p, l, c)| format!("{p}:{l}: {c}")).collect();
    assert!(stale.is_empty(), "triaged errors no longer reported:\n{}", stale.join("\n"));

    // A known true positive counts as found at its line with its code, as an
    // error (a traversal through an optional object included: types.md §5,
    // Terraform), or through a triaged row that stands for it.
    let stands_for: BTreeSet<(String, usize)> =
        triaged.iter().filter_map(|((p, _, _), rest)| rest[0].parse::<usize>().ok().map(|l| (p.clone(), l))).collect();
    let (mut as_error, mut missing) = (0, Vec::new());
    for k in expected.keys() {
        if errors.contains(k) || stands_for.contains(&(k.0.clone(), k.1)) {
            as_error += 1;
        } else {
            missing.push(format!("{}:{}: {}", k.0, k.1, k.2));
        }
    }
    eprintln!("known true positives: {as_error} of {}, all as errors", expected.len());
    assert!(missing.is_empty(), "known true positives not reported:\n{}", missing.join("\n"));

    // The README's sentence on the corpus says what was found.
    let count = |severity: &str| found.iter().filter(|r| r.3 == severity).count();
    let at_known = found.iter().filter(|r| r.3 == "error" && expected.contains_key(&key(r))).count();
    let found_figures = ReadmeFigures {
        errors: count("error"),
        warnings: count("warning"),
        hints: count("hint"),
        files: reports.len(),
        known: at_known,
        triaged: count("error") - at_known,
    };
    assert_eq!(ReadmeFigures::read(), found_figures, "README.md's corpus figures (left) against what was found");

    // Everything else, warnings and hints included, against the checked-in
    // multiset.
    if std::env::var_os("HCL_TYPES_BLESS").is_some() {
        write_expected(reports.len(), &found);
        eprintln!("wrote {EXPECTED}: {} files, {} diagnostics", reports.len(), found.len());
        return;
    }
    let (files, mut want) = expected_rows();
    want.sort();
    let added: Vec<String> = minus(&found, &want).into_iter().map(show).collect();
    let gone: Vec<String> =
        minus(&want, &found).into_iter().map(|r| format!("{}:{}: {}[{}]", r.0, r.1, r.3, r.2)).collect();
    assert!(
        added.is_empty() && gone.is_empty(),
        "the corpus diagnostics differ from {EXPECTED} (if deliberate, refresh it: HCL_TYPES_BLESS=1 cargo test --test it -- corpus::)\nnew:\n{}\nno longer reported:\n{}",
        added.join("\n"),
        gone.join("\n")
    );
    assert_eq!(reports.len(), files, "files checked (refresh {EXPECTED} if the corpus changed)");
}

/// Outputs of files ending in `ext` whose type is `any` (or `output(any)`,
/// `promise(any)`), and all of them.
fn any_outputs(reports: &[hcl_types::cli::check::FileReport], ext: &str) -> (usize, usize) {
    let files = reports.iter().filter(|r| r.path.to_string_lossy().ends_with(ext));
    let outputs = files.flat_map(|r| &r.symbols).filter(|s| s.kind == hcl_types::analysis::SymbolKind::Output);
    let outputs: Vec<_> = outputs.filter(|s| s.address.starts_with("output.")).collect();
    let unknown = outputs.iter().filter(|s| s.ty.strip(hcl_types::types::Strip::Eventuals).is_any());
    (unknown.count(), outputs.len())
}

/// Issue 15: with the real (older) provider schemas of the shared directory
/// (`../shared/schemas`) given as `--provider-schema`, no error beyond the known and triaged ones
/// (what the schemas lack is a warning naming them), and fewer outputs are
/// `any`.
#[test]
fn corpus_with_provider_schemas_has_only_known_errors() {
    let what = "the real-world corpus with provider schemas";
    let Some(root) = corpus(what) else { return };
    let Some(schemas) = paths::shared("schemas", what) else { return };
    let expected = rows(&root.join("expected-errors.tsv"));
    let triaged = rows(Path::new("tests/corpus/true-positives.tsv"));
    let with_schemas = rows(Path::new("tests/corpus/true-positives-with-schemas.tsv"));
    let (packages, schemas) = (schemas.join("pulumi"), schemas.join("terraform"));
    let mut args = corpus_args(&root);
    let (plain, _) = run_analysis(&args, false);
    args.provider_schemas = ["google-4.27.0.json", "aws-2.54.0.json", "docker-3.0.2.json", "local-2.5.2.json"]
        .iter()
        .map(|f| schemas.join(f))
        .collect();
    args.package_schemas =
        ["random-4.11.2.json", "tls-4.10.0.json", "kubernetes20-test.json"].iter().map(|f| packages.join(f)).collect();
    let (reports, failures) = run_analysis(&args, false);
    assert!(failures.is_empty(), "I/O failures: {:?}", failures.iter().map(|f| &f.message).collect::<Vec<_>>());
    let mut unknown = Vec::new();
    let mut errors = BTreeSet::new();
    for r in &reports {
        let rel = r.path.strip_prefix(&root).unwrap_or(&r.path).to_string_lossy().replace('\\', "/");
        let index = LineIndex::new(&r.text);
        for d in r.diagnostics.iter().filter(|d| d.severity == Severity::Error) {
            let (line, _) = index.position(&r.text, d.range.start);
            let key = (rel.clone(), line, d.code.as_str().to_string());
            if !expected.contains_key(&key) && !triaged.contains_key(&key) && !with_schemas.contains_key(&key) {
                unknown.push(format!("{rel}:{line}: {}: {}", d.code.as_str(), d.message));
            }
            errors.insert(key);
        }
    }
    assert!(
        unknown.is_empty(),
        "errors with provider schemas (false positives, or triage them in \
         tests/corpus/true-positives-with-schemas.tsv):\n{}",
        unknown.join("\n")
    );
    let stale: Vec<String> =
        with_schemas.keys().filter(|k| !errors.contains(*k)).map(|(p, l, c)| format!("{p}:{l}: {c}")).collect();
    assert!(stale.is_empty(), "triaged errors no longer reported with provider schemas:\n{}", stale.join("\n"));
    for ext in [".tf", ".pp"] {
        let (before, total) = any_outputs(&plain, ext);
        let (after, total_after) = any_outputs(&reports, ext);
        assert_eq!(total, total_after);
        eprintln!("{ext} outputs typed `any`: {before} of {total} without schemas, {after} with them");
    }
    let (before, after) = (any_outputs(&plain, ".tf").0, any_outputs(&reports, ".tf").0);
    assert!(after < before, "the schemas type no Terraform output: {after} stay `any`");
}

/// The directories directly under `root`, by name.
fn subdirectories(root: &Path) -> Vec<String> {
    let entries = std::fs::read_dir(root).unwrap_or_else(|e| panic!("{}: {e}", root.display()));
    let dirs = entries.filter_map(Result::ok).filter(|e| e.path().is_dir());
    dirs.map(|e| e.file_name().to_string_lossy().into_owned()).collect()
}

/// What README.md says `check` finds on the corpus (it ships no output over
/// files the project does not ship: a sentence with the figures).
#[derive(Debug, PartialEq)]
struct ReadmeFigures {
    errors: usize,
    warnings: usize,
    hints: usize,
    files: usize,
    /// Errors on lines of the corpus's `expected-errors.tsv`.
    known: usize,
    /// Errors triaged in `tests/corpus/true-positives.tsv`.
    triaged: usize,
}

impl ReadmeFigures {
    /// The paragraph that starts at README's corpus command, up to the
    /// explanation of its errors.
    fn read() -> ReadmeFigures {
        let readme = std::fs::read_to_string(paths::root().join("README.md")).expect("README.md");
        // Wherever its lines are broken.
        let readme = readme.split_whitespace().collect::<Vec<_>>().join(" ");
        let marker = "--var-file-table ../shared/corpus/tfvars-targets.tsv` reports ";
        let start = readme.find(marker).unwrap_or_else(|| panic!("README.md: no sentence with `{marker}`"));
        let text = &readme[start + marker.len()..];
        // The number just before the first `suffix`, thousands separators allowed.
        let figure = |suffix: &str| -> usize {
            let at = text.find(suffix).unwrap_or_else(|| panic!("README.md: no `{suffix}` after `{marker}`"));
            let digits: String = text[..at].chars().rev().take_while(|c| c.is_ascii_digit() || *c == ',').collect();
            let digits: String = digits.chars().rev().filter(char::is_ascii_digit).collect();
            digits.parse().unwrap_or_else(|_| panic!("README.md: no number before `{suffix}`"))
        };
        ReadmeFigures {
            errors: figure(" errors, "),
            warnings: figure(" warnings and "),
            hints: figure(" hints in "),
            files: figure(" files"),
            known: figure(" on lines of"),
            triaged: figure(" in `tests/corpus/true-positives.tsv`"),
        }
    }
}
