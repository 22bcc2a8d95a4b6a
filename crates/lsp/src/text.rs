//! The one place where LSP positions become byte offsets and back.
//!
//! Lines end at `\n`, `\r\n` or `\r` (ropey's `cr_lines`, as LSP counts
//! them); columns count UTF-8 bytes or UTF-16 code units, whichever was
//! negotiated. Every conversion clamps: a position past the end of a line
//! is the line's end, past the last line the end of the text.

use ropey::Rope;
use tower_lsp_server::ls_types::{Position, Range, TextDocumentContentChangeEvent};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Encoding {
    Utf8,
    Utf16,
}

/// Byte length of a line's content, without its line break.
fn line_content_len(rope: &Rope, line: usize) -> usize {
    let slice = rope.line(line);
    let len = slice.len_bytes();
    let last = |back: usize| (len >= back).then(|| slice.byte(len - back));
    match (last(2), last(1)) {
        (Some(b'\r'), Some(b'\n')) => len - 2,
        (_, Some(b'\n' | b'\r')) => len - 1,
        _ => len,
    }
}

/// The byte offset of a position, clamped into the text.
pub fn offset(rope: &Rope, pos: Position, enc: Encoding) -> usize {
    let lines = rope.len_lines();
    let line = pos.line as usize;
    if line >= lines {
        return rope.len_bytes();
    }
    let start = rope.line_to_byte(line);
    let content = line_content_len(rope, line);
    let want = pos.character as usize;
    match enc {
        Encoding::Utf8 => {
            // Never split a character: back to the start of the one hit.
            let at = start + want.min(content);
            rope.char_to_byte(rope.byte_to_char(at))
        }
        Encoding::Utf16 => {
            let mut units = 0;
            let mut at = start;
            for c in rope.byte_slice(start..start + content).chars() {
                let w = c.len_utf16();
                if units + w > want {
                    break;
                }
                units += w;
                at += c.len_utf8();
            }
            at
        }
    }
}

/// The position of a byte offset (clamped into the text, and down to a
/// character boundary).
pub fn position(rope: &Rope, offset: usize, enc: Encoding) -> Position {
    let offset = offset.min(rope.len_bytes());
    let offset = rope.char_to_byte(rope.byte_to_char(offset));
    let line = rope.byte_to_line(offset);
    let start = rope.line_to_byte(line);
    let character = match enc {
        Encoding::Utf8 => offset - start,
        Encoding::Utf16 => rope.byte_slice(start..offset).chars().map(char::len_utf16).sum(),
    };
    Position { line: line as u32, character: character as u32 }
}

pub fn range(rope: &Rope, r: &std::ops::Range<usize>, enc: Encoding) -> Range {
    Range { start: position(rope, r.start, enc), end: position(rope, r.end, enc) }
}

/// Positions of increasing offsets of one text, found in one walk over
/// it: a whole document's semantic tokens are millions of offsets, and a
/// rope lookup each would cost more than finding the tokens. Lines break
/// as [`position`]'s do (`\n`, `\r\n`, `\r`); an offset is clamped into
/// the text and must not be before the one asked before. The walk knows
/// where its line ends and whether the line is ASCII (then a column is a
/// byte count in either encoding), so an offset on the same line as the
/// last one costs a subtraction.
pub struct Walk<'a> {
    text: &'a [u8],
    enc: Encoding,
    line: u32,
    line_start: usize,
    /// The current line's break (the `\n` of a `\r\n`), or the text's end.
    line_break: usize,
    /// Where the current line's content ends (before its break).
    content_end: usize,
    /// Whether the current line is ASCII.
    ascii: bool,
    /// The last offset placed on this line, and its column.
    at: usize,
    column: u32,
}

