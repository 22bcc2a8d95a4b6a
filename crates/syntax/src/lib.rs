//! Syntax: hcl-edit trees read statically — dialects, constants and type
//! expressions with byte spans.

pub mod constant;
pub mod deep;
pub mod diagnostic;
pub mod dialect;
pub mod foreign;
pub mod json;
pub mod lexical;
pub mod lines;
pub mod recover;
pub mod scan;
pub mod typeexpr;

pub use dialect::Dialect;

use std::ops::Range;

use hcl_edit::Span;

/// The span of a node shifted by `base` (the offset of the text it was
/// parsed from); an empty range at `base` when hcl-edit kept no span.
pub fn span_of(node: &impl Span, base: usize) -> Range<usize> {
    match node.span() {
        Some(r) => r.start + base..r.end + base,
        None => base..base,
    }
}
