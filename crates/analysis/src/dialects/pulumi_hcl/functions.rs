//! Pulumi HCL's own functions, as `pulumi-hcl` registers them beside
//! Terraform's (`pkg/hcl/eval/functions.go` of pulumi/pulumi-hcl, the
//! "Pulumi-Specific Functions" table of its docs/language-reference.md).
//!
//! An asset or archive is a cty capsule there; package schemas make
//! `pulumi.json#/Asset` and `#/Archive` `any` (schema/src/pulumi.rs), so the
//! functions return `any` too: a capsule type of our own would be refused by
//! every schema argument that accepts it.

use types::Type;

use crate::functions::Function;

/// The names pulumi-hcl had before it lowercased them, with no alias
/// (`Lowercase the built-in function names`, pulumi/pulumi-hcl#504,
/// e92a3d40, 2026-08-03): each old name and the new one. PCL keeps the
/// old names (`eject` maps them back).
const RENAMED: [(&str, &str); 9] = [
    ("fileAsset", "fileasset"),
    ("fileArchive", "filearchive"),
    ("stringAsset", "stringasset"),
    ("assetArchive", "assetarchive"),
    ("remoteAsset", "remoteasset"),
    ("remoteArchive", "remotearchive"),
    ("pulumiResourceName", "pulumiresourcename"),
    ("pulumiResourceType", "pulumiresourcetype"),
    ("pulumiResourceURN", "pulumiresourceurn"),
];

/// The name pulumi-hcl renamed `old` to, if it did.
pub fn renamed(old: &str) -> Option<&'static str> {
    RENAMED.iter().find(|(o, _)| *o == old).map(|(_, new)| *new)
}

/// The nine functions; parameters as `function.Spec` declares them.
pub(crate) fn pulumi() -> Vec<Function> {
    let (s, a) = (Type::string, Type::any);
    let f = Function::new;
    vec![
        f("fileasset", a(), "A Pulumi FileAsset read from a local file path.").arg("path", s()),
        f("stringasset", a(), "A Pulumi StringAsset holding the text.").arg("text", s()),
        f("remoteasset", a(), "A Pulumi RemoteAsset fetched from a URI.").arg("uri", s()),
        f("filearchive", a(), "A Pulumi FileArchive read from a local file or directory.").arg("path", s()),
        f("remotearchive", a(), "A Pulumi RemoteArchive fetched from a URI.").arg("uri", s()),
        // `assets` is `cty.DynamicPseudoType`, checked to be an object or map
        // of assets and archives when it runs.
        f("assetarchive", a(), "A Pulumi AssetArchive of named assets and archives.").arg("assets", a()),
        // `resourceUrnFuncHelper`: any resource value, its URN read from it.
        f("pulumiresourcename", s(), "The logical name from a resource's URN.").arg("resource", a()),
        f("pulumiresourcetype", s(), "The type token from a resource's URN.").arg("resource", a()),
        f("pulumiresourceurn", s(), "A resource's URN.").arg("resource", a()),
    ]
}
