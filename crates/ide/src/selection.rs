//! Selection ranges ("expand selection"): from the word under the cursor
//! out through each enclosing expression, the attribute, the block's body,
//! the block, to the whole file. Built from the syntax trees' spans.

use std::ops::Range;

use analysis::Document;

use crate::nodes::nodes;

/// The ranges that enclose `offset`, innermost first, each strictly
/// larger than the one before; the last is the whole file.
pub fn selection_ranges(doc: &Document, offset: usize) -> Vec<Range<usize>> {
    let text = doc.file.text.as_str();
    // Never inside a character (a client's position can land there).
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let mut out: Vec<Range<usize>> = Vec::new();
    if let Some(word) = word_at(text, offset) {
        out.push(word);
    }
    let mut enclosing: Vec<Range<usize>> = nodes(doc)
        .into_iter()
        .map(|n| n.range)
        .filter(|r| r.start <= offset && offset <= r.end && r.start < r.end)
        .collect();
    enclosing.sort_by_key(|r| r.end - r.start);
    out.extend(enclosing);
    out.push(0..text.len());
    // Each step must contain the one before (spans that only touch the
    // cursor from either side are not nested).
    let mut chain: Vec<Range<usize>> = Vec::new();
    for r in out {
        match chain.last() {
            Some(last) if !(r.start <= last.start && last.end <= r.end) || *last == r => {}
            _ => chain.push(r),
        }
    }
    chain
}

/// The identifier, number or word the cursor is in or just after.
fn word_at(text: &str, offset: usize) -> Option<Range<usize>> {
    let is_word = |c: char| c.is_alphanumeric() || c == '_' || c == '-';
    let start = text[..offset].char_indices().rev().take_while(|(_, c)| is_word(*c)).last().map_or(offset, |(i, _)| i);
    let end = offset + text[offset..].chars().take_while(|c| is_word(*c)).map(char::len_utf8).sum::<usize>();
    (start < end).then_some(start..end)
}
