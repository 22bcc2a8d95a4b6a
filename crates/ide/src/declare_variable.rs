//! Declare a missing variable from its use: the quick fix of an
//! `undefined-reference` on `var.NAME`. The new block goes at the end of
//! the module's `variables.tf` when it has one (where Terraform's style
//! guide keeps variables), else at the end of the file of the use; its
//! `type` is what the use expects (a module argument's variable type, a
//! resource argument's schema type, `string` in a template, a function's
//! parameter), `any` when the use expects nothing in particular.

use analysis::infer::Note;
use analysis::{Document, Memo};
use syntax::diagnostic::{Code, Diagnostic};
use types::Type;

use crate::actions::{appended, sibling, Action, ActionKind, FileEdit};

/// What the expression at `range` is expected to be, from the types the
/// analysis records for its item.
fn expected(docs: &[Document], doc: usize, range: &std::ops::Range<usize>, memo: &mut Memo) -> Option<Type> {
    let (_, probe) = memo.probe(docs, doc, range.start);
    probe.into_iter().find_map(|t| match t.note {
        Note::Checked(expected, _) if t.range == *range && !expected.is_any() => Some(expected),
        _ => None,
    })
}

/// The declaration of the variable an `undefined-reference` on `var.NAME`
/// in `docs[doc]` misses.
pub fn declare_variable(d: &Diagnostic, docs: &[Document], doc: usize, memo: &mut Memo) -> Option<Action> {
    let here = docs.get(doc)?;
    // A misspelling's fix is the name it suggests ("did you mean"), not a new variable.
    if d.code != Code::UndefinedReference || !here.file.dialect.is_terraform() || d.message.contains("did you mean") {
        return None;
    }
    let name = here.file.text.get(d.range.clone())?.strip_prefix("var.")?;
    if !crate::is_identifier(name) {
        return None;
    }
    let ty = expected(docs, doc, &d.range, memo)
        .and_then(|t| analysis::module::suggested_type(&[t], false))
        .map_or_else(|| "any".to_string(), |t| t.to_string());
    let block = format!("variable \"{name}\" {{\n  type = {ty}\n}}\n");
    let target = sibling(docs, doc, "variables.tf").unwrap_or(doc);
    let t = &docs[target];
    let end = t.file.text.len();
    let edit = FileEdit { path: t.file.path.clone(), range: end..end, text: appended(&t.file.text, &block) };
    let title = format!("Declare `variable \"{name}\"` ({ty})");
    Some(Action { fixes: Some(d.clone()), ..Action::new(title, ActionKind::QuickFix, vec![edit]) })
}
