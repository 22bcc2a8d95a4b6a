//! Open documents, settings, and the module around a document: its
//! siblings from disk, with open documents winning over disk copies.

use std::collections::{BTreeMap, HashMap};
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::SystemTime;

use ropey::Rope;
use tower_lsp_server::ls_types::{TextDocumentContentChangeEvent, Uri};

use super::text::{self, Encoding};

use crate::analysis::{Document, Family, FileKind, Memo, SourceFile};
use crate::diagnostic::{Code, Severity};
use crate::syntax::Dialect;

/// `hclTypes` settings (lsp.md).
#[derive(Clone, Debug)]
pub struct Settings {
    pub dialects: Vec<(globset::GlobMatcher, Dialect)>,
    pub severity: BTreeMap<Code, Option<Severity>>,
    pub inlay_hints: bool,
}

impl Default for Settings {
    fn default() -> Self {
        Settings { dialects: Vec::new(), severity: BTreeMap::new(), inlay_hints: true }
    }
}

impl Settings {
    /// Reads settings from `{"hclTypes": {…}}` or the inner object itself.
    /// Unknown or malformed entries are skipped, not fatal.
    pub fn from_json(v: &serde_json::Value) -> Settings {
        let v = v.get("hclTypes").unwrap_or(v);
        let mut s = Settings::default();
        if let Some(map) = v.get("dialects").and_then(|d| d.as_object()) {
            for (glob, dialect) in map {
                let (Ok(g), Some(Ok(d))) = (globset::Glob::new(glob), dialect.as_str().map(str::parse::<Dialect>))
                else {
                    continue;
                };
                s.dialects.push((g.compile_matcher(), d));
            }
        }
        if let Some(map) = v.get("severity").and_then(|d| d.as_object()) {
            for (code, sev) in map {
                let Some(code) = Code::parse(code) else { continue };
                let sev = match sev.as_str() {
                    Some("error") => Some(Severity::Error),
                    Some("warning") => Some(Severity::Warning),
                    Some("hint") => Some(Severity::Hint),
                    Some("off") => None,
                    _ => continue,
                };
                s.severity.insert(code, sev);
            }
        }
        if let Some(enable) = v.pointer("/inlayHints/enable").and_then(|e| e.as_bool()) {
            s.inlay_hints = enable;
        }
        s
    }

    pub fn dialect_for(&self, path: &Path) -> Dialect {
        let name = path.file_name().map(Path::new).unwrap_or(path);
        self.dialects
            .iter()
            .find(|(g, _)| g.is_match(path) || g.is_match(name))
            .map(|(_, d)| *d)
            .unwrap_or_else(|| Dialect::for_path(path))
    }
}

/// A document the editor has open: its text, and its parse kept current
/// edit by edit (only the items an edit touches are parsed again).
#[derive(Debug)]
pub struct Open {
    pub uri: Uri,
    pub rope: Rope,
    pub version: i32,
    /// The parse, and the version it is of: a version names one text, so
    /// an unchanged document is not copied out of its rope and compared.
    pub doc: Option<(i32, Document)>,
    /// The changes to the parsed text since, as (bytes replaced, new
    /// text), while known: a large text is then copied once per edit
    /// instead of gathered from the rope.
    changes: Option<Vec<(Range<usize>, String)>>,
}

impl Open {
    pub fn new(uri: Uri, text: &str, version: i32) -> Open {
        Open { uri, rope: Rope::from_str(text), version, doc: None, changes: None }
    }

    /// Applies one content change to the text.
    pub fn apply(&mut self, change: &TextDocumentContentChangeEvent, enc: Encoding) {
        match (text::apply(&mut self.rope, change, enc), &mut self.changes) {
            (Some(range), Some(changes)) => changes.push((range, change.text.clone())),
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
        let text: Arc<str> = match (&self.doc, self.changes.as_deref()) {
            (Some((_, d)), Some([(range, new)])) => {
                let old = &d.file.text;
                match (old.get(..range.start), old.get(range.end..)) {
                    (Some(before), Some(after)) => concat(&[before, new, after]),
                    _ => Arc::from(self.rope.to_string()),
                }
            }
            _ => Arc::from(self.rope.to_string()),
        };
        self.changes = Some(Vec::new());
        let file = SourceFile {
            path: path.to_path_buf(),
            text,
            kind: FileKind::for_path(path).unwrap_or(FileKind::Hcl),
            dialect,
        };
        // Taken out, so the edit can move the items in place.
        let doc = match self.doc.take() {
            Some((_, d)) => d.edited(file),
            None => Document::parse(file),
        };
        self.doc = Some((self.version, doc.clone()));
        doc
    }

    /// Re-parses the edited items now, so analysis later starts from them.
    pub fn reparse(&mut self, path: &Path, settings: &Settings) {
        self.parsed(path, settings);
    }
}

/// The parts joined into one shared string, copied once (a 10 MB text
/// copied twice per keystroke costs milliseconds).
fn concat(parts: &[&str]) -> Arc<str> {
    let len = parts.iter().map(|p| p.len()).sum();
    let mut bytes = Arc::<[u8]>::new_uninit_slice(len);
    let Some(out) = Arc::get_mut(&mut bytes) else { return Arc::from(parts.concat()) };
    let mut at = 0;
    for p in parts {
        out[at..at + p.len()].write_copy_of_slice(p.as_bytes());
        at += p.len();
    }
    // SAFETY: the loop above wrote all `len` bytes.
    let bytes = unsafe { bytes.assume_init() };
    // SAFETY: the bytes are `&str`s one after another, so valid UTF-8, and
    // `[u8]` and `str` have the same layout.
    unsafe { Arc::from_raw(Arc::into_raw(bytes) as *const str) }
}

/// A file read from disk, while its size and time stay the same.
#[derive(Debug)]
struct OnDisk {
    stamp: (Option<SystemTime>, u64),
    doc: Option<Document>,
}

#[derive(Debug, Default)]
pub struct Workspace {
    pub open: HashMap<PathBuf, Open>,
    pub settings: Settings,
    disk: HashMap<PathBuf, OnDisk>,
    memos: HashMap<(PathBuf, Family), Arc<Mutex<Memo>>>,
}

/// A module snapshot to analyse off the message loop.
pub struct Snapshot {
    pub docs: Vec<Document>,
    /// For each open document of the module: its index, URI, version and text.
    pub open: Vec<(usize, Uri, i32, Rope)>,
    /// What earlier analyses of the module found, to reuse.
    pub memo: Arc<Mutex<Memo>>,
}

/// The file path of a URI (file:// only).
pub fn uri_path(uri: &Uri) -> Option<PathBuf> {
    uri.to_file_path().map(|p| p.into_owned())
}

impl Workspace {
    /// Forgets what was read from disk (the files changed).
    pub fn disk_changed(&mut self) {
        self.disk.clear();
    }

