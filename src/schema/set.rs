//! The provider schemas one analysis uses ([`Schemas`]): several files,
//! each read once per process and shared (cached by path and modification
//! time), with what resource and data source types they define.

use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::SystemTime;

use super::pulumi::{load_package, Lookup, Package, PulumiFunction, PulumiResource};
use super::{load, BlockSchema, FunctionSchema, Provider, ProviderSchemas};
use crate::types::Type;

/// One schema file and how far it is trusted.
#[derive(Clone, Debug)]
pub struct SchemaFile {
    /// What diagnostics call it: the file name (`google-4.27.0.json`).
    pub label: String,
    /// Where it was read from (descriptions are read from it when asked for).
    pub path: PathBuf,
    pub schemas: Arc<ProviderSchemas>,
    /// Known to match the module's providers (printed by its own
    /// `terraform providers schema -json`). A file the user names is not:
    /// its unknown arguments are warnings, since the module may use a
    /// newer provider.
    pub trusted: bool,
}

/// The schemas an analysis consults. Compared by [`Schemas::version`].
#[derive(Debug, Default)]
pub struct Schemas {
    pub files: Vec<SchemaFile>,
    pub packages: Vec<PackageFile>,
    /// Changes whenever a file does (its identity and modification time).
    pub version: u64,
    /// The object types of the blocks of files not known to match (their
    /// resources, data sources and nested blocks) → the file's index; built
    /// the first time a traversal of an object fails.
    open: OnceLock<HashMap<Type, usize>>,
}

impl PartialEq for Schemas {
    fn eq(&self, other: &Schemas) -> bool {
        self.version == other.version
    }
}

/// A resource or data source type found in a schema.
#[derive(Clone, Copy, Debug)]
pub struct Found<'a> {
    pub block: &'a Arc<BlockSchema>,
    pub provider: &'a Provider,
    pub file: &'a SchemaFile,
}

impl<'a> Found<'a> {
    /// The schema's description of the attribute or nested block at `path`
    /// (nested block names, then the name; empty: the resource itself),
    /// read from the file now: descriptions are not kept in memory.
    pub fn description(&self, data: bool, ty: &str, path: &[&str]) -> Option<String> {
        let bytes = crate::fsread::read_regular(&self.file.path, crate::fsread::SCHEMA_CAP).ok()?;
        let doc: serde_json::Value = serde_json::from_slice(&bytes).ok()?;
        let kind = if data { "data_source_schemas" } else { "resource_schemas" };
        let mut block = doc.get("provider_schemas")?.get(&self.provider.address)?.get(kind)?.get(ty)?.get("block")?;
        let Some((last, inner)) = path.split_last() else {
            return block.get("description")?.as_str().map(String::from);
        };
        for name in inner {
            block = block.get("block_types")?.get(name)?.get("block")?;
        }
        let found = block
            .get("attributes")
            .and_then(|a| a.get(last))
            .or_else(|| block.get("block_types")?.get(last)?.get("block"))?;
        found.get("description")?.as_str().filter(|d| !d.is_empty()).map(String::from)
    }

    /// Where the type comes from, for messages: `google-4.27.0.json`.
    pub fn origin(&self) -> &'a str {
        &self.file.label
    }
}

