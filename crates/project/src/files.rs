//! How analyses read files besides their modules' (`templatefile`
//! templates, [`reader`]). Module files are read through `disk::Disk`.

use std::path::Path;

/// The most of a file a module reads besides its own (a template).
const TEMPLATE_CAP: u64 = 4 << 20;

/// How analyses read files besides their modules' (`templatefile`
/// templates): a regular file of at most 4 MiB, as text. One per process,
/// so contexts made with it compare equal.
pub fn reader() -> analysis::calls::Reader {
    static READER: std::sync::OnceLock<analysis::calls::Reader> = std::sync::OnceLock::new();
    READER
        .get_or_init(|| {
            analysis::calls::Reader(std::sync::Arc::new(|path: &Path| {
                let bytes = crate::fsread::read_regular(path, TEMPLATE_CAP).ok()?;
                crate::fsread::decode(bytes).ok().map(std::sync::Arc::from)
            }))
        })
        .clone()
}
