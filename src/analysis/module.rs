//! A module: declarations across its files, name types in dependency order,
//! and every item's checks.
//!
//! Each step works on one top-level item at a time and keeps its results
//! relative to the item's start, so a [`Memo`] can hand them back after an
//! edit that only moved the item: declarations are a function of the item
//! alone; inferred locals and checks also depend on the types of the names
//! they looked up, which the memo records and compares.

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use std::cell::RefCell;
use std::hash::Hash;
use std::ops::Range;
use std::sync::{Arc, Mutex};

use hcl_edit::expr::{Expression, TraversalOperator};
use hcl_edit::structure::{Attribute, Block, BlockLabel, Body, Structure};
use rayon::prelude::*;

use super::document::{Document, Item, ItemId};
use super::infer::{iteration, Env, Infer, Space, Typed};
use super::FileKind;
use crate::diagnostic::{Code, Diagnostic, Related, Severity};
use crate::syntax::constant::{eval, Source};
use crate::syntax::recover::{outline, Name};
use crate::syntax::typeexpr::{parse_type, parse_type_str, TypeContext, TypeExpr, TypeNode};
use crate::syntax::Dialect;
use crate::types::value::Value;
use crate::types::{Kind, Strip, Type};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SymbolKind {
    Variable,
    Local,
    Output,
    Config,
    /// A PCL top-level attribute.
    Attribute,
    /// A resource, data source, module call or PCL component.
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
    pub diagnostics: Vec<Vec<Diagnostic>>,
    /// Named values in source order per document.
    pub symbols: Vec<Symbol>,
    /// Per document: the parts of its type expressions (hover, semantic tokens).
    pub type_nodes: Vec<Vec<TypeNode>>,
    /// With a probe: the type of every expression of the probed item.
    pub probe: Vec<Typed>,
    /// Resources, data sources, module calls and components (document symbols).
    pub resources: Vec<Symbol>,
}

/// A position to record expression types at: (document index, byte offset).
pub type Probe = Option<(usize, usize)>;

fn shift(r: &Range<usize>, by: usize) -> Range<usize> {
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
// What items declare.

/// A declared variable, relative to its item.
#[derive(Clone, Debug, PartialEq)]
struct VarDecl {
    name: String,
    name_range: Range<usize>,
    range: Range<usize>,
    declared: Option<Type>,
    type_range: Option<Range<usize>>,
    value: Type,
}

impl VarDecl {
    /// The same variable as other items see it: name, place and types.
    /// Its description, default or validation may differ (they concern
    /// only the variable's own checks).
    fn same_for_others(&self, other: &VarDecl) -> bool {
        self.name == other.name
            && self.name_range == other.name_range
            && self.declared == other.declared
            && self.value == other.value
    }
}

/// A local or PCL top-level attribute: a name whose type is inferred.
#[derive(Clone, Debug)]
struct ComputedDecl {
    space: Space,
    name: String,
    name_range: Range<usize>,
    range: Range<usize>,
    refs: Vec<(Space, String)>,
}

/// A PCL name with a known type: a config, hook, resource or component.
#[derive(Clone, Debug, PartialEq)]
struct NameDecl {
    name: String,
    ty: Type,
    name_range: Range<usize>,
    what: &'static str,
}

/// Everything one item declares, relative to its start.
#[derive(Debug, Default)]
struct Decls {
    vars: Vec<VarDecl>,
    computed: Vec<ComputedDecl>,
    names: Vec<NameDecl>,
    diagnostics: Vec<Diagnostic>,
    type_nodes: Vec<TypeNode>,
    symbols: Vec<Symbol>,
    resources: Vec<Symbol>,
}

// ---------------------------------------------------------------------------
// The names of a module.

/// A named value's type and where it is declared (absolute).
struct Entry {
    ty: Type,
    doc: usize,
    range: Range<usize>,
    what: &'static str,
}

#[derive(Default)]
struct ModuleEnv {
    /// The module's files, by document index (for related locations).
    paths: Vec<std::path::PathBuf>,
    names: HashMap<(Space, String), Entry>,
    /// Every name declared per space, for "did you mean" (known before any
    /// local is inferred, so suggestions do not depend on inference order).
    declared: [Vec<String>; 3],
    suggestions: Mutex<HashMap<(Space, String), Option<String>>>,
}

fn space_index(s: Space) -> usize {
    match s {
        Space::Var => 0,
        Space::Local => 1,
        Space::Pcl => 2,
    }
}

impl ModuleEnv {
    fn insert(&mut self, space: Space, name: &str, ty: Type, doc: usize, range: Range<usize>, what: &'static str) {
        self.names.entry((space, name.to_string())).or_insert(Entry { ty, doc, range, what });
    }

    fn lookup(&self, space: Space, name: &str) -> Option<(Type, Option<Related>)> {
        let e = self.names.get(&(space, name.to_string()))?;
        let related = Related {
            path: Some(self.paths[e.doc].clone()),
            range: e.range.clone(),
            message: format!("{} `{name}` is declared here", e.what),
        };
        Some((e.ty.clone(), Some(related)))
    }

    fn suggest(&self, space: Space, word: &str) -> Option<String> {
        // Generated and half-typed code repeats its unknown names: each is
        // looked up once per module, not once per use.
        let key = (space, word.to_string());
        let mut memo = self.suggestions.lock().unwrap_or_else(|e| e.into_inner());
        memo.entry(key)
            .or_insert_with(|| {
                let names = self.declared[space_index(space)].iter().map(String::as_str);
                crate::suggest::closest(word, names).map(String::from)
            })
            .clone()
    }

    fn type_of(&self, key: &(Space, String)) -> Option<&Type> {
        self.names.get(key).map(|e| &e.ty)
    }
}

/// The module's names as one file sees them, recording what it asks.
struct View<'a> {
    env: &'a ModuleEnv,
    dialect: Dialect,
    lenient: bool,
    lookups: RefCell<Vec<(Space, String)>>,
    suggested: RefCell<Vec<(Space, String)>>,
}

impl<'a> View<'a> {
    fn new(env: &'a ModuleEnv, dialect: Dialect, lenient: bool) -> Self {
        View { env, dialect, lenient, lookups: RefCell::new(Vec::new()), suggested: RefCell::new(Vec::new()) }
    }

    /// What the inference so far depended on.
    fn deps(&self) -> Deps {
        let mut keys = self.lookups.take();
        keys.sort_unstable_by(|a, b| (space_index(a.0), &a.1).cmp(&(space_index(b.0), &b.1)));
        keys.dedup();
        let lookups = keys
            .into_iter()
            .map(|k| {
                let t = self.env.type_of(&k).cloned();
                (k, t)
            })
            .collect();
        let mut words = self.suggested.take();
        words.sort_unstable_by(|a, b| (space_index(a.0), &a.1).cmp(&(space_index(b.0), &b.1)));
        words.dedup();
        let suggested = words
            .into_iter()
            .map(|(space, word)| {
                let answer = self.env.suggest(space, &word);
                (space, word, answer)
            })
            .collect();
        Deps { dialect: self.dialect, lookups, suggested }
    }
}

impl Env for View<'_> {
    fn dialect(&self) -> Dialect {
        self.dialect
    }
    fn lenient(&self) -> bool {
        self.lenient
    }
    fn lookup(&self, space: Space, name: &str) -> Option<(Type, Option<Related>)> {
        self.lookups.borrow_mut().push((space, name.to_string()));
        self.env.lookup(space, name)
    }
    fn suggest(&self, space: Space, word: &str) -> Option<String> {
        self.suggested.borrow_mut().push((space, word.to_string()));
        self.env.suggest(space, word)
    }
}

