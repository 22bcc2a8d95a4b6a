//! Phases 7 to 10 of [`Memo::patch`]: the items checked again, their
//! results placed into the last analysis in place ([`Window`]), the
//! module-level passes settled, and the memo told the new results.

use std::ops::Range;
use std::sync::Arc;

use rayon::prelude::*;
use rustc_hash::FxHashMap as HashMap;
use syntax::diagnostic::{Diagnostic, Related};
use syntax::typeexpr::TypeNode;
use syntax::Dialect;
use types::Type;

use super::patch::{Again, Edit, Fresh, Inferred, NewComputed};
use super::{CheckResult, ComputedResult, GiveUp, Memo, Readers};
use crate::document::{Document, Item, ItemId};
use crate::infer::Space;
use crate::module::checks::check_item;
use crate::module::decls::{ComputedDecl, Decls, VarDecl};
use crate::module::env::{space_index, ModuleEnv};
use crate::module::{moved, shift, typed_resources, Kept, ModuleAnalysis, Placed, Shared, Symbol, SymbolKind, VarRef};
use crate::FileKind;

/// Where an edit to one file changed its items: `items` old `[p, old_end)`
/// became new `[p, new_end)`; everything the changed items held lies in
/// `[lo, hi)` of the old text (`hi` is `usize::MAX` without items after),
/// and what lies after moves by `delta`.
pub(in crate::module) struct Window {
    pub(in crate::module) lo: usize,
    pub(in crate::module) hi: usize,
    pub(in crate::module) delta: isize,
}

impl Window {
    pub(in crate::module) fn after(&self, at: usize) -> bool {
        at >= self.hi
    }

    pub(in crate::module) fn moved(&self, r: &Range<usize>) -> Range<usize> {
        let m = |x: usize| x.saturating_add_signed(self.delta);
        m(r.start)..m(r.end)
    }

    /// Replaces the part of `v[within]` (sorted by `key`) in the window by
    /// `fresh` and moves what follows in `within`, all in place; returns
    /// the part replaced.
    /// (Written to only when something is in or after the window, or
    /// comes: a part another analysis holds is copied then.)
    pub(in crate::module) fn splice<T: Placed>(
        &self,
        v: &mut Shared<Vec<T>>,
        within: Range<usize>,
        fresh: Vec<T>,
        key: impl Fn(&T) -> usize,
    ) -> Range<usize> {
        let part = &v[within.clone()];
        let from = within.start + part.partition_point(|x| key(x) < self.lo);
        let to = within.start + part.partition_point(|x| key(x) < self.hi);
        if from == within.end && fresh.is_empty() {
            return from..to;
        }
        let v = &mut **v;
        for x in &mut v[to..within.end] {
            x.map_ranges(|r| self.moved(r));
        }
        v.splice(from..to, fresh);
        from..to
    }
}

/// The edited items' results, placed: (diagnostics, symbols, resources,
/// type nodes, checks by item).
pub(super) type WindowResults =
    (Vec<Diagnostic>, Vec<Symbol>, Vec<Symbol>, Vec<TypeNode>, Vec<(ItemId, Arc<CheckResult>)>);

impl Memo {
    /// Phase 7: the readers checked again, with their results as [`run`](crate::module::run)
    /// lists them (by document and range, for [`replace_parts`]).
    #[allow(clippy::type_complexity)]
    pub(super) fn recheck(
        &self,
        docs: &[Document],
        env: &ModuleEnv,
        dialect: Dialect,
        again: &[Again],
        var_types: &HashMap<&str, (&VarRef, Option<Related>)>,
    ) -> Result<(Vec<Arc<CheckResult>>, Vec<(usize, Range<usize>, ItemResults)>), GiveUp> {
        let has_vars = !env.declared[space_index(Space::Var)].is_empty();
        let rechecked: Vec<Arc<CheckResult>> = again
            .par_iter()
            .with_min_len(8)
            .map(|(di, item, d, was)| {
                let (r, _) =
                    check_item(&docs[*di], item, d, env, dialect, was.winners.clone(), var_types, has_vars, false);
                Arc::new(r)
            })
            .collect();
        let mut parts = Vec::new();
        for ((di, item, d, was), r) in again.iter().zip(&rechecked) {
            parts.push((*di, item.range.clone(), self.item_results(*di, item, d, &was.winners, r)?));
        }
        Ok((rechecked, parts))
    }

