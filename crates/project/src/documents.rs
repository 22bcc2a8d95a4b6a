//! The documents an editor has open, the session's settings, and the
//! module around a document: its siblings from disk ([`Disk`]), with open
//! documents winning over disk copies. Plain paths and texts: the
//! language server turns URIs and positions into them (`from_proto`).
//! Texts and versions only: a module's memo is the module service's
//! ([`Service`], the one store), handed out with the open documents.

use std::collections::{HashMap, HashSet};
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::disk::{Disk, Wanted};
use crate::service::{Service, SharedMemo};
pub use crate::settings::{Session, Settings};
use ropey::Rope;

use analysis::document::common_ends;
use analysis::{Document, Family, FileKind, SourceFile, Text, TextBuf};

/// A document the editor has open: its text, and its parse kept current
/// edit by edit (only the items an edit touches are parsed again).
#[derive(Debug)]
pub struct Open {
    /// The URI the editor names it by, as it sent it.
    pub uri: String,
    pub rope: Rope,
    pub version: i32,
    /// The parse, and the version it is of: a version names one text, so
    /// an unchanged document is not copied out of its rope and compared.
    pub doc: Option<(i32, Document)>,
    /// The changes to the parsed text since, as (bytes replaced, new
    /// text), while known: a large text is then copied once per edit
    /// instead of gathered from the rope.
    changes: Option<Vec<(Range<usize>, String)>>,
    /// The server's sequence number when it was opened: results of an
    /// analysis of an earlier opening of the same path are never published.
    pub opened: u64,
    /// Which text was parsed last, and how it came from the one parsed
    /// before it (so a publication need not compare the two texts).
    edit: Option<Edit>,
}

/// A parsed text of an open document: `text` names it (numbered across
/// the server; the text itself may be changed in place by the next edit,
/// so its address names nothing), and it is the text `before` named with
/// its `replaced` bytes giving way to `inserted` bytes (`before` is 0
/// after a parse from scratch).
#[derive(Clone, Debug)]
pub struct Edit {
    pub text: u64,
    pub before: u64,
    pub replaced: Range<usize>,
    pub inserted: usize,
}

fn next_text() -> u64 {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
    NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}

impl Open {
    pub fn new(uri: String, text: &str, version: i32, opened: u64) -> Open {
        Open { uri, rope: Rope::from_str(text), version, doc: None, changes: None, opened, edit: None }
    }

    /// Applies one change to the text: `change` edits the rope in place
    /// and says which bytes it replaced by `new` (`None`: the whole text),
    /// so the next parse copies and re-parses only what changed.
    pub fn apply(&mut self, change: impl FnOnce(&mut Rope) -> Option<Range<usize>>, new: &str) {
        match (change(&mut self.rope), &mut self.changes) {
            (Some(range), Some(changes)) => changes.push((range, new.to_owned())),
            _ => self.changes = None,
        }
    }

    /// Brings the parse up to the rope's text.
    fn parsed(&mut self, path: &Path, settings: &Settings) -> Document {
        let dialect = settings.dialect_for(path);
        if let Some((version, d)) = &self.doc {
            if *version == self.version && d.file.dialect == dialect {
                return d.clone();
            }
        }
        if self.rope.len_bytes() as u64 > crate::fsread::SOURCE_CAP {
            return self.unanalysed(path, dialect);
        }
        let before = self.edit.take().map_or(0, |e| e.text);
        // One left unanalysed is parsed whole.
        if self.doc.as_ref().is_some_and(|(_, d)| d.is_unanalysed()) {
            (self.doc, self.changes) = (None, None);
        }
        // The new text, and the last parse with the bytes that changed.
        let (text, last) = match (self.doc.take(), self.changes.as_deref()) {
            // A JSON file's document holds its lowering, not its text.
            (Some((_, mut d)), Some([(range, new)]))
                if within(&d.file.text, range) && !syntax::json::is_json_path(path) =>
            {
                (replaced(&mut d.file.text, range.clone(), new), Some((d, range.clone(), new.len())))
            }
            (Some((_, d)), _) => {
                let text = self.rope.to_string();
                // Against the text the client edits (a JSON file's own, not its lowering).
                let old = d.shown_text();
                let (prefix, suffix) = common_ends(old.as_bytes(), text.as_bytes());
                let change = (prefix..old.len() - suffix, text.len() - suffix - prefix);
                (Arc::new(text.into()), Some((d, change.0, change.1)))
            }
            (None, _) => (Arc::new(self.rope.to_string().into()), None),
        };
        self.changes = Some(Vec::new());
        let file = SourceFile {
            path: path.to_path_buf(),
            text,
            kind: FileKind::for_path(path).unwrap_or(FileKind::Hcl),
            dialect,
        };
        let text = next_text();
        let doc = match last {
            Some((d, replaced, inserted)) => {
                self.edit = Some(Edit { text, before, replaced: replaced.clone(), inserted });
                d.edited_at(file, replaced, inserted)
            }
            None => {
                self.edit = Some(Edit { text, before: 0, replaced: 0..0, inserted: 0 });
                Document::parse(file)
            }
        };
        self.doc = Some((self.version, doc.clone()));
        doc
    }