/// An environment with no names, for variable defaults (which cannot refer
/// to anything).
struct Empty(Dialect);

impl Env for Empty {
    fn dialect(&self) -> Dialect {
        self.0
    }
    fn lenient(&self) -> bool {
        true
    }
    fn lookup(&self, _: Space, _: &str) -> Option<(Type, Option<Related>)> {
        None
    }
    fn suggest(&self, _: Space, _: &str) -> Option<String> {
        None
    }
}

// ---------------------------------------------------------------------------
// Remembered results.

/// The names an inference looked up (with the types it got) and the spaces
/// it asked suggestions for (with the answers it got: a suggestion changes
/// only when a closer name is declared or the suggested one goes).
#[derive(Debug)]
struct Deps {
    dialect: Dialect,
    lookups: Vec<((Space, String), Option<Type>)>,
    suggested: Vec<(Space, String, Option<String>)>,
}

impl Deps {
    fn hold(&self, env: &ModuleEnv, dialect: Dialect) -> bool {
        self.dialect == dialect
            && self.lookups.iter().all(|(k, t)| env.type_of(k) == t.as_ref())
            && self.suggested.iter().all(|(space, word, answer)| env.suggest(*space, word) == *answer)
    }
}

#[derive(Debug)]
struct ComputedResult {
    deps: Deps,
    ty: Type,
    diagnostics: Vec<Diagnostic>,
}

/// One item's checks and output symbols, relative to its start.
#[derive(Debug)]
struct CheckResult {
    deps: Deps,
    /// Output types are inferred in the module's dialect (its first file's).
    module_dialect: Dialect,
    /// Whether each variable the item declares is the one its name means.
    winners: Vec<bool>,
    diagnostics: Vec<Diagnostic>,
    outputs: Vec<Symbol>,
    type_nodes: Vec<TypeNode>,
}

/// Analysis results of one module kept between analyses (the language
/// server keeps one per module), keyed by item id. Any memo gives the same
/// answers as none; it only saves work.
#[derive(Default)]
pub struct Memo {
    decls: HashMap<ItemId, Arc<Decls>>,
    computed: HashMap<(ItemId, usize), ComputedResult>,
    checks: HashMap<ItemId, Arc<CheckResult>>,
    last: Option<Last>,
    patches: usize,
}

/// The last whole-module analysis and the names it ended with. Hover,
/// completion and publishing on an unchanged module answer from it; a
/// probe re-infers only the item under the cursor against its names.
struct Last {
    signature: Signature,
    analysis: Arc<ModuleAnalysis>,
    env: ModuleEnv,
}

/// What a module's analysis is a function of: each file's kind, dialect
/// and items. An edit re-parses at least one item (a new id) and moves the
/// ones after it, so equal signatures mean equal analyses.
type Signature = Vec<(std::path::PathBuf, FileKind, Dialect, Vec<(ItemId, Range<usize>)>)>;

fn signature(docs: &[Document]) -> Signature {
    docs.iter().map(|d| (d.file.path.clone(), d.file.kind, d.file.dialect, item_ranges(d))).collect()
}

fn item_ranges(d: &Document) -> Vec<(ItemId, Range<usize>)> {
    d.items.iter().map(|i| (i.id, i.range.clone())).collect()
}

/// `signature(docs) == *sig`, without building it.
fn describes(sig: &Signature, docs: &[Document]) -> bool {
    sig.len() == docs.len()
        && sig.iter().zip(docs).all(|((path, kind, dialect, items), d)| {
            *path == d.file.path
                && *kind == d.file.kind
                && *dialect == d.file.dialect
                && items.len() == d.items.len()
                && items.iter().zip(d.items.iter()).all(|((id, r), i)| *id == i.id && r.start == i.range.start)
        })
}

impl std::fmt::Debug for Memo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Memo")
            .field("decls", &self.decls.len())
            .field("computed", &self.computed.len())
            .field("checks", &self.checks.len())
            .field("last", &self.last.is_some())
            .finish()
    }
}

impl Memo {
    /// How many analyses were patched from the last one (for tests).
    #[doc(hidden)]
    pub fn patches(&self) -> usize {
        self.patches
    }

    /// Forgets items that are gone (re-parsed or deleted).
    fn prune(&mut self, docs: &[Document]) {
        let live: usize = docs.iter().map(|d| d.items.len()).sum();
        if self.decls.len() <= 2 * live + 64 && self.checks.len() <= 2 * live + 64 {
            return;
        }
        let ids: HashSet<ItemId> = docs.iter().flat_map(|d| d.items.iter().map(|i| i.id)).collect();
        self.decls.retain(|id, _| ids.contains(id));
        self.checks.retain(|id, _| ids.contains(id));
        self.computed.retain(|(id, _), _| ids.contains(id));
    }
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

fn item_source<'a>(doc: &'a Document, item: &Item) -> Source<'a> {
    Source::new(doc.file.text.get(item.range.clone()).unwrap_or(""), 0)
}

/// A declared variable, where it is.
struct VarRef {
    item: ItemId,
    index: usize,
    doc: usize,
    start: usize,
    decl: VarDecl,
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
    run(docs, probe, memo).0
}

impl Memo {
    /// The analysis of `docs` (no probe), shared: the last one when the
    /// module has not changed since.
    pub fn analysis(&mut self, docs: &[Document]) -> Arc<ModuleAnalysis> {
        if let Some(last) = &self.last {
            if describes(&last.signature, docs) {
                return last.analysis.clone();
            }
        }
        if let Some(patched) = self.patch(docs) {
            return patched;
        }
        let signature = signature(docs);
        let (analysis, env) = run(docs, None, self);
        let analysis = Arc::new(analysis);
        self.last = Some(Last { signature, analysis: analysis.clone(), env });
        analysis
    }

    /// The module's analysis and the types of the expressions of the item
    /// at `offset` of document `doc`: only that item is inferred again
    /// (what [`analyze_probe`] records, at the cost of one item).
    pub fn probe(&mut self, docs: &[Document], doc: usize, offset: usize) -> (Arc<ModuleAnalysis>, Vec<Typed>) {
        let analysis = self.analysis(docs);
        let Some(d) = docs.get(doc) else { return (analysis, Vec::new()) };
        // Like `probed`: an item whose range contains the offset, ends included.
        let Some(item) = d.items.iter().find(|i| i.range.start <= offset && offset <= i.range.end) else {
            return (analysis, Vec::new());
        };
        let (Some(body), Some(decls), Some(checked), Some(last)) =
            (item.body(&d.file.text), self.decls.get(&item.id), self.checks.get(&item.id), &self.last)
        else {
            return (analysis, Vec::new());
        };
        if d.file.kind == FileKind::Tfvars {
            // A tfvars value is checked against its variable's declaration,
            // which only the whole analysis has at hand.
            return (analysis, run(docs, Some((doc, offset)), self).0.probe);
        }
        let env = &last.env;
        let dialect = docs[0].file.dialect;
        let at = item.range.start;
        let mut recorded = Vec::new();
        // The item's locals / PCL attributes, as phase 2 infers them.
        for (index, (expr, c)) in computed_of(&body, d.file.kind).into_iter().zip(&decls.computed).enumerate() {
            // Names in a cycle were never inferred (they are `any`).
            if !probed(Some((doc, offset)), doc, &shift(&c.range, at)) || !self.computed.contains_key(&(item.id, index))
            {
                continue;
            }
            let view = View::new(env, dialect, false);
            let mut inf = Infer::new(&view, item_source(d, item));
            inf.record = Some(Vec::new());
            inf.expr(expr);
            recorded.extend(inf.record.take().unwrap_or_default());
        }
        let (_, checks) =
            check_item(d, item, decls, env, dialect, checked.winners.clone(), &HashMap::default(), true, true);
        recorded.extend(checks);
        let recorded = recorded.into_iter().map(|t| Typed { range: shift(&t.range, at), ..t }).collect();
        (analysis, recorded)
    }
}

