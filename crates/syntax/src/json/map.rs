//! Where each piece of a JSON file's lowering came from.
//!
//! The lowering keeps tokens at their JSON offsets where it can, but it
//! cannot always: a one-line (minified) file needs a newline after every
//! attribute in HCL, and a header `variable "n" {` is longer than the
//! `"n": {` it stands for. So the lowering also records, for each piece it
//! writes, the JSON bytes the piece stands for, and the editor-facing
//! layers (diagnostics, hover, definition) translate offsets through this
//! map instead of trusting the alignment.

/// A run of the lowered text that stands for JSON bytes: `len` bytes from
/// `out` are the `len` bytes from `src` (a piece written in place of JSON
/// text, such as `=` for `:` or a decoded escape, has `len` 0 and stands
/// for the JSON offset `src`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Seg {
    out: usize,
    src: usize,
    len: usize,
}

/// Offsets of a lowering to offsets of its JSON and back.
#[derive(Debug, Clone, Default)]
pub struct SourceMap {
    /// In the order written: ascending `out`.
    segs: Vec<Seg>,
    /// Indices into `segs` by ascending `src`, longer runs and earlier
    /// pieces first among equal `src` (a block type's name is written
    /// once per block: its first block stands for it).
    by_src: Vec<u32>,
}

impl SourceMap {
    /// Records that `len` bytes written at `out` are the JSON's at `src`.
    pub(super) fn push(&mut self, out: usize, src: usize, len: usize) {
        // A piece that continues the run before lengthens it (strings are
        // written a character at a time).
        if let Some(last) = self.segs.last_mut() {
            if len > 0 && last.len > 0 && last.out + last.len == out && last.src + last.len == src {
                last.len += len;
                return;
            }
        }
        self.segs.push(Seg { out, src, len });
    }

    /// Makes the map searchable by JSON offset (after the last `push`).
    pub(super) fn finish(&mut self) {
        let mut by: Vec<u32> = (0..self.segs.len() as u32).collect();
        by.sort_by_key(|&i| {
            let s = self.segs[i as usize];
            (s.src, std::cmp::Reverse(s.len), s.out)
        });
        self.by_src = by;
    }

    /// The JSON offset that lowered offset `o` stands for: inside a run,
    /// the same byte of the JSON; between runs (padding, newlines the
    /// lowering added), the end of the run before.
    pub fn to_source(&self, o: usize) -> usize {
        let i = self.segs.partition_point(|s| s.out <= o);
        match i.checked_sub(1).and_then(|i| self.segs.get(i)) {
            Some(s) => s.src + (o - s.out).min(s.len),
            None => o,
        }
    }

    /// Where lowered range `r` is in the JSON: its end is the byte after the
    /// last one, mapped as that last byte, so a range ending at a run's end
    /// stays in the run.
    pub fn range_to_source(&self, r: &std::ops::Range<usize>) -> std::ops::Range<usize> {
        let start = self.to_source(r.start);
        let end = if r.end > r.start { self.to_source(r.end - 1) + 1 } else { start };
        start..end.max(start)
    }

    /// The lowered offset JSON offset `j` is read at: inside a run, the
    /// same byte; elsewhere (JSON punctuation and spaces the lowering has
    /// no piece for), just after the run before it.
    pub fn to_lowered(&self, j: usize) -> usize {
        let at = self.by_src.partition_point(|&i| self.segs[i as usize].src <= j);
        let Some(last) = at.checked_sub(1) else { return 0 };
        // Among the runs starting at the same JSON offset, the first in
        // `by_src` order (longest, then earliest written).
        let src = self.segs[self.by_src[last] as usize].src;
        let first = self.by_src[..at].partition_point(|&i| self.segs[i as usize].src < src);
        // A run starting earlier that still holds `j` (a string around a
        // decoded escape) wins over a piece starting inside it.
        let candidates = self.by_src[..at].iter().rev().take(8).map(|&i| self.segs[i as usize]);
        let holding = candidates.filter(|s| j < s.src + s.len).min_by_key(|s| (s.len, s.out));
        let s = holding.unwrap_or(self.segs[self.by_src[first] as usize]);
        s.out + (j - s.src).min(s.len)
    }
}
