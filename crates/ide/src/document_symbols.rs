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
///
/// Linear in the document: each symbol's item is found by binary search
/// and each item's tree is taken (parsed again, if dropped) once for all
/// its symbols. A `locals` block of 4,000 names was parsed 4,000 times
/// (180 s for 200 KB; issue 42, item 3).
pub fn document_symbols(analysis: &ModuleAnalysis, docs: &[Document], doc: usize) -> Vec<OutlineSymbol> {
    let Some(d) = docs.get(doc) else { return Vec::new() };
    let text = d.file.text.as_str();
    let mut top: Vec<&analysis::Symbol> =
        analysis.symbols.iter().chain(&analysis.resources).filter(|s| s.doc == doc).collect();
    top.sort_by_key(|s| s.range.start);
    let mut bodies = Bodies { doc: d, text, last: None };
    top.into_iter()
        .map(|s| OutlineSymbol {
            name: s.address.clone(),
            detail: Some(s.ty.brief()),
            kind: OutlineKind::Declaration(s.kind),
            range: s.range.clone(),
            name_range: s.name_range.clone(),
            children: bodies.children(&s.range),
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

/// The items' trees, the last one taken kept for the next symbol (the
/// symbols come in document order, so an item's are consecutive).
struct Bodies<'d> {
    doc: &'d Document,
    text: &'d str,
    last: Option<(usize, Option<std::sync::Arc<Body>>)>,
}

impl Bodies<'_> {
    /// The nested blocks and arguments of the block that spans `range`
    /// exactly (none for an attribute, such as a local).
    fn children(&mut self, range: &Range<usize>) -> Vec<OutlineSymbol> {
        let items = &self.doc.items;
        // The item that holds the range: the last one starting at or before it.
        let at = items.partition_point(|i| i.range.start <= range.start);
        let Some(k) = at.checked_sub(1).filter(|&k| range.end <= items[k].range.end) else {
            return Vec::new();
        };
        let item = &items[k];
        if self.last.as_ref().is_none_or(|(was, _)| *was != k) {
            self.last = Some((k, item.body(self.text)));
        }
        let Some((_, Some(body))) = &self.last else { return Vec::new() };
        let base = item.range.start;
        let found = body.blocks().find(|b| span_of(*b, base) == *range).map(|b| body_symbols(&b.body, base));
        found.unwrap_or_default()
    }
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
