//! How analyses read files besides their modules' (`templatefile`
//! templates, [`reader`]). Module files are read through `disk::Disk`.

use std::path::Path;
use std::sync::Arc;

use crate::confine::Tree;

/// The most of a file a module reads besides its own (a template).
const TEMPLATE_CAP: u64 = 4 << 20;

/// How analyses read files besides their modules' (`templatefile`
/// templates): a regular file of at most 4 MiB, as text, inside `tree`
/// (a template at an absolute path or `../..` out of the repository is
/// not read, [`crate::confine`]). Made once per tree
/// ([`Tree::reader`], which holds it: hence the weak reference), so
/// contexts made with it compare equal.
pub(crate) fn reader(tree: std::sync::Weak<Tree>) -> analysis::calls::Reader {
    analysis::calls::Reader(Arc::new(move |path: &Path| {
        if !tree.upgrade().is_some_and(|t| t.allows(path)) {
            return None;
        }
        let bytes = crate::fsread::read_regular(path, TEMPLATE_CAP).ok()?;
        crate::fsread::decode(bytes).ok().map(Arc::from)
    }))
}
