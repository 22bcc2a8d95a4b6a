//! The `check` pipeline: the files under some paths, grouped into modules,
//! read once and analysed with their calls resolved (`analysis`), callees
//! first. The command line's `check` and `types` are this and a printer.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use analysis::callers::prescan;
use analysis::sync::Locked;
use analysis::workspace::normalize;
use analysis::{Call, Document, Family, FileKind, Memo, SourceFile, Symbol};
use rayon::prelude::*;
use schema::Schemas;
use syntax::diagnostic::{Code, Diagnostic};
use syntax::Dialect;

use crate::confine::Tree;
use crate::graph::{OpenDocs, Sources};
use crate::service::Service;
use crate::settings::{Session, Settings};
use crate::walk::{Entry, Walk};

/// What to check: the paths, and how to read them.
#[derive(Clone, Debug, Default)]
pub struct Request {
    /// Files and directories (none: the current directory).
    pub paths: Vec<PathBuf>,
    /// A dialect for every file (none: each file's name decides).
    pub dialect: Option<Dialect>,
    /// `.tfvars` files checked against another directory's variables.
    pub var_files: Vec<VarFileTarget>,
    /// A table of such targets (`TFVARS<TAB>MODULE_DIR` per line).
    pub var_file_table: Option<PathBuf>,
    /// Provider schema files the user named.
    pub provider_schemas: Vec<PathBuf>,
    /// Pulumi package schema files the user named.
    pub package_schemas: Vec<PathBuf>,
    /// Files and directories left out (`--exclude`, the configuration's).
    pub exclude: crate::exclude::Exclude,
    /// A file's text given on stdin (`check - --stdin-filename PATH`): it is
    /// checked as if it were at its path, within its module, whether or not
    /// that file exists; `paths` is then ignored.
    pub stdin: Option<StdinFile>,
    /// Where the run reads ([`crate::confine`]; none: the checked paths'
    /// repositories, [`Tree::for_paths`]).
    pub tree: Option<Arc<Tree>>,
    /// The severities the run shows (the configuration's and the command
    /// line's): a lint no severity turns on is not computed.
    pub severity: std::collections::BTreeMap<syntax::diagnostic::Code, Option<syntax::diagnostic::Severity>>,
}

/// A file's text read from stdin and the path it stands for.
#[derive(Clone, Debug)]
pub struct StdinFile {
    pub path: PathBuf,
    pub text: String,
}

/// Told how far a run is: the files to analyse, then each module's files
/// as it is done (the command line draws a progress bar with it).
pub trait Progress: Sync {
    fn start(&self, _files: usize) {}
    fn advance(&self, _files: usize) {}
}

/// No progress shown.
pub struct Quiet;

impl Progress for Quiet {}

/// Where a `.tfvars` file's variables are declared, when not beside it
/// (test inputs kept apart from their module).
#[derive(Debug, Clone)]
pub struct VarFileTarget {
    pub tfvars: PathBuf,
    pub module: PathBuf,
}

/// Reads a `--var-file-table`.
pub fn read_var_file_table(path: &Path) -> Result<Vec<VarFileTarget>, String> {
    // Errors are reported under the table's path: they do not repeat it.
    let text = crate::fsread::read_regular_to_string(path, crate::fsread::MANIFEST_CAP).map_err(|e| e.to_string())?;
    let mut rows = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim_end_matches('\r');
        if line.trim().is_empty() || line.trim_start().starts_with('#') {
            continue;
        }
        let mut cols = line.split('\t');
        match (cols.next(), cols.next()) {
            (Some(t), Some(m)) if !t.is_empty() && !m.is_empty() => {
                rows.push(VarFileTarget { tfvars: t.into(), module: m.into() })
            }
            _ => return Err(format!("line {}: expected TFVARS<TAB>MODULE_DIR", n + 1)),
        }
    }
    Ok(rows)
}

