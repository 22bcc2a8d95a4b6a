//! Override files (analysis.md §6.1): Terraform loads
//! `override.tf` and `*_override.tf` (and `.tf.json`, and OpenTofu's
//! `.tofu` forms) after the other files and merges each of their blocks
//! into the base block of the same type and labels: an argument replaces
//! the base's, a nested block type replaces all of the base's blocks of
//! that type (hashicorp/terraform internal/configs/module.go `mergeFile`,
//! module_merge.go). A base block's required argument can therefore come
//! from its override, and an override block alone is only a fragment.
//!
//! Every block is still checked where it is written (its expressions,
//! its arguments against the schema); what the merge changes is which
//! required arguments are missing, so those are settled here, after the
//! blocks were checked one by one.

use std::path::Path;

use hcl_edit::structure::{Block, Body};
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

use super::decls::label_text;
use super::shared::Shared;
use super::Document;
use syntax::diagnostic::{Code, Diagnostic};

/// Whether Terraform reads this file as an override file: its name without
/// the extension is `override` or ends in `_override`
/// (internal/configs/parser_config_dir.go `dirFiles`).
pub(crate) fn is_override(path: &Path) -> bool {
    let Some(name) = path.file_name().and_then(|n| n.to_str()) else { return false };
    let stem = [".tf", ".tf.json", ".tofu", ".tofu.json"].iter().find_map(|ext| name.strip_suffix(ext));
    stem.is_some_and(|s| s == "override" || s.ends_with("_override"))
}

/// A top-level block's identity: its type and labels (`resource`, `aws_s3_bucket`, `b`).
type Key = Vec<String>;

fn key(b: &Block) -> Key {
    std::iter::once(b.ident.value().to_string()).chain(b.labels.iter().map(|l| label_text(l).to_owned())).collect()
}

/// The names a block sets: its arguments and its nested blocks' types.
fn given(body: &Body) -> impl Iterator<Item = String> + '_ {
    body.attributes().map(|a| a.key.value().to_string()).chain(body.blocks().map(|b| b.ident.value().to_string()))
}

/// The argument or block a `missing-argument` message names: the first
/// backquoted word after "needs" ("… needs the argument `name`", "… needs
/// `rule` block").
fn missing_name(message: &str) -> Option<&str> {
    let after = message.split_once(" needs ")?.1;
    let start = after.find('`')? + 1;
    let len = after.get(start..)?.find('`')?;
    after.get(start..start + len)
}

/// Drops the `missing-argument` errors the merge settles: a base block's
/// that an override block of the same key sets, and every one on an
/// override block that has a base block (which has the rest). Nothing is
/// done for a module without override files.
pub(super) fn settle(docs: &[Document], diagnostics: &mut [Shared<Vec<Diagnostic>>]) {
    let overriding: Vec<bool> = docs.iter().map(|d| is_override(&d.file.path)).collect();
    if !overriding.contains(&true) {
        return;
    }
    // Per key: the names its override blocks set; per document, the
    // blocks with their ranges and keys.
    let mut set: HashMap<Key, HashSet<String>> = HashMap::default();
    let mut blocks: Vec<Vec<(std::ops::Range<usize>, Key)>> = vec![Vec::new(); docs.len()];
    for (di, doc) in docs.iter().enumerate() {
        for item in doc.items.iter() {
            let Some(body) = item.body(&doc.file.text) else { continue };
            for b in body.blocks() {
                let k = key(b);
                if overriding[di] {
                    set.entry(k.clone()).or_default().extend(given(&b.body));
                }
                blocks[di].push((item.range.clone(), k));
            }
        }
    }
    let based: HashSet<&Key> =
        blocks.iter().zip(&overriding).filter(|(_, o)| !**o).flat_map(|(b, _)| b.iter().map(|(_, k)| k)).collect();
    for (di, ds) in diagnostics.iter_mut().enumerate() {
        let settled = |d: &Diagnostic| {
            if d.code != Code::MissingArgument {
                return false;
            }
            let Some((_, k)) = blocks[di].iter().find(|(r, _)| r.start <= d.range.start && d.range.end <= r.end) else {
                return false;
            };
            if overriding[di] {
                return based.contains(k);
            }
            let name = missing_name(&d.message);
            set.get(k).is_some_and(|names| name.is_some_and(|n| names.contains(n)))
        };
        if ds.iter().any(&settled) {
            ds.retain(|d| !settled(d));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn override_files_are_named_as_terraform_names_them() {
        for (name, expected) in [
            ("override.tf", true),
            ("main_override.tf", true),
            ("main_override.tf.json", true),
            ("override.tofu", true),
            ("x_override.tofu.json", true),
            ("main.tf", false),
            ("overrides.tf", false),
            ("myoverride.tf", false),
            ("main_override.tfvars", false),
        ] {
            assert_eq!(is_override(Path::new(name)), expected, "{name}");
        }
    }

    #[test]
    fn the_missing_name_is_the_backquoted_word_after_needs() {
        assert_eq!(missing_name("module `m` needs the argument `b`: its variable has no default"), Some("b"));
        assert_eq!(missing_name("resource `aws_x` needs at least 1 `rule` block"), Some("rule"));
        assert_eq!(missing_name("something else"), None);
    }
}
