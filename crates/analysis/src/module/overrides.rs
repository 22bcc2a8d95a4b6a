//! Override files (analysis.md §6.1): Terraform loads
//! `override.tf` and `*_override.tf` (and `.tf.json`, and OpenTofu's
//! `.tofu` forms) after the other files and merges each of their blocks
//! into the base block of the same type and labels: an argument replaces
//! the base's, a nested block type replaces all of the base's blocks of
//! that type (hashicorp/terraform internal/configs/module.go `mergeFile`,
//! module_merge.go). An override block alone is only a fragment.
//!
//! Every block is still checked where it is written (its expressions,
//! its arguments against the schema); what the merge changes is which
//! required arguments are missing, settled here after the blocks were
//! checked one by one.

use std::path::Path;

use hcl_edit::structure::Block;
use rustc_hash::FxHashSet as HashSet;

use super::decls::label_text;
use super::shared::Shared;
use super::Document;
use syntax::diagnostic::{Code, Diagnostic};

/// Whether Terraform reads this file as an override file: its name without
/// the extension is `override` or ends in `_override`
/// (internal/configs/parser_config_dir.go `dirFiles`).
pub fn is_override(path: &Path) -> bool {
    let Some(name) = path.file_name().and_then(|n| n.to_str()) else { return false };
    let stem = [".tf", ".tf.json", ".tofu", ".tofu.json"].iter().find_map(|ext| name.strip_suffix(ext));
    stem.is_some_and(|s| s == "override" || s.ends_with("_override"))
}

/// A top-level block's identity: its type and labels (`resource`, `aws_s3_bucket`, `b`).
type Key = Vec<String>;

fn key(b: &Block) -> Key {
    std::iter::once(b.ident.value().to_string()).chain(b.labels.iter().map(|l| label_text(l).to_owned())).collect()
}

/// The override files' block keys, and the other files' items that hold a
/// block of one of those keys (those whose merge [`settle`] and
/// `merge_var` judge): a patch takes an edit of any other item of a base
/// file, as their merge does not change with it.
#[derive(Debug, Default)]
pub(super) struct Merged {
    keys: HashSet<Key>,
    pub(super) items: HashSet<super::ItemId>,
}

impl Merged {
    /// `None` for a module without override files.
    pub(super) fn of(docs: &[Document]) -> Option<Merged> {
        let keys: HashSet<Key> = docs
            .iter()
            .filter(|d| is_override(&d.file.path))
            .flat_map(|d| d.items.iter().flat_map(|i| item_keys(d, i)))
            .collect();
        if !docs.iter().any(|d| is_override(&d.file.path)) {
            return None;
        }
        let mut items = HashSet::default();
        for d in docs.iter().filter(|d| !is_override(&d.file.path)) {
            for item in d.items.iter() {
                // (The header's text first: a block of a key starts with
                // its identifier and holds its labels, so most items are
                // told apart without their tree.)
                let head = d.file.text.get(item.range.clone()).unwrap_or("");
                let head = head.trim_start().split('{').next().unwrap_or("");
                let maybe = keys
                    .iter()
                    .any(|k| head.starts_with(k[0].as_str()) && k[1..].iter().all(|l| head.contains(l.as_str())));
                if maybe && item_keys(d, item).iter().any(|k| keys.contains(k)) {
                    items.insert(item.id);
                }
            }
        }
        Some(Merged { keys, items })
    }

    /// Whether `item` of `doc` holds a block an override file merges into.
    pub(super) fn merges_into(&self, doc: &Document, item: &super::Item) -> bool {
        item_keys(doc, item).iter().any(|k| self.keys.contains(k))
    }
}

fn item_keys(doc: &Document, item: &super::Item) -> Vec<Key> {
    item.body(&doc.file.text).map(|b| b.blocks().map(key).collect()).unwrap_or_default()
}

/// Drops the `missing-argument` errors (and `missing-type` hints) of
/// override blocks that have a base block: a fragment sets only what it
/// changes, the rest is the base's. A base block's own
/// stay, even for an argument its override sets: Terraform decodes the
/// base with the full schema (internal/configs/module_merge_body.go,
/// `mergeBody.Content` takes the base's `PartialContent` with the
/// required arguments and keeps its diagnostics), and `validate` reports
/// "Missing required argument" there (tests/terraform/test_overrides.py).
/// Nothing is done for a module without override files.
pub(super) fn settle(docs: &[Document], diagnostics: &mut [Shared<Vec<Diagnostic>>]) {
    let overriding: Vec<bool> = docs.iter().map(|d| is_override(&d.file.path)).collect();
    if !overriding.contains(&true) {
        return;
    }
    // Every base block's key; per override document, its blocks' ranges and keys.
    let mut based: HashSet<Key> = HashSet::default();
    let mut blocks: Vec<Vec<(std::ops::Range<usize>, Key)>> = vec![Vec::new(); docs.len()];
    for (di, doc) in docs.iter().enumerate() {
        for item in doc.items.iter() {
            let Some(body) = item.body(&doc.file.text) else { continue };
            for b in body.blocks() {
                if overriding[di] {
                    blocks[di].push((item.range.clone(), key(b)));
                } else {
                    based.insert(key(b));
                }
            }
        }
    }
    for (di, ds) in diagnostics.iter_mut().enumerate().filter(|(di, _)| overriding[*di]) {
        let settled = |d: &Diagnostic| {
            matches!(d.code, Code::MissingArgument | Code::MissingType)
                && blocks[di].iter().any(|(r, k)| r.start <= d.range.start && d.range.end <= r.end && based.contains(k))
        };
        if ds.iter().any(&settled) {
            ds.retain(|d| !settled(d));
        }
    }
}

/// `base` with an override file's declaration of the same variable merged
/// in (Terraform's `Variable.merge`, internal/configs/module_merge.go): a
/// type replaces the base's, and so does a default (the variable is then
/// optional). The base's places stay (diagnostics point at the base).
pub(super) fn merge_var(base: &mut super::decls::VarDecl, over: &super::decls::VarDecl) {
    if over.type_range.is_some() {
        base.declared = over.declared.clone();
        base.value = over.value.clone();
        if !base.declared.as_ref().is_none_or(types::Type::is_any) {
            base.default = None;
        }
    }
    if !over.required {
        base.required = false;
        if base.declared.as_ref().is_none_or(types::Type::is_any) {
            base.default = over.default.clone();
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
}