/// Moves each targeted `.tfvars` file into its target module. A target
/// that was not among the checked paths is loaded for its variables only;
/// its own files are not reported. Returns the files reported nowhere else.
/// One analysed file, for printing.
pub struct FileReport {
    pub path: PathBuf,
    pub text: analysis::Text,
    pub diagnostics: Vec<Diagnostic>,
    pub symbols: Vec<analysis::Symbol>,
}

/// A file that could not be read.
pub struct IoFailure {
    pub path: PathBuf,
    pub message: String,
}

/// Finds the files under `paths` and groups them into modules:
/// (directory, family) → files, in path order.
/// Modules found on disk: (directory, family) → files.
pub type Modules = BTreeMap<(PathBuf, Family), Vec<PathBuf>>;

/// (Confined to the paths' repositories, [`Tree::for_paths`].)
pub fn discover(paths: &[PathBuf]) -> (Modules, Vec<IoFailure>) {
    discover_excluding(paths, &crate::exclude::Exclude::default(), &Tree::for_paths(paths))
}

/// [`discover`], leaving out what `exclude` matches: a named path as well
/// as a walked one (pre-commit names files, and the configuration's
/// excludes must hold for them too), and an excluded directory is not walked.
/// A linked file is found only when it leads inside `tree` (one that leads
/// out is recorded there, whatever it leads to).
pub fn discover_excluding(
    paths: &[PathBuf],
    exclude: &crate::exclude::Exclude,
    tree: &Tree,
) -> (Modules, Vec<IoFailure>) {
    let (modules, failures, _) = discover_within(paths, exclude, usize::MAX, tree);
    (modules, failures)
}

/// [`discover_excluding`], walking at most `most` directory entries (the
/// language server's background index of a folder opened at `$HOME` must
/// not walk a whole disk); whether the walk was cut short.
pub fn discover_within(
    paths: &[PathBuf],
    exclude: &crate::exclude::Exclude,
    most: usize,
    tree: &Tree,
) -> (Modules, Vec<IoFailure>, bool) {
    let mut dirs = Vec::new();
    let mut modules: Modules = BTreeMap::new();
    let mut failures = Vec::new();
    let add = |file: PathBuf, modules: &mut BTreeMap<_, Vec<PathBuf>>| {
        if let Some(family) = analysis::family_of(&file) {
            let unit = analysis::unit_of(&file, family).unwrap_or_default();
            modules.entry((unit, family)).or_default().push(file);
        }
    };
    // A named path is judged before anything is asked of what it leads to
    // (it may be a link, or lie in a linked directory): its target's kind
    // must not decide what is said ([`crate::confine`]).
    for root in paths.iter().filter(|p| !exclude.matches(p) && tree.allows(p)) {
        match std::fs::metadata(root) {
            // Named, a FIFO or a device is a failure, not 0 files.
            Ok(m) if !m.is_file() && !m.is_dir() => failures.push(IoFailure {
                path: root.clone(),
                message: crate::fsread::ReadError::NotRegular(crate::fsread::kind(m.file_type())).to_string(),
            }),
            Ok(m) if m.is_file() => {
                if FileKind::for_path(root).is_some() {
                    add(root.clone(), &mut modules);
                } else {
                    // Named explicitly: check it as plain HCL.
                    let dir = root.parent().map(Path::to_path_buf).unwrap_or_default();
                    modules.entry((dir, Family::Hcl)).or_default().push(root.clone());
                }
            }
            Ok(_) => dirs.push(root.clone()),
            Err(e) => failures.push(IoFailure { path: root.clone(), message: e.to_string() }),
        }
    }
    // Directories are walked by the one walker and its rule for links
    // (`walk`): a linked file is read when it leads inside the tree, a
    // linked directory is not walked. A link of a kind read that leads out
    // is refused by name (`Tree::allows` records it).
    let skip = |p: &Path, kind: Entry| {
        let name = p.file_name().map(|n| n.to_string_lossy());
        kind == Entry::Dir && name.is_some_and(|n| matches!(n.as_ref(), ".git" | ".terraform" | "node_modules"))
            || exclude.matches(p)
    };
    let walk = Walk { most_entries: most, ..Walk::new(Some(tree), &skip) };
    let walked = walk.run(&dirs, &mut |_, entries| {
        for (path, kind) in entries {
            match kind {
                Entry::File => add(path.clone(), &mut modules),
                Entry::Outside if analysis::family_of(path).is_some() => {
                    let _ = tree.allows(path);
                }
                _ => {}
            }
        }
    });
    failures.extend(walked.failures.into_iter().map(|(path, message)| IoFailure { path, message }));
    let cut = walked.cut;
    // A file named is read even beside its `.tofu` alternative.
    let named = |p: &Path| paths.iter().any(|n| n == p);
    for files in modules.values_mut() {
        files.sort();
        files.dedup();
        analysis::tofu_files(files, &named);
    }
    (modules, failures, cut)
}

