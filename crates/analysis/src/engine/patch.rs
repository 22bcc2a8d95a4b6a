//! Bringing the last analysis up to an edit in place: the edited items
//! checked again, and when the edit changes a name (a rename, a new type)
//! the items elsewhere that read it.

use super::*;

/// The most items an edit may re-parse for [`Memo::patch`] to take it.
pub(in crate::module) const PATCH_ITEMS: usize = 256;

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

/// An edited item, its declarations and whether each variable it
/// declares is the one its name means.
pub(in crate::module) type Fresh<'a> = (&'a Item, Arc<Decls>, Vec<bool>);

/// An item that declares no variable or PCL name (it may hold locals).
pub(in crate::module) fn inert(d: &Decls) -> bool {
    d.vars.is_empty() && d.names.is_empty() && d.calls.is_empty() && d.resource_decls.is_empty()
}

/// The edit [`Memo::patch`] takes: document `k`'s items `[p, ..)` of the
/// last analysis (`old_window`, with their places) became `new_window`.
struct Edit<'d> {
    k: usize,
    p: usize,
    doc: &'d Document,
    old_window: Vec<(ItemId, Range<usize>)>,
    new_window: &'d [Item],
    window: Window,
}

/// What the edited items declare, before and after, and the changes of
/// the module's names that makes.
struct Declared<'d> {
    /// The old items' computed names: (item, index, name's place then, declarations).
    old_computed: Vec<OldComputed>,
    fresh: Vec<Fresh<'d>>,
    changes: Vec<Change>,
    /// Defaults' keys whose default no longer counts.
    gone: Vec<String>,
}

/// An item outside the edit that reads a changed name, checked again.
type Again<'d> = (usize, &'d Item, Arc<Decls>, Arc<CheckResult>);

/// A computed name of an edited item: (item, index, declaration).
type NewComputed<'a> = (&'a Item, usize, &'a ComputedDecl);

/// A computed name of an item the edit replaced: (item, index, its
/// name's place then, the item's declarations).
type OldComputed = (ItemId, usize, Range<usize>, Arc<Decls>);

/// Computed names inferred again, by (item, index).
type Inferred = Vec<((ItemId, usize), ComputedResult)>;

