//! The files of modules as the command line reads them: from disk, once
//! each ([`DiskFiles`], the analysis's [`Files`] for a `check` run), and
//! how analyses read other files (templates, [`reader`]).

use analysis::sync::Locked;
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use crate::disk::{Disk, Wanted};
use crate::settings::Settings;

use analysis::workspace::{normalize, Files};
use analysis::{Document, Family};

/// [`Files`] read from disk once each, for a command-line run: through
/// the same [`Disk`] the language server reads module files with (one
/// listing, one way to read and decode).
pub struct DiskFiles {
    disk: Disk,
    /// The `--dialect` for every file, else each file's name decides.
    settings: Settings,
    /// The checked paths' directories ([`Files::roots`]).
    roots: Vec<PathBuf>,
    /// Modules checked already, handed to their callers without trees.
    checked: Mutex<HashMap<(PathBuf, Family), Vec<Document>>>,
    /// Manifests that were there but not read.
    skipped: Mutex<Vec<(PathBuf, String)>>,
}

impl DiskFiles {
    /// Files for checking `roots` (directories, or files standing for
    /// their directory).
    pub fn new(dialect: Option<syntax::Dialect>, roots: &[PathBuf]) -> Self {
        let dir = |p: &PathBuf| if p.is_dir() { normalize(p) } else { normalize(p.parent().unwrap_or(Path::new(""))) };
        let mut settings = Settings::default();
        // `*` matches every file name.
        if let (Some(d), Ok(all)) = (dialect, globset::Glob::new("*")) {
            settings.dialects.push((all.compile_matcher(), d));
        }
        DiskFiles {
            disk: Disk::default(),
            settings,
            roots: roots.iter().map(dir).collect(),
            checked: Mutex::default(),
            skipped: Mutex::default(),
        }
    }

    /// The files that were there but could not be read, each once, with why.
    pub fn skipped(&self) -> Vec<(PathBuf, String)> {
        let mut out = self.disk.skipped();
        out.extend(self.skipped.locked().iter().cloned());
        out.sort();
        out.dedup();
        out
    }

    /// The files of the module of `family` in `dir` ([`crate::disk::listing`]).
    pub fn listing(dir: &Path, family: Family) -> Vec<PathBuf> {
        crate::disk::listing(dir, family)
    }

    /// Takes a module the caller already read (the one being checked).
    pub fn insert(&self, dir: &Path, family: Family, docs: Vec<Document>) {
        self.checked.locked().insert((normalize(dir), family), docs);
    }
}

impl Files for DiskFiles {
    fn module(&self, dir: &Path, family: Family) -> Vec<Document> {
        if let Some(docs) = self.checked.locked().get(&(dir.to_path_buf(), family)) {
            return docs.clone();
        }
        let skip = HashSet::new();
        let wanted = Wanted { dir, family, skip: &skip, also: None, settings: &self.settings };
        self.disk.module(&wanted, false)
    }

    fn read(&self, path: &Path) -> Option<String> {
        // A manifest: never a FIFO or something huge.
        match crate::fsread::read_regular_to_string(path, crate::fsread::MANIFEST_CAP) {
            Ok(text) => Some(text),
            Err(e) if e.is_not_found() || matches!(e, crate::fsread::ReadError::NotUtf8) => None,
            Err(e) => {
                self.skipped.locked().push((path.to_path_buf(), e.to_string()));
                None
            }
        }
    }

    fn roots(&self) -> &[PathBuf] {
        &self.roots
    }
}

/// The most of a file a module reads besides its own (a template).
const TEMPLATE_CAP: u64 = 4 << 20;

/// How analyses read files besides their modules' (`templatefile`
/// templates): a regular file of at most 4 MiB, as text. One per process,
/// so contexts made with it compare equal.
pub fn reader() -> analysis::calls::Reader {
    static READER: std::sync::OnceLock<analysis::calls::Reader> = std::sync::OnceLock::new();
    READER
        .get_or_init(|| {
            analysis::calls::Reader(std::sync::Arc::new(|path: &Path| {
                let bytes = crate::fsread::read_regular(path, TEMPLATE_CAP).ok()?;
                crate::fsread::decode(bytes).ok().map(std::sync::Arc::from)
            }))
        })
        .clone()
}
