//! Compact storage for byte spans.

use std::fmt;
use std::ops::Range;

/// An optional byte span in 8 bytes, where `Option<Range<usize>>` takes 24.
///
/// Every node of a parsed tree stores one (and a decor two more, in its raw strings), so a
/// tree of small nodes -- a long list of one-digit numbers, say -- spends most of its memory
/// on spans: this storage cuts what a parsed tree costs per source byte (hcl-types
/// patch 3, see `PATCHES.md`). Offsets are `u32`: a span that does not fit (a source of 4
/// GiB or more) is stored as no span, as for a node that was not parsed.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct SpanCell {
    /// `u32::MAX` when there is no span.
    start: u32,
    end: u32,
}

impl SpanCell {
    /// No span.
    pub(crate) const NONE: SpanCell = SpanCell {
        start: u32::MAX,
        end: u32::MAX,
    };

    /// Stores `span` (as no span when it does not fit).
    pub(crate) fn new(span: Range<usize>) -> SpanCell {
        match (u32::try_from(span.start), u32::try_from(span.end)) {
            (Ok(start), Ok(end)) if start != u32::MAX => SpanCell { start, end },
            _ => SpanCell::NONE,
        }
    }

    /// The span, if there is one.
    pub(crate) fn get(self) -> Option<Range<usize>> {
        (self.start != u32::MAX).then_some(self.start as usize..self.end as usize)
    }
}

impl Default for SpanCell {
    fn default() -> Self {
        SpanCell::NONE
    }
}

impl fmt::Debug for SpanCell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.get().fmt(f)
    }
}
