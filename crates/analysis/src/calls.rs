//! What a module offers its callers (its [`Interface`]: variables and
//! outputs) and what a module's analysis takes from outside its own files
//! ([`Context`]: the modules it calls, resolved by the workspace layer).
//!
//! An interface is plain data with a content hash, so a caller's checks
//! that consulted a callee are redone only when what they saw of it
//! changed, not whenever the callee's files did.

use std::collections::BTreeMap;
use std::hash::{Hash, Hasher};
use std::ops::Range;
use std::path::PathBuf;
use std::sync::Arc;

use schema::Schemas;
use types::Type;

/// Whether a module source is a local path (Terraform: `./` or `../`).
pub fn is_local(source: &str) -> bool {
    source.starts_with("./") || source.starts_with("../") || source.starts_with(".\\") || source.starts_with("..\\")
}

/// The call name of a test file's module under test (docs/spec/tests.md).
pub const TESTED: &str = "#tested";

/// The call name of what `run "NAME"` of test file `file` (its file name)
/// runs (its `module { source }`, else the module under test): `run.NAME`
/// is its outputs. Run names are the file's own.
pub fn run_call(file: &str, name: &str) -> String {
    format!("#run:{file}:{name}")
}

/// What the call names of a test file's `override_module` targets start with.
pub const OVERRIDE: &str = "#override:";

/// The call name of what `override_module { target = module.PATH }`
/// overrides: the module that the module of call `root` (the module under
/// test, or a run's module) calls as `PATH` (`a`, `a.b` for
/// `module.a.module.b`), resolved through that module's own calls
/// (docs/spec/tests.md §6).
pub fn override_call(root: &str, path: &str) -> String {
    format!("{OVERRIDE}{path}>{root}")
}

/// The call name of a Terraform stack's `component "NAME"` (docs/spec/stacks.md §3).
pub fn component_call(name: &str) -> String {
    format!("#component:{name}")
}

/// The call name of a Terragrunt unit's module (docs/spec/terragrunt.md §2).
pub const TERRAGRUNT: &str = "#terragrunt";

/// The call name of a Terragrunt unit's own directory, its module when no
/// `terraform { source }` is declared (docs/spec/terragrunt.md §2).
pub const TERRAGRUNT_DIR: &str = "#terragrunt-dir";

/// What the call names of a Terragrunt unit's `include` blocks start with.
pub const INCLUDE: &str = "#include:";

/// The call name of a Terragrunt unit's `include "LABEL"`
/// (docs/spec/terragrunt.md §3). Its callee offers only the included
/// file's values (see `workspace`): [`included_input`]s and [`INCLUDED`].
pub fn include_call(label: &str) -> String {
    format!("{INCLUDE}{label}")
}

/// The call name of the module that the file of a Terragrunt unit's
/// `include "LABEL"` names in its `terraform { source }`
/// (docs/spec/terragrunt.md §3). Not an [`INCLUDE`] call: a module.
pub fn include_source_call(label: &str) -> String {
    format!("#include-source:{label}")
}

/// How the source of an [`include_source_call`] starts: followed by the
/// include's own call source (the file whose `terraform { source }` counts).
pub const SOURCE_OF: &str = "#terraform-of:";

/// The call name of a Terragrunt unit's `include "LABEL"` with
/// `expose = true`, the same file as [`include_call`]'s: only such an
/// include is readable as `include.LABEL` (docs/spec/terragrunt.md §3).
pub fn exposed_call(label: &str) -> String {
    format!("{INCLUDE}{label}#exposed")
}

/// The call name of a Terragrunt unit's `dependency "NAME"`: the module
/// the dependency's unit runs, whose outputs are `dependency.NAME.outputs`
/// (docs/spec/terragrunt.md §7).
pub fn dependency_call(name: &str) -> String {
    format!("#dependency:{name}")
}

/// How the source of a [`dependency_call`] starts: followed by the
/// dependency's `config_path` (the unit whose module counts).
pub const DEPENDENCY_OF: &str = "#dependency-of:";

/// What stands for the `K`th `unit "NAME"` block of a stack that
/// instantiates a unit configuration: its `values` keys as outputs
/// (docs/spec/terragrunt.md §8). Not a call any block declares: the
/// project layer puts it in the unit's context.
pub fn stack_values_call(k: usize) -> String {
    format!("{STACK_VALUES}{k}")
}

/// How a [`stack_values_call`] starts.
pub const STACK_VALUES: &str = "#stack-values:";

/// What an include's callee calls the included file's whole `inputs`.
pub const INCLUDED: &str = "#inputs";

/// What an include's callee calls the included file's `locals`, as one
/// object.
pub const INCLUDED_LOCALS: &str = "#locals";

/// How an include's call source says `find_in_parent_folders("FILE")`:
/// `#parent:FILE` (a path relative to the unit's directory otherwise).
pub const PARENT: &str = "#parent:";

