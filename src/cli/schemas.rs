//! `hcl-types schemas DIR`: which providers of the modules under DIR are
//! typed, from where; reads the schemas of the user's own provider
//! binaries over the plugin protocol and writes them to a cache that
//! `check --schema-cache` reads without running anything (cli.md).

use clap::Args;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use project::schemas::provided::{self, Outcome, Policy};

#[derive(Args, Debug)]
pub struct SchemasArgs {
    /// The directory whose modules are looked at (each directory with
    /// `.tf` or `.tofu` files, `.terraform` and hidden ones left out).
    #[arg(default_value = ".")]
    pub dir: PathBuf,
    /// Where the schemas are written (default:
    /// `$XDG_CACHE_HOME/hcl-types/provider-schemas`).
    #[arg(long, value_name = "DIR")]
    pub cache_dir: Option<PathBuf>,
    /// Only read schemas already cached: run no provider.
    #[arg(long)]
    pub no_run: bool,
    /// Also run provider binaries inside DIR's repository (its own
    /// `.terraform/providers`, a plugin cache kept in it): repository
    /// content, never run without this.
    #[arg(long)]
    pub run_workspace_providers: bool,
}

/// The module directories under `root`, sorted.
fn modules(root: &Path) -> Vec<PathBuf> {
    let walk = walkdir::WalkDir::new(root).sort_by_file_name().into_iter().filter_entry(|e| {
        let name = e.file_name().to_string_lossy();
        e.depth() == 0 || !(e.file_type().is_dir() && name.starts_with('.'))
    });
    let mut dirs: Vec<PathBuf> = walk
        .flatten()
        .filter(|e| e.file_type().is_file())
        .filter(|e| e.path().extension().is_some_and(|x| x == "tf" || x == "tofu"))
        .filter_map(|e| e.path().parent().map(Path::to_path_buf))
        .collect();
    dirs.dedup();
    dirs
}

pub fn run(args: SchemasArgs) -> u8 {
    let Some(cache_dir) = args.cache_dir.clone().or_else(project::schemas::plugin::default_cache_dir) else {
        eprintln!("hcl-types: no cache directory: pass --cache-dir (neither XDG_CACHE_HOME nor HOME is set)");
        return 2;
    };
    let cache_dir = std::path::absolute(&cache_dir).unwrap_or(cache_dir);
    let policy = Policy {
        run: !args.no_run,
        run_inside: args.run_workspace_providers && !args.no_run,
        opt_in: "`--run-workspace-providers`",
        inside: Arc::new(project::confine::Tree::for_paths(std::slice::from_ref(&args.dir))),
        cache_dir: cache_dir.clone(),
        search: project::schemas::installed::search_dirs(),
        background: false,
    };
    println!(
        "searched: {}",
        if policy.search.is_empty() {
            "(no plugin cache or plugin directory)".to_string()
        } else {
            policy.search.iter().map(|d| d.display().to_string()).collect::<Vec<_>>().join(", ")
        }
    );
    println!("cache: {}", cache_dir.display());
    let mut failed = false;
    for dir in modules(&args.dir) {
        let survey = provided::survey(&dir, &policy);
        if survey.is_empty() {
            continue;
        }
        println!("{}", dir.display());
        for (name, _, outcome) in survey {
            let line = match outcome {
                Outcome::Typed { found, cache, .. } => {
                    let lock = if found.locked { ", the locked version" } else { "" };
                    // What the lock file's hashes could say of the package.
                    let checked = match found.hashes.iter().any(|h| h.starts_with("h1:")) {
                        true => "; its package matches the lock file's `h1:` hash",
                        false if !found.hashes.is_empty() => {
                            "; the lock file lists only `zh:` hashes (of the registry's zip), which an unpacked \
                             package cannot be checked against"
                        }
                        false => "",
                    };
                    format!(
                        "typed: {} {}{lock} from {} (cached {}){checked}",
                        found.address,
                        found.version,
                        found.binary.display(),
                        cache.display()
                    )
                }
                Outcome::Missing(why) => format!("untyped: {why}"),
                Outcome::NotRun(found, why) => format!("untyped: {} {} not run: {why}", found.address, found.version),
                Outcome::Failed(found, why) => {
                    failed = true;
                    format!("failed: {} {}: {why}", found.address, found.version)
                }
                Outcome::Running(_) => unreachable!("read in the foreground"),
            };
            println!("  {name}: {line}");
        }
    }
    if failed {
        1
    } else {
        0
    }
}
