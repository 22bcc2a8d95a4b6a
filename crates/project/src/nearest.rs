//! The configuration file in the language server: for each directory it
//! analyses, the nearest `.hcl-types.hcl` (config.md), and the editor's
//! settings with that file's under them — so the editor shows what
//! `hcl-types check` shows in CI. Looked for again once [`LOOK_AGAIN`] has
//! passed, so a file created, edited or removed is seen within it without
//! a stat on every keystroke.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
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

/// Per directory, the nearest configuration file and when it was looked
/// for; per file, the settings last merged with it.
#[derive(Debug, Default)]
pub struct Nearest {
    dirs: HashMap<PathBuf, (Instant, Option<Arc<Found>>)>,
    files: HashMap<PathBuf, Arc<Found>>,
    /// (file, the editor's settings' id) → the merged settings.
    merged: HashMap<(PathBuf, u64), Settings>,
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
            if at.elapsed() < LOOK_AGAIN {
                return found.clone();
            }
        }
        let folder = session.roots.iter().filter(|r| dir.starts_with(r)).max_by_key(|r| r.as_os_str().len());
        let top = folder.cloned().unwrap_or_else(|| crate::confine::repository(dir));
        let found = config::find_within(dir, &top).filter(|p| session.tree.allows(p)).map(|path| self.read(path));
        if self.dirs.len() > 4096 {
            self.dirs.clear();
        }
        self.dirs.insert(dir.to_path_buf(), (Instant::now(), found.clone()));
        found
    }

    /// The file at `path`, read again when it changed.
    fn read(&mut self, path: PathBuf) -> Arc<Found> {
        let stamp = std::fs::metadata(&path).and_then(|m| m.modified()).ok();
        if let Some(f) = self.files.get(&path).filter(|f| f.stamp == stamp && stamp.is_some()) {
            return f.clone();
        }
        let base = path.parent().map(Path::to_path_buf).unwrap_or_default();
        let config = config::load(&path).and_then(|c| {
            let patterns: Vec<(PathBuf, String)> = c.exclude.iter().map(|p| (base.clone(), p.clone())).collect();
            Ok((c.clone(), Arc::new(Exclude::new(&patterns)?)))
        });
        let found = Arc::new(Found { path: path.clone(), stamp, config });
        self.merged.retain(|(p, _), _| *p != path);
        self.files.insert(path, found.clone());
        found
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

    #[test]
    fn a_directory_gets_its_nearest_files_settings_under_the_editors() {
        let root = std::env::temp_dir().join(format!("hcl-types-nearest-{}", std::process::id()));
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
        let mut nearest = Nearest::default();
        let s = nearest.settings_for(&dir, &editor);
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
