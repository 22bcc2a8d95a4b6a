//! After a patch, the module-level passes (module/passes.rs) run again
//! over every item's facts, and what they say differently is settled into
//! the patched analysis: the driver's side of the passes, the passes
//! themselves staying with the dialect code.

use std::ops::Range;

use syntax::diagnostic::Diagnostic;

use crate::calls::Context;
use crate::document::{Document, Item, ItemId};
use crate::module::passes::{has, run_with, same_inputs, Facts, Found, Reuse};
use crate::module::{duplicates, ephemeral, module_dialect, Kept, Placed, Shared};

/// The words without which no pass applies to a module whose calls lead
/// to no ephemeral output ([`versions::bounded`], [`ephemeral::applies`]).
const WORDS: [&str; 4] = ["required_version", "ephemeral", "terraform.applying", "sensitive"];

/// [`crate::module::passes::run`] after a patch: skipped when no pass applied before and the
/// edited items say none of [`WORDS`] (nor do the calls lead to an
/// ephemeral output): then none applies now either, and the three scans of
/// every document's text that would tell so (~1 ms at 10 MB) are saved.
/// Else the passes that judge items by what they learnt of the module
/// judge only the edited items again when the edit leaves that alone
/// ([`run_with`]): `old` are the ids of the items the edit replaced in
/// document `k`, `new` the items that replace them; `same_context`
/// whether what the calls lead to is as before.
pub(in crate::module) fn rerun(
    docs: &[Document],
    context: &Context,
    facts: &mut Facts,
    before: &Found,
    (k, old, new): (usize, &[ItemId], &[Item]),
    same_context: bool,
    unused_on: bool,
) -> Found {
    let dialect = module_dialect(docs);
    let marks = ephemeral::applies(&[], dialect, context) || duplicates::applies(docs, dialect);
    let edited = match (new.first(), new.last()) {
        (Some(a), Some(b)) => docs[k].file.text.get(a.range.start..b.range.end).unwrap_or(""),
        _ => "",
    };
    if before.applied || marks || WORDS.iter().any(|w| has(edited, w)) {
        let same_marks = same_context && same_inputs(facts, &docs[k], old, new, unused_on);
        return run_with(docs, context, facts, Some(Reuse { before, doc: k, items: new, same_marks }), unused_on);
    }
    Found { diagnostics: vec![Vec::new(); docs.len()], ..Found::default() }
}

/// After a patch: takes out of `diagnostics` what the passes said before
/// (`old`, placed where the patch left it) and no longer say, and puts in
/// what they say now (`new`) where it is missing — a patch drops what lay
/// in the items it checked again, passes' findings included. `kept` is
/// narrowed to what stayed in place.
pub(in crate::module) fn settle(
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
/// [`super::results::Window::splice`] does).
pub(in crate::module) fn moved(old: &mut [Vec<Diagnostic>], k: usize, lo: usize, hi: usize, delta: isize) {
    let Some(ds) = old.get_mut(k) else { return };
    ds.retain(|d| !(lo..hi).contains(&d.range.start));
    let m = |r: &Range<usize>| r.start.saturating_add_signed(delta)..r.end.saturating_add_signed(delta);
    for d in ds.iter_mut().filter(|d| d.range.start >= hi) {
        d.map_ranges(m);
    }
}
