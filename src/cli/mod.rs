//! The `hcl-types` command line (docs/spec/cli.md).

pub mod calc;
pub mod check;
pub mod fmt;
pub mod outline;
pub mod sarif;
pub mod schemas;

use std::process::ExitCode;

use clap::builder::TypedValueParser;
use clap::{CommandFactory, Parser, Subcommand};

use syntax::Dialect;

#[derive(Parser, Debug)]
#[command(name = "hcl-types", version, about = "Type checker and language server for HCL type annotations", long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Run the language server on stdin/stdout.
    Lsp {
        /// Talk over stdin/stdout (the only transport; accepted for editors that pass it).
        #[arg(long)]
        stdio: bool,
    },
    /// Diagnose files and directories (default: the current directory).
    Check(check::CheckArgs),
    /// Format files as `terraform fmt` does (`-` formats stdin to stdout).
    Fmt(fmt::FmtArgs),
    /// Print the type of every named value.
    #[command(mut_arg("format", |a| a.value_parser(types_format())))]
    Types(check::CommonArgs),
    /// Which providers of the modules under DIR are typed, from where: reads
    /// the user's own provider binaries and caches their schemas for
    /// `check --schema-cache`.
    Schemas(schemas::SchemasArgs),
    /// The type calculator: normalise, convert, unify and traverse types.
    #[command(subcommand)]
    Type(calc::TypeCommand),
    /// What the parser sees in each file, as JSON (for the Terraform oracle tests).
    #[command(hide = true)]
    Outline(outline::OutlineArgs),
    /// Print a shell completion script (e.g. `hcl-types completions bash > ~/.local/share/bash-completion/completions/hcl-types`).
    Completions {
        /// The shell.
        shell: clap_complete::Shell,
    },
}

/// Parses the process arguments and runs; the exit code follows cli.md:
/// 0 fine, 1 errors found, 2 usage or I/O failure.
pub fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let code = if e.use_stderr() { 2 } else { 0 };
            let _ = e.print();
            return ExitCode::from(code);
        }
    };
    // Before anything runs on rayon's pool: the stack a tree nested to the
    // limit needs (the server's runtime does the same for its threads).
    project::threads::configure();
    let code = match cli.command {
        Command::Lsp { .. } => lsp::run(),
        Command::Type(cmd) => calc::run(cmd),
        Command::Check(args) => check::check(args),
        Command::Types(args) => check::types(args),
        Command::Fmt(args) => fmt::run(args),
        Command::Outline(args) => outline::run(args),
        Command::Schemas(args) => schemas::run(args),
        Command::Completions { shell } => {
            // Into a buffer: the generator panics on a closed pipe (`| head`).
            let mut script = Vec::new();
            clap_complete::generate(shell, &mut completed(), "hcl-types", &mut script);
            let _ = std::io::Write::write_all(&mut std::io::stdout(), &script);
            0
        }
    };
    ExitCode::from(code)
}

/// `--dialect`'s values, listed in `--help` and completions.
pub(crate) fn dialect_parser() -> impl TypedValueParser<Value = Dialect> {
    let values = Dialect::ALL.map(|d| match d {
        Dialect::OpenTofu => clap::builder::PossibleValue::new(d.as_str()).alias("tofu"),
        d => clap::builder::PossibleValue::new(d.as_str()),
    });
    clap::builder::PossibleValuesParser::new(values).try_map(|s| s.parse::<Dialect>())
}

/// `types --format`: text or json (SARIF records diagnostics, `check` only).
fn types_format() -> impl TypedValueParser<Value = check::Format> {
    clap::builder::PossibleValuesParser::new(["text", "json"])
        .try_map(|s| <check::Format as clap::ValueEnum>::from_str(&s, true))
}

/// The command line as shells complete it: hidden subcommands left out
/// (clap's generators list them).
fn completed() -> clap::Command {
    let full = Cli::command();
    let shown = full.get_subcommands().filter(|s| !s.is_hide_set()).cloned();
    clap::Command::new("hcl-types")
        .version(env!("CARGO_PKG_VERSION"))
        .about(full.get_about().cloned().unwrap_or_default())
        .subcommand_required(true)
        .subcommands(shown)
}