/// A Terraform or PCL file named on the command line is checked within its
/// module (pre-commit and editors name single files): the other files of its
/// directory and family join it, for their declarations only. Returns those
/// files, which are not reported.
fn within_module(modules: &mut Modules, paths: &[PathBuf], stdin: Option<&Path>, tree: &Tree) -> Vec<PathBuf> {
    let mut context_only = Vec::new();
    let is_file = |p: &&PathBuf| stdin == Some(p.as_path()) || std::fs::metadata(p).is_ok_and(|m| m.is_file());
    for path in paths.iter().filter(is_file) {
        let family = analysis::family_of(path);
        let Some(family) = family.filter(|f| matches!(f, Family::Terraform | Family::Pcl | Family::TfTest)) else {
            continue;
        };
        let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
        let Some(files) = modules.get_mut(&(dir.clone(), family)) else { continue };
        for other in crate::disk::listing(&dir, family, tree) {
            if !files.contains(&other) && !context_only.contains(&other) {
                files.push(other.clone());
                context_only.push(other);
            }
        }
        files.sort();
        analysis::tofu_files(files, &|p| paths.iter().any(|n| n == p));
    }
    // A file named as well as found beside another named one is reported.
    context_only.retain(|f| !paths.contains(f));
    context_only
}

/// Reads a file as text. Invalid UTF-8 and binary content become a
/// diagnostic on an otherwise empty document, not an I/O failure.
pub fn load(path: &Path, dialect: Option<Dialect>) -> Result<(SourceFile, Option<Diagnostic>), String> {
    let bytes = crate::fsread::read_regular(path, crate::fsread::SOURCE_CAP).map_err(|e| e.to_string())?;
    let kind = FileKind::for_path(path).unwrap_or(FileKind::Hcl);
    let dialect = dialect.or_else(|| crate::pulumi::dialect(path)).unwrap_or_else(|| analysis::dialect_of(path));
    let (text, problem) = match crate::fsread::decode(bytes) {
        Ok(t) => (t, None),
        // A binary file is not HCL (analysis.md §5, `not-hcl`); text that is
        // not UTF-8 may be HCL in another encoding.
        Err(e @ crate::fsread::Undecodable::Binary { .. }) => {
            (String::new(), Some(Diagnostic::new(Code::NotHcl, 0..0, format!("not HCL: {e}"))))
        }
        Err(e) => (String::new(), Some(Diagnostic::new(Code::Syntax, 0..0, e.to_string()))),
    };
    Ok((SourceFile { path: path.to_path_buf(), text: std::sync::Arc::new(text.into()), kind, dialect }, problem))
}

