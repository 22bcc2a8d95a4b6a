//! The providers the user already has, outside the repository: Terraform's
//! and OpenTofu's plugin cache (`TF_PLUGIN_CACHE_DIR`, `plugin_cache_dir`
//! in the user's CLI configuration) and their implied local plugin
//! directories, matched to a module's `required_providers` and lock file.
//!
//! Where each tool looks (read from their source):
//! - Terraform, `internal/command/cliconfig/cliconfig.go`: `TF_PLUGIN_CACHE_DIR`
//!   wins over `plugin_cache_dir` (expanded with `os.ExpandEnv`) of the file
//!   `TF_CLI_CONFIG_FILE` (or `TERRAFORM_CONFIG`) names, else `~/.terraformrc`;
//!   plugins in `~/.terraform.d/plugins` and `$XDG_DATA_HOME/terraform/plugins`
//!   (`provider_source.go`'s implied mirrors).
//! - OpenTofu, `internal/command/cliconfig/config_unix.go`: `~/.tofurc`, the
//!   legacy `~/.terraformrc`, or `$XDG_CONFIG_HOME/opentofu/tofurc`; plugins
//!   in `~/.terraform.d/plugins` or `$XDG_DATA_HOME/opentofu/plugins`.
//!
//! The layout of both (unpacked): `HOST/NAMESPACE/TYPE/VERSION/OS_ARCH/
//! terraform-provider-TYPE_vVERSION`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// A provider binary found for a module.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Installed {
    /// `registry.terraform.io/hashicorp/aws`.
    pub address: String,
    pub version: String,
    pub binary: PathBuf,
    /// The version is the one the module's lock file names.
    pub locked: bool,
    /// The lock file's hashes for it (when locked): its package must
    /// match one ([`super::lockhash::verify`]).
    pub hashes: Vec<String>,
}

/// What a module asks of one provider.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Required {
    /// `hashicorp/aws` or `HOST/hashicorp/aws` as the module writes it.
    pub source: String,
    /// Every constraint given for it (all must hold).
    pub constraints: Vec<String>,
}

fn env_path(name: &str) -> Option<PathBuf> {
    std::env::var_os(name).map(PathBuf::from).filter(|p| p.is_absolute())
}

/// `$VAR` and `${VAR}` replaced from the environment (Go's `os.ExpandEnv`).
fn expand_env(s: &str) -> String {
    let re = regex::Regex::new(r"\$(\{([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*))").expect("regex");
    re.replace_all(s, |c: &regex::Captures| {
        let name = c.get(2).or_else(|| c.get(3)).map_or("", |m| m.as_str());
        std::env::var(name).unwrap_or_default()
    })
    .into_owned()
}

/// The user's CLI configuration files, Terraform's and OpenTofu's.
fn cli_config_files() -> Vec<PathBuf> {
    let named = ["TF_CLI_CONFIG_FILE", "TERRAFORM_CONFIG", "TOFU_CLI_CONFIG_FILE"].iter().find_map(|v| env_path(v));
    if let Some(f) = named {
        return vec![f];
    }
    let home = env_path("HOME");
    let mut out: Vec<PathBuf> = home.iter().flat_map(|h| [h.join(".terraformrc"), h.join(".tofurc")]).collect();
    out.extend(env_path("XDG_CONFIG_HOME").map(|x| x.join("opentofu/tofurc")));
    out
}

/// `plugin_cache_dir` of a CLI configuration file (a small regular file).
fn plugin_cache_dir(file: &Path) -> Option<PathBuf> {
    let bytes = crate::fsread::read_regular(file, crate::fsread::MANIFEST_CAP).ok()?;
    let body = syntax::deep::parse_body(&String::from_utf8_lossy(&bytes)).ok()?;
    let dir = body.get_attribute("plugin_cache_dir")?.value.as_str()?.to_string();
    Some(PathBuf::from(expand_env(&dir))).filter(|p| p.is_absolute())
}

