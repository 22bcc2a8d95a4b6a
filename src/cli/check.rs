//! `hcl-types check` and `hcl-types types`: walk paths, analyse each
//! directory's modules, print diagnostics or named values.

use std::collections::BTreeMap;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;

use clap::Args;

use syntax::diagnostic::{Code, Severity};
use syntax::lines::LineIndex;
use syntax::Dialect;

#[derive(Args, Debug, Clone)]
pub struct CommonArgs {
    /// Files and directories (default: the current directory).
    pub paths: Vec<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    pub format: Format,
    /// Force a dialect for every file.
    #[arg(long, value_parser = super::dialect_parser())]
    pub dialect: Option<Dialect>,
    /// Check a `.tfvars` file against another directory's variables:
    /// TFVARS=MODULE_DIR (repeatable).
    #[arg(long = "var-file", value_parser = parse_var_file)]
    pub var_files: Vec<VarFileTarget>,
    /// A table of `.tfvars` targets: one `TFVARS<TAB>MODULE_DIR` per line
    /// (`#` starts a comment). Relative rows match checked files by their
    /// trailing path components, so one table serves any checkout location.
    #[arg(long = "var-file-table")]
    pub var_file_table: Option<PathBuf>,
    /// A provider schema, as `terraform providers schema -json` prints it
    /// (repeatable): resources and data sources get their types and their
    /// arguments are checked. Not known to match the module's providers,
    /// so what it lacks is a warning naming the file.
    /// A directory stands for every `.json` file in it: `--schema-cache DIR`
    /// reads what `hcl-types schemas` cached (nothing runs).
    #[arg(long = "provider-schema", visible_alias = "schema-cache", value_name = "FILE|DIR")]
    pub provider_schemas: Vec<PathBuf>,
    /// A Pulumi package schema (`pulumi package get-schema` output,
    /// repeatable): PCL resources and invokes get their types and their
    /// inputs are checked.
    #[arg(long = "package-schema")]
    pub package_schemas: Vec<PathBuf>,
    #[command(flatten)]
    pub source: SourceArgs,
}

/// Which files: exclusions, stdin, the configuration file.
#[derive(Args, Debug, Clone, Default)]
pub struct SourceArgs {
    /// Leave out files and directories matching GLOB (repeatable): with a
    /// `/`, a path from the current directory (`examples/**`); without,
    /// a name at any depth (`*.auto.tfvars`).
    #[arg(long, value_name = "GLOB")]
    pub exclude: Vec<String>,
    /// With `-` as the path: the path the text read from stdin stands for;
    /// it is checked there, within its module.
    #[arg(long, value_name = "PATH")]
    pub stdin_filename: Option<PathBuf>,
    /// The configuration file (default: the nearest `.hcl-types.hcl` in the
    /// checked path's directory or above).
    #[arg(long, value_name = "FILE", conflicts_with = "no_config")]
    pub config: Option<PathBuf>,
    /// Read no configuration file.
    #[arg(long)]
    pub no_config: bool,
}

pub use project::check::{discover, load, read_var_file_table, FileReport, IoFailure, VarFileTarget};

/// What a run checks, from the command line and the configuration file.
pub struct Prepared {
    pub request: project::check::Request,
    /// The configuration's severity overrides (the command line's go after).
    pub severity: Vec<(Code, Option<Severity>)>,
}

