//! The provider schemas one analysis uses ([`Schemas`]): several files
//! (read and cached by the project layer), with what resource and data
//! source types they define.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, OnceLock};

use super::pulumi::{Lookup, Package, PulumiFunction, PulumiResource};
use super::{BlockKind, BlockSchema, FunctionSchema, Provider, ProviderSchemas};
use types::Type;

/// One schema file and how far it is trusted.
#[derive(Clone, Debug)]
pub struct SchemaFile {
    /// What diagnostics call it: the file name (`google-4.27.0.json`).
    pub label: String,
    /// Where it was read from.
    pub path: PathBuf,
    /// How to read its bytes again: descriptions are read when asked for,
    /// not kept in memory.
    pub source: Source,
    pub schemas: Arc<ProviderSchemas>,
    /// Known to match the module's providers (printed by its own
    /// `terraform providers schema -json`). A file the user names is not:
    /// its unknown arguments are warnings, since the module may use a
    /// newer provider.
    pub trusted: bool,
}

/// Reads a schema file's bytes again. Given by the project layer, which
/// owns all I/O: this crate only reads bytes it is handed.
#[derive(Clone)]
pub struct Source(pub Arc<dyn Fn() -> Option<Vec<u8>> + Send + Sync>);

impl std::fmt::Debug for Source {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Source")
    }
}

/// The schemas an analysis consults. Compared by [`Schemas::version`].
#[derive(Debug, Default)]
pub struct Schemas {
    pub files: Vec<SchemaFile>,
    pub packages: Vec<PackageFile>,
    /// Changes whenever a file does (its identity and modification time).
    pub version: u64,
    /// Set when the user's provider binaries were searched for the module
    /// (the server, trusted): a module whose providers have no schema says
    /// so (`no-schema`) even when nothing at all was found.
    pub searched: Option<Searched>,
    /// The object types of the blocks of files not known to match (their
    /// resources, data sources and nested blocks) → the file's index; built
    /// the first time a traversal of an object fails.
    open: OnceLock<HashMap<Type, usize>>,
}

/// What a search of the user's provider binaries did not type.
#[derive(Clone, Debug, Default, Hash)]
pub struct Searched {
    /// By local name, with why (no binary, the lock file's hashes, …).
    pub untyped: Vec<(String, String)>,
    /// Being read now: not said to have no schema yet.
    pub reading: Vec<String>,
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
        self.description_of(BlockKind::of_data(data), ty, path)
    }

    /// [`Found::description`] of a type of any kind.
    pub fn description_of(&self, kind: BlockKind, ty: &str, path: &[&str]) -> Option<String> {
        let bytes = (self.file.source.0)()?;
        let doc: serde_json::Value = serde_json::from_slice(&bytes).ok()?;
        let provider = doc.get("provider_schemas")?.get(&self.provider.address)?;
        // (A provider's own configuration is not under a type name.)
        let of = match kind {
            BlockKind::Provider => provider.get(kind.key())?,
            _ => provider.get(kind.key())?.get(ty)?,
        };
        let mut block = of.get("block")?;
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
        self.find_kind(BlockKind::of_data(data), ty)
    }

    /// [`Schemas::find`] for a type of any kind (an action, a list resource).
    pub fn find_kind(&self, kind: BlockKind, ty: &str) -> Option<Found<'_>> {
        let prefix = ty.split('_').next().unwrap_or(ty);
        let all = || {
            self.files
                .iter()
                .flat_map(|f| f.schemas.providers.iter().map(move |p| (f, p)))
                .filter_map(|(f, p)| p.of(kind).get(ty).map(|block| Found { block, provider: p, file: f }))
        };
        all().find(|f| f.provider.name() == prefix).or_else(|| all().next())
    }

    /// Every resource (or data source) type, for completion.
    pub fn types(&self, data: bool) -> impl Iterator<Item = (&str, Found<'_>)> {
        self.types_of(BlockKind::of_data(data))
    }

    /// [`Schemas::types`] of any kind.
    pub fn types_of(&self, kind: BlockKind) -> impl Iterator<Item = (&str, Found<'_>)> {
        self.files.iter().flat_map(move |f| {
            f.schemas.providers.iter().flat_map(move |p| {
                p.of(kind).iter().map(move |(name, block)| (name.as_str(), Found { block, provider: p, file: f }))
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

    /// The schemas of `files` and `packages`; `version` changes whenever
    /// one of them does (the project layer hashes identities and times).
    pub fn new(files: Vec<SchemaFile>, packages: Vec<PackageFile>, version: u64) -> Schemas {
        Schemas { files, packages, version, searched: None, open: OnceLock::new() }
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
