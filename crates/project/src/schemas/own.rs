//! The module's own provider schemas: `terraform providers schema -json`
//! (or `tofu`), run only when the user allowed it (lsp.md "What the server
//! runs"), in the background, its output cached on disk and shared by every
//! module with the same lock file and executable. Such a schema is known to
//! match the module's providers: what it lacks is an error.
//!
//! Run in the module itself, Terraform would also load its backend: a
//! `.terraform/terraform.tfstate` that a repository commits sends the
//! user's backend credentials (`TF_HTTP_*`, cloud tokens) to an address the
//! repository chose. So it runs in a scratch directory instead, whose only
//! configuration requires the providers the lock file names (at their
//! locked versions), with the module's installed providers linked in as
//! its data directory's, a clean environment and an empty CLI
//! configuration: no backend, no state, no credentials.

use analysis::sync::Locked;
use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, SystemTime};

use super::read_cached;
use crate::child;
use schema::{load, ProviderSchemas};

/// How long `providers schema` may take (the largest providers print
/// their schema in seconds; a provider that hangs must not hold the
/// module's analysis back for ever).
pub const TIMEOUT: Duration = Duration::from_secs(120);

/// The largest lock file read (a real one is a few KB per provider).
const LOCK_CAP: u64 = crate::fsread::MANIFEST_CAP;

/// Whether `terraform init` prepared `dir` (so its providers are known).
/// A lock file that is a FIFO or a device does not count (opened
/// non-blocking and looked at, never read).
pub fn initialised(dir: &Path) -> bool {
    dir.join(".terraform").is_dir() || crate::fsread::open_regular(&dir.join(".terraform.lock.hcl")).is_ok()
}

/// The executable to run: `setting` when it is an absolute path, else
/// `terraform` or `tofu` in an absolute `PATH` entry. A relative setting is
/// refused, and relative or empty `PATH` entries (`.`, `a::b`) are skipped:
/// either would run a file of the workspace, whatever the working
/// directory happens to be.
pub fn find_executable(setting: Option<&Path>) -> Result<PathBuf, String> {
    if let Some(p) = setting {
        if !p.is_absolute() {
            return Err(format!("`terraform.path` must be an absolute path, not `{}`", p.display()));
        }
        return Ok(p.to_path_buf());
    }
    let path = std::env::var_os("PATH").unwrap_or_default();
    ["terraform", "tofu"]
        .iter()
        .find_map(|name| {
            std::env::split_paths(&path).filter(|d| d.is_absolute()).map(|d| d.join(name)).find(|p| p.is_file())
        })
        .ok_or_else(|| "neither `terraform` nor `tofu` is on the PATH (absolute entries)".into())
}

/// `PATH` with only its absolute entries, for the child.
fn absolute_path() -> std::ffi::OsString {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::join_paths(std::env::split_paths(&path).filter(|d| d.is_absolute())).unwrap_or_default()
}

/// What identifies a module's schema: its lock file (the same lock, the
/// same providers) and the executable that prints it (its resolved path,
/// size and modification time: an upgraded `terraform` in place is another
/// executable). `None` when the lock file is there but cannot be read as a
/// small regular file.
pub fn lock_key(exe: &Path, dir: &Path) -> Option<u64> {
    let lock = dir.join(".terraform.lock.hcl");
    let bytes = match std::fs::symlink_metadata(&lock) {
        Err(_) => Vec::new(),
        Ok(_) => crate::fsread::read_regular(&lock, LOCK_CAP).ok()?,
    };
    let mut h = rustc_hash::FxHasher::default();
    // The scratch configuration's format: a change of it is a new schema.
    2u8.hash(&mut h);
    bytes.hash(&mut h);
    let real = std::fs::canonicalize(exe).unwrap_or_else(|_| exe.to_path_buf());
    real.hash(&mut h);
    if let Ok(m) = std::fs::metadata(&real) {
        (m.len(), m.modified().ok()).hash(&mut h);
    }
    Some(h.finish())
}