/// Analyses every module found under the request's paths.
pub fn run(req: &Request, progress: &dyn Progress) -> (Vec<FileReport>, Vec<IoFailure>) {
    let args = req;
    let stdin = args.stdin.as_ref();
    let paths = match stdin {
        Some(s) => vec![s.path.clone()],
        None if args.paths.is_empty() => vec![PathBuf::from(".")],
        None => args.paths.clone(),
    };
    let tree = args.tree.clone().unwrap_or_else(|| {
        // (A request made without the command line's: its targets are its caller's.)
        let tree = Tree::for_paths(&paths);
        args.var_files.iter().for_each(|t| tree.widen(&t.module));
        Arc::new(tree)
    });
    let (mut modules, mut failures) = match stdin {
        Some(s) if args.exclude.matches(&s.path) => (Modules::new(), Vec::new()),
        // It need not exist on disk: it joins its module as a named file would.
        Some(s) => {
            let family = analysis::family_of(&s.path).unwrap_or(Family::Hcl);
            let dir = s.path.parent().map(Path::to_path_buf).unwrap_or_default();
            let unit = analysis::unit_of(&s.path, family).unwrap_or(dir);
            (Modules::from([((unit, family), vec![s.path.clone()])]), Vec::new())
        }
        None => discover_excluding(&paths, &args.exclude, &tree),
    };
    let mut targets = args.var_files.clone();
    if let Some(table) = &args.var_file_table {
        match read_var_file_table(table) {
            Ok(rows) => {
                // The user's table: its modules are read wherever they are.
                rows.iter().for_each(|r| tree.widen(&r.module));
                targets.extend(rows)
            }
            Err(message) => failures.push(IoFailure { path: table.clone(), message }),
        }
    }
    let mut context_only = within_module(&mut modules, &paths, stdin.map(|s| s.path.as_path()), &tree);
    context_only.extend(retarget(&mut modules, &targets, &tree));
    // (PCL programs also get the schemas Pulumi cached for the packages
    // they name: the graph finds those per program, as in the server.)
    let schemas = match crate::schemas::from_files(&args.provider_schemas, &args.package_schemas) {
        Ok(s) if s.is_empty() => None,
        Ok(s) => Some(std::sync::Arc::new(s)),
        Err((path, message)) => {
            failures.push(IoFailure { path, message });
            None
        }
    };
    progress.start(modules.values().map(Vec::len).sum());
    let modules: Vec<&Vec<PathBuf>> = modules.values().collect();
    let settings = settings(args.dialect, schemas, &paths, &args.provider_schemas, &args.package_schemas);
    let settings = Settings {
        session: Arc::new(Session { tree: tree.clone(), ..(*settings.session).clone() }),
        severity: args.severity.clone(),
        ..settings
    };
    let results = check_modules_with(&modules, &settings, progress, stdin);
    let mut reports = Vec::new();
    for (r, f) in results {
        reports.extend(r);
        failures.extend(f);
    }
    reports.extend(refused(&tree));
    // A file both checked and read for a caller failed twice: said once.
    let mut seen = std::collections::HashSet::new();
    failures.retain(|f| seen.insert((f.path.clone(), f.message.clone())));
    reports.retain(|r| !context_only.contains(&r.path));
    reports.sort_by(|a, b| a.path.cmp(&b.path));
    (reports, failures)
}