/// After a [`PARENT`] file, a path beside that file:
/// `dirname(find_in_parent_folders("FILE"))` followed by `/REST`.
pub const BESIDE: &str = "#dir:";

/// The name under which a plain HCL module's interface offers the value
/// `KEY` of the top-level `inputs = { … }` of one of its files (whose path
/// the output has): what a Terragrunt unit that includes the file merges in.
pub fn included_input(key: &str) -> String {
    format!("{INCLUDED}.{key}")
}

/// The name of test file `file`'s own variable `NAME` (its `variables`).
pub fn test_var(file: &str, name: &str) -> String {
    format!("#var:{file}:{name}")
}

/// What a test file's call name (`run_call`, `test_var`) shows: its NAME;
/// `None` for a module call.
pub fn test_name(call: &str) -> Option<&str> {
    call.strip_prefix('#')?.rsplit(':').next()
}

/// The file name a test file's call names use.
pub fn test_file_name(path: &std::path::Path) -> String {
    path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default()
}

/// A variable of a called module: what an argument is checked against.
#[derive(Clone, Debug, PartialEq, Hash)]
pub struct Input {
    pub name: String,
    /// The type constraint (with `optional` attributes), if declared.
    pub declared: Option<Type>,
    /// What `var.NAME` is inside the module.
    pub value: Type,
    /// No `default` attribute: callers must pass it.
    pub required: bool,
    /// `nullable = false`: a null argument takes the default instead.
    pub nullable: bool,
    pub description: Option<String>,
    /// The default's source text (for hover).
    pub default: Option<String>,
    pub path: PathBuf,
    pub name_range: Range<usize>,
    pub type_range: Option<Range<usize>>,
    /// Terraform 1.15's `deprecated = "…"`: a caller that sets it is warned.
    pub deprecated: Option<String>,
    /// `ephemeral = true`: it accepts ephemeral values (any other variable
    /// refuses them, internal/terraform/eval_variable.go).
    pub ephemeral: bool,
    /// `sensitive = true` (a sensitive argument for one that is not is the
    /// `sensitive-flow` lint, module/sensitive.rs).
    pub sensitive: bool,
}

/// An output of a called module.
#[derive(Clone, Debug, PartialEq, Hash)]
pub struct OutputInfo {
    pub name: String,
    pub ty: Type,
    pub description: Option<String>,
    pub path: PathBuf,
    pub name_range: Range<usize>,
    /// Terraform 1.15's `deprecated = "…"`: a reference to it is warned.
    pub deprecated: Option<String>,
    /// `ephemeral = true`: its value carries the ephemeral mark to callers.
    pub ephemeral: bool,
    /// Its value carries the sensitive mark to callers: declared
    /// `sensitive = true` (Terraform 1.15 `plan`), or its value is
    /// sensitive (1.11 too; module/sensitive.rs).
    pub sensitive: bool,
    /// The value, when a constant (an [`included_input`]'s: checked by
    /// value where it is merged in, as the including unit's own are).
    pub constant: Option<Constant>,
    /// Declares its `type` (Terraform 1.15): `ty` is that, not inferred
    /// from the value.
    pub typed: bool,
}

/// A constant value in an interface (hashed by its printed form: a
/// [`types::value::Value`] has no `Hash`).
#[derive(Clone, Debug, PartialEq)]
pub struct Constant(pub types::value::Value);

impl Hash for Constant {
    fn hash<H: Hasher>(&self, state: &mut H) {
        format!("{:?}", self.0).hash(state)
    }
}

/// A module as its callers see it.
///
/// Built once per change of the module and shared (`Arc`) by every call
/// of it: what callers ask of it by name is looked up in an index made
/// once, and `module.NAME`'s object type is made once, so N calls of a
/// module of M outputs cost N + M, not N × M (issue 42, item 2).
#[derive(Clone, Debug)]
pub struct Interface {
    /// The module's directory.
    pub dir: PathBuf,
    /// In declaration order; the first declaration of a name wins.
    pub inputs: Vec<Input>,
    pub outputs: Vec<OutputInfo>,
    /// Its provider configurations and requirements, as a call of it is
    /// judged by them ([`ProviderNeeds`]).
    pub providers: ProviderNeeds,
    /// A hash of everything above.
    pub version: u64,
    /// Made on first use from the fields above (see [`Derived`]).
    derived: std::sync::OnceLock<Arc<Derived>>,
}

/// What an [`Interface`] computes from its inputs and outputs once, for
/// every caller.
#[derive(Debug)]
struct Derived {
    /// The first input and output of each name: positions in the vectors.
    inputs: rustc_hash::FxHashMap<String, usize>,
    outputs: rustc_hash::FxHashMap<String, usize>,
    /// The object of all outputs ([`Interface::value`]).
    value: Type,
    /// The positions of the ephemeral outputs.
    ephemeral: Vec<usize>,
    /// The positions of the inputs without a default.
    required: Vec<usize>,
}

