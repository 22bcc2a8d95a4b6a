//! Bringing the last analysis up to an edit in place: the edited items
//! checked again, and when the edit changes a name (a rename, a new type)
//! the items elsewhere that read it.

use super::*;

/// The most items an edit may re-parse for [`Memo::patch`] to take it.
pub(super) const PATCH_ITEMS: usize = 256;

/// Where an edit to one file changed its items: `items` old `[p, old_end)`
/// became new `[p, new_end)`; everything the changed items held lies in
/// `[lo, hi)` of the old text (`hi` is `usize::MAX` without items after),
/// and what lies after moves by `delta`.
pub(super) struct Window {
    pub(super) lo: usize,
    pub(super) hi: usize,
    pub(super) delta: isize,
}

impl Window {
    pub(super) fn after(&self, at: usize) -> bool {
        at >= self.hi
    }

    pub(super) fn moved(&self, r: &Range<usize>) -> Range<usize> {
        let m = |x: usize| x.saturating_add_signed(self.delta);
        m(r.start)..m(r.end)
    }

    /// Replaces the part of `v[within]` (sorted by `key`) in the window by
    /// `fresh` and moves what follows in `within`, all in place; returns
    /// the part replaced.
    /// (Written to only when something is in or after the window, or
    /// comes: a part another analysis holds is copied then.)
    pub(super) fn splice<T: Placed>(
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

/// An edited item, its declarations and whether each variable it
/// declares is the one its name means.
pub(super) type Fresh<'a> = (&'a Item, Arc<Decls>, Vec<bool>);

/// An item that declares no variable or PCL name (it may hold locals).
pub(super) fn inert(d: &Decls) -> bool {
    d.vars.is_empty() && d.names.is_empty() && d.calls.is_empty() && d.resource_decls.is_empty()
}

impl Memo {
    /// The last analysis brought up to `docs` when they differ from it by
    /// an edit to one file (a tfvars file too) that keeps its declaring
    /// items in place: resources, outputs and broken items declare nothing;
    /// variables and PCL names are as many at the same starts, locals keep
    /// their references. Only the re-parsed items are checked. A name that
    /// others now see differently (renamed, a new type or type place) is
    /// a change: taken when the name is declared once, before and after;
    /// then the locals that read it are inferred again and the items that
    /// looked it up (tfvars values that assign it too) or whose "did you
    /// mean" answer changes are checked again, found through [`Readers`]. The rest of the last
    /// analysis is moved in place, not rebuilt. `None` when that does not
    /// apply (a full [`run`] then gives the same answer).
    /// (The last analysis itself when `docs` are the ones it was made of.)
    pub(super) fn patch(&mut self, docs: &[Document]) -> Option<Arc<ModuleAnalysis>> {
        let last = self.last.as_ref()?;
        // Merging override files is a full analysis's.
        if last.signature.len() != docs.len() || last.whole {
            return None;
        }
        // The one document whose items differ, how many of its first ones
        // are the same and how many of its last: told by its revision and
        // edits, else found in one pass over its items.
        let mut changed = None;
        let mut edited = false;
        for (k, ((path, kind, dialect, rev, items), d)) in last.signature.iter().zip(docs).enumerate() {
            if *path != d.file.path || *kind != d.file.kind || *dialect != d.file.dialect {
                return None;
            }
            if *rev == d.revision() {
                continue;
            }
            edited = true;
            let (p, s) = match d.unchanged_since(*rev) {
                Some(known) => (known.0, Some(known.1)),
                None => {
                    let same = |(j, i): &(usize, &Item)| *j < items.len() && items.at(*j) == (i.id, i.range.clone());
                    (d.items.iter().enumerate().take_while(same).count(), None)
                }
            };
            if (p != items.len() || p != d.items.len()) && changed.replace((k, p, s)).is_some() {
                return None;
            }
        }
        // Templates read by `templatefile` are not items: after an edit,
        // even one that changed no item, a full run reads them again (the
        // memo keeps what did not change).
        if edited && last.reads_files {
            return None;
        }
        // A file whose syntax errors are one for the file (it does not read
        // as HCL) is judged whole: its items' errors are not its diagnostics.
        // So is one that was: a not-HCL file and an empty one both have no
        // items, and an edit from one to the other changes none (fuzz
        // lsp_session: the old hint was kept).
        if (changed.is_some() || edited) && (last.collapsed || docs.iter().any(Document::collapsed)) {
            return None;
        }
        let Some((k, p, s)) = changed else {
            // (Documents whose edits changed no item: the revisions they are now.)
            let last = self.last.as_mut().filter(|l| l.env.context == self.context)?;
            for (entry, d) in last.signature.iter_mut().zip(docs) {
                entry.3 = d.revision();
            }
            return Some(last.analysis.clone());
        };
        let mut readers = self.last.as_mut()?.readers.take();
        let last = self.last.as_ref()?;
        let doc = &docs[k];
        let (old, new) = (&last.signature[k].4, &doc.items[..]);
        let s = s.unwrap_or_else(|| {
            let old = &old.stored()[p..];
            old.iter().rev().zip(new[p..].iter().rev()).take_while(|((id, _), i)| *id == i.id).count()
        });
        let old_end = old.len() - s;
        let old_window: Vec<(ItemId, Range<usize>)> = (p..old_end).map(|j| old.at(j)).collect();
        let new_window = &new[p..new.len() - s];
        if new_window.len() > PATCH_ITEMS {
            return None;
        }
        // Positions separate the items' results only if the changed items
        // lie strictly between the unchanged ones.
        let lo = if p > 0 { new[p - 1].range.end + 1 } else { 0 };
        let (hi, delta) = match ((old_end < old.len()).then(|| old.at(old_end)), new.get(new.len() - s)) {
            (Some((_, o)), Some(n)) if s > 0 => (o.start, n.range.start as isize - o.start as isize),
            _ => (usize::MAX, 0),
        };
        let new_hi = hi.saturating_add_signed(delta);
        if old_window.iter().any(|(_, r)| r.start < lo || r.end >= hi)
            || new_window.iter().any(|i| i.range.start < lo || i.range.end >= new_hi)
        {
            return None;
        }
        // The changed items' locals (or PCL attributes) before and after.
        let mut old_computed = Vec::new();
        // (An analysis of other documents in between may have forgotten an
        // item that was in the last one: what it declared is then unknown.)
        for (id, r) in &old_window {
            let d = self.decls.get(id)?;
            old_computed
                .extend(d.computed.iter().enumerate().map(|(index, c)| (*id, index, shift(&c.name_range, r.start), c)));
        }
        let mut fresh = Vec::new();
        for item in new_window {
            let d = match self.decls.get(&item.id) {
                Some(d) => d.clone(),
                None => Arc::new(declare(doc, item, &self.context.symbols)),
            };
            fresh.push((item, d, Vec::new()));
        }
        // Declaring items keep their place (an edit re-parses the item
        // before the changed one too, which is often a variable): as many,
        // at the same starts, each with as many declarations. A declaration
        // that others see differently (a new name, type or place) is a
        // change of the module's names, taken below if its readers allow.
        let mut changes: Vec<Change> = Vec::new();
        // Defaults' keys whose default no longer counts (see below).
        let mut gone: Vec<String> = Vec::new();
        let old_declaring = old_window.iter().filter_map(|(id, r)| {
            let d = self.decls.get(id)?;
            (!inert(d)).then_some((id, r.start, d))
        });
        let mut new_declaring = fresh.iter_mut().filter(|(_, d, _)| !inert(d));
        for (id, start, was) in old_declaring {
            let (item, d, winners) = new_declaring.next()?;
            if start != item.range.start
                || was.vars.len() != d.vars.len()
                || was.names.len() != d.names.len()
                || !same_calls_but_sources(&was.calls, &d.calls)
                || was.resource_decls != d.resource_decls
            {
                return None;
            }
            if !d.vars.is_empty() {
                *winners = self.checks.get(id)?.winners.clone();
            }
            for ((a, b), won) in was.vars.iter().zip(&d.vars).zip(winners.iter()) {
                // (A default's type is kept under its own key, a name of
                // its own: it changes with the default, or with the type
                // that says whether it counts (`any`, or none: typing in a
                // type keyword passes through both), and is renamed with
                // the variable.)
                if a.name != b.name && (a.default.is_some() || b.default.is_some()) {
                    let (Some(ty), true, true) = (&b.default, a.default == b.default, *won) else {
                        return None;
                    };
                    let at = shift(&b.name_range, start);
                    let (old, new) = (default_key(&a.name), default_key(&b.name));
                    changes.push(Change { space: Space::Var, old, new, ty: ty.clone(), at });
                } else if a.default != b.default {
                    if !*won {
                        return None;
                    }
                    let key = default_key(&b.name);
                    if b.default.is_none() {
                        gone.push(key.clone());
                    }
                    let ty = b.default.clone().unwrap_or_else(Type::any);
                    let at = shift(&b.name_range, start);
                    changes.push(Change { space: Space::Var, old: key.clone(), new: key, ty, at });
                }
                // (tfvars values are checked against the variables' types
                // and places: a new place of the type is a change too.)
                // (A const variable is another kind of name, and its value
                // may build a module source: a full analysis then.)
                if a.const_set != b.const_set || (b.constant.is_some() && !a.same_for_others(b)) {
                    return None;
                }
                if a.same_for_others(b) && a.type_range == b.type_range {
                    continue;
                }
                if !*won {
                    return None;
                }
                let at = shift(&b.name_range, start);
                changes.push(Change {
                    space: Space::Var,
                    old: a.name.clone(),
                    new: b.name.clone(),
                    ty: b.value.clone(),
                    at,
                });
            }
            for (a, b) in was.names.iter().zip(&d.names).filter(|(a, b)| a != b) {
                let e = last.env.names.get(&(Space::Pcl, a.name.clone()))?;
                if e.doc != k || last.env.range(e) != shift(&a.name_range, start) || a.what != b.what {
                    return None;
                }
                let at = shift(&b.name_range, start);
                changes.push(Change {
                    space: Space::Pcl,
                    old: a.name.clone(),
                    new: b.name.clone(),
                    ty: b.value(&self.context),
                    at,
                });
            }
        }
        if new_declaring.next().is_some() {
            return None;
        }
        let dialect = module_dialect(docs);
        // Each local keeps its references (so the dependency order and its
        // cycles stay); it is inferred again, and a new name or type is a
        // change like a variable's.
        let new_computed: Vec<(&Item, usize, &ComputedDecl)> = fresh
            .iter()
            .flat_map(|(item, d, _)| d.computed.iter().enumerate().map(move |(index, c)| (*item, index, c)))
            .collect();
        if new_computed.len() != old_computed.len() {
            return None;
        }
        for (&(item, _, c), (old_id, old_index, old_range, was)) in new_computed.iter().zip(&old_computed) {
            if c.space != was.space || c.refs != was.refs || !self.computed.contains_key(&(*old_id, *old_index)) {
                return None;
            }
            let entry = last.env.names.get(&(was.space, was.name.clone()))?;
            if entry.doc != k || last.env.range(entry) != *old_range {
                return None;
            }
            if c.name != was.name {
                let at = shift(&c.name_range, item.range.start);
                changes.push(Change {
                    space: c.space,
                    old: was.name.clone(),
                    new: c.name.clone(),
                    ty: entry.ty.clone(),
                    at,
                });
            }
        }

        // From here on the last analysis is taken apart: giving up leaves
        // no last analysis (the full run that follows makes one).
        let Last { mut signature, analysis, mut env, exact, reads_files, whole, .. } = self.last.take()?;
        // The module's names where they are now, for what is inferred and
        // checked below (their related locations): those after the window
        // moved (applied as they are read), the changed ones and the
        // edited locals placed anew.
        env.moved(k, hi, delta);
        // What the calls lead to changed (an edit of a call's `source`):
        // each call whose callee changed is a change of `module.NAME`, when
        // the call is among the edited items (else a full analysis).
        if env.context != self.context {
            if env.context.schemas_version() != self.context.schemas_version() {
                return None;
            }
            let (old_calls, new_calls) = (env.context.calls.clone(), self.context.calls.clone());
            let names: std::collections::BTreeSet<&String> = old_calls.keys().chain(new_calls.keys()).collect();
            for name in names {
                if old_calls.get(name) == new_calls.get(name) {
                    continue;
                }
                let (item, c) = fresh.iter().find_map(|(item, d, _)| {
                    d.calls.iter().find(|c| c.name == *name && !c.component).map(|c| (*item, c))
                })?;
                let entry = env.names.get(&(Space::Module, name.clone()))?;
                let at = shift(&c.name_range, item.range.start);
                if entry.doc != k || env.range(entry) != at {
                    return None;
                }
                let ty = c.value(self.context.callee(name));
                changes.push(Change { space: Space::Module, old: name.clone(), new: name.clone(), ty, at });
            }
            env.context = self.context.clone();
        }
        for c in &changes {
            c.apply(&mut env, k);
        }
        // (Their readers are checked again as the change's: they see none.)
        for key in gone {
            env.names.remove(&(Space::Var, key));
        }
        for &(item, _, c) in &new_computed {
            env.place(&(c.space, c.name.clone()), shift(&c.name_range, item.range.start));
        }
        let mut inferred = Vec::new();
        for &(item, index, c) in &new_computed {
            let r = infer_computed(&env, dialect, doc, item, index)?;
            let ty = r.ty.clone();
            let entry = env.names.get_mut(&(c.space, c.name.clone()))?;
            if ty != entry.ty {
                entry.ty = ty.clone();
                match changes.iter_mut().find(|x| x.space == c.space && x.new == c.name) {
                    Some(x) => x.ty = ty.clone(),
                    None => {
                        let at = shift(&c.name_range, item.range.start);
                        changes.push(Change {
                            space: c.space,
                            old: c.name.clone(),
                            new: c.name.clone(),
                            ty: ty.clone(),
                            at,
                        });
                    }
                }
            }
            inferred.push(((item.id, index), r));
        }

        // Items elsewhere that read a changed name are checked again.
        let mut again: Vec<(usize, &Item, Arc<Decls>, Arc<CheckResult>)> = Vec::new();
        if !changes.is_empty() {
            if !exact {
                return None;
            }
            // (Built with the last full analysis; again if a probe took it.)
            let readers = readers.get_or_insert_with(|| Readers::build(&signature, self));
            let window_ids: HashSet<ItemId> =
                old_window.iter().map(|(id, _)| *id).chain(new_window.iter().map(|i| i.id)).collect();
            self.names_stay_unique(&changes, readers, &old_window, &fresh)?;
            let asked = readers.answers_changed(&changes, &env);
            let asked_checks: Vec<ItemId> = asked.iter().flat_map(|a| a.checks.iter().copied()).collect();
            let asked_computed: Vec<(ItemId, usize)> = asked.iter().flat_map(|a| a.computed.iter().copied()).collect();
            let computed = new_computed.iter().map(|(_, _, c)| *c).collect();
            let old_keys = old_computed.iter().map(|(id, index, _, _)| (*id, *index)).collect();
            let edited = Edited {
                window_ids: &window_ids,
                k,
                asked: asked_computed,
                computed,
                fresh: &new_computed,
                old_keys,
                inferred: &mut inferred,
            };
            let recomputed = self.cascade(&mut changes, readers, &mut env, docs, dialect, edited)?;
            let mut ids = readers_of(&changes, readers, &window_ids);
            ids.extend(asked_checks.into_iter().filter(|id| !window_ids.contains(id)));
            ids.extend(recomputed);
            let mut places: Vec<(usize, usize)> = ids.iter().filter_map(|id| readers.place(docs, *id)).collect();
            places.sort_unstable();
            for (di, j) in places {
                let (d, item) = (&docs[di], &docs[di].items[j]);
                // Its results are told from its neighbours' by position.
                let apart = (j == 0 || d.items[j - 1].range.end < item.range.start)
                    && d.items.get(j + 1).is_none_or(|n| item.range.end < n.range.start);
                let (Some(decls), Some(checked), true) = (self.decls.get(&item.id), self.checks.get(&item.id), apart)
                else {
                    return None;
                };
                again.push((di, item, decls.clone(), checked.clone()));
            }
        }
        // tfvars values are checked against the variables they assign.
        let window = Window { lo, hi, delta };
        let mut assigned = Vec::new();
        let tfvars = |di: usize| docs[di].file.kind == FileKind::Tfvars;
        let checked =
            fresh.iter().map(|(item, _, _)| (k, *item)).chain(again.iter().map(|(di, item, _, _)| (*di, *item)));
        for (di, item) in checked.filter(|(di, _)| tfvars(*di)) {
            let body = item.body(&docs[di].file.text);
            assigned.extend(body.iter().flat_map(|b| b.attributes()).map(|a| a.key.value().to_string()));
        }
        let var_refs = self.var_refs(docs, &env, &assigned, (k, &fresh))?;
        let var_types = var_types(&var_refs, docs);
        let has_vars = !env.declared[space_index(Space::Var)].is_empty();
        let rechecked: Vec<Arc<CheckResult>> = again
            .par_iter()
            .with_min_len(8)
            .map(|(di, item, d, was)| {
                let (r, _) =
                    check_item(&docs[*di], item, d, &env, dialect, was.winners.clone(), &var_types, has_vars, false);
                Arc::new(r)
            })
            .collect();
        let mut parts = Vec::new();
        for ((di, item, d, was), r) in again.iter().zip(&rechecked) {
            parts.push((*di, item.range.clone(), self.item_results(*di, item, d, &was.winners, r)?));
        }

        let mut diagnostics: Vec<Diagnostic> = new_window.iter().filter_map(|i| i.error.as_deref().cloned()).collect();
        let (mut symbols, mut resources, mut nodes) = (Vec::new(), Vec::new(), Vec::new());
        let mut checks = Vec::new();
        for (item, d, _) in &fresh {
            let at = item.range.start;
            diagnostics.extend(d.diagnostics.iter().map(|x| moved(x, at)));
            nodes.extend(d.type_nodes.iter().map(|n| moved(n, at)));
            symbols.extend(d.symbols.iter().map(|s| s.moved(k, at)));
            resources.extend(d.resources.iter().map(|s| s.moved(k, at)));
        }
        typed_resources(&mut resources, &env);
        // As run() lists them: declared symbols, variables, computed names, outputs.
        for (item, d, winners) in &fresh {
            for (v, _) in d.vars.iter().zip(winners).filter(|(_, w)| **w) {
                symbols.push(var_symbol(v, item.range.start, k));
            }
        }
        for ((item, _, c), (_, r)) in new_computed.iter().zip(&inferred) {
            let at = item.range.start;
            diagnostics.extend(r.diagnostics.iter().map(|x| moved(x, at)));
            nodes.extend(r.type_nodes.iter().map(|n| moved(n, at)));
            symbols.push(computed_symbol(c, at, r.ty.clone(), k));
        }
        for (item, d, winners) in &fresh {
            let (r, _) = check_item(doc, item, d, &env, dialect, winners.clone(), &var_types, has_vars, false);
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

        // Nobody else holds the last analysis between keystrokes, so it is
        // changed where it is; a copy only if a request still reads it.
        let mut analysis = Arc::try_unwrap(analysis).unwrap_or_else(|shared| (*shared).clone());
        analysis.context = env.context.clone();
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
        // What each document keeps of the last analysis's diagnostics.
        let mut kept: Vec<Option<Kept>> =
            analysis.diagnostics.iter().map(|v| Some(Kept { from: analysis.id, front: v.len(), back: 0 })).collect();
        kept[k] = Some(Kept { from: analysis.id, front: replaced.start, back: all.end - replaced.end });
        analysis.type_nodes[k].splice(&window, nodes);
        analysis.probe.clear();
        // tfvars diagnostics point at the variables they are checked
        // against (a full analysis checks them again, at the new places).
        for (j, _) in docs.iter().enumerate().filter(|(_, d)| d.file.kind == FileKind::Tfvars) {
            let moves = |r: &Related| r.path.as_deref() == Some(&doc.file.path) && window.after(r.range.start);
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

        // The module-level passes, again over every item's facts: what they
        // said before, where the patch left it, replaced by what they say now.
        let mut before = std::mem::take(&mut env.passes);
        super::passes::moved(&mut before.diagnostics, k, window.lo, window.hi, window.delta);
        let edited = match (new_window.first(), new_window.last()) {
            (Some(a), Some(b)) => doc.file.text.get(a.range.start..b.range.end).unwrap_or(""),
            _ => "",
        };
        let found = super::passes::rerun(docs, &env.context, &mut self.facts, &before, edited, !self.lints_off);
        super::passes::settle(&mut analysis.diagnostics, &mut kept, &before.diagnostics, &found.diagnostics);
        if *analysis.ephemeral != found.ephemeral {
            analysis.ephemeral = found.ephemeral.clone().into();
        }
        env.passes = found;

        // What was read before the edit goes from the index, what is read now comes in.
        if let Some(readers) = &mut readers {
            readers.replaced(k, p, &old_window, new_window);
            for (id, _) in &old_window {
                readers.item(*id, self, false);
                if let Some(c) = self.checks.get(id) {
                    readers.checks(*id, &c.deps, false);
                }
            }
            for (_, item, _, was) in &again {
                readers.checks(item.id, &was.deps, false);
            }
        }
        let reads_files = reads_files
            || inferred.iter().any(|(_, r)| !r.deps.files.is_empty())
            || checks.iter().map(|(_, c)| c).chain(&rechecked).any(|c| !c.deps.files.is_empty());
        self.computed.extend(inferred);
        for (item, d, _) in fresh {
            self.decls.insert(item.id, d);
        }
        self.checks.extend(checks);
        self.checks.extend(again.iter().map(|(_, item, _, _)| item.id).zip(rechecked));
        if let Some(readers) = &mut readers {
            for item in new_window.iter().chain(again.iter().map(|(_, item, _, _)| *item)) {
                if new_window.iter().any(|i| i.id == item.id) {
                    readers.item(item.id, self, true);
                }
                if let Some(c) = self.checks.get(&item.id) {
                    readers.checks(item.id, &c.deps, true);
                }
            }
        }
        self.patches += 1;
        // The items' places: the window's replaced, those after it moved.
        signature[k].3 = doc.revision();
        signature[k].4.splice(&window, new_window.iter().map(|i| (i.id, i.range.clone())).collect());
        (analysis.id, analysis.kept) = (analysis_id(), kept);
        let analysis = Arc::new(analysis);
        self.last = Some(Last {
            signature,
            analysis: analysis.clone(),
            env,
            readers,
            reads_files,
            exact,
            whole,
            collapsed: false,
        });
        self.prune(docs);
        Some(analysis)
    }

    /// The variables named `names` (the declaration each name means; the
    /// names not declared left out): in the edited items (`fresh`, in
    /// document `k`), or found through `env` and the remembered
    /// declarations.
    fn var_refs(
        &self,
        docs: &[Document],
        env: &ModuleEnv,
        names: &[String],
        (k, fresh): (usize, &[Fresh]),
    ) -> Option<Vec<VarRef>> {
        let mut out: Vec<VarRef> = Vec::new();
        for name in names {
            if out.iter().any(|v| v.decl.name == *name) {
                continue;
            }
            let edited = fresh.iter().find_map(|(item, d, winners)| {
                let (index, (v, _)) =
                    d.vars.iter().zip(winners).enumerate().find(|(_, (v, w))| **w && v.name == *name)?;
                Some(VarRef { item: item.id, index, doc: k, start: item.range.start, decl: v.clone() })
            });
            if let Some(v) = edited {
                out.push(v);
                continue;
            }
            let Some(e) = env.names.get(&(Space::Var, name.clone())) else { continue };
            let range = env.range(e);
            let items = &docs.get(e.doc)?.items;
            let item = &items[items.partition_point(|i| i.range.start <= range.start).checked_sub(1)?];
            let d = self.decls.get(&item.id)?;
            let at = item.range.start;
            let (index, v) = d.vars.iter().enumerate().find(|(_, v)| shift(&v.name_range, at) == range)?;
            out.push(VarRef { item: item.id, index, doc: e.doc, start: at, decl: v.clone() });
        }
        Some(out)
    }

    /// An unchanged item's diagnostics, symbols and type nodes with new
    /// checks `r`, as [`run`] lists them; `None` when one of its computed
    /// names has no remembered result (it is in a cycle, or broken).
    fn item_results(
        &self,
        di: usize,
        item: &Item,
        d: &Decls,
        winners: &[bool],
        r: &CheckResult,
    ) -> Option<(Vec<Diagnostic>, Vec<Symbol>, Vec<TypeNode>)> {
        let at = item.range.start;
        let mut diagnostics: Vec<Diagnostic> = item.error.as_deref().cloned().into_iter().collect();
        diagnostics.extend(d.diagnostics.iter().map(|x| moved(x, at)));
        let mut symbols: Vec<Symbol> = d.symbols.iter().map(|s| s.moved(di, at)).collect();
        let mut computed_nodes = Vec::new();
        for (v, _) in d.vars.iter().zip(winners).filter(|(_, w)| **w) {
            symbols.push(var_symbol(v, at, di));
        }
        for (index, c) in d.computed.iter().enumerate() {
            let computed = self.computed.get(&(item.id, index))?;
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
        Some((diagnostics, symbols, nodes))
    }
}

/// Calls that differ at most in their `source` (what it leads to is
/// [`Context`]'s, compared on its own).
fn same_calls_but_sources(a: &[CallDecl], b: &[CallDecl]) -> bool {
    a.len() == b.len()
        && a.iter().zip(b).all(|(x, y)| {
            x.name == y.name && x.name_range == y.name_range && x.repeat == y.repeat && x.component == y.component
        })
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
pub(super) fn replace_parts<T, K: Ord>(
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
