//! `hcl-types check` and `hcl-types types`: walk paths, analyse each
//! directory's modules, print diagnostics or named values.

use std::collections::BTreeMap;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};

use clap::Args;

use crate::analysis::workspace::DiskFiles;
use crate::analysis::{Family, FileKind, SourceFile};
use crate::diagnostic::{Code, Diagnostic, Severity};
use crate::syntax::Dialect;

#[derive(Args, Debug, Clone)]
pub struct CommonArgs {
    /// Files and directories (default: the current directory).
    pub paths: Vec<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    pub format: Format,
    /// Force a dialect for every file.
    #[arg(long, value_parser = super::parse_dialect)]
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
    #[arg(long = "provider-schema")]
    pub provider_schemas: Vec<PathBuf>,
    /// A Pulumi package schema (`pulumi package get-schema` output,
    /// repeatable): PCL resources and invokes get their types and their
    /// inputs are checked.
    #[arg(long = "package-schema")]
    pub package_schemas: Vec<PathBuf>,
}

/// Where a `.tfvars` file's variables are declared, when not beside it
/// (test inputs kept apart from their module).
#[derive(Debug, Clone)]
pub struct VarFileTarget {
    pub tfvars: PathBuf,
    pub module: PathBuf,
}

fn parse_var_file(s: &str) -> Result<VarFileTarget, String> {
    let (tfvars, module) = s.split_once('=').ok_or_else(|| format!("`{s}`: expected TFVARS=MODULE_DIR"))?;
    Ok(VarFileTarget { tfvars: tfvars.into(), module: module.into() })
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
fn retarget(modules: &mut Modules, targets: &[VarFileTarget]) -> Vec<PathBuf> {
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
        let Some(module) = module else { continue };
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
            let found = DiskFiles::listing(&module, Family::Terraform);
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

#[derive(Args, Debug, Clone)]
pub struct CheckArgs {
    #[command(flatten)]
    pub common: CommonArgs,
    /// Override a code's severity: CODE=error|warning|hint|off (repeatable).
    #[arg(long = "severity", value_parser = parse_override)]
    pub severity: Vec<(Code, Option<Severity>)>,
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
    let code = Code::parse(code).ok_or_else(|| {
        let all: Vec<&str> = Code::ALL.iter().map(|c| c.as_str()).collect();
        format!("unknown code `{code}` (codes: {})", all.join(", "))
    })?;
    let sev = match sev {
        "error" => Some(Severity::Error),
        "warning" => Some(Severity::Warning),
        "hint" => Some(Severity::Hint),
        "off" => None,
        _ => return Err(format!("`{sev}`: expected error, warning, hint or off")),
    };
    Ok((code, sev))
}

/// One analysed file, for printing.
pub struct FileReport {
    pub path: PathBuf,
    pub text: crate::analysis::Text,
    pub diagnostics: Vec<Diagnostic>,
    pub symbols: Vec<crate::analysis::Symbol>,
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

pub fn discover(paths: &[PathBuf]) -> (Modules, Vec<IoFailure>) {
    let mut modules: Modules = BTreeMap::new();
    let mut failures = Vec::new();
    let add = |file: PathBuf, modules: &mut BTreeMap<_, Vec<PathBuf>>| {
        if let Some(family) = crate::analysis::family_of(&file) {
            let unit = crate::analysis::unit_of(&file, family).unwrap_or_default();
            modules.entry((unit, family)).or_default().push(file);
        }
    };
    for root in paths {
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
            Ok(_) => {
                let walker =
                    walkdir::WalkDir::new(root).follow_links(false).sort_by_file_name().into_iter().filter_entry(|e| {
                        let name = e.file_name().to_string_lossy();
                        !(e.depth() > 0
                            && e.file_type().is_dir()
                            && matches!(name.as_ref(), ".git" | ".terraform" | "node_modules"))
                    });
                for entry in walker {
                    match entry {
                        // A linked file is read, as Terraform reads it (a shared
                        // `variables.tf` linked into many modules); a linked
                        // directory is not walked (Terraform reads no
                        // subdirectory, and a link may lead anywhere or loop).
                        Ok(e) if e.file_type().is_file() || e.path_is_symlink() && e.path().is_file() => {
                            add(e.into_path(), &mut modules)
                        }
                        Ok(_) => {}
                        Err(e) => failures.push(IoFailure {
                            path: e.path().map(Path::to_path_buf).unwrap_or_else(|| root.clone()),
                            message: e.to_string(),
                        }),
                    }
                }
            }
            Err(e) => failures.push(IoFailure { path: root.clone(), message: e.to_string() }),
        }
    }
    // A file named is read even beside its `.tofu` alternative.
    let named = |p: &Path| paths.iter().any(|n| n == p);
    for files in modules.values_mut() {
        files.sort();
        files.dedup();
        crate::analysis::tofu_files(files, &named);
    }
    (modules, failures)
}

/// A Terraform or PCL file named on the command line is checked within its
/// module (pre-commit and editors name single files): the other files of its
/// directory and family join it, for their declarations only. Returns those
/// files, which are not reported.
fn within_module(modules: &mut Modules, paths: &[PathBuf]) -> Vec<PathBuf> {
    let mut context_only = Vec::new();
    for path in paths.iter().filter(|p| std::fs::metadata(p).is_ok_and(|m| m.is_file())) {
        let Some(family) = crate::analysis::family_of(path).filter(|f| matches!(f, Family::Terraform | Family::Pcl))
        else {
            continue;
        };
        let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
        let Some(files) = modules.get_mut(&(dir.clone(), family)) else { continue };
        for other in DiskFiles::listing(&dir, family) {
            if !files.contains(&other) && !context_only.contains(&other) {
                files.push(other.clone());
                context_only.push(other);
            }
        }
        files.sort();
        crate::analysis::tofu_files(files, &|p| paths.iter().any(|n| n == p));
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
    let dialect = dialect.unwrap_or_else(|| Dialect::for_path(path));
    let (text, problem) = match String::from_utf8(bytes) {
        Ok(t) if t.contains('\0') => {
            let at = t.find('\0').unwrap_or(0);
            (
                String::new(),
                Some(Diagnostic::new(
                    Code::Syntax,
                    0..0,
                    format!("binary file (a NUL byte at offset {at}): not analysed"),
                )),
            )
        }
        Ok(t) => (t, None),
        Err(e) => {
            let at = e.utf8_error().valid_up_to();
            (
                String::new(),
                Some(Diagnostic::new(
                    Code::Syntax,
                    0..0,
                    format!("the file is not valid UTF-8 (at byte {at}): not analysed"),
                )),
            )
        }
    };
    Ok((SourceFile { path: path.to_path_buf(), text: std::sync::Arc::new(text.into()), kind, dialect }, problem))
}

/// Analyses every module found under `paths`.
pub fn run_analysis(args: &CommonArgs, progress: bool) -> (Vec<FileReport>, Vec<IoFailure>) {
    let paths = if args.paths.is_empty() { vec![PathBuf::from(".")] } else { args.paths.clone() };
    let (mut modules, mut failures) = discover(&paths);
    let mut targets = args.var_files.clone();
    if let Some(table) = &args.var_file_table {
        match read_var_file_table(table) {
            Ok(rows) => targets.extend(rows),
            Err(message) => failures.push(IoFailure { path: table.clone(), message }),
        }
    }
    let mut context_only = within_module(&mut modules, &paths);
    context_only.extend(retarget(&mut modules, &targets));
    // PCL programs also get the schemas Pulumi cached for their packages.
    let mut packages = args.package_schemas.clone();
    let pcl: Vec<&PathBuf> = modules.iter().filter(|((_, f), _)| *f == Family::Pcl).flat_map(|(_, fs)| fs).collect();
    if !pcl.is_empty() {
        let mut names: Vec<String> = Vec::new();
        // (A program that does not read is reported when it is checked.)
        let texts = pcl.iter().filter_map(|p| crate::fsread::read_regular_to_string(p, crate::fsread::SOURCE_CAP).ok());
        for text in texts {
            names.extend(crate::schema::pulumi::packages_named(&text));
        }
        names.sort();
        names.dedup();
        // A cached file that does not read is left out, not a failure.
        let cached = crate::schema::pulumi::plugin_cache(&names).into_iter();
        packages.extend(cached.filter(|p| crate::schema::read_cached(p, crate::schema::pulumi::load_package).is_ok()));
    }
    let schemas = match crate::schema::Schemas::from_files(&args.provider_schemas, &packages) {
        Ok(s) if s.is_empty() => None,
        Ok(s) => Some(std::sync::Arc::new(s)),
        Err((path, message)) => {
            failures.push(IoFailure { path, message });
            None
        }
    };
    let total: usize = modules.values().map(Vec::len).sum();
    let bar = (progress && total > 50 && std::io::stderr().is_terminal()).then(|| {
        let bar = indicatif::ProgressBar::new(total as u64);
        bar.set_style(
            indicatif::ProgressStyle::with_template("{spinner} checking {pos}/{len} files {wide_bar} {eta}")
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        bar
    });
    let modules: Vec<&Vec<PathBuf>> = modules.values().collect();
    let results = super::modules::check_modules(&modules, args.dialect, bar.as_ref(), schemas, &paths);
    let mut reports = Vec::new();
    for (r, f) in results {
        reports.extend(r);
        failures.extend(f);
    }
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    // A file both checked and read for a caller failed twice: said once.
    let mut seen = std::collections::HashSet::new();
    failures.retain(|f| seen.insert((f.path.clone(), f.message.clone())));
    reports.retain(|r| !context_only.contains(&r.path));
    reports.sort_by(|a, b| a.path.cmp(&b.path));
    (reports, failures)
}

/// 1-based line and column (in characters) of a byte offset.
pub struct LineIndex {
    starts: Vec<usize>,
    /// The characters before every [`BLOCK`]th byte: a column is counted
    /// from the nearest block start, not from its line's start, which on a
    /// generated one-line file of 10 MB with a hint per element made
    /// printing quadratic.
    chars: Vec<usize>,
}

/// Bytes between the character counts a [`LineIndex`] keeps.
const BLOCK: usize = 4096;

/// The characters starting in `bytes` (those that are not UTF-8 continuation bytes).
fn char_starts(bytes: &[u8]) -> usize {
    bytes.iter().filter(|&&b| (b as i8) >= -0x40).count()
}

impl LineIndex {
    pub fn new(text: &str) -> Self {
        let b = text.as_bytes();
        let mut starts = vec![0];
        let mut i = 0;
        while i < b.len() {
            match b[i] {
                b'\n' => starts.push(i + 1),
                b'\r' if b.get(i + 1) != Some(&b'\n') => starts.push(i + 1),
                _ => {}
            }
            i += 1;
        }
        let mut chars = vec![0];
        for block in b.chunks(BLOCK) {
            chars.push(chars[chars.len() - 1] + char_starts(block));
        }
        LineIndex { starts, chars }
    }

    /// The characters starting before byte `offset` (at most the text's length).
    fn chars_before(&self, text: &str, offset: usize) -> usize {
        let block = offset / BLOCK;
        self.chars[block] + char_starts(&text.as_bytes()[block * BLOCK..offset])
    }

    pub fn position(&self, text: &str, offset: usize) -> (usize, usize) {
        let offset = offset.min(text.len());
        let line = self.starts.partition_point(|&s| s <= offset) - 1;
        let start = self.starts[line];
        let col = if text.is_char_boundary(start) && text.is_char_boundary(offset) {
            self.chars_before(text, offset) - self.chars_before(text, start)
        } else {
            offset - start
        };
        (line + 1, col + 1)
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

/// A diagnostic's severity after the `--severity` overrides; `None` when
/// its code is turned off.
pub fn effective_severity(d: &Diagnostic, overrides: &BTreeMap<Code, Option<Severity>>) -> Option<Severity> {
    match overrides.get(&d.code) {
        Some(s) => *s,
        None => Some(d.severity),
    }
}

/// `check`'s output for analysed files: text lines (or JSON objects, or one
/// SARIF log) sorted by path and position, with severity overrides applied
/// (`None` = off).
pub fn render_diagnostics(
    reports: &[FileReport],
    overrides: &BTreeMap<Code, Option<Severity>>,
    format: Format,
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
            let (end_line, end_column) = index.position(&r.text, d.range.end);
            match format {
                Format::Text => lines.push(format!(
                    "{}:{line}:{column}: {}[{}]: {}",
                    r.path.display(),
                    severity.as_str(),
                    d.code,
                    d.message.replace('\n', " ")
                )),
                Format::Json | Format::Sarif => json.push(serde_json::json!({
                    "path": r.path.display().to_string(),
                    "line": line,
                    "column": column,
                    "end_line": end_line,
                    "end_column": end_column,
                    "severity": severity.as_str(),
                    "code": d.code.as_str(),
                    "message": d.message,
                })),
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
        let _ = writeln!(err, "{}: error: {}", f.path.display(), f.message);
    }
}

pub fn check(args: CheckArgs) -> u8 {
    let (reports, failures) = run_analysis(&args.common, true);
    let overrides: BTreeMap<Code, Option<Severity>> = args.severity.iter().cloned().collect();
    print_failures(&failures);
    let (lines, counts) = match args.common.format {
        // The log also records the files that could not be read.
        Format::Sarif => {
            let (log, counts) = super::sarif::render(&reports, &overrides, &failures);
            (vec![log.to_string()], counts)
        }
        format => render_diagnostics(&reports, &overrides, format),
    };
    // Buffered: stdout flushes every line otherwise, a write per diagnostic.
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    for l in lines {
        let _ = writeln!(out, "{l}");
    }
    let _ = out.flush();
    let plural = |n: usize, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
    let _ = writeln!(
        std::io::stderr(),
        "{}, {}, {} in {}",
        plural(counts.errors, "error"),
        plural(counts.warnings, "warning"),
        plural(counts.hints, "hint"),
        plural(reports.len(), "file")
    );
    if !failures.is_empty() {
        2
    } else if counts.errors > 0 {
        1
    } else {
        0
    }
}

pub fn types(args: CommonArgs) -> u8 {
    if args.format == Format::Sarif {
        let _ = writeln!(
            std::io::stderr(),
            "error: --format sarif is for `check` (SARIF records diagnostics); use text or json"
        );
        return 2;
    }
    let (reports, failures) = run_analysis(&args, false);
    print_failures(&failures);
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