/// The directories searched, in order: the plugin cache (the environment's,
/// else each CLI configuration's), then the implied plugin directories.
pub fn search_dirs() -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = env_path("TF_PLUGIN_CACHE_DIR").into_iter().collect();
    out.extend(cli_config_files().iter().filter_map(|f| plugin_cache_dir(f)));
    let home = env_path("HOME");
    out.extend(home.iter().map(|h| h.join(".terraform.d/plugins")));
    let data = env_path("XDG_DATA_HOME").or_else(|| home.map(|h| h.join(".local/share")));
    out.extend(data.iter().flat_map(|d| [d.join("terraform/plugins"), d.join("opentofu/plugins")]));
    let mut seen = std::collections::HashSet::new();
    out.retain(|d| d.is_dir() && seen.insert(d.clone()));
    out
}

/// Go's `GOOS_GOARCH` of this machine (`linux_amd64`).
pub fn os_arch() -> String {
    let arch = match std::env::consts::ARCH {
        "x86_64" => "amd64",
        "aarch64" => "arm64",
        "x86" => "386",
        other => other,
    };
    format!("{}_{arch}", std::env::consts::OS)
}

/// The full addresses a source may mean: with its host, or under each
/// tool's default registry (Terraform's first).
pub fn addresses(source: &str) -> Vec<String> {
    let source = source.to_ascii_lowercase();
    match source.split('/').count() {
        3 => vec![source],
        2 => vec![format!("registry.terraform.io/{source}"), format!("registry.opentofu.org/{source}")],
        1 => addresses(&format!("hashicorp/{source}")),
        _ => Vec::new(),
    }
}

/// A version's numbers (`1.2.3`; a pre-release is none: constraints never
/// pick one unless named exactly, as go-version).
fn numbers(v: &str) -> Option<Vec<u64>> {
    let v = v.trim().trim_start_matches('v');
    let n: Option<Vec<u64>> = v.split('.').map(|p| p.parse().ok()).collect();
    n.filter(|n| !n.is_empty() && n.len() <= 3).map(|mut n| {
        n.resize(3, 0);
        n
    })
}

/// Whether `version` meets one constraint string (`>= 1.2, < 2.0`, `~> 5.0`).
pub fn allows(constraints: &str, version: &str) -> bool {
    let Some(v) = numbers(version) else { return false };
    constraints.split(',').map(str::trim).filter(|c| !c.is_empty()).all(|c| {
        let ops = ["~>", ">=", "<=", "!=", ">", "<", "="];
        let op = ops.iter().find(|o| c.starts_with(**o)).copied().unwrap_or("=");
        let rest = c.trim_start_matches(op).trim();
        let Some(want) = numbers(rest) else { return false };
        match op {
            ">=" => v >= want,
            "<=" => v <= want,
            ">" => v > want,
            "<" => v < want,
            "!=" => v != want,
            "~>" => {
                // The last given segment may grow; those before stay.
                let given = rest.trim_start_matches('v').split('.').count().max(2);
                v >= want && v[..given - 1] == want[..given - 1]
            }
            _ => v == want,
        }
    })
}

/// Every provider binary under `dir` for `address`: version → binary.
fn binaries(dir: &Path, address: &str) -> BTreeMap<Vec<u64>, (String, PathBuf)> {
    let mut out = BTreeMap::new();
    let ty = address.rsplit('/').next().unwrap_or_default();
    let prefix = format!("terraform-provider-{ty}");
    let base = dir.join(address);
    for version in std::fs::read_dir(&base).into_iter().flatten().flatten() {
        let name = version.file_name().to_string_lossy().into_owned();
        let Some(n) = numbers(&name) else { continue };
        let platform = version.path().join(os_arch());
        let files = std::fs::read_dir(&platform).into_iter().flatten().flatten();
        let bin = files
            .map(|f| f.path())
            .find(|p| p.file_name().is_some_and(|f| f.to_string_lossy().starts_with(&prefix)) && executable(p));
        if let Some(bin) = bin {
            out.insert(n, (name, bin));
        }
    }
    out
}

