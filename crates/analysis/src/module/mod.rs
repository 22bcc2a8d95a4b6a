//! A module: declarations across its files, name types in dependency order,
//! and every item's checks.
//!
//! Each step works on one top-level item at a time and keeps its results
//! relative to the item's start, so a [`Memo`] can hand them back after an
//! edit that only moved the item: declarations are a function of the item
//! alone; inferred locals and checks also depend on the types of the names
//! they looked up, which the memo records and compares.
//!
//! Here: the results and [`run`], which combines the steps. Beside it:
//! `decls` (what items declare), `env` (the module's names), `order`
//! (locals in dependency order), `checks` (every item's checks), `symbols`
//! (resources and outputs); the incremental engine is mounted from
//! src/engine/. The other dialects' code is theirs, `crate::dialects::*`,
//! called by its path (`terragrunt::merge::merges`).

use crate::dialects::{stacks, symbol_libraries};
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use std::cell::RefCell;
use std::hash::Hash;
use std::ops::Range;
use std::path::Path;
use std::sync::{Arc, Mutex};

use hcl_edit::expr::{Expression, TraversalOperator};
use hcl_edit::structure::{Attribute, Block, BlockLabel, Body, Structure};
use rayon::prelude::*;

use super::calls::{Callee, Context};
use super::document::{Document, Item, ItemId, Revision};
use super::infer::{iteration, Env, Infer, Space, Typed};
use super::FileKind;
use schema::Schemas;
use syntax::constant::{eval, Source};
use syntax::diagnostic::{Code, Diagnostic, Related, Severity};
use syntax::recover::{outline, Name};
use syntax::typeexpr::{parse_type_str, TypeContext, TypeExpr, TypeNode};
use syntax::Dialect;
use types::value::Value;
use types::{Kind, Strip, Type};

mod address_rules;
pub(crate) mod calls;
pub(crate) mod checks;
mod conditions;
pub(crate) mod decls;
mod duplicates;
#[path = "../engine/mod.rs"]
mod engine;
pub(crate) mod env;
pub mod ephemeral;
mod import_rules;
mod interface;
mod lifecycle_rules;
mod meta_arguments;
mod noschema;
mod order;
mod override_rules;
mod overrides;
mod passes;
mod provider_calls;
mod provider_names;
mod provider_refs;
mod provider_requirements;
mod refs;
mod requirement_rules;
mod resources;
mod roots;
mod rules;
mod shared;
mod static_eval;
mod suggest;
mod symbols;
pub use crate::dialects::terragrunt::unit::terragrunt_module;
pub(crate) use crate::dialects::terragrunt::unit::{include_source, terraform_source_in, IncludedSource};
pub(crate) use decls::{label_text, literal_key};
mod sensitive;
mod unused;
mod versions;

use crate::dialects::pcl::range::{bind_range, component_repeat};
pub use crate::dialects::tftest::decls::tested_source_of;
use crate::dialects::tftest::decls::{recovered_test_calls, test_calls};
use calls::*;
use checks::*;
use decls::*;
use engine::*;
pub use engine::{GiveUp, GiveUps, Memo, NodeAt, TypeNodes};
use env::*;
pub use interface::Call;
use order::*;
pub use overrides::is_override;
use refs::*;
pub(crate) use resources::ambiguous;
use resources::*;
pub use shared::Shared;
use static_eval::*;
pub use suggest::{declarable, placeholder, suggested_type, value_type};
use symbols::*;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SymbolKind {
    Variable,
    Local,
    Output,
    Config,
    /// A PCL top-level attribute.
    Attribute,
    /// A resource, data source, module call, PCL component or Terragrunt
    /// stack component (`unit.NAME`, `stack.NAME`).
    Resource,
}