/// The edited items' results, placed: (diagnostics, symbols, resources,
/// type nodes, checks by item).
type WindowResults = (Vec<Diagnostic>, Vec<Symbol>, Vec<Symbol>, Vec<TypeNode>, Vec<(ItemId, Arc<CheckResult>)>);

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
    /// mean" answer changes are checked again, found through [`Readers`].
    /// The rest of the last analysis is moved in place, not rebuilt. A
    /// [`GiveUp`] when that does not apply (a full [`run`] then gives the
    /// same answer), counted in [`Memo::give_ups`].
    /// (The last analysis itself when `docs` are the ones it was made of.)
    pub(in crate::module) fn patch(&mut self, docs: &[Document]) -> Result<Arc<ModuleAnalysis>, GiveUp> {
        let patched = self.patch_uncounted(docs);
        if let Err(why) = patched {
            self.give_ups.count(why);
        }
        patched
    }

    /// [`Self::patch`], in its phases.
    fn patch_uncounted(&mut self, docs: &[Document]) -> Result<Arc<ModuleAnalysis>, GiveUp> {
        let Some(edit) = self.locate(docs)? else { return self.unchanged(docs) };
        let mut readers = self.last.as_mut().ok_or(GiveUp::NoLast)?.readers.take();
        let Declared { old_computed, fresh, mut changes, gone } = self.declarations(&edit)?;
        // Each local keeps its references (so the dependency order and its
        // cycles stay); it is inferred again, and a new name or type is a
        // change like a variable's.
        let new_computed: Vec<NewComputed> = fresh
            .iter()
            .flat_map(|(item, d, _)| d.computed.iter().enumerate().map(move |(index, c)| (*item, index, c)))
            .collect();
        self.edited_locals(&edit, &new_computed, &old_computed, &mut changes)?;

        // From here on the last analysis is taken apart: giving up leaves
        // no last analysis (the full run that follows makes one).
        let Last { mut signature, analysis, mut env, exact, reads_files, whole, symbol_items, merged, .. } =
            self.last.take().ok_or(GiveUp::NoLast)?;
        let (k, doc, dialect) = (edit.k, edit.doc, module_dialect(docs));
        // The module's names where they are now, for what is inferred and
        // checked below (their related locations): those after the window
        // moved (applied as they are read), the changed ones and the
        // edited locals placed anew.
        env.moved(k, edit.window.hi, edit.window.delta);
        // (What the module-level passes learnt of the calls' callees holds
        // while they lead where they did.)
        let same_context = env.context == self.context;
        self.callees(&mut env, &fresh, k, &mut changes)?;
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
        let mut inferred = infer_edited_locals(&mut env, dialect, doc, &new_computed, &mut changes)?;

        // Items elsewhere that read a changed name are checked again.
        let again = match changes.is_empty() {
            true => Vec::new(),
            false => {
                if !exact {
                    return Err(GiveUp::NotExact);
                }
                // (Built with the last full analysis; again if a probe took it.)
                let readers = readers.get_or_insert_with(|| Readers::build(&signature, self));
                let edited = (&fresh[..], &new_computed[..], &old_computed[..]);
                self.readers_again(docs, &edit, edited, &mut changes, readers, &mut env, &mut inferred)?
            }
        };
        // tfvars values are checked against the variables they assign.
        let assigned = assigned(docs, k, &fresh, &again);
        let var_refs = self.var_refs(docs, &env, &assigned, (k, &fresh))?;
        let var_types = var_types(&var_refs, docs);
        let (rechecked, parts) = self.recheck(docs, &env, dialect, &again, &var_types)?;
        let results = window_results(&edit, &env, dialect, &fresh, &new_computed, &inferred, &var_types);
        let checks = results.4.clone();

        // Nobody else holds the last analysis between keystrokes, so it is
        // changed where it is; a copy only if a request still reads it.
        let mut analysis = Arc::try_unwrap(analysis).unwrap_or_else(|shared| (*shared).clone());
        analysis.context = env.context.clone();
        let mut kept = splice_results(&mut analysis, docs, &edit, results, parts);
        self.settle_passes(docs, &edit, &mut env, (&mut analysis, &mut kept), same_context);

        let reads_files = reads_files
            || inferred.iter().any(|(_, r)| !r.deps.files.is_empty())
            || checks.iter().map(|(_, c)| c).chain(&rechecked).any(|c| !c.deps.files.is_empty());
        self.remember(&edit, readers.as_mut(), &again, fresh, inferred, checks, rechecked);
        self.patches += 1;
        // The items' places: the window's replaced, those after it moved.
        signature[k].3 = doc.revision();
        signature[k].4.splice(&edit.window, edit.new_window.iter().map(|i| (i.id, i.range.clone())).collect());
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
            symbol_items,
            merged,
        });
        self.prune(docs);
        Ok(analysis)
    }

    /// Phase 1: the one document whose items differ, how many of its first
    /// ones are the same and how many of its last (told by its revision
    /// and edits, else found in one pass over its items); `None` when no
    /// item changed.
    fn locate<'d>(&self, docs: &'d [Document]) -> Result<Option<Edit<'d>>, GiveUp> {
        let last = self.last.as_ref().ok_or(GiveUp::NoLast)?;
        if last.signature.len() != docs.len() {
            return Err(GiveUp::DocumentsChanged);
        }
        // Merging override files is a full analysis's.
        if let Some(why) = last.whole {
            return Err(why);
        }
        let mut changed = None;
        let mut edited = false;
        for (k, ((path, kind, dialect, rev, items), d)) in last.signature.iter().zip(docs).enumerate() {
            if *path != d.file.path || *kind != d.file.kind || *dialect != d.file.dialect {
                return Err(GiveUp::DocumentsChanged);
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
                return Err(GiveUp::SeveralDocuments);
            }
        }
        // Templates read by `templatefile` are not items: after an edit,
        // even one that changed no item, a full run reads them again (the
        // memo keeps what did not change).
        if edited && last.reads_files {
            return Err(GiveUp::ReadsFiles);
        }
        // A file whose syntax errors are one for the file (it does not read
        // as HCL) is judged whole: its items' errors are not its diagnostics.
        // So is one that was: a not-HCL file and an empty one both have no
        // items, and an edit from one to the other changes none (fuzz
        // lsp_session: the old hint was kept).
        if (changed.is_some() || edited) && (last.collapsed || docs.iter().any(Document::collapsed)) {
            return Err(GiveUp::CollapsedDocument);
        }
        let Some((k, p, s)) = changed else { return Ok(None) };
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
            return Err(GiveUp::TooManyItems);
        }
        // The checks of `symbols` blocks judge across items (in the last
        // step of a full run): an edit of an item they read is a full run's.
        if old_window.iter().any(|(id, _)| last.symbol_items.contains(id))
            || new_window.iter().any(|i| reads_symbols(doc, i))
        {
            return Err(GiveUp::SymbolLibraries);
        }
        // Override files merge into the blocks of their keys (override.rs):
        // an edit of one, or of a block it merges into (before or after),
        // is a full run's.
        if let Some(m) = &last.merged {
            // (tfvars values are checked against the merged variables,
            // which only a full run makes.)
            if crate::module::overrides::is_override(&doc.file.path)
                || doc.file.kind == FileKind::Tfvars
                || old_window.iter().any(|(id, _)| m.items.contains(id))
                || new_window.iter().any(|i| m.merges_into(doc, i))
            {
                return Err(GiveUp::OverrideFiles);
            }
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
            return Err(GiveUp::ItemsNotApart);
        }
        Ok(Some(Edit { k, p, doc, old_window, new_window, window: Window { lo, hi, delta } }))
    }

    /// Documents whose edits changed no item: the last analysis, at the
    /// revisions they are now (unless what the calls lead to changed).
    fn unchanged(&mut self, docs: &[Document]) -> Result<Arc<ModuleAnalysis>, GiveUp> {
        let last = self.last.as_mut().ok_or(GiveUp::NoLast)?;
        if last.env.context != self.context {
            return Err(GiveUp::ContextChanged);
        }
        for (entry, d) in last.signature.iter_mut().zip(docs) {
            entry.3 = d.revision();
        }
        Ok(last.analysis.clone())
    }

    /// Phase 2: what the edited items declare, before and after.
    /// Declaring items keep their place (an edit re-parses the item
    /// before the changed one too, which is often a variable): as many,
    /// at the same starts, each with as many declarations. A declaration
    /// that others see differently (a new name, type or place) is a
    /// change of the module's names, taken later if its readers allow.
    fn declarations<'d>(&self, edit: &Edit<'d>) -> Result<Declared<'d>, GiveUp> {
        let last = self.last.as_ref().ok_or(GiveUp::NoLast)?;
        let k = edit.k;
        // The changed items' locals (or PCL attributes) before and after.
        // (An analysis of other documents in between may have forgotten an
        // item that was in the last one: what it declared is then unknown.)
        let mut old_computed = Vec::new();
        let mut old_declaring = Vec::new();
        for (id, r) in &edit.old_window {
            let d = self.decls.get(id).ok_or(GiveUp::Forgotten)?;
            let place = |c: &ComputedDecl| shift(&c.name_range, r.start);
            old_computed.extend(d.computed.iter().enumerate().map(|(index, c)| (*id, index, place(c), d.clone())));
            if !inert(d) {
                old_declaring.push((id, r.start, d));
            }
        }
        let mut fresh = Vec::new();
        for item in edit.new_window {
            let d = match self.decls.get(&item.id) {
                Some(d) => d.clone(),
                None => Arc::new(declare(edit.doc, item, &self.context.symbols)),
            };
            fresh.push((item, d, Vec::new()));
        }
        let mut changes: Vec<Change> = Vec::new();
        let mut gone: Vec<String> = Vec::new();
        let mut new_declaring = fresh.iter_mut().filter(|(_, d, _)| !inert(d));
        for (id, start, was) in old_declaring {
            let (item, d, winners) = new_declaring.next().ok_or(GiveUp::DeclarationsMoved)?;
            if start != item.range.start
                || was.vars.len() != d.vars.len()
                || was.names.len() != d.names.len()
                || !same_calls_but_sources(&was.calls, &d.calls)
                || was.resource_decls != d.resource_decls
            {
                return Err(GiveUp::DeclarationsMoved);
            }
            if !d.vars.is_empty() {
                *winners = self.checks.get(id).ok_or(GiveUp::Forgotten)?.winners.clone();
            }
            for ((a, b), won) in was.vars.iter().zip(&d.vars).zip(winners.iter()) {
                variable_changes((a, b), *won, start, &mut changes, &mut gone)?;
            }
            for (a, b) in was.names.iter().zip(&d.names).filter(|(a, b)| a != b) {
                let e = last.env.names.get(&(Space::Pcl, a.name.clone())).ok_or(GiveUp::PclNameChanged)?;
                if e.doc != k || last.env.range(e) != shift(&a.name_range, start) || a.what != b.what {
                    return Err(GiveUp::PclNameChanged);
                }
                let at = shift(&b.name_range, start);
                let ty = b.value(&self.context);
                changes.push(Change { space: Space::Pcl, old: a.name.clone(), new: b.name.clone(), ty, at });
            }
        }
        if new_declaring.next().is_some() {
            return Err(GiveUp::DeclarationsMoved);
        }
        Ok(Declared { old_computed, fresh, changes, gone })
    }

    /// Phase 3: the edited items' locals keep their references and places;
    /// a renamed one is a change.
    fn edited_locals(
        &self,
        edit: &Edit,
        new_computed: &[NewComputed],
        old_computed: &[OldComputed],
        changes: &mut Vec<Change>,
    ) -> Result<(), GiveUp> {
        let last = self.last.as_ref().ok_or(GiveUp::NoLast)?;
        if new_computed.len() != old_computed.len() {
            return Err(GiveUp::LocalReferencesChanged);
        }
        for (&(item, _, c), (old_id, old_index, old_range, d)) in new_computed.iter().zip(old_computed) {
            let was = &d.computed[*old_index];
            if c.space != was.space || c.refs != was.refs {
                return Err(GiveUp::LocalReferencesChanged);
            }
            if !self.computed.contains_key(&(*old_id, *old_index)) {
                return Err(GiveUp::UninferredLocal);
            }
            let entry = last.env.names.get(&(was.space, was.name.clone())).ok_or(GiveUp::NameNotUnique)?;
            if entry.doc != edit.k || last.env.range(entry) != *old_range {
                return Err(GiveUp::NameNotUnique);
            }
            if c.name != was.name {
                let at = shift(&c.name_range, item.range.start);
                let (old, new, ty) = (was.name.clone(), c.name.clone(), entry.ty.clone());
                changes.push(Change { space: c.space, old, new, ty, at });
            }
        }
        Ok(())
    }

    /// Phase 4: what the calls lead to changed (an edit of a call's
    /// `source`): each call whose callee changed is a change of
    /// `module.NAME`, when the call is among the edited items.
    fn callees(&self, env: &mut ModuleEnv, fresh: &[Fresh], k: usize, changes: &mut Vec<Change>) -> Result<(), GiveUp> {
        if env.context == self.context {
            return Ok(());
        }
        if env.context.schemas_version() != self.context.schemas_version() {
            return Err(GiveUp::SchemasChanged);
        }
        let (old_calls, new_calls) = (env.context.calls.clone(), self.context.calls.clone());
        let names: std::collections::BTreeSet<&String> = old_calls.keys().chain(new_calls.keys()).collect();
        for name in names {
            if old_calls.get(name) == new_calls.get(name) {
                continue;
            }
            let (item, c) = fresh
                .iter()
                .find_map(|(item, d, _)| d.calls.iter().find(|c| c.name == *name && !c.component).map(|c| (*item, c)))
                .ok_or(GiveUp::CalleeChangedElsewhere)?;
            let entry = env.names.get(&(Space::Module, name.clone())).ok_or(GiveUp::NameNotUnique)?;
            let at = shift(&c.name_range, item.range.start);
            if entry.doc != k || env.range(entry) != at {
                return Err(GiveUp::NameNotUnique);
            }
            let ty = c.value(self.context.callee(name));
            changes.push(Change { space: Space::Module, old: name.clone(), new: name.clone(), ty, at });
        }
        env.context = self.context.clone();
        Ok(())
    }

    /// Phase 6: the items outside the edit that read a changed name, or
    /// whose "did you mean" answer changes; the locals among them inferred
    /// again (a new type is a change in turn).
    #[allow(clippy::too_many_arguments)]
    fn readers_again<'d>(
        &mut self,
        docs: &'d [Document],
        edit: &Edit,
        (fresh, new_computed, old_computed): (&[Fresh], &[NewComputed], &[OldComputed]),
        changes: &mut Vec<Change>,
        readers: &mut Readers,
        env: &mut ModuleEnv,
        inferred: &mut [((ItemId, usize), ComputedResult)],
    ) -> Result<Vec<Again<'d>>, GiveUp> {
        let dialect = module_dialect(docs);
        let window_ids: HashSet<ItemId> =
            edit.old_window.iter().map(|(id, _)| *id).chain(edit.new_window.iter().map(|i| i.id)).collect();
        let old_window = &edit.old_window;
        self.names_stay_unique(changes, readers, old_window, fresh)?;
        let asked = readers.answers_changed(changes, env);
        let asked_checks: Vec<ItemId> = asked.iter().flat_map(|a| a.checks.iter().copied()).collect();
        let asked_computed: Vec<(ItemId, usize)> = asked.iter().flat_map(|a| a.computed.iter().copied()).collect();
        let computed = new_computed.iter().map(|(_, _, c)| *c).collect();
        let old_keys = old_computed.iter().map(|(id, index, _, _)| (*id, *index)).collect();
        let edited = Edited {
            window_ids: &window_ids,
            k: edit.k,
            asked: asked_computed,
            computed,
            fresh: new_computed,
            old_keys,
            inferred,
        };
        let recomputed = self.cascade(changes, readers, env, docs, dialect, edited)?;
        let mut ids = readers_of(changes, readers, &window_ids);
        ids.extend(asked_checks.into_iter().filter(|id| !window_ids.contains(id)));
        ids.extend(recomputed);
        let mut places: Vec<(usize, usize)> = ids.iter().filter_map(|id| readers.place(docs, *id)).collect();
        places.sort_unstable();
        let mut again = Vec::new();
        for (di, j) in places {
            let (d, item) = (&docs[di], &docs[di].items[j]);
            // Its results are told from its neighbours' by position.
            let apart = (j == 0 || d.items[j - 1].range.end < item.range.start)
                && d.items.get(j + 1).is_none_or(|n| item.range.end < n.range.start);
            if !apart {
                return Err(GiveUp::ReaderNotApart);
            }
            let decls = self.decls.get(&item.id).ok_or(GiveUp::Forgotten)?;
            let checked = self.checks.get(&item.id).ok_or(GiveUp::Forgotten)?;
            again.push((di, item, decls.clone(), checked.clone()));
        }
        Ok(again)
    }

    /// Phase 7: the readers checked again, with their results as [`run`]
    /// lists them (by document and range, for [`replace_parts`]).
    #[allow(clippy::type_complexity)]
    fn recheck(
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
    fn settle_passes(
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
    fn remember(
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
    ) -> Result<Vec<VarRef>, GiveUp> {
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
            let items = &docs.get(e.doc).ok_or(GiveUp::Inconsistent)?.items;
            let j = items.partition_point(|i| i.range.start <= range.start).checked_sub(1);
            let item = &items[j.ok_or(GiveUp::Inconsistent)?];
            let d = self.decls.get(&item.id).ok_or(GiveUp::Forgotten)?;
            let at = item.range.start;
            let found = d.vars.iter().enumerate().find(|(_, v)| shift(&v.name_range, at) == range);
            let (index, v) = found.ok_or(GiveUp::Inconsistent)?;
            out.push(VarRef { item: item.id, index, doc: e.doc, start: at, decl: v.clone() });
        }
        Ok(out)
    }

    /// An unchanged item's diagnostics, symbols and type nodes with new
    /// checks `r`, as [`run`] lists them; [`GiveUp::UninferredLocal`] when one of its computed
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

/// An unchanged item's results as [`run`] lists them: (diagnostics,
/// symbols, type nodes).
type ItemResults = (Vec<Diagnostic>, Vec<Symbol>, Vec<TypeNode>);

/// Phase 2, for one variable `a` that became `b` in an item at `start`
/// (`won`: it is the one its name means): the changes of the module's
/// names it makes. (A default's type is kept under its own key, a name of
/// its own: it changes with the default, or with the type that says
/// whether it counts (`any`, or none: typing in a type keyword passes
/// through both), and is renamed with the variable.)
fn variable_changes(
    (a, b): (&VarDecl, &VarDecl),
    won: bool,
    start: usize,
    changes: &mut Vec<Change>,
    gone: &mut Vec<String>,
) -> Result<(), GiveUp> {
    let at = shift(&b.name_range, start);
    if a.name != b.name && (a.default.is_some() || b.default.is_some()) {
        let (Some(ty), true) = (&b.default, a.default == b.default) else {
            return Err(GiveUp::DefaultRenamed);
        };
        if !won {
            return Err(GiveUp::NotTheWinner);
        }
        let (old, new) = (default_key(&a.name), default_key(&b.name));
        changes.push(Change { space: Space::Var, old, new, ty: ty.clone(), at: at.clone() });
    } else if a.default != b.default {
        if !won {
            return Err(GiveUp::NotTheWinner);
        }
        let key = default_key(&b.name);
        if b.default.is_none() {
            gone.push(key.clone());
        }
        let ty = b.default.clone().unwrap_or_else(Type::any);
        changes.push(Change { space: Space::Var, old: key.clone(), new: key, ty, at: at.clone() });
    }
    default_path_changes((a, b), won, &at, changes, gone)?;
    // (tfvars values are checked against the variables' types and
    // places: a new place of the type is a change too.)
    // (A const variable is another kind of name, and its value may build
    // a module source: a full analysis then.)
    if a.const_set != b.const_set || (b.constant.is_some() && !a.same_for_others(b)) {
        return Err(GiveUp::ConstVariable);
    }
    if a.same_for_others(b) && a.type_range == b.type_range {
        return Ok(());
    }
    if !won {
        return Err(GiveUp::NotTheWinner);
    }
    changes.push(Change { space: Space::Var, old: a.name.clone(), new: b.name.clone(), ty: b.value.clone(), at });
    Ok(())
}

/// A variable's default path ([`default_path_key`]) changed, came or went:
/// a change of its key, as of its default's type.
fn default_path_changes(
    (a, b): (&VarDecl, &VarDecl),
    won: bool,
    at: &Range<usize>,
    changes: &mut Vec<Change>,
    gone: &mut Vec<String>,
) -> Result<(), GiveUp> {
    let (was, now) = (path_default(a), path_default(b));
    if (was.is_none() && now.is_none()) || (a.name == b.name && was == now) {
        return Ok(());
    }
    if a.name != b.name {
        return Err(GiveUp::DefaultRenamed);
    }
    if !won {
        return Err(GiveUp::NotTheWinner);
    }
    let key = default_path_key(&b.name);
    if now.is_none() {
        gone.push(key.clone());
    }
    let ty = now.unwrap_or_else(Type::any);
    changes.push(Change { space: Space::Var, old: key.clone(), new: key, ty, at: at.clone() });
    Ok(())
}

/// Phase 5: the edited items' locals inferred against the names as they
/// are now; a new type is a change.
fn infer_edited_locals(
    env: &mut ModuleEnv,
    dialect: Dialect,
    doc: &Document,
    new_computed: &[NewComputed],
    changes: &mut Vec<Change>,
) -> Result<Inferred, GiveUp> {
    let mut inferred = Vec::new();
    for &(item, index, c) in new_computed {
        let r = infer_computed(env, dialect, doc, item, index).ok_or(GiveUp::UninferredLocal)?;
        let ty = r.ty.clone();
        let entry = env.names.get_mut(&(c.space, c.name.clone())).ok_or(GiveUp::Inconsistent)?;
        if ty != entry.ty {
            entry.ty = ty.clone();
            match changes.iter_mut().find(|x| x.space == c.space && x.new == c.name) {
                Some(x) => x.ty = ty.clone(),
                None => {
                    let at = shift(&c.name_range, item.range.start);
                    let (old, new) = (c.name.clone(), c.name.clone());
                    changes.push(Change { space: c.space, old, new, ty, at });
                }
            }
        }
        inferred.push(((item.id, index), r));
    }
    Ok(inferred)
}

/// The names tfvars values assign in the items checked (edited or
/// reading a changed name): they are checked against those variables.
fn assigned(docs: &[Document], k: usize, fresh: &[Fresh], again: &[Again]) -> Vec<String> {
    let mut assigned = Vec::new();
    let tfvars = |di: usize| docs[di].file.kind == FileKind::Tfvars;
    let checked = fresh.iter().map(|(item, _, _)| (k, *item)).chain(again.iter().map(|(di, item, _, _)| (*di, *item)));
    for (di, item) in checked.filter(|(di, _)| tfvars(*di)) {
        let body = item.body(&docs[di].file.text);
        assigned.extend(body.iter().flat_map(|b| b.attributes()).map(|a| a.key.value().to_string()));
    }
    assigned
}

/// Phase 8: the edited items checked, with their results as [`run`] lists
/// them: declared symbols, variables, computed names, outputs.
fn window_results(
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
fn splice_results(
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