    /// An open document over [`SOURCE_CAP`](crate::fsread::SOURCE_CAP),
    /// the size that bounds one file's memory: not parsed (as a file on
    /// disk that large is not read), one `file-not-read` warning.
    fn unanalysed(&mut self, path: &Path, dialect: syntax::Dialect) -> Document {
        let why = format!(
            "larger than {} MiB: not analysed (the size limit that bounds a file's memory)",
            crate::fsread::SOURCE_CAP >> 20
        );
        let diagnostic = syntax::diagnostic::Diagnostic::new(syntax::diagnostic::Code::FileNotRead, 0..0, why);
        let text = Arc::new(self.rope.to_string().into());
        let kind = FileKind::for_path(path).unwrap_or(FileKind::Hcl);
        let doc = Document::unanalysed(SourceFile { path: path.to_path_buf(), text, kind, dialect }, diagnostic);
        (self.changes, self.edit) = (None, None);
        self.doc = Some((self.version, doc.clone()));
        doc
    }

    /// Re-parses the edited items now, so analysis later starts from them.
    pub fn reparse(&mut self, path: &Path, settings: &Settings) {
        self.parsed(path, settings);
    }
}

/// Whether `range` is a range of whole characters of `text`.
fn within(text: &str, range: &Range<usize>) -> bool {
    range.start <= range.end && text.get(range.clone()).is_some()
}

/// `text` with the bytes of `range` replaced by `new`, changed in place
/// when nothing else holds it (between keystrokes only the document's parse
/// does; see [`TextBuf::replace`]), else copied once, with room: a 10 MB
/// text allocated, copied and freed per keystroke cost about a
/// millisecond. `text` itself is left empty.
pub fn replaced(text: &mut Text, range: Range<usize>, new: &str) -> Text {
    let mut taken = std::mem::take(text);
    if let Some(s) = Arc::get_mut(&mut taken) {
        if s.replace(range.clone(), new) {
            return taken;
        }
    }
    let mut copy = TextBuf::with_room(&taken);
    copy.replace(range, new);
    Arc::new(copy)
}

#[derive(Debug, Default)]
pub struct Documents {
    pub open: HashMap<PathBuf, Open>,
    pub settings: Settings,
    /// Open documents that are not files (`untitled:`, `git:`, …): the
    /// made-up path each is analysed under, alone (but see `homes`).
    virtual_paths: HashMap<String, PathBuf>,
    made_up: u64,
    /// For a `git:` document (a diff view's old text): the directory of
    /// its file, whose other files it is analysed with, read-only.
    homes: HashMap<PathBuf, PathBuf>,
    /// The configuration files in force, and the settings merged with them.
    configs: crate::nearest::Nearest,
}

/// A module snapshot to analyse off the message loop.
pub struct Snapshot {
    pub docs: Vec<Document>,
    /// For each open document of the module: its index, URI, version,
    /// text, when it was opened (see [`Open::opened`]) and its last edit.
    pub open: Vec<(usize, String, i32, Rope, u64, Option<Edit>)>,
    /// What earlier analyses of the module found, to reuse (the
    /// service's, [`Service::open_memo`]).
    pub memo: SharedMemo,
}

/// What the state lock gives of a module: its open documents and memo.
/// The files that are not open come from disk, off the lock ([`Self::complete`]).
pub struct Partial {
    path: PathBuf,
    dir: PathBuf,
    /// The directory to read the other files from, when not `dir`.
    home: Option<PathBuf>,
    family: Family,
    docs: Vec<Document>,
    open: Vec<(PathBuf, String, i32, Rope, u64, Option<Edit>)>,
    memo: SharedMemo,
    pub settings: Settings,
}

impl Partial {
    /// What it needs from disk, given the files not to read.
    fn wanted<'a>(&'a self, skip: &'a HashSet<PathBuf>) -> Wanted<'a> {
        let dir = self.home.as_deref().unwrap_or(&self.dir);
        Wanted { dir, family: self.family, skip, also: Some(&self.path), settings: &self.settings }
    }