/// Where the schema of a lock key is kept between runs:
/// `$XDG_CACHE_HOME/hcl-types/provider-schemas/KEY.json` (default `~/.cache`).
pub fn cache_path(key: u64) -> Option<PathBuf> {
    let base = std::env::var_os("XDG_CACHE_HOME").map(PathBuf::from).filter(|p| p.is_absolute()).or_else(|| {
        std::env::var_os("HOME").map(PathBuf::from).filter(|p| p.is_absolute()).map(|h| h.join(".cache"))
    })?;
    Some(base.join("hcl-types/provider-schemas").join(format!("{key:016x}.json")))
}

/// The providers a lock file names: each `provider "ADDRESS" { version =
/// "V" }`, kept only when the address and version are plain (host,
/// namespace and type of letters, digits, `.`, `_` and `-`), so nothing of
/// the lock file but these words reaches the configuration written from it.
pub fn locked_providers(text: &str) -> Vec<(String, String)> {
    // On a 2 MiB thread: nesting that needs more stack is parsed on its own.
    let Ok(body) = syntax::deep::parse_body(text) else { return Vec::new() };
    let word = |s: &str| !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || "._-".contains(c));
    let mut out = Vec::new();
    for block in body.get_blocks("provider") {
        let [label] = block.labels.as_slice() else { continue };
        let address = label.as_str();
        let parts: Vec<&str> = address.split('/').collect();
        if parts.len() != 3 || !parts.iter().all(|p| word(p)) {
            continue;
        }
        let version = block.body.get_attribute("version").and_then(|a| a.value.as_str().map(str::to_string));
        let version = version.filter(|v| word(&v.replace('+', "")));
        out.push((address.to_string(), version.unwrap_or_default()));
    }
    out
}

/// The scratch configuration: the builtin `terraform` provider and each
/// locked provider, at its locked version.
fn scratch_config(providers: &[(String, String)]) -> String {
    let mut s = String::from("terraform {\n  required_providers {\n");
    s.push_str("    terraform = {\n      source = \"terraform.io/builtin/terraform\"\n    }\n");
    for (i, (address, version)) in providers.iter().enumerate() {
        s.push_str(&format!("    p{i} = {{\n      source = \"{address}\"\n"));
        if !version.is_empty() {
            s.push_str(&format!("      version = \"= {version}\"\n"));
        }
        s.push_str("    }\n");
    }
    s.push_str("  }\n}\n");
    s
}

use crate::scratch::Scratch;

/// The command for `exe` in a new scratch directory for the module in
/// `dir`: its configuration, lock file, data directory (the module's
/// installed providers linked in), home and CLI configuration are ours,
/// and the environment holds nothing else but the absolute `PATH`.
fn command(exe: &Path, dir: &Path) -> Result<(std::process::Command, Scratch), String> {
    let scratch = Scratch::new("schema")?;
    let at = |name: &str| scratch.path().join(name);
    let write = |name: &str, text: &[u8]| std::fs::write(at(name), text).map_err(|e| format!("{name}: {e}"));
    let lock = crate::fsread::read_regular(&dir.join(".terraform.lock.hcl"), LOCK_CAP).unwrap_or_default();
    let providers = locked_providers(&String::from_utf8_lossy(&lock));
    write("providers.tf", scratch_config(&providers).as_bytes())?;
    if !lock.is_empty() {
        write(".terraform.lock.hcl", &lock)?;
    }
    write("terraformrc", b"")?;
    let data = at("data");
    std::fs::create_dir(&data).map_err(|e| format!("{}: {e}", data.display()))?;
    let installed = dir.join(".terraform/providers");
    #[cfg(unix)]
    if installed.is_dir() {
        std::os::unix::fs::symlink(&installed, data.join("providers")).map_err(|e| e.to_string())?;
    }
    let mut cmd = std::process::Command::new(exe);
    cmd.args(["providers", "schema", "-json"])
        .current_dir(scratch.path())
        .env_clear()
        .env("PATH", absolute_path())
        .env("HOME", scratch.path())
        .env("TF_DATA_DIR", &data)
        .env("TF_CLI_CONFIG_FILE", at("terraformrc"))
        .env("CHECKPOINT_DISABLE", "1")
        .env("TF_IN_AUTOMATION", "1")
        .env("TF_INPUT", "0");
    Ok((cmd, scratch))
}