fn retarget(modules: &mut Modules, targets: &[VarFileTarget], tree: &Tree) -> Vec<PathBuf> {
    let mut context_only = Vec::new();
    if targets.is_empty() {
        return context_only;
    }
    // Each named file once, to compare paths however they are spelled.
    let named: Vec<Option<PathBuf>> = targets.iter().map(|t| t.tfvars.canonicalize().ok()).collect();
    let tfvars: Vec<PathBuf> = modules
        .iter()
        .filter(|((_, family), _)| *family == Family::Terraform)
        .flat_map(|(_, files)| files.iter().filter(|f| FileKind::for_path(f) == Some(FileKind::Tfvars)).cloned())
        .collect();
    for file in tfvars {
        // An exact path first; else a relative row whose components end the
        // file's path, with the module taken from the same root.
        let canonical = file.canonicalize().ok();
        let module = targets.iter().zip(&named).find_map(|(t, named)| {
            if file == t.tfvars || (named.is_some() && *named == canonical) {
                return Some(t.module.clone());
            }
            if t.tfvars.is_relative() && file.ends_with(&t.tfvars) {
                let mut root = file.clone();
                for _ in t.tfvars.components() {
                    root.pop();
                }
                return Some(root.join(&t.module));
            }
            None
        });
        // (A target out of the tree, which a repository's configuration
        // may name, is not read: the file stays in its own module.)
        let Some(module) = module.filter(|m| tree.allows(m)) else { continue };
        let Some(dir) = file.parent().map(Path::to_path_buf) else { continue };
        if let Some(files) = modules.get_mut(&(dir.clone(), Family::Terraform)) {
            files.retain(|f| f != &file);
            if files.is_empty() {
                modules.remove(&(dir, Family::Terraform));
            }
        }
        // The module as discovered (spelled the same, else the same directory).
        let exact = (module.clone(), Family::Terraform);
        let key = if modules.contains_key(&exact) {
            exact
        } else {
            let wanted = module.canonicalize().ok();
            modules
                .keys()
                .find(|(d, family)| *family == Family::Terraform && wanted.is_some() && d.canonicalize().ok() == wanted)
                .cloned()
                .unwrap_or(exact)
        };
        if !modules.contains_key(&key) {
            let found = crate::disk::listing(&module, Family::Terraform, tree);
            context_only.extend(found.iter().cloned());
            modules.insert(key.clone(), found);
        }
        if let Some(files) = modules.get_mut(&key) {
            files.push(file);
            files.sort();
        }
    }
    context_only
}

// ---------------------------------------------------------------------------
// Checking many modules at once. Each is read and parsed once, and
// analysed after the modules it calls (those of one depth in parallel):
// a checked module that others call then hands its analysis to them
// instead of being analysed again as their callee. Texts are read first
// (to order the modules), trees made only in each module's turn.

/// The longest chain of calls followed when ordering modules.
const MAX_LEVELS: usize = 64;

/// What checking one module gives: its files' reports and read failures.
type Checked = (Vec<FileReport>, Vec<IoFailure>);

/// One module, read (parsed only when its turn comes).
struct Loaded {
    files: Vec<SourceFile>,
    problems: Vec<Option<Diagnostic>>,
    failures: Vec<IoFailure>,
    /// Its directory and family, when it is a Terraform or PCL module.
    dir: Option<(PathBuf, Family)>,
}

fn load_module(paths: &[PathBuf], dialect: Option<Dialect>, stdin: Option<&StdinFile>, tree: &Tree) -> Loaded {
    let mut loaded = Loaded { files: Vec::new(), problems: Vec::new(), failures: Vec::new(), dir: None };
    for path in paths {
        let read = match stdin.filter(|s| &s.path == path) {
            Some(s) => Ok(from_stdin(s, dialect)),
            // A module's other files (a named file's, a `var_files`
            // target's) are listed with their links: judged here (the
            // files of a directory inside the tree are inside but links).
            None if std::fs::symlink_metadata(path).is_ok_and(|m| m.is_symlink()) && !tree.allows(path) => continue,
            None => load(path, dialect),
        };
        match read {
            Ok((file, problem)) => {
                loaded.problems.push(problem);
                loaded.files.push(file);
            }
            Err(message) => loaded.failures.push(IoFailure { path: path.clone(), message }),
        }
    }
    let family = if loaded.files.iter().any(|f| f.kind == FileKind::Terraform) {
        Some(Family::Terraform)
    } else if loaded.files.iter().any(|f| f.kind == FileKind::Pcl) {
        Some(Family::Pcl)
    } else if loaded.files.iter().any(|f| f.kind == FileKind::TfTest) {
        Some(Family::TfTest)
    } else if loaded.files.iter().any(|f| analysis::calls_modules(&f.path)) {
        // A stack's components and a Terragrunt unit call modules
        // (docs/spec/stacks.md, terragrunt.md).
        Some(Family::Hcl)
    } else {
        None
    };
    let dir = loaded.files.first().and_then(|f| f.path.parent()).map(normalize);
    loaded.dir = dir.zip(family);
    loaded
}

