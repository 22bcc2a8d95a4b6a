//! Schema files on disk: the files the user named, each read once per
//! process and shared (cached by path and modification time), and the
//! module's own schema printed by its `terraform providers schema -json`
//! ([`own`], opt-in).

use analysis::sync::Locked;
use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::SystemTime;

use schema::pulumi::load_package;
use schema::{load, PackageFile, ProviderSchemas, SchemaFile, Schemas, Searched, Source};

pub mod installed;
pub mod lockhash;
pub mod own;
pub mod plugin;
pub mod provided;

/// The schemas of the files the user named (not known to match the
/// module's providers), each read once per process: provider schemas
/// and Pulumi package schemas.
/// A file that cannot be read, or is no schema, fails with its path.
pub fn from_files(providers: &[PathBuf], packages: &[PathBuf]) -> Result<Schemas, (PathBuf, String)> {
    let mut files = Vec::new();
    let mut h = rustc_hash::FxHasher::default();
    // Read again after [`forget_all`]: a new version, though no time changed.
    RELOADS.load(std::sync::atomic::Ordering::Relaxed).hash(&mut h);
    for path in providers {
        let (schemas, mtime) = read_cached(path, load).map_err(|e| (path.clone(), e))?;
        (path, mtime).hash(&mut h);
        files.push(SchemaFile {
            label: label(path),
            path: path.clone(),
            source: source(path),
            schemas,
            trusted: false,
        });
    }
    let mut pkgs = Vec::new();
    for path in packages {
        let (package, mtime) = read_cached(path, load_package).map_err(|e| (path.clone(), e))?;
        (path, mtime).hash(&mut h);
        pkgs.push(PackageFile { label: label(path), package, trusted: false });
    }
    Ok(Schemas::new(files, pkgs, h.finish()))
}

/// `base` (the files the user named) with the module's own provider
/// schema first: printed by its `terraform providers schema -json`
/// (lock key `key`), so known to match.
pub fn with_own(base: Option<&Schemas>, own: Arc<ProviderSchemas>, key: u64) -> Schemas {
    let path = own::cache_path(key).unwrap_or_default();
    let mut h = rustc_hash::FxHasher::default();
    (base.map(|b| b.version), key, RELOADS.load(std::sync::atomic::Ordering::Relaxed)).hash(&mut h);
    let label = "the module's `terraform providers schema`".to_string();
    let mut files = vec![SchemaFile { label, source: source(&path), path, schemas: own, trusted: true }];
    files.extend(base.iter().flat_map(|b| b.files.iter().cloned()));
    let packages = base.map(|b| b.packages.clone()).unwrap_or_default();
    let mut set = Schemas::new(files, packages, h.finish());
    set.searched = base.and_then(|b| b.searched.clone());
    set
}

/// `base` with the schemas read from the module's provider binaries
/// first ([`provided`]): each labelled with its address, version and
/// binary (what hover and messages show); known to match the module when
/// its version is the lock file's. `searched`: what the search did not
/// type ([`Schemas::searched`]).
pub fn with_plugins(
    base: Option<&Schemas>,
    typed: &[(installed::Installed, PathBuf, Arc<ProviderSchemas>)],
    searched: Searched,
) -> Schemas {
    let mut h = rustc_hash::FxHasher::default();
    (base.map(|b| b.version), &searched).hash(&mut h);
    let mut files = Vec::new();
    for (found, cache, schemas) in typed {
        cache.hash(&mut h);
        let label = format!("{} {} (from {})", found.address, found.version, found.binary.display());
        let file = SchemaFile {
            label,
            source: source(cache),
            path: cache.clone(),
            schemas: schemas.clone(),
            trusted: found.locked,
        };
        files.push(file);
    }
    files.extend(base.iter().flat_map(|b| b.files.iter().cloned()));
    let packages = base.map(|b| b.packages.clone()).unwrap_or_default();
    let mut set = Schemas::new(files, packages, h.finish());
    set.searched = Some(searched);
    set
}

/// What messages call a file: its name (`google-4.27.0.json`).
fn label(path: &Path) -> String {
    path.file_name().map_or_else(|| path.display().to_string(), |n| n.to_string_lossy().into())
}

