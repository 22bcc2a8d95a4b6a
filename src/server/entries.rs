//! The entries of a publication (one per diagnostic, with its JSON), kept
//! in blocks that know the bytes they take in a message and the span of
//! the document their ranges point at. A keystroke's publication then
//! skips, counts and moves whole blocks of unchanged entries instead of
//! visiting each of a large file's thousands (17,845 at 10 MB): its cost
//! follows what changed, not how much was published.

use std::ops::Range;
use std::path::Path;
use std::sync::Arc;

use crate::diagnostic::{Code, Diagnostic, Related};

/// A position as LSP counts it: (line, character).
pub type Pos = (u32, u32);

/// One diagnostic as last published.
pub struct Entry {
    /// As analysis gave it (byte ranges in the text it was converted for;
    /// in a block, before the block's pending `shift`).
    pub diag: Diagnostic,
    pub range: (Pos, Pos),
    /// Per related location: its document's URI (as JSON) and its range.
    pub related: Vec<(Arc<str>, (Pos, Pos))>,
    /// The LSP diagnostic as JSON; empty when its code is switched off.
    pub json: String,
}

impl Entry {
    /// What an entry taken out of a list leaves behind (allocates nothing).
    pub fn placeholder() -> Entry {
        Entry {
            diag: Diagnostic::new(Code::ALL[0], 0..0, String::new()),
            range: ((0, 0), (0, 0)),
            related: Vec::new(),
            json: String::new(),
        }
    }

    /// The bytes it takes in a message (its JSON and a comma).
    pub fn shown(&self) -> usize {
        if self.json.is_empty() {
            0
        } else {
            self.json.len() + 1
        }
    }
}

/// Whether a related location lies in the document itself.
pub fn here(r: &Related, path: &Path) -> bool {
    r.path.as_deref().is_none_or(|p| p == path)
}

/// Entries per block when blocks are made (a block's entries are visited
/// one by one only where a change falls). Small in tests, so that they
/// cross blocks.
pub const BLOCK: usize = if cfg!(test) { 3 } else { 64 };