impl PartialEq for Interface {
    fn eq(&self, other: &Interface) -> bool {
        self.version == other.version
            && self.dir == other.dir
            && self.inputs == other.inputs
            && self.outputs == other.outputs
            && self.providers == other.providers
    }
}

/// What a called module says of provider configurations, by
/// `providerName` (`NAME` or `NAME.ALIAS`): what `validateProviderConfigs`
/// (internal/configs/provider_validation.go) judges a call of it by
/// (validate.md §3, provider_refs.rs).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct ProviderNeeds {
    /// `provider` blocks that set anything beyond their meta-arguments
    /// (or a `version`): the module configures them itself.
    pub configured: Vec<String>,
    /// Empty `provider` blocks (the old proxy configurations).
    pub empty: Vec<String>,
    /// `required_providers` entries' local names, each with the provider
    /// it means (`HOST/NAMESPACE/TYPE`, lower case).
    pub local_names: Vec<(String, String)>,
    /// Their `configuration_aliases` (`NAME.ALIAS`): callers must pass them.
    pub aliases: Vec<String>,
}

impl Interface {
    pub fn new(dir: PathBuf, inputs: Vec<Input>, outputs: Vec<OutputInfo>) -> Interface {
        let mut h = rustc_hash::FxHasher::default();
        dir.hash(&mut h);
        inputs.hash(&mut h);
        outputs.hash(&mut h);
        Interface {
            dir,
            inputs,
            outputs,
            providers: ProviderNeeds::default(),
            version: h.finish(),
            derived: Default::default(),
        }
    }

    /// The interface with what the module says of provider configurations.
    pub fn with_providers(mut self, providers: ProviderNeeds) -> Interface {
        let mut h = rustc_hash::FxHasher::default();
        self.version.hash(&mut h);
        providers.hash(&mut h);
        self.version = h.finish();
        self.providers = providers;
        self
    }

    fn derived(&self) -> &Derived {
        self.derived.get_or_init(|| {
            let mut inputs = rustc_hash::FxHashMap::default();
            for (k, i) in self.inputs.iter().enumerate() {
                inputs.entry(i.name.clone()).or_insert(k);
            }
            let mut outputs = rustc_hash::FxHashMap::default();
            let mut attrs: Vec<(String, Type)> = Vec::new();
            for (k, o) in self.outputs.iter().enumerate() {
                if outputs.contains_key(&o.name) {
                    continue;
                }
                outputs.insert(o.name.clone(), k);
                // (`#…` names are a plain HCL file's inputs, no output.)
                if !o.name.starts_with('#') {
                    attrs.push((o.name.clone(), o.ty.clone()));
                }
            }
            let ephemeral = self.outputs.iter().enumerate().filter(|(_, o)| o.ephemeral).map(|(k, _)| k).collect();
            let required = self.inputs.iter().enumerate().filter(|(_, i)| i.required).map(|(k, _)| k).collect();
            Arc::new(Derived { inputs, outputs, value: Type::object(attrs), ephemeral, required })
        })
    }

    /// The first input of this name.
    pub fn input(&self, name: &str) -> Option<&Input> {
        self.inputs.get(*self.derived().inputs.get(name)?)
    }

    /// The first output of this name.
    pub fn output(&self, name: &str) -> Option<&OutputInfo> {
        self.outputs.get(*self.derived().outputs.get(name)?)
    }

    /// The object of all outputs: what `module.NAME` is for one instance.
    pub fn value(&self) -> Type {
        self.derived().value.clone()
    }

    /// The inputs without a default (each call must set them), in order.
    pub fn required_inputs(&self) -> impl Iterator<Item = &Input> {
        self.derived().required.iter().filter_map(|&k| self.inputs.get(k))
    }

    /// The outputs marked `ephemeral = true`, in order.
    pub fn ephemeral_outputs(&self) -> impl Iterator<Item = &OutputInfo> {
        self.derived().ephemeral.iter().filter_map(|&k| self.outputs.get(k))
    }
}

/// What a module call's `source` leads to.
#[derive(Clone, Debug)]
pub enum Callee {
    /// A module on disk, analysed on its own (its variables at their
    /// declared types).
    Module(Arc<Interface>),
    /// A registry or remote source that `terraform init` has not installed.
    NotInstalled,
    /// A local path with no module files.
    Missing(PathBuf),
    /// A call that cannot be followed: it leads back to a module being
    /// analysed (a cycle), or too deep.
    Opaque,
    /// A call in a document that is no file (`untitled:`): it has no
    /// directory for a source to lead from, so no directory is read (a
    /// relative source once resolved against the server's working
    /// directory).
    Unsaved,
}

