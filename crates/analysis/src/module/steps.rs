//! Steps 1 and 3 of [`run`](super::run): every item's declarations, in
//! parallel for the items the memo does not hold, then placed in order
//! with the module's names declared; and every item's checks, again only
//! for the items whose remembered result no longer holds. (Steps 2, 4 and
//! 5 are `infer_levels`, `symbols_in_order` and `module_level` beside
//! `run`.)

use crate::dialects::terragrunt;
use std::sync::{Arc, Mutex};

use rayon::prelude::*;
use rustc_hash::FxHashMap as HashMap;
use types::Type;

use super::checks::check_item;
use super::decls::{declare, Decls};
use super::engine::CheckResult;
use super::env::{default_key, default_path_key, null_default_key, path_default, ModuleEnv};
use super::{module_dialect, moved, overrides, probed, shift, typed_resources, var_types};
use super::{ComputedRef, Memo, ModuleAnalysis, Probe, VarRef};
use crate::document::{Document, Item, ItemId};
use crate::infer::{Space, Typed};
use crate::FileKind;

/// Step 1 of [`run`], first half: declares, in parallel, the items of
/// `docs` whose declarations the memo does not hold yet. Whoever asks first
/// pays for all of them — `run`, or [`Memo::shared_calls`] before it
/// (which, declaring item by item, made a 10 MB module's declarations
/// serial: ~8% of `check`'s time).
pub(super) fn declare_new<'a>(docs: impl Iterator<Item = &'a Document>, memo: &mut Memo) {
    let missing: Vec<(&Document, &Item)> = docs
        .flat_map(|d| d.items.iter().map(move |i| (d, i)))
        .filter(|(_, i)| !memo.decls.contains_key(&i.id))
        .collect();
    let symbols = &memo.context.symbols;
    let fresh: Vec<(ItemId, Arc<Decls>)> =
        missing.par_iter().with_min_len(64).map(|&(d, i)| (i.id, Arc::new(declare(d, i, symbols)))).collect();
    memo.decls.extend(fresh);
}

/// The module's variables (`var_index`: the declaration each name means)
/// and computed names, as step 1 found them.
pub(super) struct Names<'a> {
    pub(super) vars: Vec<VarRef>,
    pub(super) var_index: HashMap<String, usize>,
    pub(super) computed: Vec<ComputedRef<'a>>,
}

/// Step 1 of [`run`], second half: every item's declarations in order,
/// their diagnostics, type nodes and symbols placed, and the module's
/// names declared with the types they have before inference.
pub(super) fn declared_names<'a>(
    docs: &'a [Document],
    memo: &Memo,
    all_decls: &'a [Vec<Option<Arc<Decls>>>],
    out: &mut ModuleAnalysis,
) -> (ModuleEnv, Names<'a>) {
    let mut env = ModuleEnv {
        paths: docs.iter().map(|d| d.file.path.clone()).collect(),
        names: HashMap::default(),
        declared: Default::default(),
        shapes: Default::default(),
        near: Default::default(),
        suggestions: Mutex::default(),
        context: memo.context.clone(),
        moves: Vec::new(),
        passes: Default::default(),
        own_library: memo.own_library.clone(),
        units: Default::default(),
    };
    let mut names = Names { vars: Vec::new(), var_index: HashMap::default(), computed: Vec::new() };
    for (di, doc) in docs.iter().enumerate() {
        for (item, decls) in doc.items.iter().zip(&all_decls[di]) {
            let Some(d) = decls else { continue };
            let at = item.range.start;
            out.diagnostics[di].extend(d.diagnostics.iter().map(|x| moved(x, at)));
            out.type_nodes[di].settled().extend(d.type_nodes.iter().map(|n| moved(n, at)));
            out.symbols.extend(d.symbols.iter().map(|s| s.moved(di, at)));
            out.resources.extend(d.resources.iter().map(|s| s.moved(di, at)));
            for n in &d.names {
                env.declare(Space::Pcl, &n.name);
                let component = d.calls.iter().find(|c| c.component && c.name == n.name);
                let ty = component.map_or_else(|| n.value(&env.context), |c| c.value(env.context.callee(&c.name)));
                env.insert(Space::Pcl, &n.name, ty, di, shift(&n.name_range, at), n.what);
            }
            for (index, v) in d.vars.iter().enumerate() {
                match names.var_index.get(&v.name) {
                    None => {
                        names.var_index.insert(v.name.clone(), names.vars.len());
                        names.vars.push(VarRef { item: item.id, index, doc: di, start: at, decl: v.clone() });
                    }
                    // An override file's `variable` merges into the base's
                    // (Terraform's Variable.merge): its type and its
                    // default replace the base's, in the module as for
                    // its callers (see `overrides.rs`).
                    Some(&w) if overrides::is_override(&doc.file.path) => {
                        overrides::merge_var(&mut names.vars[w].decl, v)
                    }
                    Some(_) => {}
                }
            }
            for (index, c) in d.computed.iter().enumerate() {
                env.declare(c.space, &c.name);
                names.computed.push(ComputedRef { doc: di, item, index, decl: c });
            }
            for c in d.calls.iter().filter(|c| !c.component) {
                env.declare(Space::Module, &c.name);
                let ty = c.value(env.context.callee(&c.name));
                let what = match c.name.split(':').next() {
                    Some("#run") => "run block",
                    Some("#var") => "test variable",
                    _ => "module call",
                };
                env.insert(Space::Module, &c.name, ty, di, shift(&c.name_range, at), what);
            }
            for r in &d.resource_decls {
                let key = r.key();
                env.declare(Space::Resource, &key);
                let ty = r.value(&env.context);
                let what = if r.data { "data source" } else { "resource" };
                env.insert(Space::Resource, &key, ty, di, shift(&r.name_range, at), what);
            }
        }
    }
    typed_resources(&mut out.resources, &env);
    declare_vars(&mut env, &names.vars);
    (env, names)
}

