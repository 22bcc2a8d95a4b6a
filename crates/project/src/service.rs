//! The module service both front ends ask for a module's analysis and
//! diagnostics (issue 46.2; biome's `Workspace` is the model): it holds
//! the module graph ([`Graph`]: callees, who reads whom, schemas), the
//! disk's module files, the one store of modules' memos (open modules'
//! and the closed ones a workspace pull keeps), and which modules call
//! which (the workspace scan, and what their callers
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
use analysis::module::Shared;
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

/// A module's memo in the store, and what keeps it there.
#[derive(Default)]
struct Stored {
    memo: SharedMemo,
    /// One of the module's documents is open.
    open: bool,
    /// A workspace pull keeps it (a closed caller of open modules).
    kept: bool,
}

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
    /// The one store of memos (issue 46.2): an open module's, from when
    /// a request or refresh first asks for it until its last document
    /// closes, and those of modules nobody has open that are analysed
    /// again and again (a workspace pull's closed callers of open
    /// modules). A module's is one memo, open or closed.
    memos: Mutex<HashMap<Key, Stored>>,
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

    /// The memo of a module one of whose documents is open, kept until
    /// [`Self::module_closed`] (taken under the state lock, as the open
    /// documents are: the store is a leaf of the lock order).
    pub fn open_memo(&self, key: &Key) -> SharedMemo {
        let mut memos = self.memos.locked();
        let stored = memos.entry(key.clone()).or_default();
        stored.open = true;
        stored.memo.clone()
    }

    /// The last open document of a module closed: its memo leaves the
    /// store, unless a workspace pull keeps it; returned, to be freed off
    /// the message loop.
    pub fn module_closed(&self, key: &Key) -> Option<SharedMemo> {
        let mut memos = self.memos.locked();
        let stored = memos.get_mut(key)?;
        stored.open = false;
        match stored.kept {
            true => None,
            false => memos.remove(key).map(|s| s.memo),
        }
    }

    /// The memo of a closed module: the one in the store, else a new one,
    /// stored when `keep`.
    pub fn closed_memo(&self, key: &Key, keep: bool) -> SharedMemo {
        let mut memos = self.memos.locked();
        match memos.get_mut(key) {
            Some(stored) => {
                stored.kept |= keep;
                stored.memo.clone()
            }
            None if keep => memos.entry(key.clone()).or_insert(Stored { kept: true, ..Stored::default() }).memo.clone(),
            None => SharedMemo::default(),
        }
    }

    /// Keeps only the closed memos of the modules `keep` accepts (open
    /// modules' stay); the modules whose memos are no longer kept.
    pub fn keep_closed(&self, keep: impl Fn(&Key) -> bool) -> Vec<Key> {
        let mut memos = self.memos.locked();
        let mut gone = Vec::new();
        for (key, stored) in memos.iter_mut().filter(|(k, s)| s.kept && !keep(k)) {
            stored.kept = false;
            gone.push(key.clone());
        }
        memos.retain(|_, s| s.open || s.kept);
        gone
    }

    /// Done with a module for now: unless it is `open` or its memo is
    /// kept, what the graph kept for its calls goes.
    pub fn done_with(&self, key: &Key, open: bool) {
        if !open && !self.memos.locked().get(key).is_some_and(|s| s.kept) {
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
    match analysis.diagnostics.get(i) {
        Some(diags) if !excluded(docs, i, settings) => analysis::shown_diagnostics(docs, i, diags),
        _ => Cow::Borrowed(&[]),
    }
}

/// [`diagnostics`] for a front end that takes `docs[i]`'s list out of the
/// analysis (`diags`, not copied while nobody else holds it) and adds its
/// own warnings about the file (`more`: a file of the module not read, a
/// configuration file not used), which an excluded file still shows.
pub fn shown<'a>(
    docs: &[Document],
    i: usize,
    diags: &'a mut Shared<Vec<Diagnostic>>,
    more: impl IntoIterator<Item = Diagnostic>,
    settings: &Settings,
) -> Cow<'a, [Diagnostic]> {
    if excluded(docs, i, settings) {
        *diags = Shared::default();
    }
    let mut more = more.into_iter().peekable();
    if more.peek().is_some() {
        diags.extend(more);
    }
    analysis::shown_diagnostics(docs, i, diags)
}

/// Whether the configuration excludes `docs[i]`: it is shown nothing of
/// its module's analysis, as `check` leaves it out.
fn excluded(docs: &[Document], i: usize, settings: &Settings) -> bool {
    docs.get(i).is_some_and(|d| settings.excluded(&d.file.path))
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
    /// with [`Service::keep_closed`]. (Since issue 46.2 the store also
    /// holds open modules' memos, `one_store_holds_open_and_closed_memos`.)
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

    /// Issue 46.2, one store: an open module's memo is the one a
    /// workspace pull kept while it was closed (and the one it asks for
    /// while it is open); its close frees it unless the pull keeps it; a
    /// pull that no longer keeps it leaves an open module's memo alone.
    #[test]
    fn one_store_holds_open_and_closed_memos() {
        let service = Service::default();
        let key: Key = (PathBuf::from("/m"), Family::Terraform);
        let kept = service.closed_memo(&key, true);
        let open = service.open_memo(&key);
        assert!(Arc::ptr_eq(&kept, &open), "a kept closed memo is the module's when it opens");
        assert!(Arc::ptr_eq(&open, &service.closed_memo(&key, false)));
        assert!(service.module_closed(&key).is_none(), "kept by the pull, it stays");
        assert!(Arc::ptr_eq(&open, &service.closed_memo(&key, false)));
        // Open again; the pull lets it go: the open memo stays.
        let again = service.open_memo(&key);
        assert!(Arc::ptr_eq(&open, &again));
        assert_eq!(service.keep_closed(|_| false), std::slice::from_ref(&key));
        assert!(Arc::ptr_eq(&again, &service.open_memo(&key)));
        // Its last document closes: the memo leaves the store.
        let freed = service.module_closed(&key).expect("an open module's memo");
        assert!(Arc::ptr_eq(&freed, &again));
        assert!(!Arc::ptr_eq(&again, &service.closed_memo(&key, false)));
        assert!(service.module_closed(&key).is_none());
    }

    /// The server's publications take a file's list through the same
    /// exclusion as `check` and pull ([`shown`]): an excluded file shows
    /// only the front end's own warnings about it.
    #[test]
    fn an_excluded_file_shows_only_the_front_ends_own_warnings() {
        let bad = "output \"o\" {\n  value = var.nope\n}\n";
        let docs = vec![doc("/m/a.tf", bad), doc("/m/b.tf", bad)];
        let analysis = Memo::default().analysis(&docs);
        let mut settings = Settings::default();
        let exclude = crate::exclude::Exclude::new(&[(PathBuf::from("/m"), "a.tf".into())]).unwrap();
        settings.exclude = Some(Arc::new(exclude));
        let note = Diagnostic::new(Code::FileNotRead, 0..0, "`c.tf` of this module was not read".to_string());
        let mut taken = analysis.diagnostics[0].clone();
        assert_eq!(shown(&docs, 0, &mut taken, [note.clone()], &settings)[..], *std::slice::from_ref(&note));
        let mut taken = analysis.diagnostics[1].clone();
        let mut want = analysis.diagnostics[1].to_vec();
        want.push(note.clone());
        assert_eq!(shown(&docs, 1, &mut taken, [note], &settings)[..], want[..]);
    }
}
