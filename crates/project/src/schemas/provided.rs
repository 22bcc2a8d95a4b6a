//! A module's providers, typed from the binaries the user already has
//! ([`super::installed`]) read over the plugin protocol ([`super::plugin`]):
//! what the server and `hcl-types schemas` share.
//!
//! Who may run what (lsp.md "What the server runs"): a binary under one of
//! `inside` (the workspace, the checked repository) is repository content
//! and runs only when `run_inside` says so; the user's own cache runs
//! when `run` does. With neither, only schemas cached earlier are read.

use analysis::sync::Locked;
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::SystemTime;

use super::installed::{self, Installed, Required};
use super::plugin;
use schema::ProviderSchemas;

/// What may run, and where schemas are cached.
#[derive(Clone, Debug)]
pub struct Policy {
    /// Run the user's own provider binaries (outside `inside`).
    pub run: bool,
    /// Also run binaries inside the workspace (the opt-in).
    pub run_inside: bool,
    /// What the opt-in is called, for the message when it is off.
    pub opt_in: &'static str,
    /// What is repository content.
    pub inside: Arc<crate::confine::Tree>,
    /// Where read schemas are kept (and read from).
    pub cache_dir: PathBuf,
    /// Where binaries are looked for ([`installed::search_dirs`]).
    pub search: Vec<PathBuf>,
    /// Read in the background: an unread schema answers [`Outcome::Running`].
    pub background: bool,
}

/// One required provider's schema, or why there is none.
#[derive(Clone, Debug)]
pub enum Outcome {
    /// Read, from `cache` (written from `found.binary`).
    Typed {
        found: Installed,
        cache: PathBuf,
        schemas: Arc<ProviderSchemas>,
    },
    /// Being read in the background.
    Running(Installed),
    /// No binary in any searched directory (at a version the module
    /// accepts): why.
    Missing(String),
    /// A binary that may not run (inside the workspace, no opt-in; or
    /// nothing may run and nothing is cached).
    NotRun(Installed, String),
    Failed(Installed, String),
}

/// The `.tf` and `.tofu` files of a module directory (small regular files).
pub fn module_files(dir: &Path) -> Vec<(PathBuf, String)> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let p = e.path();
        let ext = p.extension().and_then(|x| x.to_str());
        if matches!(ext, Some("tf" | "tofu")) {
            if let Ok(b) = crate::fsread::read_regular(&p, crate::fsread::SOURCE_CAP) {
                out.push((p, String::from_utf8_lossy(&b).into_owned()));
            }
        }
    }
    out.sort();
    out
}

type Stamp = Vec<(PathBuf, Option<SystemTime>, u64)>;

/// A lock file's providers (address, version) and their hashes.
type Lock = (Vec<(String, String)>, Vec<(String, Vec<String>)>);

/// What the module in `dir` requires, and its lock file's providers and
/// their hashes: read again only when a file of it changed.
pub fn requirements(dir: &Path) -> (BTreeMap<String, Required>, Lock) {
    type Memo = Mutex<HashMap<PathBuf, (Stamp, BTreeMap<String, Required>, Lock)>>;
    static MEMO: OnceLock<Memo> = OnceLock::new();
    let mut stamp: Stamp = Vec::new();
    for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let p = e.path();
        let name = p.file_name().and_then(|n| n.to_str()).unwrap_or_default();
        if name.ends_with(".tf") || name.ends_with(".tofu") || name == ".terraform.lock.hcl" {
            let m = e.metadata().ok();
            stamp.push((p, m.as_ref().and_then(|m| m.modified().ok()), m.map_or(0, |m| m.len())));
        }
    }
    stamp.sort();
    let memo = MEMO.get_or_init(Memo::default);
    if let Some((s, r, l)) = memo.locked().get(dir) {
        if *s == stamp {
            return (r.clone(), l.clone());
        }
    }
    let reqs = installed::requirements(&module_files(dir));
    let lock = crate::fsread::read_regular(&dir.join(".terraform.lock.hcl"), crate::fsread::MANIFEST_CAP)
        .map(|b| String::from_utf8_lossy(&b).into_owned())
        .map(|t| (super::own::locked_providers(&t), super::lockhash::locked_hashes(&t)))
        .unwrap_or_default();
    memo.locked().insert(dir.to_path_buf(), (stamp, reqs.clone(), lock.clone()));
    (reqs, lock)
}

#[derive(Clone)]
enum State {
    /// Read in the background, for these module directories.
    Running(Vec<PathBuf>),
    Done(Result<(Arc<ProviderSchemas>, PathBuf), String>),
}

/// Module directories whose provider schema was read since their last
/// analysis: they are analysed again ([`fresh`]) even when the read ended
/// before anyone started to wait for it.
fn fresh_dirs() -> &'static Mutex<std::collections::HashSet<PathBuf>> {
    static F: OnceLock<Mutex<std::collections::HashSet<PathBuf>>> = OnceLock::new();
    F.get_or_init(Mutex::default)
}

