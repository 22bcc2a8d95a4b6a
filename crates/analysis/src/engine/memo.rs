//! Results remembered between analyses of a module, keyed by item id.

use crate::dialects::{stacks, symbol_libraries, terragrunt};
use std::hash::Hash;
use std::ops::Range;
use std::sync::Arc;

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use syntax::diagnostic::{Code, Diagnostic, Severity};
use syntax::typeexpr::TypeNode;
use syntax::Dialect;
use types::Type;

use super::{shifted, GiveUp, GiveUps, Readers};
use crate::calls::{Callee, Context};
use crate::document::{Document, Item, ItemId, Revision};
use crate::infer::{Infer, Space, Typed};
use crate::module::checks::check_item;
use crate::module::decls::{computed_of, Decls};
use crate::module::env::{ModuleEnv, View};
use crate::module::{item_source, module_dialect, probed, run, shift, Call, ModuleAnalysis, Stop, Symbol};
use crate::FileKind;

/// The names an inference looked up (with the types it got) and the spaces
/// it asked suggestions for (with the answers it got: a suggestion changes
/// only when a closer name is declared or the suggested one goes).
#[derive(Debug)]
pub(in crate::module) struct Deps {
    pub(in crate::module) dialect: Dialect,
    pub(in crate::module) lookups: Vec<((Space, String), Option<Type>)>,
    pub(in crate::module) suggested: Vec<(Space, String, Option<String>)>,
    /// The module calls whose callee was consulted, with its version.
    pub(in crate::module) calls: Vec<(String, Option<u64>)>,
    /// Whether the provider schemas were consulted, and their version then.
    pub(in crate::module) schemas: Option<Option<u64>>,
    /// The files read (`templatefile`'s templates), with a hash of what
    /// they held (`None`: unreadable).
    pub(in crate::module) files: Vec<(std::path::PathBuf, Option<u64>)>,
}

impl Deps {
    pub(in crate::module) fn hold(&self, env: &ModuleEnv, dialect: Dialect) -> bool {
        self.dialect == dialect
            && self.lookups.iter().all(|(k, t)| env.type_of(k) == t.as_ref())
            && self.suggested.iter().all(|(space, word, answer)| env.suggest(*space, word) == *answer)
            && self.calls.iter().all(|(call, v)| env.context.callee(call).map(Callee::version) == *v)
            && self.schemas.is_none_or(|v| env.context.schemas_version() == v)
            && self.files.iter().all(|(path, hash)| env.context.read(path).map(|t| text_hash(&t)) == *hash)
    }
}

pub(in crate::module) fn text_hash(text: &str) -> u64 {
    use std::hash::Hasher;
    let mut h = rustc_hash::FxHasher::default();
    text.hash(&mut h);
    h.finish()
}

#[derive(Debug)]
pub(in crate::module) struct ComputedResult {
    pub(in crate::module) deps: Deps,
    pub(in crate::module) ty: Type,
    pub(in crate::module) diagnostics: Vec<Diagnostic>,
    /// Type expressions in the value (`convert`'s type argument).
    pub(in crate::module) type_nodes: Vec<TypeNode>,
}

/// One item's checks and output symbols, relative to its start.
#[derive(Debug)]
pub(in crate::module) struct CheckResult {
    pub(in crate::module) deps: Deps,
    /// Output types are inferred in the module's dialect (its first file's).
    pub(in crate::module) module_dialect: Dialect,
    /// Whether each variable the item declares is the one its name means.
    pub(in crate::module) winners: Vec<bool>,
    pub(in crate::module) diagnostics: Vec<Diagnostic>,
    pub(in crate::module) outputs: Vec<Symbol>,
    pub(in crate::module) type_nodes: Vec<TypeNode>,
}

