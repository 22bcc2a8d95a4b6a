//! The files of modules as the command line reads them: from disk, once
//! each ([`DiskFiles`], the analysis's [`Files`] for a `check` run).

use analysis::sync::Locked;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

use analysis::workspace::{normalize, Files};
use analysis::{Document, Family};

/// [`Files`] read from disk once each, for a command-line run.
#[derive(Default)]
pub struct DiskFiles {
    dialect: Option<syntax::Dialect>,
    /// The checked paths' directories ([`Files::roots`]).
    roots: Vec<PathBuf>,
    modules: std::sync::Mutex<HashMap<(PathBuf, Family), Vec<Document>>>,
    /// Files that were there but not read (a FIFO, a file over its cap):
    /// the run says so rather than analyse without them in silence.
    skipped: std::sync::Mutex<Vec<(PathBuf, String)>>,
}

impl DiskFiles {
    /// Files for checking `roots` (directories, or files standing for
    /// their directory).
    pub fn new(dialect: Option<syntax::Dialect>, roots: &[PathBuf]) -> Self {
        let dir = |p: &PathBuf| if p.is_dir() { normalize(p) } else { normalize(p.parent().unwrap_or(Path::new(""))) };
        DiskFiles { dialect, roots: roots.iter().map(dir).collect(), ..DiskFiles::default() }
    }

    /// The files that were there but could not be read, each once, with why.
    pub fn skipped(&self) -> Vec<(PathBuf, String)> {
        let mut out = self.skipped.locked().clone();
        out.sort();
        out.dedup();
        out
    }

    /// `path`'s text, or `None`, noting why when it is there.
    fn text(&self, path: &Path, cap: u64) -> Option<String> {
        match crate::fsread::read_regular_to_string(path, cap) {
            Ok(text) => Some(text),
            // (A called module's text that is not UTF-8 is left out as
            // before: a content problem of a file nobody asked to check.)
            Err(e) if e.is_not_found() || matches!(e, crate::fsread::ReadError::NotUtf8) => None,
            Err(e) => {
                self.skipped.locked().push((path.to_path_buf(), e.to_string()));
                None
            }
        }
    }

    /// The regular files of `family` in `dir`, sorted.
    /// Named as `dir` spells them: the empty directory (what [`normalize`]
    /// makes of `.`, e.g. `examples/x/../..`) is the current one, and its
    /// files are bare names, as `check`'s paths name them there.
    pub fn listing(dir: &Path, family: Family) -> Vec<PathBuf> {
        let here = if dir.as_os_str().is_empty() { Path::new(".") } else { dir };
        let names = std::fs::read_dir(here).map(|rd| rd.filter_map(Result::ok).map(|e| dir.join(e.file_name())));
        let mut paths: Vec<PathBuf> = names.map(Iterator::collect).unwrap_or_default();
        paths.retain(|p| {
            analysis::FileKind::for_path(p).is_some_and(|k| k.family() == family)
                && std::fs::metadata(p).is_ok_and(|m| m.is_file())
        });
        paths.sort();
        paths
    }

    /// Takes a module the caller already read (the one being checked).
    pub fn insert(&self, dir: &Path, family: Family, docs: Vec<Document>) {
        self.modules.locked().insert((normalize(dir), family), docs);
    }
}

impl Files for DiskFiles {
    fn module(&self, dir: &Path, family: Family) -> Vec<Document> {
        let key = (dir.to_path_buf(), family);
        if let Some(docs) = self.modules.locked().get(&key) {
            return docs.clone();
        }
        let docs: Vec<Document> = DiskFiles::listing(dir, family)
            .iter()
            .filter_map(|p| {
                let text = self.text(p, crate::fsread::SOURCE_CAP)?;
                let mut file = analysis::SourceFile::new(p.clone(), text)?;
                if let Some(d) = self.dialect {
                    file.dialect = d;
                }
                Some(Document::parse(file))
            })
            .collect();
        self.modules.locked().insert(key, docs.clone());
        docs
    }

    fn read(&self, path: &Path) -> Option<String> {
        // A manifest: never a FIFO or something huge.
        self.text(path, crate::fsread::MANIFEST_CAP)
    }

    fn roots(&self) -> &[PathBuf] {
        &self.roots
    }
}
