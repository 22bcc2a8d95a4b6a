//! The configuration file in the language server: for each directory it
//! analyses, the nearest `.hcl-types.hcl` (config.md), and the editor's
//! settings with that file's under them — so the editor shows what
//! `hcl-types check` shows in CI. Looked for again once [`LOOK_AGAIN`] has
//! passed, so a file created, edited or removed is seen within it without
//! a stat on every keystroke.
//!
//! A file is read, its globs compiled and the schemas it names loaded on a
//! thread of their own, never under the server's state lock where this is
//! asked: a repository's file can be costly (100,000 globs held every
//! request for seconds). Meanwhile the settings it gave before stand (none,
//! the first time), and once it is read the server is told
//! ([`Nearest::on_loaded`]) and analyses again.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use analysis::sync::Locked;
use std::time::{Instant, SystemTime};

use crate::config::{self, Config};
use crate::exclude::Exclude;
use crate::settings::{Session, Settings};

/// How long a directory's answer is trusted before the disk is looked at again.
pub const LOOK_AGAIN: std::time::Duration = std::time::Duration::from_secs(2);

/// A configuration file as read: its path, when it was modified, and what
/// it says (or why it could not be read).
#[derive(Debug)]
pub struct Found {
    pub path: PathBuf,
    stamp: Option<SystemTime>,
    pub config: Result<(Config, Arc<Exclude>), String>,
}

/// Reads a configuration file: what it says, its globs compiled.
pub type Load = Arc<dyn Fn(&Path) -> Result<(Config, Arc<Exclude>), String> + Send + Sync>;

/// Told when a file read off the lock is ready.
pub type Loaded = Arc<dyn Fn() + Send + Sync>;

/// Files being read off the lock, and those read, not yet taken in.
#[derive(Default)]
struct Loading {
    /// Per file: the stamp being read, and the result once read.
    files: HashMap<PathBuf, (Option<SystemTime>, Option<Arc<Found>>)>,
}

/// Per directory, the nearest configuration file and when it was looked
/// for; per file, the settings last merged with it.
#[derive(Default)]
pub struct Nearest {
    dirs: HashMap<PathBuf, (Instant, Option<Arc<Found>>)>,
    /// Per file: as last read, and whether that is current (no change
    /// was heard of since; see [`Self::look_again`]).
    files: HashMap<PathBuf, (Arc<Found>, bool)>,
    /// (file, the editor's settings' id) → the merged settings.
    merged: HashMap<(PathBuf, u64), Settings>,
    loading: Arc<Mutex<Loading>>,
    /// How a file is read (the tests hold it up).
    load: Option<Load>,
    loaded: Option<Loaded>,
}

impl std::fmt::Debug for Nearest {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Nearest").field("files", &self.files).finish_non_exhaustive()
    }
}

/// A configuration file read, its globs compiled, and the schemas it names
/// read once (into their cache), so that merging it later costs little.
pub fn load(path: &Path) -> Result<(Config, Arc<Exclude>), String> {
    let base = path.parent().map(Path::to_path_buf).unwrap_or_default();
    let c = config::load(path)?;
    let patterns: Vec<(PathBuf, String)> = c.exclude.iter().map(|p| (base.clone(), p.clone())).collect();
    let exclude = Arc::new(Exclude::new(&patterns)?);
    drop(Settings::default().under(&c, exclude.clone()));
    Ok((c, exclude))
}

impl Nearest {
    /// The nearest configuration file of `dir` (a directory without a file
    /// system, `is_virtual`, has none), looked for no higher than the
    /// workspace folder `dir` is in (else its repository, as `check` looks:
    /// config.md), and read only inside the session's tree.
    pub fn find(&mut self, dir: &Path, session: &Session) -> Option<Arc<Found>> {
        if crate::disk::is_virtual(dir) || !dir.is_absolute() {
            return None;
        }
        if let Some((at, found)) = self.dirs.get(dir) {
            if at.elapsed() < LOOK_AGAIN && !self.ready() {
                return found.clone();
            }
        }
        if self.ready() {
            self.dirs.clear();
        }
        let folder = session.roots.iter().filter(|r| dir.starts_with(r)).max_by_key(|r| r.as_os_str().len());
        let top = folder.cloned().unwrap_or_else(|| crate::confine::repository(dir));
        let found = config::find_within(dir, &top).filter(|p| session.tree.allows(p)).and_then(|path| self.read(path));
        if self.dirs.len() > 4096 {
            self.dirs.clear();
        }
        self.dirs.insert(dir.to_path_buf(), (Instant::now(), found.clone()));
        found
    }