    /// Phase 9: the module-level passes, again (the edited items' facts
    /// read): what they said before, where the patch left it, replaced by
    /// what they say now.
    pub(super) fn settle_passes(
        &mut self,
        docs: &[Document],
        edit: &Edit,
        env: &mut ModuleEnv,
        (analysis, kept): (&mut ModuleAnalysis, &mut [Option<Kept>]),
        same_context: bool,
    ) {
        let Window { lo, hi, delta } = edit.window;
        let mut before = std::mem::take(&mut env.passes);
        for found in [&mut before.diagnostics, &mut before.versions, &mut before.marked] {
            super::settle::moved(found, edit.k, lo, hi, delta);
        }
        let old: Vec<ItemId> = edit.old_window.iter().map(|(id, _)| *id).collect();
        let window = (edit.k, &old[..], edit.new_window);
        let found =
            super::settle::rerun(docs, &env.context, &mut self.facts, &before, window, same_context, !self.lints_off);
        super::settle::settle(&mut analysis.diagnostics, kept, &before.diagnostics, &found.diagnostics);
        if *analysis.ephemeral != found.ephemeral {
            analysis.ephemeral = found.ephemeral.clone().into();
        }
        env.passes = found;
    }

    /// Phase 10: the memo takes the new results; the readers' index
    /// forgets what was read before the edit and learns what is read now.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn remember(
        &mut self,
        edit: &Edit,
        mut readers: Option<&mut Readers>,
        again: &[Again],
        fresh: Vec<Fresh>,
        inferred: Inferred,
        checks: Vec<(ItemId, Arc<CheckResult>)>,
        rechecked: Vec<Arc<CheckResult>>,
    ) {
        let new_window = edit.new_window;
        if let Some(readers) = readers.as_deref_mut() {
            readers.replaced(edit.k, edit.p, &edit.old_window, new_window);
            for (id, _) in &edit.old_window {
                readers.item(*id, self, false);
                if let Some(c) = self.checks.get(id) {
                    readers.checks(*id, &c.deps, false);
                }
            }
            for (_, item, _, was) in again {
                readers.checks(item.id, &was.deps, false);
            }
        }
        self.computed.extend(inferred);
        for (item, d, _) in fresh {
            self.decls.insert(item.id, d);
        }
        self.checks.extend(checks);
        self.checks.extend(again.iter().map(|(_, item, _, _)| item.id).zip(rechecked));
        if let Some(readers) = readers {
            for item in new_window.iter().chain(again.iter().map(|(_, item, _, _)| *item)) {
                if new_window.iter().any(|i| i.id == item.id) {
                    readers.item(item.id, self, true);
                }
                if let Some(c) = self.checks.get(&item.id) {
                    readers.checks(item.id, &c.deps, true);
                }
            }
        }
    }

    /// An unchanged item's diagnostics, symbols and type nodes with new
    /// checks `r`, as [`run`](crate::module::run) lists them; [`GiveUp::UninferredLocal`] when one of its computed
    /// names has no remembered result (it is in a cycle, or broken).
    fn item_results(
        &self,
        di: usize,
        item: &Item,
        d: &Decls,
        winners: &[bool],
        r: &CheckResult,
    ) -> Result<ItemResults, GiveUp> {
        let at = item.range.start;
        let mut diagnostics: Vec<Diagnostic> = item.error.as_deref().cloned().into_iter().collect();
        diagnostics.extend(d.diagnostics.iter().map(|x| moved(x, at)));
        let mut symbols: Vec<Symbol> = d.symbols.iter().map(|s| s.moved(di, at)).collect();
        let mut computed_nodes = Vec::new();
        for (v, _) in d.vars.iter().zip(winners).filter(|(_, w)| **w) {
            symbols.push(var_symbol(v, at, di));
        }
        for (index, c) in d.computed.iter().enumerate() {
            let computed = self.computed.get(&(item.id, index)).ok_or(GiveUp::UninferredLocal)?;
            diagnostics.extend(computed.diagnostics.iter().map(|x| moved(x, at)));
            computed_nodes.extend(computed.type_nodes.iter().map(|n| moved(n, at)));
            symbols.push(computed_symbol(c, at, computed.ty.clone(), di));
        }
        diagnostics.extend(r.diagnostics.iter().map(|x| moved(x, at)));
        symbols.extend(r.outputs.iter().map(|s| s.moved(di, at)));
        let mut nodes: Vec<TypeNode> = d.type_nodes.iter().chain(&r.type_nodes).map(|n| moved(n, at)).collect();
        nodes.append(&mut computed_nodes);
        diagnostics.sort_by_key(|d| (d.range.start, d.range.end));
        diagnostics.dedup();
        symbols.sort_by_key(|s| s.name_range.start);
        nodes.sort_by_key(|n| n.range.start);
        Ok((diagnostics, symbols, nodes))
    }
}