fn executable(p: &Path) -> bool {
    let Ok(m) = std::fs::metadata(p) else { return false };
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        m.is_file() && m.permissions().mode() & 0o111 != 0
    }
    #[cfg(not(unix))]
    m.is_file()
}

/// The binary for one required provider: the locked version when one of the
/// directories has it, else the newest that meets every constraint. None
/// found: why, saying what would fix it.
pub fn find(dirs: &[PathBuf], req: &Required, locked: &[(String, String)]) -> Result<Installed, String> {
    let mut have = Vec::new();
    let mut wanted = None;
    for address in addresses(&req.source) {
        let lock = locked.iter().find(|(a, _)| a.eq_ignore_ascii_case(&address)).map(|(_, v)| v.as_str());
        let mut all = BTreeMap::new();
        for dir in dirs.iter().rev() {
            all.extend(binaries(dir, &address));
        }
        have.extend(all.values().map(|(v, _)| v.clone()));
        let pick = match lock {
            Some(l) => {
                wanted = Some(format!("the locked version {l}"));
                all.into_iter().find(|(_, (v, _))| v == l)
            }
            None => all.into_iter().rev().find(|(_, (v, _))| req.constraints.iter().all(|c| allows(c, v))),
        };
        if let Some((_, (version, binary))) = pick {
            return Ok(Installed { address, locked: lock.is_some(), version, binary, hashes: Vec::new() });
        }
    }
    let fix = "`terraform init` or `tofu init` with a plugin cache (TF_PLUGIN_CACHE_DIR) installs one";
    if have.is_empty() {
        return Err(format!("no binary of {} in the searched directories ({fix})", req.source));
    }
    let wanted = wanted.unwrap_or_else(|| format!("a version meeting `{}`", req.constraints.join(", ")));
    Err(format!("no binary of {} at {wanted} (have {}; {fix})", req.source, have.join(", ")))
}