/// A named value of a module, as `types`, hover and document symbols show it.
#[derive(Clone, Debug)]
pub struct Symbol {
    /// `var.NAME`, `local.NAME`, `output.NAME`, `config.NAME` or `NAME`.
    pub address: String,
    pub name: String,
    pub kind: SymbolKind,
    /// The name in the declaration (a label or an attribute key).
    pub name_range: Range<usize>,
    /// The whole declaration.
    pub range: Range<usize>,
    /// The value type (what a reference yields).
    pub ty: Type,
    /// Index of the document that declares it.
    pub doc: usize,
}

impl Symbol {
    fn moved(&self, doc: usize, by: usize) -> Symbol {
        Symbol { doc, ..moved(self, by) }
    }
}

/// Everything analysis found in one module.
#[derive(Clone, Debug, Default)]
pub struct ModuleAnalysis {
    /// Per document (same order as the input): its diagnostics, by position.
    pub diagnostics: Vec<Shared<Vec<Diagnostic>>>,
    /// Named values in source order per document.
    pub symbols: Shared<Vec<Symbol>>,
    /// Per document: the parts of its type expressions (hover, semantic tokens).
    pub type_nodes: Vec<Shared<TypeNodes>>,
    /// With a probe: the type of every expression of the probed item.
    pub probe: Vec<Typed>,
    /// Resources, data sources, module calls and components (document
    /// symbols), resources and data sources at their schema's type.
    pub resources: Shared<Vec<Symbol>>,
    /// What the module's calls lead to (completion of their arguments and
    /// outputs), and its provider schemas (hover and completion).
    pub context: Context,
    /// In a symbol library's directory: the library its `.sym.hcl` files
    /// make (completion of `value.`, `param.`, `symbols::` in them).
    pub own_library: Option<Arc<symbol_libraries::libraries::Library>>,
    /// The addresses whose values carry Terraform's ephemeral mark
    /// (`var.x`, `local.y`, `module.m.out`, `output.z`), sorted: hover
    /// says so ([`ephemeral::marked`]).
    pub ephemeral: Shared<Vec<String>>,
    /// Names this analysis: a patched one gets a new id (0: none given).
    pub id: u64,
    /// Per document, when a patch made this analysis: which of its
    /// diagnostics the patch kept from the analysis it patched, so that a
    /// publication compares only the others with what it last published
    /// (tens of thousands in a large generated file).
    pub kept: Vec<Option<Kept>>,
}

/// What a patch kept of one document's diagnostics: the first `front` are
/// those of the analysis `from` (an [`ModuleAnalysis::id`]) as they were,
/// and the last `back` its last `back`, moved with the text after the
/// edit (their positions and those of their related locations in the
/// same document shifted by the edit's change of length). The ones between
/// may or may not have changed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Kept {
    pub from: u64,
    pub front: usize,
    pub back: usize,
}

/// A new [`ModuleAnalysis::id`].
fn analysis_id() -> u64 {
    crate::ids::fresh()
}

/// A position to record expression types at: (document index, byte offset).
pub type Probe = Option<(usize, usize)>;

pub(crate) fn shift(r: &Range<usize>, by: usize) -> Range<usize> {
    r.start + by..r.end + by
}

/// What analysis places in a file: its ranges move with its item.
trait Placed: Clone {
    /// Maps the ranges that lie in the item. A diagnostic's related
    /// location without a path lies in the same item.
    fn map_ranges(&mut self, f: impl Fn(&Range<usize>) -> Range<usize>);
}

impl Placed for Diagnostic {
    fn map_ranges(&mut self, f: impl Fn(&Range<usize>) -> Range<usize>) {
        self.range = f(&self.range);
        for r in self.related.iter_mut().filter(|r| r.path.is_none()) {
            r.range = f(&r.range);
        }
    }
}

impl Placed for TypeNode {
    fn map_ranges(&mut self, f: impl Fn(&Range<usize>) -> Range<usize>) {
        self.range = f(&self.range);
        self.name_range = f(&self.name_range);
    }
}

impl Placed for Symbol {
    fn map_ranges(&mut self, f: impl Fn(&Range<usize>) -> Range<usize>) {
        self.range = f(&self.range);
        self.name_range = f(&self.name_range);
    }
}

