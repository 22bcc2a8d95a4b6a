//! Move the `variable` blocks of a file to the module's `variables.tf`, and
//! its `output` blocks to `outputs.tf` (Terraform's style guide,
//! `docs/language/style`: "variables.tf … outputs.tf"), in their order,
//! with the comments above each (its doc). The file is created when the
//! module has none.

use analysis::Document;

use crate::actions::{line_start, sibling, whole_lines, Action, ActionKind, FileEdit};

/// The start of the comment lines right above `offset`'s line.
fn with_comments(text: &str, offset: usize) -> usize {
    let mut start = line_start(text, offset);
    while start > 0 {
        let prev = line_start(text, start - 1);
        let line = text[prev..start].trim();
        if line.starts_with('#') || line.starts_with("//") {
            start = prev;
        } else {
            break;
        }
    }
    start
}

/// The move of `docs[doc]`'s `kind` blocks (`variable` or `output`) to
/// `file` (`variables.tf`, `outputs.tf`); `None` when the document is that
/// file, is not a `.tf` file, or has no such block.
fn move_to(docs: &[Document], doc: usize, kind: &str, file: &str) -> Option<Action> {
    let here = docs.get(doc)?;
    let name = here.file.path.file_name()?.to_str()?;
    if name == file || !name.ends_with(".tf") || analysis::module::is_override(&here.file.path) {
        return None;
    }
    let text = &here.file.text;
    let header = |i: &analysis::Item| {
        let t = &text[i.range.clone()];
        t.strip_prefix(kind).is_some_and(|r| r.starts_with([' ', '"', '\t']))
    };
    let blocks: Vec<_> = here.items.iter().filter(|i| i.parses() && header(i)).collect();
    if blocks.is_empty() {
        return None;
    }
    let mut moved = String::new();
    let mut edits = Vec::new();
    for i in &blocks {
        let lines = whole_lines(text, &(with_comments(text, i.range.start)..i.range.end));
        let block = text[lines.clone()].trim_end();
        moved.push_str(block);
        moved.push_str("\n\n");
        edits.push(FileEdit { path: here.file.path.clone(), range: lines, text: String::new() });
    }
    let moved = moved.trim_end().to_string() + "\n";
    let target = match sibling(docs, doc, file) {
        Some(t) => {
            let t = &docs[t];
            let end = t.file.text.len();
            FileEdit {
                path: t.file.path.clone(),
                range: end..end,
                text: crate::actions::appended(&t.file.text, &moved),
            }
        }
        None => FileEdit { path: here.file.path.with_file_name(file), range: 0..0, text: moved },
    };
    edits.push(target);
    let what = if kind == "variable" { "variables" } else { "outputs" };
    Some(Action::new(format!("Move the {what} of this file to {file}"), ActionKind::RefactorMove, edits))
}

/// The moves `docs[doc]` offers: its variables to `variables.tf`, its
/// outputs to `outputs.tf`.
pub fn move_blocks(docs: &[Document], doc: usize) -> Vec<Action> {
    [("variable", "variables.tf"), ("output", "outputs.tf")]
        .into_iter()
        .filter_map(|(kind, file)| move_to(docs, doc, kind, file))
        .collect()
}
