//! The module service both front ends ask for a module's analysis and
//! diagnostics (issue 46.2; biome's `Workspace` is the model): it holds
//! the module graph ([`Graph`]: callees, who reads whom, schemas), the
//! disk's module files, the memos of analysed modules nobody has open, and
//! which modules call which (the workspace scan, and what their callers
//! pass). Before a module is analysed it gathers the module's inputs (what
//! its callers pass, then its callees, generated files and schemas through
//! the graph); after, it applies exclusion and the file's own offsets once
//! ([`diagnostics`]), and holds the one severity rule both print and
//! publish with ([`effective_severity`]). `check` and the server analyse
//! only through it.

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use analysis::callers::prescan;
use analysis::sync::Locked;
use analysis::workspace::Files;
use analysis::{Document, Family, Memo, ModuleAnalysis, SourceFile, Stop};
use syntax::diagnostic::{Code, Diagnostic, Severity};

use crate::callers::Scan;
use crate::disk::Disk;
use crate::graph::{key_of, Graph, Key, Sources};
use crate::settings::Settings;

/// A module's memo, shared by whoever analyses it.
pub type SharedMemo = Arc<Mutex<Memo>>;

/// What a module's set of passed variables was last worked out from (the
/// scan's address, each caller's texts' ids) and the set (`None`: no
/// caller, a root).
type Stamp = (usize, Vec<(Key, Vec<u64>)>);
/// What callers set, and which outputs they read (`None`: all).
type Worked = (Stamp, (Option<BTreeSet<String>>, analysis::callers::OutputReads));

#[derive(Default)]
pub struct Service {
    pub graph: Arc<Graph>,
    pub disk: Arc<Disk>,
    /// Whether the front end tells the graph what callers pass itself
    /// (`check` knows every caller it checks); else the service works it
    /// out from the scan before each analysis.
    known_callers: bool,
    /// The memos of modules nobody has open that are analysed again and
    /// again (a workspace pull's closed callers of open modules).
    closed: Mutex<HashMap<Key, SharedMemo>>,
    /// The workspace folders, and their modules' calls once scanned (again
    /// after files change).
    roots: Mutex<Vec<PathBuf>>,
    scan: Mutex<Option<Arc<Scan>>>,
    /// Per module: what its callers set, and what it was worked out from.
    passed: Mutex<HashMap<Key, Worked>>,
}

impl Service {
    /// `check`'s service: it says what callers pass itself, on its own disk.
    pub fn for_check() -> Service {
        Service { known_callers: true, ..Default::default() }
    }

    /// The module's analysis: what its callers pass, then its calls,
    /// generated files and schemas gathered first; `None` when `stop`
    /// said to stop.
    pub fn analyse(
        &self,
        sources: &Sources,
        docs: &[Document],
        memo: &mut Memo,
        stop: Stop,
    ) -> Option<Arc<ModuleAnalysis>> {
        if stop.now() {
            return None;
        }
        self.prepare(sources, docs, memo);
        let analysis = memo.analysis_unless(docs, stop);
        self.graph.note_files_read(sources, docs, memo);
        analysis
    }

    /// The module's memo brought up to what its inputs are now, without
    /// analysing it (for requests that read the context alone).
    pub fn prepare(&self, sources: &Sources, docs: &[Document], memo: &mut Memo) {
        self.note_passed(sources, docs);
        self.graph.prepare(sources, docs, memo)
    }

    /// The memo of a closed module: the one kept for it, else a new one,
    /// kept when `keep`.
    pub fn closed_memo(&self, key: &Key, keep: bool) -> SharedMemo {
        let mut closed = self.closed.locked();
        match keep {
            true => closed.entry(key.clone()).or_default().clone(),
            false => closed.get(key).cloned().unwrap_or_default(),
        }
    }

