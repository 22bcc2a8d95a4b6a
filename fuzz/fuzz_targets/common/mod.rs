//! Shared by the analysis targets: analyse a module and run every editor
//! feature over it, checking that every range the analysis hands out lies
//! inside its text, on character boundaries.

#![allow(dead_code)]

use std::ops::Range;
use std::path::PathBuf;

use hcl_types::analysis::{analyze, Document, SourceFile};
use hcl_types::ide;

/// File names by family; a module is files of one family in one directory.
pub const TERRAFORM: [&str; 5] = ["main.tf", "variables.tf", "terraform.tfvars", "a.tftest.hcl", "b.pkr.hcl"];
pub const PCL: [&str; 2] = ["main.pp", "other.pp"];
pub const HCL: [&str; 2] = ["main.hcl", "other.hcl"];

pub fn docs(files: &[(&str, &str)]) -> Vec<Document> {
    files
        .iter()
        .filter_map(|(name, text)| SourceFile::new(PathBuf::from("/fuzz/module").join(name), *text))
        .map(Document::parse)
        .collect()
}

fn check_range(what: &str, text: &str, r: &Range<usize>) {
    assert!(r.start <= r.end && r.end <= text.len(), "{what}: {r:?} out of a text of {} bytes", text.len());
    assert!(text.is_char_boundary(r.start) && text.is_char_boundary(r.end), "{what}: {r:?} splits a character");
}

fn text_of<'a>(docs: &'a [Document], path: &std::path::Path) -> &'a str {
    &docs.iter().find(|d| d.file.path == path).unwrap_or_else(|| panic!("no document {}", path.display())).file.text
}

/// A byte offset from a fuzz-chosen number, moved back to a boundary.
pub fn boundary(text: &str, n: usize) -> usize {
    let mut at = n % (text.len() + 1);
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// Analyses `docs` and runs every feature; `probes` are (document, offset)
/// pairs for the position-based ones. With `twice`, checks that a second
/// analysis gives the same diagnostics.
pub fn exercise(docs: &[Document], probes: &[(usize, usize)], twice: bool) {
    if docs.is_empty() {
        return;
    }
    let analysis = analyze(docs);
    assert_eq!(analysis.diagnostics.len(), docs.len());
    if twice {
        let again = analyze(docs);
        assert_eq!(analysis.diagnostics, again.diagnostics, "analysis is not deterministic");
    }
    for (i, doc) in docs.iter().enumerate() {
        let text = &*doc.file.text;
        for d in &analysis.diagnostics[i] {
            check_range("diagnostic", text, &d.range);
            for r in &d.related {
                let t = match &r.path {
                    Some(p) => text_of(docs, p),
                    None => text,
                };
                check_range("related information", t, &r.range);
            }
            if let Some(fix) = ide::quick_fix(d, text) {
                check_range("quick fix", text, &fix.range);
                let mut fixed = text.to_string();
                fixed.replace_range(fix.range.clone(), &fix.replacement);
            }
        }
        for t in ide::semantic_tokens(docs, &analysis, i) {
            check_range("semantic token", text, &t.range);
        }
        for (at, _) in ide::inlay_hints(&analysis, i) {
            check_range("inlay hint", text, &(at..at));
        }
    }
    for &(i, n) in probes {
        let i = i % docs.len();
        let text = &*docs[i].file.text;
        let at = boundary(text, n);
        if let Some(h) = ide::hover(docs, i, at) {
            check_range("hover", text, &h.range);
            let _ = h.markdown();
        }
        let _ = ide::completion(docs, i, at, &analysis);
        if let Some(s) = ide::signature_help(&docs[i], at) {
            for p in &s.parameters {
                check_range("signature parameter", &s.label, p);
            }
        }
        if let Some((path, r)) = ide::definition(docs, i, at) {
            check_range("definition", text_of(docs, &path), &r);
        }
    }
}