/// A copy with item-relative ranges made absolute.
fn moved<T: Placed>(x: &T, by: usize) -> T {
    let mut x = x.clone();
    x.map_ranges(|r| shift(r, by));
    x
}

// ---------------------------------------------------------------------------
// The analysis.

/// Analyses the documents of one module (same directory, same family).
pub fn analyze(docs: &[Document]) -> ModuleAnalysis {
    analyze_probe(docs, None)
}

/// [`analyze`], also recording the type of every expression of the item at
/// the probe (for hover and definition).
pub fn analyze_probe(docs: &[Document], probe: Probe) -> ModuleAnalysis {
    analyze_with(docs, probe, &mut Memo::default())
}

fn probed(probe: Probe, doc: usize, range: &Range<usize>) -> bool {
    matches!(probe, Some((d, at)) if d == doc && range.start <= at && at <= range.end)
}

pub(crate) fn item_source<'a>(doc: &'a Document, item: &Item) -> Source<'a> {
    Source::new(doc.file.text.get(item.range.clone()).unwrap_or(""), 0)
}

/// A declared variable, where it is.
pub(crate) struct VarRef {
    item: ItemId,
    index: usize,
    pub(crate) doc: usize,
    pub(crate) start: usize,
    pub(crate) decl: VarDecl,
}

/// A computed name, where it is.
struct ComputedRef<'a> {
    doc: usize,
    item: &'a Item,
    index: usize,
    decl: &'a ComputedDecl,
}

/// [`analyze_probe`] with results remembered from earlier analyses of the
/// same module.
pub fn analyze_with(docs: &[Document], probe: Probe, memo: &mut Memo) -> ModuleAnalysis {
    run(docs, probe, memo, Stop::NEVER).map_or_else(ModuleAnalysis::default, |r| r.0)
}

/// Whether an analysis that is running should stop: a newer one of the
/// same module was asked for (the user typed on), so its result would be
/// thrown away. Asked between the steps of a full analysis and before
/// each item it infers or checks; what it finished is kept per item (each
/// result holds with the dependencies it records), so the next analysis
/// starts from there. The cheap, patched analysis of a keystroke is never
/// stopped: it is over before a newer one could use the memo.
#[derive(Clone, Copy)]
pub struct Stop<'a>(pub Option<&'a (dyn Fn() -> bool + Sync)>);

impl Stop<'_> {
    /// For a result that is always wanted (`check`, a request).
    pub const NEVER: Stop<'static> = Stop(None);

    pub fn now(&self) -> bool {
        self.0.is_some_and(|stop| stop())
    }
}

/// The dialect of a module: its first file's, but OpenTofu's for a
/// Terraform module with an OpenTofu file (`.tofu`, `.tofutest.hcl`, or
/// one the user gave that dialect): OpenTofu reads all of its files
/// (analysis.md §7).
pub fn module_dialect(docs: &[Document]) -> Dialect {
    let first = docs.first().map_or(Dialect::Terraform, |d| d.file.dialect);
    if first.is_terraform() && docs.iter().any(|d| d.file.dialect == Dialect::OpenTofu) {
        Dialect::OpenTofu
    } else {
        first
    }
}

mod steps;
use steps::{check_items, declare_new, declared_names};