    /// Tells `loaded` whenever a file read off the lock is ready (the
    /// server then analyses its open modules again).
    pub fn on_loaded(&mut self, loaded: Loaded) {
        self.loaded = Some(loaded);
    }

    /// Reads files with `load` instead of [`load`].
    pub fn load_with(&mut self, load: Load) {
        self.load = Some(load);
    }

    /// A configuration file changed: each is looked for and read again,
    /// and what they said stands until then.
    pub fn look_again(&mut self) {
        self.dirs.clear();
        self.files.values_mut().for_each(|f| f.1 = false);
        // A read under way may have read the old text.
        self.loading.locked().files.clear();
    }

    /// The file at `path` as last read: when it changed, it is read again
    /// on a thread of its own, and what it said before (or nothing, the
    /// first time) stands meanwhile.
    fn read(&mut self, path: PathBuf) -> Option<Arc<Found>> {
        let stamp = std::fs::metadata(&path).and_then(|m| m.modified()).ok();
        let (known, current) = self.files.get(&path).cloned().unzip();
        if let Some(f) = known.as_ref().filter(|f| f.stamp == stamp && stamp.is_some() && current == Some(true)) {
            return Some(f.clone());
        }
        let mut loading = self.loading.locked();
        match loading.files.get(&path) {
            Some((at, Some(found))) if *at == stamp => {
                let found = found.clone();
                loading.files.remove(&path);
                drop(loading);
                self.merged.retain(|(p, _), _| *p != path);
                self.files.insert(path, (found.clone(), true));
                return Some(found);
            }
            // Being read.
            Some((at, None)) if *at == stamp => return known,
            _ => {}
        }
        loading.files.insert(path.clone(), (stamp, None));
        drop(loading);
        let (into, load, loaded) = (self.loading.clone(), self.load.clone(), self.loaded.clone());
        let started = std::thread::Builder::new().name("hcl-types-config".into()).spawn(move || {
            let config = match &load {
                Some(load) => load(&path),
                None => self::load(&path),
            };
            let found = Arc::new(Found { path: path.clone(), stamp, config });
            let mut loading = into.locked();
            // (Unless a newer read was started meanwhile.)
            if let Some(entry) = loading.files.get_mut(&path).filter(|(at, _)| *at == stamp) {
                entry.1 = Some(found);
            }
            drop(loading);
            if let Some(loaded) = loaded {
                loaded();
            }
        });
        if started.is_err() {
            self.loading.locked().files.clear();
        }
        known
    }

    /// The files read that are not used, with why (a mistake, a limit):
    /// the server says so on the file when it is open.
    pub fn errors(&self) -> Vec<(PathBuf, String)> {
        let failed = self.files.iter().filter_map(|(p, (f, _))| Some((p.clone(), f.config.as_ref().err()?.clone())));
        failed.collect()
    }

    /// Whether a file read off the lock waits to be taken in.
    fn ready(&self) -> bool {
        self.loading.locked().files.values().any(|(_, found)| found.is_some())
    }