/// The paths the run did not follow out of its tree, each reported once as
/// a warning on the path as the repository spells it (a link's own name):
/// never an I/O failure, whose exit status and words would tell what lies
/// at the other end ([`crate::confine`]).
fn refused(tree: &Tree) -> Vec<FileReport> {
    let said = |path: PathBuf| {
        let message = format!("this file or path {}", crate::confine::message());
        let diagnostics = vec![Diagnostic::new(Code::OutsideTree, 0..0, message)];
        FileReport { path, text: Arc::new(String::new().into()), diagnostics, symbols: Vec::new() }
    };
    tree.take_refused().into_iter().map(said).collect()
}

/// The stdin file as [`load`] would read it from disk.
fn from_stdin(s: &StdinFile, dialect: Option<Dialect>) -> (SourceFile, Option<Diagnostic>) {
    let kind = FileKind::for_path(&s.path).unwrap_or(FileKind::Hcl);
    let dialect = dialect.or_else(|| crate::pulumi::dialect(&s.path)).unwrap_or_else(|| analysis::dialect_of(&s.path));
    (SourceFile { path: s.path.clone(), text: Arc::new(s.text.clone().into()), kind, dialect }, None)
}

/// Checks the modules (each a list of files) and reports on each file.
pub fn check_modules(
    modules: &[&Vec<PathBuf>],
    dialect: Option<Dialect>,
    progress: &dyn Progress,
    schemas: Option<Arc<Schemas>>,
    roots: &[PathBuf],
) -> Vec<Checked> {
    let settings = settings(dialect, schemas, roots, &[], &[]);
    check_modules_with(modules, &settings, progress, None)
}

/// The settings a `check` run reads modules with: the `--dialect` for
/// every file (else each file's name decides), the schemas of the files
/// named, the checked paths' directories as its roots, their
/// repositories as its tree.
fn settings(
    dialect: Option<Dialect>,
    schemas: Option<Arc<Schemas>>,
    roots: &[PathBuf],
    provider_files: &[PathBuf],
    package_files: &[PathBuf],
) -> Settings {
    let dir = |p: &PathBuf| if p.is_dir() { normalize(p) } else { normalize(p.parent().unwrap_or(Path::new(""))) };
    let mut settings = Settings::default();
    // `*` matches every file name.
    if let (Some(d), Ok(all)) = (dialect, globset::Glob::new("*")) {
        settings.dialects.push((all.compile_matcher(), d));
    }
    settings.schemas = schemas;
    settings.provider_files = provider_files.to_vec();
    settings.package_files = package_files.to_vec();
    let tree = Arc::new(Tree::for_paths(roots));
    settings.session = Arc::new(Session { roots: roots.iter().map(dir).collect(), tree, ..Default::default() });
    settings
}

/// The modules a `check` run analysed already, standing for their
/// directories as the editor's open documents do in the server: their
/// callers read them from here (without their trees), not from disk.
#[derive(Default)]
struct Done {
    modules: Mutex<HashMap<(PathBuf, Family), Vec<Document>>>,
}

impl OpenDocs for Done {
    fn open_docs(&self, dir: &Path, family: Family) -> Vec<Document> {
        self.modules.locked().get(&(dir.to_path_buf(), family)).cloned().unwrap_or_default()
    }

    fn home(&self, dir: &Path) -> Option<PathBuf> {
        Some(dir.to_path_buf())
    }
}

