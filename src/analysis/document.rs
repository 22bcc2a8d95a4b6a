//! A file as separately parsed top-level items: one syntax error costs one item.

use std::ops::Range;
use std::sync::Arc;

use hcl_edit::structure::Body;

use super::SourceFile;
use crate::diagnostic::{Code, Diagnostic};
use crate::syntax::constant::Source;
use crate::syntax::scan;

/// One top-level block or attribute and its parse.
#[derive(Debug)]
pub struct Item {
    pub range: Range<usize>,
    /// The parsed item (a body holding one structure), or `None` after a
    /// syntax error.
    pub body: Option<Body>,
}

/// A parsed file.
#[derive(Debug)]
pub struct Document {
    pub file: SourceFile,
    pub items: Vec<Item>,
    /// Syntax diagnostics (one per broken item) and file-level problems.
    pub diagnostics: Vec<Diagnostic>,
}

impl Document {
    pub fn parse(file: SourceFile) -> Document {
        let text: Arc<str> = file.text.clone();
        // Items parse independently: spread them over the cores.
        use rayon::prelude::*;
        let found = scan::split(&text);
        let parsed: Vec<(Item, Option<Diagnostic>)> = if found.len() > 64 {
            found.par_iter().with_min_len(32).map(|f| parse_item(&text, f)).collect()
        } else {
            found.iter().map(|f| parse_item(&text, f)).collect()
        };
        let mut diagnostics = Vec::new();
        let mut items = Vec::with_capacity(parsed.len());
        for (item, diag) in parsed {
            items.push(item);
            diagnostics.extend(diag);
        }
        Document { file, items, diagnostics }
    }

    /// The source of an item, for span arithmetic.
    pub fn source(&self, item: &Item) -> Source<'_> {
        Source::new(&self.file.text[item.range.clone()], item.range.start)
    }
}

/// Parses one item. Public so an editor can re-parse just the item it edits.
pub fn parse_item(text: &str, found: &scan::Item) -> (Item, Option<Diagnostic>) {
    let parse_text = found.parse_text(text);
    match hcl_edit::parser::parse_body(&parse_text) {
        Ok(body) => (Item { range: found.range.clone(), body: Some(body) }, None),
        Err(e) => {
            if let Some(body) = repair(&parse_text) {
                return (Item { range: found.range.clone(), body: Some(body) }, None);
            }
            let local = e.location().offset().min(parse_text.len());
            let mut at = found.range.start + local;
            while !text.is_char_boundary(at) {
                at -= 1;
            }
            // Underline to the end of the offending line (at least one char).
            let line_end = text.get(at..found.range.end).unwrap_or("").find('\n').map_or(found.range.end, |p| at + p);
            let end = if line_end > at { line_end } else { (at + 1).min(text.len()) };
            let end = (at..=end).rev().find(|&i| text.is_char_boundary(i)).unwrap_or(at);
            let message = format!("syntax error: {}", e.message());
            (Item { range: found.range.clone(), body: None }, Some(Diagnostic::new(Code::Syntax, at..end, message)))
        }
    }
}

/// Same-length rewrites for valid HCL that hcl-edit rejects, tried only
/// after a parse failure: operator continuation lines, and duplicate object
/// keys (HCL keeps the last; hcl-edit refuses), renamed one at a time.
fn repair(text: &str) -> Option<Body> {
    let mut current = scan::join_continuation_lines(text).unwrap_or_else(|| text.to_string());
    for _ in 0..32 {
        match hcl_edit::parser::parse_body(&current) {
            Ok(body) => return Some(body),
            Err(e) if e.message().contains("unique object key") => {
                let at = e.location().offset();
                let bytes = current.as_bytes();
                // The error points at the repeated key (quoted or bare).
                let start = (at..bytes.len()).find(|&i| bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_')?;
                let mut b = current.into_bytes();
                b[start] = if b[start] == b'_' { b'Z' } else { b'_' };
                current = String::from_utf8(b).ok()?;
            }
            Err(_) => return None,
        }
    }
    None
}
