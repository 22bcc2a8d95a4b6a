//! Inlay hints: the inferred type after each local, PCL top-level value
//! and untyped output name.

use analysis::module::{ModuleAnalysis, SymbolKind};

/// Inlay hints: `(offset, label)` after each local, PCL top-level value and
/// untyped output name.
pub fn inlay_hints(analysis: &ModuleAnalysis, doc: usize) -> Vec<(usize, String)> {
    analysis
        .symbols
        .iter()
        .filter(|s| s.doc == doc)
        .filter(|s| match s.kind {
            SymbolKind::Local | SymbolKind::Attribute => true,
            // A typed output (PCL's label, Terraform 1.15's `type`) shows
            // its type already: its declaration holds a type expression.
            SymbolKind::Output => !analysis.type_nodes.get(doc).is_some_and(|nodes| {
                let i = nodes.partition_point(|start| start < s.range.start);
                nodes.get(i).is_some_and(|n| n.range.end <= s.range.end)
            }),
            _ => false,
        })
        .map(|s| (s.name_range.end, format!(": {}", s.ty.brief())))
        .collect()
}