    /// The files not to read: the open ones, and the file a `git:`
    /// document is an old text of.
    fn open_paths(&self) -> HashSet<PathBuf> {
        let mut skip: HashSet<PathBuf> = self.docs.iter().map(|d| d.file.path.clone()).collect();
        if let (Some(home), Some(name)) = (&self.home, self.path.file_name()) {
            skip.insert(home.join(name));
        }
        skip
    }

    /// The whole module: the open documents and the other files from disk.
    pub fn complete(self, disk: &Disk, recheck: bool) -> Option<(Snapshot, usize)> {
        let skip = self.open_paths();
        let from_disk = disk.module(&self.wanted(&skip), recheck);
        self.with(from_disk)
    }

    /// The files [`Self::complete`] would take from disk, when that needs
    /// no disk access nor much work ([`Disk::known`]).
    pub fn known(&self, disk: &Disk) -> Option<Vec<Document>> {
        disk.known(&self.wanted(&self.open_paths()))
    }

    /// The whole module, with these files from disk.
    pub fn with(self, from_disk: Vec<Document>) -> Option<(Snapshot, usize)> {
        let mut docs = self.docs;
        docs.extend(from_disk);
        docs.sort_by(|a, b| a.file.path.cmp(&b.file.path));
        let index = docs.iter().position(|d| d.file.path == self.path)?;
        let open = self
            .open
            .into_iter()
            .filter_map(|(p, uri, version, rope, opened, edit)| {
                Some((docs.iter().position(|d| d.file.path == p)?, uri, version, rope, opened, edit))
            })
            .collect();
        Some((Snapshot { docs, open, memo: self.memo }, index))
    }
}

/// What closing a document leaves to free off the message loop.
#[derive(Default)]
pub struct Closed {
    pub open: Option<Open>,
    /// The module, when no document of it is open any more.
    pub module: Option<(PathBuf, Family)>,
    /// Its memo then, unless a workspace pull keeps it
    /// ([`Service::module_closed`]).
    pub memo: Option<SharedMemo>,
    /// The directory, when none of its documents is open any more.
    pub dir: Option<PathBuf>,
}

/// The directory and family a document's module is made of.
pub fn module_key(path: &Path) -> Option<(PathBuf, Family)> {
    let family = analysis::family_of(path).unwrap_or(Family::Hcl);
    Some((analysis::unit_of(path, family)?, family))
}

impl Documents {
    /// The path a document that is no file (`untitled:`, `git:`, …) is
    /// analysed under, by its URI, once [`Self::make_up`] gave it one.
    pub fn virtual_path(&self, uri: &str) -> Option<PathBuf> {
        self.virtual_paths.get(uri).cloned()
    }

    /// Makes up a path for a new document that is not a file: in a
    /// directory of its own that no file system has (it starts with NUL),
    /// with this file `name` (its kind and dialect follow the name).
    /// `home`: the directory of the file it is an old text of (a `git:`
    /// document in a diff view), whose other files it is analysed with.
    pub fn make_up(&mut self, uri: &str, name: &str, home: Option<PathBuf>) -> PathBuf {
        self.made_up += 1;
        let dir = PathBuf::from(format!("\0{}", self.made_up));
        if let Some(home) = home {
            self.homes.insert(dir.clone(), home);
        }
        let path = dir.join(name);
        self.virtual_paths.insert(uri.to_owned(), path.clone());
        path
    }

    /// Closes a document; what its module no longer needs goes with it
    /// (its memo leaves `service`'s store with its last document).
    pub fn close(&mut self, path: &Path, service: &Service) -> Closed {
        let Some(open) = self.open.remove(path) else { return Closed::default() };
        self.virtual_paths.remove(&open.uri);
        let Some(key) = module_key(path) else { return Closed { open: Some(open), ..Closed::default() } };
        let still = |k: &(PathBuf, Family)| self.open.keys().any(|p| module_key(p).as_ref() == Some(k));
        let module = (!still(&key)).then(|| key.clone());
        let memo = module.as_ref().and_then(|k| service.module_closed(k));
        let dir = self.homes.remove(&key.0).unwrap_or(key.0);
        let in_use = self.open.keys().any(|p| self.reads(p) == Some(dir.as_path()));
        Closed { open: Some(open), module, memo, dir: (!in_use).then_some(dir) }
    }

    /// The directory of the file a `git:` document's made-up directory
    /// stands for (none for an `untitled:` one).
    pub fn home(&self, dir: &Path) -> Option<PathBuf> {
        self.homes.get(dir).cloned()
    }

    /// The directory whose files the module of `path` reads from disk.
    pub fn reads<'a>(&'a self, path: &'a Path) -> Option<&'a Path> {
        let dir = path.parent()?;
        Some(self.homes.get(dir).map_or(dir, PathBuf::as_path))
    }

