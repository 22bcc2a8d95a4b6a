//! Every row of every table in `tests/data/conformance/`, read from the TSV files
//! themselves and run through the calculator exactly as `hcl-types type …`.

mod paths;

use hcl_types::cli::calc::{calc, TypeCommand};
use hcl_types::syntax::Dialect;

/// The rows of a table (header checked and dropped), cells verbatim.
fn table(name: &str, header: &[&str]) -> Vec<(usize, Vec<String>)> {
    let path = paths::data("conformance").join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let mut lines = text.lines().enumerate();
    let (_, first) = lines.next().expect("empty table");
    assert_eq!(first.split('\t').collect::<Vec<_>>(), header, "{name}: unexpected header");
    let rows: Vec<_> = lines
        .filter(|(_, l)| !l.is_empty())
        .map(|(i, l)| {
            let cells: Vec<String> = l.split('\t').map(String::from).collect();
            assert_eq!(cells.len(), header.len(), "{name}:{}: wrong number of cells", i + 1);
            (i + 1, cells)
        })
        .collect();
    assert!(rows.len() > 10, "{name}: suspiciously few rows");
    rows
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
            failures.push(format!("line {line}: normalize {:?}: expected {:?}, got {got:?}", cells[0], cells[1]));
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
            failures.push(format!(
                "line {line}: {} {:?}: expected {:?}, got {got:?} {result:?}",
                cells[0], cells[1], cells[2]
            ));
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
                "line {line}: convert {:?} {:?}: expected {:?}, got {result:?}",
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
                "line {line}: unify {:?} {:?}: expected {:?} / {want_raw:?}, got {safe:?} / {raw:?}",
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
                "line {line}: traverse {:?} {:?}: expected {:?} [{}], got {got:?} [{severities}] {result:?}",
                cells[0], cells[1], cells[2], cells[3]
            ));
        }
    }
    report("traverse.tsv", failures, rows.len());
}
