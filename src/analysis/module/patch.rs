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
    pub(super) fn splice<T: Placed>(
        &self,
        v: &mut Vec<T>,
        within: Range<usize>,
        fresh: Vec<T>,
        key: impl Fn(&T) -> usize,
    ) -> Range<usize> {
        let part = &v[within.clone()];
        let from = within.start + part.partition_point(|x| key(x) < self.lo);
        let to = within.start + part.partition_point(|x| key(x) < self.hi);
        for x in &mut v[to..within.end] {
            x.map_ranges(|r| self.moved(r));
        }
        v.splice(from..to, fresh);
        from..to
    }
}

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
    /// others now see differently (renamed, or a new type) is a change:
    /// taken when the name is declared once, before and after, and no
    /// tfvars file is checked against a changed variable; then the locals
    /// that read it are inferred again and the items that looked it up are
    /// checked again, found through [`Readers`]. The rest of the last
    /// analysis is moved in place, not rebuilt. `None` when that does not
    /// apply (a full [`run`] then gives the same answer).
    pub(super) fn patch(&mut self, docs: &[Document]) -> Option<Arc<ModuleAnalysis>> {
        let mut readers = self.last.as_mut()?.readers.take();
        let last = self.last.as_ref()?;
        if last.signature.len() != docs.len() {
            return None;
        }
        let mut changed = None;
        for (k, ((path, kind, dialect, items), d)) in last.signature.iter().zip(docs).enumerate() {
            if *path != d.file.path || *kind != d.file.kind || *dialect != d.file.dialect {
                return None;
            }
            let same = items.len() == d.items.len()
                && items.iter().zip(d.items.iter()).all(|((id, r), i)| *id == i.id && r.start == i.range.start);
            if !same && changed.replace(k).is_some() {
                return None;
            }
        }
        let k = changed?;
        let doc = &docs[k];
        let (old, new) = (&last.signature[k].3, &doc.items[..]);
        let p = old.iter().zip(new).take_while(|((id, r), i)| *id == i.id && r.start == i.range.start).count();
        let s = old[p..].iter().rev().zip(new[p..].iter().rev()).take_while(|((id, _), i)| *id == i.id).count();
        let (old_window, new_window) = (old[p..old.len() - s].to_vec(), &new[p..new.len() - s]);
        if new_window.len() > PATCH_ITEMS {
            return None;
        }
        // Positions separate the items' results only if the changed items
        // lie strictly between the unchanged ones.
        let lo = if p > 0 { new[p - 1].range.end + 1 } else { 0 };
        let (hi, delta) = match (old.get(old.len() - s), new.get(new.len() - s)) {
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
                None => Arc::new(declare(doc, item)),
            };
            fresh.push((item, d, Vec::new()));
        }
        // Declaring items keep their place (an edit re-parses the item
        // before the changed one too, which is often a variable): as many,
        // at the same starts, each with as many declarations. A declaration
        // that others see differently (a new name, type or place) is a
        // change of the module's names, taken below if its readers allow.
        let has_tfvars = docs.iter().any(|d| d.file.kind == FileKind::Tfvars);
        let mut changes: Vec<Change> = Vec::new();
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
                || was.calls != d.calls
                || was.resource_decls != d.resource_decls
            {
                return None;
            }
            if !d.vars.is_empty() {
                *winners = self.checks.get(id)?.winners.clone();
            }
            for ((a, b), won) in was.vars.iter().zip(&d.vars).zip(winners.iter()) {
                if a.same_for_others(b) && (a.type_range == b.type_range || !has_tfvars) {
                    continue;
                }
                // tfvars values are checked against the variables' types
                // and places, which only a full analysis has at hand.
                if has_tfvars || !*won {
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
                if e.doc != k || e.range != shift(&a.name_range, start) || a.what != b.what {
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
        let dialect = docs[0].file.dialect;
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
            if entry.doc != k || entry.range != *old_range {
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
        let Last { mut signature, analysis, mut env, exact, .. } = self.last.take()?;
        for c in &changes {
            c.apply(&mut env, k);
        }
        let mut inferred = Vec::new();
        for &(item, index, c) in &new_computed {
            let tree = item.body(&doc.file.text)?;
            let expr = computed_of(&tree, doc.file.kind).get(index).copied()?;
            let view = View::new(&env, dialect, false);
            let mut inf = Infer::new(&view, item_source(doc, item));
            let ty = inf.expr(expr);
            let diagnostics = std::mem::take(&mut inf.diagnostics);
            drop(inf);
            let deps = view.deps();
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
            inferred.push(((item.id, index), ComputedResult { deps, ty, diagnostics }));
        }

        // Items elsewhere that read a changed name are checked again.
        let mut again: Vec<(usize, &Item, Arc<Decls>, Arc<CheckResult>)> = Vec::new();
        if !changes.is_empty() {
            if !exact {
                return None;
            }
            let readers = readers.get_or_insert_with(|| {
                Readers::build(signature.iter().flat_map(|(_, _, _, items)| items.iter().map(|(id, _)| id)), self)
            });
            let window_ids: HashSet<ItemId> =
                old_window.iter().map(|(id, _)| *id).chain(new_window.iter().map(|i| i.id)).collect();
            self.names_stay_unique(&changes, readers, &old_window, &fresh)?;
            let window = Window { lo, hi, delta };
            let edited = (&window_ids, k, &window);
            let recomputed = self.cascade(&mut changes, readers, &mut env, docs, dialect, edited)?;
            let mut ids = self.readers_of(&changes, readers, &env, &window_ids)?;
            ids.extend(recomputed);
            for (di, d) in docs.iter().enumerate() {
                for (j, item) in d.items.iter().enumerate().filter(|(_, i)| ids.contains(&i.id)) {
                    // Its results are told from its neighbours' by position.
                    let apart = (j == 0 || d.items[j - 1].range.end < item.range.start)
                        && d.items.get(j + 1).is_none_or(|n| item.range.end < n.range.start);
                    let (Some(decls), Some(checked), true) =
                        (self.decls.get(&item.id), self.checks.get(&item.id), apart)
                    else {
                        return None;
                    };
                    again.push((di, item, decls.clone(), checked.clone()));
                }
            }
        }
        let rechecked: Vec<Arc<CheckResult>> = again
            .par_iter()
            .with_min_len(8)
            .map(|(di, item, d, was)| {
                let (r, _) = check_item(
                    &docs[*di],
                    item,
                    d,
                    &env,
                    dialect,
                    was.winners.clone(),
                    &HashMap::default(),
                    false,
                    false,
                );
                Arc::new(r)
            })
            .collect();
        let mut parts = Vec::new();
        for ((di, item, d, was), r) in again.iter().zip(&rechecked) {
            parts.push((*di, item.range.clone(), self.item_results(*di, item, d, &was.winners, r)?));
        }

        let window = Window { lo, hi, delta };
        let mut diagnostics: Vec<Diagnostic> = new_window.iter().filter_map(|i| i.error.as_deref().cloned()).collect();
        let (mut symbols, mut resources, mut nodes) = (Vec::new(), Vec::new(), Vec::new());
        let (mut checks, mut renamed) = (Vec::new(), Vec::new());
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
            symbols.push(computed_symbol(c, at, r.ty.clone(), k));
            renamed.push(((c.space, c.name.clone()), shift(&c.name_range, at)));
        }
        // tfvars values are checked against the variables wherever those are.
        let var_refs = match doc.file.kind {
            FileKind::Tfvars => self.var_refs(docs, &env)?,
            _ => Vec::new(),
        };
        let var_types = var_types(&var_refs, docs);
        for (item, d, winners) in &fresh {
            let has_vars = !var_refs.is_empty();
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
        let all = 0..analysis.type_nodes[k].len();
        window.splice(&mut analysis.type_nodes[k], all, nodes, |n| n.range.start);
        analysis.probe.clear();
        // tfvars diagnostics point at the variables they are checked
        // against (a full analysis checks them again, at the new places).
        for (j, _) in docs.iter().enumerate().filter(|(_, d)| d.file.kind == FileKind::Tfvars) {
            for r in analysis.diagnostics[j].iter_mut().flat_map(|x| x.related.iter_mut()) {
                if r.path.as_deref() == Some(&doc.file.path) && window.after(r.range.start) {
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
            replace_parts(&mut analysis.type_nodes[j], nodes, |n| n.range.start);
        }
        for (j, r, x) in parts {
            symbol_parts.push(((j, r.start)..(j, r.end + 1), x.1));
        }
        replace_parts(&mut analysis.symbols, symbol_parts, |s| (s.doc, s.name_range.start));

        for e in env.names.values_mut().filter(|e| e.doc == k && window.after(e.range.start)) {
            e.range = window.moved(&e.range);
        }
        // The changed locals are declared where they are now.
        for (key, range) in renamed {
            if let Some(e) = env.names.get_mut(&key) {
                e.range = range;
            }
        }
        // What was read before the edit goes from the index, what is read now comes in.
        if let Some(readers) = &mut readers {
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
        signature[k].3 = item_ranges(doc);
        (analysis.id, analysis.kept) = (analysis_id(), kept);
        let analysis = Arc::new(analysis);
        self.last = Some(Last { signature, analysis: analysis.clone(), env, readers, exact });
        self.prune(docs);
        Some(analysis)
    }

    /// The module's variables (the declaration each name means), found
    /// from the names through the remembered declarations of their items.
    fn var_refs(&self, docs: &[Document], env: &ModuleEnv) -> Option<Vec<VarRef>> {
        let mut out = Vec::new();
        for name in &env.declared[space_index(Space::Var)] {
            let e = env.names.get(&(Space::Var, name.clone()))?;
            let items = &docs.get(e.doc)?.items;
            let item = &items[items.partition_point(|i| i.range.start <= e.range.start).checked_sub(1)?];
            let d = self.decls.get(&item.id)?;
            let at = item.range.start;
            let (index, v) = d.vars.iter().enumerate().find(|(_, v)| shift(&v.name_range, at) == e.range)?;
            out.push(VarRef { item: item.id, index, doc: e.doc, start: at, decl: v.clone() });
        }
        Some(out)
    }

    /// `None` unless each changed name is declared once, in the window,
    /// before and after the edit (which declaration wins a name declared
    /// twice is the full analysis's business), and no names are swapped.
    fn names_stay_unique(
        &self,
        changes: &[Change],
        readers: &Readers,
        old_window: &[(ItemId, Range<usize>)],
        fresh: &[(&Item, Arc<Decls>, Vec<bool>)],
    ) -> Option<()> {
        let mut before: HashMap<(Space, &str), u32> = HashMap::default();
        for d in old_window.iter().filter_map(|(id, _)| self.decls.get(id)) {
            declared_keys(d).for_each(|key| *before.entry(key).or_default() += 1);
        }
        let mut after: HashMap<(Space, &str), u32> = HashMap::default();
        for (_, d, _) in fresh {
            declared_keys(d).for_each(|key| *after.entry(key).or_default() += 1);
        }
        for c in changes {
            for name in [&c.old, &c.new] {
                let (o, n) = (before.get(&(c.space, name.as_str())), after.get(&(c.space, name.as_str())));
                let (o, n) = (o.copied().unwrap_or(0), n.copied().unwrap_or(0));
                if readers.count(c.space, name) != o || o > 1 || n > 1 {
                    return None;
                }
            }
            if c.old != c.new && changes.iter().any(|x| x.space == c.space && x.old != x.new && x.new == c.old) {
                return None;
            }
        }
        Some(())
    }

    /// Computed names outside the window that read a changed name (or
    /// would get another suggestion), inferred again; a new type is a
    /// change in turn. A name is inferred again whenever one it reads
    /// changes, so its last inference sees the final types. Returns their
    /// items (whose results the memo now holds). `None` when a computed
    /// name in the window reads a change (it was inferred before), one
    /// reads a renamed computed name's new name (a new edge of the
    /// dependency order, which may close a cycle), or one has no
    /// remembered result (in a cycle, or broken).
    fn cascade(
        &mut self,
        changes: &mut Vec<Change>,
        readers: &mut Readers,
        env: &mut ModuleEnv,
        docs: &[Document],
        dialect: Dialect,
        (window_ids, k, window): (&HashSet<ItemId>, usize, &Window),
    ) -> Option<HashSet<ItemId>> {
        let mut places: Option<HashMap<ItemId, (usize, usize)>> = None;
        let mut results: HashMap<(ItemId, usize), ComputedResult> = HashMap::default();
        let (mut done, mut budget) = (0, 4096);
        while let Some(c) = changes.get(done) {
            done += 1;
            let (space, renamed) = (c.space, c.old != c.new);
            // (Variables and PCL configs or resources refer to nothing.)
            let computed =
                env.names.get(&(space, c.new.clone())).is_some_and(|e| matches!(e.what, "local" | "attribute"));
            if renamed && computed && readers.computed.get(&(space, c.new.clone())).is_some_and(|s| !s.is_empty()) {
                return None;
            }
            let mut todo: HashSet<(ItemId, usize)> = HashSet::default();
            for name in [&c.old, &c.new] {
                todo.extend(readers.computed.get(&(space, name.clone())).into_iter().flatten().copied());
            }
            if renamed {
                for key in &readers.computed_askers[space_index(space)] {
                    let deps = match results.get(key) {
                        Some(r) => &r.deps,
                        None => &self.computed.get(key)?.deps,
                    };
                    if !answers_hold(deps, space, env) {
                        todo.insert(*key);
                    }
                }
            }
            for key in todo {
                budget -= 1;
                if window_ids.contains(&key.0) || budget == 0 || !self.computed.contains_key(&key) {
                    return None;
                }
                let places = places.get_or_insert_with(|| {
                    let mut m = HashMap::default();
                    for (di, d) in docs.iter().enumerate() {
                        m.extend(d.items.iter().enumerate().map(|(j, i)| (i.id, (di, j))));
                    }
                    m
                });
                let &(di, j) = places.get(&key.0)?;
                let (doc, item) = (&docs[di], &docs[di].items[j]);
                let decl = self.decls.get(&key.0)?.computed.get(key.1)?.clone();
                let tree = item.body(&doc.file.text)?;
                let expr = computed_of(&tree, doc.file.kind).get(key.1).copied()?;
                let view = View::new(env, dialect, false);
                let mut inf = Infer::new(&view, item_source(doc, item));
                let ty = inf.expr(expr);
                let diagnostics = std::mem::take(&mut inf.diagnostics);
                drop(inf);
                let deps = view.deps();
                let at = shift(&decl.name_range, item.range.start);
                let entry = env.names.get_mut(&(decl.space, decl.name.clone()))?;
                // (The module's names are moved past the window at the end.)
                let was = if entry.doc == k && window.after(entry.range.start) {
                    window.moved(&entry.range)
                } else {
                    entry.range.clone()
                };
                if entry.doc != di || was != at {
                    return None;
                }
                if ty != entry.ty {
                    entry.ty = ty.clone();
                    let (old, new) = (decl.name.clone(), decl.name);
                    changes.push(Change { space: decl.space, old, new, ty: ty.clone(), at });
                }
                results.insert(key, ComputedResult { deps, ty, diagnostics });
            }
        }
        let items: HashSet<ItemId> = results.keys().map(|k| k.0).collect();
        for id in &items {
            readers.item(*id, self, false);
        }
        self.computed.extend(results);
        for id in &items {
            readers.item(*id, self, true);
        }
        Some(items)
    }

    /// The items outside the window whose checks read a changed name or
    /// would get another suggestion now.
    fn readers_of(
        &self,
        changes: &[Change],
        readers: &Readers,
        env: &ModuleEnv,
        window_ids: &HashSet<ItemId>,
    ) -> Option<HashSet<ItemId>> {
        let mut ids = HashSet::default();
        for c in changes {
            for name in [&c.old, &c.new] {
                let key = (c.space, name.clone());
                ids.extend(readers.checks.get(&key).into_iter().flatten().filter(|id| !window_ids.contains(id)));
            }
        }
        for space in [Space::Var, Space::Local, Space::Pcl] {
            if !changes.iter().any(|c| c.space == space && c.old != c.new) {
                continue;
            }
            for id in readers.askers[space_index(space)].iter().filter(|id| !window_ids.contains(id)) {
                if !answers_hold(&self.checks.get(id)?.deps, space, env) {
                    ids.insert(*id);
                }
            }
        }
        Some(ids)
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
        for (v, _) in d.vars.iter().zip(winners).filter(|(_, w)| **w) {
            symbols.push(var_symbol(v, at, di));
        }
        for (index, c) in d.computed.iter().enumerate() {
            let computed = self.computed.get(&(item.id, index))?;
            diagnostics.extend(computed.diagnostics.iter().map(|x| moved(x, at)));
            symbols.push(computed_symbol(c, at, computed.ty.clone(), di));
        }
        diagnostics.extend(r.diagnostics.iter().map(|x| moved(x, at)));
        symbols.extend(r.outputs.iter().map(|s| s.moved(di, at)));
        let mut nodes: Vec<TypeNode> = d.type_nodes.iter().chain(&r.type_nodes).map(|n| moved(n, at)).collect();
        diagnostics.sort_by_key(|d| (d.range.start, d.range.end));
        diagnostics.dedup();
        symbols.sort_by_key(|s| s.name_range.start);
        nodes.sort_by_key(|n| n.range.start);
        Some((diagnostics, symbols, nodes))
    }
}

/// Whether the suggestions `deps` got in `space` are still the answers.
fn answers_hold(deps: &Deps, space: Space, env: &ModuleEnv) -> bool {
    deps.suggested.iter().filter(|(s, _, _)| *s == space).all(|(s, word, answer)| env.suggest(*s, word) == *answer)
}

/// A name of the module that others now see differently: renamed from
/// `old` to `new` (or the same name with a new type or place), declared
/// once, at `at` in the edited document.
pub(super) struct Change {
    space: Space,
    old: String,
    new: String,
    ty: Type,
    at: Range<usize>,
}

impl Change {
    /// The module's names after the change: a renamed name keeps its
    /// place among the declared ones (suggestions weigh them in order).
    fn apply(&self, env: &mut ModuleEnv, doc: usize) {
        let what = match self.space {
            Space::Var => "variable",
            Space::Local => "local",
            Space::Pcl | Space::Module | Space::Resource => {
                env.names.get(&(self.space, self.old.clone())).map_or("attribute", |e| e.what)
            }
        };
        if self.old != self.new {
            env.names.remove(&(self.space, self.old.clone()));
            if let Some(slot) = env.declared[space_index(self.space)].iter_mut().find(|n| **n == self.old) {
                *slot = self.new.clone();
            }
            env.renamed(self.space, &self.old, &self.new);
        }
        let entry = Entry { ty: self.ty.clone(), doc, range: self.at.clone(), what };
        env.names.insert((self.space, self.new.clone()), entry);
    }
}

fn var_symbol(v: &VarDecl, at: usize, doc: usize) -> Symbol {
    Symbol {
        address: format!("var.{}", v.name),
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

/// Replaces, in one pass, the elements of `v` (sorted by `key`) whose key
/// lies in each of `parts`' ranges (sorted, apart) by that part's elements.
/// Returns how many elements at the front and at the back it left alone.
fn replace_parts<T, K: Ord>(v: &mut Vec<T>, parts: Vec<(Range<K>, Vec<T>)>, key: impl Fn(&T) -> K) -> (usize, usize) {
    if parts.is_empty() {
        return (v.len(), v.len());
    }
    let mut old = std::mem::take(v).into_iter().peekable();
    let mut out = Vec::with_capacity(old.len());
    let mut front = None;
    for (range, fresh) in parts {
        while let Some(x) = old.next_if(|x| key(x) < range.start) {
            out.push(x);
        }
        front.get_or_insert(out.len());
        while old.next_if(|x| key(x) < range.end).is_some() {}
        out.extend(fresh);
    }
    let back = old.len();
    out.extend(old);
    *v = out;
    (front.unwrap_or(0), back)
}
