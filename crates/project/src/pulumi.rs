//! Finding Pulumi HCL programs on disk (docs/spec/pulumi-hcl.md §1): a
//! `.tf` file is read in the `pulumi-hcl` dialect when the nearest
//! `Pulumi.yaml` in its directory or one above names `runtime: hcl`
//! (pulumi-hcl's docs/language-reference.md "Overview"). Pulumi looks for
//! the project file the same way, from the working directory upwards.
//!
//! The answer is kept per directory (the dialect is asked for on every read
//! of every file), and looked for again when a client's watched-file event
//! names a project file ([`changed`]: the server then analyses every open
//! document again) or, for a client that watches nothing, once it is
//! [`LOOK_AGAIN`] old, at the next read.

use std::path::{Path, PathBuf};
use std::sync::{LazyLock, Mutex};
use std::time::{Duration, Instant};

use rustc_hash::FxHashMap as HashMap;
use syntax::Dialect;

/// Per directory: whether it is in a program, and when that was looked at.
static SEEN: LazyLock<Mutex<HashMap<PathBuf, (bool, Instant)>>> = LazyLock::new(Default::default);

/// How long an answer is trusted without an event (as the configuration
/// file's, `nearest.rs`).
const LOOK_AGAIN: Duration = Duration::from_secs(2);

/// Takes a changed, created or deleted file: when it is a project file
/// (`Pulumi.yaml`, `Pulumi.yml`), what is known of its directory and those
/// below is forgotten, and `true` says the dialect of files there may have
/// changed.
pub fn changed(path: &Path) -> bool {
    let named = path.file_name().and_then(|n| n.to_str());
    if !named.is_some_and(|n| analysis::dialects::pulumi_hcl::project::PROJECT_FILES.contains(&n)) {
        return false;
    }
    let Some(dir) = path.parent().and_then(|d| std::path::absolute(d).ok()) else { return true };
    if let Ok(mut seen) = SEEN.lock() {
        seen.retain(|d, _| !d.starts_with(&dir));
    }
    true
}

/// The dialect `path` gets from a `Pulumi.yaml`: `Some(PulumiHcl)` for a
/// `.tf` file of an HCL program, `None` otherwise (its name decides).
pub fn dialect(path: &Path) -> Option<Dialect> {
    if path.extension() != Some("tf".as_ref()) {
        return None;
    }
    let dir = std::path::absolute(path.parent()?).ok()?;
    in_program(&dir).then_some(Dialect::PulumiHcl)
}

/// Whether `dir` is in a Pulumi HCL program: the nearest project file's
/// answer, that directory's and its parents' remembered.
fn in_program(dir: &Path) -> bool {
    let known = SEEN.lock().ok().and_then(|seen| seen.get(dir).copied());
    if let Some((known, _)) = known.filter(|(_, at)| at.elapsed() < LOOK_AGAIN) {
        return known;
    }
    let found = project_file(dir).map(|text| analysis::dialects::pulumi_hcl::project::is_hcl_runtime(&text));
    let answer = match found {
        Some(answer) => answer,
        None => dir.parent().is_some_and(in_program),
    };
    if let Ok(mut seen) = SEEN.lock() {
        seen.insert(dir.to_path_buf(), (answer, Instant::now()));
    }
    answer
}

/// The text of `dir`'s `Pulumi.yaml` (or `Pulumi.yml`), if it has one: a
/// regular file of at most a manifest's size (a FIFO or a device under
/// that name, in a folder nobody checked, must not hang the server).
fn project_file(dir: &Path) -> Option<String> {
    analysis::dialects::pulumi_hcl::project::PROJECT_FILES
        .iter()
        .find_map(|name| crate::fsread::read_regular_to_string(&dir.join(name), crate::fsread::MANIFEST_CAP).ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A FIFO named `Pulumi.yaml` is not read (it would block forever).
    #[cfg(unix)]
    #[test]
    fn a_fifo_project_file_does_not_hang() {
        let dir = crate::scratch::Scratch::new("pulumi-fifo").unwrap();
        let fifo = dir.join("Pulumi.yaml");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        if made.is_ok_and(|s| s.success()) {
            assert_eq!(project_file(&dir), None);
        }
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// A project file created, changed or deleted is seen once an event
    /// names it (and only a project file's event forgets anything).
    #[test]
    fn a_changed_project_file_is_read_again() {
        let root = crate::scratch::Scratch::new("pulumi-changed").unwrap();
        std::fs::create_dir_all(root.join("net")).unwrap();
        let (main, module) = (root.join("main.tf"), root.join("net/main.tf"));
        assert_eq!(dialect(&main), None);
        let project = root.join("Pulumi.yaml");
        std::fs::write(&project, "name: p\nruntime: hcl\n").unwrap();
        assert!(!changed(&main));
        assert!(changed(&project));
        assert_eq!(dialect(&main), Some(Dialect::PulumiHcl));
        assert_eq!(dialect(&module), Some(Dialect::PulumiHcl));
        std::fs::write(&project, "name: p\nruntime: yaml\n").unwrap();
        assert!(changed(&project));
        assert_eq!((dialect(&main), dialect(&module)), (None, None));
        let _ = std::fs::remove_dir_all(&root);
    }

    /// A program's `.tf` files and its local modules' are Pulumi HCL; a
    /// `.tf` file of a YAML program, or of no program, is not.
    #[test]
    fn the_nearest_project_file_decides() {
        let root = crate::scratch::Scratch::new("pulumi").unwrap();
        let hcl = root.join("hcl");
        std::fs::create_dir_all(hcl.join("modules/net")).unwrap();
        std::fs::write(hcl.join("Pulumi.yaml"), "name: p\nruntime: hcl\n").unwrap();
        let yaml = root.join("yaml");
        std::fs::create_dir_all(&yaml).unwrap();
        std::fs::write(yaml.join("Pulumi.yaml"), "name: p\nruntime: yaml\n").unwrap();
        assert_eq!(dialect(&hcl.join("main.tf")), Some(Dialect::PulumiHcl));
        assert_eq!(dialect(&hcl.join("modules/net/main.tf")), Some(Dialect::PulumiHcl));
        assert_eq!(dialect(&hcl.join("terraform.tfvars")), None);
        assert_eq!(dialect(&yaml.join("main.tf")), None);
        assert_eq!(dialect(&root.join("main.tf")), None);
        let _ = std::fs::remove_dir_all(&root);
    }
}
