//! The module's own provider schemas: `terraform providers schema -json`
//! (or `tofu`) run in a root that `terraform init` prepared (it has
//! `.terraform/` or `.terraform.lock.hcl`), in the background, its output
//! cached on disk by the lock file's hash and shared by every module with
//! the same lock file. Such a schema is known to match the module's
//! providers: what it lacks is an error.

use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

use super::{load, read_cached, ProviderSchemas};

/// Whether `terraform init` prepared `dir` (so its providers are known).
pub fn initialised(dir: &Path) -> bool {
    dir.join(".terraform").is_dir() || dir.join(".terraform.lock.hcl").is_file()
}

/// The executable to run: the setting, else `terraform` or `tofu` on the PATH.
pub fn find_executable(setting: Option<&Path>) -> Option<PathBuf> {
    if let Some(p) = setting {
        return Some(p.to_path_buf());
    }
    let path = std::env::var_os("PATH")?;
    ["terraform", "tofu"]
        .iter()
        .find_map(|name| std::env::split_paths(&path).map(|d| d.join(name)).find(|p| p.is_file()))
}

/// What identifies a module's providers: its lock file (the same lock,
/// the same providers and schema), and the executable that prints them.
pub fn lock_key(exe: &Path, dir: &Path) -> u64 {
    let mut h = rustc_hash::FxHasher::default();
    std::fs::read(dir.join(".terraform.lock.hcl")).unwrap_or_default().hash(&mut h);
    exe.hash(&mut h);
    h.finish()
}

/// Where the schema of a lock key is kept between runs:
/// `$XDG_CACHE_HOME/hcl-types/provider-schemas/KEY.json` (default `~/.cache`).
pub fn cache_path(key: u64) -> Option<PathBuf> {
    let base = std::env::var_os("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| Path::new(&h).join(".cache")))?;
    Some(base.join("hcl-types/provider-schemas").join(format!("{key:016x}.json")))
}

/// Runs `EXE providers schema -json` in `dir` and keeps its output in the
/// disk cache; the schema, read once per process.
pub fn run(exe: &Path, dir: &Path, key: u64) -> Result<Arc<ProviderSchemas>, String> {
    let cached = cache_path(key).ok_or("no cache directory (neither XDG_CACHE_HOME nor HOME is set)")?;
    if !cached.is_file() {
        let out = std::process::Command::new(exe)
            .args(["providers", "schema", "-json"])
            .current_dir(dir)
            .stdin(std::process::Stdio::null())
            .output()
            .map_err(|e| format!("{}: {e}", exe.display()))?;
        if !out.status.success() {
            let err = String::from_utf8_lossy(&out.stderr);
            return Err(format!("{} providers schema -json failed: {}", exe.display(), err.trim()));
        }
        // Only what reads as a schema is kept.
        load(&out.stdout)?;
        if let Some(parent) = cached.parent() {
            std::fs::create_dir_all(parent).map_err(|e| format!("{}: {e}", parent.display()))?;
        }
        // Written whole, then moved: a reader never sees half a file.
        let tmp = cached.with_extension(format!("{}.tmp", std::process::id()));
        std::fs::write(&tmp, &out.stdout).map_err(|e| format!("{}: {e}", tmp.display()))?;
        std::fs::rename(&tmp, &cached).map_err(|e| format!("{}: {e}", cached.display()))?;
    }
    read_cached(&cached, load).map(|(s, _)| s).map_err(|e| format!("{}: {e}", cached.display()))
}

/// Where a lock key's schema is.
#[derive(Clone, Debug)]
pub enum State {
    Running,
    Ready(Arc<ProviderSchemas>),
    Failed(String),
}

fn states() -> &'static Mutex<HashMap<u64, State>> {
    static STATES: OnceLock<Mutex<HashMap<u64, State>>> = OnceLock::new();
    STATES.get_or_init(Mutex::default)
}

/// Whether the schema of `dir` is still being printed (started by
/// [`in_background`]), so a server knows to analyse again once it is done.
pub fn running(exe: &Path, dir: &Path) -> bool {
    let key = lock_key(exe, dir);
    matches!(states().lock().unwrap_or_else(|e| e.into_inner()).get(&key), Some(State::Running))
}

/// The module's own schema when it is ready; else starts `providers schema
/// -json` on another thread (once per lock key and process) and answers
/// `None` until it is done.
pub fn in_background(exe: &Path, dir: &Path) -> Option<(u64, State)> {
    let states = states();
    let key = lock_key(exe, dir);
    let mut map = states.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(s) = map.get(&key) {
        return Some((key, s.clone()));
    }
    map.insert(key, State::Running);
    let (exe, dir) = (exe.to_path_buf(), dir.to_path_buf());
    std::thread::spawn(move || {
        let state = match run(&exe, &dir, key) {
            Ok(s) => State::Ready(s),
            Err(e) => State::Failed(e),
        };
        states.lock().unwrap_or_else(|e| e.into_inner()).insert(key, state);
    });
    Some((key, State::Running))
}