impl Schemas {
    /// The schema of resource type `ty` (`data`: of data source type `ty`).
    /// The provider the type's prefix names goes first (`google_…`: google),
    /// then the first file that has it.
    pub fn find(&self, data: bool, ty: &str) -> Option<Found<'_>> {
        let prefix = ty.split('_').next().unwrap_or(ty);
        let all = || {
            self.files.iter().flat_map(|f| f.schemas.providers.iter().map(move |p| (f, p))).filter_map(|(f, p)| {
                let map = if data { &p.data_sources } else { &p.resources };
                map.get(ty).map(|block| Found { block, provider: p, file: f })
            })
        };
        all().find(|f| f.provider.name() == prefix).or_else(|| all().next())
    }

    /// Every resource (or data source) type, for completion.
    pub fn types(&self, data: bool) -> impl Iterator<Item = (&str, Found<'_>)> {
        self.files.iter().flat_map(move |f| {
            f.schemas.providers.iter().flat_map(move |p| {
                let map = if data { &p.data_sources } else { &p.resources };
                map.iter().map(move |(name, block)| (name.as_str(), Found { block, provider: p, file: f }))
            })
        })
    }

    /// The label of the untrusted file whose block gives the object type
    /// `t`: an attribute it lacks may come with a newer provider.
    pub fn open_origin(&self, t: &Type) -> Option<&str> {
        let open = self.open.get_or_init(|| {
            let mut out = HashMap::new();
            for (i, f) in self.files.iter().enumerate().filter(|(_, f)| !f.trusted) {
                for p in &f.schemas.providers {
                    for b in p.resources.values().chain(p.data_sources.values()) {
                        block_objects(b, i, &mut out);
                    }
                }
            }
            out
        });
        open.get(t).map(|&i| self.files[i].label.as_str())
    }

    /// A provider-defined function, `provider::NAME::FUNCTION`.
    pub fn function(&self, provider: &str, name: &str) -> Option<&FunctionSchema> {
        self.files
            .iter()
            .flat_map(|f| f.schemas.providers.iter())
            .filter(|p| p.name() == provider)
            .find_map(|p| p.functions.get(name))
    }

    /// The schemas of the files the user named (not known to match the
    /// module's providers), each read once per process: provider schemas
    /// and Pulumi package schemas.
    /// A file that cannot be read, or is no schema, fails with its path.
    pub fn from_files(providers: &[PathBuf], packages: &[PathBuf]) -> Result<Schemas, (PathBuf, String)> {
        let mut files = Vec::new();
        let mut h = rustc_hash::FxHasher::default();
        for path in providers {
            let (schemas, mtime) = read_cached(path, load).map_err(|e| (path.clone(), e))?;
            (path, mtime).hash(&mut h);
            files.push(SchemaFile { label: label(path), path: path.clone(), schemas, trusted: false });
        }
        let mut pkgs = Vec::new();
        for path in packages {
            let (package, mtime) = read_cached(path, load_package).map_err(|e| (path.clone(), e))?;
            (path, mtime).hash(&mut h);
            pkgs.push(PackageFile { label: label(path), package, trusted: false });
        }
        Ok(Schemas { files, packages: pkgs, version: h.finish(), open: OnceLock::new() })
    }

    /// `base` (the files the user named) with the module's own provider
    /// schema first: printed by its `terraform providers schema -json`
    /// (lock key `key`), so known to match.
    pub fn with_own(base: Option<&Schemas>, own: Arc<ProviderSchemas>, key: u64) -> Schemas {
        let path = super::own::cache_path(key).unwrap_or_default();
        let mut h = rustc_hash::FxHasher::default();
        (base.map(|b| b.version), key).hash(&mut h);
        let label = "the module's `terraform providers schema`".to_string();
        let mut files = vec![SchemaFile { label, path, schemas: own, trusted: true }];
        files.extend(base.iter().flat_map(|b| b.files.iter().cloned()));
        let packages = base.map(|b| b.packages.clone()).unwrap_or_default();
        Schemas { files, packages, version: h.finish(), open: OnceLock::new() }
    }

    pub fn is_empty(&self) -> bool {
        self.files.is_empty() && self.packages.is_empty()
    }

    /// A PCL resource by token, and the package file that has it: the
    /// first file (in the order named) that knows the token, even as
    /// ambiguous.
    pub fn pulumi_lookup(&self, token: &str) -> Option<(Lookup<'_, PulumiResource>, &PackageFile)> {
        self.packages.iter().find_map(|p| match p.package.lookup_resource(token) {
            Lookup::Missing => None,
            found => Some((found, p)),
        })
    }

    /// A PCL resource that its token names unambiguously.
    pub fn pulumi_resource(&self, token: &str) -> Option<(&PulumiResource, &PackageFile)> {
        match self.pulumi_lookup(token)? {
            (Lookup::Found(r), p) => Some((r, p)),
            _ => None,
        }
    }

    /// A PCL invoke's function by token, as [`Self::pulumi_lookup`].
    pub fn pulumi_function(&self, token: &str) -> Option<(Lookup<'_, PulumiFunction>, &PackageFile)> {
        self.packages.iter().find_map(|p| match p.package.lookup_function(token) {
            Lookup::Missing => None,
            found => Some((found, p)),
        })
    }
}

/// What messages call a file: its name (`google-4.27.0.json`).
fn label(path: &Path) -> String {
    path.file_name().map_or_else(|| path.display().to_string(), |n| n.to_string_lossy().into())
}

/// A Pulumi package schema file.
#[derive(Clone, Debug)]
pub struct PackageFile {
    pub label: String,
    pub package: Arc<Package>,
    /// As for [`SchemaFile::trusted`].
    pub trusted: bool,
}

/// Every object type a block's value has: its own and its nested blocks'.
fn block_objects(b: &BlockSchema, file: usize, out: &mut HashMap<Type, usize>) {
    out.entry(b.value_type()).or_insert(file);
    for n in &b.blocks {
        block_objects(&n.block, file, out);
    }
}

type Shared = Arc<dyn std::any::Any + Send + Sync>;
type Cache = Mutex<HashMap<PathBuf, (SystemTime, Shared)>>;

/// A schema file read by `read`, read again only when its modification
/// time changed (one process-wide cache for every kind of schema). Only a
/// regular file of at most [`crate::fsread::SCHEMA_CAP`] bytes is read: a
/// FIFO named in the settings must not freeze the server.
pub fn read_cached<T: Send + Sync + 'static>(
    path: &Path,
    read: fn(&[u8]) -> Result<T, String>,
) -> Result<(Arc<T>, SystemTime), String> {
    static CACHE: std::sync::OnceLock<Cache> = std::sync::OnceLock::new();
    let cache = CACHE.get_or_init(Cache::default);
    // The caller knows the path: messages do not repeat it.
    let fail = |e: &dyn std::fmt::Display| e.to_string();
    // Opened first (never blocking on a FIFO), so the time is that of
    // what is read.
    let opened = crate::fsread::open_regular(path).map_err(|e| fail(&e))?;
    let mtime = opened.meta.modified().map_err(|e| fail(&e))?;
    let key = path.canonicalize().unwrap_or_else(|_| path.to_path_buf());
    if let Some((t, s)) = cache.lock().unwrap_or_else(|e| e.into_inner()).get(&key) {
        if let (true, Ok(s)) = (*t == mtime, s.clone().downcast::<T>()) {
            return Ok((s, mtime));
        }
    }
    let bytes = opened.read(crate::fsread::SCHEMA_CAP).map_err(|e| fail(&e))?;
    let value = Arc::new(read(&bytes).map_err(|e| fail(&e))?);
    cache.lock().unwrap_or_else(|e| e.into_inner()).insert(key, (mtime, value.clone()));
    Ok((value, mtime))
}