/// The analysis, and the module's names as they ended up; `None` once
/// `stop` says so. In steps: 1 and 3 in `steps.rs`, the others below.
fn run(docs: &[Document], probe: Probe, memo: &mut Memo, stop: Stop) -> Option<(ModuleAnalysis, ModuleEnv)> {
    let mut out = ModuleAnalysis {
        diagnostics: docs.iter().map(|d| d.diagnostics.clone().into()).collect(),
        symbols: Vec::new().into(),
        type_nodes: docs.iter().map(|_| TypeNodes::default().into()).collect(),
        probe: Vec::new(),
        resources: Vec::new().into(),
        context: memo.context.clone(),
        own_library: None,
        ephemeral: Vec::new().into(),
        id: analysis_id(),
        kept: vec![None; docs.len()],
    };
    if docs.is_empty() {
        return Some((out, ModuleEnv::default()));
    }
    // Once told to stop, stopped: an item skipped is never taken for done.
    let stopped = std::sync::atomic::AtomicBool::new(false);
    let stop = || {
        use std::sync::atomic::Ordering::Relaxed;
        if !stopped.load(Relaxed) && stop.now() {
            stopped.store(true, Relaxed);
        }
        stopped.load(Relaxed)
    };
    // Results remembered for other documents than the last analysis's
    // no longer tell what changed since it (see `Last::exact`).
    if let Some(last) = memo.last.as_mut().filter(|last| !describes(&last.signature, docs)) {
        last.readers = None;
        last.exact = false;
    }

    // A symbol library's directory: its own names, for its files' checks.
    memo.set_own_library(symbol_libraries::files::own(docs).map(Arc::new));
    out.own_library = memo.own_library.clone();

    // 1. Declarations: new items in parallel, then everything in order.
    declare_new(docs.iter(), memo);
    if stop() {
        return None;
    }
    let all_decls: Vec<Vec<Option<Arc<Decls>>>> =
        docs.iter().map(|d| d.items.iter().map(|i| memo.decls.get(&i.id).cloned()).collect()).collect();
    let (mut env, names) = declared_names(docs, memo, &all_decls, &mut out);

    // 2. Locals and PCL attributes in dependency order; cycles are errors.
    let computed_types = infer_levels(docs, probe, memo, &mut env, &mut out, &names.computed, &stop)?;
    *env.suggestions.get_mut().unwrap_or_else(|e| e.into_inner()) = HashMap::default();

    // 3. Every item's checks: new or affected items in parallel.
    let outputs = check_items(docs, probe, memo, &env, &names, &all_decls, &mut out, &stop)?;

    // 4. Symbols in source order; then what is judged across items.
    symbols_in_order(&mut out, &names.vars, &names.computed, computed_types, outputs);
    module_level(docs, memo, &mut env, &mut out, &names.vars);
    memo.prune(docs);
    Some((out, env))
}