/// Analysis results of one module kept between analyses (the language
/// server keeps one per module), keyed by item id. Any memo gives the same
/// answers as none; it only saves work.
#[derive(Default)]
pub struct Memo {
    pub(in crate::module) decls: HashMap<ItemId, Arc<Decls>>,
    pub(in crate::module) computed: HashMap<(ItemId, usize), ComputedResult>,
    pub(in crate::module) checks: HashMap<ItemId, Arc<CheckResult>>,
    /// What each item tells the module-level passes (passes.rs).
    pub(in crate::module) facts: crate::module::passes::Facts,
    pub(in crate::module) last: Option<Last>,
    pub(in crate::module) patches: usize,
    /// Why the analyses that were not patched ran in full.
    pub(in crate::module) give_ups: GiveUps,
    /// What the module's calls lead to (see [`Memo::set_context`]).
    pub(in crate::module) context: Context,
    /// The last answer of [`Memo::calls`], and the items it was read from
    /// (their ids, per document that can call modules).
    pub(in crate::module) calls_seen: Option<CallsSeen>,
    /// Whether that answer resolved a `source` built of const variables.
    pub(in crate::module) calls_templated: bool,
    /// The `symbols` blocks found with that answer ([`Memo::symbol_requests`]).
    pub(in crate::module) libraries_seen: Arc<[(String, String)]>,
    /// The library the module's own `.sym.hcl` files make.
    pub(in crate::module) own_library: Option<Arc<symbol_libraries::libraries::Library>>,
    /// The lints of unused declarations are off (no setting turns one
    /// on): their facts are not gathered (see [`Memo::set_lints`]).
    pub(in crate::module) lints_off: bool,
}

pub(in crate::module) type CallsSeen = (Vec<(std::path::PathBuf, Revision, Vec<ItemId>)>, Arc<[Call]>);

/// The last whole-module analysis and the names it ended with. Hover,
/// completion and publishing on an unchanged module answer from it; a
/// probe re-infers only the item under the cursor against its names.
pub(in crate::module) struct Last {
    pub(in crate::module) signature: Signature,
    pub(in crate::module) analysis: Arc<ModuleAnalysis>,
    pub(in crate::module) env: ModuleEnv,
    /// Who read which name (built with the full analysis, kept up by patches).
    pub(in crate::module) readers: Option<Readers>,
    /// Whether an item read a file (a template): its edits are then left
    /// to a full run, which reads it again.
    pub(in crate::module) reads_files: bool,
    /// Whether the memo's results are the ones this analysis was made of:
    /// an analysis of other documents in between (without becoming the
    /// last) replaces some, and a change of names can then no longer be
    /// told from them.
    pub(in crate::module) exact: bool,
    /// Why the module is judged whole, if it is (override files, whose
    /// merge judges across items, …): a patch, which redoes only the
    /// edited items, leaves such a module to a full run.
    pub(in crate::module) whole: Option<GiveUp>,
    /// Whether a document's syntax errors were one for the file
    /// ([`Document::collapsed`]): an edit of it is then a full run's.
    pub(in crate::module) collapsed: bool,
    /// The items that `symbols` blocks' checks read (the blocks, and the
    /// `language` blocks that enable the experiment): an edit of one is a
    /// full run's, an edit elsewhere is patched.
    pub(in crate::module) symbol_items: HashSet<ItemId>,
    /// In a module with override files, what their merge reads: an edit
    /// of an override file or of an item they merge into is a full run's.
    pub(in crate::module) merged: Option<Arc<crate::module::overrides::Merged>>,
}

/// What a module's analysis is a function of: each file's kind, dialect
/// and items (with the revision they are, see [`Document::revision`]). An
/// edit re-parses at least one item (a new id) and moves the ones after
/// it, so equal signatures mean equal analyses.
pub(in crate::module) type Signature = Vec<(std::path::PathBuf, FileKind, Dialect, Revision, Places)>;

/// A document's items' ids and places (moved lazily by patches).
pub(in crate::module) type Places = shifted::Shifted<(ItemId, Range<usize>)>;

pub(in crate::module) fn signature(docs: &[Document]) -> Signature {
    docs.iter()
        .map(|d| (d.file.path.clone(), d.file.kind, d.file.dialect, d.revision(), item_ranges(d).into()))
        .collect()
}

pub(in crate::module) fn item_ranges(d: &Document) -> Vec<(ItemId, Range<usize>)> {
    d.items.iter().map(|i| (i.id, i.range.clone())).collect()
}