/// What a run shares between its modules: the module service both front
/// ends analyse through (its graph, the disk it reads callees from), and
/// the modules checked so far.
struct Run<'a> {
    service: Service,
    checked: Done,
    settings: &'a Settings,
}

impl Run<'_> {
    fn sources(&self) -> Sources<'_> {
        Sources { open: &self.checked, disk: &self.service.disk, settings: self.settings, recheck: false }
    }
}

/// [`check_modules`], with one file's text from stdin instead of the disk.
fn check_modules_with(
    modules: &[&Vec<PathBuf>],
    settings: &Settings,
    progress: &dyn Progress,
    stdin: Option<&StdinFile>,
) -> Vec<Checked> {
    let dialect = settings.dialects.first().map(|(_, d)| *d);
    let tree = &settings.session.tree;
    let loaded: Vec<Mutex<Option<Loaded>>> =
        modules.par_iter().map(|paths| Mutex::new(Some(load_module(paths, dialect, stdin, tree)))).collect();
    let run = Run { service: Service::for_check(), checked: Done::default(), settings };

    // Modules whose files are all of their directory's Terraform files
    // stand for that directory when others call it.
    let mut by_dir: HashMap<(PathBuf, Family), usize> = HashMap::new();
    let mut hints: Vec<Vec<Call>> = vec![Vec::new(); loaded.len()];
    for (k, m) in loaded.iter().enumerate() {
        let guard = m.locked();
        let Some(m) = guard.as_ref() else { continue };
        let Some((dir, family)) = &m.dir else { continue };
        hints[k] = prescan(m.files.iter().map(|f| (f.kind, f.path.as_path(), f.text.as_str())));
        let mut paths: Vec<&Path> = m.files.iter().map(|f| f.path.as_path()).collect();
        paths.sort();
        if paths == crate::disk::listing(dir, *family, tree).iter().map(PathBuf::as_path).collect::<Vec<_>>() {
            by_dir.insert((dir.clone(), *family), k);
        }
    }
    // Which checked modules each one calls; a module's level is one more
    // than its callees' (cycles are cut where they close).
    let mut callees: Vec<Vec<usize>> = vec![Vec::new(); loaded.len()];
    for (k, m) in loaded.iter().enumerate() {
        let dir = m.locked().as_ref().and_then(|m| m.dir.clone());
        let (Some((dir, _)), false) = (dir, hints[k].is_empty()) else { continue };
        let targets = run.service.graph.targets(&run.sources(), &dir, &hints[k]);
        // Module calls lead to Terraform modules, components to PCL programs,
        // a test file's calls to the module under test.
        let checked = |t: &(PathBuf, Family)| by_dir.get(t).copied();
        callees[k] = targets.iter().filter_map(checked).filter(|&c| c != k).collect();
    }
    // What the checked callers pass: an untyped variable's default is
    // used only where some caller does not set it (analysis.md §3.2).
    {
        let guards: Vec<_> = loaded.iter().map(|m| m.locked()).collect();
        let callers = || {
            guards.iter().zip(&hints).filter_map(|(g, h)| {
                let m = g.as_ref()?;
                let (dir, _) = m.dir.as_ref()?;
                (!h.is_empty()).then_some((dir.as_path(), m.files.as_slice(), h.as_slice()))
            })
        };
        for (key, passed) in crate::passed::passed(&run.service.graph, &run.sources(), callers()) {
            run.service.graph.set_passed(key, passed);
        }
        for (key, read) in crate::passed::output_reads(&run.service.graph, &run.sources(), callers()) {
            run.service.graph.set_read_outputs(key, read);
        }
    }
    let levels = levels(&callees);
    let mut shared = vec![false; loaded.len()];
    callees.iter().flatten().for_each(|&c| shared[c] = true);
    let mut results: Vec<Option<Checked>> = (0..loaded.len()).map(|_| None).collect();
    let top = levels.iter().copied().max().unwrap_or(0);
    for level in 0..=top {
        let now: Vec<usize> = (0..loaded.len()).filter(|&k| levels[k] == level).collect();
        let done: Vec<(usize, Checked)> = now
            .par_iter()
            .map(|&k| {
                let m = loaded[k].locked().take();
                let out = m.map(|m| analyse(m, &run, shared[k]));
                progress.advance(modules[k].len());
                (k, out.unwrap_or_default())
            })
            .collect();
        for (k, r) in done {
            results[k] = Some(r);
        }
    }
    let mut out: Vec<Checked> = results.into_iter().map(Option::unwrap_or_default).collect();
    // Files of called modules (and manifests) that were there but not read.
    let skipped = run.service.disk.skipped().into_iter().map(|(path, message)| IoFailure { path, message });
    out.push((Vec::new(), skipped.collect()));
    out
}

