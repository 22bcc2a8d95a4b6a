//! Scratch directories: a `tempfile::TempDir`, removed when dropped (also
//! when the test fails), under a name no other test or run can take.

use std::ops::Deref;
use std::path::Path;
use std::sync::Arc;

/// A fresh, empty directory that derefs to its path; removed when the
/// last clone is dropped.
#[derive(Clone)]
pub struct Scratch(Arc<tempfile::TempDir>);

impl Scratch {
    pub fn new() -> Scratch {
        Scratch::named("test")
    }

    /// Named after the test's case, to tell whose it is while it runs.
    pub fn named(case: &str) -> Scratch {
        let prefix = format!("hcl-types-{case}-");
        Scratch(Arc::new(tempfile::Builder::new().prefix(&prefix).tempdir().expect("a scratch directory")))
    }
}

impl Deref for Scratch {
    type Target = Path;
    fn deref(&self) -> &Path {
        self.0.path()
    }
}

impl AsRef<Path> for Scratch {
    fn as_ref(&self) -> &Path {
        self.0.path()
    }
}