/// Reads the configuration and stdin and merges them with the options: the
/// command line's dialect wins, lists add up, the configuration's excludes
/// are based at its own directory. A problem is an I/O failure (exit 2).
pub fn prepare(args: &CommonArgs) -> Result<Prepared, IoFailure> {
    let usage = |message: &str| IoFailure { path: PathBuf::from("-"), message: message.to_string() };
    let from_stdin = args.paths.iter().any(|p| p.as_os_str() == "-");
    let stdin_path = match (from_stdin, &args.source.stdin_filename) {
        (true, _) if args.paths.len() > 1 => return Err(usage("`-` (stdin) cannot be checked with other paths")),
        (true, None) => return Err(usage("`-` (stdin) needs --stdin-filename PATH: the file it stands for")),
        (false, Some(_)) => return Err(usage("--stdin-filename needs `-` as the path")),
        (_, p) => p.clone(),
    };
    let start = stdin_path.clone().or_else(|| args.paths.first().cloned()).unwrap_or_else(|| PathBuf::from("."));
    // Where the run reads: the checked paths' repositories. The
    // configuration file is looked for within the first's, and one found
    // (not named with --config) is read only when it stays inside.
    let checked = match &stdin_path {
        Some(p) => vec![p.clone()],
        None => args.paths.clone(),
    };
    let tree = std::sync::Arc::new(project::confine::Tree::for_paths(&checked));
    // The modules `--var-file` names are the user's: read wherever they are.
    args.var_files.iter().for_each(|t| tree.widen(&t.module));
    let found = match (args.source.no_config, &args.source.config) {
        (true, _) => None,
        (false, Some(named)) => Some((named.clone(), Some(project::config::load(named)))),
        (false, None) => project::config::find(&start).map(|p| {
            let read = project::config::load_within(&p, &tree);
            (p, read)
        }),
    };
    let (config_path, config) = match found {
        Some((path, Some(read))) => {
            let config = read.map_err(|message| IoFailure { path: path.clone(), message })?;
            (Some(path), config)
        }
        _ => (None, project::config::Config::default()),
    };
    // Schema files a repository's configuration names are read inside
    // the tree only (the command line's own are the user's).
    let inside = |p: &&PathBuf| tree.allows(p);
    let named = args.provider_schemas.iter().flat_map(|p| cache_files(p)).collect::<Vec<_>>();
    let provider_schemas = config.provider_schemas.iter().filter(inside).chain(&named).cloned();
    let package_schemas = config.package_schemas.iter().filter(inside).chain(&args.package_schemas).cloned();
    let base = config_path.as_deref().and_then(std::path::Path::parent).map(PathBuf::from).unwrap_or_default();
    let cwd = PathBuf::from(".");
    let patterns: Vec<(PathBuf, String)> = (config.exclude.iter().map(|p| (base.clone(), p.clone())))
        .chain(args.source.exclude.iter().map(|p| (cwd.clone(), p.clone())))
        .collect();
    let exclude = project::exclude::Exclude::new(&patterns).map_err(|message| usage(&message))?;
    let stdin = match stdin_path {
        Some(path) => {
            let mut text = String::new();
            std::io::Read::read_to_string(&mut std::io::stdin(), &mut text)
                .map_err(|e| IoFailure { path: PathBuf::from("-"), message: format!("reading stdin: {e}") })?;
            Some(project::check::StdinFile { path, text })
        }
        None => None,
    };
    let request = project::check::Request {
        paths: args.paths.clone(),
        dialect: args.dialect.or(config.dialect),
        var_files: config.var_files.iter().chain(&args.var_files).cloned().collect(),
        var_file_table: args.var_file_table.clone(),
        provider_schemas: provider_schemas.collect(),
        package_schemas: package_schemas.collect(),
        exclude,
        stdin,
        tree: Some(tree.clone()),
        severity: config.severity.iter().cloned().collect(),
    };
    Ok(Prepared { request, severity: config.severity })
}

/// `--provider-schema` (`--schema-cache`): a file, or a directory's `.json`
/// files (sorted).
fn cache_files(p: &std::path::Path) -> Vec<PathBuf> {
    if !p.is_dir() {
        return vec![p.to_path_buf()];
    }
    let mut files: Vec<PathBuf> = std::fs::read_dir(p)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|f| f.extension().is_some_and(|x| x == "json") && f.is_file())
        .collect();
    files.sort();
    files
}

fn parse_var_file(s: &str) -> Result<VarFileTarget, String> {
    let (tfvars, module) = s.split_once('=').ok_or_else(|| format!("`{s}`: expected TFVARS=MODULE_DIR"))?;
    Ok(VarFileTarget { tfvars: tfvars.into(), module: module.into() })
}

#[derive(Args, Debug, Clone)]
pub struct CheckArgs {
    #[command(flatten)]
    pub common: CommonArgs,
    /// Override a code's severity: CODE=error|warning|hint|off (repeatable).
    #[arg(long = "severity", value_parser = parse_override)]
    pub severity: Vec<(Code, Option<Severity>)>,
    /// Print the diagnostics only: no summary line, no progress bar.
    #[arg(long, short)]
    pub quiet: bool,
    /// Colour the text output: auto (when stdout is a terminal and NO_COLOR
    /// is unset or empty), always or never.
    #[arg(long, value_enum, default_value = "auto", value_name = "WHEN")]
    pub color: ColorChoice,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ColorChoice {
    Auto,
    Always,
    Never,
}

impl ColorChoice {
    /// Whether to colour stdout. `always` wins over NO_COLOR, as no-color.org
    /// asks of an explicit option; an empty NO_COLOR is unset.
    pub fn enabled(self) -> bool {
        match self {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => {
                std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty()) && std::io::stdout().is_terminal()
            }
        }
    }
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Text,
    Json,
    /// SARIF 2.1.0 (`check` only), for code-scanning services.
    Sarif,
}

