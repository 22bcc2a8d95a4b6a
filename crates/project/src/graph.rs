//! The module graph as the server keeps it: the modules that open modules
//! call (analysed once per change and shared by every caller, see
//! `analysis::workspace`), read from open documents over the disk, and
//! which open module reads which directory, so that an edit of a called
//! module re-checks its callers.

use analysis::sync::Locked;
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use crate::disk::{is_virtual, Disk, Wanted};
use crate::documents::Settings;
use analysis::calls::is_local;
use analysis::document::{ItemId, Revision};
use analysis::workspace::{normalize, Files, Workspace};
use analysis::{Call, Document, Family, FileKind, Memo, ModuleAnalysis, Text};

/// A module: its directory and family. What a module read is kept per
/// module, not per directory: a plain `.hcl` file beside a Terraform
/// caller is another module of the same directory, and what it read (no
/// call at all) must not replace what the caller read.
pub type Key = (PathBuf, Family);

/// The module a document belongs to, its directory normalized as the
/// graph keeps it.
pub fn key_of(path: &Path) -> Option<Key> {
    let (dir, family) = crate::documents::module_key(path)?;
    Some((normalize(&dir), family))
}

/// A module's schemas and its callees' (see [`Prepared::schemas`]).
type SchemasUsed = (Option<Arc<schema::Schemas>>, Option<Arc<schema::Schemas>>);

#[derive(Default)]
pub struct Graph {
    workspace: Mutex<Workspace>,
    /// Per module analysed with calls: every directory its analysis read
    /// (callees, theirs, …).
    reads: Mutex<HashMap<Key, Arc<HashSet<PathBuf>>>>,
    /// Directories whose own provider schema is being printed, with a task
    /// waiting to analyse them again once it is.
    waiting: Mutex<HashSet<PathBuf>>,
    /// Per PCL program: its texts (by identity), and the schemas Pulumi
    /// cached for the packages they name.
    plugins: Mutex<HashMap<PathBuf, Plugins>>,
    /// Counts the changes of open documents that some module's analysis
    /// read (its callees', theirs, …) and of the settings.
    edits: AtomicU64,
    /// Per module analysed with calls: what its context was last resolved
    /// from (see [`Prepared`]).
    prepared: Mutex<HashMap<Key, Prepared>>,
    /// Per module with OpenTofu `symbols` blocks: the directories of the
    /// symbol libraries it read (an edit there refreshes it, [`Self::callers`]).
    libraries: Mutex<HashMap<Key, Vec<PathBuf>>>,
    /// Per module, the directories of the other files its last analysis
    /// read (`read_terragrunt_config`, templates: [`Memo::dirs_read`]),
    /// for [`Self::callers`], and the disk's events count then: after an
    /// event, what the memo kept of them is looked at again.
    files_read: Mutex<HashMap<Key, (Vec<PathBuf>, u64)>>,
    /// Per module with known callers: the variables every one of them
    /// sets ([`analysis::Context::passed`]; `check` knows its callers).
    passed: Mutex<HashMap<Key, Arc<std::collections::BTreeSet<String>>>>,
    /// The outputs the known callers of a module read, where known
    /// ([`analysis::Context::read_outputs`]).
    read_outputs: Mutex<HashMap<Key, Arc<std::collections::BTreeSet<String>>>>,
    /// The Terragrunt units of the tree, for what they generate into the
    /// modules they run ([`crate::generate`]).
    units: Mutex<crate::generate::Units>,
}

/// What a module's context was resolved from: while its calls, the
/// schemas, the open documents of the modules it reads and their files
/// on disk stay the same, so does the context, and a keystroke skips
/// resolving its calls again (388 calls at 10 MB: ~0.5 ms).
struct Prepared {
    calls: Arc<[Call]>,
    /// The schemas the module and its callees were analysed with.
    schemas: SchemasUsed,
    /// [`Graph::edits`] and [`Disk::events`] before it was resolved.
    edits: u64,
    events: u64,
    /// The context's calls as the memo got them (still the memo's: the
    /// memo was not replaced since).
    context: Arc<std::collections::BTreeMap<String, analysis::Callee>>,
}

