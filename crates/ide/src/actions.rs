//! Code actions beyond a diagnostic's certain fix (lsp.md, "Code
//! actions"): edits of one or more files of the module, plain data. Each
//! action is in its own file; what they share is here.

use std::ops::Range;
use std::path::PathBuf;

use analysis::{Document, Item};
use syntax::diagnostic::Diagnostic;

/// What an action is, as LSP's `CodeActionKind` says it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ActionKind {
    QuickFix,
    RefactorExtract,
    RefactorRewrite,
    RefactorMove,
}

/// One replacement in one file. A path that is none of the module's
/// documents is a new file (the range is then `0..0`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileEdit {
    pub path: PathBuf,
    pub range: Range<usize>,
    pub text: String,
}

/// A code action: its title, kind, edits, and the diagnostic it fixes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Action {
    pub title: String,
    pub kind: ActionKind,
    pub edits: Vec<FileEdit>,
    pub fixes: Option<Diagnostic>,
}

impl Action {
    pub(crate) fn new(title: impl Into<String>, kind: ActionKind, edits: Vec<FileEdit>) -> Action {
        Action { title: title.into(), kind, edits, fixes: None }
    }
}

/// The top-level item of `doc` that holds `offset` (its end included).
pub(crate) fn item_at(doc: &Document, offset: usize) -> Option<&Item> {
    let i = doc.items.partition_point(|i| i.range.start <= offset);
    doc.items[..i].last().filter(|i| offset <= i.range.end)
}

/// The start of the line that holds `offset`.
pub(crate) fn line_start(text: &str, offset: usize) -> usize {
    text[..offset].rfind('\n').map_or(0, |i| i + 1)
}

/// Just after the newline that ends the line holding `offset` (the text's
/// end on its last line).
pub(crate) fn line_after(text: &str, offset: usize) -> usize {
    text[offset..].find('\n').map_or(text.len(), |i| offset + i + 1)
}

/// The whole lines of `range`, and one blank line after them when one
/// stands before them too (so removing them leaves no double blank).
pub(crate) fn whole_lines(text: &str, range: &Range<usize>) -> Range<usize> {
    let (start, mut end) = (line_start(text, range.start), line_after(text, range.end.max(range.start + 1) - 1));
    let blank_before = start == 0 || text[..start].ends_with("\n\n");
    let next = line_after(text, end.min(text.len()));
    if blank_before && end < text.len() && text[end..next].trim().is_empty() {
        end = next;
    }
    start..end
}

/// The text to append to a file so that `block` stands after a blank line.
pub(crate) fn appended(text: &str, block: &str) -> String {
    match text {
        "" => block.to_string(),
        t if t.ends_with("\n\n") => block.to_string(),
        t if t.ends_with('\n') => format!("\n{block}"),
        _ => format!("\n\n{block}"),
    }
}

/// The document of the module named `name` in the directory of `docs[doc]`.
pub(crate) fn sibling(docs: &[Document], doc: usize, name: &str) -> Option<usize> {
    let dir = docs.get(doc)?.file.path.parent();
    docs.iter().position(|d| d.file.path.parent() == dir && d.file.path.file_name().is_some_and(|n| n == name))
}