    /// A file from disk, parsed; `None` when it is not text.
    fn read(&mut self, p: &Path) -> Option<Document> {
        let meta = std::fs::metadata(p).ok()?;
        let stamp = (meta.modified().ok(), meta.len());
        let dialect = self.settings.dialect_for(p);
        if let Some(d) = self.disk.get(p).filter(|d| d.stamp == stamp) {
            if d.doc.as_ref().is_none_or(|doc| doc.file.dialect == dialect) {
                return d.doc.clone();
            }
        }
        let doc = match std::fs::read(p).ok().and_then(|b| String::from_utf8(b).ok()) {
            Some(t) if !t.contains('\0') => {
                let kind = FileKind::for_path(p).unwrap_or(FileKind::Hcl);
                Some(Document::parse(SourceFile { path: p.to_path_buf(), text: Arc::from(t), kind, dialect }))
            }
            _ => None,
        };
        self.disk.insert(p.to_path_buf(), OnDisk { stamp, doc: doc.clone() });
        doc
    }

    /// Replaces each (analysed, without trees) pair's document where it is
    /// still the current parse of its file; returns what was replaced, to
    /// be freed off the message loop.
    pub fn drop_trees(&mut self, pairs: Vec<(Document, Document)>) -> Vec<Document> {
        let mut replaced = Vec::new();
        for (analysed, compact) in pairs {
            let path = &analysed.file.path;
            if let Some((_, doc)) = self.open.get_mut(path).and_then(|o| o.doc.as_mut()) {
                if Arc::ptr_eq(&doc.items, &analysed.items) {
                    replaced.push(std::mem::replace(doc, compact));
                }
            } else if let Some(doc) = self.disk.get_mut(path).and_then(|d| d.doc.as_mut()) {
                if Arc::ptr_eq(&doc.items, &analysed.items) {
                    replaced.push(std::mem::replace(doc, compact));
                }
            }
            replaced.push(analysed);
        }
        replaced
    }

    /// The module of `path`: the files of its directory and family, open
    /// ones from the editor, the others from disk.
    pub fn module(&mut self, path: &Path) -> Option<(Snapshot, usize)> {
        let family = FileKind::for_path(path).unwrap_or(FileKind::Hcl).family();
        let dir = path.parent()?;
        let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
            .map(|rd| {
                rd.filter_map(Result::ok)
                    .map(|e| e.path())
                    .filter(|p| p.is_file() && FileKind::for_path(p).is_some_and(|k| k.family() == family))
                    .collect()
            })
            .unwrap_or_default();
        for p in self.open.keys() {
            if p.parent() == Some(dir) && FileKind::for_path(p).unwrap_or(FileKind::Hcl).family() == family {
                paths.push(p.clone());
            }
        }
        if !paths.iter().any(|p| p == path) {
            paths.push(path.to_path_buf());
        }
        paths.sort();
        paths.dedup();
        let mut docs = Vec::new();
        let mut open = Vec::new();
        for p in paths {
            let settings = &self.settings;
            let doc = match self.open.get_mut(&p) {
                Some(o) => {
                    open.push((docs.len(), o.uri.clone(), o.version, o.rope.clone()));
                    o.parsed(&p, settings)
                }
                None => match self.read(&p) {
                    Some(d) => d,
                    None => continue,
                },
            };
            docs.push(doc);
        }
        let index = docs.iter().position(|d| d.file.path == path)?;
        let memo = self.memos.entry((dir.to_path_buf(), family)).or_default().clone();
        Some((Snapshot { docs, open, memo }, index))
    }
}