/// A PCL program's texts (length and item ids of each) and the package
/// schemas found for them.
#[derive(Default)]
struct Plugins {
    /// Per document: the revision of its items last counted, its items (by
    /// id) and the packages each names, so a keystroke looks only at the
    /// items it parsed again, not the program.
    docs: HashMap<PathBuf, (Revision, Vec<Named>)>,
    /// How many items name each package: the set of names changes only
    /// when a count comes to or leaves zero (not rebuilt per keystroke
    /// from every item's names).
    counts: std::collections::BTreeMap<String, usize>,
    /// The names last looked up, when, and the schemas found for them.
    names: Option<Vec<String>>,
    looked: Option<std::time::Instant>,
    paths: Vec<PathBuf>,
    /// The schemas last made of them and the settings' files, while
    /// those stay the same.
    built: Option<Built>,
}

/// An item and the packages it names.
type Named = (ItemId, Vec<String>);

/// Schemas made of provider files and package files.
type Built = (Vec<PathBuf>, Vec<PathBuf>, Option<Arc<schema::Schemas>>);

impl Plugins {
    /// Counts the names of an item that came, or uncounts those of one
    /// that went; whether the set of names changed.
    fn count(&mut self, names: &[String], came: bool) -> bool {
        let mut changed = false;
        for name in names {
            if came {
                let c = self.counts.entry(name.clone()).or_default();
                changed |= *c == 0;
                *c += 1;
            } else if let Some(c) = self.counts.get_mut(name) {
                *c -= 1;
                if *c == 0 {
                    self.counts.remove(name);
                    changed = true;
                }
            }
        }
        changed
    }
}

/// How often the plugin cache is looked at again for packages it had no
/// schema for (the user may install them meanwhile).
const LOOK_AGAIN: std::time::Duration = std::time::Duration::from_secs(10);

/// What a call in a document that is no file leads to: nowhere, and no
/// directory is read for it.
fn unsaved(call: &Call) -> analysis::Callee {
    match call.source {
        Some(_) => analysis::Callee::Unsaved,
        None => analysis::Callee::Opaque,
    }
}

/// The documents the editor has open, as the graph reads them (through
/// the server's state lock, which it takes only for this).
pub trait OpenDocs: Sync {
    /// The open documents of the module in `dir` of `family`, parsed.
    fn open_docs(&self, dir: &Path, family: Family) -> Vec<Document>;
    /// The directory of the file a `git:` document's made-up directory
    /// stands for (see [`crate::documents::Documents::home`]).
    fn home(&self, dir: &Path) -> Option<PathBuf>;
}

/// Where a front end's modules come from: its open documents (the
/// editor's; for `check`, the modules it checked already) over the disk,
/// read with its settings. The analysis's [`Files`].
pub struct Sources<'a> {
    pub open: &'a dyn OpenDocs,
    pub disk: &'a Disk,
    pub settings: &'a Settings,
    /// Look at the disk again instead of trusting change events (a client
    /// that watches nothing).
    pub recheck: bool,
}

impl Files for Sources<'_> {
    fn module(&self, dir: &Path, family: Family) -> Vec<Document> {
        let mut docs = self.open.open_docs(dir, family);
        let skip: HashSet<PathBuf> = docs.iter().map(|d| d.file.path.clone()).collect();
        let wanted = Wanted { dir, family, skip: &skip, also: None, settings: self.settings };
        docs.extend(self.disk.module(&wanted, self.recheck));
        docs.sort_by(|a, b| a.file.path.cmp(&b.file.path));
        docs
    }

    fn read(&self, path: &Path) -> Option<String> {
        // Never outside the tree (an absolute include, `/dev/zero`).
        if !self.settings.session.tree.allows(path) {
            return None;
        }
        // A manifest: never a FIFO or something huge. One that is there
        // but not read is said (`check` reports it), not left out in silence.
        match crate::fsread::read_regular_to_string(path, crate::fsread::MANIFEST_CAP) {
            Ok(text) => Some(text),
            Err(e) if e.is_not_found() || matches!(e, crate::fsread::ReadError::NotUtf8) => None,
            Err(e) => {
                self.disk.skip(path, e.to_string());
                None
            }
        }
    }

    fn roots(&self) -> &[PathBuf] {
        &self.settings.session.roots
    }

    fn within(&self, path: &Path) -> bool {
        self.settings.session.tree.check(path).is_ok()
    }
}

