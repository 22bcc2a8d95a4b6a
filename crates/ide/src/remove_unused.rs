//! The quick fix of an unused declaration (analysis.md §5.1): remove it —
//! a variable, output or data block whole, a local or `required_providers` entry
//! by its line(s), their block too when it would be left empty. A
//! variable that a caller or a `.tfvars` file sets keeps its declaration:
//! removing it would break them.

use analysis::{Document, FileKind};
use hcl_edit::structure::{Attribute, Body, Structure};
use hcl_edit::Span;
use syntax::diagnostic::{Code, Diagnostic};

use crate::actions::{item_at, whole_lines, Action, ActionKind, FileEdit};
use crate::Caller;

/// The attribute of `body` (a block's, nested blocks followed) whose key
/// spans `key`, with how many attributes its own body has.
fn attribute_at<'a>(body: &'a Body, key: &std::ops::Range<usize>) -> Option<(&'a Attribute, usize)> {
    for s in body.iter() {
        match s {
            Structure::Attribute(a) if a.key.span().as_ref() == Some(key) => {
                return Some((a, body.attributes().count() + body.blocks().count()))
            }
            Structure::Block(b) => {
                if let Some(found) = attribute_at(&b.body, key) {
                    return Some(found);
                }
            }
            _ => {}
        }
    }
    None
}

/// Whether a caller's call or a `.tfvars` file of the module sets `name`.
fn set_elsewhere(name: &str, docs: &[Document], callers: &[Caller<'_>]) -> bool {
    let sets = |d: &Document, block: Option<&[String]>| {
        d.items.iter().filter_map(|i| i.body(&d.file.text)).any(|body| match block {
            None => body.get_attribute(name).is_some(),
            Some(calls) => body.blocks().any(|b| {
                b.ident.value().as_str() == "module"
                    && b.labels.first().is_some_and(|l| calls.iter().any(|c| c == l.as_str()))
                    && b.body.get_attribute(name).is_some()
            }),
        })
    };
    docs.iter().filter(|d| d.file.kind == FileKind::Tfvars).any(|d| sets(d, None))
        || callers.iter().any(|c| c.docs.iter().any(|d| sets(d, Some(&c.calls))))
}

/// The removal of the declaration `d` (an `unused-*` diagnostic of
/// `docs[doc]`) says is unused.
pub fn remove_unused(d: &Diagnostic, docs: &[Document], doc: usize, callers: &[Caller<'_>]) -> Option<Action> {
    let here = docs.get(doc)?;
    let text = &here.file.text;
    let item = item_at(here, d.range.start)?;
    let name = text.get(d.range.clone())?.trim_matches('"');
    let whole = |what: String| {
        let edit =
            FileEdit { path: here.file.path.clone(), range: whole_lines(text, &item.range), text: String::new() };
        Some(Action {
            fixes: Some(d.clone()),
            ..Action::new(format!("Remove {what}"), ActionKind::QuickFix, vec![edit])
        })
    };
    match d.code {
        Code::UnusedVariable if !set_elsewhere(name, docs, callers) => whole(format!("`var.{name}`")),
        Code::UnusedOutput => whole(format!("the output `{name}`")),
        Code::UnusedData => {
            let address = d.message.split('`').nth(1)?.to_string();
            whole(format!("`{address}`"))
        }
        Code::UnusedLocal | Code::UnusedProvider => {
            let body = item.body(text)?;
            let at = item.range.start;
            let key = d.range.start - at..d.range.end - at;
            let (a, siblings) = attribute_at(&body, &key)?;
            let what =
                if d.code == Code::UnusedLocal { format!("`local.{name}`") } else { format!("the provider `{name}`") };
            // The last local of its `locals` block: the block goes too.
            if d.code == Code::UnusedLocal && siblings == 1 {
                return whole(what);
            }
            let span = a.span()?;
            let edit = FileEdit {
                path: here.file.path.clone(),
                range: whole_lines(text, &(span.start + at..span.end + at)),
                text: String::new(),
            };
            Some(Action {
                fixes: Some(d.clone()),
                ..Action::new(format!("Remove {what}"), ActionKind::QuickFix, vec![edit])
            })
        }
        _ => None,
    }
}
