//! "Did you mean" suggestions, shared by every layer that names things.

/// The candidate closest to `word` by edit distance, if it is close enough to
/// be a plausible typo (at most a third of the word's length, and at least 1).
/// A case-insensitive match always wins; ties go to the smaller name, so the
/// answer does not depend on the candidates' order.
pub fn closest<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let candidates: Vec<&'a str> = candidates.into_iter().collect();
    // Most answers are one edit away (a typo, a name just renamed): a first
    // pass that looks that far only is cheap, and finds them.
    closest_one(word, &candidates).or_else(|| closest_beyond_one(word, &candidates))
}

/// [`closest`]'s first pass: the closest candidate at most one edit away
/// (or equal to `word` but for ASCII case). When it finds none, the
/// answer of [`closest`] is [`closest_beyond_one`]'s.
pub fn closest_one<'a>(word: &str, candidates: &[&'a str]) -> Option<&'a str> {
    closest_within(word.chars().count(), word, candidates, 1, &mut Rows::default())
}

/// [`closest`]'s second pass, when no candidate is one edit away.
pub fn closest_beyond_one<'a>(word: &str, candidates: &[&'a str]) -> Option<&'a str> {
    let len = word.chars().count();
    let limit = (len / 3).max(1);
    (limit > 1).then(|| closest_within(len, word, candidates, limit, &mut Rows::default())).flatten()
}

/// Names indexed so that those at most one edit from a word are found
/// without looking at the others (a module can declare tens of thousands,
/// and renaming one asks for suggestions on every keystroke): each name is
/// filed under a hash of itself, of each string one char shorter, and of
/// its ASCII lowercase. A name one edit (an insertion, a deletion, a
/// substitution or two adjacent chars swapped) from a word shares one of
/// those with the word's own, as does one equal to it but for case.
/// Entries are slots (the caller's indices of its names); a slot whose name
/// changed keeps its old entries, which only cost a comparison.
#[derive(Clone, Debug, Default)]
pub struct NearIndex {
    sorted: Vec<(u64, u32)>,
    /// Entries added since `sorted` was sorted (renames), looked through.
    added: Vec<(u64, u32)>,
}

/// Entries [`NearIndex::add`] keeps aside before sorting them in.
const ADDED_KEPT: usize = 1024;

impl NearIndex {
    pub fn new<'a>(names: impl IntoIterator<Item = &'a str>) -> NearIndex {
        let mut sorted = Vec::new();
        for (slot, name) in names.into_iter().enumerate() {
            keys(name, |k| sorted.push((k, slot as u32)));
        }
        sorted.sort_unstable();
        sorted.dedup();
        NearIndex { sorted, added: Vec::new() }
    }

    /// Files `name` under `slot` (a new name, or a slot's new name).
    pub fn add(&mut self, slot: usize, name: &str) {
        keys(name, |k| self.added.push((k, slot as u32)));
        if self.added.len() > ADDED_KEPT {
            // Merged in one pass (sorting all again took ~10 ms at 15k names).
            let mut added = std::mem::take(&mut self.added);
            added.sort_unstable();
            let old = std::mem::take(&mut self.sorted);
            let mut merged = Vec::with_capacity(old.len() + added.len());
            let (mut a, mut b) = (old.into_iter().peekable(), added.into_iter().peekable());
            while let (Some(x), Some(y)) = (a.peek(), b.peek()) {
                let next = if x <= y { a.next() } else { b.next() };
                merged.extend(next);
            }
            merged.extend(a.chain(b));
            merged.dedup();
            self.sorted = merged;
        }
    }

    /// The slots of every name at most one edit from `word` or equal to
    /// it but for ASCII case (and of some others), each once, in order.
    pub fn candidates(&self, word: &str) -> Vec<usize> {
        let mut out = Vec::new();
        keys(word, |k| {
            let from = self.sorted.partition_point(|e| e.0 < k);
            out.extend(self.sorted[from..].iter().take_while(|e| e.0 == k).map(|e| e.1 as usize));
            out.extend(self.added.iter().filter(|e| e.0 == k).map(|e| e.1 as usize));
        });
        out.sort_unstable();
        out.dedup();
        out
    }
}