// Entries visited one by one, per thread (tests check that a keystroke
// visits few).
#[cfg(test)]
thread_local! {
    pub static VISITED: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

fn visit(_n: usize) {
    #[cfg(test)]
    VISITED.with(|v| v.set(v.get() + _n));
}

/// What a block's entries point at in the document (their own ranges and
/// their related locations there): the lowest start and highest end,
/// moved by the pending shift; and whether a related location lies in
/// another file.
#[derive(Clone, Copy)]
pub struct Span {
    pub lo: usize,
    pub hi: usize,
    pub other: bool,
}

struct Block {
    entries: Vec<Entry>,
    /// Bytes not yet added to its entries' offsets in the document (the
    /// text before them changed length; they moved with it).
    shift: isize,
    /// [`Span`] before the shift.
    lo: usize,
    hi: usize,
    other: bool,
    /// The bytes its entries take in a message.
    bytes: usize,
}

fn moved(r: &mut Range<usize>, by: isize) {
    *r = r.start.saturating_add_signed(by)..r.end.saturating_add_signed(by);
}

impl Block {
    fn new(entries: Vec<Entry>, path: &Path) -> Block {
        let mut b = Block { entries, shift: 0, lo: 0, hi: 0, other: false, bytes: 0 };
        b.sum(path);
        b
    }

    /// Sums its entries up again (after they changed).
    fn sum(&mut self, path: &Path) {
        let (mut lo, mut hi, mut other, mut bytes) = (usize::MAX, 0, false, 0);
        for e in &self.entries {
            bytes += e.shown();
            (lo, hi) = (lo.min(e.diag.range.start), hi.max(e.diag.range.end));
            for r in &e.diag.related {
                if here(r, path) {
                    (lo, hi) = (lo.min(r.range.start), hi.max(r.range.end));
                } else {
                    other = true;
                }
            }
        }
        (self.lo, self.hi, self.other, self.bytes) = (lo, hi, other, bytes);
    }

    /// Adds the pending shift to its entries' offsets.
    fn settle(&mut self, path: &Path) {
        let by = std::mem::take(&mut self.shift);
        if by == 0 {
            return;
        }
        for e in &mut self.entries {
            moved(&mut e.diag.range, by);
            for r in e.diag.related.iter_mut().filter(|r| here(r, path)) {
                moved(&mut r.range, by);
            }
        }
        (self.lo, self.hi) = (self.lo.saturating_add_signed(by), self.hi.saturating_add_signed(by));
    }

    fn span(&self) -> Span {
        let by = self.shift;
        Span { lo: self.lo.saturating_add_signed(by), hi: self.hi.saturating_add_signed(by), other: self.other }
    }
}

/// A publication's entries, in text order.
#[derive(Default)]
pub struct Entries {
    blocks: Vec<Block>,
    len: usize,
}

impl Entries {
    pub fn new(entries: Vec<Entry>, path: &Path) -> Entries {
        let len = entries.len();
        Entries { blocks: blocks(entries, path), len }
    }

    pub fn len(&self) -> usize {
        self.len
    }

    /// Calls `f` with each entry of `range` in order (for its JSON: its
    /// diagnostic's offsets may lag behind the text, see [`Block::shift`]).
    pub fn each(&self, range: Range<usize>, mut f: impl FnMut(&Entry)) {
        let mut start = 0;
        for b in &self.blocks {
            let end = start + b.entries.len();
            if end > range.start && start < range.end {
                let from = range.start.max(start) - start;
                let to = range.end.min(end) - start;
                b.entries[from..to].iter().for_each(&mut f);
            }
            start = end;
            if start >= range.end {
                break;
            }
        }
    }

    /// The bytes the entries of `range` take in a message.
    pub fn bytes(&self, range: Range<usize>) -> usize {
        let (mut sum, mut start) = (0, 0);
        for b in &self.blocks {
            let end = start + b.entries.len();
            if range.start <= start && end <= range.end {
                sum += b.bytes;
            } else if end > range.start && start < range.end {
                let from = range.start.max(start) - start;
                visit(range.end.min(end) - start - from);
                sum += b.entries[from..range.end.min(end) - start].iter().map(Entry::shown).sum::<usize>();
            }
            start = end;
            if start >= range.end {
                break;
            }
        }
        sum
    }

    /// How many of the first entries (at most `most`; of the last ones
    /// `from_end`) pass: a whole block (its entries' indices, counted from
    /// the end `from_end`, and its span) when `whole` says so, else each
    /// of its entries (index, entry; offsets settled) while `each` does.
    pub fn pass(
        &mut self,
        from_end: bool,
        most: usize,
        path: &Path,
        whole: impl Fn(Range<usize>, Span) -> bool,
        mut each: impl FnMut(usize, &Entry) -> bool,
    ) -> usize {
        let mut count = 0;
        let blocks: Box<dyn Iterator<Item = &mut Block>> =
            if from_end { Box::new(self.blocks.iter_mut().rev()) } else { Box::new(self.blocks.iter_mut()) };
        for b in blocks {
            let n = b.entries.len();
            if count + n <= most && whole(count..count + n, b.span()) {
                count += n;
                continue;
            }
            b.settle(path);
            for k in 0..n {
                visit(1);
                let e = &b.entries[if from_end { n - 1 - k } else { k }];
                if count == most || !each(count, e) {
                    return count;
                }
                count += 1;
            }
        }
        count
    }

    /// Brings the last `back` entries along with the text: a whole block
    /// whose span `lazy` accepts only gets a pending shift of `by` bytes
    /// (when given: no line moved, so their JSON stays); the others are
    /// given to `each` (index from the last entry, entry; settled).
    pub fn follow_back(
        &mut self,
        back: usize,
        path: &Path,
        by: Option<isize>,
        lazy: impl Fn(Span) -> bool,
        mut each: impl FnMut(usize, &mut Entry),
    ) {
        let mut count = 0;
        for b in self.blocks.iter_mut().rev() {
            if count == back {
                break;
            }
            let n = b.entries.len().min(back - count);
            match by {
                Some(by) if n == b.entries.len() && lazy(b.span()) => b.shift += by,
                _ => {
                    b.settle(path);
                    let len = b.entries.len();
                    visit(len);
                    for (k, e) in b.entries[len - n..].iter_mut().rev().enumerate() {
                        each(count + k, e);
                    }
                    b.sum(path);
                }
            }
            count += n;
        }
    }

    /// Replaces the entries of `range` by what `f` makes of them (given
    /// them settled, in order); only the blocks they were in are made
    /// again (with a small neighbour).
    pub fn replace(&mut self, range: Range<usize>, path: &Path, f: impl FnOnce(&mut Vec<Entry>) -> Vec<Entry>) {
        // The blocks holding the range (an empty one: where it is), and
        // the index of the first one's first entry.
        let (mut first, mut last, mut first_start, mut start) = (None, 0, 0, 0);
        for (k, b) in self.blocks.iter().enumerate() {
            let end = start + b.entries.len();
            let last_block = k + 1 == self.blocks.len();
            if first.is_none() && (range.start < end || last_block) {
                (first, first_start) = (Some(k), start);
            }
            if first.is_some() {
                last = k;
                if range.end <= end || last_block {
                    break;
                }
            }
            start = end;
        }
        let Some(first) = first else {
            let fresh = f(&mut Vec::new());
            *self = Entries::new(fresh, path);
            return;
        };
        let small = |blocks: &[Block]| blocks.iter().map(|b| b.entries.len()).sum::<usize>() < BLOCK / 2;
        if last + 1 < self.blocks.len() && small(&self.blocks[first..=last]) {
            last += 1;
        }
        let mut old = Vec::new();
        for mut b in self.blocks.drain(first..=last) {
            b.settle(path);
            old.append(&mut b.entries);
        }
        visit(old.len());
        let head = range.start - first_start;
        let mut tail = old.split_off(head + range.len());
        let mut middle = old.split_off(head);
        let fresh = f(&mut middle);
        self.len = self.len - range.len() + fresh.len();
        old.extend(fresh);
        old.append(&mut tail);
        self.blocks.splice(first..first, blocks(old, path));
    }
}

/// `entries` in blocks of about [`BLOCK`] entries.
fn blocks(mut entries: Vec<Entry>, path: &Path) -> Vec<Block> {
    let count = entries.len().div_ceil(BLOCK);
    let mut out = Vec::with_capacity(count);
    for k in (0..count).rev() {
        let from = entries.len() * k / (k + 1);
        out.push(Block::new(entries.split_off(from), path));
    }
    out.reverse();
    out
}
