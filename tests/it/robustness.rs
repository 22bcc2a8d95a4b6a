//! Half-typed and hostile text through the whole analysis and every editor
//! feature: nothing may panic, whatever the input.

use std::path::PathBuf;

use hcl_types::analysis::{analyze, Document, SourceFile};
use hcl_types::ide;
use proptest::prelude::*;

const PIECES: &[&str] = &[
    "variable \"x\" {\n",
    "locals {\n",
    "output \"o\" {\n  value = ",
    "config c \"list(int)\" {\n",
    "resource \"r\" \"t\" {\n",
    "}\n",
    "{",
    "}",
    "(",
    ")",
    "[",
    "]",
    "\"",
    "${",
    "%{ if true }",
    "%{ endif }",
    "<<EOF\n",
    "EOF\n",
    "<<-X\n",
    "X\n",
    "type = ",
    "default = ",
    "list(",
    "object({",
    "optional(",
    "map(",
    "string",
    "number",
    "int",
    "any",
    "union(",
    "var.x",
    "local.",
    ".a",
    "[0]",
    "[*]",
    ".*",
    " ? ",
    " : ",
    " + ",
    " / ",
    "!",
    "-",
    "for k, v in ",
    " => ",
    "...",
    "1",
    "1.5",
    "99999999999999999999999999999999999999999",
    "1e999",
    "true",
    "null",
    "\"s\"",
    "😀",
    "é",
    "\r\n",
    "\r",
    "\n",
    " ",
    ",",
    "=",
    "#c\n",
    "// c\n",
    "/* c */",
    "count = ",
    "for_each = ",
    "each.value",
    "count.index",
    "dynamic \"d\" {\n",
    "content {\n",
    "try(",
    "can(",
    "upper(",
    "lookup(",
    "provider::p::f(",
    "\u{feff}",
    "\0",
];

fn text() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(PIECES), 0..60).prop_map(|v| v.concat())
}

fn exercise(name: &str, text: &str, probes: &[usize]) {
    let Some(file) = SourceFile::new(PathBuf::from("/tmp/robust").join(name), text) else { return };
    let docs = vec![Document::parse(file)];
    let analysis = analyze(&docs);
    let _ = ide::semantic_tokens(&docs, &analysis, 0);
    let _ = ide::inlay_hints(&analysis, 0);
    for d in &analysis.diagnostics[0] {
        assert!(d.range.start <= d.range.end && d.range.end <= text.len(), "{d:?} out of {}", text.len());
        assert!(text.is_char_boundary(d.range.start) && text.is_char_boundary(d.range.end), "{d:?}");
        let _ = ide::quick_fix(d, text);
    }
    for &p in probes {
        let mut at = p % (text.len() + 1);
        while !text.is_char_boundary(at) {
            at -= 1;
        }
        let _ = ide::hover(&docs, 0, at);
        let _ = ide::completion(&docs, 0, at, &analysis);
        let _ = ide::signature_help(&docs[0], at);
        let _ = ide::definition(&docs, 0, at);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn terraform_never_panics(t in text(), probes in prop::collection::vec(any::<usize>(), 3)) {
        exercise("main.tf", &t, &probes);
    }

    #[test]
    fn pcl_never_panics(t in text(), probes in prop::collection::vec(any::<usize>(), 3)) {
        exercise("main.pp", &t, &probes);
    }

    #[test]
    fn hcl_never_panics(t in text(), probes in prop::collection::vec(any::<usize>(), 3)) {
        exercise("main.hcl", &t, &probes);
    }

    #[test]
    fn arbitrary_unicode_never_panics(t in "\\PC{0,200}", probes in prop::collection::vec(any::<usize>(), 2)) {
        exercise("main.tf", &t, &probes);
    }
}

#[test]
fn deep_nesting_and_long_lines_finish() {
    // On a thread with the stack every thread that analyses gets
    // (`project::threads`, `lsp::runtime`).
    std::thread::Builder::new()
        .stack_size(hcl_types::syntax::deep::THREAD_STACK)
        .spawn(deep_nesting_and_long_lines)
        .unwrap()
        .join()
        .unwrap();
}

fn deep_nesting_and_long_lines() {
    // MAX_NESTING - 1 levels are accepted (`locals` takes one), deeper is
    // one syntax error.
    let limit = hcl_types::syntax::deep::MAX_NESTING;
    for (n, errors) in [(65, 0), (limit - 1, 0), (limit, 1), (100_000, 1)] {
        // (`_a`: kept deliberately, so not an unused local, analysis.md §5.1.)
        let deep = format!("locals {{\n  _a = {}1{}\n}}\n", "[".repeat(n), "]".repeat(n));
        exercise("main.tf", &deep, &[20, deep.len() / 2]);
        let file = SourceFile::new("/tmp/robust/n.tf", deep.as_str()).unwrap();
        let a = analyze(&[Document::parse(file)]);
        // (What a severity would not turn off, analysis.md §5.1.)
        let shown: Vec<_> = a.diagnostics[0].iter().filter(|d| d.code.on_by_default()).collect();
        assert_eq!(shown.len(), errors, "{n} levels: {shown:?}");
        assert!(shown.iter().all(|d| d.code.as_str() == "syntax" && d.message.contains("nested levels")));
    }
    let long = format!("locals {{\n  a = \"{}\"\n}}\n", "x".repeat(5_000_000));
    exercise("main.tf", &long, &[20]);
    let digits = format!("locals {{\n  a = {}\n}}\n", "9".repeat(100_000));
    let file = SourceFile::new("/tmp/robust/d.tf", digits.as_str()).unwrap();
    let docs = vec![Document::parse(file)];
    let a = analyze(&docs);
    assert!(a.diagnostics[0].iter().any(|d| d.code.as_str() == "int-precision"), "{:?}", a.diagnostics[0]);
}

#[test]
fn a_cycle_of_ten_thousand_locals_is_reported() {
    let mut text = String::from("locals {\n");
    for i in 0..10_000 {
        text.push_str(&format!("  l{i} = local.l{}\n", (i + 1) % 10_000));
    }
    text.push_str("}\n");
    let file = SourceFile::new("/tmp/robust/c.tf", text.as_str()).unwrap();
    let docs = vec![Document::parse(file)];
    let a = analyze(&docs);
    assert_eq!(a.diagnostics[0].iter().filter(|d| d.code.as_str() == "cycle").count(), 10_000);
}