/// What the module's `.tf` files require: `required_providers` entries
/// (`NAME = { source, version }` or `NAME = "VERSION"`), and the providers
/// its blocks imply (`aws_instance` → `hashicorp/aws`), by local name.
pub fn requirements(files: &[(PathBuf, String)]) -> BTreeMap<String, Required> {
    let mut out: BTreeMap<String, Required> = BTreeMap::new();
    let mut implied = Vec::new();
    for (_, text) in files {
        let Ok(body) = syntax::deep::parse_body(text) else { continue };
        for tf in body.get_blocks("terraform") {
            for rp in tf.body.get_blocks("required_providers") {
                for attr in rp.body.attributes() {
                    let name = attr.key.as_str().to_string();
                    let entry = out.entry(name.clone()).or_default();
                    if let Some(v) = attr.value.as_str() {
                        entry.constraints.push(v.to_string());
                    } else if let Some(obj) = attr.value.as_object() {
                        for (k, v) in obj.iter() {
                            let key = match k {
                                hcl_edit::expr::ObjectKey::Ident(id) => id.value().to_string(),
                                hcl_edit::expr::ObjectKey::Expression(e) => e.as_str().unwrap_or_default().to_string(),
                            };
                            match (key.as_str(), v.expr().as_str()) {
                                ("source", Some(s)) => entry.source = s.to_string(),
                                ("version", Some(c)) => entry.constraints.push(c.to_string()),
                                _ => {}
                            }
                        }
                    }
                }
            }
        }
        for kind in ["resource", "data", "ephemeral"] {
            for b in body.get_blocks(kind) {
                if let Some(ty) = b.labels.first() {
                    implied.extend(ty.as_str().split('_').next().map(str::to_string));
                }
            }
        }
        for b in body.get_blocks("provider") {
            implied.extend(b.labels.first().map(|l| l.as_str().to_string()));
        }
    }
    for name in implied.into_iter().filter(|n| !n.is_empty() && n != "terraform") {
        out.entry(name).or_default();
    }
    for (name, req) in out.iter_mut() {
        if req.source.is_empty() {
            req.source = format!("hashicorp/{name}");
        }
    }
    out.retain(|n, r| n != "terraform" && !r.source.ends_with("/terraform"));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn constraints_are_read_as_terraform_reads_them() {
        assert!(allows("~> 5.0", "5.31.0"));
        assert!(!allows("~> 5.0", "6.0.0"));
        assert!(allows("~> 5.31.1", "5.31.4"));
        assert!(!allows("~> 5.31.1", "5.32.0"));
        assert!(allows(">= 1.2, < 2.0", "1.9.9"));
        assert!(!allows(">= 1.2, < 2.0", "2.0.0"));
        assert!(allows("3.2.1", "3.2.1") && !allows("3.2.1", "3.2.2"));
        assert!(!allows("!= 3.2.1", "3.2.1"));
        assert!(!allows(">= 1.0", "1.1.0-beta1"), "no pre-release unless named");
    }

    #[test]
    fn sources_mean_either_registry() {
        assert_eq!(
            addresses("hashicorp/aws"),
            ["registry.terraform.io/hashicorp/aws", "registry.opentofu.org/hashicorp/aws"]
        );
        assert_eq!(addresses("example.com/a/b"), ["example.com/a/b"]);
    }

    #[test]
    fn required_and_implied_providers_are_read() {
        let text = r#"
terraform {
  required_providers {
    aws = { source = "hashicorp/aws", version = "~> 5.0" }
    old = ">= 1.0"
  }
}
resource "aws_instance" "a" {}
resource "random_id" "b" {}
data "terraform_remote_state" "c" {}
"#;
        let r = requirements(&[(PathBuf::from("main.tf"), text.to_string())]);
        assert_eq!(r["aws"], Required { source: "hashicorp/aws".into(), constraints: vec!["~> 5.0".into()] });
        assert_eq!(r["old"].constraints, [">= 1.0"]);
        assert_eq!(r["random"].source, "hashicorp/random");
        assert!(!r.contains_key("terraform"));
    }

    #[cfg(unix)]
    #[test]
    fn the_locked_version_else_the_newest_allowed_is_found() {
        use std::os::unix::fs::PermissionsExt;
        let d = crate::scratch::Scratch::new("installed").unwrap();
        for v in ["4.27.0", "5.45.0", "7.45.0"] {
            let dir = d.join("registry.terraform.io/hashicorp/google").join(v).join(os_arch());
            std::fs::create_dir_all(&dir).expect("dir");
            let bin = dir.join(format!("terraform-provider-google_v{v}_x5"));
            std::fs::write(&bin, "#!/bin/sh\n").expect("bin");
            std::fs::set_permissions(&bin, std::fs::Permissions::from_mode(0o755)).expect("chmod");
        }
        let dirs = [d.to_path_buf()];
        let req = Required { source: "hashicorp/google".into(), constraints: vec![">= 4.0, < 7.0".into()] };
        let found = find(&dirs, &req, &[]).expect("found");
        assert_eq!((found.version.as_str(), found.locked), ("5.45.0", false));
        let lock = [("registry.terraform.io/hashicorp/google".to_string(), "4.27.0".to_string())];
        let found = find(&dirs, &req, &lock).expect("locked");
        assert_eq!((found.version.as_str(), found.locked), ("4.27.0", true));
        let too_new = Required { source: "hashicorp/google".into(), constraints: vec!["~> 8.0".into()] };
        let why = find(&dirs, &too_new, &[]).unwrap_err();
        assert!(why.contains("at a version meeting `~> 8.0` (have 4.27.0, 5.45.0, 7.45.0"), "{why}");
        let other = Required { source: "hashicorp/aws".into(), constraints: vec![] };
        assert!(find(&dirs, &other, &[]).unwrap_err().contains("no binary of hashicorp/aws in the searched"));
        let _ = std::fs::remove_dir_all(&d);
    }
}