/// Runs `EXE providers schema -json` for the module in `dir` (in a scratch
/// directory, for at most `timeout`) and keeps its output in the disk
/// cache; the schema, read once per process.
pub fn run(exe: &Path, dir: &Path, key: u64, timeout: Duration) -> Result<Arc<ProviderSchemas>, String> {
    let cached = cache_path(key).ok_or("no cache directory (neither XDG_CACHE_HOME nor HOME is set)")?;
    if !cached.is_file() {
        let (cmd, scratch) = command(exe, dir)?;
        let out = child::run(cmd, timeout, crate::fsread::SCHEMA_CAP as usize)
            .map_err(|e| format!("{}: {e}", exe.display()))?;
        drop(scratch);
        if !out.success {
            return Err(format!("{} providers schema -json failed: {}", exe.display(), out.stderr.trim()));
        }
        // Only what reads as a schema is kept.
        load(&out.stdout)?;
        if let Some(parent) = cached.parent() {
            std::fs::create_dir_all(parent).map_err(|e| format!("{}: {e}", parent.display()))?;
        }
        // Written whole, then moved: a reader never sees half a file.
        let tmp = cached.with_extension(format!("{}.tmp", std::process::id()));
        std::fs::write(&tmp, &out.stdout).map_err(|e| format!("{}: {e}", tmp.display()))?;
        std::fs::rename(&tmp, &cached).map_err(|e| format!("{}: {e}", cached.display()))?;
    }
    read_cached(&cached, load).map(|(s, _)| s).map_err(|e| format!("{}: {e}", cached.display()))
}

/// What `terraform init` changes in a module: a failed run is tried again
/// once this differs (the providers were installed meanwhile).
type InitStamp = [Option<SystemTime>; 3];

fn init_stamp(dir: &Path) -> InitStamp {
    let mtime = |p: PathBuf| std::fs::symlink_metadata(p).and_then(|m| m.modified()).ok();
    [mtime(dir.join(".terraform")), mtime(dir.join(".terraform/providers")), mtime(dir.join(".terraform.lock.hcl"))]
}

/// Where a lock key's schema is.
#[derive(Clone, Debug)]
pub enum State {
    Running,
    Ready(Arc<ProviderSchemas>),
    /// Why it failed, and the module as it was then.
    Failed(String, InitStamp),
}

fn states() -> &'static Mutex<HashMap<u64, State>> {
    static STATES: OnceLock<Mutex<HashMap<u64, State>>> = OnceLock::new();
    STATES.get_or_init(Mutex::default)
}

/// Forgets the schemas printed and the runs that failed (not those
/// running): each is printed again when next asked for.
pub(crate) fn forget_finished() {
    states().locked().retain(|_, s| matches!(s, State::Running));
}

/// Whether the schema of `dir` is still being printed (started by
/// [`in_background`]), so a server knows to analyse again once it is done.
pub fn running(exe: &Path, dir: &Path) -> bool {
    let Some(key) = lock_key(exe, dir) else { return false };
    matches!(states().locked().get(&key), Some(State::Running))
}