    /// Keeps only the closed memos of the modules `keep` accepts; the
    /// modules whose memos went.
    pub fn keep_closed(&self, keep: impl Fn(&Key) -> bool) -> Vec<Key> {
        let mut closed = self.closed.locked();
        let gone = closed.keys().filter(|k| !keep(k)).cloned().collect();
        closed.retain(|k, _| keep(k));
        gone
    }

    /// Done with a module for now: unless it is `open` or its memo is
    /// kept, what the graph kept for its calls goes.
    pub fn done_with(&self, key: &Key, open: bool) {
        if !open && !self.closed.locked().contains_key(key) {
            self.graph.forget(key);
        }
    }

    /// The workspace folders whose modules [`Self::scan`] reads.
    pub fn set_roots(&self, roots: Vec<PathBuf>) {
        *self.roots.locked() = roots;
    }

    /// Files changed on disk in these directories: their modules may call
    /// others now.
    pub fn files_changed<'a>(&self, dirs: impl IntoIterator<Item = &'a std::path::Path>) {
        if let Some(scan) = self.scan.locked().as_mut() {
            let scan = Arc::make_mut(scan);
            for dir in dirs {
                scan.update(dir);
            }
        }
    }

    /// Which modules of the workspace folders call which (read once; a
    /// second caller meanwhile waits for that read instead of its own).
    pub fn scan(&self) -> Arc<Scan> {
        let roots = self.roots.locked().clone();
        self.scan.locked().get_or_insert_with(|| Arc::new(Scan::new(&roots))).clone()
    }

    /// The modules that call `key` directly, as far as the service knows.
    pub fn callers_of(&self, key: &Key) -> (usize, Vec<Key>) {
        let scan = self.scan();
        let mut callers = scan.calling(key);
        callers.extend(self.graph.callers(&std::iter::once(key.0.clone()).collect()));
        callers.retain(|c| c != key);
        callers.sort();
        callers.dedup();
        (Arc::as_ptr(&scan) as usize, callers)
    }

    /// Before the module of `docs` is analysed: tells the graph which
    /// variables its callers set (and which of its outputs they read), so that an untyped variable's default is
    /// used only where some known caller omits it (analysis.md §3.2). The
    /// callers are the scan's and the modules whose analysis read the
    /// module's directory, their texts the sources'. Worked out again only
    /// when the scan or a caller's text changed. Says whether it changed.
    pub fn note_passed(&self, s: &Sources, docs: &[Document]) -> bool {
        if self.known_callers {
            return false;
        }
        let Some(key) = docs.first().and_then(|d| key_of(&d.file.path)) else { return false };
        let (scan, callers) = self.callers_of(&key);
        // Only a Terraform module's calls have arguments read here; any
        // other caller (a Terragrunt unit, a test, a component) sets none.
        let files: Vec<(Key, Vec<SourceFile>)> = callers
            .into_iter()
            .map(|c| {
                let files = match c.1 {
                    Family::Terraform => s.module(&c.0, c.1).into_iter().map(|d| d.file).collect(),
                    _ => Vec::new(),
                };
                (c, files)
            })
            .collect();
        let ids = files.iter().map(|(c, fs)| (c.clone(), fs.iter().map(|f| f.text.id()).collect()));
        let stamp: Stamp = (scan, ids.collect());
        if self.passed.locked().get(&key).is_some_and(|(was, _)| *was == stamp) {
            return false;
        }
        let worked = if files.iter().any(|(c, _)| c.1 != Family::Terraform) {
            (Some(BTreeSet::new()), None)
        } else {
            let hints: Vec<_> = files
                .iter()
                .map(|(_, fs)| prescan(fs.iter().map(|f| (f.kind, f.path.as_path(), f.text.as_str()))))
                .collect();
            let callers = || files.iter().zip(&hints).map(|((c, fs), h)| (c.0.as_path(), fs.as_slice(), h.as_slice()));
            let set = crate::passed::passed(&self.graph, s, callers()).remove(&key);
            (set, crate::passed::output_reads(&self.graph, s, callers()).remove(&key).flatten())
        };
        match &worked.0 {
            Some(set) => self.graph.set_passed(key.clone(), set.clone()),
            None => self.graph.clear_passed(&key),
        }
        self.graph.set_read_outputs(key.clone(), worked.1.clone());
        let before = self.passed.locked().insert(key, (stamp, worked.clone()));
        before.is_none_or(|(_, was)| was != worked)
    }
}