/// Step 2 of [`run`]: locals and PCL attributes in dependency order;
/// cycles are errors. Names of one level depend only on names of lower
/// levels: each level is inferred in parallel against the names the
/// levels below gave. Returns each computed name's type (`None` when
/// stopped).
fn infer_levels(
    docs: &[Document],
    probe: Probe,
    memo: &mut Memo,
    env: &mut ModuleEnv,
    out: &mut ModuleAnalysis,
    computed: &[ComputedRef],
    stop: &dyn Fn() -> bool,
) -> Option<Vec<Option<Type>>> {
    let dialect = module_dialect(docs);
    let levels = dependency_order(computed);
    let mut computed_types: Vec<Option<Type>> = vec![None; computed.len()];
    let cyclic = |component: &[usize]| {
        component.len() > 1 || {
            let c = computed[component[0]].decl;
            c.refs.iter().any(|(s, n)| *s == c.space && *n == c.name)
        }
    };
    // Each item's tree (a dropped tree is parsed again once per item) and
    // where its computed values lie, kept from level to level (a chain of
    // locals in one block is a level each) until none of its values is left.
    let mut trees: HashMap<ItemId, (Option<Arc<Body>>, Vec<decls::ComputedPath>)> = HashMap::default();
    let mut left: HashMap<ItemId, usize> = HashMap::default();
    for component in levels.iter().flatten().filter(|c| !cyclic(c)) {
        *left.entry(computed[component[0]].item.id).or_default() += 1;
    }
    for level in levels {
        if stop() {
            return None;
        }
        // The names to infer again (not remembered, or probed), each with
        // its item's tree and its place in it.
        let mut todo = Vec::new();
        for component in level.iter().filter(|c| !cyclic(c)) {
            let c = &computed[component[0]];
            let is_probed = probed(probe, c.doc, &shift(&c.decl.range, c.item.range.start));
            let reuse =
                !is_probed && memo.computed.get(&(c.item.id, c.index)).is_some_and(|r| r.deps.hold(env, dialect));
            if !reuse {
                let (tree, paths) = trees.entry(c.item.id).or_insert_with(|| {
                    let doc = &docs[c.doc];
                    let tree = c.item.body(&doc.file.text);
                    let paths = tree.as_deref().map(|t| decls::computed_paths(t, doc.file.kind)).unwrap_or_default();
                    (tree, paths)
                });
                todo.push((c, is_probed, tree.clone(), paths.get(c.index).copied()));
            }
            let id = c.item.id;
            if let Some(n) = left.get_mut(&id) {
                *n -= 1;
                if *n == 0 {
                    left.remove(&id);
                    trees.remove(&id);
                }
            }
        }
        type Inferred = ((ItemId, usize), Option<(ComputedResult, Vec<Typed>)>);
        let inferred: Vec<Inferred> = todo
            .par_iter()
            .with_min_len(32)
            .map(|(c, is_probed, tree, path)| {
                let doc = &docs[c.doc];
                let key = (c.item.id, c.index);
                let Some(expr) = tree.as_deref().zip(*path).and_then(|(t, p)| decls::computed_at(t, p)) else {
                    return (key, None);
                };
                let view = View::new(env, dialect, false);
                let mut inf = Infer::new(&view, item_source(doc, c.item));
                inf.policy = crate::is_policy_file(&doc.file.path);
                if *is_probed {
                    inf.record = Some(Vec::new());
                }
                let ty = inf.expr(expr);
                let at = c.item.range.start;
                let recorded = inf.record.take().unwrap_or_default();
                let recorded = recorded.into_iter().map(|t| Typed { range: shift(&t.range, at), ..t }).collect();
                let diagnostics = std::mem::take(&mut inf.diagnostics);
                let type_nodes = std::mem::take(&mut inf.type_nodes);
                drop(inf);
                (key, Some((ComputedResult { deps: view.deps(), ty, diagnostics, type_nodes }, recorded)))
            })
            .collect();
        for (key, result) in inferred {
            match result {
                Some((result, recorded)) => {
                    out.probe.extend(recorded);
                    memo.computed.insert(key, result);
                }
                None => {
                    memo.computed.remove(&key);
                }
            }
        }
        for component in &level {
            if cyclic(component) {
                let names: Vec<String> = component.iter().map(|&i| computed[i].decl.name.clone()).collect();
                let shown = if names.len() > 6 {
                    format!("{}, … ({} names)", names[..6].join(", "), names.len())
                } else {
                    names.join(", ")
                };
                for &i in component {
                    let c = &computed[i];
                    let at = c.item.range.start;
                    let d = Diagnostic::new(
                        Code::Cycle,
                        shift(&c.decl.name_range, at),
                        format!("`{}` depends on itself through {shown}", c.decl.name),
                    );
                    out.diagnostics[c.doc].push(d);
                    computed_types[i] = Some(Type::any());
                    insert_computed(env, c, Type::any());
                }
                continue;
            }
            let i = component[0];
            let c = &computed[i];
            // A broken item's names are there, of unknown type.
            let Some(r) = memo.computed.get(&(c.item.id, c.index)) else {
                insert_computed(env, c, Type::any());
                continue;
            };
            out.diagnostics[c.doc].extend(r.diagnostics.iter().map(|d| moved(d, c.item.range.start)));
            out.type_nodes[c.doc].settled().extend(r.type_nodes.iter().map(|n| moved(n, c.item.range.start)));
            let ty = r.ty.clone();
            insert_computed(env, c, ty.clone());
            computed_types[i] = Some(ty);
        }
    }
    Some(computed_types)
}