    /// Drops the trees of these files' current parses (open documents,
    /// else disk copies) in place, where nothing else shares their items
    /// (an analysis running meanwhile: the next one drops them); returns
    /// the trees, to be freed off the message loop.
    pub fn drop_trees(&mut self, paths: &[PathBuf], disk: &Disk) -> Vec<Arc<hcl_edit::structure::Body>> {
        let mut trees = Vec::new();
        for path in paths {
            let dropped = match self.open.get_mut(path) {
                Some(open) => open.doc.as_mut().and_then(|(_, doc)| doc.drop_trees()),
                None => disk.drop_trees(path),
            };
            trees.extend(dropped.into_iter().flatten());
        }
        trees
    }

    /// The open documents of the module in `dir` of `family`, parsed.
    pub fn open_docs(&mut self, dir: &Path, family: Family) -> Vec<Document> {
        let settings = self.settings_for(dir);
        self.open
            .iter_mut()
            .filter(|(p, _)| module_key(p).is_some_and(|k| k.0 == dir && k.1 == family))
            .map(|(p, o)| o.parsed(p, &settings))
            .collect()
    }

    /// A configuration file changed on disk (`path` is one when it is
    /// named so): what was read of them is read again. Whether it was one.
    pub fn config_changed(&mut self, path: &Path) -> bool {
        let is_config = path.file_name().is_some_and(|n| n == crate::config::FILE_NAME);
        if is_config {
            self.configs.look_again();
        }
        is_config
    }

    /// The configuration files read that are not used, with why.
    pub fn config_errors(&self) -> Vec<(PathBuf, String)> {
        self.configs.errors()
    }

    /// Tells `loaded` when a configuration file read off the state lock
    /// is ready (`nearest.rs`).
    pub fn on_config_loaded(&mut self, loaded: crate::nearest::Loaded) {
        self.configs.on_loaded(loaded);
    }

    /// The settings for the files of the module in `dir` (a Nomad job's
    /// unit is its file): the editor's, with the nearest configuration
    /// file's under them (`nearest.rs`).
    pub fn settings_for(&mut self, unit: &Path) -> Settings {
        let job = analysis::family_of(unit).is_some_and(Family::file_is_unit);
        let dir = if job { unit.parent().unwrap_or(unit) } else { unit };
        self.configs.settings_for(dir, &self.settings)
    }

    /// The open part of the module of `path` (its directory and family),
    /// with its memo from `service`'s store.
    pub fn module(&mut self, path: &Path, service: &Service) -> Option<Partial> {
        let (dir, family) = module_key(path)?;
        let settings = self.settings_for(&dir);
        let mut docs = Vec::new();
        let mut open = Vec::new();
        for (p, o) in &mut self.open {
            if module_key(p).is_some_and(|k| k.0 == dir && k.1 == family) {
                docs.push(o.parsed(p, &settings));
                open.push((p.clone(), o.uri.clone(), o.version, o.rope.clone(), o.opened, o.edit.clone()));
            }
        }
        let memo = service.open_memo(&(dir.clone(), family));
        let home = self.homes.get(&dir).cloned();
        Some(Partial { path: path.to_path_buf(), dir, home, family, docs, open, memo, settings })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A text changed by [`replaced`], in place or copied (when another
    /// holder keeps the old one), is the concatenation of the parts, and
    /// the old text a holder keeps is never changed under it.
    #[test]
    fn a_text_replaced_in_place_or_copied_is_the_concatenation() {
        let mut rng = types::testing::Rng::new(7);
        let mut below = |n: usize| rng.below(n);
        let mut text: Text = Arc::new("variable \"é\" {\n  default = 1\n}\n".repeat(40).into());
        let mut expected = text.to_string();
        let mut in_place = 0;
        for _ in 0..2000 {
            let mut at = below(expected.len() + 1);
            while !expected.is_char_boundary(at) {
                at -= 1;
            }
            let mut end = (at + below(8)).min(expected.len());
            while !expected.is_char_boundary(end) {
                end -= 1;
            }
            let new = ["", "x", "é😀", "\n", "a longer piece of text\n"][below(5)];
            let held = (below(4) == 0).then(|| (text.clone(), text.to_string()));
            let address = Arc::as_ptr(&text) as usize;
            let next = replaced(&mut text, at..end, new);
            expected = format!("{}{new}{}", &expected[..at], &expected[end..]);
            assert_eq!(*next, expected);
            if let Some((old, was)) = held {
                assert_eq!(*old, was, "a held text is never changed");
                assert!(!Arc::ptr_eq(&old, &next));
            } else {
                in_place += usize::from(Arc::as_ptr(&next) as usize == address);
            }
            text = next;
        }
        assert!(in_place > 1000, "changed in place when not held: {in_place}");
    }
}
