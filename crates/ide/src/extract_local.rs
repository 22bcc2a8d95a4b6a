//! Extract the selected expression to a local value: `local.NAME` takes
//! its place, and `NAME = EXPR` goes at the end of the file's first
//! `locals` block (a new `locals` block above the item when it has none).
//! Offered only for a whole expression inside an argument's value that
//! reads nothing bound where it stands (`each`, `count`, `self`, a `for`
//! variable, a `dynamic` block's iterator): a local could not read those.
//! The name is the argument's when the whole value is taken, else the
//! last attribute it reads or the function it calls, made unique; the
//! title gives the expression's type (hover and the inlay hint on the new
//! local show it too).

use std::ops::Range;

use analysis::{Document, Memo, SymbolKind};
use hcl_edit::expr::{Expression, TraversalOperator};
use hcl_edit::structure::{Body, Structure};
use hcl_edit::visit::{self, Visit};
use hcl_edit::Span;

use crate::actions::{item_at, line_start, Action, ActionKind, FileEdit};

/// The names bound around (and read inside) the selection.
#[derive(Default)]
struct Scope {
    /// `for` variables and `dynamic` iterators whose scope holds the selection.
    bound: Vec<String>,
    /// The root names the selection reads.
    roots: Vec<String>,
}

/// The `for` variables of the expressions of `e` whose body holds `sel`.
struct Fors<'a> {
    sel: &'a Range<usize>,
    bound: &'a mut Vec<String>,
}

impl Visit for Fors<'_> {
    fn visit_for_expr(&mut self, f: &hcl_edit::expr::ForExpr) {
        // (A `for` the selection holds whole binds its names inside it.)
        if f.span().is_some_and(|s| s.start <= self.sel.start && self.sel.end <= s.end && s != *self.sel) {
            self.bound.push(f.intro.value_var.value().to_string());
            if let Some(k) = &f.intro.key_var {
                self.bound.push(k.value().to_string());
            }
        }
        visit::visit_for_expr(self, f);
    }
}

struct Roots<'a>(&'a mut Vec<String>);

impl Visit for Roots<'_> {
    fn visit_expr(&mut self, e: &Expression) {
        if let Expression::Variable(v) = e {
            self.0.push(v.value().to_string());
        }
        visit::visit_expr(self, e);
    }
}

/// The argument (key, value) of `body` (nested blocks followed) whose
/// value holds `sel`, with the `dynamic` iterators around it.
fn argument<'a>(body: &'a Body, sel: &Range<usize>, scope: &mut Scope) -> Option<(String, &'a Expression)> {
    for s in body.iter() {
        match s {
            Structure::Attribute(a) => {
                if a.value.span().is_some_and(|r| r.start <= sel.start && sel.end <= r.end) {
                    return Some((a.key.value().to_string(), &a.value));
                }
            }
            Structure::Block(b) => {
                if !b.span().is_some_and(|r| r.start <= sel.start && sel.end <= r.end) {
                    continue;
                }
                if b.ident.value().as_str() == "dynamic" {
                    let iterator = b.body.get_attribute("iterator").and_then(|a| match &a.value {
                        Expression::Variable(v) => Some(v.value().to_string()),
                        _ => None,
                    });
                    scope.bound.extend(iterator.or_else(|| b.labels.first().map(|l| l.as_str().to_string())));
                }
                return argument(&b.body, sel, scope);
            }
        }
    }
    None
}

/// A name for the extracted expression.
fn base_name(e: &Expression, whole_of: Option<&str>) -> String {
    if let Some(k) = whole_of {
        return k.to_string();
    }
    match e {
        Expression::Traversal(t) => t
            .operators
            .iter()
            .rev()
            .find_map(|o| match o.value() {
                TraversalOperator::GetAttr(a) => Some(a.value().to_string()),
                _ => None,
            })
            .unwrap_or_else(|| "value".into()),
        Expression::FuncCall(f) => f.name.name.value().to_string(),
        Expression::Parenthesis(p) => base_name(p.inner(), None),
        _ => "value".into(),
    }
}

/// The extraction of `docs[doc]`'s `selection` (trimmed) to a local.
pub fn extract_local(docs: &[Document], doc: usize, selection: Range<usize>, memo: &mut Memo) -> Option<Action> {
    let here = docs.get(doc)?;
    let text = &here.file.text;
    if !here.file.dialect.is_terraform() || selection.is_empty() {
        return None;
    }
    let raw = text.get(selection.clone())?;
    let start = selection.start + (raw.len() - raw.trim_start().len());
    let sel = start..start + raw.trim().len();
    let item = item_at(here, sel.start).filter(|i| sel.end <= i.range.end)?;
    let body = item.body(text)?;
    let at = item.range.start;
    let rel = sel.start - at..sel.end - at;
    let mut scope = Scope::default();
    let (key, value) = argument(&body, &rel, &mut scope)?;
    // The selection is one expression, parsed as it stands.
    let options = hcl_edit::parser::ParseOptions::default().max_nesting_depth(64);
    let e = hcl_edit::parser::parse_expr_with(&text[sel.clone()], options).ok()?;
    Fors { sel: &rel, bound: &mut scope.bound }.visit_expr(value);
    Roots(&mut scope.roots).visit_expr(&e);
    let bound = ["each", "count", "self"].iter().map(|s| s.to_string()).chain(scope.bound);
    if bound.into_iter().any(|b| scope.roots.contains(&b)) {
        return None;
    }
    let whole = value.span().is_some_and(|r| r == rel);
    let base = base_name(&e, whole.then_some(key.as_str()));
    let analysis = memo.analysis(docs);
    let taken = |n: &str| analysis.symbols.iter().any(|s| s.kind == SymbolKind::Local && s.name == n);
    let name = std::iter::once(base.clone()).chain((2..).map(|i| format!("{base}_{i}"))).find(|n| !taken(n))?;
    let (_, probe) = memo.probe(docs, doc, sel.start);
    let ty = probe.iter().filter(|t| t.range == sel).map(|t| t.ty.to_string()).next();
    let expr = &text[sel.clone()];
    let locals = here.items.iter().find(|i| text[i.range.clone()].starts_with("locals"));
    let insert = match locals.and_then(|l| Some((l, text[l.range.clone()].rfind('}')? + l.range.start))) {
        Some((_, close)) => {
            let at = line_start(text, close);
            let edit = if text[at..close].trim().is_empty() && at > 0 {
                (at..at, format!("  {name} = {expr}\n"))
            } else {
                (close..close, format!("\n  {name} = {expr}\n"))
            };
            edit
        }
        None => {
            let at = line_start(text, item.range.start);
            (at..at, format!("locals {{\n  {name} = {expr}\n}}\n\n"))
        }
    };
    let path = here.file.path.clone();
    let edits = vec![
        FileEdit { path: path.clone(), range: insert.0, text: insert.1 },
        FileEdit { path, range: sel, text: format!("local.{name}") },
    ];
    let title = match ty {
        Some(t) => format!("Extract to `local.{name}` ({t})"),
        None => format!("Extract to `local.{name}`"),
    };
    Some(Action::new(title, ActionKind::RefactorExtract, edits))
}