/// Whether a schema of the module in `dir` was read since its last
/// analysis ([`take_fresh`]).
pub fn fresh(dir: &Path) -> bool {
    fresh_dirs().locked().contains(dir)
}

/// The module in `dir` is being analysed with what was read so far.
pub fn take_fresh(dir: &Path) {
    fresh_dirs().locked().remove(dir);
}

/// Background reads, by binary and whether it may run.
type Key = (PathBuf, bool);

fn states() -> &'static Mutex<HashMap<Key, State>> {
    static S: OnceLock<Mutex<HashMap<Key, State>>> = OnceLock::new();
    S.get_or_init(Mutex::default)
}

/// Whether the package of `found` matches the lock file's hashes for it
/// (nothing to check when it was not locked).
fn matches_lock(found: &Installed) -> Result<(), String> {
    let package = found.binary.parent().unwrap_or(Path::new("/"));
    super::lockhash::verify(package, &found.hashes)
}

/// One provider's outcome under `policy`, for the module in `dir`.
fn outcome(found: Installed, policy: &Policy, dir: &Path) -> Outcome {
    // (`check`, not `allows`: a binary is not a path the repository named.)
    let inside = policy.inside.check(&found.binary).is_ok();
    let may_run = if inside { policy.run_inside } else { policy.run };
    let opt_in = policy.opt_in;
    let not_run =
        move |e: String| if inside { format!("a binary inside the workspace runs only with {opt_in}") } else { e };
    // Cached: read without running anything. (The cache key is the
    // binary's hash: a large binary is first hashed by a background read,
    // never while an analysis waits.)
    if !policy.background || plugin::hash_known(&found.binary) {
        if let Err(why) = matches_lock(&found) {
            return Outcome::NotRun(found, why);
        }
        match plugin::schema(&found.address, &found.version, &found.binary, &policy.cache_dir, false) {
            Ok((schemas, cache)) => return Outcome::Typed { found, cache, schemas },
            Err(e) if !may_run => return Outcome::NotRun(found, not_run(e)),
            Err(_) => {}
        }
    }
    let read = {
        let (f, dir) = (found.clone(), policy.cache_dir.clone());
        move || plugin::schema(&f.address, &f.version, &f.binary, &dir, may_run)
    };
    if !policy.background {
        return match read() {
            Ok((schemas, cache)) => Outcome::Typed { found, cache, schemas },
            Err(e) => Outcome::Failed(found, e),
        };
    }
    let key = (found.binary.clone(), may_run);
    let mut map = states().locked();
    match map.get_mut(&key) {
        Some(State::Running(dirs)) => {
            if !dirs.iter().any(|d| d == dir) {
                dirs.push(dir.to_path_buf());
            }
            Outcome::Running(found)
        }
        Some(State::Done(Ok((schemas, cache)))) => {
            Outcome::Typed { found, cache: cache.clone(), schemas: schemas.clone() }
        }
        Some(State::Done(Err(e))) if may_run => Outcome::Failed(found, e.clone()),
        Some(State::Done(Err(e))) => Outcome::NotRun(found, not_run(e.clone())),
        None => {
            map.insert(key.clone(), State::Running(vec![dir.to_path_buf()]));
            let f = found.clone();
            std::thread::spawn(move || {
                // The binary's hash first: once it is known, the lock
                // file's hashes are checked on every survey (above), so a
                // mismatch is not kept here and a fixed lock file is seen.
                if plugin::binary_hash(&key.0).is_ok() && matches_lock(&f).is_err() {
                    if let Some(State::Running(dirs)) = states().locked().remove(&key) {
                        fresh_dirs().locked().extend(dirs);
                    }
                    return;
                }
                let r = read();
                if let (Err(e), true) = (&r, may_run) {
                    eprintln!("hcl-types: the provider schema of {}: {e}", key.0.display());
                }
                let old = states().locked().insert(key, State::Done(r));
                if let Some(State::Running(dirs)) = old {
                    fresh_dirs().locked().extend(dirs);
                }
            });
            Outcome::Running(found)
        }
    }
}

/// Each provider the module in `dir` requires (by local name), with its
/// source and outcome.
pub fn survey(dir: &Path, policy: &Policy) -> Vec<(String, Required, Outcome)> {
    let (reqs, (lock, hashes)) = requirements(dir);
    reqs.into_iter()
        .map(|(name, req)| {
            let o = match installed::find(&policy.search, &req, &lock) {
                Ok(mut found) => {
                    if found.locked {
                        let of = hashes.iter().find(|(a, _)| a.eq_ignore_ascii_case(&found.address));
                        found.hashes = of.map(|(_, h)| h.clone()).unwrap_or_default();
                    }
                    outcome(found, policy, dir)
                }
                Err(why) => Outcome::Missing(why),
            };
            (name, req, o)
        })
        .collect()
}