impl<'a> Walk<'a> {
    pub fn new(text: &'a str, enc: Encoding) -> Walk<'a> {
        let mut walk = Walk {
            text: text.as_bytes(),
            enc,
            line: 0,
            line_start: 0,
            line_break: 0,
            content_end: 0,
            ascii: true,
            at: 0,
            column: 0,
        };
        walk.start_line(0);
        walk
    }

    /// A walk whose first offset is `offset` or after it: its line found
    /// by counting the line breaks before it (one pass over them, not a
    /// position each), as a `semanticTokens/range` answer starts.
    pub fn starting_at(text: &'a str, enc: Encoding, offset: usize) -> Walk<'a> {
        let b = text.as_bytes();
        let offset = offset.min(b.len());
        let line_start = |end: usize| memchr::memrchr2(b'\n', b'\r', &b[..end]).map_or(0, |i| i + 1);
        let mut start = line_start(offset);
        // At the `\n` of a `\r\n`: still the line before it.
        if start == offset && offset > 0 && b[offset - 1] == b'\r' && b.get(offset) == Some(&b'\n') {
            start = line_start(offset - 1);
        }
        let before = &b[..start];
        let newlines = before.iter().filter(|&&c| c == b'\n').count();
        let lone_cr = memchr::memchr_iter(b'\r', before).filter(|&i| b.get(i + 1) != Some(&b'\n')).count();
        let mut walk = Walk::new("", enc);
        walk.text = b;
        walk.line = (newlines + lone_cr) as u32;
        walk.start_line(start);
        walk
    }

    /// Makes the line starting at `start` the current one.
    fn start_line(&mut self, start: usize) {
        let text = self.text;
        self.line_start = start;
        (self.content_end, self.line_break) = match memchr::memchr2(b'\n', b'\r', &text[start..]) {
            Some(i) if text[start + i] == b'\r' && text.get(start + i + 1) == Some(&b'\n') => {
                (start + i, start + i + 1)
            }
            Some(i) => (start + i, start + i),
            None => (text.len(), text.len()),
        };
        self.ascii = self.enc == Encoding::Utf8 || text[start..self.line_break].is_ascii();
        (self.at, self.column) = (start, 0);
    }

    pub fn position(&mut self, offset: usize) -> Position {
        let offset = offset.clamp(self.at, self.text.len());
        while offset > self.line_break {
            self.line += 1;
            self.start_line(self.line_break + 1);
        }
        self.column = if self.ascii {
            (offset - self.line_start) as u32
        } else {
            self.column + utf16_len(&self.text[self.at..offset])
        };
        self.at = offset;
        Position { line: self.line, character: self.column }
    }

    /// Whether `end` is on the line of the last offset placed, before
    /// its break: a token from there to `end` is one line's.
    pub fn in_line(&self, end: usize) -> bool {
        end <= self.content_end
    }
}

/// Where each line of `range` starts and ends (without its break):
/// a token that spans lines, as clients without multi-line tokens
/// take it.
pub fn lines(text: &str, range: std::ops::Range<usize>) -> impl Iterator<Item = std::ops::Range<usize>> + '_ {
    let text = text.as_bytes();
    let range = range.start.min(text.len())..range.end.min(text.len());
    let mut start = range.start;
    let mut breaks = memchr::memchr2_iter(b'\n', b'\r', &text[range.clone()]).map(move |i| range.start + i);
    let end = range.end;
    std::iter::from_fn(move || {
        if start > end {
            return None;
        }
        match breaks.next() {
            Some(brk) => {
                let piece = start..brk;
                let skip = if text[brk] == b'\r' && text.get(brk + 1) == Some(&b'\n') { 2 } else { 1 };
                if skip == 2 {
                    breaks.next();
                }
                start = brk + skip;
                Some(piece)
            }
            None => {
                let piece = start..end;
                start = end + 1;
                Some(piece)
            }
        }
    })
}

/// UTF-16 code units of valid UTF-8 bytes: one per character, two for
/// one of four bytes.
fn utf16_len(bytes: &[u8]) -> u32 {
    if bytes.is_ascii() {
        return bytes.len() as u32;
    }
    bytes.iter().map(|&b| u32::from((b & 0xC0) != 0x80) + u32::from(b >= 0xF0)).sum()
}

/// Applies one content change in place and returns the bytes it replaced
/// (`None` when it replaced everything). A range is clamped and ordered,
/// so no change can panic.
pub fn apply(
    rope: &mut Rope,
    change: &TextDocumentContentChangeEvent,
    enc: Encoding,
) -> Option<std::ops::Range<usize>> {
    match change.range {
        None => {
            *rope = Rope::from_str(&change.text);
            None
        }
        Some(r) => {
            let a = offset(rope, r.start, enc);
            let b = offset(rope, r.end, enc);
            let (start, end) = (a.min(b), a.max(b));
            let (cs, ce) = (rope.byte_to_char(start), rope.byte_to_char(end));
            rope.remove(cs..ce);
            rope.insert(cs, &change.text);
            Some(start..end)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(line: u32, character: u32) -> Position {
        Position { line, character }
    }

    #[test]
    fn utf16_counts_surrogate_pairs() {
        let rope = Rope::from_str("a = \"😀x\"\nb");
        // 😀 is two UTF-16 units and four UTF-8 bytes.
        assert_eq!(offset(&rope, pos(0, 7), Encoding::Utf16), 9);
        assert_eq!(position(&rope, 9, Encoding::Utf16), pos(0, 7));
        assert_eq!(offset(&rope, pos(0, 9), Encoding::Utf8), 9);
        // Inside the pair: stays before the character.
        assert_eq!(offset(&rope, pos(0, 6), Encoding::Utf16), 5);
    }

    #[test]
    fn clamps_out_of_range_positions() {
        let rope = Rope::from_str("ab\r\ncd");
        assert_eq!(offset(&rope, pos(0, 99), Encoding::Utf16), 2);
        assert_eq!(offset(&rope, pos(9, 0), Encoding::Utf8), 6);
        assert_eq!(position(&rope, 999, Encoding::Utf8), pos(1, 2));
    }

    #[test]
    fn a_walk_places_offsets_as_the_rope_does() {
        let text = "a = \"😀x\"\r\nb\rcé = 1\n\nlast";
        let rope = Rope::from_str(text);
        for enc in [Encoding::Utf8, Encoding::Utf16] {
            let mut walk = Walk::new(text, enc);
            for offset in (0..=text.len()).filter(|&o| text.is_char_boundary(o)) {
                assert_eq!(walk.position(offset), position(&rope, offset, enc), "{offset} {enc:?}");
            }
        }
        for enc in [Encoding::Utf8, Encoding::Utf16] {
            for from in (0..=text.len()).filter(|&o| text.is_char_boundary(o)) {
                let mut walk = Walk::starting_at(text, enc, from);
                for offset in (from..=text.len()).filter(|&o| text.is_char_boundary(o)) {
                    assert_eq!(walk.position(offset), position(&rope, offset, enc), "{from} {offset} {enc:?}");
                }
            }
        }
        let pieces: Vec<_> = lines(text, 0..text.len()).map(|r| &text[r]).collect();
        assert_eq!(pieces, ["a = \"😀x\"", "b", "cé = 1", "", "last"]);
    }

    #[test]
    fn cr_alone_is_a_line_break() {
        let rope = Rope::from_str("a\rb\nc");
        assert_eq!(position(&rope, 2, Encoding::Utf8), pos(1, 0));
        assert_eq!(offset(&rope, pos(2, 0), Encoding::Utf8), 4);
    }

    #[test]
    fn reversed_and_overlapping_ranges_do_not_panic() {
        let mut rope = Rope::from_str("hello\nworld");
        let change = TextDocumentContentChangeEvent {
            range: Some(Range { start: pos(1, 3), end: pos(0, 2) }),
            range_length: None,
            text: "X".into(),
        };
        apply(&mut rope, &change, Encoding::Utf16);
        assert_eq!(rope.to_string(), "heXld");
    }
}
