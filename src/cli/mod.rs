//! The `hcl-types` command line (docs/spec/cli.md).

pub mod calc;
pub mod check;
pub mod outline;
pub mod sarif;

use std::process::ExitCode;

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
    /// Print the type of every named value.
    Types(check::CommonArgs),
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
    let code = match cli.command {
        Command::Lsp { .. } => lsp::run(),
        Command::Type(cmd) => calc::run(cmd),
        Command::Check(args) => check::check(args),
        Command::Types(args) => check::types(args),
        Command::Outline(args) => outline::run(args),
        Command::Completions { shell } => {
            // Into a buffer: the generator panics on a closed pipe (`| head`).
            let mut script = Vec::new();
            clap_complete::generate(shell, &mut Cli::command(), "hcl-types", &mut script);
            let _ = std::io::Write::write_all(&mut std::io::stdout(), &script);
            0
        }
    };
    ExitCode::from(code)
}

pub(crate) fn parse_dialect(s: &str) -> Result<Dialect, String> {
    s.parse()
}
