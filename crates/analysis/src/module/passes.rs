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

use rayon::prelude::*;
use rustc_hash::FxHashMap as HashMap;

use super::{
    duplicates, ephemeral, module_dialect, noschema, provider_refs, sensitive, unused, versions, Document, FileKind,
    Item, ItemId,
};
use crate::calls::Context;
use syntax::diagnostic::Diagnostic;

/// What one item tells the passes.
pub(super) struct ItemFacts {
    /// Only read while a `required_version` bounds the module
    /// ([`versions::bounded`]): every function call of every item walked
    /// for a pass that does not apply was ~3.5% of a 10 MB `check`.
    versions: Option<versions::Facts>,
    pub(super) ephemeral: ephemeral::Facts,
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
    /// The passes that judge each item by what they learnt of the whole
    /// module (versions.rs, ephemeral.rs), apart: what they learnt, and
    /// per document what they found. A patch whose edit changes none of
    /// what they learnt has only the edited items judged again ([`Reuse`]).
    pub(super) bound: Option<versions::Bound>,
    pub(super) versions: Vec<Vec<Diagnostic>>,
    pub(super) marks: Option<Arc<ephemeral::Marks>>,
    pub(super) marked: Vec<Vec<Diagnostic>>,
    /// How many items those two passes judged (the work a patch saves).
    pub(super) judged: usize,
}

/// What a patch hands [`run_with`]: the last findings (placed where the
/// patch left them, the edited items' dropped), the edited document and
/// its new items, and whether the edit leaves what the ephemeral pass
/// learns of the module as it was (see [`same_inputs`]).
pub(super) struct Reuse<'a> {
    pub(super) before: &'a Found,
    pub(super) doc: usize,
    pub(super) items: &'a [Item],
    pub(super) same_marks: bool,
}

/// Whether the items `old` (by id) became `new` without changing what the
/// ephemeral pass learns of the module; `false` when an old item's facts
/// are gone.
pub(super) fn same_inputs(facts: &mut Facts, doc: &Document, old: &[ItemId], new: &[Item], unused_on: bool) -> bool {
    for item in new {
        facts.entry(item.id).or_insert_with(|| Arc::new(read(doc, item, unused_on, false)));
    }
    let old: Option<Vec<&ephemeral::Facts>> = old.iter().map(|id| facts.get(id).map(|f| &f.ephemeral)).collect();
    let new: Vec<&ephemeral::Facts> = new.iter().filter_map(|i| facts.get(&i.id).map(|f| &f.ephemeral)).collect();
    old.is_some_and(|old| ephemeral::same_inputs(&old, &new))
}

/// Runs the passes that apply to the module (none: nothing found, no
/// tree walked). `unused_on`: whether the lints of unused declarations
/// are computed (else their facts are not gathered, [`super::Memo::set_lints`]).
pub(super) fn run(docs: &[Document], context: &Context, facts: &mut Facts, unused_on: bool) -> Found {
    run_with(docs, context, facts, None, unused_on)
}

/// [`run`], with the versions and ephemeral passes' last findings reused
/// for the items a patch did not parse again when what they learnt of the
/// module is the same (`reuse`).
pub(super) fn run_with(
    docs: &[Document],
    context: &Context,
    facts: &mut Facts,
    reuse: Option<Reuse>,
    unused_on: bool,
) -> Found {
    let dialect = module_dialect(docs);
    let bounded = versions::bounded(docs, dialect);
    let marked = ephemeral::applies(docs, dialect, context);
    let named = duplicates::applies(docs, dialect);
    let lints = dialect.is_terraform() && docs.iter().any(|d| d.file.kind == FileKind::Terraform);
    let secret = sensitive::applies(docs, dialect, context);
    if !bounded && !marked && !named && !lints && !secret {
        return Found { diagnostics: vec![Vec::new(); docs.len()], ..Found::default() };
    }
    read_new(docs, facts, unused_on, bounded);
    let get = |item: &Item| facts.get(&item.id);
    let items: usize = docs.iter().filter(|d| d.file.kind == FileKind::Terraform).map(|d| d.items.len()).sum();
    let mut found = Found { diagnostics: vec![Vec::new(); docs.len()], applied: true, ..Found::default() };
    if bounded {
        found.bound = versions::bound(docs, dialect);
        let again = reuse.as_ref().filter(|r| r.before.bound == found.bound && found.bound.is_some());
        found.versions = match (again, &found.bound) {
            (Some(r), Some(bound)) => {
                found.judged += r.items.len();
                let mut v = r.before.versions.clone();
                if docs.get(r.doc).is_some_and(|d| d.file.kind == FileKind::Terraform) {
                    v[r.doc].extend(versions::check_items(docs, bound, r.items, |i| {
                        get(i).and_then(|f| f.versions.as_ref())
                    }));
                }
                v
            }
            _ => {
                found.judged += items;
                versions::check(docs, dialect, |i| get(i).and_then(|f| f.versions.as_ref()))
            }
        };
    }
    if marked {
        let again = reuse.as_ref().filter(|r| r.same_marks && r.before.marks.is_some());
        match again.and_then(|r| Some((r, r.before.marks.clone()?))) {
            Some((r, marks)) => {
                found.judged += r.items.len();
                let mut v = r.before.marked.clone();
                if docs.get(r.doc).is_some_and(|d| d.file.kind == FileKind::Terraform) {
                    v[r.doc].extend(ephemeral::check_items(r.items, &marks, context, |i| get(i).map(|f| &f.ephemeral)));
                }
                found.marked = v;
                found.marks = Some(marks);
                found.ephemeral = r.before.ephemeral.clone();
            }
            None => {
                found.judged += items;
                let (diagnostics, addresses, marks) = ephemeral::check(docs, context, |i| get(i).map(|f| &f.ephemeral));
                (found.marked, found.ephemeral, found.marks) = (diagnostics, addresses, Some(Arc::new(marks)));
            }
        }
    }
    let mut diagnostics = found.versions.clone();
    diagnostics.resize(docs.len(), Vec::new());
    for (all, more) in diagnostics.iter_mut().zip(&found.marked) {
        all.extend(more.iter().cloned());
    }
    if named {
        let more = duplicates::check(docs, dialect, |i| get(i).map(|f| &f.duplicates));
        for (all, more) in diagnostics.iter_mut().zip(more) {
            all.extend(more);
        }
        let more = provider_refs::check(docs, context, |i| get(i).map(|f| &f.provider_refs));
        for (all, more) in diagnostics.iter_mut().zip(more) {
            all.extend(more);
        }
    }
    if secret {
        for (all, more) in diagnostics.iter_mut().zip(sensitive::check(docs, context, |i| get(i).map(|f| &f.ephemeral)))
        {
            all.extend(more);
        }
    }
    if lints {
        if unused_on {
            for (all, more) in diagnostics
                .iter_mut()
                .zip(unused::check(docs, unused::outputs_read(context), |i| get(i).map(|f| &f.unused)))
            {
                all.extend(more);
            }
        }
        let more = noschema::check(docs, context, |i| get(i).map(|f| &f.noschema));
        for (all, more) in diagnostics.iter_mut().zip(more) {
            all.extend(more);
        }
    }
    for ds in &mut diagnostics {
        ds.sort_by_key(|d| (d.range.start, d.range.end));
        ds.dedup();
    }
    found.diagnostics = diagnostics;
    found
}