/// An unchanged item's results as [`run`](crate::module::run) lists them: (diagnostics,
/// symbols, type nodes).
type ItemResults = (Vec<Diagnostic>, Vec<Symbol>, Vec<TypeNode>);

/// Phase 8: the edited items checked, with their results as [`run`](crate::module::run) lists
/// them: declared symbols, variables, computed names, outputs.
pub(super) fn window_results(
    edit: &Edit,
    env: &ModuleEnv,
    dialect: Dialect,
    fresh: &[Fresh],
    new_computed: &[NewComputed],
    inferred: &[((ItemId, usize), ComputedResult)],
    var_types: &HashMap<&str, (&VarRef, Option<Related>)>,
) -> WindowResults {
    let (k, doc) = (edit.k, edit.doc);
    let has_vars = !env.declared[space_index(Space::Var)].is_empty();
    let mut diagnostics: Vec<Diagnostic> = edit.new_window.iter().filter_map(|i| i.error.as_deref().cloned()).collect();
    let (mut symbols, mut resources, mut nodes) = (Vec::new(), Vec::new(), Vec::new());
    let mut checks = Vec::new();
    for (item, d, _) in fresh {
        let at = item.range.start;
        diagnostics.extend(d.diagnostics.iter().map(|x| moved(x, at)));
        nodes.extend(d.type_nodes.iter().map(|n| moved(n, at)));
        symbols.extend(d.symbols.iter().map(|s| s.moved(k, at)));
        resources.extend(d.resources.iter().map(|s| s.moved(k, at)));
    }
    typed_resources(&mut resources, env);
    for (item, d, winners) in fresh {
        for (v, _) in d.vars.iter().zip(winners).filter(|(_, w)| **w) {
            symbols.push(var_symbol(v, item.range.start, k));
        }
    }
    for ((item, _, c), (_, r)) in new_computed.iter().zip(inferred) {
        let at = item.range.start;
        diagnostics.extend(r.diagnostics.iter().map(|x| moved(x, at)));
        nodes.extend(r.type_nodes.iter().map(|n| moved(n, at)));
        symbols.push(computed_symbol(c, at, r.ty.clone(), k));
    }
    for (item, d, winners) in fresh {
        let (r, _) = check_item(doc, item, d, env, dialect, winners.clone(), var_types, has_vars, false);
        let at = item.range.start;
        diagnostics.extend(r.diagnostics.iter().map(|x| moved(x, at)));
        nodes.extend(r.type_nodes.iter().map(|n| moved(n, at)));
        symbols.extend(r.outputs.iter().map(|s| s.moved(k, at)));
        checks.push((item.id, Arc::new(r)));
    }
    diagnostics.sort_by_key(|d| (d.range.start, d.range.end));
    diagnostics.dedup();
    symbols.sort_by_key(|s| s.name_range.start);
    nodes.sort_by_key(|n| n.range.start);
    (diagnostics, symbols, resources, nodes, checks)
}

