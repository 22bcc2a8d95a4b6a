//! What the user set for an editor session: what the server may run
//! (fixed at start-up), and the settings it may change at any time
//! (dialects, severities, schema files). Read from JSON by the language
//! server; nothing here is LSP.

use analysis::sync::Locked;
use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use crate::schemas::{self, own, provided, read_cached};
use analysis::Family;
use schema::Schemas;
use syntax::diagnostic::{Code, Severity};
use syntax::Dialect;

/// What the server may run, from `initializationOptions` only (lsp.md
/// "What the server runs"): the client's own start-up configuration, on the
/// user's machine. `workspace/configuration` answers merge a workspace's
/// settings (`.vscode/settings.json`), which an untrusted repository writes,
/// so they never choose or allow an executable.
#[derive(Clone, Debug)]
pub struct Session {
    /// `terraform.runForSchemas`: run `terraform providers schema -json`
    /// for a module's own schemas. Off unless the user turned it on.
    pub run_for_schemas: bool,
    /// `terraform.path`: the executable that prints them (else `terraform`
    /// or `tofu` in an absolute `PATH` entry).
    pub terraform_path: Option<PathBuf>,
    /// `workspaceTrusted`: `false` from a client that knows the workspace is
    /// not trusted (VS Code's workspace trust) forbids any run.
    pub workspace_trusted: bool,
    /// The client said the workspace is trusted (`workspaceTrusted: true`,
    /// VS Code's Workspace Trust): the user's own provider binaries are
    /// read by default.
    pub client_trusted: bool,
    /// `terraform.pluginCache`: read the user's provider binaries (`true`),
    /// never (`false`), or as trust says (unset).
    pub plugin_cache: Option<bool>,
    /// The workspace folders: a registry module call is resolved through a
    /// module manifest only in the module's own directory or one within them.
    pub roots: Vec<PathBuf>,
    /// Where the session reads ([`crate::confine`]): the workspace folders
    /// (`check`: the checked paths' repositories). Nothing a repository
    /// names outside it is read.
    pub tree: Arc<crate::confine::Tree>,
}

impl Default for Session {
    fn default() -> Self {
        Session {
            run_for_schemas: false,
            terraform_path: None,
            workspace_trusted: true,
            client_trusted: false,
            plugin_cache: None,
            roots: Vec::new(),
            tree: Arc::default(),
        }
    }
}

impl Session {
    /// Reads what `initializationOptions` allow (`{"hclTypes": {…}}` or the
    /// inner object itself).
    pub fn from_init(v: &serde_json::Value, roots: Vec<PathBuf>) -> Session {
        let v = v.get("hclTypes").unwrap_or(v);
        Session {
            run_for_schemas: v.pointer("/terraform/runForSchemas").and_then(|b| b.as_bool()).unwrap_or(false),
            terraform_path: v.pointer("/terraform/path").and_then(|p| p.as_str()).map(PathBuf::from),
            workspace_trusted: v.get("workspaceTrusted").and_then(|b| b.as_bool()).unwrap_or(true),
            client_trusted: v.get("workspaceTrusted").and_then(|b| b.as_bool()) == Some(true),
            plugin_cache: v.pointer("/terraform/pluginCache").and_then(|b| b.as_bool()),
            roots: roots.iter().map(|r| analysis::workspace::normalize(r)).collect(),
            tree: Arc::new(crate::confine::Tree::for_folders(&roots)),
        }
    }

    /// What may run to read the module's providers from the user's own
    /// binaries (lsp.md "What the server runs"): nothing in a workspace not
    /// trusted or with `terraform.pluginCache: false`; the user's plugin
    /// cache in a workspace the client says is trusted, or with either
    /// opt-in; binaries inside the workspace only with `runForSchemas`.
    pub fn plugin_policy(&self) -> Option<provided::Policy> {
        let run = self.workspace_trusted
            && self.plugin_cache != Some(false)
            && (self.plugin_cache == Some(true) || self.run_for_schemas || self.client_trusted);
        run.then(|| provided::Policy {
            run,
            run_inside: self.run_for_schemas,
            opt_in: "`terraform.runForSchemas`",
            inside: self.tree.clone(),
            cache_dir: schemas::plugin::default_cache_dir().unwrap_or_default(),
            search: search_dirs().to_vec(),
            background: true,
        })
        .filter(|p| p.cache_dir.is_absolute())
    }

