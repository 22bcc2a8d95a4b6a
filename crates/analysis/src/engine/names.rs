//! Phases 2 to 6 of [`Memo::patch`]: what the edited items declare
//! before and after, and the changes of the module's names that makes (a
//! rename, a new type, a callee that changed); the edited locals inferred
//! again; the items elsewhere that read a changed name.

use std::ops::Range;
use std::sync::Arc;

use rustc_hash::FxHashSet as HashSet;
use syntax::Dialect;
use types::Type;

use super::patch::{inert, Again, Declared, Edit, Fresh, Inferred, NewComputed, OldComputed};
use super::{infer_computed, readers_of, Change, ComputedResult, Edited, GiveUp, Memo, Readers};
use crate::document::{Document, ItemId};
use crate::infer::Space;
use crate::module::decls::{declare, CallDecl, ComputedDecl, VarDecl};
use crate::module::env::{default_key, default_path_key, path_default, ModuleEnv};
use crate::module::{module_dialect, shift, VarRef};
use crate::FileKind;

impl Memo {
    /// Phase 2: what the edited items declare, before and after.
    /// Declaring items keep their place (an edit re-parses the item
    /// before the changed one too, which is often a variable): as many,
    /// at the same starts, each with as many declarations. A declaration
    /// that others see differently (a new name, type or place) is a
    /// change of the module's names, taken later if its readers allow.
    pub(super) fn declarations<'d>(&self, edit: &Edit<'d>) -> Result<Declared<'d>, GiveUp> {
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
    pub(super) fn edited_locals(
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
    pub(super) fn callees(
        &self,
        env: &mut ModuleEnv,
        fresh: &[Fresh],
        k: usize,
        changes: &mut Vec<Change>,
    ) -> Result<(), GiveUp> {
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
    pub(super) fn readers_again<'d>(
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

    /// The variables named `names` (the declaration each name means; the
    /// names not declared left out): in the edited items (`fresh`, in
    /// document `k`), or found through `env` and the remembered
    /// declarations.
    pub(super) fn var_refs(
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
}

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
pub(super) fn infer_edited_locals(
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
pub(super) fn assigned(docs: &[Document], k: usize, fresh: &[Fresh], again: &[Again]) -> Vec<String> {
    let mut assigned = Vec::new();
    let tfvars = |di: usize| docs[di].file.kind == FileKind::Tfvars;
    let checked = fresh.iter().map(|(item, _, _)| (k, *item)).chain(again.iter().map(|(di, item, _, _)| (*di, *item)));
    for (di, item) in checked.filter(|(di, _)| tfvars(*di)) {
        let body = item.body(&docs[di].file.text);
        assigned.extend(body.iter().flat_map(|b| b.attributes()).map(|a| a.key.value().to_string()));
    }
    assigned
}

/// Calls that differ at most in their `source` (what it leads to is
/// [`Context`](crate::calls::Context)'s, compared on its own).
fn same_calls_but_sources(a: &[CallDecl], b: &[CallDecl]) -> bool {
    a.len() == b.len()
        && a.iter().zip(b).all(|(x, y)| {
            x.name == y.name && x.name_range == y.name_range && x.repeat == y.repeat && x.component == y.component
        })
}