/// The diagnostics of `docs[i]` from its module's analysis, as both front
/// ends show them: nothing for a file the configuration excludes (`check`
/// leaves it out), in the file's own offsets (a JSON file's, not its
/// lowering's).
pub fn diagnostics<'a>(
    docs: &[Document],
    i: usize,
    analysis: &'a ModuleAnalysis,
    settings: &Settings,
) -> Cow<'a, [Diagnostic]> {
    let excluded = docs.get(i).is_some_and(|d| settings.excluded(&d.file.path));
    match analysis.diagnostics.get(i) {
        Some(diags) if !excluded => analysis::shown_diagnostics(docs, i, diags),
        _ => Cow::Borrowed(&[]),
    }
}

/// A diagnostic's severity after the overrides (the configuration's
/// `severity`, the command line's `--severity`): `None` when its code is
/// turned off (or is off unless named: `Code::on_by_default`). The one
/// rule `check`'s printers and the server's publications apply.
pub fn effective_severity(d: &Diagnostic, overrides: &BTreeMap<Code, Option<Severity>>) -> Option<Severity> {
    match overrides.get(&d.code) {
        Some(s) => *s,
        None => d.code.on_by_default().then_some(d.severity),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use analysis::FileKind;
    use std::path::Path;

    fn doc(path: &str, text: &str) -> Document {
        let path = PathBuf::from(path);
        let (kind, dialect) = (FileKind::for_path(&path).unwrap(), analysis::dialect_of(&path));
        Document::parse(SourceFile { path, text: Arc::new(text.to_string().into()), kind, dialect })
    }

    /// A file the configuration excludes shows nothing, in the server as in
    /// `check`; the others their module's diagnostics.
    #[test]
    fn an_excluded_file_shows_no_diagnostics() {
        let bad = "output \"o\" {\n  value = var.nope\n}\n";
        let docs = vec![doc("/m/a.tf", bad), doc("/m/b.tf", bad)];
        let analysis = Memo::default().analysis(&docs);
        let mut settings = Settings::default();
        let exclude = crate::exclude::Exclude::new(&[(PathBuf::from("/m"), "a.tf".into())]).unwrap();
        settings.exclude = Some(Arc::new(exclude));
        assert!(settings.excluded(Path::new("/m/a.tf")));
        assert!(!analysis.diagnostics[0].is_empty(), "{:?}", analysis.diagnostics);
        assert!(diagnostics(&docs, 0, &analysis, &settings).is_empty());
        assert_eq!(diagnostics(&docs, 1, &analysis, &settings)[..], analysis.diagnostics[1][..]);
    }

    /// A closed module's memo is kept only when asked, and kept memos go
    /// with [`Service::keep_closed`].
    #[test]
    fn closed_memos_are_kept_when_asked_and_dropped_when_no_longer_wanted() {
        let service = Service::default();
        let key: Key = (PathBuf::from("/m"), Family::Terraform);
        let not_kept = service.closed_memo(&key, false);
        assert!(!Arc::ptr_eq(&not_kept, &service.closed_memo(&key, false)));
        let kept = service.closed_memo(&key, true);
        assert!(Arc::ptr_eq(&kept, &service.closed_memo(&key, false)));
        assert_eq!(service.keep_closed(|_| false), std::slice::from_ref(&key));
        assert!(!Arc::ptr_eq(&kept, &service.closed_memo(&key, false)));
    }
}