/// The module's variables, their defaults and null defaults, into `env`.
fn declare_vars(env: &mut ModuleEnv, vars: &[VarRef]) {
    for v in vars {
        env.declare(Space::Var, &v.decl.name);
        let at = shift(&v.decl.name_range, v.start);
        let what = match v.decl.const_set {
            Some(true) => "const variable",
            Some(false) => "non-const variable",
            None => "variable",
        };
        env.insert(Space::Var, &v.decl.name, v.decl.value.clone(), v.doc, at.clone(), what);
        if let Some(d) = &v.decl.default {
            let key = default_key(&v.decl.name);
            env.insert(Space::Var, &key, d.clone(), v.doc, at.clone(), "variable default");
        }
        if let Some(t) = path_default(&v.decl) {
            let key = default_path_key(&v.decl.name);
            env.insert(Space::Var, &key, t, v.doc, at.clone(), "variable default");
        }
        if v.decl.null_default {
            let key = null_default_key(&v.decl.name);
            env.insert(Space::Var, &key, Type::none(), v.doc, at, "variable default");
        }
    }
}

/// Step 3 of [`run`]: every item's checks, those of new or affected items
/// (whose remembered result's dependencies no longer hold) in parallel;
/// their diagnostics placed. Returns each item's result with its document
/// and start, for its outputs and type nodes (`None` when stopped).
#[allow(clippy::too_many_arguments)]
pub(super) fn check_items<'a>(
    docs: &'a [Document],
    probe: Probe,
    memo: &mut Memo,
    env: &ModuleEnv,
    names: &Names,
    all_decls: &'a [Vec<Option<Arc<Decls>>>],
    out: &mut ModuleAnalysis,
    stop: &(dyn Fn() -> bool + Sync),
) -> Option<Vec<(usize, usize, Arc<CheckResult>)>> {
    let dialect = module_dialect(docs);
    let (vars, var_index) = (&names.vars, &names.var_index);
    let has_vars = !vars.is_empty();
    let winners = |item: &Item, d: &Decls| -> Vec<bool> {
        d.vars
            .iter()
            .enumerate()
            .map(|(k, v)| var_index.get(&v.name).is_some_and(|&w| vars[w].item == item.id && vars[w].index == k))
            .collect()
    };
    let work: Vec<(usize, &Item, &Arc<Decls>)> = docs
        .iter()
        .enumerate()
        .flat_map(|(di, doc)| doc.items.iter().zip(&all_decls[di]).map(move |(i, d)| (di, i, d)))
        .filter_map(|(di, i, d)| d.as_ref().map(|d| (di, i, d)))
        .collect();
    // (A Terragrunt unit's includes and `inputs` make each input's value
    // together: no item's result holds alone, see terragrunt_merge.rs.)
    let merging = terragrunt::merge::merges(docs);
    let stale: Vec<(usize, &Item, &Arc<Decls>)> = work
        .iter()
        .copied()
        .filter(|(di, item, d)| {
            let kind = docs[*di].file.kind;
            kind == FileKind::Tfvars
                || (merging && crate::is_terragrunt_unit(&docs[*di].file.path))
                || probed(probe, *di, &item.range)
                || !memo.checks.get(&item.id).is_some_and(|r| {
                    r.deps.hold(env, docs[*di].file.dialect.within(dialect))
                        && r.module_dialect == dialect
                        && r.winners == winners(item, d)
                })
        })
        .collect();
    let var_types = var_types(vars, docs);
    let checked: Vec<(ItemId, usize, Arc<CheckResult>, Vec<Typed>)> = stale
        .par_iter()
        .with_min_len(16)
        .filter(|_| !stop())
        .map(|&(di, item, d)| {
            let doc = &docs[di];
            let (result, probe) = check_item(
                doc,
                item,
                d,
                env,
                dialect,
                winners(item, d),
                &var_types,
                has_vars,
                probed(probe, di, &item.range),
            );
            (item.id, item.range.start, Arc::new(result), probe)
        })
        .collect();
    for (id, at, result, recorded) in checked {
        out.probe.extend(recorded.into_iter().map(|t| Typed { range: shift(&t.range, at), ..t }));
        memo.checks.insert(id, result);
    }
    if stop() {
        return None;
    }
    let mut outputs = Vec::new();
    for &(di, item, _) in &work {
        let Some(r) = memo.checks.get(&item.id) else { continue };
        let at = item.range.start;
        out.diagnostics[di].extend(r.diagnostics.iter().map(|d| moved(d, at)));
        outputs.push((di, at, r.clone()));
    }
    Some(outputs)
}
