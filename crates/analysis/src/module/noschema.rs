//! A module whose providers have no schema says so once (issue 45.3,
//! analysis.md §5, code `no-schema`): a hint on the `required_providers`
//! entry of the first provider without one (else on the first resource or
//! data block of its types), naming every such provider and what would
//! give them a schema. Otherwise the only sign is that each of their
//! resources is `any`, which a user reads as "typed".
//!
//! Said only when some provider schema is in play for the module (a file
//! named, a cache read, or the server's search of the user's provider
//! binaries, even one that found nothing): a `check` run with no schema
//! source at all stays quiet, as the user did not ask for resource types.
//! A provider the search is still reading is not said; one it skipped is
//! said with why (no binary, the lock file's hashes, …).
//! The project layer gives the schemas ([`Context::schemas`]); this pass
//! only looks at what they lack (no I/O). Terraform and OpenTofu modules
//! only: a Pulumi HCL program's types come from Pulumi's packages.

use std::ops::Range;

use hcl_edit::structure::Body;
use hcl_edit::Span;

use super::decls::label_text;
use super::unused::provider_root;
use super::{Document, FileKind, Item};
use crate::calls::Context;
use syntax::diagnostic::{Code, Diagnostic};

/// What one item tells the pass (ranges relative to the item).
#[derive(Default)]
pub(super) struct Facts {
    /// `required_providers` entries: local name, range of the name.
    required: Vec<(Box<str>, Range<u32>)>,
    /// Top-level `resource` and `data` blocks.
    blocks: Vec<Typed>,
}

/// A `resource` or `data` block.
struct Typed {
    data: bool,
    ty: Box<str>,
    /// The provider's local name (its `provider`, else the type's prefix).
    provider: Box<str>,
    /// The type label's range.
    range: Range<u32>,
}

fn span(s: Option<Range<usize>>) -> Range<u32> {
    let s = s.unwrap_or(0..0);
    s.start as u32..s.end as u32
}

/// The facts of one item's body.
pub(super) fn facts(body: &Body) -> Facts {
    let mut f = Facts::default();
    for b in body.blocks() {
        match b.ident.value().as_str() {
            "terraform" => {
                for r in b.body.blocks().filter(|r| r.ident.value().as_str() == "required_providers") {
                    for a in r.body.attributes() {
                        f.required.push((a.key.value().as_str().into(), span(a.key.span())));
                    }
                }
            }
            kind @ ("resource" | "data") if b.labels.len() == 2 => {
                let ty = label_text(&b.labels[0]);
                let explicit = b.body.get_attribute("provider").and_then(|a| provider_root(&a.value));
                let provider = explicit.unwrap_or_else(|| ty.split('_').next().unwrap_or("").to_owned());
                let range = span(b.labels[0].span());
                f.blocks.push(Typed { data: kind == "data", ty: ty.into(), provider: provider.into(), range });
            }
            _ => {}
        }
    }
    f
}

/// What gives a provider a schema (lsp.md "Provider binaries the user
/// already has").
const FIX: &str = "its resources and data sources are `any`. To type them: have its provider binary, at a version \
     the module's `required_providers` accepts, in Terraform's or OpenTofu's plugin cache (`TF_PLUGIN_CACHE_DIR`, \
     `plugin_cache_dir`; `terraform init` fills it) and let the server read it (a trusted workspace or \
     `hclTypes.terraform.pluginCache: true`); or name its schema file (`providerSchemas`, `--provider-schema`), \
     or the cache `hcl-types schemas DIR` writes (`--schema-cache`)";

/// Per document, the one `no-schema` hint of the module (if any).
pub(super) fn check<'a>(
    docs: &[Document],
    context: &Context,
    facts: impl Fn(&Item) -> Option<&'a Facts>,
) -> Vec<Vec<Diagnostic>> {
    let mut out = vec![Vec::new(); docs.len()];
    // A Pulumi HCL program's resources are typed by Pulumi's packages (and
    // `pulumi_*` by Pulumi itself), not by the plugin cache.
    if super::module_dialect(docs) == syntax::Dialect::PulumiHcl {
        return out;
    }
    let in_play = |s: &&schema::Schemas| !s.files.is_empty() || s.searched.is_some();
    let Some(schemas) = context.schemas.as_deref().filter(in_play) else { return out };
    let reading = |name: &str| schemas.searched.as_ref().is_some_and(|s| s.reading.iter().any(|r| r == name));
    let known = |name: &str| {
        reading(name) || schemas.files.iter().flat_map(|f| f.schemas.providers.iter()).any(|p| p.name() == name)
    };
    let terraform = || docs.iter().enumerate().filter(|(_, d)| d.file.kind == FileKind::Terraform);
    // The untyped providers, in the order their blocks come; the first
    // block of each.
    let mut untyped: Vec<(&str, usize, Range<usize>)> = Vec::new();
    for (j, d) in terraform() {
        for item in d.items.iter() {
            let Some(f) = facts(item) else { continue };
            for Typed { data, ty, provider, range: r } in &f.blocks {
                let untyped_here = !known(provider) && schemas.find(*data, ty).is_none();
                if untyped_here && !untyped.iter().any(|(p, ..)| p == &&**provider) {
                    let at = item.range.start;
                    untyped.push((provider, j, r.start as usize + at..r.end as usize + at));
                }
            }
        }
    }
    let Some(first) = untyped.first() else { return out };
    let entry = terraform().find_map(|(j, d)| {
        d.items.iter().find_map(|item| {
            let f = facts(item)?;
            let (_, r) = f.required.iter().find(|(n, _)| untyped.iter().any(|(p, ..)| p == &&**n))?;
            Some((j, r.start as usize + item.range.start..r.end as usize + item.range.start))
        })
    });
    let (j, range) = entry.unwrap_or_else(|| (first.1, first.2.clone()));
    let names: Vec<String> = untyped.iter().map(|(p, ..)| format!("`{p}`")).collect();
    let (noun, pronoun) = if names.len() == 1 { ("provider", "has") } else { ("providers", "have") };
    // Why the search of the user's binaries did not type them.
    let skipped = schemas.searched.iter().flat_map(|s| s.untyped.iter());
    let why: Vec<String> = skipped
        .filter(|(n, _)| untyped.iter().any(|(p, ..)| p == n))
        .map(|(n, why)| format!(" (`{n}`: {why})"))
        .collect();
    let message = format!(
        "no schema for the {noun} {} of this module: none of the schemas read {pronoun} it{}; {FIX}",
        names.join(", "),
        why.concat()
    );
    out[j].push(Diagnostic::new(Code::NoSchema, range, message));
    out
}
