//! Hierarchical document symbols: the module's declarations in a document
//! (variables, locals, outputs, resources… with their types, as analysis
//! names them), each with its nested blocks and attributes as children,
//! read from the syntax tree. A client without hierarchy support gets the
//! top level alone (the server flattens it).

use std::ops::Range;

use analysis::{Document, ModuleAnalysis, SymbolKind};
use hcl_edit::structure::{Body, Structure};
use syntax::span_of;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OutlineKind {
    /// A declaration analysis knows.
    Declaration(SymbolKind),
    /// A block inside a declaration (`lifecycle`, `ingress`, …).
    Block,
    /// An argument inside a declaration.
    Argument,
}

#[derive(Clone, Debug)]
pub struct OutlineSymbol {
    pub name: String,
    /// The declaration's type; for a nested block, its labels.
    pub detail: Option<String>,
    pub kind: OutlineKind,
    pub range: Range<usize>,
    pub name_range: Range<usize>,
    pub children: Vec<OutlineSymbol>,
}

/// The symbols of `docs[doc]`, in document order, children nested.
pub fn document_symbols(analysis: &ModuleAnalysis, docs: &[Document], doc: usize) -> Vec<OutlineSymbol> {
    let Some(d) = docs.get(doc) else { return Vec::new() };
    let text = d.file.text.as_str();
    let mut top: Vec<&analysis::Symbol> =
        analysis.symbols.iter().chain(&analysis.resources).filter(|s| s.doc == doc).collect();
    top.sort_by_key(|s| s.range.start);
    top.into_iter()
        .map(|s| OutlineSymbol {
            name: s.address.clone(),
            detail: Some(s.ty.brief()),
            kind: OutlineKind::Declaration(s.kind),
            range: s.range.clone(),
            name_range: s.name_range.clone(),
            children: block_children(d, text, &s.range),
        })
        .map(|o| shown(d, o))
        .collect()
}

/// `o` with its ranges in the text the user sees (a JSON file's own, not
/// its lowering: [`Document::shown_text`]).
fn shown(d: &Document, o: OutlineSymbol) -> OutlineSymbol {
    OutlineSymbol {
        range: d.shown_range(&o.range),
        name_range: d.shown_range(&o.name_range),
        children: o.children.into_iter().map(|c| shown(d, c)).collect(),
        ..o
    }
}

/// The nested blocks and arguments of the block that spans `range`
/// exactly (none for an attribute, such as a local).
fn block_children(d: &Document, text: &str, range: &Range<usize>) -> Vec<OutlineSymbol> {
    let Some(item) = d.items.iter().find(|i| i.range.start <= range.start && range.end <= i.range.end) else {
        return Vec::new();
    };
    let Some(body) = item.body(text) else { return Vec::new() };
    let base = item.range.start;
    let found = body.blocks().find(|b| span_of(*b, base) == *range).map(|b| body_symbols(&b.body, base));
    found.unwrap_or_default()
}

fn body_symbols(body: &Body, base: usize) -> Vec<OutlineSymbol> {
    body.iter()
        .map(|s| match s {
            Structure::Attribute(a) => OutlineSymbol {
                name: a.key.as_str().to_string(),
                detail: None,
                kind: OutlineKind::Argument,
                range: span_of(a, base),
                name_range: span_of(&a.key, base),
                children: Vec::new(),
            },
            Structure::Block(b) => {
                let labels: Vec<&str> = b.labels.iter().map(|l| l.as_str()).collect();
                OutlineSymbol {
                    name: b.ident.as_str().to_string(),
                    detail: (!labels.is_empty()).then(|| labels.join(" ")),
                    kind: OutlineKind::Block,
                    range: span_of(b, base),
                    name_range: span_of(&b.ident, base),
                    children: body_symbols(&b.body, base),
                }
            }
        })
        .collect()
}