/// Names longer than this (in chars) are never measured against others:
/// only a match but for case can suggest one.
const LONGEST: usize = 64;

/// Calls `f` with the hashes a name is filed under (see [`NearIndex`]);
/// one longer than [`LONGEST`] only under itself and its lowercase (a
/// hostile file's megabyte-long name would otherwise cost its length
/// squared).
fn keys(name: &str, mut f: impl FnMut(u64)) {
    const LOWER: u64 = 0x9e37_79b9_7f4a_7c15;
    let hash = |skip: Option<usize>, lower: bool| {
        // FNV-1a over the chars, one of them left out.
        let mut h: u64 = if lower { LOWER } else { 0xcbf2_9ce4_8422_2325 };
        for (i, c) in name.chars().enumerate() {
            if Some(i) != skip {
                let c = if lower { c.to_ascii_lowercase() } else { c };
                h = (h ^ u64::from(u32::from(c))).wrapping_mul(0x0100_0000_01b3);
            }
        }
        h
    };
    f(hash(None, false));
    f(hash(None, true));
    let len = name.chars().count();
    if len <= LONGEST {
        for i in 0..len {
            f(hash(Some(i), false));
        }
    }
}

/// [`closest`] among the candidates at most `limit` away.
fn closest_within<'a>(
    len: usize,
    word: &str,
    candidates: &[&'a str],
    limit: usize,
    rows: &mut Rows,
) -> Option<&'a str> {
    let mut best: Option<(usize, &'a str)> = None;
    let counts = word.is_ascii().then(|| letters(word));
    for &c in candidates {
        // Only a distance up to the best so far can win (a module has
        // thousands of names of the same shape: most stop after a few rows).
        let bound = best.map_or(limit, |(d, _)| d);
        // Names whose lengths differ by more than the bound cannot be
        // close: skip them before the quadratic distance.
        if c == word || c.len().abs_diff(word.len()) > bound * 4 || c.chars().count().abs_diff(len) > bound {
            continue;
        }
        // An edit changes at most two letters' counts by one each: names
        // with other letters than the word's are told apart in one pass.
        if let Some(counts) = counts.filter(|_| c.is_ascii()) {
            let mut diff = counts;
            c.bytes().for_each(|x| diff[usize::from(x)] -= 1);
            if diff.iter().map(|x| x.unsigned_abs()).sum::<u32>().div_ceil(2) as usize > bound
                && !c.eq_ignore_ascii_case(word)
            {
                continue;
            }
        }
        let d = if c.eq_ignore_ascii_case(word) { Some(0) } else { rows.distance(word, c, bound) };
        if let Some(d) = d {
            if best.is_none_or(|(bd, bc)| d < bd || (d == bd && c < bc)) {
                best = Some((d, c));
            }
        }
    }
    best.map(|(_, c)| c)
}

/// How many times each ASCII character occurs in `word`.
fn letters(word: &str) -> [i32; 128] {
    let mut counts = [0; 128];
    word.bytes().for_each(|x| counts[usize::from(x)] += 1);
    counts
}

/// The rows of [`Rows::distance`], kept between candidates.
#[derive(Default)]
struct Rows {
    a: Vec<char>,
    b: Vec<char>,
    prev2: Vec<usize>,
    prev: Vec<usize>,
    cur: Vec<usize>,
}

impl Rows {
    /// Levenshtein distance over chars, with adjacent transpositions
    /// counted as one edit, when it is at most `bound` (`None` when more).
    /// Very long inputs are not compared.
    fn distance(&mut self, a: &str, b: &str, bound: usize) -> Option<usize> {
        if a.is_ascii() && b.is_ascii() {
            return banded(a.as_bytes(), b.as_bytes(), bound, [&mut self.prev2, &mut self.prev, &mut self.cur]);
        }
        self.a.clear();
        self.a.extend(a.chars());
        self.b.clear();
        self.b.extend(b.chars());
        banded(&self.a, &self.b, bound, [&mut self.prev2, &mut self.prev, &mut self.cur])
    }
}

