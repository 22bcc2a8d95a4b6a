//! Reading files that a user, a tool or an attacker put in a module's
//! directory: only regular files, only up to a cap, and never blocking.
//!
//! Every file the language server or `check` reads goes through here. A
//! name that should be a file may be anything: a FIFO (whose `open` waits
//! for a writer that never comes, freezing the server or the run), a
//! device (`/dev/zero` reads forever), or a file swapped for either
//! between a look at its metadata and the `open`. So the file is opened
//! non-blocking, the *opened* handle is `fstat`ed (what was opened is what
//! is judged, whatever the name points at by then), anything but a regular
//! file is refused, a file over the cap is refused before a byte is read,
//! and at most cap + 1 bytes are read (a file that grows while read is
//! still caught).

use std::fs::{File, Metadata};
use std::io::Read;
use std::path::Path;

/// Module source files (`.tf`, `.tfvars`, `.pp`, `.hcl`, …). Generated
/// Terraform of 10 MB is benchmarked and must work; real modules are
/// kilobytes. The cap is what bounds one file's memory: analysing a file
/// costs at most [`HEAP_PER_SOURCE_BYTE`] bytes of heap per byte, whatever
/// it holds (`tests/it/memory.rs` measures every shape), so no file costs
/// more than [`FILE_HEAP_BUDGET`]. A file past the cap is skipped and
/// said to be (`check`: an I/O failure; the server: a `file-not-read`
/// warning on its module's open documents), never read in part. At 64 MiB
/// a 60 MB file of tiny blocks asked for ~16 GB and killed the server.
pub const SOURCE_CAP: u64 = 12 << 20;

/// The most heap any shape of source costs per byte, measured at 1 MB
/// by `tests/it/memory.rs` (a file of `a{}` lines or of `l=1` lines: 278 and
/// 288, an item's overhead of ~1 KB for 4 bytes of text; long literals
/// 30-180), with some room.
pub const HEAP_PER_SOURCE_BYTE: u64 = 320;

/// What one source file may cost at most: [`SOURCE_CAP`] is derived from it.
pub const FILE_HEAP_BUDGET: u64 = 4 << 30;

const _: () = assert!(SOURCE_CAP * HEAP_PER_SOURCE_BYTE <= FILE_HEAP_BUDGET);

/// Small files written by tools or by hand: `.terraform.lock.hcl`,
/// `.terraform/modules/modules.json`, a `--var-file-table`. Kilobytes in
/// practice; the cap is what a runaway one (or a link to `/dev/zero`) may
/// cost at most, per read (a lock file is read on every keystroke).
pub const MANIFEST_CAP: u64 = 16 << 20;

/// Provider and package schemas (`terraform providers schema -json`,
/// `pulumi package get-schema`): the AWS provider's is tens of MB, so the
/// cap leaves room for the largest real ones and their growth.
pub const SCHEMA_CAP: u64 = 256 << 20;

/// Why a file was not read.
#[derive(Debug)]
pub enum ReadError {
    /// A FIFO, device, socket or directory (what it is).
    NotRegular(&'static str),
    /// Over the cap (in bytes).
    TooLarge(u64),
    /// Not text: not UTF-8, or binary (`read_regular_to_string` only).
    NotUtf8,
    Io(std::io::Error),
}

impl ReadError {
    /// The file is not there: for optional files, no failure.
    pub fn is_not_found(&self) -> bool {
        matches!(self, ReadError::Io(e) if e.kind() == std::io::ErrorKind::NotFound)
    }
}

impl std::fmt::Display for ReadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReadError::NotRegular(what) => write!(f, "not a regular file ({what}): not read"),
            ReadError::TooLarge(cap) if cap % (1 << 20) == 0 => {
                write!(f, "larger than {} MiB: not read", cap >> 20)
            }
            ReadError::TooLarge(cap) => write!(f, "larger than {cap} bytes: not read"),
            ReadError::NotUtf8 => write!(f, "not text (not UTF-8, or a binary file)"),
            ReadError::Io(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for ReadError {}

impl From<std::io::Error> for ReadError {
    fn from(e: std::io::Error) -> Self {
        ReadError::Io(e)
    }
}

/// A regular file, opened; its metadata taken from the handle.
pub struct Opened {
    file: File,
    pub meta: Metadata,
}

impl Opened {
    /// Its content, refused when over `cap` bytes (as the handle said
    /// when opened, or as found while reading).
    pub fn read(mut self, cap: u64) -> Result<Vec<u8>, ReadError> {
        if self.meta.len() > cap {
            return Err(ReadError::TooLarge(cap));
        }
        let mut bytes = Vec::with_capacity(self.meta.len() as usize);
        (&mut self.file).take(cap.saturating_add(1)).read_to_end(&mut bytes)?;
        if bytes.len() as u64 > cap {
            return Err(ReadError::TooLarge(cap));
        }
        Ok(bytes)
    }
}

/// What a file type is, for [`ReadError::NotRegular`].
pub fn kind(t: std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return "a FIFO";
        }
        if t.is_char_device() {
            return "a character device";
        }
        if t.is_block_device() {
            return "a block device";
        }
        if t.is_socket() {
            return "a socket";
        }
    }
    if t.is_dir() {
        "a directory"
    } else {
        "not a file"
    }
}