/// `signature(docs) == *sig`, without building it (nor comparing the
/// items of a document at the revision it had).
pub(in crate::module) fn describes(sig: &Signature, docs: &[Document]) -> bool {
    sig.len() == docs.len()
        && sig.iter().zip(docs).all(|((path, kind, dialect, rev, items), d)| {
            *path == d.file.path
                && *kind == d.file.kind
                && *dialect == d.file.dialect
                && (*rev == d.revision()
                    || items.len() == d.items.len()
                        && d.items.iter().enumerate().all(|(j, i)| items.at(j) == (i.id, i.range.clone())))
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
    /// Sets what the module's calls lead to, for the analyses that follow.
    /// A new context ends the last analysis (its names may have changed);
    /// the items' results stay, each redone only if it consulted what changed.
    /// (The last analysis stays: the next edit's patch takes a change of
    /// the callees of the calls it edited, and gives up on any other.)
    pub fn set_context(&mut self, mut context: Context) {
        if context.read_outputs != self.context.read_outputs {
            // (Only the module-level passes read it.)
            self.last = None;
        }
        if context.passed != self.context.passed {
            // Which defaults are used is read by every item's checks.
            self.checks.clear();
            self.last = None;
        }
        if context != self.context {
            let symbols = std::mem::replace(&mut context.symbols, self.context.symbols.clone());
            self.context = context;
            self.set_symbols(symbols);
        }
    }

    /// Sets the symbol libraries the module imports. A change makes every
    /// item's declarations and checks stale (a variable's declared type may
    /// name a library's type), so the memo forgets them all.
    pub fn set_symbols(&mut self, symbols: symbol_libraries::libraries::Libraries) {
        if symbols != self.context.symbols {
            self.context.symbols = symbols;
            self.decls.clear();
            self.computed.clear();
            self.checks.clear();
            self.last = None;
        }
    }

    /// Sets the library the module's own `.sym.hcl` files make. A change
    /// makes every item's checks stale (each may read any of its names).
    pub(in crate::module) fn set_own_library(&mut self, own: Option<Arc<symbol_libraries::libraries::Library>>) {
        if own != self.own_library {
            self.own_library = own;
            self.computed.clear();
            self.checks.clear();
            self.last = None;
        }
    }

    /// The directories of the files besides its own that the last
    /// analysis read (templates, `read_terragrunt_config` targets): a
    /// change there is a change of the module's answer. Empty, at no
    /// cost, when it read none.
    pub fn dirs_read(&self) -> Vec<std::path::PathBuf> {
        if !self.last.as_ref().is_some_and(|l| l.reads_files) {
            return Vec::new();
        }
        let files =
            self.checks.values().flat_map(|c| &c.deps.files).chain(self.computed.values().flat_map(|c| &c.deps.files));
        let mut dirs: Vec<std::path::PathBuf> =
            files.filter_map(|(p, _)| p.parent()).map(crate::workspace::normalize).collect();
        dirs.sort();
        dirs.dedup();
        dirs
    }

    /// The other files the last analysis read may have changed (the
    /// project layer saw the disk change): the next analysis is not the
    /// last one unchanged, and its items that read them check them again.
    pub fn reread_files(&mut self) {
        if self.last.as_ref().is_some_and(|l| l.reads_files) {
            self.last = None;
        }
    }

    /// Whether the lints of unused declarations (analysis.md §5.1) are
    /// computed: off, their per-item facts (a name and range per local,
    /// variable, data source) are neither gathered nor kept — ~10 bytes of
    /// heap per source byte of a module of locals (tests/memory.rs). On by
    /// default, as analysing a module without settings reports them all;
    /// the project layer sets it from the severities. A change forgets the
    /// facts and the last analysis (its passes ran the other way).
    pub fn set_lints(&mut self, on: bool) {
        if self.lints_off == on {
            self.lints_off = !on;
            self.facts.clear();
            self.last = None;
        }
    }

    /// What the module's analyses are a function of besides its documents.
    pub fn context(&self) -> &Context {
        &self.context
    }

    /// Sets what the project layer resolved for the module (callees,
    /// schemas, the file reader, what callers pass); the symbol libraries
    /// and generated files stay what [`Self::set_symbols`] and
    /// [`Self::set_generated`] set.
    pub fn set_resolved(&mut self, resolved: Context) {
        let (symbols, generated) = (self.context.symbols.clone(), self.context.generated.clone());
        self.set_context(Context { symbols, generated, ..resolved });
    }

    /// Adds callees to the module's (a Terragrunt stack's `values` for the
    /// unit it instantiates); nothing changes when they are there already.
    pub fn add_callees(&mut self, callees: impl IntoIterator<Item = (String, Callee)>) {
        let mut calls = (*self.context.calls).clone();
        calls.extend(callees);
        if calls != *self.context.calls {
            self.set_context(Context { calls: Arc::new(calls), ..self.context.clone() });
        }
    }

    /// Sets the files Terragrunt units generate into the module.
    pub fn set_generated(&mut self, generated: crate::calls::Generated) {
        if self.context.generated != generated {
            self.set_context(Context { generated, ..self.context.clone() });
        }
    }

    /// Sets the provider schemas the module's analyses consult.
    pub fn set_schemas(&mut self, schemas: Option<Arc<schema::Schemas>>) {
        self.set_context(Context { schemas, ..self.context.clone() });
    }

    /// How many analyses were patched from the last one (for tests).
    #[doc(hidden)]
    pub fn patches(&self) -> usize {
        self.patches
    }

    /// How many items the module-level passes that judge each item
    /// (versions, ephemeral values) judged in the last analysis (for
    /// tests: a patch that leaves what they learnt of the module alone
    /// judges only the edited items).
    #[doc(hidden)]
    pub fn judged_by_passes(&self) -> Option<usize> {
        self.last.as_ref().map(|l| l.env.passes.judged)
    }

    /// Why the analyses of this memo that were not patched ran in full,
    /// counted per reason (for tests and benchmarks).
    pub fn give_ups(&self) -> &GiveUps {
        &self.give_ups
    }

    /// Forgets the last analysis, so the next one runs in full (for tests:
    /// what a change of context or of two documents at once does).
    #[doc(hidden)]
    pub fn forget_last(&mut self) {
        self.last = None;
    }

    /// Forgets items that are gone (re-parsed or deleted).
    pub(in crate::module) fn prune(&mut self, docs: &[Document]) {
        let live: usize = docs.iter().map(|d| d.items.len()).sum();
        if self.decls.len() <= 2 * live + 64 && self.checks.len() <= 2 * live + 64 && self.facts.len() <= 2 * live + 64
        {
            return;
        }
        let ids: HashSet<ItemId> = docs.iter().flat_map(|d| d.items.iter().map(|i| i.id)).collect();
        self.decls.retain(|id, _| ids.contains(id));
        self.checks.retain(|id, _| ids.contains(id));
        self.facts.retain(|id, _| ids.contains(id));
        self.computed.retain(|(id, _), _| ids.contains(id));
    }
}

impl Memo {
    /// The analysis of `docs` (no probe), shared: the last one when the
    /// module has not changed since.
    pub fn analysis(&mut self, docs: &[Document]) -> Arc<ModuleAnalysis> {
        // (Never `None`: nothing stops it.)
        self.analysis_unless(docs, Stop::NEVER).unwrap_or_default()
    }

    /// [`Self::analysis`], unless `stop` says to stop first (see [`Stop`]).
    /// The files Terragrunt units generate into the module
    /// ([`Context::generated`]) are analysed after `docs`; what is found in
    /// them is left out of the answer, which describes `docs` alone.
    pub fn analysis_unless(&mut self, docs: &[Document], stop: Stop) -> Option<Arc<ModuleAnalysis>> {
        if self.context.generated.is_empty() {
            return self.analysis_of(docs, stop);
        }
        let all = self.with_generated(docs);
        let whole = self.analysis_of(&all, stop)?;
        Some(Arc::new(shown_only(&whole, docs.len(), self.context.generated.unknown.as_ref())))
    }

    /// `docs` and the files generated into the module, in that order.
    fn with_generated(&self, docs: &[Document]) -> Vec<Document> {
        docs.iter().cloned().chain(self.context.generated.docs.iter().cloned()).collect()
    }

    /// The analysis of `docs`, generated files among them.
    fn analysis_of(&mut self, docs: &[Document], stop: Stop) -> Option<Arc<ModuleAnalysis>> {
        // (The last analysis when nothing changed since.)
        if let Ok(patched) = self.patch(docs) {
            return Some(patched);
        }
        let signature = signature(docs);
        let Some((analysis, env)) = run(docs, None, self, stop) else {
            // The last analysis no longer describes what the memo holds
            // per item: the next one runs in full, reusing what this one
            // finished.
            self.last = None;
            return None;
        };
        let analysis = Arc::new(analysis);
        // Who read which name, for the renames to come: built with the
        // full analysis (~50 ms at 10 MB) rather than on the first rename.
        let readers = Some(Readers::build(&signature, self));
        let reads_files = self.checks.values().any(|c| !c.deps.files.is_empty())
            || self.computed.values().any(|c| !c.deps.files.is_empty());
        // (The passes of versions.rs and ephemeral.rs run again after a
        // patch, see passes.rs; merging override files does not.)
        let whole = judged_whole(docs);
        let collapsed = docs.iter().any(Document::collapsed);
        let exact = true;
        let symbol_items =
            docs.iter().flat_map(|d| d.items.iter().filter(|i| reads_symbols(d, i)).map(|i| i.id)).collect();
        self.last = Some(Last {
            signature,
            analysis: analysis.clone(),
            env,
            readers,
            reads_files,
            exact,
            whole,
            collapsed,
            symbol_items,
            merged: crate::module::overrides::Merged::of(docs).map(Arc::new),
        });
        Some(analysis)
    }

    /// The module's analysis and the types of the expressions of the item
    /// at `offset` of document `doc`: only that item is inferred again
    /// (what [`analyze_probe`] records, at the cost of one item).
    pub fn probe(&mut self, docs: &[Document], doc: usize, offset: usize) -> (Arc<ModuleAnalysis>, Vec<Typed>) {
        let analysis = self.analysis(docs);
        let all;
        let docs = match self.context.generated.docs.is_empty() {
            true => docs,
            false => {
                all = self.with_generated(docs);
                &all[..]
            }
        };
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
            return (
                analysis,
                run(docs, Some((doc, offset)), self, Stop::NEVER).map(|r| r.0.probe).unwrap_or_default(),
            );
        }
        let env = &last.env;
        let dialect = module_dialect(docs);
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
            inf.policy = crate::is_policy_file(&d.file.path);
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

/// Whether `item` is one the checks of `symbols` blocks read: a `symbols`
/// block, or a `language` block (which enables the experiment).
pub(in crate::module) fn reads_symbols(doc: &Document, item: &Item) -> bool {
    let text = doc.file.text.get(item.range.clone()).unwrap_or("").trim_start();
    text.starts_with("symbols") || text.starts_with("language")
}

/// Why a module is judged whole (no patch takes its edits), if it is.
fn judged_whole(docs: &[Document]) -> Option<GiveUp> {
    if stacks::components::deploys(docs) {
        Some(GiveUp::StackDeployments)
    } else if docs.iter().any(|d| symbol_libraries::libraries::is_symbol_file(&d.file.path)) {
        Some(GiveUp::SymbolLibraries)
    } else {
        terragrunt::merge::merges(docs).then_some(GiveUp::TerragruntMerge)
    }
}

/// `whole` (an analysis of `n` documents and the files generated after
/// them) as an analysis of the first `n`: what lies in a generated file is
/// no file's the user has (its declarations still type the module). When
/// a unit generates a file whose text is not known (`unknown`), a name
/// that no file declares may be declared there: one hint says so, at the
/// first such reference, instead of an error at each.
fn shown_only(whole: &ModuleAnalysis, n: usize, unknown: Option<&(std::path::PathBuf, String)>) -> ModuleAnalysis {
    let mut a = whole.clone();
    a.diagnostics.truncate(n);
    if let Some((unit, file)) = unknown {
        let undeclared = |d: &Diagnostic| d.code == Code::UndefinedReference && d.severity == Severity::Error;
        let mut said = false;
        for diags in a.diagnostics.iter_mut().filter(|d| d.iter().any(undeclared)) {
            let first = diags.iter().find(|d| undeclared(d)).map(|d| d.range.clone());
            diags.retain(|d| !undeclared(d));
            if let (Some(range), false) = (first, said) {
                let msg = format!(
                    "not checked: `{}` generates `{file}` into this module from text not known without running \
                     Terragrunt, so names it may declare are not reported as undeclared",
                    unit.display()
                );
                diags.push(Diagnostic::new(Code::UndefinedReference, range, msg).with_severity(Severity::Hint));
                diags.sort_by_key(|d| d.range.start);
                said = true;
            }
        }
    }
    a.type_nodes.truncate(n);
    a.kept.truncate(n);
    if a.symbols.iter().any(|s| s.doc >= n) {
        a.symbols.retain(|s| s.doc < n);
    }
    if a.resources.iter().any(|s| s.doc >= n) {
        a.resources.retain(|s| s.doc < n);
    }
    a
}