fn parse_override(s: &str) -> Result<(Code, Option<Severity>), String> {
    let (code, sev) = s.split_once('=').ok_or_else(|| format!("`{s}`: expected CODE=error|warning|hint|off"))?;
    Ok((project::config::parse_code(code)?, project::config::parse_severity(sev)?))
}

/// Analyses every module found under `args.paths` (with a progress bar on
/// a terminal when there are many files).
pub fn run_analysis(args: &CommonArgs, progress: bool) -> (Vec<FileReport>, Vec<IoFailure>) {
    match prepare(args) {
        Ok(p) => run_request(&p.request, progress),
        Err(f) => (Vec::new(), vec![f]),
    }
}

/// Analyses what a prepared request names.
pub fn run_request(req: &project::check::Request, progress: bool) -> (Vec<FileReport>, Vec<IoFailure>) {
    let bar = Bar(progress.then(indicatif::ProgressBar::hidden));
    let out = project::check::run(req, &bar);
    if let Some(bar) = &bar.0 {
        bar.finish_and_clear();
    }
    out
}

/// A progress bar on stderr when it is a terminal and there are more than
/// 50 files.
struct Bar(Option<indicatif::ProgressBar>);

impl project::check::Progress for Bar {
    fn start(&self, files: usize) {
        if let Some(bar) = self.0.as_ref().filter(|_| files > 50 && std::io::stderr().is_terminal()) {
            bar.set_length(files as u64);
            bar.set_draw_target(indicatif::ProgressDrawTarget::stderr());
            bar.set_style(
                indicatif::ProgressStyle::with_template("{spinner} checking {pos}/{len} files {wide_bar} {eta}")
                    .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
            );
        }
    }

    fn advance(&self, files: usize) {
        if let Some(bar) = &self.0 {
            bar.inc(files as u64);
        }
    }
}

/// Diagnostic counts by severity.
#[derive(Default, Debug, Clone, Copy, PartialEq, Eq)]
pub struct Counts {
    pub errors: usize,
    pub warnings: usize,
    pub hints: usize,
}

impl Counts {
    pub fn add(&mut self, severity: Severity) {
        match severity {
            Severity::Error => self.errors += 1,
            Severity::Warning => self.warnings += 1,
            Severity::Hint => self.hints += 1,
        }
    }
}

/// A diagnostic's severity after the `--severity` overrides: the module
/// service's one rule, the server's too.
pub use project::service::effective_severity;

/// `check`'s output for analysed files: text lines (or JSON objects, or one
/// SARIF log) sorted by path and position, with severity overrides applied
/// (`None` = off).
pub fn render_diagnostics(
    reports: &[FileReport],
    overrides: &BTreeMap<Code, Option<Severity>>,
    format: Format,
) -> (Vec<String>, Counts) {
    render_diagnostics_coloured(reports, overrides, format, false)
}

/// ANSI SGR codes for a severity word: bold red, yellow, cyan.
fn severity_colour(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "1;31",
        Severity::Warning => "1;33",
        Severity::Hint => "1;36",
    }
}

/// [`render_diagnostics`], the text lines coloured when `colour` (the path
/// and position bold, the severity in its colour).
pub fn render_diagnostics_coloured(
    reports: &[FileReport],
    overrides: &BTreeMap<Code, Option<Severity>>,
    format: Format,
    colour: bool,
) -> (Vec<String>, Counts) {
    if format == Format::Sarif {
        let (log, counts) = super::sarif::render(reports, overrides, &[]);
        return (vec![log.to_string()], counts);
    }
    let mut lines = Vec::new();
    let mut json = Vec::new();
    let mut counts = Counts::default();
    for r in reports {
        let index = LineIndex::new(&r.text);
        for d in &r.diagnostics {
            let Some(severity) = effective_severity(d, overrides) else { continue };
            counts.add(severity);
            let (line, column) = index.position(&r.text, d.range.start);
            match format {
                Format::Text if colour => lines.push(format!(
                    "\x1b[1m{}:{line}:{column}:\x1b[0m \x1b[{}m{}\x1b[0m[{}]: {}",
                    r.path.display(),
                    severity_colour(severity),
                    severity.as_str(),
                    d.code,
                    d.message.replace('\n', " ")
                )),
                Format::Text => lines.push(format!(
                    "{}:{line}:{column}: {}[{}]: {}",
                    r.path.display(),
                    severity.as_str(),
                    d.code,
                    d.message.replace('\n', " ")
                )),
                // (Only JSON shows where a diagnostic ends.)
                Format::Json | Format::Sarif => {
                    let (end_line, end_column) = index.position(&r.text, d.range.end);
                    json.push(serde_json::json!({
                    "path": r.path.display().to_string(),
                    "line": line,
                    "column": column,
                    "end_line": end_line,
                    "end_column": end_column,
                    "severity": severity.as_str(),
                    "code": d.code.as_str(),
                    "message": d.message,
                    }))
                }
            }
        }
    }
    if format == Format::Json {
        lines.push(serde_json::Value::Array(json).to_string());
    }
    (lines, counts)
}

