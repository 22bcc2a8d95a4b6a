//! The lock file's package hashes (`.terraform.lock.hcl` `hashes`): a
//! provider found in a cache is used only when its unpacked package
//! matches one of the `h1:` hashes the module locked for it.
//!
//! What Terraform does (`internal/getproviders/hash.go`, `PackageHashV1`
//! and `PackageMatchesAnyHash`, https://github.com/hashicorp/terraform):
//! `h1:` is Go's module "dirhash" Hash1 (`golang.org/x/mod/sumdb/dirhash`)
//! over the package directory after its symlinks are resolved: every file
//! below it (Go's `filepath.Walk`: a symlink is a file, read through),
//! named by its slash-separated path relative to the directory, sorted;
//! the SHA-256 of the lines `HEX-SHA256-OF-FILE  NAME\n`, base64 (standard,
//! padded), after `h1:`. A `zh:` hash is the SHA-256 of the zip archive
//! the registry served: it "can never match an unpacked directory", so it
//! is not checked here (nor by Terraform for a cache directory).

use base64::Engine;
use sha2::Digest;
use std::path::Path;

/// Each provider's `hashes` in a lock file, by address (as written).
pub fn locked_hashes(text: &str) -> Vec<(String, Vec<String>)> {
    let Ok(body) = syntax::deep::parse_body(text) else { return Vec::new() };
    let mut out = Vec::new();
    for block in body.get_blocks("provider") {
        let [label] = block.labels.as_slice() else { continue };
        let hashes = block.body.get_attribute("hashes").and_then(|a| a.value.as_array());
        let hashes = hashes.into_iter().flat_map(|a| a.iter()).filter_map(|v| v.as_str().map(str::to_string));
        out.push((label.as_str().to_string(), hashes.collect()));
    }
    out
}

/// Terraform's `h1:` hash of the unpacked package in `dir`. Each file's
/// SHA-256 is read once per path, size and time ([`super::plugin::binary_hash`]).
pub fn hash_v1(dir: &Path) -> Result<String, String> {
    let dir = dir.canonicalize().map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut files = Vec::new();
    for entry in walkdir::WalkDir::new(&dir).follow_links(false) {
        let entry = entry.map_err(|e| e.to_string())?;
        if entry.file_type().is_dir() {
            continue;
        }
        // A link is read through, as Go's dirhash does; whatever it (or the
        // entry) is must be a regular file: a FIFO or device would block
        // the open, a link to a directory fails in Go too.
        let meta = std::fs::metadata(entry.path()).map_err(|e| format!("{}: {e}", entry.path().display()))?;
        if !meta.is_file() {
            return Err(format!("{}: not a regular file, the package cannot be hashed", entry.path().display()));
        }
        let rel = entry.path().strip_prefix(&dir).map_err(|e| e.to_string())?;
        let name: Vec<String> = rel.components().map(|c| c.as_os_str().to_string_lossy().into_owned()).collect();
        let name = name.join("/");
        if name.contains('\n') {
            return Err("a file name with a newline cannot be hashed".into());
        }
        files.push((name, entry.path().to_path_buf()));
    }
    // Go sorts the names as bytes.
    files.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
    let mut summary = sha2::Sha256::new();
    for (name, path) in &files {
        summary.update(format!("{}  {name}\n", super::plugin::binary_hash(path)?));
    }
    Ok(format!("h1:{}", base64::engine::general_purpose::STANDARD.encode(summary.finalize())))
}

/// Whether the package in `dir` may be used under the lock file's `hashes`
/// for it: yes when one `h1:` matches, or when none is `h1:` (none at all,
/// or only `zh:`, which an unpacked directory cannot be checked against);
/// otherwise why not.
pub fn verify(dir: &Path, hashes: &[String]) -> Result<(), String> {
    let h1: Vec<&String> = hashes.iter().filter(|h| h.starts_with("h1:")).collect();
    if h1.is_empty() {
        return Ok(());
    }
    let got = hash_v1(dir)?;
    if h1.iter().any(|h| **h == got) {
        return Ok(());
    }
    Err(format!(
        "its package {} is {got}, which is none of the {} `h1:` hashes the lock file names for it \
         (another build than the module locked; `terraform init` installs the locked one)",
        dir.display(),
        h1.len()
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Opening a FIFO would block until a writer came: the walk refuses
    /// every entry that is not a regular file before it opens anything.
    #[test]
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    fn a_package_with_a_fifo_is_refused_not_opened() {
        let d = crate::scratch::Scratch::new("lockhash-fifo").expect("scratch");
        std::fs::write(d.join("terraform-provider-x"), b"bin").expect("binary");
        let fifo = std::ffi::CString::new(d.join("pipe").into_os_string().into_encoded_bytes()).expect("path");
        // SAFETY: a valid NUL-terminated path; mkfifo only creates a node.
        assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o600) }, 0, "mkfifo");
        let err = hash_v1(&d).expect_err("a FIFO in the package");
        assert!(err.contains("not a regular file"), "{err}");
    }

    /// A directory whose `h1:` Go's dirhash computes as below (the files'
    /// SHA-256 lines, sorted by name, hashed again): checked against
    /// Terraform itself in tests/e2e/test_provider_plugins.py.
    #[test]
    fn the_h1_hash_is_go_dirhash_hash1() {
        let d = std::env::temp_dir().join(format!("hcl-types-lockhash-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(d.join("sub")).expect("dir");
        std::fs::write(d.join("terraform-provider-x_v1.0.0"), b"binary").expect("bin");
        std::fs::write(d.join("sub/README"), b"text\n").expect("readme");
        let sha = |b: &[u8]| sha2::Sha256::digest(b).iter().map(|x| format!("{x:02x}")).collect::<String>();
        let summary = format!("{}  sub/README\n{}  terraform-provider-x_v1.0.0\n", sha(b"text\n"), sha(b"binary"));
        let want = format!("h1:{}", base64::engine::general_purpose::STANDARD.encode(sha2::Sha256::digest(summary)));
        assert_eq!(hash_v1(&d).expect("hash"), want);
        assert!(verify(&d, &[want.clone(), "zh:00".into()]).is_ok());
        assert!(verify(&d, &["zh:00".into()]).is_ok(), "zh: cannot be checked");
        assert!(verify(&d, &[]).is_ok());
        let why = verify(&d, &["h1:AAAA".into()]).unwrap_err();
        assert!(why.contains(&want) && why.contains("none of the 1 `h1:`"), "{why}");
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn a_lock_files_hashes_are_read_by_provider() {
        let text = "provider \"registry.terraform.io/hashicorp/local\" {\n  version = \"2.5.2\"\n  \
                    hashes = [\n    \"h1:abc=\",\n    \"zh:0123\",\n  ]\n}\n";
        let got = locked_hashes(text);
        assert_eq!(
            got,
            [("registry.terraform.io/hashicorp/local".to_string(), vec!["h1:abc=".into(), "zh:0123".into()])]
        );
    }
}