/// The most items an edit may re-parse for [`Memo::patch`] to take it.
const PATCH_ITEMS: usize = 256;

/// Where an edit to one file changed its items: `items` old `[p, old_end)`
/// became new `[p, new_end)`; everything the changed items held lies in
/// `[lo, hi)` of the old text (`hi` is `usize::MAX` without items after),
/// and what lies after moves by `delta`.
struct Window {
    lo: usize,
    hi: usize,
    delta: isize,
}

impl Window {
    fn after(&self, at: usize) -> bool {
        at >= self.hi
    }

    fn moved(&self, r: &Range<usize>) -> Range<usize> {
        let m = |x: usize| x.saturating_add_signed(self.delta);
        m(r.start)..m(r.end)
    }

    /// Replaces the part of `v[within]` (sorted by `key`) in the window by
    /// `fresh` and moves what follows in `within`, all in place.
    fn splice<T: Placed>(&self, v: &mut Vec<T>, within: Range<usize>, fresh: Vec<T>, key: impl Fn(&T) -> usize) {
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
fn inert(d: &Decls) -> bool {
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
    fn patch(&mut self, docs: &[Document]) -> Option<Arc<ModuleAnalysis>> {
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

/// The analysis, and the module's names as they ended up.
fn run(docs: &[Document], probe: Probe, memo: &mut Memo) -> (ModuleAnalysis, ModuleEnv) {
    let mut out = ModuleAnalysis {
        diagnostics: docs.iter().map(|d| d.diagnostics.clone()).collect(),
        symbols: Vec::new(),
        type_nodes: docs.iter().map(|_| Vec::new()).collect(),
        probe: Vec::new(),
        resources: Vec::new(),
    };
    let Some(first) = docs.first() else { return (out, ModuleEnv::default()) };
    let dialect = first.file.dialect;

    // 1. Declarations: new items in parallel, then everything in order.
    let missing: Vec<(usize, &Item)> = docs
        .iter()
        .enumerate()
        .flat_map(|(di, d)| d.items.iter().map(move |i| (di, i)))
        .filter(|(_, i)| !memo.decls.contains_key(&i.id))
        .collect();
    let fresh: Vec<(ItemId, Arc<Decls>)> =
        missing.par_iter().with_min_len(64).map(|&(di, i)| (i.id, Arc::new(declare(&docs[di], i)))).collect();
    memo.decls.extend(fresh);

    let mut env = ModuleEnv {
        paths: docs.iter().map(|d| d.file.path.clone()).collect(),
        names: HashMap::default(),
        declared: Default::default(),
        suggestions: Mutex::default(),
    };
    let mut vars: Vec<VarRef> = Vec::new();
    let mut var_index: HashMap<String, usize> = HashMap::default();
    let mut computed: Vec<ComputedRef> = Vec::new();
    let all_decls: Vec<Vec<Option<Arc<Decls>>>> =
        docs.iter().map(|d| d.items.iter().map(|i| memo.decls.get(&i.id).cloned()).collect()).collect();
    let declare_name = |env: &mut ModuleEnv, space: Space, name: &str| {
        env.declared[space_index(space)].push(name.to_string());
    };
    for (di, doc) in docs.iter().enumerate() {
        for (item, decls) in doc.items.iter().zip(&all_decls[di]) {
            let Some(d) = decls else { continue };
            let at = item.range.start;
            out.diagnostics[di].extend(d.diagnostics.iter().map(|x| moved(x, at)));
            out.type_nodes[di].extend(d.type_nodes.iter().map(|n| moved(n, at)));
            out.symbols.extend(d.symbols.iter().map(|s| s.moved(di, at)));
            out.resources.extend(d.resources.iter().map(|s| s.moved(di, at)));
            for n in &d.names {
                declare_name(&mut env, Space::Pcl, &n.name);
                env.insert(Space::Pcl, &n.name, n.ty.clone(), di, shift(&n.name_range, at), n.what);
            }
            for (index, v) in d.vars.iter().enumerate() {
                if !var_index.contains_key(&v.name) {
                    var_index.insert(v.name.clone(), vars.len());
                    vars.push(VarRef { item: item.id, index, doc: di, start: at, decl: v.clone() });
                }
            }
            for (index, c) in d.computed.iter().enumerate() {
                declare_name(&mut env, c.space, &c.name);
                computed.push(ComputedRef { doc: di, item, index, decl: c });
            }
        }
    }
    for v in &vars {
        declare_name(&mut env, Space::Var, &v.decl.name);
        env.insert(
            Space::Var,
            &v.decl.name,
            v.decl.value.clone(),
            v.doc,
            shift(&v.decl.name_range, v.start),
            "variable",
        );
    }

    // 2. Locals and PCL attributes in dependency order; cycles are errors.
    // Names of one level depend only on names of lower levels: each level
    // is inferred in parallel against the names the levels below gave.
    let levels = dependency_order(&computed);
    let mut computed_types: Vec<Option<Type>> = vec![None; computed.len()];
    let cyclic = |component: &[usize]| {
        component.len() > 1 || {
            let c = computed[component[0]].decl;
            c.refs.iter().any(|(s, n)| *s == c.space && *n == c.name)
        }
    };
    for level in levels {
        // The names to infer again (not remembered, or probed), each with
        // its item's tree (a dropped tree is parsed again once per item).
        let mut trees: HashMap<ItemId, Option<Arc<Body>>> = HashMap::default();
        let mut todo = Vec::new();
        for component in level.iter().filter(|c| !cyclic(c)) {
            let c = &computed[component[0]];
            let is_probed = probed(probe, c.doc, &shift(&c.decl.range, c.item.range.start));
            let reuse =
                !is_probed && memo.computed.get(&(c.item.id, c.index)).is_some_and(|r| r.deps.hold(&env, dialect));
            if !reuse {
                let tree = trees.entry(c.item.id).or_insert_with(|| c.item.body(&docs[c.doc].file.text)).clone();
                todo.push((c, is_probed, tree));
            }
        }
        type Inferred = ((ItemId, usize), Option<(ComputedResult, Vec<Typed>)>);
        let inferred: Vec<Inferred> = todo
            .par_iter()
            .with_min_len(32)
            .map(|(c, is_probed, tree)| {
                let doc = &docs[c.doc];
                let key = (c.item.id, c.index);
                let Some(expr) = tree.as_ref().and_then(|t| computed_of(t, doc.file.kind).get(c.index).copied()) else {
                    return (key, None);
                };
                let view = View::new(&env, dialect, false);
                let mut inf = Infer::new(&view, item_source(doc, c.item));
                if *is_probed {
                    inf.record = Some(Vec::new());
                }
                let ty = inf.expr(expr);
                let at = c.item.range.start;
                let recorded = inf.record.take().unwrap_or_default();
                let recorded = recorded.into_iter().map(|t| Typed { range: shift(&t.range, at), ..t }).collect();
                let diagnostics = std::mem::take(&mut inf.diagnostics);
                drop(inf);
                (key, Some((ComputedResult { deps: view.deps(), ty, diagnostics }, recorded)))
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
                    insert_computed(&mut env, c, Type::any());
                }
                continue;
            }
            let i = component[0];
            let c = &computed[i];
            // A broken item's names are there, of unknown type.
            let Some(r) = memo.computed.get(&(c.item.id, c.index)) else {
                insert_computed(&mut env, c, Type::any());
                continue;
            };
            out.diagnostics[c.doc].extend(r.diagnostics.iter().map(|d| moved(d, c.item.range.start)));
            let ty = r.ty.clone();
            insert_computed(&mut env, c, ty.clone());
            computed_types[i] = Some(ty);
        }
    }
    *env.suggestions.get_mut().unwrap_or_else(|e| e.into_inner()) = HashMap::default();

    // 3. Every item's checks: new or affected items in parallel.
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
    let stale: Vec<(usize, &Item, &Arc<Decls>)> = work
        .iter()
        .copied()
        .filter(|(di, item, d)| {
            let kind = docs[*di].file.kind;
            kind == FileKind::Tfvars
                || probed(probe, *di, &item.range)
                || !memo.checks.get(&item.id).is_some_and(|r| {
                    r.deps.hold(&env, docs[*di].file.dialect)
                        && r.module_dialect == dialect
                        && r.winners == winners(item, d)
                })
        })
        .collect();
    let var_types: HashMap<&str, (&VarRef, Option<Related>)> = vars
        .iter()
        .map(|v| {
            let related = v.decl.type_range.as_ref().map(|r| Related {
                path: Some(docs[v.doc].file.path.clone()),
                range: shift(r, v.start),
                message: format!("the type of `var.{}`", v.decl.name),
            });
            (v.decl.name.as_str(), (v, related))
        })
        .collect();
    let checked: Vec<(ItemId, usize, Arc<CheckResult>, Vec<Typed>)> = stale
        .par_iter()
        .with_min_len(16)
        .map(|&(di, item, d)| {
            let doc = &docs[di];
            let (result, probe) = check_item(
                doc,
                item,
                d,
                &env,
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
    let mut outputs = Vec::new();
    for &(di, item, _) in &work {
        let Some(r) = memo.checks.get(&item.id) else { continue };
        let at = item.range.start;
        out.diagnostics[di].extend(r.diagnostics.iter().map(|d| moved(d, at)));
        outputs.push((di, at, r.clone()));
    }

    // 4. Symbols in source order.
    for v in &vars {
        out.symbols.push(Symbol {
            address: format!("var.{}", v.decl.name),
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
        out.type_nodes[di].extend(r.type_nodes.iter().map(|n| moved(n, at)));
        out.symbols.extend(r.outputs.iter().map(|s| s.moved(di, at)));
    }
    out.symbols.sort_by_key(|s| (s.doc, s.name_range.start));
    for nodes in &mut out.type_nodes {
        nodes.sort_by_key(|n| n.range.start);
    }
    for d in &mut out.diagnostics {
        d.sort_by_key(|d| (d.range.start, d.range.end));
        d.dedup();
    }
    memo.prune(docs);
    (out, env)
}

fn insert_computed(env: &mut ModuleEnv, c: &ComputedRef, t: Type) {
    let what = if c.decl.space == Space::Local { "local" } else { "attribute" };
    let range = shift(&c.decl.name_range, c.item.range.start);
    env.insert(c.decl.space, &c.decl.name, t, c.doc, range, what);
}

/// The computed names' expressions of an item, in [`declare`]'s order.
fn computed_of(body: &Body, kind: FileKind) -> Vec<&Expression> {
    let mut out = Vec::new();
    for s in body.iter() {
        match s {
            Structure::Block(b)
                if b.ident.value().as_str() == "locals" && matches!(kind, FileKind::Terraform | FileKind::Hcl) =>
            {
                out.extend(b.body.attributes().map(|a| &a.value));
            }
            Structure::Block(b) if b.ident.value().as_str() == "local" && kind == FileKind::Terraform => {
                out.extend(packer_local(b).map(|(_, e)| e));
            }
            Structure::Attribute(a) if matches!(kind, FileKind::Pcl | FileKind::Hcl) => out.push(&a.value),
            _ => {}
        }
    }
    out
}

/// Packer's single `local "NAME" { expression = … }` block (for sensitive
/// locals): its label and value.
fn packer_local(b: &Block) -> Option<(&BlockLabel, &Expression)> {
    Some((b.labels.first()?, &b.body.get_attribute("expression")?.value))
}

/// What one item declares.
fn declare(doc: &Document, item: &Item) -> Decls {
    let mut d = Decls::default();
    let Some(body) = item.body(&doc.file.text) else { return recovered(doc, item) };
    let src = item_source(doc, item);
    let kind = doc.file.kind;
    let dialect = doc.file.dialect;
    for s in body.iter() {
        match s {
            Structure::Block(b) => declare_block(doc, b, src, &mut d),
            Structure::Attribute(a) if matches!(kind, FileKind::Pcl | FileKind::Hcl) => {
                d.computed.push(ComputedDecl {
                    space: Space::Pcl,
                    name: a.key.value().to_string(),
                    name_range: src.range(&a.key),
                    range: src.range(a),
                    refs: references(&a.value, dialect),
                });
            }
            Structure::Attribute(_) => {}
        }
    }
    if matches!(kind, FileKind::Terraform | FileKind::Pcl | FileKind::Hcl) {
        resources(doc, &body, src, &mut d.resources);
    }
    d
}

/// What a broken item still declares, all of it `any`: its own syntax
/// error is the one diagnostic it costs, and references to its names are
/// not "undefined" anywhere else.
fn recovered(doc: &Document, item: &Item) -> Decls {
    let mut d = Decls::default();
    let text = &doc.file.text[item.range.clone()];
    let o = outline(text);
    let kind = doc.file.kind;
    // A name's declaration runs to the end of its line, as far as a tolerant reader can tell.
    let computed = |d: &mut Decls, space: Space, n: &Name| {
        let end = text[n.range.end..].find('\n').map_or(text.len(), |p| n.range.end + p);
        d.computed.push(ComputedDecl {
            space,
            name: n.text.clone(),
            name_range: n.range.clone(),
            range: n.range.start..end,
            refs: Vec::new(),
        })
    };
    let Some(block) = &o.block else {
        if matches!(kind, FileKind::Pcl | FileKind::Hcl) {
            o.attributes.iter().for_each(|n| computed(&mut d, Space::Pcl, n));
        }
        return d;
    };
    let range = 0..item.range.len();
    match (block.text.as_str(), kind, o.labels.first()) {
        ("variable", FileKind::Terraform | FileKind::Hcl, Some(label)) => d.vars.push(VarDecl {
            name: label.text.clone(),
            name_range: label.range.clone(),
            range,
            declared: None,
            type_range: None,
            value: Type::any(),
        }),
        ("locals", FileKind::Terraform | FileKind::Hcl, _) => {
            o.attributes.iter().for_each(|n| computed(&mut d, Space::Local, n));
        }
        ("config" | "resource" | "component" | "read" | "hook", FileKind::Pcl | FileKind::Hcl, Some(label)) => {
            let label = if block.text == "hook" { o.labels.last().unwrap_or(label) } else { label };
            let (ty, what) = match block.text.as_str() {
                "config" => (Type::any(), "config"),
                "hook" => (Type::any(), "hook"),
                "resource" => (Type::output(Type::any()), "resource"),
                "component" => (Type::output(Type::any()), "component"),
                _ => (Type::output(Type::any()), "read"),
            };
            d.names.push(NameDecl { name: label.text.clone(), ty, name_range: label.range.clone(), what });
        }
        _ => {}
    }
    d
}

/// One item's checks and the types of the outputs it declares.
#[allow(clippy::too_many_arguments)]
fn check_item(
    doc: &Document,
    item: &Item,
    decls: &Decls,
    env: &ModuleEnv,
    module_dialect: Dialect,
    winners: Vec<bool>,
    vars: &HashMap<&str, (&VarRef, Option<Related>)>,
    has_vars: bool,
    record: bool,
) -> (CheckResult, Vec<Typed>) {
    let src = item_source(doc, item);
    let kind = doc.file.kind;
    let view = View::new(env, doc.file.dialect, kind == FileKind::TfTest);
    let mut inf = Infer::new(&view, src);
    if record {
        inf.record = Some(Vec::new());
    }
    let mut outputs = Vec::new();
    let mut type_nodes = Vec::new();
    if let Some(body) = item.body(&doc.file.text) {
        let mut var_decls = decls.vars.iter().zip(&winners);
        for s in body.iter() {
            match s {
                Structure::Block(b) => {
                    let own = if b.ident.value().as_str() == "variable"
                        && matches!(kind, FileKind::Terraform | FileKind::Hcl)
                    {
                        var_decls.next().filter(|(_, w)| **w).map(|(v, _)| v)
                    } else {
                        None
                    };
                    check_block(&mut inf, doc, b, own);
                }
                Structure::Attribute(a) if kind == FileKind::Tfvars => tfvars_value(&mut inf, a, vars, has_vars),
                // PCL attributes were inferred with the names above.
                Structure::Attribute(_) if matches!(kind, FileKind::Pcl | FileKind::Hcl) => {}
                Structure::Attribute(a) => {
                    inf.expr(&a.value);
                }
            }
        }
        if matches!(kind, FileKind::Terraform | FileKind::Pcl | FileKind::Hcl) {
            let quiet = View::new(env, module_dialect, true);
            output_symbols(doc, &body, src, &quiet, &mut outputs, &mut type_nodes);
            let mut deps = view.deps();
            let more = quiet.deps();
            deps.lookups.extend(more.lookups);
            deps.suggested.extend(more.suggested);
            let recorded = inf.record.take().unwrap_or_default();
            let diagnostics = std::mem::take(&mut inf.diagnostics);
            return (CheckResult { deps, module_dialect, winners, diagnostics, outputs, type_nodes }, recorded);
        }
    }
    let recorded = inf.record.take().unwrap_or_default();
    let diagnostics = std::mem::take(&mut inf.diagnostics);
    drop(inf);
    (CheckResult { deps: view.deps(), module_dialect, winners, diagnostics, outputs, type_nodes }, recorded)
}

/// What one top-level block declares.
fn declare_block(doc: &Document, b: &Block, src: Source<'_>, d: &mut Decls) {
    let dialect = doc.file.dialect;
    let kind = doc.file.kind;
    let ident = b.ident.value().as_str();
    match (ident, kind) {
        ("variable", FileKind::Terraform | FileKind::Hcl) => {
            let Some(label) = b.labels.first() else { return };
            let (declared, value, type_range) = match b.body.get_attribute("type") {
                Some(a) => {
                    let te = parse_type(&a.value, src, TypeContext::variable(dialect));
                    d.diagnostics.extend(te.diagnostics);
                    d.type_nodes.extend(te.nodes);
                    (Some(te.declared), te.value, Some(src.range(&a.value)))
                }
                None => {
                    let value = match b.body.get_attribute("default") {
                        Some(v) => generalize(&Infer::new(&Empty(dialect), src).expr(&v.value)),
                        None => Type::any(),
                    };
                    (None, value, None)
                }
            };
            d.vars.push(VarDecl {
                name: label_text(label).to_string(),
                name_range: src.range(label),
                range: src.range(b),
                declared,
                type_range,
                value,
            });
        }
        ("locals", FileKind::Terraform | FileKind::Hcl) => {
            for a in b.body.attributes() {
                d.computed.push(ComputedDecl {
                    space: Space::Local,
                    name: a.key.value().to_string(),
                    name_range: src.range(&a.key),
                    range: src.range(a),
                    refs: references(&a.value, dialect),
                });
            }
        }
        ("local", FileKind::Terraform) => {
            if let Some((label, value)) = packer_local(b) {
                d.computed.push(ComputedDecl {
                    space: Space::Local,
                    name: label_text(label).to_string(),
                    name_range: src.range(label),
                    range: src.range(b),
                    refs: references(value, dialect),
                });
            }
        }
        ("config", FileKind::Pcl | FileKind::Hcl) => {
            let Some(label) = b.labels.first() else { return };
            let name = label_text(label).to_string();
            let name_range = src.range(label);
            let te = config_type(b, src, dialect);
            if let Some(te) = &te {
                d.diagnostics.extend(te.diagnostics.iter().cloned());
                d.type_nodes.extend(te.nodes.iter().cloned());
            }
            let ty = config_value_type(b, te.map(|t| t.declared));
            d.symbols.push(Symbol {
                address: format!("config.{name}"),
                name: name.clone(),
                kind: SymbolKind::Config,
                name_range: name_range.clone(),
                range: src.range(b),
                ty: ty.clone(),
                doc: 0,
            });
            d.names.push(NameDecl { name, ty, name_range, what: "config" });
        }
        ("hook", FileKind::Pcl) => {
            // `hook KIND "NAME"`: resources name hooks in `options { hooks = … }`.
            let Some(label) = b.labels.last() else { return };
            d.names.push(NameDecl {
                name: label_text(label).to_string(),
                ty: Type::any(),
                name_range: src.range(label),
                what: "hook",
            });
        }
        ("resource" | "component" | "read", FileKind::Pcl | FileKind::Hcl) => {
            let Some(label) = b.labels.first() else { return };
            let what = match ident {
                "resource" => "resource",
                "component" => "component",
                _ => "read",
            };
            // No schemas: every attribute of a resource is an output of unknown type.
            d.names.push(NameDecl {
                name: label_text(label).to_string(),
                ty: Type::output(Type::any()),
                name_range: src.range(label),
                what,
            });
        }
        _ => {}
    }
}
/// An untyped variable's type from its default: what the default shows,
/// except that empty collections and null say nothing about what callers
/// pass (`default = {}` takes any map), so they become `any`-typed.
fn generalize(t: &Type) -> Type {
    match t.kind() {
        Kind::None => Type::any(),
        Kind::Object(attrs) if attrs.is_empty() => Type::map(Type::any()),
        Kind::Tuple(ts) if ts.is_empty() => Type::list(Type::any()),
        _ => t.map_children(generalize),
    }
}

/// The type label of a PCL `config` or `output`: a quoted type expression
/// (spans mapped into the label) or a bare keyword.
fn label_type(label: &BlockLabel, src: Source<'_>, dialect: Dialect) -> TypeExpr {
    let range = src.range(label);
    match label {
        BlockLabel::String(s) => {
            let mut te = parse_type_str(s.value(), TypeContext::new(dialect));
            let base = range.start + 1;
            for d in &mut te.diagnostics {
                d.range = d.range.start + base..d.range.end + base;
            }
            for n in &mut te.nodes {
                n.range = n.range.start + base..n.range.end + base;
                n.name_range = n.name_range.start + base..n.name_range.end + base;
            }
            te
        }
        BlockLabel::Ident(i) => {
            let mut te = parse_type_str(i.value().as_str(), TypeContext::new(dialect));
            for d in &mut te.diagnostics {
                d.range = d.range.start + range.start..d.range.end + range.start;
            }
            for n in &mut te.nodes {
                n.range = n.range.start + range.start..n.range.end + range.start;
                n.name_range = n.name_range.start + range.start..n.name_range.end + range.start;
            }
            te
        }
    }
}

fn config_type(b: &Block, src: Source<'_>, dialect: Dialect) -> Option<TypeExpr> {
    b.labels.get(1).map(|l| label_type(l, src, dialect))
}

/// Pulumi's adjustments to a config type (type-expressions.md §3).
fn config_value_type(b: &Block, declared: Option<Type>) -> Type {
    let Some(t) = declared else { return Type::any() };
    let optional_attrs = |t: &Type| match t.kind() {
        Kind::Object(attrs) => Type::object(attrs.iter().map(|(k, v)| (k.clone(), Type::optional(v.clone())))),
        _ => t.clone(),
    };
    let mut t = match t.kind() {
        Kind::List(e) => Type::list(optional_attrs(e)),
        Kind::Map(e) => Type::map(optional_attrs(e)),
        _ => optional_attrs(&t),
    };
    if matches!(b.body.get_attribute("default").map(|a| &a.value), Some(Expression::Null(_))) {
        t = Type::optional(t);
    }
    if matches!(b.body.get_attribute("secret").map(|a| &a.value), Some(Expression::Bool(v)) if *v.value()) {
        t = Type::output(t);
    }
    t
}

/// Names a computed expression refers to (`local.X`, bare PCL names),
/// with `for` variables scoped out.
fn references(e: &Expression, dialect: Dialect) -> Vec<(Space, String)> {
    let mut out = Vec::new();
    let mut bound: Vec<String> = Vec::new();
    refs(e, dialect, &mut bound, &mut out);
    out
}

fn refs(e: &Expression, dialect: Dialect, bound: &mut Vec<String>, out: &mut Vec<(Space, String)>) {
    let mut push_root = |name: &str, first: Option<&TraversalOperator>, bound: &Vec<String>| {
        if bound.iter().any(|b| b == name) {
            return;
        }
        if dialect != Dialect::Pcl && name == "local" {
            if let Some(TraversalOperator::GetAttr(a)) = first {
                out.push((Space::Local, a.value().to_string()));
            }
        } else if dialect != Dialect::Terraform {
            out.push((Space::Pcl, name.to_string()));
        }
    };
    match e {
        Expression::Variable(v) => push_root(v.value().as_str(), None, bound),
        Expression::Traversal(t) => {
            match &t.expr {
                Expression::Variable(v) => push_root(v.value().as_str(), t.operators.first().map(|o| o.value()), bound),
                other => refs(other, dialect, bound, out),
            }
            for op in &t.operators {
                if let TraversalOperator::Index(k) = op.value() {
                    refs(k, dialect, bound, out);
                }
            }
        }
        Expression::Array(items) => items.iter().for_each(|i| refs(i, dialect, bound, out)),
        Expression::Object(obj) => {
            for (k, v) in obj.iter() {
                if let hcl_edit::expr::ObjectKey::Expression(k) = k {
                    if !matches!(k, Expression::Variable(_)) {
                        refs(k, dialect, bound, out);
                    }
                }
                refs(v.expr(), dialect, bound, out);
            }
        }
        Expression::StringTemplate(t) => template_refs(t, dialect, bound, out),
        Expression::HeredocTemplate(h) => template_refs(&h.template, dialect, bound, out),
        Expression::Parenthesis(p) => refs(p.inner(), dialect, bound, out),
        Expression::Conditional(c) => {
            refs(&c.cond_expr, dialect, bound, out);
            refs(&c.true_expr, dialect, bound, out);
            refs(&c.false_expr, dialect, bound, out);
        }
        Expression::FuncCall(f) => f.args.iter().for_each(|a| refs(a, dialect, bound, out)),
        Expression::UnaryOp(u) => refs(&u.expr, dialect, bound, out),
        Expression::BinaryOp(b) => {
            refs(&b.lhs_expr, dialect, bound, out);
            refs(&b.rhs_expr, dialect, bound, out);
        }
        Expression::ForExpr(f) => {
            refs(&f.intro.collection_expr, dialect, bound, out);
            let n = bound.len();
            if let Some(k) = &f.intro.key_var {
                bound.push(k.value().to_string());
            }
            bound.push(f.intro.value_var.value().to_string());
            if let Some(k) = &f.key_expr {
                refs(k, dialect, bound, out);
            }
            refs(&f.value_expr, dialect, bound, out);
            if let Some(c) = &f.cond {
                refs(&c.expr, dialect, bound, out);
            }
            bound.truncate(n);
        }
        Expression::Null(_) | Expression::Bool(_) | Expression::Number(_) | Expression::String(_) => {}
    }
}

fn template_refs(
    t: &hcl_edit::template::Template,
    dialect: Dialect,
    bound: &mut Vec<String>,
    out: &mut Vec<(Space, String)>,
) {
    use hcl_edit::template::{Directive, Element};
    for el in t.iter() {
        match el {
            Element::Literal(_) => {}
            Element::Interpolation(i) => refs(&i.expr, dialect, bound, out),
            Element::Directive(d) => match d.as_ref() {
                Directive::If(i) => {
                    refs(&i.if_expr.cond_expr, dialect, bound, out);
                    template_refs(&i.if_expr.template, dialect, bound, out);
                    if let Some(e) = &i.else_expr {
                        template_refs(&e.template, dialect, bound, out);
                    }
                }
                Directive::For(f) => {
                    refs(&f.for_expr.collection_expr, dialect, bound, out);
                    let n = bound.len();
                    if let Some(k) = &f.for_expr.key_var {
                        bound.push(k.value().to_string());
                    }
                    bound.push(f.for_expr.value_var.value().to_string());
                    template_refs(&f.for_expr.template, dialect, bound, out);
                    bound.truncate(n);
                }
            },
        }
    }
}

/// Strongly connected components of the computed names' dependency graph,
/// dependencies first (Tarjan's algorithm, iterative: a chain of 10,000
/// locals must not overflow the stack).
fn dependency_order(computed: &[ComputedRef]) -> Vec<Vec<Vec<usize>>> {
    let mut index_of: HashMap<(Space, &str), usize> = HashMap::default();
    for (i, c) in computed.iter().enumerate() {
        index_of.entry((c.decl.space, c.decl.name.as_str())).or_insert(i);
    }
    let edges: Vec<Vec<usize>> = computed
        .iter()
        .map(|c| {
            let mut e: Vec<usize> =
                c.decl.refs.iter().filter_map(|(s, n)| index_of.get(&(*s, n.as_str())).copied()).collect();
            e.sort_unstable();
            e.dedup();
            e
        })
        .collect();
    let n = computed.len();
    let mut index = vec![usize::MAX; n];
    let mut low = vec![0; n];
    let mut on_stack = vec![false; n];
    let mut stack = Vec::new();
    let mut next = 0;
    let mut out = Vec::new();
    let mut component_of = vec![usize::MAX; n];
    let mut level_of: Vec<usize> = Vec::new();
    for root in 0..n {
        if index[root] != usize::MAX {
            continue;
        }
        // (node, next edge to visit)
        let mut work = vec![(root, 0usize)];
        while let Some(&mut (v, ref mut ei)) = work.last_mut() {
            if *ei == 0 && index[v] == usize::MAX {
                index[v] = next;
                low[v] = next;
                next += 1;
                stack.push(v);
                on_stack[v] = true;
            }
            if let Some(&w) = edges[v].get(*ei) {
                *ei += 1;
                if index[w] == usize::MAX {
                    work.push((w, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(index[w]);
                }
                continue;
            }
            work.pop();
            if let Some(&(parent, _)) = work.last() {
                low[parent] = low[parent].min(low[v]);
            }
            if low[v] == index[v] {
                let mut component = Vec::new();
                while let Some(w) = stack.pop() {
                    on_stack[w] = false;
                    component.push(w);
                    if w == v {
                        break;
                    }
                }
                // Components come after those they depend on: one level
                // above the highest of them.
                let id = out.len();
                for &w in &component {
                    component_of[w] = id;
                }
                let level = component
                    .iter()
                    .flat_map(|&w| &edges[w])
                    .filter(|&&x| component_of[x] != id)
                    .map(|&x| level_of[component_of[x]] + 1)
                    .max()
                    .unwrap_or(0);
                level_of.push(level);
                out.push(component);
            }
        }
    }
    let mut levels: Vec<Vec<Vec<usize>>> = Vec::new();
    for (component, level) in out.into_iter().zip(level_of) {
        if levels.len() <= level {
            levels.resize_with(level + 1, Vec::new);
        }
        levels[level].push(component);
    }
    levels
}

/// Checks of one top-level block.
fn check_block(inf: &mut Infer, doc: &Document, b: &Block, own: Option<&VarDecl>) {
    let ident = b.ident.value().as_str();
    let kind = doc.file.kind;
    let dialect = doc.file.dialect;
    match (ident, kind) {
        ("variable", FileKind::Terraform | FileKind::Hcl) => variable(inf, b, own),
        ("locals", FileKind::Terraform | FileKind::Hcl) => {}
        ("config", FileKind::Pcl | FileKind::Hcl) => {
            let te = config_type(b, inf.source(), dialect);
            let declared = config_value_type(b, te.map(|t| t.declared));
            for a in b.body.attributes() {
                let t = inf.expr(&a.value);
                if a.key.value().as_str() == "default" && !declared.is_any() {
                    inf.check(&a.value, &t, &declared.strip(Strip::Eventuals), None);
                }
            }
            body(inf, &b.body, dialect, true);
        }
        ("output", FileKind::Pcl | FileKind::Hcl) if b.labels.len() >= 2 || kind == FileKind::Pcl => {
            let declared = b.labels.get(1).map(|l| label_type(l, inf.source(), dialect));
            if let Some(te) = &declared {
                inf.diagnostics.extend(te.diagnostics.iter().cloned());
            }
            for a in b.body.attributes() {
                let t = inf.expr(&a.value);
                if let (Some(te), "value") = (&declared, a.key.value().as_str()) {
                    inf.check(&a.value, &t, &te.declared, None);
                }
            }
            body(inf, &b.body, dialect, true);
        }
        // Metadata: nothing to type.
        ("package" | "pulumi", FileKind::Pcl) => {}
        ("hook", FileKind::Pcl) => {
            inf.bind("args", Type::any());
            body(inf, &b.body, dialect, false);
            inf.unbind(1);
        }
        ("resource", FileKind::Pcl) => {
            let range = b.body.get_blocks("options").find_map(|o| o.body.get_attribute("range"));
            let mut bound = 0;
            if let Some(r) = range {
                let t = inf.expr(&r.value);
                let (k, v) = match t.eventual_element().kind() {
                    Kind::Int | Kind::Number => (Type::int(), Type::int()),
                    _ => iteration(&t),
                };
                inf.bind("range", Type::object([("key".to_string(), k), ("value".to_string(), v)]));
                bound = 1;
            }
            body(inf, &b.body, dialect, false);
            inf.unbind(bound);
        }
        _ => body(inf, &b.body, dialect, false),
    }
}

/// A block body's attributes and nested blocks, with Terraform's
/// meta-arguments (`count`, `for_each`, `dynamic`, conditions) checked.
/// `skip_own_attributes`: the caller already inferred this body's attributes.
fn body(inf: &mut Infer, body: &Body, dialect: Dialect, skip_own_attributes: bool) {
    let mut bound = 0;
    if !skip_own_attributes {
        if let Some(c) = body.get_attribute("count") {
            let t = inf.expr(&c.value);
            inf.check(&c.value, &t, &Type::number(), None);
            count_value(inf, c);
            inf.bind("count", Type::object([("index".to_string(), Type::int())]));
            bound += 1;
        }
        if let Some(f) = body.get_attribute("for_each") {
            let (k, v) = for_each(inf, &f.value);
            inf.bind("each", Type::object([("key".to_string(), k), ("value".to_string(), v)]));
            bound += 1;
        }
    }
    for s in body.iter() {
        match s {
            Structure::Attribute(a) => {
                let key = a.key.value().as_str();
                if skip_own_attributes || key == "count" || key == "for_each" {
                    continue;
                }
                let t = inf.expr(&a.value);
                if key == "condition" {
                    inf.check(&a.value, &t, &Type::bool(), None);
                }
            }
            Structure::Block(b) => match b.ident.value().as_str() {
                "dynamic" if dialect != Dialect::Pcl => dynamic(inf, b, dialect),
                // `ignore_changes = [tags]` names attributes, not values.
                "lifecycle" => {
                    for a in b.body.attributes() {
                        if a.key.value().as_str() != "ignore_changes" {
                            inf.expr(&a.value);
                        }
                    }
                    for nested in b.body.blocks() {
                        self::body(inf, &nested.body, dialect, false);
                    }
                }
                // PCL resource options: some name property paths, not values.
                "options" if dialect == Dialect::Pcl => {
                    for a in b.body.attributes() {
                        let key = a.key.value().as_str();
                        if !matches!(
                            key,
                            "ignoreChanges" | "replaceOnChanges" | "additionalSecretOutputs" | "hideDiffs"
                        ) {
                            inf.expr(&a.value);
                        }
                    }
                }
                _ => self::body(inf, &b.body, dialect, false),
            },
        }
    }
    inf.unbind(bound);
}

/// `count`: a constant must be a whole number ≥ 0.
fn count_value(inf: &mut Infer, c: &Attribute) {
    let Ok(v) = eval(&c.value, inf.source()) else { return };
    let ok = match &v {
        Value::Int(i) => *i >= 0.into(),
        Value::Number(_) | Value::String(_) => v.as_whole().is_some_and(|i| i >= 0.into()),
        _ => true, // type-level checks reported it
    };
    if !ok {
        let r = inf.range(&c.value);
        inf.report(Diagnostic::new(
            Code::InvalidValue,
            r,
            format!("`count` must be a whole number ≥ 0, not {}", v.describe()),
        ));
    }
}

/// `for_each`: a map, an object or a set of strings. Returns what `each.key`
/// and `each.value` are.
fn for_each(inf: &mut Infer, e: &Expression) -> (Type, Type) {
    let t = inf.expr(e);
    let inner = t.strip(Strip::Eventuals);
    let members: Vec<Type> = inner.members().iter().filter(|m| !m.is_none()).cloned().collect();
    let inner = if members.len() == 1 { members[0].clone() } else { inner };
    let range = inf.range(e);
    let fail = |inf: &mut Infer, why: String| {
        inf.report(Diagnostic::new(Code::TypeMismatch, range.clone(), why));
        (Type::string(), Type::any())
    };
    match inner.kind() {
        Kind::Any | Kind::Union(_) => (Type::string(), Type::any()),
        Kind::Map(v) => (Type::string(), v.clone()),
        Kind::Object(attrs) => (Type::string(), Type::union(attrs.iter().map(|(_, t)| t.clone()).collect::<Vec<_>>())),
        Kind::Set(elem) => {
            inf.check(e, &t, &Type::set(Type::string()), None);
            (elem.clone(), elem.clone())
        }
        Kind::List(_) | Kind::Tuple(_) => fail(
            inf,
            format!("`for_each` needs a map or a set of strings, not `{t}`: convert it with toset() (or build a map with a for expression)"),
        ),
        _ => fail(inf, format!("`for_each` needs a map or a set of strings, not `{t}`")),
    }
}

/// `dynamic "NAME" { for_each = …, iterator = IT, content { … } }`.
fn dynamic(inf: &mut Infer, b: &Block, dialect: Dialect) {
    let name = b
        .body
        .get_attribute("iterator")
        .and_then(|a| match &a.value {
            Expression::Variable(v) => Some(v.value().to_string()),
            _ => None,
        })
        .or_else(|| b.labels.first().map(|l| label_text(l).to_string()))
        .unwrap_or_default();
    let (k, v) = match b.body.get_attribute("for_each") {
        Some(f) => {
            let t = inf.expr(&f.value);
            let inner = t.strip(Strip::Eventuals);
            match inner.kind() {
                // Unlike resources, dynamic blocks iterate lists and tuples too.
                Kind::List(_) | Kind::Tuple(_) | Kind::Set(_) | Kind::Map(_) | Kind::Object(_) => iteration(&inner),
                _ => iteration(&inner),
            }
        }
        None => (Type::any(), Type::any()),
    };
    inf.bind(name, Type::object([("key".to_string(), k), ("value".to_string(), v)]));
    for a in b.body.attributes() {
        if !matches!(a.key.value().as_str(), "for_each" | "iterator") {
            inf.expr(&a.value);
        }
    }
    for nested in b.body.blocks() {
        body(inf, &nested.body, dialect, false);
    }
    inf.unbind(1);
}

/// A Terraform variable's default, nullable and validation checks. `own`:
/// the item's declaration of the variable, unless an earlier one wins.
fn variable(inf: &mut Infer, b: &Block, own: Option<&VarDecl>) {
    let name = b.labels.first().map(label_text).unwrap_or("");
    let default = b.body.get_attribute("default");
    if let (Some(v), Some(d)) = (own, default) {
        let t = inf.expr(&d.value);
        if let Some(declared) = &v.declared {
            let related = Related {
                path: None,
                range: v.type_range.clone().unwrap_or(v.name_range.clone()),
                message: format!("the type of `var.{name}`"),
            };
            inf.check(&d.value, &t, declared, Some(related));
        }
        let non_nullable =
            matches!(b.body.get_attribute("nullable").map(|a| &a.value), Some(Expression::Bool(x)) if !*x.value());
        if non_nullable && matches!(d.value, Expression::Null(_)) {
            let r = inf.range(&d.value);
            inf.report(Diagnostic::new(
                Code::InvalidValue,
                r,
                "the default is null, but `nullable = false` forbids null",
            ));
        }
    }
    for a in b.body.attributes() {
        if !matches!(a.key.value().as_str(), "type" | "default") {
            inf.expr(&a.value);
        }
    }
    for v in b.body.get_blocks("validation") {
        body(inf, &v.body, Dialect::Terraform, false);
    }
}

/// A `.tfvars` value against its variable (when the directory declares any).
fn tfvars_value(inf: &mut Infer, a: &Attribute, vars: &HashMap<&str, (&VarRef, Option<Related>)>, has_vars: bool) {
    let t = inf.expr(&a.value);
    if !has_vars {
        return;
    }
    let name = a.key.value().as_str();
    match vars.get(name) {
        Some((v, related)) => {
            if let Some(declared) = &v.decl.declared {
                inf.check(&a.value, &t, declared, related.clone());
            }
        }
        None => {
            // In declaration order, as ties go to the first.
            let mut names: Vec<(&str, (usize, usize))> =
                vars.iter().map(|(n, (v, _))| (*n, (v.doc, v.start))).collect();
            names.sort_by_key(|&(_, at)| at);
            let mut msg = format!("`{name}` is not a variable of this module; Terraform ignores it with a warning");
            if let Some(s) = crate::suggest::closest(name, names.into_iter().map(|(n, _)| n)) {
                msg.push_str(&format!(" (did you mean `{s}`?)"));
            }
            let r = inf.range(&a.key);
            inf.report(Diagnostic::new(Code::UndefinedReference, r, msg).with_severity(Severity::Warning));
        }
    }
}

/// Resources, data sources, module calls and components (document symbols).
fn resources(doc: &Document, body: &Body, src: Source<'_>, out: &mut Vec<Symbol>) {
    for b in body.blocks() {
        let ident = b.ident.value().as_str();
        if !matches!(ident, "resource" | "data" | "module" | "component" | "read") {
            continue;
        }
        let name = match (doc.file.kind, ident) {
            (FileKind::Pcl | FileKind::Hcl, _) | (_, "module") => b.labels.first().map(label_text).unwrap_or(""),
            _ => b.labels.get(1).map(label_text).unwrap_or(""),
        };
        let address = match (doc.file.kind, ident) {
            (FileKind::Terraform, "resource") => format!("{}.{name}", b.labels.first().map(label_text).unwrap_or("")),
            (FileKind::Terraform, "data") => format!("data.{}.{name}", b.labels.first().map(label_text).unwrap_or("")),
            (FileKind::Terraform, _) => format!("module.{name}"),
            _ => name.to_string(),
        };
        let ty = if doc.file.kind == FileKind::Pcl { Type::output(Type::any()) } else { Type::any() };
        let name_range = b.labels.last().map(|l| src.range(l)).unwrap_or_else(|| src.range(&b.ident));
        out.push(Symbol {
            address,
            name: name.to_string(),
            kind: SymbolKind::Resource,
            name_range,
            range: src.range(b),
            ty,
            doc: 0,
        });
    }
}

/// `output.NAME` symbols with their value types (an untyped output's is
/// inferred, quietly: its checks were made with the item's).
fn output_symbols(
    doc: &Document,
    body: &Body,
    src: Source<'_>,
    env: &dyn Env,
    out: &mut Vec<Symbol>,
    type_nodes: &mut Vec<TypeNode>,
) {
    for b in body.blocks().filter(|b| b.ident.value().as_str() == "output") {
        let Some(label) = b.labels.first() else { continue };
        let name = label_text(label).to_string();
        let declared = match (doc.file.kind, b.labels.get(1)) {
            (FileKind::Pcl | FileKind::Hcl, Some(l)) => {
                let te = label_type(l, src, doc.file.dialect);
                type_nodes.extend(te.nodes);
                Some(te.declared)
            }
            _ => None,
        };
        let ty = match (declared, b.body.get_attribute("value")) {
            (Some(t), _) => t,
            (None, Some(v)) => Infer::new(env, src).expr(&v.value),
            (None, None) => Type::any(),
        };
        out.push(Symbol {
            address: format!("output.{name}"),
            name,
            kind: SymbolKind::Output,
            name_range: src.range(label),
            range: src.range(b),
            ty,
            doc: 0,
        });
    }
}

fn label_text(l: &BlockLabel) -> &str {
    match l {
        BlockLabel::Ident(i) => i.value().as_str(),
        BlockLabel::String(s) => s.value().as_str(),
    }
}
