//! A provider's schema read from the provider itself, over the plugin
//! protocol: no `terraform` or `tofu` needed.
//!
//! What runs (lsp.md "What the server runs"): the provider binary, started
//! the way go-plugin starts it (`hashicorp/go-plugin` `client.go`): the
//! magic cookie `TF_PLUGIN_MAGIC_COOKIE`, `PLUGIN_PROTOCOL_VERSIONS=5,6`,
//! `PLUGIN_MIN_PORT`/`PLUGIN_MAX_PORT`; it prints one handshake line
//! `CORE|APP|NETWORK|ADDR|grpc[|CERT]` and serves gRPC there; one call of
//! `tfplugin6.Provider/GetProviderSchema` (or `tfplugin5`), then it is
//! killed with its process group. The sandbox is `terraform providers
//! schema`'s: a scratch directory (its socket directory and home), a
//! cleared environment, a timeout, an output cap ([`crate::child`]).
//! `PLUGIN_CLIENT_CERT` is not set, so go-plugin serves without TLS
//! (AutoMTLS is the client's choice); its socket is in our 0700 scratch
//! directory, or a loopback port.
//!
//! The answer is converted to the JSON `providers schema -json` prints
//! ([`proto`]) and cached on disk under the provider's address, version and
//! the SHA-256 of its binary: another binary is another schema.

mod grpc;
mod proto;

use sha2::Digest;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, SystemTime};

use analysis::sync::Locked;
use grpc::Addr;
use schema::{load, ProviderSchemas};

/// go-plugin's handshake for Terraform providers (Terraform's
/// `internal/plugin/serve.go` `Handshake`).
const MAGIC_COOKIE: (&str, &str) =
    ("TF_PLUGIN_MAGIC_COOKIE", "d602bf8f470bc67ca7faa0386276bbdd4330efaf76d1a219cb4d6991ca9872b2");

/// How long a provider may take to start and to answer.
pub const TIMEOUT: Duration = Duration::from_secs(60);

/// A parsed handshake line.
#[derive(Debug, PartialEq, Eq)]
pub struct Handshake {
    /// The plugin protocol the provider chose: 5 or 6.
    pub protocol: u32,
    addr: Addr,
}

/// `1|6|unix|/tmp/plugin123|grpc|` (go-plugin's `server.go`): core version 1,
/// protocol 5 or 6 over gRPC; a certificate means the provider insists on
/// TLS, which is not spoken here.
pub fn handshake(line: &str) -> Result<Handshake, String> {
    let parts: Vec<&str> = line.trim().split('|').collect();
    let bad = || format!("not a plugin handshake: `{}`", line.chars().take(200).collect::<String>());
    let [core, app, network, addr, protocol, rest @ ..] = parts.as_slice() else { return Err(bad()) };
    if *core != "1" || *protocol != "grpc" {
        return Err(bad());
    }
    if rest.first().is_some_and(|c| !c.is_empty()) {
        return Err("the provider asks for TLS, which is not spoken here".into());
    }
    let protocol = app.parse().ok().filter(|p| [5, 6].contains(p)).ok_or_else(bad)?;
    let addr = match *network {
        "unix" => Addr::Unix(PathBuf::from(addr)),
        "tcp" => Addr::Tcp(addr.parse().map_err(|_| bad())?),
        _ => return Err(bad()),
    };
    Ok(Handshake { protocol, addr })
}

/// Starts `binary` in a scratch directory with nothing of our environment
/// but the handshake, and reads its schema: one provider's entry of
/// `providers schema -json`.
pub fn read_schema(binary: &Path, timeout: Duration) -> Result<serde_json::Value, String> {
    let scratch = crate::scratch::Scratch::new("plugin")?;
    let mut cmd = std::process::Command::new(binary);
    cmd.current_dir(scratch.path())
        .env_clear()
        .env(MAGIC_COOKIE.0, MAGIC_COOKIE.1)
        .env("PLUGIN_PROTOCOL_VERSIONS", "5,6")
        .env("PLUGIN_MIN_PORT", "10000")
        .env("PLUGIN_MAX_PORT", "25000")
        .env("PLUGIN_UNIX_SOCKET_DIR", scratch.path())
        .env("TMPDIR", scratch.path())
        .env("HOME", scratch.path())
        .env("CHECKPOINT_DISABLE", "1");
    let (server, line) = crate::child::start(cmd, timeout)?;
    let answer = handshake(&line).and_then(|h| {
        let path = format!("/tfplugin{}.Provider/GetProviderSchema", h.protocol);
        let bytes = grpc::call(&h.addr, &path, timeout, crate::fsread::SCHEMA_CAP as usize)?;
        if h.protocol == 5 {
            proto::v5::to_json(&bytes)
        } else {
            proto::v6::to_json(&bytes)
        }
    });
    let stderr = server.stop();
    drop(scratch);
    answer.map_err(|e| {
        let log = stderr.trim();
        if log.is_empty() {
            e
        } else {
            format!("{e} (its log: {})", log.lines().last().unwrap_or_default())
        }
    })
}