/// Each module's depth in the call graph (0: calls no checked module).
fn levels(callees: &[Vec<usize>]) -> Vec<usize> {
    let mut level: Vec<Option<usize>> = vec![None; callees.len()];
    fn visit(k: usize, callees: &[Vec<usize>], level: &mut [Option<usize>], stack: &mut Vec<usize>) -> usize {
        if let Some(l) = level[k] {
            return l;
        }
        if stack.contains(&k) || stack.len() >= MAX_LEVELS {
            return 0;
        }
        stack.push(k);
        let l = callees[k].iter().map(|&c| visit(c, callees, level, stack) + 1).max().unwrap_or(0);
        stack.pop();
        level[k] = Some(l);
        l
    }
    (0..callees.len()).map(|k| visit(k, callees, &mut level, &mut Vec::new())).collect()
}

/// Analyses one module with its calls resolved; a module others call is
/// handed to the graph for them (without its trees).
fn analyse(m: Loaded, run: &Run, share: bool) -> (Vec<FileReport>, Vec<IoFailure>) {
    let docs: Vec<Document> = m.files.into_iter().map(Document::parse).collect();
    let mut memo = Memo::default();
    let analysis = run.service.analyse(&run.sources(), &docs, &mut memo, analysis::Stop::NEVER).unwrap_or_default();
    let mut symbols: Vec<Vec<Symbol>> = docs.iter().map(|_| Vec::new()).collect();
    for s in &analysis.symbols {
        symbols[s.doc].push(s.clone());
    }
    let mut reports = Vec::new();
    let files = analysis.diagnostics.len();
    for (i, (problem, mut syms)) in m.problems.into_iter().zip(symbols).enumerate().take(files) {
        let Some(doc) = docs.get(i) else { continue };
        let mut diagnostics = crate::service::diagnostics(&docs, i, &analysis, run.settings).into_owned();
        diagnostics.extend(problem);
        for s in &mut syms {
            s.name_range = doc.shown_range(&s.name_range);
            s.range = doc.shown_range(&s.range);
        }
        reports.push(FileReport {
            path: doc.file.path.clone(),
            text: doc.shown_text().clone(),
            diagnostics,
            symbols: syms,
        });
    }
    match (share, m.dir) {
        (true, Some((dir, family))) => {
            let compact: Vec<Document> = docs.iter().map(Document::without_trees).collect();
            run.checked.modules.locked().insert((normalize(&dir), family), compact);
            run.service.graph.share(&dir, family, memo, analysis);
            std::thread::spawn(move || drop(docs));
        }
        // Freeing large trees takes a while; nobody waits for it.
        _ => {
            std::thread::spawn(move || drop((docs, memo, analysis)));
        }
    }
    (reports, m.failures)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn callees_come_first_and_cycles_end() {
        // 0 calls 1, 1 calls 2, 3 and 4 call each other.
        let callees = vec![vec![1], vec![2], vec![], vec![4], vec![3]];
        let l = levels(&callees);
        assert!(l[2] < l[1] && l[1] < l[0], "{l:?}");
        assert!(l[3] != l[4], "{l:?}");
    }
}
