//! A change of the module's names in place (a rename, a new type): which
//! names may change so, which computed names infer again, and which items
//! read them, for [`Memo::patch`].

use std::ops::Range;

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use syntax::Dialect;
use types::Type;

use super::patch::Fresh;
use super::{declared_keys, ComputedResult, GiveUp, Memo, Readers};
use crate::document::{Document, Item, ItemId};
use crate::infer::{Infer, Space};
use crate::module::decls::{computed_of, ComputedDecl};
use crate::module::env::{is_default_key, ModuleEnv, View};
use crate::module::{item_source, shift};

/// What [`Memo::cascade`] knows of the edit.
pub(in crate::module) struct Edited<'a> {
    /// The items the edit replaced, and those that replace them.
    pub(in crate::module) window_ids: &'a HashSet<ItemId>,
    /// The edited document.
    pub(in crate::module) k: usize,
    /// Computed names whose suggestions change.
    pub(in crate::module) asked: Vec<(ItemId, usize)>,
    /// The edited items' computed names (with what they refer to).
    pub(in crate::module) computed: Vec<&'a ComputedDecl>,
    /// The same as (new item, index, declaration), the keys they had
    /// before the edit, and their results so far (inferred again here
    /// when a name they read changes).
    pub(in crate::module) fresh: &'a [(&'a Item, usize, &'a ComputedDecl)],
    pub(in crate::module) old_keys: Vec<(ItemId, usize)>,
    pub(in crate::module) inferred: &'a mut [((ItemId, usize), ComputedResult)],
}

