//! Semantic tokens of type expressions: constructors, functions and
//! attribute names.

use std::ops::Range;

use analysis::module::ModuleAnalysis;
use syntax::typeexpr::NodeKind;

/// Semantic token kinds of type expressions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TokenKind {
    Type,
    Function,
    Property,
}

pub fn semantic_tokens(analysis: &ModuleAnalysis, doc: usize) -> Vec<(Range<usize>, TokenKind)> {
    let mut out: Vec<(Range<usize>, TokenKind)> = analysis
        .type_nodes
        .get(doc)
        .map(|nodes| {
            nodes
                .iter()
                .map(|n| {
                    let kind = match n.kind {
                        NodeKind::Keyword | NodeKind::Named => TokenKind::Type,
                        NodeKind::Constructor => TokenKind::Function,
                        NodeKind::Attribute => TokenKind::Property,
                    };
                    (n.name_range.clone(), kind)
                })
                .collect()
        })
        .unwrap_or_default();
    out.sort_by_key(|(r, _)| (r.start, r.end));
    out.dedup_by(|a, b| a.0.start < b.0.end);
    out
}
