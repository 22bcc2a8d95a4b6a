//! "Did you mean" suggestions, shared by every layer that names things.

/// The candidate closest to `word` by edit distance, if it is close enough to
/// be a plausible typo (at most a third of the word's length, and at least 1).
/// A case-insensitive match always wins; ties go to the smaller name, so the
/// answer does not depend on the candidates' order.
pub fn closest<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let len = word.chars().count();
    let limit = (len / 3).max(1);
    let mut best: Option<(usize, &'a str)> = None;
    for c in candidates {
        if c == word {
            continue;
        }
        // Names whose lengths differ by more than the limit cannot be close:
        // skip them before the quadratic distance.
        if c.len().abs_diff(word.len()) > limit * 4 || c.chars().count().abs_diff(len) > limit {
            continue;
        }
        let d = if c.eq_ignore_ascii_case(word) { 0 } else { distance(word, c) };
        if d <= limit && best.is_none_or(|(bd, bc)| d < bd || (d == bd && c < bc)) {
            best = Some((d, c));
        }
    }
    best.map(|(_, c)| c)
}

/// Levenshtein distance over chars, with adjacent transpositions counted as
/// one edit. Inputs are names, so quadratic is fine; very long inputs are
/// not compared at all.
fn distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    if a.len() > 64 || b.len() > 64 {
        return usize::MAX;
    }
    let mut prev2: Vec<usize> = vec![0; b.len() + 1];
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for i in 1..=a.len() {
        let mut cur = vec![i; b.len() + 1];
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            cur[j] = (prev[j] + 1).min(cur[j - 1] + 1).min(prev[j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                cur[j] = cur[j].min(prev2[j - 2] + 1);
            }
        }
        prev2 = std::mem::replace(&mut prev, cur);
    }
    prev[b.len()]
}

#[cfg(test)]
mod tests {
    use super::closest;

    #[test]
    fn typos_and_case() {
        assert_eq!(closest("strin", ["string", "number", "bool"]), Some("string"));
        assert_eq!(closest("String", ["string", "number"]), Some("string"));
        assert_eq!(closest("lst", ["list", "set", "map"]), Some("list"));
        assert_eq!(closest("xyzzy", ["string", "number"]), None);
        assert_eq!(closest("nmae", ["name", "id"]), Some("name"));
    }
}