    /// The executable to run for a module's own schemas, when the user
    /// allowed one.
    fn executable(&self) -> Option<PathBuf> {
        if !self.run_for_schemas || !self.workspace_trusted {
            return None;
        }
        match own::find_executable(self.terraform_path.as_deref()) {
            Ok(exe) => Some(exe),
            Err(e) => {
                warn_once(&e);
                None
            }
        }
    }
}

/// The directories searched for provider binaries, once per process (the
/// user's environment and CLI configuration do not change under it).
fn search_dirs() -> &'static [PathBuf] {
    static DIRS: std::sync::OnceLock<Vec<PathBuf>> = std::sync::OnceLock::new();
    DIRS.get_or_init(schemas::installed::search_dirs)
}

/// The schemas read from the module's provider binaries, whether one is
/// still being read, and the providers not typed with why; says once per
/// module and outcome in the log which providers are typed from where.
fn plugin_schemas(dir: &Path, policy: &provided::Policy) -> (Vec<Typed>, bool, schema::Searched) {
    let survey = provided::survey(dir, policy);
    let mut typed = Vec::new();
    let mut running = false;
    let mut said = Vec::new();
    let mut searched = schema::Searched::default();
    for (name, _, o) in survey {
        match o {
            provided::Outcome::Typed { found, cache, schemas } => {
                said.push(format!("{name}: {} {} from {}", found.address, found.version, found.binary.display()));
                typed.push((found, cache, schemas));
            }
            provided::Outcome::Running(_) => {
                running = true;
                searched.reading.push(name);
            }
            provided::Outcome::Missing(why) => {
                said.push(format!("{name}: {why}"));
                searched.untyped.push((name, why));
            }
            provided::Outcome::NotRun(f, why) | provided::Outcome::Failed(f, why) => {
                let why = format!("{} not read: {why}", f.binary.display());
                said.push(format!("{name}: {why}"));
                searched.untyped.push((name, why));
            }
        }
    }
    if !running && !said.is_empty() {
        log_once(&format!("provider schemas of {}: {}", dir.display(), said.join("; ")));
    }
    (typed, running, searched)
}

type Typed = (schemas::installed::Installed, PathBuf, Arc<schema::ProviderSchemas>);

/// A line in the server's log, once per text.
fn log_once(line: &str) {
    static SAID: Mutex<Option<HashSet<String>>> = Mutex::new(None);
    if SAID.locked().get_or_insert_with(HashSet::new).insert(line.to_string()) {
        eprintln!("hcl-types: {line}");
    }
}

/// Says on stderr (the server's log) why the user's setting is not used,
/// once per reason.
fn warn_once(why: &str) {
    static SAID: Mutex<Option<HashSet<String>>> = Mutex::new(None);
    let mut said = SAID.locked();
    if said.get_or_insert_with(HashSet::new).insert(why.to_string()) {
        eprintln!("hcl-types: not running terraform for provider schemas: {why}");
    }
}

/// How much the server tells the client in `window/logMessage`s, least
/// first (`hclTypes.logLevel`, or `$/setTrace`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum LogLevel {
    Off,
    Error,
    Info,
    Debug,
}

impl LogLevel {
    /// The setting's words, and `$/setTrace`'s (`messages`, `verbose`).
    pub fn parse(s: &str) -> Option<LogLevel> {
        match s {
            "off" => Some(LogLevel::Off),
            "error" => Some(LogLevel::Error),
            "info" | "messages" => Some(LogLevel::Info),
            "debug" | "verbose" => Some(LogLevel::Debug),
            _ => None,
        }
    }
}

/// `hclTypes` settings (lsp.md).
#[derive(Clone, Debug)]
pub struct Settings {
    pub dialects: Vec<(globset::GlobMatcher, Dialect)>,
    pub severity: BTreeMap<Code, Option<Severity>>,
    pub inlay_hints: bool,
    /// `codeLens.references`: "N references" over variables and outputs
    /// (off unless asked, like terraform-ls's `codelens.referenceCount`).
    pub code_lens_references: bool,
    /// `logLevel` (or `trace`): which `window/logMessage`s the server sends (`None`: the
    /// settings do not say; the server keeps what it had).
    pub log_level: Option<LogLevel>,
    /// `providerSchemas`: files of `terraform providers schema -json`
    /// output, read when the settings are (once per file and change).
    pub schemas: Option<Arc<Schemas>>,
    /// What the user allowed the server to run, and the workspace folders:
    /// fixed at `initialize` (never taken from `workspace/configuration`).
    pub session: Arc<Session>,
    /// The files `schemas` was made of (a PCL program adds the package
    /// schemas Pulumi cached for it).
    pub provider_files: Vec<PathBuf>,
    pub package_files: Vec<PathBuf>,
    /// The configuration file's `exclude` (none: nothing is excluded):
    /// files it matches get no diagnostics, as `check` leaves them out.
    pub exclude: Option<Arc<crate::exclude::Exclude>>,
    /// The configuration file merged in, if any (the server's own watch
    /// watches its directory for a client that does not watch files).
    pub config_file: Option<PathBuf>,
    /// `diagnostics.workspace`: a client that takes only published
    /// diagnostics gets those of every module of its workspace folders,
    /// checked in the background (on unless turned off).
    pub workspace_diagnostics: bool,
    /// Tells settings apart (each read from the editor gets its own), so
    /// what is made of them can be kept while they stay the same.
    pub id: u64,
}

