//! Fresh ids: items, texts and analyses are named by numbers that are
//! never reused within a process (one counter for all, so an id never
//! names two things).

use std::sync::atomic::{AtomicU64, Ordering};

/// A number never returned before (from 1).
pub fn fresh() -> u64 {
    static NEXT: AtomicU64 = AtomicU64::new(1);
    NEXT.fetch_add(1, Ordering::Relaxed)
}