impl Memo {
    /// [`GiveUp::NameNotUnique`] unless each changed name is declared once, in the window,
    /// before and after the edit (which declaration wins a name declared
    /// twice is the full analysis's business), and no names are swapped.
    pub(in crate::module) fn names_stay_unique(
        &self,
        changes: &[Change],
        readers: &Readers,
        old_window: &[(ItemId, Range<usize>)],
        fresh: &[Fresh],
    ) -> Result<(), GiveUp> {
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
                    return Err(GiveUp::NameNotUnique);
                }
            }
            if c.old != c.new && changes.iter().any(|x| x.space == c.space && x.old != x.new && x.new == c.old) {
                return Err(GiveUp::NameNotUnique);
            }
        }
        Ok(())
    }

    /// Computed names outside the window that read a changed name (or
    /// would get another suggestion), inferred again; a new type is a
    /// change in turn. A name is inferred again whenever one it reads
    /// changes, so its last inference sees the final types (the edited
    /// items' too). Returns the items outside the window (whose results
    /// the memo now holds). [`GiveUp::NewCycle`] when one reads a renamed
    /// computed name's new name that depends on it (the new edge of the
    /// dependency order closes a cycle), [`GiveUp::UninferredLocal`] when
    /// one has no remembered result (in a cycle, or broken).
    pub(in crate::module) fn cascade(
        &mut self,
        changes: &mut Vec<Change>,
        readers: &mut Readers,
        env: &mut ModuleEnv,
        docs: &[Document],
        dialect: Dialect,
        mut edited: Edited,
    ) -> Result<HashSet<ItemId>, GiveUp> {
        let window_ids = edited.window_ids;
        let mut asked = std::mem::take(&mut edited.asked);
        let mut results: HashMap<(ItemId, usize), ComputedResult> = HashMap::default();
        let (mut done, mut budget) = (0, 4096);
        while let Some(c) = changes.get(done) {
            done += 1;
            let (space, renamed) = (c.space, c.old != c.new);
            // (Variables and PCL configs or resources refer to nothing.)
            let computed =
                env.names.get(&(space, c.new.clone())).is_some_and(|e| matches!(e.what, "local" | "attribute"));
            if let Some(readers) =
                readers.computed.get(&(space, c.new.clone())).filter(|s| renamed && computed && !s.is_empty())
            {
                // A new edge of the dependency order: taken unless the
                // renamed name depends on one of its readers (a new cycle).
                let targets = readers
                    .iter()
                    .map(|(id, index)| self.decls.get(id)?.computed.get(*index).map(|c| (c.space, c.name.clone())))
                    .collect::<Option<HashSet<_>>>()
                    .ok_or(GiveUp::Forgotten)?;
                if self.reaches(env, docs, &edited, (space, c.new.clone()), &targets)? {
                    return Err(GiveUp::NewCycle);
                }
            }
            let mut todo: HashSet<(ItemId, usize)> = HashSet::default();
            for name in [&c.old, &c.new] {
                todo.extend(readers.computed.get(&(space, name.clone())).into_iter().flatten().copied());
            }
            if renamed {
                todo.extend(asked.drain(..));
            }
            for key in todo {
                budget -= 1;
                if budget == 0 {
                    return Err(GiveUp::CascadeTooLong);
                }
                if window_ids.contains(&key.0) {
                    let change = infer_edited(&mut edited, key, env, docs, dialect)?;
                    changes.extend(change);
                    continue;
                }
                if !self.computed.contains_key(&key) {
                    return Err(GiveUp::UninferredLocal);
                }
                let (di, j) = readers.place(docs, key.0).ok_or(GiveUp::Inconsistent)?;
                let (doc, item) = (&docs[di], &docs[di].items[j]);
                let decls = self.decls.get(&key.0).ok_or(GiveUp::Forgotten)?;
                let decl = decls.computed.get(key.1).ok_or(GiveUp::Inconsistent)?.clone();
                let r = infer_computed(env, dialect, doc, item, key.1).ok_or(GiveUp::UninferredLocal)?;
                let at = shift(&decl.name_range, item.range.start);
                let name = (decl.space, decl.name.clone());
                let was = env.names.get(&name).map(|e| (e.doc, env.range(e))).ok_or(GiveUp::Inconsistent)?;
                let entry = env.names.get_mut(&name).ok_or(GiveUp::Inconsistent)?;
                if was != (di, at.clone()) {
                    return Err(GiveUp::NameNotUnique);
                }
                if r.ty != entry.ty {
                    entry.ty = r.ty.clone();
                    let (old, new) = (decl.name.clone(), decl.name);
                    changes.push(Change { space: decl.space, old, new, ty: r.ty.clone(), at });
                }
                results.insert(key, r);
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
        Ok(items)
    }

    /// Whether computed name `from` depends, through what it refers to,
    /// on one of `targets`; [`GiveUp::NewCycle`] when that takes too long
    /// to tell.
    fn reaches(
        &self,
        env: &ModuleEnv,
        docs: &[Document],
        edited: &Edited,
        from: (Space, String),
        targets: &HashSet<(Space, String)>,
    ) -> Result<bool, GiveUp> {
        let mut seen: HashSet<(Space, String)> = HashSet::default();
        let mut todo = vec![from];
        while let Some(name) = todo.pop() {
            if !seen.insert(name.clone()) {
                continue;
            }
            if seen.len() > 512 {
                return Err(GiveUp::NewCycle);
            }
            let refs = match edited.computed.iter().find(|c| c.space == name.0 && c.name == name.1) {
                Some(c) => &c.refs,
                None => {
                    let Some(e) = env.names.get(&name).filter(|e| matches!(e.what, "local" | "attribute")) else {
                        continue;
                    };
                    let range = env.range(e);
                    let items = &docs.get(e.doc).ok_or(GiveUp::Inconsistent)?.items;
                    let j = items.partition_point(|i| i.range.start <= range.start).checked_sub(1);
                    let item = &items[j.ok_or(GiveUp::Inconsistent)?];
                    let d = self.decls.get(&item.id).ok_or(GiveUp::Forgotten)?;
                    let c = d.computed.iter().find(|c| shift(&c.name_range, item.range.start) == range);
                    &c.ok_or(GiveUp::Inconsistent)?.refs
                }
            };
            if refs.iter().any(|r| targets.contains(r)) {
                return Ok(true);
            }
            todo.extend(refs.iter().cloned());
        }
        Ok(false)
    }
}

/// Infers again the edited items' computed name `key` (by its key before
/// or after the edit), as [`Memo::cascade`] does the others; a new type
/// is a change.
fn infer_edited(
    edited: &mut Edited,
    key: (ItemId, usize),
    env: &mut ModuleEnv,
    docs: &[Document],
    dialect: Dialect,
) -> Result<Option<Change>, GiveUp> {
    let pos = edited.old_keys.iter().position(|k| *k == key);
    let pos = pos.or_else(|| edited.inferred.iter().position(|(k, _)| *k == key)).ok_or(GiveUp::Inconsistent)?;
    let (item, index, decl) = edited.fresh[pos];
    let doc = docs.get(edited.k).ok_or(GiveUp::Inconsistent)?;
    let r = infer_computed(env, dialect, doc, item, index).ok_or(GiveUp::UninferredLocal)?;
    let entry = env.names.get_mut(&(decl.space, decl.name.clone())).ok_or(GiveUp::Inconsistent)?;
    let change = (r.ty != entry.ty).then(|| {
        entry.ty = r.ty.clone();
        let at = shift(&decl.name_range, item.range.start);
        Change { space: decl.space, old: decl.name.clone(), new: decl.name.clone(), ty: r.ty.clone(), at }
    });
    edited.inferred[pos].1 = r;
    Ok(change)
}

/// The `index`th computed name of `item` of `doc` inferred against `env`.
pub(in crate::module) fn infer_computed(
    env: &ModuleEnv,
    dialect: Dialect,
    doc: &Document,
    item: &Item,
    index: usize,
) -> Option<ComputedResult> {
    let tree = item.body(&doc.file.text)?;
    let expr = computed_of(&tree, doc.file.kind).get(index).copied()?;
    let view = View::new(env, dialect, false);
    let mut inf = Infer::new(&view, item_source(doc, item));
    inf.policy = crate::is_policy_file(&doc.file.path);
    let ty = inf.expr(expr);
    let diagnostics = std::mem::take(&mut inf.diagnostics);
    let type_nodes = std::mem::take(&mut inf.type_nodes);
    drop(inf);
    Some(ComputedResult { deps: view.deps(), ty, diagnostics, type_nodes })
}

/// The items outside the window whose checks read a changed name.
pub(in crate::module) fn readers_of(
    changes: &[Change],
    readers: &Readers,
    window_ids: &HashSet<ItemId>,
) -> HashSet<ItemId> {
    let mut ids = HashSet::default();
    for c in changes {
        for name in [&c.old, &c.new] {
            let key = (c.space, name.clone());
            ids.extend(readers.checks.get(&key).into_iter().flatten().filter(|id| !window_ids.contains(id)));
        }
    }
    ids
}

/// A name of the module that others now see differently: renamed from
/// `old` to `new` (or the same name with a new type or place), declared
/// once, at `at` in the edited document.
pub(in crate::module) struct Change {
    pub(in crate::module) space: Space,
    pub(in crate::module) old: String,
    pub(in crate::module) new: String,
    pub(in crate::module) ty: Type,
    pub(in crate::module) at: Range<usize>,
}

impl Change {
    /// The module's names after the change: a renamed name keeps its
    /// place among the declared ones (suggestions weigh them in order).
    pub(in crate::module) fn apply(&self, env: &mut ModuleEnv, doc: usize) {
        let what = match self.space {
            Space::Var if is_default_key(&self.new) => "variable default",
            Space::Var => "variable",
            Space::Local => "local",
            Space::Pcl | Space::Module | Space::Resource => {
                env.names.get(&(self.space, self.old.clone())).map_or("attribute", |e| e.what)
            }
        };
        if self.old != self.new {
            env.names.remove(&(self.space, self.old.clone()));
            // (A default's key is no name anyone spells or is offered.)
            if !is_default_key(&self.new) {
                env.renamed(self.space, &self.old, &self.new);
            }
        }
        env.put((self.space, self.new.clone()), self.ty.clone(), doc, self.at.clone(), what);
    }
}