impl Graph {
    /// Brings the module's memo up to what its calls now lead to. Runs off
    /// the message loop (it may read and analyse called modules).
    pub fn prepare(&self, sources: &Sources, docs: &[Document], memo: &mut Memo) {
        memo.set_lints(syntax::diagnostic::unused_lints_on(&sources.settings.severity));
        self.files_may_have_changed(sources, docs, memo);
        self.prepare_calls(sources, docs, memo);
        // OpenTofu's symbol libraries: the `.sym.hcl` files of the module's
        // `symbols` blocks, read like a local callee's files (cheap when the
        // module has no `symbols` block).
        let requests = memo.symbol_requests(docs);
        let symbols = analysis::dialects::symbol_libraries::libraries::load_requested(sources, docs, &requests);
        if let Some(key) = docs.first().and_then(|d| key_of(&d.file.path)) {
            let dirs: Vec<PathBuf> = symbols.0.values().filter_map(|l| l.dir.clone()).collect();
            let mut libraries = self.libraries.locked();
            match dirs.is_empty() {
                true => libraries.remove(&key),
                false => libraries.insert(key, dirs),
            };
        }
        memo.set_symbols(symbols);
        self.prepare_generated(sources, docs, memo);
    }

    /// The files Terragrunt units generate into a Terraform module as they
    /// run it, into its context (docs/spec/terragrunt.md §6).
    fn prepare_generated(&self, sources: &Sources, docs: &[Document], memo: &mut Memo) {
        let Some((dir, family)) = docs.first().and_then(|d| key_of(&d.file.path)) else { return };
        if is_virtual(&dir) {
            return;
        }
        let (events, tree) = (sources.disk.events(), &sources.settings.session.tree);
        // A unit configuration or a stack file that stacks instantiate: the
        // `values` they give it, as callees of its context (terragrunt.md §8).
        let mut kinds = Vec::new();
        if docs.iter().any(|d| analysis::is_terragrunt_unit(&d.file.path)) {
            kinds.push("unit");
        }
        if docs.iter().any(|d| analysis::dialects::terragrunt::stack::is_stack_file(&d.file.path)) {
            kinds.push("stack");
        }
        if family == Family::Hcl && !kinds.is_empty() {
            let given = crate::generate::stack_values(&self.units, sources, events, tree, &dir, &kinds);
            if !given.is_empty() {
                memo.add_callees(given);
            }
            return;
        }
        if family != Family::Terraform {
            return;
        }
        let generated = crate::generate::generated(&self.units, sources, events, tree, &dir, docs);
        memo.set_generated(generated);
    }

    /// [`Self::prepare`]'s calls and schemas.
    fn prepare_calls(&self, sources: &Sources, docs: &[Document], memo: &mut Memo) {
        let Sources { open: state, disk, settings, recheck } = *sources;
        let Some(key) = docs.first().and_then(|d| key_of(&d.file.path)) else { return };
        let (dir, family) = (&key.0, key.1);
        // Provider and package schemas: the settings' files, and a
        // Terraform module's own once they are printed (issue 15).
        let schemas = match family {
            Family::Pcl => self.pcl_schemas(settings, dir, docs),
            family => settings.schemas_for(dir, family),
        };
        let calls = memo.shared_calls(docs);
        crate::phases::mark("calls");
        // A document that is no file has no directory its calls could lead
        // from (a `git:` one: its file's, whose other files it is read with).
        let home = if is_virtual(dir) { state.home(dir) } else { Some(dir.clone()) };
        let nowhere = home.is_none();
        let Some(home) = home.filter(|_| !calls.is_empty()) else {
            self.prepared.locked().remove(&key);
            let calls = match nowhere {
                true => Arc::new(calls.iter().map(|c| (c.name.clone(), unsaved(c))).collect()),
                false => Default::default(),
            };
            let reader = Some(settings.session.tree.reader());
            let passed = self.passed.locked().get(&key).cloned();
            let read_outputs = self.read_outputs.locked().get(&key).cloned();
            memo.set_resolved(analysis::Context { schemas, calls, reader, passed, read_outputs, ..Default::default() });
            if self.reads.locked().remove(&key).is_some() {
                self.prune();
            }
            return;
        };
        let (edits, events) = (self.edits.load(Ordering::SeqCst), disk.events());
        let schemas = (schemas, settings.schemas.clone());
        if self.unchanged(&key, &calls, &schemas, (edits, events), memo) {
            crate::phases::mark("compared");
            // A client that does not watch files: the disk is looked at
            // (names and stamps only), as resolving would have; an install
            // manifest (`terraform init`) is read again by resolving.
            let local = || calls.iter().all(|c| c.source.as_deref().is_none_or(is_local));
            let read = self.reads.locked().get(&key).cloned().unwrap_or_default();
            if !recheck || (local() && disk.unchanged(&read, &settings.session.tree)) {
                return;
            }
        }
        let resolved = {
            let mut ws = self.workspace.locked();
            ws.schemas = schemas.1.clone();
            ws.reader = Some(settings.session.tree.reader());
            ws.context(sources, &home, &calls)
        };
        let passed = self.passed.locked().get(&key).cloned();
        let read_outputs = self.read_outputs.locked().get(&key).cloned();
        memo.set_resolved(analysis::Context { schemas: schemas.0.clone(), passed, read_outputs, ..resolved.context });
        let context = memo.context().calls.clone();
        self.prepared.locked().insert(key.clone(), Prepared { calls, schemas, edits, events, context });
        self.reads.locked().insert(key, Arc::new(resolved.reads));
    }

