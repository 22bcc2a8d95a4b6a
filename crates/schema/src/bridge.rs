//! Which Pulumi package resource a Pulumi HCL `resource "TYPE" "NAME"`
//! is, and what its Terraform-named arguments are called in the package
//! schema (docs/spec/pulumi-hcl.md §6).
//!
//! pulumi-hcl (`pkg/hcl/packages/resolver.go`, `ResolveResource`) asks the
//! provider's bridge metadata first (`info.Resources[TYPE].Tok`, and
//! `bridge.BodyMapping` for the argument names) and falls back on a
//! convention (`packages.go`, `findResource`): the package is the known
//! provider the type starts with (else its first `_` segment) and the rest,
//! without `_`, must equal a schema token's module and name, lowercased,
//! without `/` and `_` (`tokenSearchKey`). A package schema carries no
//! bridge metadata, so the metadata of the packages whose schemas are here
//! is built in (`data/pulumi-bridge.tsv`, distilled from each provider's
//! `bridge-metadata.json`); for any other package only the convention holds,
//! and its argument names are not known for sure.

use std::collections::HashMap;
use std::sync::LazyLock;

use crate::pulumi::{Package, PulumiResource};

/// Per package: resource token → Terraform type, and per token the
/// properties whose Terraform name is not the Pulumi one (Pulumi → TF).
#[derive(Default)]
struct Metadata {
    types: HashMap<String, String>,
    renamed: HashMap<String, HashMap<String, String>>,
}

static BRIDGED: LazyLock<HashMap<String, Metadata>> = LazyLock::new(|| {
    let mut out: HashMap<String, Metadata> = HashMap::new();
    for line in include_str!("../data/pulumi-bridge.tsv").lines().filter(|l| !l.starts_with('#')) {
        let cols: Vec<&str> = line.split('\t').collect();
        let pkg = |tok: &str| tok.split(':').next().unwrap_or("").to_string();
        match cols[..] {
            ["resource", tok, tf] => {
                out.entry(pkg(tok)).or_default().types.insert(tok.to_string(), tf.to_string());
            }
            ["property", tok, pulumi, tf] => {
                let m = out.entry(pkg(tok)).or_default();
                m.renamed.entry(tok.to_string()).or_default().insert(pulumi.to_string(), tf.to_string());
            }
            _ => {}
        }
    }
    out
});

/// A package resource as Pulumi HCL names it.
pub struct Bridged<'a> {
    pub token: &'a str,
    pub resource: &'a PulumiResource,
    /// The package's bridge metadata is known: every argument's Terraform
    /// name is (an unknown name is no argument).
    pub known: bool,
    renamed: Option<&'static HashMap<String, String>>,
}

impl Bridged<'_> {
    /// The Terraform name of Pulumi property `name`: the metadata's rename,
    /// else the name itself (a one-word name), else, without metadata,
    /// the bridge's default, `name` in snake case (`TerraformToPulumiNameV2`
    /// inverted).
    pub fn tf_name(&self, name: &str) -> String {
        if let Some(tf) = self.renamed.and_then(|r| r.get(name)) {
            return tf.clone();
        }
        if self.known {
            name.to_string()
        } else {
            snake(name)
        }
    }
}

/// `camelCase` as `snake_case` (pulumi-hcl's `camelToSnake`).
fn snake(name: &str) -> String {
    let mut out = String::new();
    for (i, c) in name.chars().enumerate() {
        if c.is_ascii_uppercase() {
            if i > 0 {
                out.push('_');
            }
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

/// The resource of `packages` that Terraform type `tf_type` names, as
/// pulumi-hcl resolves it; `None` when none (or several) do. The packages
/// stand for the program's known providers.
pub fn resource<'a>(packages: &[&'a Package], tf_type: &str) -> Option<Bridged<'a>> {
    // `PackageFromToken`: the known provider the type starts with.
    let matching: Vec<&&Package> =
        packages.iter().filter(|p| tf_type == p.name || tf_type.starts_with(&format!("{}_", p.name))).collect();
    let [package] = matching[..] else { return None };
    let metadata = BRIDGED.get(&package.name);
    if let Some(m) = metadata {
        // The bridge's token, when the schema has it.
        let found =
            m.types.iter().filter(|(_, tf)| *tf == tf_type).find_map(|(tok, _)| package.resources.get_key_value(tok));
        if let Some((token, resource)) = found {
            return Some(Bridged { token, resource, known: true, renamed: m.renamed.get(token) });
        }
    }
    // `findResource`: the convention.
    let key =
        if tf_type == package.name { tf_type.to_string() } else { tf_type[package.name.len() + 1..].replace('_', "") };
    let mut found = package.resources.iter().filter(|(tok, _)| package.search_key(tok).as_deref() == Some(&key));
    let (token, resource) = found.next()?;
    if found.next().is_some() {
        return None;
    }
    let renamed = metadata.and_then(|m| m.renamed.get(token));
    Some(Bridged { token, resource, known: metadata.is_some(), renamed })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Pulumi's names become Terraform's in snake case. The lookup itself,
    /// on the real random and tls schemas (shared test data), is tested in
    /// the root package's `tests/it/schema.rs`, which finds them.
    #[test]
    fn snake_case_follows_the_bridge() {
        assert_eq!(snake("publicKeyFingerprintMd5"), "public_key_fingerprint_md5");
        assert_eq!(snake("resultCount"), "result_count");
    }
}
