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
//! say differently ([`settle`]).

use std::ops::Range;
use std::sync::Arc;

use rustc_hash::FxHashMap as HashMap;

use super::shared::Shared;
use super::{
    duplicates, ephemeral, module_dialect, noschema, provider_refs, sensitive, unused, versions, Document, FileKind,
    Item, ItemId, Kept,
};
use crate::calls::Context;
use syntax::diagnostic::Diagnostic;

/// What one item tells the passes.
pub(super) struct ItemFacts {
    versions: versions::Facts,
    ephemeral: ephemeral::Facts,
    duplicates: duplicates::Facts,
    provider_refs: provider_refs::Facts,
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

/// The words without which no pass applies to a module whose calls lead
/// to no ephemeral output ([`versions::bounded`], [`ephemeral::applies`]).
const WORDS: [&str; 4] = ["required_version", "ephemeral", "terraform.applying", "sensitive"];

/// [`run`] after a patch: skipped when no pass applied before and the
/// edited items say none of [`WORDS`] (nor do the calls lead to an
/// ephemeral output): then none applies now either, and the three scans of
/// every document's text that would tell so (~1 ms at 10 MB) are saved.
pub(super) fn rerun(
    docs: &[Document],
    context: &Context,
    facts: &mut Facts,
    before: &Found,
    edited: &str,
    unused_on: bool,
) -> Found {
    let dialect = module_dialect(docs);
    let marks = ephemeral::applies(&[], dialect, context) || duplicates::applies(docs, dialect);
    if before.applied || marks || WORDS.iter().any(|w| has(edited, w)) {
        return run(docs, context, facts, unused_on);
    }
    Found { diagnostics: vec![Vec::new(); docs.len()], ephemeral: Vec::new(), applied: false }
}

/// Runs the passes that apply to the module (none: nothing found, no
/// tree walked). `unused_on`: whether the lints of unused declarations
/// are computed (else their facts are not gathered, [`super::Memo::set_lints`]).
pub(super) fn run(docs: &[Document], context: &Context, facts: &mut Facts, unused_on: bool) -> Found {
    let dialect = module_dialect(docs);
    let bounded = versions::bounded(docs, dialect);
    let marked = ephemeral::applies(docs, dialect, context);
    let named = duplicates::applies(docs, dialect);
    let lints = dialect.is_terraform() && docs.iter().any(|d| d.file.kind == FileKind::Terraform);
    let secret = sensitive::applies(docs, dialect, context);
    if !bounded && !marked && !named && !lints && !secret {
        return Found { diagnostics: vec![Vec::new(); docs.len()], ephemeral: Vec::new(), applied: false };
    }
    for doc in docs.iter().filter(|d| d.file.kind == FileKind::Terraform) {
        for item in doc.items.iter() {
            facts.entry(item.id).or_insert_with(|| Arc::new(read(doc, item, unused_on)));
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
        let found = provider_refs::check(docs, |i| get(i).map(|f| &f.provider_refs));
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
    if secret {
        for (all, more) in diagnostics.iter_mut().zip(sensitive::check(docs, |i| get(i).map(|f| &f.ephemeral))) {
            all.extend(more);
        }
    }
    if lints {
        if unused_on {
            for (all, more) in diagnostics.iter_mut().zip(unused::check(docs, |i| get(i).map(|f| &f.unused))) {
                all.extend(more);
            }
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

/// An item's facts, from its tree (none for a broken item; no unused
/// facts unless `unused_on`).
fn read(doc: &Document, item: &Item, unused_on: bool) -> ItemFacts {
    match item.body(&doc.file.text) {
        Some(body) => ItemFacts {
            versions: versions::facts(&body),
            ephemeral: ephemeral::facts(&body),
            duplicates: duplicates::facts(&body),
            provider_refs: provider_refs::facts(&body),
            unused: if unused_on { unused::facts(&body) } else { unused::Facts::default() },
            noschema: noschema::facts(&body),
        },
        None => ItemFacts {
            versions: Vec::new(),
            ephemeral: ephemeral::Facts::default(),
            duplicates: Vec::new(),
            provider_refs: provider_refs::Facts::default(),
            unused: unused::Facts::default(),
            noschema: noschema::Facts::default(),
        },
    }
}

/// After a patch: takes out of `diagnostics` what the passes said before
/// (`old`, placed where the patch left it) and no longer say, and puts in
/// what they say now (`new`) where it is missing — a patch drops what lay
/// in the items it checked again, passes' findings included. `kept` is
/// narrowed to what stayed in place.
pub(super) fn settle(
    diagnostics: &mut [Shared<Vec<Diagnostic>>],
    kept: &mut [Option<Kept>],
    old: &[Vec<Diagnostic>],
    new: &[Vec<Diagnostic>],
) {
    let key = |d: &Diagnostic| (d.range.start, d.range.end);
    for (j, ds) in diagnostics.iter_mut().enumerate() {
        let (old, new) = (old.get(j).map_or(&[][..], Vec::as_slice), new.get(j).map_or(&[][..], Vec::as_slice));
        if old.is_empty() && new.is_empty() {
            continue;
        }
        let find = |v: &[Diagnostic], d: &Diagnostic| {
            let from = v.partition_point(|x| key(x) < key(d));
            v[from..].iter().take_while(|x| key(x) == key(d)).position(|x| x == d).map(|i| from + i)
        };
        let gone: Vec<usize> = old.iter().filter(|d| !new.contains(d)).filter_map(|d| find(ds, d)).collect();
        let missing: Vec<&Diagnostic> = new.iter().filter(|d| find(ds, d).is_none()).collect();
        if gone.is_empty() && missing.is_empty() {
            continue;
        }
        let narrow = |kept: &mut Option<Kept>, at: usize, len_after: usize| {
            if let Some(k) = kept {
                k.front = k.front.min(at);
                k.back = k.back.min(len_after - at);
            }
        };
        let v = &mut **ds;
        let mut gone = gone;
        gone.sort_unstable();
        gone.dedup();
        for at in gone.into_iter().rev() {
            v.remove(at);
            narrow(&mut kept[j], at, v.len());
        }
        for d in missing {
            let at = v.partition_point(|x| key(x) <= key(d));
            v.insert(at, d.clone());
            narrow(&mut kept[j], at, v.len() - 1);
        }
    }
}

/// `old`'s diagnostics of document `k` as a patch of `window` left them:
/// those in the window dropped, those after it moved (as
/// [`super::patch::Window::splice`] does).
pub(super) fn moved(old: &mut [Vec<Diagnostic>], k: usize, lo: usize, hi: usize, delta: isize) {
    use super::Placed;
    let Some(ds) = old.get_mut(k) else { return };
    ds.retain(|d| !(lo..hi).contains(&d.range.start));
    let m = |r: &Range<usize>| r.start.saturating_add_signed(delta)..r.end.saturating_add_signed(delta);
    for d in ds.iter_mut().filter(|d| d.range.start >= hi) {
        d.map_ranges(m);
    }
}
