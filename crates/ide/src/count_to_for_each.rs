//! Convert `count` to `for_each` where the collection allows it: a
//! resource, data source or module call with `count = length(X)`, X a list
//! or set of strings (a `for_each` set must be of strings), whose every
//! use of `count` is `X[count.index]`. Then `for_each = toset(X)` and
//! `each.value` for each use; a splat of the block's instances elsewhere
//! (`ADDR[*]`) reads `values(ADDR)[*]`, and any other reference of its
//! instances (`ADDR[0]`) refuses the conversion: its key is not known here.
//! The instances' addresses change (`[0]` to `["a"]`): Terraform plans to
//! replace them unless `moved` blocks say so, as the title warns.

use analysis::{Document, FileKind, Memo};
use hcl_edit::expr::Expression;
use hcl_edit::Span;
use types::Type;

use crate::actions::{item_at, Action, ActionKind, FileEdit};

/// Whether `t` is a collection a `for_each` set can be made of: a list or
/// set of strings (a tuple of strings).
fn strings(t: &Type) -> bool {
    let s = t.to_string();
    if s == "list(string)" || s == "set(string)" {
        return true;
    }
    let Some(inner) = s.strip_prefix("tuple([").and_then(|r| r.strip_suffix("])")) else { return false };
    inner.split(',').all(|e| e.trim() == "string")
}

/// Offsets where `word` stands in `text` as a whole reference (not in the
/// middle of a longer name).
fn occurrences<'a>(text: &'a str, word: &'a str) -> impl Iterator<Item = usize> + 'a {
    let ident = |c: char| c.is_alphanumeric() || c == '_' || c == '-';
    text.match_indices(word).map(|(i, _)| i).filter(move |&i| {
        let before = text[..i].chars().next_back();
        let after = text[i + word.len()..].chars().next();
        !before.is_some_and(|c| ident(c) || c == '.') && !after.is_some_and(ident)
    })
}

/// The conversion of the block at `offset` in `docs[doc]`.
pub fn count_to_for_each(docs: &[Document], doc: usize, offset: usize, memo: &mut Memo) -> Option<Action> {
    let here = docs.get(doc)?;
    let text = &here.file.text;
    if !here.file.dialect.is_terraform() {
        return None;
    }
    let item = item_at(here, offset)?;
    let body = item.body(text)?;
    let block = body.blocks().next()?;
    let labels: Vec<&str> = block.labels.iter().map(|l| l.as_str()).collect();
    let address = match (block.ident.value().as_str(), labels.as_slice()) {
        ("resource", [t, n]) => format!("{t}.{n}"),
        ("data", [t, n]) => format!("data.{t}.{n}"),
        ("module", [n]) => format!("module.{n}"),
        _ => return None,
    };
    let count = block.body.get_attribute("count")?;
    let Expression::FuncCall(call) = &count.value else { return None };
    if call.name.is_namespaced() || call.name.name.value().as_str() != "length" || call.args.len() != 1 {
        return None;
    }
    let at = item.range.start;
    let arg = call.args.iter().next()?.span()?;
    let collection = &text[arg.start + at..arg.end + at];
    let (_, probe) = memo.probe(docs, doc, arg.start + at);
    let range = arg.start + at..arg.end + at;
    if !probe.iter().any(|t| t.range == range && strings(&t.ty)) {
        return None;
    }
    let count_span = count.span()?;
    let count_span = count_span.start + at..count_span.end + at;
    // Every other `count` of the block is `X[count.index]`.
    let uses = format!("{collection}[count.index]");
    let item_text = &text[item.range.clone()];
    let mut edits = vec![FileEdit {
        path: here.file.path.clone(),
        range: count_span.clone(),
        text: format!("for_each = toset({collection})"),
    }];
    for i in occurrences(item_text, "count").map(|i| i + at) {
        if count_span.contains(&i) {
            continue;
        }
        let start = i.checked_sub(collection.len() + 1)?;
        if text.get(start..i + "count.index]".len())? != uses {
            return None;
        }
        edits.push(FileEdit {
            path: here.file.path.clone(),
            range: start..start + uses.len(),
            text: "each.value".into(),
        });
    }
    // Other blocks' reads of the instances: a splat only.
    for d in docs.iter().filter(|d| d.file.kind == FileKind::Terraform) {
        for i in occurrences(&d.file.text, &address) {
            if d.file.path == here.file.path && item.range.contains(&i) {
                continue;
            }
            let after = &d.file.text[i + address.len()..];
            if !after.starts_with("[*]") {
                return None;
            }
            let range = i..i + address.len() + 3;
            edits.push(FileEdit { path: d.file.path.clone(), range, text: format!("values({address})[*]") });
        }
    }
    let title = "Convert `count` to `for_each` (instances get new addresses: add `moved` blocks to keep them)";
    Some(Action::new(title, ActionKind::RefactorRewrite, edits))
}
