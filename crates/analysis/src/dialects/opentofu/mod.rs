//! OpenTofu: `.tofu` files and their JSON syntax, which replace the `.tf`
//! file of the same name (analysis.md §7). The language is Terraform's, plus
//! OpenTofu's own constructs, checked in the analysis core.

use std::path::{Path, PathBuf};

use super::{FileRule, Handler};
use crate::{Family, FileKind};
use syntax::Dialect;

pub struct OpenTofu;

const FILES: [FileRule; 2] = [
    FileRule::suffix(".tofu", FileKind::Terraform, Family::Terraform, Dialect::OpenTofu),
    FileRule::suffix(".tofu.json", FileKind::Terraform, Family::Terraform, Dialect::OpenTofu),
];

impl Handler for OpenTofu {
    fn name(&self) -> &'static str {
        "opentofu"
    }
    fn files(&self) -> &'static [FileRule] {
        &FILES
    }
}

/// The OpenTofu file that replaces `path` when both are in its directory:
/// `x.tofu` for `x.tf`, `x.tofutest.hcl` for `x.tftest.hcl`, `x.tofu.json`
/// for `x.tf.json` (`filterTfPathsWithTofuAlternatives` in opentofu's
/// internal/configs/parser_config_dir.go).
pub fn tofu_alternative(path: &Path) -> Option<PathBuf> {
    let name = path.file_name()?.to_str()?;
    let (stem, ext) = [".tftest.hcl", ".tftest.json", ".tf.json", ".tf"]
        .iter()
        .find_map(|ext| name.strip_suffix(ext).map(|stem| (stem, ext)))?;
    Some(path.with_file_name(format!("{stem}{}", ext.replacen(".tf", ".tofu", 1))))
}

/// `paths` (the files of one directory) without those OpenTofu does not read
/// beside their `.tofu` alternative, as a module of OpenTofu's has them
/// (analysis.md §7). A file in `pinned` (named on the command line, open
/// in the editor) is read all the same, and its alternative is left out
/// instead: the file looked at is the one checked.
pub fn tofu_files(paths: &mut Vec<PathBuf>, pinned: &dyn Fn(&Path) -> bool) {
    if !paths.iter().any(|p| super::dialect_of(p) == Dialect::OpenTofu) {
        return;
    }
    let all = paths.clone();
    let shadowed_by_pinned = |p: &Path| all.iter().any(|q| pinned(q) && tofu_alternative(q).as_deref() == Some(p));
    paths.retain(|p| {
        if pinned(p) {
            return true;
        }
        if shadowed_by_pinned(p) {
            return false;
        }
        !tofu_alternative(p).is_some_and(|alt| all.contains(&alt))
    });
}