type HashMemo = Mutex<HashMap<(PathBuf, u64, Option<SystemTime>), String>>;

fn hash_memo() -> &'static HashMemo {
    static MEMO: OnceLock<HashMemo> = OnceLock::new();
    MEMO.get_or_init(HashMemo::default)
}

fn hash_key(path: &Path) -> Result<(PathBuf, u64, Option<SystemTime>), String> {
    let meta = std::fs::metadata(path).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok((path.to_path_buf(), meta.len(), meta.modified().ok()))
}

/// Whether [`binary_hash`] of `path` is known without reading it.
pub fn hash_known(path: &Path) -> bool {
    hash_key(path).is_ok_and(|k| hash_memo().locked().contains_key(&k))
}

/// The SHA-256 of a binary, hex; read once per path, size and time.
pub fn binary_hash(path: &Path) -> Result<String, String> {
    let key = hash_key(path)?;
    if let Some(h) = hash_memo().locked().get(&key) {
        return Ok(h.clone());
    }
    let mut file = std::fs::File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut hasher = sha2::Sha256::new();
    std::io::copy(&mut file, &mut hasher).map_err(|e| format!("{}: {e}", path.display()))?;
    let hex: String = hasher.finalize().iter().map(|b| format!("{b:02x}")).collect();
    hash_memo().locked().insert(key, hex.clone());
    Ok(hex)
}

/// The cache file of one provider binary, in `dir`:
/// `HOST_NAMESPACE_TYPE-VERSION-SHA256PREFIX.json`.
pub fn cache_file(dir: &Path, address: &str, version: &str, hash: &str) -> PathBuf {
    let safe = |s: &str| {
        s.chars().map(|c| if c.is_ascii_alphanumeric() || ".-".contains(c) { c } else { '_' }).collect::<String>()
    };
    dir.join(format!("{}-{}-{}.json", safe(address), safe(version), &hash[..hash.len().min(16)]))
}

/// The default cache directory: `$XDG_CACHE_HOME/hcl-types/provider-schemas`
/// (`~/.cache`), shared with the schemas `terraform` printed.
pub fn default_cache_dir() -> Option<PathBuf> {
    super::own::cache_path(0).and_then(|p| p.parent().map(Path::to_path_buf))
}

/// The schema of the provider `address` at `version` in `binary`: from the
/// cache in `cache_dir` when there, else read from the binary (when `run`)
/// and written there. Shared in the process as every schema file is.
pub fn schema(
    address: &str,
    version: &str,
    binary: &Path,
    cache_dir: &Path,
    run: bool,
) -> Result<(Arc<ProviderSchemas>, PathBuf), String> {
    let hash = binary_hash(binary)?;
    let cached = cache_file(cache_dir, address, version, &hash);
    if !cached.is_file() {
        if !run {
            return Err(format!("no cached schema for {address} {version} in {}", cache_dir.display()));
        }
        let entry = read_schema(binary, TIMEOUT).map_err(|e| format!("{}: {e}", binary.display()))?;
        let doc = serde_json::json!({"format_version": "1.0", "provider_schemas": {address: entry}});
        let bytes = serde_json::to_vec(&doc).map_err(|e| e.to_string())?;
        load(&bytes)?;
        std::fs::create_dir_all(cache_dir).map_err(|e| format!("{}: {e}", cache_dir.display()))?;
        let tmp = cached.with_extension(format!("{}.tmp", std::process::id()));
        std::fs::write(&tmp, &bytes).map_err(|e| format!("{}: {e}", tmp.display()))?;
        std::fs::rename(&tmp, &cached).map_err(|e| format!("{}: {e}", cached.display()))?;
    }
    let (s, _) = super::read_cached(&cached, load).map_err(|e| format!("{}: {e}", cached.display()))?;
    Ok((s, cached))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn handshakes_are_read_as_go_plugin_writes_them() {
        let h = handshake("1|6|unix|/tmp/plugin1|grpc|\n").expect("unix");
        assert_eq!(h, Handshake { protocol: 6, addr: Addr::Unix("/tmp/plugin1".into()) });
        let h = handshake("1|5|tcp|127.0.0.1:10001|grpc").expect("tcp");
        assert_eq!(h.protocol, 5);
        assert!(handshake("1|6|tcp|127.0.0.1:1|grpc|MIIB").unwrap_err().contains("TLS"));
        assert!(handshake("1|4|tcp|127.0.0.1:1|netrpc").is_err());
        assert!(handshake("This binary is a plugin.").is_err());
    }
}