impl Callee {
    /// Changes whenever what a caller sees of the callee does.
    pub fn version(&self) -> u64 {
        let mut h = rustc_hash::FxHasher::default();
        match self {
            Callee::Module(i) => return i.version,
            Callee::NotInstalled => 1.hash(&mut h),
            Callee::Missing(dir) => (2, dir).hash(&mut h),
            Callee::Opaque => 3.hash(&mut h),
            Callee::Unsaved => 4.hash(&mut h),
        }
        h.finish()
    }

    pub fn interface(&self) -> Option<&Interface> {
        match self {
            Callee::Module(i) => Some(i),
            _ => None,
        }
    }
}

/// What a module's analysis takes from outside its files. The default (no
/// callees) leaves every module call unchecked and its outputs `any`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Context {
    /// The module's calls by name (the first block of a name).
    pub calls: Arc<BTreeMap<String, Callee>>,
    /// Provider schemas: what resources and data sources are (none: `any`).
    pub schemas: Option<Arc<Schemas>>,
    /// How to read a file beside the module's own (a `templatefile`
    /// template); none: such files are not there.
    pub reader: Option<Reader>,
    /// The symbol libraries the module imports (OpenTofu 1.13's
    /// `symbols` blocks), read by the project layer
    /// ([`crate::dialects::symbol_libraries::libraries::load`]).
    pub symbols: crate::dialects::symbol_libraries::libraries::Libraries,
    /// The variables that every known caller of this module sets; `None`
    /// when no caller is known, so the module runs as a root and its
    /// defaults are what it gets. A traversal that fails only on an
    /// untyped variable's default is reported only where the default is
    /// used (analysis.md §3.2, untyped variables).
    pub passed: Option<Arc<std::collections::BTreeSet<String>>>,
    /// The outputs the module's known callers read (`module.NAME.OUT`),
    /// when what each reads is known; `None`: every output counts as read
    /// (a caller reads the module whole, or is a Terragrunt unit, a test,
    /// a component). Judged only where `passed` is some (not a root):
    /// the `unused-output` hint (analysis.md §5.1).
    pub read_outputs: Option<Arc<std::collections::BTreeSet<String>>>,
    /// The files Terragrunt units generate into the module as they run it
    /// (`generate` blocks, docs/spec/terragrunt.md §6): analysed with the
    /// module's own, never shown as files (see [`Generated`]).
    pub generated: Generated,
}

/// Files a Terragrunt unit writes into the module it runs (its `generate`
/// blocks), parsed: read by the project layer
/// ([`crate::module::terragrunt_generate`]), analysed after the module's
/// own documents (their diagnostics are not the user's to see: the memo
/// leaves them out). Equal when the same files hold the same texts.
#[derive(Clone, Debug, Default)]
pub struct Generated {
    pub docs: Arc<[crate::Document]>,
    /// A unit (its `terragrunt.hcl`) that generates a file (its `path`)
    /// into the module whose text is not known without running it: what
    /// it may declare is not known either.
    pub unknown: Option<(std::path::PathBuf, String)>,
}

impl Generated {
    pub fn is_empty(&self) -> bool {
        self.docs.is_empty() && self.unknown.is_none()
    }
}

impl PartialEq for Generated {
    fn eq(&self, other: &Generated) -> bool {
        self.unknown == other.unknown
            && self.docs.len() == other.docs.len()
            && (self.docs.iter().zip(other.docs.iter()))
                .all(|(a, b)| a.file.path == b.file.path && a.file.text == b.file.text)
    }
}

/// Reads a file an analysis needs besides the module's documents (a
/// `templatefile` template). Given by the project layer, which owns all
/// I/O: the analysis only asks.
#[derive(Clone)]
pub struct Reader(pub Arc<ReadFn>);

/// What a [`Reader`] calls: a path to the file's text, `None` when unreadable.
pub type ReadFn = dyn Fn(&std::path::Path) -> Option<Arc<str>> + Send + Sync;

impl std::fmt::Debug for Reader {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Reader")
    }
}

impl PartialEq for Reader {
    fn eq(&self, other: &Reader) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl PartialEq for Callee {
    fn eq(&self, other: &Callee) -> bool {
        self.version() == other.version()
    }
}

impl Context {
    pub fn callee(&self, call: &str) -> Option<&Callee> {
        self.calls.get(call)
    }

    /// A file's text through the [`Reader`] (none without one).
    pub fn read(&self, path: &std::path::Path) -> Option<Arc<str>> {
        (self.reader.as_ref()?.0)(path)
    }

    /// The schemas' version, what an item that consulted them depends on.
    pub fn schemas_version(&self) -> Option<u64> {
        self.schemas.as_ref().map(|s| s.version)
    }
}