/// Opens `path` if it is a regular file, without blocking: a FIFO or
/// device is refused by what the opened handle is, not by a look at the
/// name before (which a swap could make stale).
pub fn open_regular(path: &Path) -> Result<Opened, ReadError> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        use std::os::unix::fs::OpenOptionsExt;
        // Non-blocking: opening a FIFO without a writer returns at once
        // (reads of a regular file ignore the flag). No controlling
        // terminal: a tty named `x.tf` does not become this process's.
        options.custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY);
    }
    #[cfg(not(all(target_os = "linux", target_env = "gnu")))]
    {
        // Without O_NONBLOCK (libc is a Linux dependency only), a look
        // first narrows the window in which a FIFO could block the open.
        let meta = std::fs::metadata(path)?;
        if !meta.is_file() {
            return Err(ReadError::NotRegular(kind(meta.file_type())));
        }
    }
    let file = options.open(path)?;
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Err(ReadError::NotRegular(kind(meta.file_type())));
    }
    Ok(Opened { file, meta })
}

/// The bytes of the regular file `path`, at most `cap` of them.
pub fn read_regular(path: &Path, cap: u64) -> Result<Vec<u8>, ReadError> {
    open_regular(path)?.read(cap)
}

/// The text of the regular file `path`, at most `cap` bytes of UTF-8.
pub fn read_regular_to_string(path: &Path, cap: u64) -> Result<String, ReadError> {
    decode(read_regular(path, cap)?).map_err(|_| ReadError::NotUtf8)
}

/// Why a file's bytes are not text we analyse.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Undecodable {
    /// Not UTF-8 (the first bad byte).
    NotUtf8 { at: usize },
    /// UTF-8 with a NUL byte: a binary file (where the first NUL is).
    Binary { at: usize },
}

impl std::fmt::Display for Undecodable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Undecodable::NotUtf8 { at } => write!(f, "the file is not valid UTF-8 (at byte {at}): not analysed"),
            Undecodable::Binary { at } => write!(f, "binary file (a NUL byte at offset {at}): not analysed"),
        }
    }
}

/// A file's bytes as the text every front end analyses: UTF-8 without NUL
/// bytes. The one decoding of module files (the command line reports why
/// not; the server and called modules leave such a file out).
pub fn decode(bytes: Vec<u8>) -> Result<String, Undecodable> {
    // A NUL byte first: a binary file (git-crypt's, say) is rarely UTF-8,
    // and is binary whatever else it is.
    if let Some(at) = memchr::memchr(0, &bytes) {
        return Err(Undecodable::Binary { at });
    }
    String::from_utf8(bytes).map_err(|e| Undecodable::NotUtf8 { at: e.utf8_error().valid_up_to() })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc;
    use std::time::Duration;

    fn tempdir(name: &str) -> crate::scratch::Scratch {
        crate::scratch::Scratch::new(&format!("fsread-{name}")).unwrap()
    }

    /// `f` on another thread, failing (not hanging) when it blocks.
    fn within<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let _ = tx.send(f());
        });
        rx.recv_timeout(Duration::from_secs(5)).expect("the read blocked")
    }

    #[test]
    fn a_fifo_is_refused_at_once() {
        let dir = tempdir("fifo");
        let fifo = dir.join("x.tf");
        let status = std::process::Command::new("mkfifo").arg(&fifo).status().unwrap();
        assert!(status.success());
        let path = fifo.clone();
        let r = within(move || read_regular(&path, SOURCE_CAP));
        match r {
            Err(e @ ReadError::NotRegular(_)) => assert_eq!(e.to_string(), "not a regular file (a FIFO): not read"),
            other => panic!("{other:?}"),
        }
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_link_to_dev_zero_is_refused() {
        let dir = tempdir("zero");
        let link = dir.join(".terraform.lock.hcl");
        std::os::unix::fs::symlink("/dev/zero", &link).unwrap();
        let r = within(move || read_regular(&link, MANIFEST_CAP));
        assert!(matches!(r, Err(ReadError::NotRegular("a character device"))), "{r:?}");
        let r = read_regular(&dir, MANIFEST_CAP);
        assert!(matches!(r, Err(ReadError::NotRegular("a directory"))), "{r:?}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn files_over_the_cap_are_refused_and_others_read() {
        let dir = tempdir("cap");
        let path = dir.join("m.tf");
        std::fs::write(&path, "locals {}\n").unwrap();
        assert_eq!(read_regular(&path, 10).unwrap(), b"locals {}\n");
        assert_eq!(read_regular_to_string(&path, SOURCE_CAP).unwrap(), "locals {}\n");
        let e = read_regular(&path, 9).unwrap_err();
        assert_eq!(e.to_string(), "larger than 9 bytes: not read");
        assert_eq!(ReadError::TooLarge(SOURCE_CAP).to_string(), "larger than 12 MiB: not read");
        // Grown after the open: caught by reading one byte past the cap.
        let opened = open_regular(&path).unwrap();
        std::fs::write(&path, "locals { x = 1 }\n").unwrap();
        assert!(matches!(opened.read(12), Err(ReadError::TooLarge(12))));
        std::fs::write(&path, [0xff, 0xfe]).unwrap();
        assert!(matches!(read_regular_to_string(&path, 10), Err(ReadError::NotUtf8)));
        let missing = read_regular(&dir.join("none.tf"), 10).unwrap_err();
        assert!(missing.is_not_found(), "{missing}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
