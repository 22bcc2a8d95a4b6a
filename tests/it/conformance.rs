//! Every row of every conformance table, read from the TSV files themselves
//! and run through the calculator exactly as `hcl-types type …`. The tables
//! are the shared directory's (`conformance/`, derived from the spec pages by
//! whoever steers the project; read where they lie, never copied), followed
//! by the rows this project added with its own spec changes
//! (`tests/conformance/`, same names and headers).

use crate::paths;

use hcl_types::cli::calc::{calc, TypeCommand};
use hcl_types::syntax::Dialect;

/// The rows of a table, the shared file's then ours (headers checked and
/// dropped), cells verbatim, each with `FILE:LINE` for the failure message.
/// Without the shared directory, only our rows run, after a line saying so.
fn table(name: &str, header: &[&str]) -> Vec<(String, Vec<String>)> {
    let mut rows = Vec::new();
    if let Some(shared) = paths::shared(&format!("conformance/{name}"), &format!("the shared rows of {name}")) {
        read(&shared, header, &mut rows);
        assert!(rows.len() > 10, "{name}: suspiciously few shared rows");
    }
    read(&paths::root().join("tests/conformance").join(name), header, &mut rows);
    rows
}

/// Appends the rows of the table at `path`.
fn read(path: &std::path::Path, header: &[&str], rows: &mut Vec<(String, Vec<String>)>) {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let mut lines = text.lines().enumerate();
    let (_, first) = lines.next().expect("empty table");
    let at = |i: usize| format!("{}:{}", path.display(), i + 1);
    assert_eq!(first.split('\t').collect::<Vec<_>>(), header, "{}: unexpected header", at(0));
    for (i, l) in lines.filter(|(_, l)| !l.is_empty()) {
        let cells: Vec<String> = l.split('\t').map(String::from).collect();
        assert_eq!(cells.len(), header.len(), "{}: wrong number of cells", at(i));
        rows.push((at(i), cells));
    }
}

fn first_line(r: &Result<Vec<String>, Vec<String>>) -> String {
    match r {
        Ok(lines) => lines.first().cloned().unwrap_or_default(),
        Err(_) => "error".into(),
    }
}

fn report(name: &str, failures: Vec<String>, total: usize) {
    assert!(failures.is_empty(), "{name}: {} of {total} rows fail:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn normalize_table() {
    let rows = table("normalize.tsv", &["input", "expected"]);
    let mut failures = Vec::new();
    for (line, cells) in &rows {
        let got = first_line(&calc(TypeCommand::Normalize { dialect: Dialect::Hcl, ty: cells[0].clone() }));
        if got != cells[1] {
            failures.push(format!("{line}: normalize {:?}: expected {:?}, got {got:?}", cells[0], cells[1]));
        }
    }
    report("normalize.tsv", failures, rows.len());
}

#[test]
fn type_expressions_table() {
    let rows = table("type-expressions.tsv", &["dialect", "input", "expected"]);
    let mut failures = Vec::new();
    for (line, cells) in &rows {
        let dialect: Dialect = cells[0].parse().expect("dialect");
        let result = calc(TypeCommand::Normalize { dialect, ty: cells[1].clone() });
        let got = first_line(&result);
        if got != cells[2] {
            failures
                .push(format!("{line}: {} {:?}: expected {:?}, got {got:?} {result:?}", cells[0], cells[1], cells[2]));
        }
    }
    report("type-expressions.tsv", failures, rows.len());
}

#[test]
fn convert_table() {
    let rows = table("convert.tsv", &["from", "to", "expected"]);
    let mut failures = Vec::new();
    for (line, cells) in &rows {
        let result = calc(TypeCommand::Convert { from: cells[0].clone(), to: cells[1].clone() });
        let got = first_line(&result);
        let explained = matches!(&result, Ok(l) if l.len() == if got == "safe" { 1 } else { 2 });
        if got != cells[2] || !explained {
            failures.push(format!(
                "{line}: convert {:?} {:?}: expected {:?}, got {result:?}",
                cells[0], cells[1], cells[2]
            ));
        }
    }
    report("convert.tsv", failures, rows.len());
}

#[test]
fn unify_table() {
    let rows = table("unify.tsv", &["a", "b", "safe", "raw", "kind"]);
    let mut failures = Vec::new();
    for (line, cells) in &rows {
        let types = vec![cells[0].clone(), cells[1].clone()];
        let safe = first_line(&calc(TypeCommand::Unify { raw: false, types: types.clone() }));
        let raw = first_line(&calc(TypeCommand::Unify { raw: true, types }));
        let want_raw = format!("{}\t{}", cells[3], cells[4]);
        if safe != cells[2] || raw != want_raw {
            failures.push(format!(
                "{line}: unify {:?} {:?}: expected {:?} / {want_raw:?}, got {safe:?} / {raw:?}",
                cells[0], cells[1], cells[2]
            ));
        }
    }
    report("unify.tsv", failures, rows.len());
}

#[test]
fn traverse_table() {
    let rows = table("traverse.tsv", &["type", "steps", "expected", "diagnostics"]);
    let mut failures = Vec::new();
    for (line, cells) in &rows {
        let steps: Vec<String> = cells[1].split(' ').filter(|s| !s.is_empty()).map(String::from).collect();
        let result = calc(TypeCommand::Traverse { ty: cells[0].clone(), steps });
        let (got, severities) = match &result {
            Ok(lines) => {
                let mut sev: Vec<&str> = Vec::new();
                for l in &lines[1..] {
                    let s = l.split(':').next().unwrap_or("");
                    if !sev.contains(&s) {
                        sev.push(s);
                    }
                }
                (lines[0].clone(), if sev.is_empty() { "-".to_string() } else { sev.join(",") })
            }
            Err(e) => (format!("error {e:?}"), String::new()),
        };
        if got != cells[2] || severities != cells[3] {
            failures.push(format!(
                "{line}: traverse {:?} {:?}: expected {:?} [{}], got {got:?} [{severities}] {result:?}",
                cells[0], cells[1], cells[2], cells[3]
            ));
        }
    }
    report("traverse.tsv", failures, rows.len());
}
