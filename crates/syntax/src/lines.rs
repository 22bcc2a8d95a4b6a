//! Lines and columns of byte offsets, as people read them: one way for
//! every printer (the command line's reports, SARIF, hovers, template
//! errors). The language server's positions are its own (`lsp::text`: the
//! client's encoding, through ropes).

/// 1-based line and column (in characters) of a byte offset.
pub struct LineIndex {
    starts: Vec<usize>,
    /// The characters before every [`BLOCK`]th byte: a column is counted
    /// from the nearest block start, not from its line's start, which on a
    /// generated one-line file of 10 MB with a hint per element made
    /// printing quadratic.
    chars: Vec<usize>,
}

/// Bytes between the character counts a [`LineIndex`] keeps.
const BLOCK: usize = 4096;

/// The characters starting in `bytes` (those that are not UTF-8 continuation bytes).
fn char_starts(bytes: &[u8]) -> usize {
    bytes.iter().filter(|&&b| (b as i8) >= -0x40).count()
}

impl LineIndex {
    pub fn new(text: &str) -> Self {
        let b = text.as_bytes();
        let mut starts = vec![0];
        let mut i = 0;
        while i < b.len() {
            match b[i] {
                b'\n' => starts.push(i + 1),
                b'\r' if b.get(i + 1) != Some(&b'\n') => starts.push(i + 1),
                _ => {}
            }
            i += 1;
        }
        let mut chars = vec![0];
        for block in b.chunks(BLOCK) {
            chars.push(chars[chars.len() - 1] + char_starts(block));
        }
        LineIndex { starts, chars }
    }

    /// The characters starting before byte `offset` (at most the text's length).
    fn chars_before(&self, text: &str, offset: usize) -> usize {
        let block = offset / BLOCK;
        self.chars[block] + char_starts(&text.as_bytes()[block * BLOCK..offset])
    }

    pub fn position(&self, text: &str, offset: usize) -> (usize, usize) {
        let offset = offset.min(text.len());
        let line = self.starts.partition_point(|&s| s <= offset) - 1;
        let start = self.starts[line];
        let col = if text.is_char_boundary(start) && text.is_char_boundary(offset) {
            // A short line's characters are counted where they are; two
            // counts from block starts cost up to 8 KB each (a 10 MB
            // `check` printing 28,000 diagnostics spent 3.5% of its time here).
            match offset - start < BLOCK {
                true => char_starts(&text.as_bytes()[start..offset]),
                false => self.chars_before(text, offset) - self.chars_before(text, start),
            }
        } else {
            offset - start
        };
        (line + 1, col + 1)
    }
}

/// The 1-based line and column (in characters) of one offset, as
/// [`LineIndex::position`] gives it, without building an index (for many
/// offsets of one text, keep a [`LineIndex`]). A hover asks for one line of
/// a 10 MB file: an index of it took 16 ms, this scan well under one.
pub fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let offset = offset.min(text.len());
    let b = &text.as_bytes()[..offset];
    // Line breaks: `\n`, and a `\r` not followed by `\n` (the byte after
    // the prefix counts for its last `\r`).
    let mut line = memchr::memchr_iter(b'\n', b).count();
    let mut start = memchr::memrchr(b'\n', b).map_or(0, |i| i + 1);
    if memchr::memchr(b'\r', b).is_some() {
        let all = text.as_bytes();
        for i in memchr::memchr_iter(b'\r', b) {
            if all.get(i + 1) != Some(&b'\n') {
                line += 1;
                start = start.max(i + 1);
            }
        }
    }
    let col = match text.get(start..offset) {
        Some(s) => s.chars().count(),
        None => offset - start,
    };
    (line + 1, col + 1)
}

/// The line breaks starting in `text[from..to]`: `\n`, and a `\r` not
/// followed by `\n` (the byte after `to` counts for a `\r` at its end), so
/// that the breaks before `b` are those before `a` plus those in `a..b`.
/// What lets a document count a line from its nearest item, whose first
/// line it keeps, instead of from the start of a 10 MB text.
pub fn line_breaks(text: &str, from: usize, to: usize) -> usize {
    let to = to.min(text.len());
    let from = from.min(to);
    let b = &text.as_bytes()[from..to];
    let mut n = memchr::memchr_iter(b'\n', b).count();
    if memchr::memchr(b'\r', b).is_some() {
        let all = text.as_bytes();
        n += memchr::memchr_iter(b'\r', b).filter(|&i| all.get(from + i + 1) != Some(&b'\n')).count();
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_and_columns_count_characters_and_every_line_break() {
        let text = "ab\r\nc\u{e9}d\re\nf";
        let index = LineIndex::new(text);
        let at = |o| index.position(text, o);
        assert_eq!(at(0), (1, 1));
        assert_eq!(at(4), (2, 1));
        // (é is two bytes, one column.)
        assert_eq!(at(7), (2, 3));
        assert_eq!(at(9), (3, 1), "a lone CR ends a line");
        assert_eq!(at(11), (4, 1));
        assert_eq!(at(999), (4, 2), "clamped to the end");
        assert_eq!(line_col(text, 7), (2, 3));
    }

    /// The one-offset scan and the index agree everywhere, on texts of
    /// every line break and multi-byte characters.
    #[test]
    fn one_offset_and_the_index_agree() {
        let parts = ["a", "\n", "\r", "\r\n", "\u{e9}", "\u{1f600}", "  "];
        let mut seed = 7u64;
        for _ in 0..200 {
            let mut text = String::new();
            for _ in 0..30 {
                seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                text.push_str(parts[(seed >> 33) as usize % parts.len()]);
            }
            let index = LineIndex::new(&text);
            for o in 0..=text.len() + 1 {
                assert_eq!(line_col(&text, o), index.position(&text, o), "{text:?} at {o}");
                let mid = o / 2;
                assert_eq!(line_breaks(&text, 0, mid) + line_breaks(&text, mid, o) + 1, line_col(&text, o).0);
            }
        }
    }
}