/// A new [`Settings::id`].
fn next_id() -> u64 {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
    NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            dialects: Vec::new(),
            severity: BTreeMap::new(),
            inlay_hints: true,
            // On where the client shows lenses (a client that does not
            // never asks for them): issue 48.5.
            code_lens_references: true,
            log_level: None,
            schemas: None,
            session: Arc::default(),
            provider_files: Vec::new(),
            package_files: Vec::new(),
            exclude: None,
            config_file: None,
            workspace_diagnostics: true,
            id: 0,
        }
    }
}

impl Settings {
    /// Reads settings from `{"hclTypes": {…}}` or the inner object itself.
    /// Unknown or malformed entries are skipped, not fatal.
    pub fn from_json(v: &serde_json::Value) -> Settings {
        let v = v.get("hclTypes").unwrap_or(v);
        let mut s = Settings { id: next_id(), ..Settings::default() };
        if let Some(map) = v.get("dialects").and_then(|d| d.as_object()) {
            for (glob, dialect) in map {
                let (Ok(g), Some(Ok(d))) = (globset::Glob::new(glob), dialect.as_str().map(str::parse::<Dialect>))
                else {
                    continue;
                };
                s.dialects.push((g.compile_matcher(), d));
            }
        }
        if let Some(map) = v.get("severity").and_then(|d| d.as_object()) {
            for (code, sev) in map {
                let Some(code) = Code::parse(code) else { continue };
                let sev = match sev.as_str() {
                    Some("error") => Some(Severity::Error),
                    Some("warning") => Some(Severity::Warning),
                    Some("hint") => Some(Severity::Hint),
                    Some("off") => None,
                    _ => continue,
                };
                s.severity.insert(code, sev);
            }
        }
        if let Some(enable) = v.pointer("/inlayHints/enable").and_then(|e| e.as_bool()) {
            s.inlay_hints = enable;
        }
        if let Some(on) = v.pointer("/codeLens/references").and_then(|e| e.as_bool()) {
            s.code_lens_references = on;
        }
        if let Some(on) = v.pointer("/diagnostics/workspace").and_then(|e| e.as_bool()) {
            s.workspace_diagnostics = on;
        }
        // `logLevel`; its old name `trace` still read when a string (VS Code
        // makes `hclTypes.trace` the object of its client's `trace.server`).
        s.log_level = ["logLevel", "trace"].iter().find_map(|k| v.get(*k)?.as_str()).and_then(LogLevel::parse);
        // A file that cannot be read is left out, like other malformed entries.
        let files = |key: &str, ok: &dyn Fn(&Path) -> bool| -> Vec<PathBuf> {
            let paths = v.get(key).and_then(|d| d.as_array()).into_iter().flatten();
            paths.filter_map(|p| p.as_str().map(PathBuf::from)).filter(|p| ok(p)).collect()
        };
        let providers = files("providerSchemas", &|p| read_cached(p, schema::load).is_ok());
        let packages = files("packageSchemas", &|p| read_cached(p, schema::pulumi::load_package).is_ok());
        s.schemas = schemas::from_files(&providers, &packages).ok().filter(|s| !s.is_empty()).map(Arc::new);
        (s.provider_files, s.package_files) = (providers, packages);
        s
    }

    /// These settings with their schema files read again (the caches
    /// dropped first: `schemas::forget_all`), as new settings (what was
    /// made of the old ones is not kept): the `hcl-types.reloadSchemas`
    /// command.
    pub fn schemas_reloaded(&self) -> Settings {
        schemas::forget_all();
        let mut s = Settings { id: next_id(), ..self.clone() };
        s.provider_files.retain(|p| read_cached(p, schema::load).is_ok());
        s.package_files.retain(|p| read_cached(p, schema::pulumi::load_package).is_ok());
        s.schemas =
            schemas::from_files(&s.provider_files, &s.package_files).ok().filter(|s| !s.is_empty()).map(Arc::new);
        s
    }

