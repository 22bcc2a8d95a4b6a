//! Where the test data lives, for every test binary and bench. Ours is in
//! this checkout: `tests/schemas/` (schemas written here), the rows we added
//! to the conformance tables (`tests/conformance/`). The rest (the real-world
//! corpus, provider and package schemas printed by others, the conformance
//! tables as the project's steering derived them) is never committed: it is read where it lies, in the shared directory beside
//! the checkout ([`shared_root`]), and a test that needs it and finds it
//! absent says so on one line and passes ([`shared`]).
#![allow(dead_code)] // each test binary uses its own part of it

use std::io::Write;
use std::path::PathBuf;

/// The environment variable that names the shared directory.
pub const SHARED_VAR: &str = "HCL_TYPES_SHARED";

/// This checkout's root.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// `tests/schemas/REL` of this checkout: the schemas written here (their
/// provenance in `tests/schemas/README.md`).
pub fn own_schema(rel: &str) -> PathBuf {
    root().join("tests/schemas").join(rel)
}

/// Where the shared directory is looked for: `$HCL_TYPES_SHARED` when set
/// and not empty, else `../shared` from this checkout's root (CI lays a copy
/// beside its clone; `.ci/run` passes the one beside the checkout it runs
/// from). `scripts/shared-dir` follows the same rule for the scripts and the
/// Python tests (`tests/it/cli.rs` holds the two together).
pub fn shared_root() -> PathBuf {
    match std::env::var_os(SHARED_VAR) {
        Some(dir) if !dir.is_empty() => PathBuf::from(dir),
        _ => root().join("../shared"),
    }
}

/// `SHARED/REL` when it exists. When it does not, prints one line saying
/// that `what` is skipped and why, and gives `None`: the caller returns
/// (passes). The line is written to the process's stderr itself, past the
/// test harness's capture, so that `cargo test` shows every skip.
pub fn shared(rel: &str, what: &str) -> Option<PathBuf> {
    let path = shared_root().join(rel);
    if path.exists() {
        return Some(path);
    }
    skip(what, &path);
    None
}

/// The one line a test prints when it skips `what` for want of `missing`.
pub fn skip(what: &str, missing: &std::path::Path) {
    let line = format!(
        "skipped {what}: no {} (third-party test data; set {SHARED_VAR} to the shared directory)\n",
        missing.display()
    );
    let _ = std::io::stderr().write_all(line.as_bytes());
}
