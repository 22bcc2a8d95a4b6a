//! The entries of a publication (one per diagnostic, with its JSON), kept
//! in blocks that know the bytes they take in a message and the span of
//! the document their ranges point at. A keystroke's publication then
//! skips, counts and moves whole blocks of unchanged entries instead of
//! visiting each of a large file's thousands (17,845 at 10 MB): its cost
//! follows what changed, not how much was published.

use std::ops::Range;
use std::path::Path;
use std::sync::Arc;

use super::body::Chunk;
use syntax::diagnostic::{Code, Diagnostic, Related};

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
    /// Those bytes (each shown entry's JSON and a comma), once made; made
    /// again only after an entry's JSON changed.
    chunk: Option<Arc<Vec<u8>>>,
}

fn moved(r: &mut Range<usize>, by: isize) {
    *r = r.start.saturating_add_signed(by)..r.end.saturating_add_signed(by);
}

impl Block {
    fn new(entries: Vec<Entry>, path: &Path) -> Block {
        let mut b = Block { entries, shift: 0, lo: 0, hi: 0, other: false, bytes: 0, chunk: None };
        b.sum(path);
        b
    }

    /// Sums its entries up again (after they changed; their JSON too
    /// unless its chunk is dropped).
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

    /// Drops its chunk (its entries' JSON changed), kept in `spare`.
    fn unmade(&mut self, spare: &mut Vec<Arc<Vec<u8>>>) {
        spare.extend(self.chunk.take());
        spare.truncate(SPARE);
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

    /// Its bytes in a message, made when they are not yet (in the buffer
    /// of a spare chunk no message holds any more, when there is one).
    fn chunk(&mut self, spare: &mut Vec<Arc<Vec<u8>>>) -> Arc<Vec<u8>> {
        let bytes = self.bytes;
        let entries = &self.entries;
        (self.chunk.get_or_insert_with(|| {
            let mut out = std::iter::from_fn(|| spare.pop())
                .find_map(|mut c| Arc::get_mut(&mut c).map(std::mem::take))
                .unwrap_or_default();
            out.clear();
            out.reserve(bytes);
            for e in entries.iter().filter(|e| !e.json.is_empty()) {
                out.extend_from_slice(e.json.as_bytes());
                out.push(b',');
            }
            Arc::new(out)
        }))
        .clone()
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
    /// Chunks dropped since the last message was made. Their buffers make
    /// the next ones once the writer let go of that message: a new 20 KB
    /// buffer per changed block cost more than copying into it (making
    /// the chunks of a 10 MB rename: 84 -> 50 µs p50 with them).
    spare: Vec<Arc<Vec<u8>>>,
}

/// How many spare chunks are kept at most.
const SPARE: usize = 16;

impl Entries {
    pub fn new(entries: Vec<Entry>, path: &Path) -> Entries {
        let len = entries.len();
        Entries { blocks: blocks(entries, path), len, spare: Vec::new() }
    }

    pub fn len(&self) -> usize {
        self.len
    }

    /// The bytes of its blocks in a message, in order (those of shown
    /// entries only): each shown entry's JSON and a comma.
    pub fn chunks(&mut self, out: &mut Vec<Chunk>) {
        for b in self.blocks.iter_mut().filter(|b| b.bytes > 0) {
            out.push(Chunk::shared(b.chunk(&mut self.spare)));
        }
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
    /// given to `each` (index from the last entry, entry; settled), which
    /// says whether the entry's JSON changed.
    pub fn follow_back(
        &mut self,
        back: usize,
        path: &Path,
        by: Option<isize>,
        lazy: impl Fn(Span) -> bool,
        mut each: impl FnMut(usize, &mut Entry) -> bool,
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
                    let mut changed = false;
                    for (k, e) in b.entries[len - n..].iter_mut().rev().enumerate() {
                        changed |= each(count + k, e);
                    }
                    if changed {
                        b.unmade(&mut self.spare);
                    }
                    b.sum(path);
                }
            }
            count += n;
        }
    }

