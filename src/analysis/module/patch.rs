//! Bringing the last analysis up to an edit in place, when the edit
//! leaves the module's names as they were.

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
    /// `fresh` and moves what follows in `within`, all in place.
    pub(super) fn splice<T: Placed>(
        &self,
        v: &mut Vec<T>,
        within: Range<usize>,
        fresh: Vec<T>,
        key: impl Fn(&T) -> usize,
    ) {
        let part = &v[within.clone()];
        let from = within.start + part.partition_point(|x| key(x) < self.lo);
        let to = within.start + part.partition_point(|x| key(x) < self.hi);
        for x in &mut v[to..within.end] {
            x.map_ranges(|r| self.moved(r));
        }
        v.splice(from..to, fresh);
    }
}

/// An item that declares no variable or PCL name (it may hold locals).
pub(super) fn inert(d: &Decls) -> bool {
    d.vars.is_empty() && d.names.is_empty()
}

impl Memo {
    /// The last analysis brought up to `docs` when they differ from it by
    /// an edit to one file whose re-parsed items leave the module's names
    /// as they were (most keystrokes): resources, outputs and broken items
    /// declare none; variables and PCL names must be the same declarations
    /// at the same place, locals keep their names, references and types.
    /// Every other item's results then hold: only the re-parsed items are
    /// checked, and the rest of the last analysis is moved in place, not
    /// rebuilt. `None` when that does not apply (a full [`run`] then gives
    /// the same answer).
    pub(super) fn patch(&mut self, docs: &[Document]) -> Option<Arc<ModuleAnalysis>> {
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
            // tfvars values are checked against the variables wherever
            // those are, which only a full analysis has at hand.
            if !same && (changed.replace(k).is_some() || *kind == FileKind::Tfvars) {
                return None;
            }
        }
        let k = changed?;
        let doc = &docs[k];
        let (old, new) = (&last.signature[k].3, &doc.items[..]);
        let p = old.iter().zip(new).take_while(|((id, r), i)| *id == i.id && r.start == i.range.start).count();
        let s = old[p..].iter().rev().zip(new[p..].iter().rev()).take_while(|((id, _), i)| *id == i.id).count();
        let (old_window, new_window) = (&old[p..old.len() - s], &new[p..new.len() - s]);
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
        for (id, r) in old_window {
            let Some(d) = self.decls.get(id) else { continue };
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
        // Variables and PCL names must stay as they were, where they were
        // (an edit re-parses the item before the changed one too, which is
        // often a variable): the same declarations at the same place, so
        // the module's names, and which declaration wins each, are as before.
        let old_declaring = old_window.iter().filter_map(|(id, r)| {
            let d = self.decls.get(id)?;
            (!inert(d)).then_some((id, r.start, d))
        });
        // tfvars diagnostics point at the types of the variables they are
        // checked against: where a type moved, only a full analysis knows.
        let has_tfvars = docs.iter().any(|d| d.file.kind == FileKind::Tfvars);
        let mut new_declaring = fresh.iter_mut().filter(|(_, d, _)| !inert(d));
        for (id, start, was) in old_declaring {
            let (item, d, winners) = new_declaring.next()?;
            let same_vars = was.vars.len() == d.vars.len()
                && was
                    .vars
                    .iter()
                    .zip(&d.vars)
                    .all(|(a, b)| a.same_for_others(b) && (a.type_range == b.type_range || !has_tfvars));
            if start != item.range.start || !same_vars || was.names != d.names {
                return None;
            }
            if !d.vars.is_empty() {
                *winners = self.checks.get(id)?.winners.clone();
            }
        }
        if new_declaring.next().is_some() {
            return None;
        }
        let dialect = docs[0].file.dialect;
        // Each local must keep its name and references (so the dependency
        // order and its cycles stay) and its type (so no other item sees a
        // change); it is inferred again for its own diagnostics.
        let new_computed: Vec<(&Item, usize, &ComputedDecl)> = fresh
            .iter()
            .flat_map(|(item, d, _)| d.computed.iter().enumerate().map(move |(index, c)| (*item, index, c)))
            .collect();
        if new_computed.len() != old_computed.len() {
            return None;
        }
        let mut inferred = Vec::new();
        for (&(item, index, c), (old_id, old_index, old_range, was)) in new_computed.iter().zip(&old_computed) {
            if (c.space, &c.name, &c.refs) != (was.space, &was.name, &was.refs)
                || !self.computed.contains_key(&(*old_id, *old_index))
            {
                return None;
            }
            let entry = last.env.names.get(&(c.space, c.name.clone()))?;
            if entry.doc != k || entry.range != *old_range {
                return None;
            }
            let tree = item.body(&doc.file.text)?;
            let expr = computed_of(&tree, doc.file.kind).get(index).copied()?;
            let view = View::new(&last.env, dialect, false);
            let mut inf = Infer::new(&view, item_source(doc, item));
            let ty = inf.expr(expr);
            let diagnostics = std::mem::take(&mut inf.diagnostics);
            drop(inf);
            if ty != entry.ty {
                return None;
            }
            inferred.push(((item.id, index), ComputedResult { deps: view.deps(), ty, diagnostics }));
        }

        let window = Window { lo, hi, delta };
        let Last { mut signature, analysis, mut env } = self.last.take()?;
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
        // As run() lists them: declared symbols, variables, computed names, outputs.
        for (item, d, winners) in &fresh {
            for (v, _) in d.vars.iter().zip(winners).filter(|(_, w)| **w) {
                symbols.push(Symbol {
                    address: format!("var.{}", v.name),
                    name: v.name.clone(),
                    kind: SymbolKind::Variable,
                    name_range: shift(&v.name_range, item.range.start),
                    range: shift(&v.range, item.range.start),
                    ty: v.value.clone(),
                    doc: k,
                });
            }
        }
        for ((item, _, c), (_, r)) in new_computed.iter().zip(&inferred) {
            let at = item.range.start;
            diagnostics.extend(r.diagnostics.iter().map(|x| moved(x, at)));
            let (address, kind) = match c.space {
                Space::Local => (format!("local.{}", c.name), SymbolKind::Local),
                _ => (c.name.clone(), SymbolKind::Attribute),
            };
            let name_range = shift(&c.name_range, at);
            symbols.push(Symbol {
                address,
                name: c.name.clone(),
                kind,
                name_range: name_range.clone(),
                range: shift(&c.range, at),
                ty: r.ty.clone(),
                doc: k,
            });
            renamed.push(((c.space, c.name.clone()), name_range));
        }
        for (item, d, winners) in &fresh {
            let (r, _) = check_item(doc, item, d, &env, dialect, winners.clone(), &HashMap::default(), false, false);
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
        window.splice(&mut analysis.diagnostics[k], all, diagnostics, |d| d.range.start);
        let all = 0..analysis.type_nodes[k].len();
        window.splice(&mut analysis.type_nodes[k], all, nodes, |n| n.range.start);
        analysis.probe.clear();
        // tfvars diagnostics point at the variables they are checked
        // against (a full analysis checks them again, at the new places).
        for (j, _) in docs.iter().enumerate().filter(|(_, d)| d.file.kind == FileKind::Tfvars) {
            for r in analysis.diagnostics[j].iter_mut().flat_map(|x| x.related.iter_mut()) {
                if r.path.as_deref() == Some(&doc.file.path) && window.after(r.range.start) {
                    r.range = window.moved(&r.range);
                }
            }
        }
        for e in env.names.values_mut().filter(|e| e.doc == k && window.after(e.range.start)) {
            e.range = window.moved(&e.range);
        }
        // The changed locals are declared where they are now.
        for (key, range) in renamed {
            if let Some(e) = env.names.get_mut(&key) {
                e.range = range;
            }
        }
        self.computed.extend(inferred);

        for (item, d, _) in fresh {
            self.decls.insert(item.id, d);
        }
        self.checks.extend(checks);
        self.patches += 1;
        signature[k].3 = item_ranges(doc);
        let analysis = Arc::new(analysis);
        self.last = Some(Last { signature, analysis: analysis.clone(), env });
        self.prune(docs);
        Some(analysis)
    }
}