    /// Keeps what [`Memo::dirs_read`] says for the module of `docs`.
    pub(crate) fn note_files_read(&self, sources: &Sources, docs: &[Document], memo: &Memo) {
        let Some(key) = docs.first().and_then(|d| key_of(&d.file.path)) else { return };
        let dirs = memo.dirs_read();
        let mut read = self.files_read.locked();
        match dirs.is_empty() {
            true => read.remove(&key),
            false => read.insert(key, (dirs, sources.disk.events())),
        };
    }

    /// A module that read other files (a template, a
    /// `read_terragrunt_config` target) is analysed again, not answered
    /// from its last analysis, once the disk changed since.
    fn files_may_have_changed(&self, sources: &Sources, docs: &[Document], memo: &mut Memo) {
        let Some(key) = docs.first().and_then(|d| key_of(&d.file.path)) else { return };
        if self.files_read.locked().get(&key).is_some_and(|(_, at)| *at != sources.disk.events()) {
            memo.reread_files();
        }
    }

    /// An analysed module that others call is handed to them (`check`
    /// analyses callees first): they do not analyse it again.
    pub fn share(&self, dir: &Path, family: Family, memo: Memo, analysis: Arc<ModuleAnalysis>) {
        self.workspace.locked().insert(dir, family, memo, analysis);
    }

    /// The modules `calls` from `dir` lead to (for `check` to order modules
    /// callees first).
    pub fn targets(&self, sources: &Sources, dir: &Path, calls: &[Call]) -> Vec<Key> {
        self.workspace.locked().targets(sources, dir, calls)
    }

    /// Whether the module was last prepared from these calls and schemas,
    /// with no edit or disk event since, into this memo.
    fn unchanged(&self, key: &Key, calls: &Arc<[Call]>, schemas: &SchemasUsed, at: (u64, u64), memo: &Memo) -> bool {
        self.prepared.locked().get(key).is_some_and(|p| {
            (p.edits, p.events) == at
                && (Arc::ptr_eq(&p.calls, calls) || p.calls == *calls)
                && p.schemas == *schemas
                && Arc::ptr_eq(&p.context, &memo.context().calls)
                // (What its callers set changed: the server learns it
                // between analyses.)
                && memo.context().passed == self.passed.locked().get(key).cloned()
                && memo.context().read_outputs == self.read_outputs.locked().get(key).cloned()
        })
    }

    /// An open document changed, opened or closed: modules that read its
    /// directory resolve their calls again.
    pub fn edited(&self, path: &Path) {
        let Some(dir) = path.parent().map(normalize) else { return };
        if self.reads.locked().values().any(|read| read.contains(&dir)) {
            self.edits.fetch_add(1, Ordering::SeqCst);
        }
    }

    /// The settings changed: every module resolves its calls again.
    pub fn settings_changed(&self) {
        self.edits.fetch_add(1, Ordering::SeqCst);
    }