/// Reads `path` again when a description is asked for.
fn source(path: &Path) -> Source {
    let path = path.to_path_buf();
    Source(Arc::new(move || crate::fsread::read_regular(&path, crate::fsread::SCHEMA_CAP).ok()))
}

type Shared = Arc<dyn std::any::Any + Send + Sync>;
type Cache = Mutex<HashMap<PathBuf, (SystemTime, Shared)>>;

/// How many times [`forget_all`] ran (part of every schema set's version).
static RELOADS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

fn cache() -> &'static Cache {
    static CACHE: std::sync::OnceLock<Cache> = std::sync::OnceLock::new();
    CACHE.get_or_init(Cache::default)
}

/// Drops every schema read (the files named, and the modules' own
/// printed ones that are not being printed now): the next use reads or
/// prints them again (`hcl-types.reloadSchemas`).
pub fn forget_all() {
    RELOADS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    cache().locked().clear();
    own::forget_finished();
}

/// A schema file read by `read`, read again only when its modification
/// time changed (one process-wide cache for every kind of schema). Only a
/// regular file of at most [`crate::fsread::SCHEMA_CAP`] bytes is read: a
/// FIFO named in the settings must not freeze the server.
pub fn read_cached<T: Send + Sync + 'static>(
    path: &Path,
    read: fn(&[u8]) -> Result<T, String>,
) -> Result<(Arc<T>, SystemTime), String> {
    let cache = cache();
    // The caller knows the path: messages do not repeat it.
    let fail = |e: &dyn std::fmt::Display| e.to_string();
    // Opened first (never blocking on a FIFO), so the time is that of
    // what is read.
    let opened = crate::fsread::open_regular(path).map_err(|e| fail(&e))?;
    let mtime = opened.meta.modified().map_err(|e| fail(&e))?;
    let key = path.canonicalize().unwrap_or_else(|_| path.to_path_buf());
    if let Some((t, s)) = cache.locked().get(&key) {
        if let (true, Ok(s)) = (*t == mtime, s.clone().downcast::<T>()) {
            return Ok((s, mtime));
        }
    }
    let bytes = opened.read(crate::fsread::SCHEMA_CAP).map_err(|e| fail(&e))?;
    let value = Arc::new(read(&bytes).map_err(|e| fail(&e))?);
    cache.locked().insert(key, (mtime, value.clone()));
    Ok((value, mtime))
}

/// The schemas Pulumi cached for the packages `names` (`schema-NAME-VERSION-.json`
/// beside the plugins in `$PULUMI_HOME/plugins`, default `~/.pulumi/plugins`,
/// or in a plugin's own directory): the newest version of each.
pub fn plugin_cache(names: &[String]) -> Vec<std::path::PathBuf> {
    let home = std::env::var_os("PULUMI_HOME")
        .map(std::path::PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| std::path::Path::new(&h).join(".pulumi")));
    let Some(plugins) = home.map(|h| h.join("plugins")) else { return Vec::new() };
    let listing = |dir: &std::path::Path| -> Vec<std::path::PathBuf> {
        std::fs::read_dir(dir).into_iter().flatten().filter_map(Result::ok).map(|e| e.path()).collect()
    };
    let top = listing(&plugins);
    let inner = top.iter().filter(|p| p.is_dir()).flat_map(|d| listing(d));
    let all: Vec<std::path::PathBuf> = top.iter().cloned().chain(inner).collect();
    let mut out = Vec::new();
    for name in names {
        let prefix = format!("schema-{name}-");
        let version_of = |p: &std::path::Path| -> Option<Vec<u64>> {
            let file = p.file_name()?.to_str()?;
            let rest = file.strip_prefix(&prefix)?.strip_suffix(".json")?.trim_end_matches('-');
            // `4.11.2`, not another package whose name starts with this one.
            rest.split('.').map(|n| n.parse().ok()).collect()
        };
        let newest = all.iter().filter_map(|p| Some((version_of(p)?, p))).max_by(|a, b| a.0.cmp(&b.0));
        out.extend(newest.map(|(_, p)| p.clone()));
    }
    out
}