/// Step 4 of [`run`]: the module's symbols in source order (variables,
/// computed names with their types, each item's outputs), and the items'
/// type nodes.
fn symbols_in_order(
    out: &mut ModuleAnalysis,
    vars: &[VarRef],
    computed: &[ComputedRef],
    computed_types: Vec<Option<Type>>,
    outputs: Vec<(usize, usize, Arc<CheckResult>)>,
) {
    for v in vars {
        out.symbols.push(Symbol {
            address: format!("{}.{}", v.decl.root, v.decl.name),
            name: v.decl.name.clone(),
            kind: SymbolKind::Variable,
            name_range: shift(&v.decl.name_range, v.start),
            range: shift(&v.decl.range, v.start),
            ty: v.decl.value.clone(),
            doc: v.doc,
        });
    }
    for (c, t) in computed.iter().zip(computed_types) {
        let (address, kind) = match c.decl.space {
            Space::Local => (format!("local.{}", c.decl.name), SymbolKind::Local),
            _ => (c.decl.name.clone(), SymbolKind::Attribute),
        };
        let at = c.item.range.start;
        out.symbols.push(Symbol {
            address,
            name: c.decl.name.clone(),
            kind,
            name_range: shift(&c.decl.name_range, at),
            range: shift(&c.decl.range, at),
            ty: t.unwrap_or_else(Type::any),
            doc: c.doc,
        });
    }
    for (di, at, r) in outputs {
        out.type_nodes[di].settled().extend(r.type_nodes.iter().map(|n| moved(n, at)));
        out.symbols.extend(r.outputs.iter().map(|s| s.moved(di, at)));
    }
    out.symbols.sort_by_key(|s| (s.doc, s.name_range.start));
    for nodes in &mut out.type_nodes {
        nodes.settled().sort_by_key(|n| n.range.start);
    }
}

/// Step 5 of [`run`]: what is judged across items — override files'
/// merge, the module-level passes (passes.rs, kept in `env` for patches),
/// stack deployments, symbol libraries — and the diagnostics in order.
fn module_level(docs: &[Document], memo: &mut Memo, env: &mut ModuleEnv, out: &mut ModuleAnalysis, vars: &[VarRef]) {
    overrides::settle(docs, &mut out.diagnostics);
    let found = passes::run(docs, &env.context, &mut memo.facts, !memo.lints_off);
    for (all, more) in out.diagnostics.iter_mut().zip(&found.diagnostics) {
        if !more.is_empty() {
            all.extend(more.iter().cloned());
        }
    }
    out.ephemeral = found.ephemeral.clone().into();
    env.passes = found;
    stacks::components::deployments(docs, vars, &mut out.diagnostics);
    symbol_libraries::libraries::check(docs, &env.context.symbols, &mut out.diagnostics);
    for d in &mut out.diagnostics {
        d.sort_by_key(|d| (d.range.start, d.range.end));
        d.dedup();
    }
}

/// Each variable by name, with where its type is (what tfvars values are
/// checked against).
fn var_types<'a>(vars: &'a [VarRef], docs: &[Document]) -> HashMap<&'a str, (&'a VarRef, Option<Related>)> {
    vars.iter()
        .map(|v| {
            let related = v.decl.type_range.as_ref().map(|r| Related {
                path: Some(docs[v.doc].file.path.clone()),
                range: shift(r, v.start),
                message: format!("the type of `var.{}`", v.decl.name),
            });
            (v.decl.name.as_str(), (v, related))
        })
        .collect()
}

/// Resource and data source symbols at the type their names have.
fn typed_resources(symbols: &mut [Symbol], env: &ModuleEnv) {
    if env.context.schemas.is_none() {
        return;
    }
    for s in symbols.iter_mut() {
        let key = (Space::Resource, s.address.clone());
        if let Some(t) = env.type_of(&key).or_else(|| env.type_of(&(Space::Pcl, key.1))) {
            s.ty = t.clone();
        }
    }
}

fn insert_computed(env: &mut ModuleEnv, c: &ComputedRef, t: Type) {
    let what = if c.decl.space == Space::Local { "local" } else { "attribute" };
    let range = shift(&c.decl.name_range, c.item.range.start);
    env.insert(c.decl.space, &c.decl.name, t, c.doc, range, what);
}
