//! What an override file may declare (validate.md §1): `mergeFile`
//! (internal/configs/module.go) merges each of its blocks into the base
//! declaration of the same name in a primary file, and reports a block
//! that has none ("Missing base variable declaration to override",
//! "Missing resource to override", …), at the block; an aliased provider
//! configuration needs a base too, a default one does not (an absent one
//! is an empty one). `moved` and `import` blocks cannot be overridden,
//! nor `check` blocks and conditions (`decodeCheckBlock`,
//! `decodeCheckRuleBlock` in checks.go). Ephemeral resources are not
//! merged (`mergeFile` has no case for them) and are left alone.
//!
//! Part of the duplicates pass (duplicates.rs): the bases are the primary
//! files' declarations it gathered.

use rustc_hash::FxHashSet as HashSet;

use super::duplicates::Facts;
use super::overrides::is_override;
use super::{Document, FileKind, Item};
use syntax::diagnostic::{Code, Diagnostic};
use syntax::Dialect;

/// Adds, per override document, an error at each declaration with no base
/// (`bases`: the primary files' keys) and at each block it cannot hold.
pub(super) fn check<'a>(
    docs: &[Document],
    dialect: Dialect,
    mut bases: HashSet<Box<str>>,
    facts: &impl Fn(&Item) -> Option<&'a Facts>,
    out: &mut [Vec<Diagnostic>],
) {
    let mut order: Vec<usize> = (0..docs.len())
        .filter(|&i| docs[i].file.kind == FileKind::Terraform && is_override(&docs[i].file.path))
        .filter(|&i| dialect == Dialect::OpenTofu || !docs[i].file.path.to_string_lossy().contains(".tofu"))
        .collect();
    order.sort_by(|&a, &b| docs[a].file.path.file_name().cmp(&docs[b].file.path.file_name()));
    for di in order {
        for item in docs[di].items.iter() {
            // (A `check` block's data source is not read: the check is refused.)
            for d in facts(item).into_iter().flatten().filter(|d| !d.late()) {
                let key = d.key();
                let (kind, rest) = key.split_once('.').unwrap_or((key, ""));
                let msg = match kind {
                    "#moved" | "#import" => format!(
                        "Cannot override `{}` blocks: they can appear only in primary files, not in override files",
                        &kind[1..]
                    ),
                    "#validation" | "#precondition" | "#postcondition" | "check" => format!(
                        "Can't override {} blocks: override files cannot hold them",
                        kind.trim_start_matches('#')
                    ),
                    "variable" | "local" | "output" | "module" | "resource" | "data" | "provider" => {
                        // A default provider configuration needs no base,
                        // and becomes one.
                        if bases.contains(key) || (kind == "provider" && !rest.contains('.')) {
                            bases.insert(key.into());
                            continue;
                        }
                        missing(kind, rest)
                    }
                    _ => continue,
                };
                let code = if kind.starts_with('#') || kind == "check" {
                    Code::MetaArgument
                } else {
                    Code::UndefinedReference
                };
                out[di].push(Diagnostic::new(code, d.range(item.range.start), msg));
            }
        }
    }
}

/// Terraform's summary for a block of `kind` with no base, and what it
/// names.
fn missing(kind: &str, rest: &str) -> String {
    let (a, b) = rest.split_once('.').unwrap_or((rest, ""));
    let what = match kind {
        "variable" => format!("Missing base variable declaration to override: no primary file declares variable \"{a}\""),
        "local" => format!("Missing base local value definition to override: no primary file defines local value \"{a}\""),
        "output" => format!("Missing base output definition to override: no primary file defines output \"{a}\""),
        "module" => format!("Missing module call to override: no primary file calls module \"{a}\""),
        "resource" => format!("Missing resource to override: no primary file declares resource \"{a}\" \"{b}\""),
        "data" => format!("Missing data resource to override: no primary file declares data \"{a}\" \"{b}\""),
        _ => format!("Missing base provider configuration for override: no primary file configures provider \"{a}\" with alias \"{b}\""),
    };
    format!("{what}; an override file can only change what a primary file declares")
}
