//! Scratch directories: the project layer's (`project::scratch`), a
//! `tempfile::TempDir` removed when its last handle is dropped, also when
//! the test fails.

pub use hcl_types::project::scratch::Scratch;

/// A fresh directory named after the test's case.
pub fn named(case: &str) -> Scratch {
    Scratch::new(case).expect("a scratch directory")
}
