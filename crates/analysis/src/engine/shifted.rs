//! Lists of things placed in a document (its type nodes, the module
//! signature's item places) kept by a patch without moving every element
//! after the edit: a large file has some 150k type nodes and 17k items,
//! and a keystroke moves most of them. The move is held as one pending
//! shift of the elements from an index on, applied when they are read; a
//! patch makes it real only between its edit and the last one (typing
//! at one spot moves nothing, a keystroke elsewhere what lies between).

use std::ops::Range;

use syntax::typeexpr::{NodeKind, TypeNode};
use types::Type;

use super::results::Window;
use crate::document::ItemId;
use crate::module::Placed;

/// Elements sorted by where they start, the ones from index `from` on
/// lying `by` bytes further than stored.
#[derive(Clone, Debug)]
pub struct Shifted<T> {
    items: Vec<T>,
    from: usize,
    by: isize,
}

/// Where a placed element starts (what it is sorted by).
pub(in crate::module) trait Starts: Placed {
    fn start(&self) -> usize;
}

impl Starts for TypeNode {
    fn start(&self) -> usize {
        self.range.start
    }
}

impl Placed for (ItemId, Range<usize>) {
    fn map_ranges(&mut self, f: impl Fn(&Range<usize>) -> Range<usize>) {
        self.1 = f(&self.1);
    }
}

impl Starts for (ItemId, Range<usize>) {
    fn start(&self) -> usize {
        self.1.start
    }
}

/// A document's type nodes.
pub type TypeNodes = Shifted<TypeNode>;

/// A type node at its place.
#[derive(Clone, Debug)]
pub struct NodeAt<'a> {
    pub range: Range<usize>,
    pub name_range: Range<usize>,
    pub kind: NodeKind,
    pub ty: &'a Type,
}

fn moved(r: &Range<usize>, by: isize) -> Range<usize> {
    r.start.saturating_add_signed(by)..r.end.saturating_add_signed(by)
}

impl<T> Shifted<T> {
    pub fn len(&self) -> usize {
        self.items.len()
    }

    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    fn shift(&self, i: usize) -> isize {
        if i >= self.from {
            self.by
        } else {
            0
        }
    }

    /// The elements as stored (what does not move: ids, kinds).
    pub(in crate::module) fn stored(&self) -> &[T] {
        &self.items
    }
}

impl TypeNodes {
    /// Node `i` at its place.
    pub fn get(&self, i: usize) -> Option<NodeAt<'_>> {
        let n = self.items.get(i)?;
        let by = self.shift(i);
        Some(NodeAt { range: moved(&n.range, by), name_range: moved(&n.name_range, by), kind: n.kind, ty: &n.ty })
    }

    /// The nodes in order, at their places.
    pub fn iter(&self) -> impl Iterator<Item = NodeAt<'_>> + '_ {
        (0..self.items.len()).filter_map(|i| self.get(i))
    }

    /// The index of the first node whose start `before` says no to (the
    /// nodes for which it says yes come first).
    pub fn partition_point(&self, before: impl Fn(usize) -> bool) -> usize {
        self.point(before)
    }
}

// (What a `Shifted` holds is this module's business: its users read
// type nodes through the methods above.)
#[allow(private_bounds)]
impl<T: Starts> Shifted<T> {
    /// Element `i` at its place.
    pub(in crate::module) fn at(&self, i: usize) -> T {
        let mut x = self.items[i].clone();
        let by = self.shift(i);
        if by != 0 {
            x.map_ranges(|r| moved(r, by));
        }
        x
    }

    /// Where element `i` starts.
    fn start(&self, i: usize) -> usize {
        self.items[i].start().saturating_add_signed(self.shift(i))
    }

    /// The index of the first element whose start `before` says no to.
    pub(in crate::module) fn point(&self, before: impl Fn(usize) -> bool) -> usize {
        let (mut lo, mut hi) = (0, self.items.len());
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            if before(self.start(mid)) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        lo
    }

    /// The elements with the pending shift applied: for changes that are
    /// not one window (every element visited once).
    pub(in crate::module) fn settled(&mut self) -> &mut Vec<T> {
        let by = std::mem::take(&mut self.by);
        if by != 0 {
            for x in self.items.iter_mut().skip(self.from) {
                x.map_ranges(|r| moved(r, by));
            }
        }
        self.from = self.items.len();
        &mut self.items
    }

    /// Replaces the elements that start in each of `parts`' ranges (sorted,
    /// apart, at their places) by that part's elements (at their places).
    /// A part as long as what it replaces is written in place, under the
    /// pending shift, which stays: the items a rename checks again lie
    /// all over the file, and settling the shift to reach them moved
    /// some 100k type nodes per keystroke. Other parts settle it first.
    pub(in crate::module) fn replace_parts(&mut self, parts: Vec<(Range<usize>, Vec<T>)>) {
        let spans: Vec<Range<usize>> =
            parts.iter().map(|(r, _)| self.point(|s| s < r.start)..self.point(|s| s < r.end)).collect();
        let (from, by) = (self.from, self.by);
        // (Under the shift, an element is where it was before it: never
        // before the start of the text.)
        let before = |x: &T| x.start().checked_add_signed(-by).is_some();
        let in_place = parts.iter().zip(&spans).all(|((_, fresh), s)| {
            fresh.len() == s.len() && (s.end <= from || (s.start >= from && fresh.iter().all(before)))
        });
        if !in_place {
            super::results::replace_parts(self.settled(), parts, |x| x.start());
            return;
        }
        for ((_, fresh), s) in parts.into_iter().zip(spans) {
            let back = if s.start >= from { -by } else { 0 };
            for (slot, mut x) in self.items[s].iter_mut().zip(fresh) {
                if back != 0 {
                    x.map_ranges(|r| moved(r, back));
                }
                *slot = x;
            }
        }
    }