    /// `settings` for the files of `dir`: with its configuration file's
    /// under them, when it has one that reads.
    pub fn settings_for(&mut self, dir: &Path, settings: &Settings) -> Settings {
        let Some(found) = self.find(dir, &settings.session) else { return settings.clone() };
        let Ok((config, exclude)) = &found.config else { return settings.clone() };
        let key = (found.path.clone(), settings.id);
        if let Some(s) = self.merged.get(&key) {
            return s.clone();
        }
        let merged = settings.under(config, exclude.clone());
        if self.merged.len() > 64 {
            self.merged.clear();
        }
        self.merged.insert(key, merged.clone());
        merged
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use syntax::diagnostic::{Code, Severity};

    /// A `Nearest` that says on `rx` when a file was read.
    fn told() -> (Nearest, std::sync::mpsc::Receiver<()>) {
        let (tx, rx) = std::sync::mpsc::channel();
        let mut nearest = Nearest::default();
        let tx = Mutex::new(tx);
        nearest.on_loaded(Arc::new(move || {
            let _ = tx.locked().send(());
        }));
        (nearest, rx)
    }

    /// The settings for `dir` once its file was read off the lock.
    fn read(nearest: &mut Nearest, rx: &std::sync::mpsc::Receiver<()>, dir: &Path, editor: &Settings) -> Settings {
        nearest.settings_for(dir, editor);
        rx.recv_timeout(std::time::Duration::from_secs(60)).expect("the file is read");
        nearest.settings_for(dir, editor)
    }

    /// The file is read off the lock: while it is (held up here), the
    /// settings it gave before stand and are answered at once; once read,
    /// the new ones (issue 42: 100,000 globs held every request for
    /// seconds).
    #[test]
    fn a_file_is_read_off_the_lock_and_the_old_settings_stand_meanwhile() {
        let root = crate::scratch::Scratch::new("nearest-off").unwrap();
        let file = root.join(config::FILE_NAME);
        std::fs::write(&file, "severity = { unsafe-conversion = \"error\" }\n").unwrap();
        let (mut nearest, rx) = told();
        let (gate, held) = std::sync::mpsc::channel::<()>();
        let held = Mutex::new(held);
        let counted = std::sync::atomic::AtomicUsize::new(0);
        nearest.load_with(Arc::new(move |path: &Path| {
            if counted.fetch_add(1, std::sync::atomic::Ordering::SeqCst) > 0 {
                // The second read waits until the test lets it go.
                let _ = held.locked().recv();
            }
            load(path)
        }));
        let editor = Settings::default();
        // The first time: nothing stands yet.
        assert_eq!(nearest.settings_for(&root, &editor).severity.get(&Code::UnsafeConversion), None);
        rx.recv_timeout(std::time::Duration::from_secs(60)).unwrap();
        let s = nearest.settings_for(&root, &editor);
        assert_eq!(s.severity.get(&Code::UnsafeConversion), Some(&Some(Severity::Error)));
        // Changed, and its read held up: the old settings, at once, however often asked.
        std::fs::write(&file, "severity = { unsafe-conversion = \"off\" }\n").unwrap();
        nearest.look_again();
        for _ in 0..3 {
            let s = nearest.settings_for(&root, &editor);
            assert_eq!(s.severity.get(&Code::UnsafeConversion), Some(&Some(Severity::Error)));
        }
        gate.send(()).unwrap();
        rx.recv_timeout(std::time::Duration::from_secs(60)).unwrap();
        let s = nearest.settings_for(&root, &editor);
        assert_eq!(s.severity.get(&Code::UnsafeConversion), Some(&None));
        let _ = std::fs::remove_dir_all(&root);
    }

    #[test]
    fn a_directory_gets_its_nearest_files_settings_under_the_editors() {
        let root = crate::scratch::Scratch::new("nearest").unwrap();
        let dir = root.join("modules/app");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::create_dir_all(root.join(".git")).unwrap();
        std::fs::write(
            root.join(config::FILE_NAME),
            "severity = { unsafe-conversion = \"error\", implicit-conversion = \"off\" }\nexclude = [\"legacy/**\"]\ndialect = \"opentofu\"\n",
        )
        .unwrap();
        let mut editor = Settings::default();
        editor.severity.insert(Code::ImplicitConversion, Some(Severity::Hint));
        let (mut nearest, rx) = told();
        let s = read(&mut nearest, &rx, &dir, &editor);
        // The file's code, and the editor's where both say.
        assert_eq!(s.severity.get(&Code::UnsafeConversion), Some(&Some(Severity::Error)));
        assert_eq!(s.severity.get(&Code::ImplicitConversion), Some(&Some(Severity::Hint)));
        assert_eq!(s.dialect_for(&dir.join("main.tf")), syntax::Dialect::OpenTofu);
        assert!(s.excluded(&root.join("legacy/x/main.tf")));
        assert!(!s.excluded(&dir.join("main.tf")));
        // No file: the editor's settings as they are.
        let _ = std::fs::remove_file(root.join(config::FILE_NAME));
        let mut fresh = Nearest::default();
        let s = fresh.settings_for(&dir, &editor);
        assert_eq!(s.severity.get(&Code::UnsafeConversion), None);
        assert!(!s.excluded(&root.join("legacy/x/main.tf")));
        let _ = std::fs::remove_dir_all(&root);
    }
}
