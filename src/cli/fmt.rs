//! `hcl-types fmt`: `terraform fmt` without Terraform (docs/spec/cli.md).
//! Which files, what is printed and the exit codes follow Terraform's
//! `fmt` command (internal/command/fmt.go): 0 done, 2 an error (a syntax
//! error, a missing path), 3 with `--check` when a file is not formatted.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use clap::Args;

/// What a directory walk formats, as `terraform fmt` does.
const DIR_EXTS: &[&str] = &[".tf", ".tfvars", ".tftest.hcl", ".tfmock.hcl", ".tfquery.hcl"];
/// Also formatted when named: OpenTofu's files and any other HCL file.
const NAMED_EXTS: &[&str] = &[".tofu", ".hcl", ".pp"];

#[derive(Args, Debug)]
pub struct FmtArgs {
    /// Exit with 3 (and write nothing) when a file is not formatted.
    #[arg(long)]
    check: bool,
    /// Print a unified diff of each change.
    #[arg(long)]
    diff: bool,
    /// Also format the files of subdirectories.
    #[arg(long, short = 'r')]
    recursive: bool,
    /// List the files whose formatting changed (default true).
    #[arg(long, default_value_t = true, action = clap::ArgAction::Set, value_name = "BOOL")]
    list: bool,
    /// Write the formatted files (default true; never with `--check` or `-`).
    #[arg(long, default_value_t = true, action = clap::ArgAction::Set, value_name = "BOOL")]
    write: bool,
    /// Files and directories (default: the current directory); `-` reads
    /// standard input and writes the result to standard output.
    paths: Vec<PathBuf>,
}

struct Run {
    list: bool,
    write: bool,
    diff: bool,
    recursive: bool,
    /// Whether a file needed formatting (for `--check`).
    changed: bool,
    failed: bool,
    out: Vec<u8>,
    /// The formatted paths' repositories: a file linked out of them is
    /// neither read nor written through (`project::confine`).
    tree: project::confine::Tree,
}

pub fn run(args: FmtArgs) -> u8 {
    let stdin = args.paths.first().is_some_and(|p| p.as_os_str() == "-");
    let mut r = Run {
        list: args.list && !stdin,
        write: args.write && !args.check && !stdin,
        diff: args.diff,
        recursive: args.recursive,
        changed: false,
        failed: false,
        out: Vec::new(),
        tree: project::confine::Tree::for_paths(if stdin { &[] } else { &args.paths }),
    };
    if stdin {
        // Under the cap a module file has (an endless pipe is refused, not
        // read until memory runs out).
        let cap = project::fsread::SOURCE_CAP;
        let mut src = Vec::new();
        if let Err(e) = std::io::stdin().take(cap + 1).read_to_end(&mut src) {
            eprintln!("Error: Failed to read <stdin>: {e}");
            return 2;
        }
        if src.len() as u64 > cap {
            eprintln!("Error: <stdin> is larger than {} MiB: not formatted", cap >> 20);
            return 2;
        }
        r.file(Path::new("<stdin>"), src, !args.check);
    } else {
        let paths = if args.paths.is_empty() { vec![PathBuf::from(".")] } else { args.paths };
        for path in paths {
            let Ok(meta) = std::fs::metadata(&path) else {
                eprintln!("Error: No file or directory at {}", path.display());
                r.failed = true;
                break;
            };
            if meta.is_dir() {
                r.dir(&path);
            } else if has_ext(&path, DIR_EXTS) || has_ext(&path, NAMED_EXTS) {
                r.read_and_format(&path);
            } else {
                eprintln!(
                    "Error: Only .tf, .tfvars, .tftest.hcl, .tofu, .hcl and .pp files can be processed with hcl-types fmt ({})",
                    path.display()
                );
                r.failed = true;
            }
        }
    }
    let _ = std::io::stdout().write_all(&r.out);
    let _ = std::io::stdout().flush();
    if r.failed {
        2
    } else if args.check && r.changed {
        3
    } else {
        0
    }
}

fn has_ext(path: &Path, exts: &[&str]) -> bool {
    let name = path.file_name().map(|n| n.to_string_lossy()).unwrap_or_default();
    exts.iter().any(|e| name.ends_with(e))
}

/// Terraform's `configs.IsIgnoredFile`: hidden, editor backups and locks.
fn ignored(name: &str) -> bool {
    name.starts_with('.') || name.ends_with('~') || (name.starts_with('#') && name.ends_with('#'))
}

impl Run {
    fn dir(&mut self, dir: &Path) {
        let mut entries: Vec<_> = match std::fs::read_dir(dir) {
            Ok(rd) => rd.filter_map(Result::ok).collect(),
            Err(_) => {
                eprintln!("Error: Cannot read directory {}", dir.display());
                self.failed = true;
                return;
            }
        };
        entries.sort_by_key(|e| e.file_name());
        for entry in entries {
            let name = entry.file_name().to_string_lossy().into_owned();
            if ignored(&name) {
                continue;
            }
            let path = if dir == Path::new(".") { PathBuf::from(&name) } else { dir.join(&name) };
            if entry.file_type().is_ok_and(|t| t.is_dir()) {
                if self.recursive {
                    self.dir(&path);
                }
            } else if has_ext(&path, DIR_EXTS) {
                self.read_and_format(&path);
            }
        }
    }

    fn read_and_format(&mut self, path: &Path) {
        if !self.tree.allows(path) {
            eprintln!("Warning: {}: this file {}", path.display(), project::confine::message());
            return;
        }
        match project::fsread::read_regular(path, project::fsread::SOURCE_CAP) {
            Ok(src) => self.file(path, src, false),
            Err(e) => {
                eprintln!("Error: Failed to read file {}: {e}", path.display());
                self.failed = true;
            }
        }
    }

    /// Formats one file's bytes; `print` writes the result to stdout (`-`).
    fn file(&mut self, path: &Path, src: Vec<u8>, print: bool) {
        let Ok(text) = String::from_utf8(src) else {
            eprintln!("Error: {}: Invalid character encoding: not UTF-8", path.display());
            self.failed = true;
            return;
        };
        let name = path.file_name().map(|n| n.to_string_lossy()).unwrap_or_default();
        // stdin is Terraform's (`terraform fmt -`).
        let style = if path == Path::new("<stdin>") { fmt::Style::Terraform } else { fmt::Style::of_name(&name) };
        let result = match fmt::format_as(&text, style) {
            Ok(r) => r,
            Err(e) => {
                eprintln!("Error: {}:{e}", path.display());
                self.failed = true;
                return;
            }
        };
        if result != text {
            self.changed = true;
            if self.list {
                self.out.extend_from_slice(format!("{}\n", path.display()).as_bytes());
            }
            if self.write {
                if let Err(e) = std::fs::write(path, &result) {
                    eprintln!("Error: Failed to write {}: {e}", path.display());
                    self.failed = true;
                    return;
                }
            }
            if self.diff {
                let name = path.display().to_string();
                let diff = similar::TextDiff::from_lines(&text, &result);
                let unified = diff.unified_diff().header(&format!("old/{name}"), &format!("new/{name}")).to_string();
                self.out.extend_from_slice(unified.as_bytes());
            }
        }
        if print && !self.diff {
            // As Terraform's UI writer does: the output ends with one newline.
            self.out.extend_from_slice(result.as_bytes());
            if !result.ends_with('\n') {
                self.out.push(b'\n');
            }
        }
    }
}