/// Phase 8 continued: the new results put into the last analysis, in
/// place: the window's replaced, what follows it moved, the readers'
/// parts replaced. Returns what each document keeps of the last
/// analysis's diagnostics.
pub(super) fn splice_results(
    analysis: &mut ModuleAnalysis,
    docs: &[Document],
    edit: &Edit,
    (diagnostics, symbols, resources, nodes, _): WindowResults,
    mut parts: Vec<(usize, Range<usize>, ItemResults)>,
) -> Vec<Option<Kept>> {
    let (k, window) = (edit.k, &edit.window);
    // Symbols of all documents are sorted by (document, position).
    let in_doc = |v: &[Symbol]| {
        let from = v.partition_point(|s| s.doc < k);
        from..from + v[from..].partition_point(|s| s.doc == k)
    };
    let r = in_doc(&analysis.symbols);
    window.splice(&mut analysis.symbols, r, symbols, |s| s.name_range.start);
    let r = in_doc(&analysis.resources);
    window.splice(&mut analysis.resources, r, resources, |s| s.name_range.start);
    let all = 0..analysis.diagnostics[k].len();
    let replaced = window.splice(&mut analysis.diagnostics[k], all.clone(), diagnostics, |d| d.range.start);
    let mut kept: Vec<Option<Kept>> =
        analysis.diagnostics.iter().map(|v| Some(Kept { from: analysis.id, front: v.len(), back: 0 })).collect();
    kept[k] = Some(Kept { from: analysis.id, front: replaced.start, back: all.end - replaced.end });
    analysis.type_nodes[k].splice(window, nodes);
    analysis.probe.clear();
    // tfvars diagnostics point at the variables they are checked
    // against (a full analysis checks them again, at the new places).
    for (j, _) in docs.iter().enumerate().filter(|(_, d)| d.file.kind == FileKind::Tfvars) {
        let moves = |r: &Related| r.path.as_deref() == Some(&edit.doc.file.path) && window.after(r.range.start);
        if !analysis.diagnostics[j].iter().flat_map(|x| &x.related).any(moves) {
            continue;
        }
        for r in analysis.diagnostics[j].iter_mut().flat_map(|x| x.related.iter_mut()) {
            if moves(r) {
                r.range = window.moved(&r.range);
                kept[j] = None;
            }
        }
    }
    // The items checked again, in place (now in the new positions).
    parts.sort_by_key(|(di, r, _)| (*di, r.start));
    let mut symbol_parts = Vec::new();
    for (j, part) in parts.chunk_by(|a, b| a.0 == b.0).map(|p| (p[0].0, p)) {
        let diagnostics = part.iter().map(|(_, r, x)| (r.start..r.end + 1, x.0.clone())).collect();
        let (front, back) = replace_parts(&mut analysis.diagnostics[j], diagnostics, |d| d.range.start);
        if let Some(kept) = &mut kept[j] {
            (kept.front, kept.back) = (kept.front.min(front), kept.back.min(back));
        }
        let nodes = part.iter().map(|(_, r, x)| (r.start..r.end + 1, x.2.clone())).collect();
        analysis.type_nodes[j].replace_parts(nodes);
    }
    for (j, r, x) in parts {
        symbol_parts.push(((j, r.start)..(j, r.end + 1), x.1));
    }
    if !symbol_parts.is_empty() {
        replace_parts(&mut analysis.symbols, symbol_parts, |s| (s.doc, s.name_range.start));
    }
    kept
}

fn var_symbol(v: &VarDecl, at: usize, doc: usize) -> Symbol {
    Symbol {
        address: format!("{}.{}", v.root, v.name),
        name: v.name.clone(),
        kind: SymbolKind::Variable,
        name_range: shift(&v.name_range, at),
        range: shift(&v.range, at),
        ty: v.value.clone(),
        doc,
    }
}

