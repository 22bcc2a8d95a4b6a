//! `hcl-types check` and `hcl-types types`: walk paths, analyse each
//! directory's modules, print diagnostics or named values.

use std::collections::BTreeMap;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;

use clap::Args;

use syntax::diagnostic::{Code, Diagnostic, Severity};
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
    #[arg(long = "provider-schema")]
    pub provider_schemas: Vec<PathBuf>,
    /// A Pulumi package schema (`pulumi package get-schema` output,
    /// repeatable): PCL resources and invokes get their types and their
    /// inputs are checked.
    #[arg(long = "package-schema")]
    pub package_schemas: Vec<PathBuf>,
}

pub use project::check::{discover, load, read_var_file_table, FileReport, IoFailure, VarFileTarget};

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

/// Analyses every module found under `args.paths` (with a progress bar on
/// a terminal when there are many files).
pub fn run_analysis(args: &CommonArgs, progress: bool) -> (Vec<FileReport>, Vec<IoFailure>) {
    let req = project::check::Request {
        paths: args.paths.clone(),
        dialect: args.dialect,
        var_files: args.var_files.clone(),
        var_file_table: args.var_file_table.clone(),
        provider_schemas: args.provider_schemas.clone(),
        package_schemas: args.package_schemas.clone(),
    };
    let bar = Bar(progress.then(indicatif::ProgressBar::hidden));
    let out = project::check::run(&req, &bar);
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
    let (reports, failures) = run_analysis(&args.common, !args.quiet);
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