    /// Says that every known caller of the module `key` sets `passed`
    /// (before it is analysed): its untyped variables' defaults are then
    /// used only for the others ([`analysis::Context::passed`]).
    pub fn set_passed(&self, key: Key, passed: std::collections::BTreeSet<String>) {
        self.passed.locked().insert(key, Arc::new(passed));
    }

    /// Says which outputs of the module `key` its known callers read
    /// (`None`: every one, or not known), for the `unused-output` hint.
    pub fn set_read_outputs(&self, key: Key, read: Option<std::collections::BTreeSet<String>>) {
        match read {
            Some(read) => self.read_outputs.locked().insert(key, Arc::new(read)),
            None => self.read_outputs.locked().remove(&key),
        };
    }

    /// Says that the module `key` has no known caller (again): it is a
    /// root, whose untyped variables' defaults are all used.
    pub fn clear_passed(&self, key: &Key) {
        self.passed.locked().remove(key);
    }

    /// The modules whose analysis read one of `dirs` (a callee's, or a
    /// symbol library's).
    pub fn callers(&self, dirs: &HashSet<PathBuf>) -> HashSet<Key> {
        let dirs: HashSet<PathBuf> = dirs.iter().map(|d| normalize(d)).collect();
        let mut out: HashSet<Key> = self
            .reads
            .locked()
            .iter()
            .filter(|(_, read)| read.iter().any(|r| dirs.contains(r)))
            .map(|(caller, _)| caller.clone())
            .collect();
        let libraries = self.libraries.locked();
        out.extend(libraries.iter().filter(|(_, ds)| ds.iter().any(|d| dirs.contains(d))).map(|(k, _)| k.clone()));
        let read = self.files_read.locked();
        out.extend(read.iter().filter(|(_, (ds, _))| ds.iter().any(|d| dirs.contains(d))).map(|(k, _)| k.clone()));
        out
    }

    /// A module none of whose documents is open any more: what was kept
    /// for its calls goes, unless another open module still needs it.
    pub fn forget(&self, (dir, family): &Key) {
        let key = (normalize(dir), *family);
        if *family == Family::Pcl {
            self.plugins.locked().remove(&key.0);
        }
        self.prepared.locked().remove(&key);
        self.libraries.locked().remove(&key);
        self.files_read.locked().remove(&key);
        if self.reads.locked().remove(&key).is_some() {
            self.prune();
        }
    }

    /// The text of a file of a called module (for a definition there).
    pub fn text(&self, sources: &Sources, path: &Path) -> Option<Text> {
        self.texts(sources, [path.to_path_buf()]).pop().map(|(_, t)| t)
    }

    /// The document of a file of a called module (a JSON file's carries the
    /// map from its lowering to the JSON: `Document::shown_range`).
    pub fn document(&self, sources: &Sources, path: &Path) -> Option<Document> {
        let (dir, family) = crate::documents::module_key(path)?;
        sources.module(&dir, family).into_iter().find(|d| d.file.path == path)
    }

    /// The texts of files of called modules (for related locations there).
    pub fn texts(&self, files: &Sources, paths: impl IntoIterator<Item = PathBuf>) -> Vec<(PathBuf, Text)> {
        let mut by_dir: HashMap<(PathBuf, Family), Vec<PathBuf>> = HashMap::new();
        for p in paths {
            if let (Some(key), Some(_)) = (crate::documents::module_key(&p), FileKind::for_path(&p)) {
                by_dir.entry(key).or_default().push(p);
            }
        }
        let mut out = Vec::new();
        for ((dir, family), wanted) in by_dir {
            for d in files.module(&dir, family) {
                if wanted.contains(&d.file.path) {
                    out.push((d.file.path.clone(), d.file.text.clone()));
                }
            }
        }
        out
    }