fn computed_symbol(c: &ComputedDecl, at: usize, ty: Type, doc: usize) -> Symbol {
    let (address, kind) = match c.space {
        Space::Local => (format!("local.{}", c.name), SymbolKind::Local),
        _ => (c.name.clone(), SymbolKind::Attribute),
    };
    Symbol {
        address,
        name: c.name.clone(),
        kind,
        name_range: shift(&c.name_range, at),
        range: shift(&c.range, at),
        ty,
        doc,
    }
}

/// Replaces the elements of `v` (sorted by `key`) whose key lies in each
/// of `parts`' ranges (sorted, apart) by that part's elements: in place
/// while a part is as long as what it replaces (a re-checked item often
/// keeps as many symbols and type nodes), then in one pass. Returns how
/// many elements at the front and at the back it left alone.
pub(in crate::module) fn replace_parts<T, K: Ord>(
    v: &mut Vec<T>,
    parts: Vec<(Range<K>, Vec<T>)>,
    key: impl Fn(&T) -> K,
) -> (usize, usize) {
    let spans: Vec<Range<usize>> = parts
        .iter()
        .map(|(r, _)| {
            let from = v.partition_point(|x| key(x) < r.start);
            from..from + v[from..].partition_point(|x| key(x) < r.end)
        })
        .collect();
    let (Some(first), Some(last)) = (spans.first(), spans.last()) else { return (v.len(), v.len()) };
    let left = (first.start, v.len() - last.end);
    // A few parts that change length (a rename's readers gaining or losing
    // a diagnostic): each moves what follows it in one memmove, from the
    // last part back so the spans stay right, rather than every element
    // after the first part taken out and pushed back one by one.
    if parts.iter().zip(&spans).filter(|((_, fresh), s)| fresh.len() != s.len()).count() <= 4 {
        for ((_, fresh), s) in parts.into_iter().zip(spans).rev() {
            v.splice(s, fresh);
        }
        return left;
    }
    let same = parts.iter().zip(&spans).take_while(|((_, fresh), s)| fresh.len() == s.len()).count();
    let mut parts = parts.into_iter();
    for ((_, fresh), s) in parts.by_ref().take(same).zip(&spans) {
        for (slot, x) in v[s.clone()].iter_mut().zip(fresh) {
            *slot = x;
        }
    }
    let Some(first) = spans.get(same) else { return left };
    let mut old = v.drain(first.start..).collect::<Vec<T>>().into_iter().peekable();
    for (range, fresh) in parts {
        while let Some(x) = old.next_if(|x| key(x) < range.start) {
            v.push(x);
        }
        while old.next_if(|x| key(x) < range.end).is_some() {}
        v.extend(fresh);
    }
    v.extend(old);
    left
}

#[cfg(test)]
mod tests {
    use super::replace_parts;

    /// Parts replaced in a sorted list give what a list built anew gives,
    /// by both ways (a few parts that change length, or many), and the
    /// counts left alone at both ends.
    #[test]
    fn replaced_parts_equal_a_list_built_anew() {
        let mut rng = types::testing::Rng::new(11);
        for round in 0..400 {
            let v: Vec<usize> = (0..rng.below(60)).map(|i| i * 3 + rng.below(3)).collect();
            let end = v.last().map_or(1, |l| l + 3);
            let mut parts = Vec::new();
            let mut at = rng.below(20);
            while at < end && parts.len() < 12 {
                let r = at..at + rng.below(12) + 1;
                let inside = v.iter().filter(|x| r.contains(x)).count();
                let n = if rng.below(3) == 0 { rng.below(4) } else { inside };
                let fresh: Vec<usize> = (0..n).map(|j| r.start + j * r.len() / n.max(1)).collect();
                at = r.end + rng.below(15);
                parts.push((r, fresh));
            }
            let want = types::testing::replaced(&v, &parts);
            let front = parts.first().map_or(v.len(), |(r, _)| v.iter().filter(|x| **x < r.start).count());
            let back = parts.last().map_or(v.len(), |(r, _)| v.iter().filter(|x| **x >= r.end).count());
            let mut got = v.clone();
            let left = replace_parts(&mut got, parts, |x| *x);
            assert_eq!(got, want, "round {round}");
            assert_eq!(left, (front, back), "round {round}");
        }
    }
}
