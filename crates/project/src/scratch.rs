//! Scratch directories: ours alone (mode 0700, a name no one can guess or
//! take first) and removed when the last handle goes, also when a test
//! fails. A hand-made `$TMPDIR/hcl-types-NAME-PID` was predictable, so
//! another user could plant a link there, and was left behind by any test
//! that failed before its cleanup (117 after one run, issue 46.5).

use std::ops::Deref;
use std::path::Path;
use std::sync::Arc;

/// A fresh, empty directory; it derefs to its path. Clones share it.
#[derive(Clone, Debug)]
pub struct Scratch(Arc<tempfile::TempDir>);

impl Scratch {
    /// A new directory in the temporary directory, named after `case`
    /// (to tell whose it is while it exists).
    pub fn new(case: &str) -> Result<Scratch, String> {
        let mut builder = tempfile::Builder::new();
        let prefix = format!("hcl-types-{case}-");
        builder.prefix(&prefix);
        #[cfg(unix)]
        builder.permissions(std::os::unix::fs::PermissionsExt::from_mode(0o700));
        let dir = builder.tempdir().map_err(|e| format!("a scratch directory: {e}"))?;
        Ok(Scratch(Arc::new(dir)))
    }

    pub fn path(&self) -> &Path {
        self.0.path()
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_scratch_directory_is_private_and_goes_with_its_last_handle() {
        let one = Scratch::new("scratch").expect("made");
        let path = one.to_path_buf();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&path).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o700);
        }
        std::fs::write(path.join("f"), "x").unwrap();
        let two = one.clone();
        drop(one);
        assert!(path.join("f").is_file(), "a clone keeps it");
        drop(two);
        assert!(!path.exists(), "removed with the last handle");
    }
}
