//! The module-level passes that judge across items — functions a
//! `required_version` excludes (versions.rs), ephemeral values
//! (ephemeral.rs), names declared twice (duplicates.rs, in every
//! Terraform module) and declarations nothing reads (unused.rs) — run by a
//! full analysis and again after each patch.
//!
//! A pass needs every item of the module, so walking their trees at each
//! keystroke cost a 1 MB module with a pinned `required_version` ~120 ms
//! (the whole module was analysed again). Instead each item's facts are
//! read from its tree once and kept by its id ([`Facts`], in the memo);
//! a pass runs over the facts, and a patch replaces only what the passes
//! say differently (the engine's `settle`, src/engine/settle.rs).

use std::sync::Arc;

use rustc_hash::FxHashMap as HashMap;

use super::{duplicates, ephemeral, module_dialect, noschema, unused, versions, Document, FileKind, Item, ItemId};
use crate::calls::Context;
use syntax::diagnostic::Diagnostic;

/// What one item tells the passes.
pub(super) struct ItemFacts {
    versions: versions::Facts,
    ephemeral: ephemeral::Facts,
    duplicates: duplicates::Facts,
    unused: unused::Facts,
    noschema: noschema::Facts,
}

/// Each item's facts, by id (kept in the memo, pruned with it).
pub(super) type Facts = HashMap<ItemId, Arc<ItemFacts>>;

/// What the passes found: per document the diagnostics they add, and the
/// addresses of ephemeral values.
#[derive(Clone, Debug, Default)]
pub(super) struct Found {
    pub(super) diagnostics: Vec<Vec<Diagnostic>>,
    pub(super) ephemeral: Vec<String>,
    /// Whether a pass applied (else nothing was walked).
    pub(super) applied: bool,
}

/// Runs the passes that apply to the module (none: nothing found, no
/// tree walked).
pub(super) fn run(docs: &[Document], context: &Context, facts: &mut Facts) -> Found {
    let dialect = module_dialect(docs);
    let bounded = versions::bounded(docs, dialect);
    let marked = ephemeral::applies(docs, dialect, context);
    let named = duplicates::applies(docs, dialect);
    let lints = dialect.is_terraform() && docs.iter().any(|d| d.file.kind == FileKind::Terraform);
    if !bounded && !marked && !named && !lints {
        return Found { diagnostics: vec![Vec::new(); docs.len()], ephemeral: Vec::new(), applied: false };
    }
    for doc in docs.iter().filter(|d| d.file.kind == FileKind::Terraform) {
        for item in doc.items.iter() {
            facts.entry(item.id).or_insert_with(|| Arc::new(read(doc, item)));
        }
    }
    let get = |item: &Item| facts.get(&item.id);
    let mut diagnostics = match bounded {
        true => versions::check(docs, dialect, |i| get(i).map(|f| &f.versions)),
        false => vec![Vec::new(); docs.len()],
    };
    if named {
        let found = duplicates::check(docs, dialect, |i| get(i).map(|f| &f.duplicates));
        for (all, more) in diagnostics.iter_mut().zip(found) {
            all.extend(more);
        }
    }
    let mut addresses = Vec::new();
    if marked {
        let (found, a) = ephemeral::check(docs, context, |i| get(i).map(|f| &f.ephemeral));
        for (all, more) in diagnostics.iter_mut().zip(found) {
            all.extend(more);
        }
        addresses = a;
    }
    if lints {
        for (all, more) in diagnostics.iter_mut().zip(unused::check(docs, |i| get(i).map(|f| &f.unused))) {
            all.extend(more);
        }
        let found = noschema::check(docs, context, |i| get(i).map(|f| &f.noschema));
        for (all, more) in diagnostics.iter_mut().zip(found) {
            all.extend(more);
        }
    }
    for ds in &mut diagnostics {
        ds.sort_by_key(|d| (d.range.start, d.range.end));
        ds.dedup();
    }
    Found { diagnostics, ephemeral: addresses, applied: true }
}

/// Whether `text` holds `word` (memchr's search: at every keystroke in a
/// 10 MB module, std's took milliseconds).
pub(super) fn has(text: &str, word: &str) -> bool {
    memchr::memmem::find(text.as_bytes(), word.as_bytes()).is_some()
}

/// An item's facts, from its tree (none for a broken item).
fn read(doc: &Document, item: &Item) -> ItemFacts {
    match item.body(&doc.file.text) {
        Some(body) => ItemFacts {
            versions: versions::facts(&body),
            ephemeral: ephemeral::facts(&body),
            duplicates: duplicates::facts(&body),
            unused: unused::facts(&body),
            noschema: noschema::facts(&body),
        },
        None => ItemFacts {
            versions: Vec::new(),
            ephemeral: ephemeral::Facts::default(),
            duplicates: Vec::new(),
            unused: unused::Facts::default(),
            noschema: noschema::Facts::default(),
        },
    }
}