/// The module's own schema when it is ready; else starts `providers schema
/// -json` on another thread (once per lock key and process, again after a
/// failure once `terraform init` changed the module) and answers
/// `Running` until it is done.
pub fn in_background(exe: &Path, dir: &Path, timeout: Duration) -> Option<(u64, State)> {
    let states = states();
    let key = lock_key(exe, dir)?;
    let mut map = states.locked();
    match map.get(&key) {
        Some(State::Failed(_, stamp)) if *stamp != init_stamp(dir) => {}
        Some(s) => return Some((key, s.clone())),
        None => {}
    }
    map.insert(key, State::Running);
    let (exe, dir) = (exe.to_path_buf(), dir.to_path_buf());
    std::thread::spawn(move || {
        let stamp = init_stamp(&dir);
        let state = match run(&exe, &dir, key, timeout) {
            Ok(s) => State::Ready(s),
            Err(e) => {
                eprintln!("hcl-types: the provider schemas of {}: {e}", dir.display());
                State::Failed(e, stamp)
            }
        };
        states.locked().insert(key, state);
    });
    Some((key, State::Running))
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    fn temp(name: &str) -> crate::scratch::Scratch {
        crate::scratch::Scratch::new(&format!("own-{name}")).unwrap()
    }

    fn script(path: &Path, body: &str) {
        std::fs::write(path, format!("#!/bin/sh\n{body}\n")).expect("script");
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    }

    #[test]
    fn relative_settings_and_path_entries_are_never_used() {
        let err = find_executable(Some(Path::new("bin/terraform"))).unwrap_err();
        assert!(err.contains("absolute"), "{err}");
        assert!(find_executable(Some(Path::new("./terraform"))).is_err());
        assert_eq!(find_executable(Some(Path::new("/opt/tf"))).ok(), Some(PathBuf::from("/opt/tf")));
    }

    #[test]
    fn lock_file_providers_are_read_and_nothing_else_passes() {
        let text = r#"
provider "registry.terraform.io/hashicorp/aws" {
  version     = "5.31.0"
  constraints = "~> 5.0"
  hashes      = ["h1:x"]
}
provider "registry.terraform.io/evil/x\"\n}\nterraform {" {
  version = "1.0.0"
}
provider "registry.terraform.io/hashicorp/null" {
  version = "3.2.1\" }"
}
"#;
        let p = locked_providers(text);
        assert_eq!(
            p,
            [
                ("registry.terraform.io/hashicorp/aws".to_string(), "5.31.0".to_string()),
                ("registry.terraform.io/hashicorp/null".to_string(), String::new()),
            ]
        );
        let config = scratch_config(&p);
        assert!(config.contains("source = \"registry.terraform.io/hashicorp/aws\"\n      version = \"= 5.31.0\""));
        assert!(!config.contains("backend"), "{config}");
        assert!(locked_providers("not hcl {{{").is_empty());
    }

    #[test]
    fn the_key_changes_with_the_executable_in_place() {
        let d = temp("key");
        let exe = d.join("terraform");
        script(&exe, "echo one");
        std::fs::write(d.join(".terraform.lock.hcl"), "").expect("lock");
        let before = lock_key(&exe, &d);
        script(&exe, "echo two, longer");
        assert_ne!(before, lock_key(&exe, &d), "an upgraded executable is another schema");
        assert!(before.is_some());
    }

    #[test]
    fn a_lock_file_that_is_a_fifo_or_huge_is_not_read() {
        let d = temp("fifo");
        let lock = d.join(".terraform.lock.hcl");
        let made = std::process::Command::new("mkfifo").arg(&lock).status().is_ok_and(|s| s.success());
        assert!(made, "mkfifo");
        // Opened non-blocking and refused: this returns at once.
        assert_eq!(lock_key(Path::new("/bin/true"), &d), None);
        std::fs::remove_file(&lock).expect("rm");
        std::os::unix::fs::symlink("/dev/zero", &lock).expect("link");
        assert_eq!(lock_key(Path::new("/bin/true"), &d), None);
    }

    /// The command runs in a scratch directory with a clean environment:
    /// not in the module (whose backend would be loaded), without the
    /// user's credentials or home.
    #[test]
    fn the_schema_is_printed_in_a_scratch_directory_without_credentials() {
        let d = temp("scratch");
        let module = d.join("module");
        std::fs::create_dir_all(module.join(".terraform/providers")).expect("module");
        std::fs::write(
            module.join(".terraform.lock.hcl"),
            "provider \"registry.terraform.io/hashicorp/null\" {\n  version = \"3.2.1\"\n}\n",
        )
        .expect("lock");
        let log = d.join("log");
        let exe = d.join("terraform");
        script(
            &exe,
            &format!(
                "env > {}.env\n{{ pwd; cat providers.tf; ls -l \"$TF_DATA_DIR\"; }} > {}\necho '{{\"format_version\":\"1.0\",\"provider_schemas\":{{}}}}'",
                log.display(),
                log.display()
            ),
        );
        let (cmd, scratch) = command(&exe, &module).expect("command");
        let out = child::run(cmd, Duration::from_secs(30), 1 << 20).expect("ran");
        let scratch_dir = scratch.to_path_buf();
        drop(scratch);
        assert!(out.success);
        let seen = std::fs::read_to_string(&log).expect("log");
        assert!(seen.starts_with(&format!("{}\n", scratch_dir.display())), "{seen}");
        // Nothing of this process's environment (CARGO_*, the user's
        // credentials) reaches the child: only what `command` sets and
        // what the shell adds itself.
        let env = std::fs::read_to_string(log.with_extension("env")).expect("env");
        let names: Vec<&str> = env.lines().filter_map(|l| l.split_once('=')).map(|(k, _)| k).collect();
        let ours =
            ["PATH", "HOME", "TF_DATA_DIR", "TF_CLI_CONFIG_FILE", "CHECKPOINT_DISABLE", "TF_IN_AUTOMATION", "TF_INPUT"];
        let shell = ["PWD", "SHLVL", "_", "OLDPWD"];
        let extra: Vec<&&str> = names.iter().filter(|n| !ours.contains(n) && !shell.contains(n)).collect();
        assert!(extra.is_empty() && names.contains(&"TF_DATA_DIR"), "{names:?}");
        assert!(env.contains(&format!("HOME={}\n", scratch_dir.display())), "{env}");
        assert!(seen.contains("source = \"registry.terraform.io/hashicorp/null\""), "{seen}");
        assert!(seen.contains(&format!("providers -> {}", module.join(".terraform/providers").display())), "{seen}");
        assert!(!scratch_dir.exists(), "the scratch directory is removed");
        assert!(module.join(".terraform/providers").is_dir(), "the module's providers are not touched");
    }

    #[test]
    fn a_failed_run_is_tried_again_after_init() {
        let d = temp("retry");
        let module = d.join("module");
        std::fs::create_dir_all(&module).expect("module");
        std::fs::write(module.join(".terraform.lock.hcl"), "").expect("lock");
        let count = d.join("count");
        let exe = d.join("terraform");
        script(&exe, &format!("echo run >> {}\nexit 1", count.display()));
        let settle = || {
            for _ in 0..500 {
                if !running(&exe, &module) {
                    return;
                }
                std::thread::sleep(Duration::from_millis(10));
            }
        };
        let runs = || std::fs::read_to_string(&count).unwrap_or_default().lines().count();
        assert!(matches!(in_background(&exe, &module, TIMEOUT), Some((_, State::Running))));
        settle();
        assert!(matches!(in_background(&exe, &module, TIMEOUT), Some((_, State::Failed(..)))));
        assert_eq!(runs(), 1, "a failure is not retried while nothing changed");
        std::fs::create_dir_all(module.join(".terraform/providers")).expect("init");
        assert!(matches!(in_background(&exe, &module, TIMEOUT), Some((_, State::Running))));
        settle();
        assert_eq!(runs(), 2, "tried again after `terraform init`");
    }
}
