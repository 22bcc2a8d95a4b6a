//! Where the test data lives, for every test binary: `tests/data/` of this
//! checkout (the conformance tables, the real-world corpus). Tests name
//! files through [`data`] so the data can move in one place.

use std::path::PathBuf;

/// `tests/data/REL` of this checkout.
pub fn data(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data").join(rel)
}