/// Whether `text` holds `word` (memchr's search: at every keystroke in a
/// 10 MB module, std's took milliseconds).
pub(super) fn has(text: &str, word: &str) -> bool {
    memchr::memmem::find(text.as_bytes(), word.as_bytes()).is_some()
}

/// Reads, in parallel, the facts of the Terraform items that have none
/// yet (every item of a first analysis: read one by one they were ~8% of
/// a 10 MB `check`, on one core while the other waited), or, when
/// `bounded`, none of the versions pass (an edit pinned the module).
fn read_new(docs: &[Document], facts: &mut Facts, unused_on: bool, bounded: bool) {
    let missing: Vec<(&Document, &Item)> = docs
        .iter()
        .filter(|d| d.file.kind == FileKind::Terraform)
        .flat_map(|d| d.items.iter().map(move |i| (d, i)))
        .filter(|(_, i)| !facts.get(&i.id).is_some_and(|f| !bounded || f.versions.is_some()))
        .collect();
    let fresh: Vec<(ItemId, Arc<ItemFacts>)> =
        missing.par_iter().with_min_len(64).map(|&(d, i)| (i.id, Arc::new(read(d, i, unused_on, bounded)))).collect();
    facts.extend(fresh);
}

/// An item's facts, from its tree (none for a broken item; no unused
/// facts unless `unused_on`, no versions facts unless `bounded`).
fn read(doc: &Document, item: &Item, unused_on: bool, bounded: bool) -> ItemFacts {
    match item.body(&doc.file.text) {
        Some(body) => ItemFacts {
            versions: bounded.then(|| versions::facts(&body)),
            ephemeral: ephemeral::facts(&body),
            duplicates: duplicates::facts(&body),
            provider_refs: provider_refs::facts(&body),
            unused: if unused_on { unused::facts(&body) } else { unused::Facts::default() },
            noschema: noschema::facts(&body),
        },
        None => ItemFacts {
            versions: bounded.then(Vec::new),
            ephemeral: ephemeral::Facts::default(),
            duplicates: Vec::new(),
            provider_refs: provider_refs::Facts::default(),
            unused: unused::Facts::default(),
            noschema: noschema::Facts::default(),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::SourceFile;

    /// How many items' function calls the versions pass walked (counted by
    /// the facts it kept).
    fn walked(text: &str) -> (usize, usize) {
        let docs = [Document::parse(SourceFile::new("/m/main.tf", text).expect("a .tf file"))];
        let mut facts = Facts::default();
        run(&docs, &Context::default(), &mut facts, true);
        (facts.values().filter(|f| f.versions.is_some()).count(), facts.len())
    }

    #[test]
    fn calls_are_walked_for_the_versions_pass_only_when_a_required_version_bounds_the_module() {
        let items = "variable \"a\" {}\nlocals {\n  b = upper(var.a)\n}\noutput \"c\" {\n  value = local.b\n}\n";
        // Unbounded (the lints read every item, the versions pass none).
        assert_eq!(walked(items), (0, 3));
        // Pinned: every item, the `terraform` block too.
        let pinned = format!("terraform {{\n  required_version = \"~> 1.5.0\"\n}}\n{items}");
        assert_eq!(walked(&pinned), (4, 4));
    }
}