/// [`Rows::distance`] of two strings of `T`: only the cells within `bound`
/// of the diagonal can be that small, and only those are computed.
fn banded<T: PartialEq>(a: &[T], b: &[T], bound: usize, rows: [&mut Vec<usize>; 3]) -> Option<usize> {
    const FAR: usize = usize::MAX / 4;
    let (n, m) = (a.len(), b.len());
    if n > LONGEST || m > LONGEST || n.abs_diff(m) > bound {
        return None;
    }
    let [prev2, prev, cur] = rows;
    for row in [&mut *prev2, &mut *prev, &mut *cur] {
        if row.len() <= m {
            row.resize(m + 1, FAR);
        }
    }
    // Row 0 as far as row 1 reads it (cells past the band are never read:
    // each row marks the cells just outside its band).
    for (j, x) in prev.iter_mut().enumerate().take((bound + 2).min(m + 1)) {
        *x = j;
    }
    let mut prev_least = 0;
    for i in 1..=n {
        let (lo, hi) = (i.saturating_sub(bound).max(1), (i + bound).min(m));
        cur[0] = if i <= bound { i } else { FAR };
        cur[lo - 1] = if lo == 1 { cur[0] } else { FAR };
        let mut least = cur[0];
        for j in lo..=hi {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut x = (prev[j] + 1).min(cur[j - 1] + 1).min(prev[j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                x = x.min(prev2[j - 2] + 1);
            }
            cur[j] = x;
            least = least.min(x);
        }
        if hi < m {
            cur[hi + 1] = FAR;
        }
        // Every later cell comes from the last two rows, never smaller.
        if least > bound && prev_least > bound {
            return None;
        }
        prev_least = least;
        std::mem::swap(prev2, prev);
        std::mem::swap(prev, cur);
    }
    Some(prev[m]).filter(|d| *d <= bound)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typos_and_case() {
        assert_eq!(closest("strin", ["string", "number", "bool"]), Some("string"));
        assert_eq!(closest("String", ["string", "number"]), Some("string"));
        assert_eq!(closest("lst", ["list", "set", "map"]), Some("list"));
        assert_eq!(closest("xyzzy", ["string", "number"]), None);
        assert_eq!(closest("nmae", ["name", "id"]), Some("name"));
    }

    /// The unbounded distance, as it was computed for every candidate.
    fn reference(word: &str, candidates: &[&str]) -> Option<String> {
        fn distance(a: &str, b: &str) -> usize {
            let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
            let mut d = vec![vec![0; b.len() + 1]; a.len() + 1];
            for (i, row) in d.iter_mut().enumerate() {
                row[0] = i;
            }
            for (j, x) in d[0].iter_mut().enumerate() {
                *x = j;
            }
            for i in 1..=a.len() {
                for j in 1..=b.len() {
                    let cost = usize::from(a[i - 1] != b[j - 1]);
                    d[i][j] = (d[i - 1][j] + 1).min(d[i][j - 1] + 1).min(d[i - 1][j - 1] + cost);
                    if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                        d[i][j] = d[i][j].min(d[i - 2][j - 2] + 1);
                    }
                }
            }
            d[a.len()][b.len()]
        }
        let limit = (word.chars().count() / 3).max(1);
        let close = candidates.iter().filter(|c| **c != word).map(|c| {
            let d = if c.eq_ignore_ascii_case(word) { 0 } else { distance(word, c) };
            (d, *c)
        });
        close.filter(|(d, _)| *d <= limit).min().map(|(_, c)| c.to_string())
    }

    #[test]
    fn the_closest_of_many_as_without_bounds() {
        let mut x: u64 = 7;
        let mut next = |n: u64| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x % n) as usize
        };
        let letters = ['a', 'b', 'c', '_', 'é'];
        for _ in 0..1000 {
            let mut word = || (0..1 + next(14)).map(|_| letters[next(5)]).collect::<String>();
            let w = word();
            let names: Vec<String> = (0..20).map(|_| word()).collect();
            let names: Vec<&str> = names.iter().map(String::as_str).collect();
            assert_eq!(closest(&w, names.iter().copied()).map(String::from), reference(&w, &names), "{w} {names:?}");
        }
    }

    /// The first pass over the index's candidates answers as over every
    /// name, and when it finds nothing so does `closest`'s first pass.
    #[test]
    fn the_index_finds_every_name_one_edit_away() {
        let mut rng = crate::testing::Rng::new(11);
        let letters = ['a', 'b', 'B', '1', '_', 'é'];
        let word =
            |rng: &mut crate::testing::Rng| (0..1 + rng.below(7)).map(|_| letters[rng.below(6)]).collect::<String>();
        for _ in 0..300 {
            let mut names: Vec<String> = (0..60).map(|_| word(&mut rng)).collect();
            let mut index = NearIndex::new(names.iter().map(String::as_str));
            // Some renamed in place, as a rename does.
            for _ in 0..rng.below(20) {
                let slot = rng.below(names.len());
                names[slot] = word(&mut rng);
                index.add(slot, &names[slot]);
            }
            for _ in 0..20 {
                let w = word(&mut rng);
                let all: Vec<&str> = names.iter().map(String::as_str).collect();
                let found = index.candidates(&w);
                let near: Vec<&str> = found.iter().map(|s| names[*s].as_str()).collect();
                assert_eq!(closest_one(&w, &near), closest_one(&w, &all), "{w} {names:?}");
                for name in &names {
                    let one = closest_one(&w, &[name.as_str()]).is_some();
                    assert!(!one || found.iter().any(|s| names[*s] == *name), "{w} {name}");
                }
            }
        }
    }

    /// A name too long to be measured is filed under itself and its
    /// lowercase only, and still found by a match but for case.
    #[test]
    fn a_long_name_is_filed_under_two_keys() {
        let long = "Ab".repeat(100_000);
        let index = NearIndex::new([long.as_str()]);
        assert_eq!(index.sorted.len(), 2);
        let word = long.to_ascii_lowercase();
        assert_eq!(index.candidates(&word), vec![0]);
        assert_eq!(closest(&word, [long.as_str()]), Some(long.as_str()));
    }

    /// Names added past what is kept aside are merged in, none lost.
    #[test]
    fn names_added_are_merged_in_and_all_found() {
        let names: Vec<String> = (0..3 * ADDED_KEPT).map(|i| format!("name_{i}")).collect();
        let mut index = NearIndex::new(names[..100].iter().map(String::as_str));
        for (slot, name) in names.iter().enumerate().skip(100) {
            index.add(slot, name);
        }
        assert!(index.added.len() < ADDED_KEPT, "merged in");
        let mut expected = std::collections::BTreeSet::new();
        for (slot, name) in names.iter().enumerate() {
            keys(name, |k| {
                expected.insert((k, slot as u32));
            });
        }
        let entries: std::collections::BTreeSet<_> = index.sorted.iter().chain(&index.added).copied().collect();
        assert_eq!(entries, expected);
        assert!(index.sorted.windows(2).all(|w| w[0] < w[1]), "sorted, once each");
    }

    #[test]
    fn the_closest_of_many_and_ties_to_the_smaller() {
        // The best so far bounds the distances computed after it.
        let names = ["var_queue_45331", "var_queue_45332x", "var_queue_4533", "var_vpc_2"];
        assert_eq!(closest("var_queue_45332", names), Some("var_queue_4533"));
        assert_eq!(closest("var_queue_45332", names.into_iter().rev()), Some("var_queue_4533"));
        assert_eq!(closest("var_q", ["var_queue_45332", "var_x", "var_qq"]), Some("var_qq"));
        assert_eq!(closest("abcdef", ["badcfe", "abcxyz"]), None);
    }
}
