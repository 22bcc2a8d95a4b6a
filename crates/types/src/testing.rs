//! What unit tests share.

/// A small deterministic generator (xorshift) for randomised tests.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.max(1))
    }

    /// A number in `0..n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n.max(1) as u64) as usize
    }
}

/// `sorted` with the numbers in each of `parts`' ranges (sorted, apart)
/// replaced by that part's: what replacing parts of a placed list gives.
pub fn replaced(sorted: &[usize], parts: &[(std::ops::Range<usize>, Vec<usize>)]) -> Vec<usize> {
    let mut out = Vec::new();
    let mut rest = sorted.iter().copied().peekable();
    for (r, fresh) in parts {
        out.extend(std::iter::from_fn(|| rest.next_if(|x| *x < r.start)));
        while rest.next_if(|x| r.contains(x)).is_some() {}
        out.extend(fresh);
    }
    out.extend(rest);
    out
}