/// `types`' output lines for analysed files.
pub fn render_types(reports: &[FileReport], format: Format) -> Vec<String> {
    let mut lines = Vec::new();
    let mut json = Vec::new();
    for r in reports {
        let index = LineIndex::new(&r.text);
        for s in &r.symbols {
            let (line, column) = index.position(&r.text, s.name_range.start);
            match format {
                Format::Text => lines.push(format!("{}:{line}:{column}: {}: {}", r.path.display(), s.address, s.ty)),
                Format::Json | Format::Sarif => json.push(serde_json::json!({
                    "path": r.path.display().to_string(),
                    "line": line,
                    "column": column,
                    "address": s.address,
                    "type": s.ty.to_string(),
                })),
            }
        }
    }
    if format != Format::Text {
        lines.push(serde_json::Value::Array(json).to_string());
    }
    lines
}

fn print_failures(failures: &[IoFailure]) {
    let mut err = std::io::stderr().lock();
    for f in failures {
        // A usage problem (`prepare`) is no file's.
        let _ = match f.path.as_os_str() == "-" {
            true => writeln!(err, "error: {}", f.message),
            false => writeln!(err, "{}: error: {}", f.path.display(), f.message),
        };
    }
}

pub fn check(args: CheckArgs) -> u8 {
    let mut prepared = match prepare(&args.common) {
        Ok(p) => p,
        Err(f) => {
            print_failures(&[f]);
            return 2;
        }
    };
    // An excluded stdin file is not checked and not a failure: an editor or
    // hook passes every file and lets the configuration decide.
    if prepared.request.stdin.as_ref().is_some_and(|s| prepared.request.exclude.matches(&s.path)) {
        return 0;
    }
    // The command line's overrides after the configuration's: they win.
    let overrides: BTreeMap<Code, Option<Severity>> = prepared.severity.iter().chain(&args.severity).cloned().collect();
    prepared.request.severity = overrides.clone();
    let (reports, failures) = run_request(&prepared.request, !args.quiet);
    print_failures(&failures);
    let (lines, counts) = match args.common.format {
        // The log also records the files that could not be read.
        Format::Sarif => {
            let (log, counts) = super::sarif::render(&reports, &overrides, &failures);
            (vec![log.to_string()], counts)
        }
        format => render_diagnostics_coloured(&reports, &overrides, format, args.color.enabled()),
    };
    // Buffered: stdout flushes every line otherwise, a write per diagnostic.
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    for l in lines {
        let _ = writeln!(out, "{l}");
    }
    let _ = out.flush();
    let plural = |n: usize, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
    let _ = (!args.quiet).then(|| {
        writeln!(
            std::io::stderr(),
            "{}, {}, {} in {}",
            plural(counts.errors, "error"),
            plural(counts.warnings, "warning"),
            plural(counts.hints, "hint"),
            plural(reports.len(), "file")
        )
    });
    if reports.is_empty() && failures.is_empty() {
        let _ = writeln!(std::io::stderr(), "error: nothing to check: no Terraform, Packer, PCL or HCL file found");
    }
    if !failures.is_empty() || reports.is_empty() {
        2
    } else if counts.errors > 0 {
        1
    } else {
        0
    }
}

/// `types --format` takes text or json (the parser refuses sarif).
pub fn types(args: CommonArgs) -> u8 {
    let (reports, failures) = run_analysis(&args, false);
    if reports.is_empty() && failures.is_empty() {
        let _ = writeln!(std::io::stderr(), "error: nothing to check: no Terraform, Packer, PCL or HCL file found");
        return 2;
    }
    print_failures(&failures);
    // What was not read out of the tree is said here too (`check` prints
    // it as a diagnostic).
    for r in &reports {
        for d in r.diagnostics.iter().filter(|d| d.code == Code::OutsideTree) {
            let _ = writeln!(std::io::stderr(), "{}: warning: {}", r.path.display(), d.message);
        }
    }
    let mut out = std::io::stdout().lock();
    for l in render_types(&reports, args.format) {
        let _ = writeln!(out, "{l}");
    }
    if failures.is_empty() {
        0
    } else {
        2
    }
}