    /// A PCL program's schemas: the settings' files and the package
    /// schemas Pulumi cached for the packages it names (looked for again
    /// when the names change, and every 10 s while some has none).
    fn pcl_schemas(&self, settings: &Settings, dir: &Path, docs: &[Document]) -> Option<Arc<schema::Schemas>> {
        let cached = {
            let mut plugins = self.plugins.locked();
            let p = plugins.entry(dir.to_path_buf()).or_default();
            let mut changed = p.names.is_none();
            for d in docs {
                let (rev, mut old) = p.docs.remove(&d.file.path).unwrap_or_default();
                // Items the edit kept are the same ids at both ends: the
                // document's edits say how many, or they are compared.
                let (front, back) = d
                    .unchanged_since(rev)
                    .filter(|&(front, back)| front + back <= old.len().min(d.items.len()))
                    .unwrap_or_else(|| {
                        let front = old.iter().zip(d.items.iter()).take_while(|(o, i)| o.0 == i.id).count();
                        let back = (old[front..].iter().rev().zip(d.items[front..].iter().rev()))
                            .take_while(|(o, i)| o.0 == i.id)
                            .count();
                        (front, back)
                    });
                let came: Vec<_> = (d.items[front..d.items.len() - back].iter())
                    .map(|item| {
                        let text = d.file.text.get(item.range.clone()).unwrap_or("");
                        (item.id, schema::pulumi::packages_named(text))
                    })
                    .collect();
                for (_, named) in &came {
                    changed |= p.count(named, true);
                }
                // In place: the items after the edit are not copied.
                let gone: Vec<_> = old.splice(front..old.len() - back, came).collect();
                for (_, named) in gone {
                    changed |= p.count(&named, false);
                }
                p.docs.insert(d.file.path.clone(), (d.revision(), old));
            }
            let closed: Vec<PathBuf> =
                p.docs.keys().filter(|path| !docs.iter().any(|d| d.file.path == **path)).cloned().collect();
            for path in closed {
                for (_, gone) in p.docs.remove(&path).unwrap_or_default().1 {
                    changed |= p.count(&gone, false);
                }
            }
            let missing = p.paths.len() < p.counts.len() && p.looked.is_none_or(|t| t.elapsed() > LOOK_AGAIN);
            if changed || missing {
                let names: Vec<String> = p.counts.keys().cloned().collect();
                p.looked = Some(std::time::Instant::now());
                p.paths = crate::schemas::plugin_cache(&names)
                    .into_iter()
                    .filter(|path| crate::schemas::read_cached(path, schema::pulumi::load_package).is_ok())
                    .collect();
                p.names = Some(names);
                p.built = None;
            }
            if p.paths.is_empty() {
                return settings.schemas.clone();
            }
            let packages: Vec<PathBuf> =
                settings.package_files.iter().cloned().chain(p.paths.iter().cloned()).collect();
            match &p.built {
                Some((providers, built, schemas)) if *providers == settings.provider_files && *built == packages => {
                    return schemas.clone();
                }
                _ => packages,
            }
        };
        let all = crate::schemas::from_files(&settings.provider_files, &cached).ok().map(Arc::new);
        if let Some(p) = self.plugins.locked().get_mut(dir) {
            p.built = Some((settings.provider_files.clone(), cached, all.clone()));
        }
        all
    }

    /// Whether a task should start waiting for the own schema of `dir`
    /// (it is being printed and nobody waits for it yet).
    pub fn wait_for_schema(&self, settings: &Settings, dir: &Path) -> bool {
        settings.schema_pending(dir) && self.waiting.locked().insert(dir.to_path_buf())
    }

    /// The own schema of `dir` is no longer waited for.
    pub fn schema_done(&self, dir: &Path) {
        self.waiting.locked().remove(dir);
    }

    fn prune(&self) {
        let keep: HashSet<PathBuf> = self.reads.locked().values().flat_map(|r| r.iter()).cloned().collect();
        self.workspace.locked().retain(&keep);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The set of package names changes exactly when a name's first item
    /// comes or its last one goes.
    #[test]
    fn package_names_change_when_a_count_comes_to_or_leaves_zero() {
        let mut p = Plugins::default();
        let names = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert!(p.count(&names(&["aws", "random"]), true));
        assert!(!p.count(&names(&["aws"]), true), "aws was named already");
        assert!(!p.count(&names(&["aws"]), false), "another item still names aws");
        assert!(p.count(&names(&["aws"]), false), "no item names aws any more");
        assert!(!p.count(&names(&["gcp"]), false), "never named");
        assert_eq!(p.counts.keys().collect::<Vec<_>>(), ["random"]);
    }
}