    /// Replaces the entries of `range` by what `f` makes of them (given
    /// them settled, in order; each made one with the index among them of
    /// the old entry it is, its JSON unchanged). Only the blocks they were
    /// in are made again (with a small neighbour), and of those a block
    /// whose entries all stay, in order and as they were, keeps its chunk.
    pub fn replace(
        &mut self,
        range: Range<usize>,
        path: &Path,
        f: impl FnOnce(&mut Vec<Entry>) -> Vec<(Entry, Option<usize>)>,
    ) {
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
            *self = Entries::new(fresh.into_iter().map(|(e, _)| e).collect(), path);
            return;
        };
        let small = |blocks: &[Block]| blocks.iter().map(|b| b.entries.len()).sum::<usize>() < BLOCK / 2;
        if last + 1 < self.blocks.len() && small(&self.blocks[first..=last]) {
            last += 1;
        }
        // The old entries in one list; where each block's were in it.
        let (mut old, mut was) = (Vec::new(), Vec::new());
        for mut b in self.blocks.drain(first..=last) {
            b.settle(path);
            was.push((old.len()..old.len() + b.entries.len(), b.chunk.take()));
            old.append(&mut b.entries);
        }
        visit(old.len());
        let head = range.start - first_start;
        let tail = old.split_off(head + range.len());
        let mut middle = old.split_off(head);
        let fresh = f(&mut middle);
        self.len = self.len - range.len() + fresh.len();
        // Where each old entry that stays as it was is now.
        let mut now = vec![usize::MAX; head + range.len() + tail.len()];
        (0..head).for_each(|i| now[i] = i);
        for (k, (_, j)) in fresh.iter().enumerate() {
            if let Some(j) = j {
                now[head + j] = head + k;
            }
        }
        let after = head + fresh.len();
        (0..tail.len()).for_each(|i| now[head + range.len() + i] = after + i);
        // The blocks that stay (where they start now, their chunk).
        // (In order, apart: a block that would overlap the last kept one is
        // made again, whatever the caller said.)
        let mut stay = Vec::new();
        let mut free = 0;
        for (at, chunk) in was {
            let to = now[at.start];
            let kept = |i: usize| now[i] == to + i - at.start;
            match chunk {
                Some(c) if !at.is_empty() && to != usize::MAX && to >= free && at.clone().all(kept) => {
                    free = to + at.len();
                    stay.push((to, at.len(), c))
                }
                c => self.spare.extend(c),
            }
        }
        self.spare.truncate(SPARE);
        let mut entries = old.into_iter().chain(fresh.into_iter().map(|(e, _)| e)).chain(tail);
        let mut made = Vec::new();
        let mut done = 0;
        for (to, n, chunk) in stay {
            let mut between: Vec<Entry> = entries.by_ref().take(to - done).collect();
            let own = entries.by_ref().take(n);
            done = to + n;
            // Few entries between join the block after them (remade).
            if !between.is_empty() && between.len() < BLOCK / 2 {
                between.extend(own);
                made.push(Block::new(between, path));
                self.spare.push(chunk);
                continue;
            }
            made.extend(blocks(between, path));
            let mut b = Block::new(own.collect(), path);
            b.chunk = Some(chunk);
            made.push(b);
        }
        let rest: Vec<Entry> = entries.collect();
        match made.last_mut() {
            Some(b) if !rest.is_empty() && rest.len() < BLOCK / 2 => {
                b.entries.extend(rest);
                b.unmade(&mut self.spare);
                b.sum(path);
            }
            _ => made.extend(blocks(rest, path)),
        }
        self.blocks.splice(first..first, made);
        self.spare.truncate(SPARE);
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

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(k: usize, text: &str) -> Entry {
        let at = (k as u32, 0);
        let json = if text.is_empty() { String::new() } else { format!(r#"{{"{text}":{k}}}"#) };
        Entry { diag: Diagnostic::new(Code::ALL[0], k..k + 1, String::new()), range: (at, at), related: vec![], json }
    }

    fn chunks(entries: &mut Entries) -> Vec<Arc<Vec<u8>>> {
        let mut out = Vec::new();
        entries.chunks(&mut out);
        out.into_iter().map(|c| if let Chunk::Shared(b, _) = c { b } else { unreachable!() }).collect()
    }

    #[test]
    fn a_replace_keeps_the_chunks_of_the_blocks_it_left_as_they_were() {
        let path = Path::new("/m/main.tf");
        let mut entries = Entries::new((0..30).map(|k| entry(k, "a")).collect(), path);
        let before = chunks(&mut entries);
        assert_eq!(before.len(), 10);
        // Of 2..25, entry 4 changes, one comes after 12, 20 is switched off.
        entries.replace(2..25, path, |old| {
            let mut fresh = Vec::new();
            for (j, e) in old.iter_mut().enumerate() {
                let k = j + 2;
                let e = std::mem::replace(e, Entry::placeholder());
                match k {
                    4 => fresh.push((entry(k, "b"), None)),
                    20 => fresh.push((entry(k, ""), None)),
                    _ => fresh.push((e, Some(j))),
                }
                if k == 12 {
                    fresh.push((entry(100, "c"), None));
                }
            }
            fresh
        });
        assert_eq!(entries.len(), 31);
        let after = chunks(&mut entries);
        let joined: Vec<u8> = after.iter().flat_map(|c| c.iter().copied()).collect();
        let expected: String = (0..30)
            .flat_map(|k| match k {
                4 => vec![r#"{"b":4},"#.to_string()],
                12 => vec![r#"{"a":12},"#.to_string(), r#"{"c":100},"#.to_string()],
                20 => vec![],
                _ => vec![format!(r#"{{"a":{k}}},"#)],
            })
            .collect();
        assert_eq!(String::from_utf8(joined).unwrap(), expected);
        // Blocks 1 (entry 4), 4 (12) and 6 (20) are made again, not the others.
        let kept: Vec<usize> = (0..10).filter(|&k| after.iter().any(|c| Arc::ptr_eq(c, &before[k]))).collect();
        assert_eq!(kept, [0, 2, 3, 5, 7, 8, 9]);
    }
}