    /// Replaces the elements in the window by `fresh` (at their places)
    /// and moves those after it: the pending shift and the window's are
    /// made one by moving the elements between the two.
    pub(in crate::module) fn splice(&mut self, window: &Window, fresh: Vec<T>) {
        let from = self.point(|s| s < window.lo);
        let to = self.point(|s| s < window.hi).max(from);
        let add = |xs: &mut [T], by: isize| {
            for x in xs {
                x.map_ranges(|r| moved(r, by));
            }
        };
        let (f, d) = (self.from, self.by);
        let len = fresh.len();
        let pending = if d == 0 || f >= self.items.len() {
            0
        } else if f >= to {
            // The pending elements lie after the window: those between
            // move by the window's shift alone.
            add(&mut self.items[to..f], window.delta);
            d
        } else {
            if f < from {
                // Before it: those between are where the pending shift says.
                add(&mut self.items[f..from], d);
            }
            d
        };
        let next = if pending != 0 && f >= to { f - (to - from) + len } else { from + len };
        self.items.splice(from..to, fresh);
        (self.from, self.by) = (next, pending + window.delta);
    }
}

impl<T> Default for Shifted<T> {
    fn default() -> Shifted<T> {
        Vec::new().into()
    }
}

impl<T> From<Vec<T>> for Shifted<T> {
    fn from(items: Vec<T>) -> Shifted<T> {
        Shifted { from: items.len(), items, by: 0 }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node(at: usize) -> TypeNode {
        TypeNode { range: at..at + 2, name_range: at..at + 1, kind: NodeKind::Keyword, ty: Type::any() }
    }

    fn starts(t: &TypeNodes) -> Vec<usize> {
        t.iter().map(|n| n.range.start).collect()
    }

    /// Splices at random windows give the nodes a plain list moved by
    /// hand gives, whatever the pending shift was.
    #[test]
    fn splices_with_a_pending_shift_equal_moving_every_node() {
        for seed in 1..=50 {
            let mut rng = types::testing::Rng::new(seed);
            let mut plain: Vec<usize> = (0..40).map(|i| i * 10).collect();
            let mut nodes = TypeNodes::from(plain.iter().map(|&s| node(s)).collect::<Vec<_>>());
            for step in 0..40 {
                let end = plain.last().map_or(0, |l| l + 10);
                let lo = rng.below(end + 1);
                let hi = if rng.below(5) == 0 { usize::MAX } else { lo + rng.below(30) + 1 };
                let delta = if hi == usize::MAX { 0 } else { rng.below(21) as isize - 10 };
                let delta = delta.max(-(hi.saturating_sub(lo) as isize));
                let fresh: Vec<usize> =
                    (0..rng.below(3)).map(|j| lo + j).filter(|&s| s < hi.saturating_add_signed(delta)).collect();
                let window = Window { lo, hi, delta };
                let mut next: Vec<usize> = plain.iter().copied().filter(|&s| s < lo).collect();
                next.extend(&fresh);
                next.extend(plain.iter().filter(|&&s| s >= hi).map(|&s| s.saturating_add_signed(delta)));
                plain = next;
                nodes.splice(&window, fresh.iter().map(|&s| node(s)).collect());
                assert_eq!(starts(&nodes), plain, "seed {seed} step {step}");
                if rng.below(3) == 0 {
                    // Items checked again: parts of the list replaced, most
                    // by as many nodes (written under the pending shift).
                    let end = plain.last().map_or(0, |l| l + 10);
                    let mut parts = Vec::new();
                    let mut at = rng.below(end / 2 + 1);
                    while at < end && parts.len() < 3 {
                        let r = at..at + rng.below(25) + 1;
                        let inside = plain.iter().filter(|s| r.contains(s)).count();
                        let n = if rng.below(4) == 0 { rng.below(3) } else { inside };
                        let mut fresh: Vec<usize> = if n == inside && rng.below(2) == 0 {
                            // (As a check again most often gives: the same places.)
                            plain.iter().copied().filter(|s| r.contains(s)).collect()
                        } else {
                            (0..n).map(|j| r.start + j % r.len()).collect()
                        };
                        fresh.sort_unstable();
                        at = r.end + rng.below(40);
                        parts.push((r, fresh));
                    }
                    plain = types::testing::replaced(&plain, &parts);
                    nodes.replace_parts(
                        parts.into_iter().map(|(r, f)| (r, f.into_iter().map(node).collect())).collect(),
                    );
                    assert_eq!(starts(&nodes), plain, "parts: seed {seed} step {step}");
                }
                if rng.below(6) == 0 {
                    nodes.settled();
                    assert_eq!(starts(&nodes), plain, "settled: seed {seed} step {step}");
                }
            }
        }
    }
}
