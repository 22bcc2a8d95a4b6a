//! Open documents, settings, and the module around a document: its
//! siblings from disk, with open documents winning over disk copies.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use ropey::Rope;
use tower_lsp_server::ls_types::Uri;

use crate::analysis::{Document, FileKind, SourceFile};
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

/// A document the editor has open.
#[derive(Debug)]
pub struct Open {
    pub uri: Uri,
    pub rope: Rope,
    pub version: i32,
}

#[derive(Debug, Default)]
pub struct Workspace {
    pub open: HashMap<PathBuf, Open>,
    pub settings: Settings,
}

/// A module snapshot to analyse off the message loop.
pub struct Snapshot {
    pub docs: Vec<Document>,
    /// For each open document of the module: its index, URI and version.
    pub open: Vec<(usize, Uri, i32)>,
}

/// The file path of a URI (file:// only).
pub fn uri_path(uri: &Uri) -> Option<PathBuf> {
    uri.to_file_path().map(|p| p.into_owned())
}

impl Workspace {
    /// The module of `path`: the files of its directory and family, open
    /// ones from the editor, the others from disk.
    pub fn module(&self, path: &Path) -> Option<(Snapshot, usize)> {
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
            let text: Arc<str> = match self.open.get(&p) {
                Some(o) => {
                    open.push((docs.len(), o.uri.clone(), o.version));
                    Arc::from(o.rope.to_string())
                }
                None => match std::fs::read(&p).ok().and_then(|b| String::from_utf8(b).ok()) {
                    Some(t) if !t.contains('\0') => Arc::from(t),
                    _ => continue,
                },
            };
            let kind = FileKind::for_path(&p).unwrap_or(FileKind::Hcl);
            let dialect = self.settings.dialect_for(&p);
            docs.push(Document::parse(SourceFile { path: p, text, kind, dialect }));
        }
        let index = docs.iter().position(|d| d.file.path == path)?;
        Some((Snapshot { docs, open }, index))
    }
}