    /// The schemas of the module in `dir`: the named files, and its own
    /// providers' once `terraform providers schema -json` has printed them
    /// (started in the background on first use).
    pub fn schemas_for(&self, dir: &Path, family: Family) -> Option<Arc<Schemas>> {
        if family != Family::Terraform {
            return self.schemas.clone();
        }
        // The providers' own binaries, when the user's trust allows.
        let policy = self.session.plugin_policy();
        provided::take_fresh(dir);
        // Searched: a set even when nothing was found, so that a module
        // whose providers have no schema says so (`no-schema`).
        let base = match policy.as_ref().map(|p| plugin_schemas(dir, p)) {
            Some((typed, _, searched)) => {
                Some(Arc::new(schemas::with_plugins(self.schemas.as_deref(), &typed, searched)))
            }
            None => self.schemas.clone(),
        };
        // Nothing of the module's is looked at unless a run is allowed.
        let exe = self.session.executable();
        let Some(exe) = exe.filter(|_| own::initialised(dir)) else { return base };
        match own::in_background(&exe, dir, own::TIMEOUT) {
            Some((key, own::State::Ready(s))) => Some(Arc::new(schemas::with_own(base.as_deref(), s, key))),
            _ => base,
        }
    }

    /// Whether the module in `dir` waits for its own providers' schema, or
    /// one was read since its last analysis: it is to be analysed again.
    pub fn schema_pending(&self, dir: &Path) -> bool {
        provided::fresh(dir) || self.own_schema_running(dir)
    }

    /// Whether the module in `dir` waits for its own providers' schema
    /// (printed by `terraform`, or read from their binaries).
    pub fn own_schema_running(&self, dir: &Path) -> bool {
        let plugins = || self.session.plugin_policy().is_some_and(|p| plugin_schemas(dir, &p).1);
        self.session.executable().is_some_and(|exe| own::initialised(dir) && own::running(&exe, dir)) || plugins()
    }

    /// These settings with a configuration file's under them (config.md):
    /// the editor's win where both say (per code; its dialect globs come
    /// first); the file's exclusions and schema files are added. Schema
    /// files outside the file's own directory are not read: a repository's
    /// file does not make the server read elsewhere.
    pub fn under(&self, c: &crate::config::Config, exclude: Arc<crate::exclude::Exclude>) -> Settings {
        let mut s = self.clone();
        for (code, severity) in &c.severity {
            s.severity.entry(*code).or_insert(*severity);
        }
        // `*` matches every file name.
        if let (Some(d), Ok(all)) = (c.dialect, globset::Glob::new("*")) {
            s.dialects.push((all.compile_matcher(), d));
        }
        s.exclude = Some(exclude);
        s.config_file = c.path.clone();
        let base = c.path.as_deref().and_then(Path::parent).and_then(|d| d.canonicalize().ok());
        // (And inside the session's tree, as everything a repository names.)
        let inside = |p: &&PathBuf| {
            self.session.tree.allows(p)
                && base.as_ref().is_some_and(|b| p.canonicalize().is_ok_and(|p| p.starts_with(b)))
        };
        let providers: Vec<PathBuf> = c
            .provider_schemas
            .iter()
            .filter(inside)
            .filter(|p| read_cached(p, schema::load).is_ok())
            .cloned()
            .collect();
        let packages: Vec<PathBuf> = (c.package_schemas.iter().filter(inside))
            .filter(|p| read_cached(p, schema::pulumi::load_package).is_ok())
            .cloned()
            .collect();
        if !providers.is_empty() || !packages.is_empty() {
            s.provider_files.extend(providers);
            s.package_files.extend(packages);
            s.schemas =
                schemas::from_files(&s.provider_files, &s.package_files).ok().filter(|x| !x.is_empty()).map(Arc::new);
        }
        s
    }

    /// Whether the configuration file excludes `path`.
    pub fn excluded(&self, path: &Path) -> bool {
        self.exclude.as_ref().is_some_and(|e| e.matches(path))
    }

    /// A setting's dialect, else a Pulumi HCL program's (`Pulumi.yaml`),
    /// else the one the file's name implies.
    pub fn dialect_for(&self, path: &Path) -> Dialect {
        let name = path.file_name().map(Path::new).unwrap_or(path);
        self.dialects
            .iter()
            .find(|(g, _)| g.is_match(path) || g.is_match(name))
            .map(|(_, d)| *d)
            .or_else(|| crate::pulumi::dialect(path))
            .unwrap_or_else(|| analysis::dialect_of(path))
    }
}
