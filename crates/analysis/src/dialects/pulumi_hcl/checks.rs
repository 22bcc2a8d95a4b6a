//! Pulumi HCL (docs/spec/pulumi-hcl.md): the `pulumi { … }` options block
//! of a resource, data source or provider, and `call` blocks. The schemas
//! are pulumi-hcl's own (`pkg/hcl/parser/schema.go` and `parser.go`
//! `parsePulumiResourceOptions` of pulumi/pulumi-hcl; the "Resource
//! Options" table of its docs/language-reference.md).

use crate::infer::Infer;
use crate::module::checks::{nested_body, own_schema};
use hcl_edit::structure::Block;
use syntax::Dialect;
use types::Type;

/// `pulumiResourceOptionsSchema`.
const RESOURCE: [&str; 14] = [
    "name",
    "additional_secret_outputs",
    "parent",
    "protect",
    "retain_on_delete",
    "deleted_with",
    "replace_with",
    "hide_diffs",
    "replace_on_changes",
    "import_id",
    "env_var_mappings",
    "version",
    "plugin_download_url",
    "aliases",
];

/// `pulumiDataOptionsSchema`: only what an invoke honours.
const DATA: [&str; 3] = ["parent", "version", "plugin_download_url"];

/// `pulumiProviderOptionsSchema`.
const PROVIDER: [&str; 4] = ["env_var_mappings", "plugin_download_url", "additional_secret_outputs", "version"];

/// The arguments of the `pulumi` block of `owner` (`resource`, `data`,
/// `provider`).
pub fn arguments(owner: &str) -> &'static [&'static str] {
    match owner {
        "data" => &DATA,
        "provider" => &PROVIDER,
        _ => &RESOURCE,
    }
}

/// What an option's value is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptionKind {
    /// Bare attribute names (`hide_diffs = [user_data]`, read with
    /// `hcl.RelTraversalForExpr`), like `lifecycle.ignore_changes`.
    Names,
    /// Addresses (`hcl.AbsTraversalForExpr`): a resource, a module call or
    /// a provider (`parent = simple-invoke.explicitProvider` in the
    /// l2-invoke-options conformance program), like `depends_on`.
    Address,
    Bool,
    String,
    /// Any value (`aliases`, `env_var_mappings`).
    Value,
}

/// How an option is read.
pub fn kind(key: &str) -> OptionKind {
    match key {
        "additional_secret_outputs" | "hide_diffs" | "replace_on_changes" => OptionKind::Names,
        "parent" | "deleted_with" | "replace_with" => OptionKind::Address,
        "protect" | "retain_on_delete" => OptionKind::Bool,
        "name" | "import_id" | "version" | "plugin_download_url" => OptionKind::String,
        _ => OptionKind::Value,
    }
}

/// Whether a nested block of `owner` (`resource`, `data`, `provider`) is its
/// Pulumi options block, in this dialect.
pub(crate) fn is_options(dialect: Dialect, nested: &Block) -> bool {
    dialect == Dialect::PulumiHcl && nested.ident.value().as_str() == "pulumi"
}

/// A `pulumi { … }` block inside `owner` (`resource`, `data` or
/// `provider`): arguments outside its schema are pulumi-hcl's "Unsupported
/// argument" (`Body.Content`), `protect` and `retain_on_delete` are bools,
/// `name`, `import_id`, `version` and `plugin_download_url` strings. The
/// attribute-name lists (`hide_diffs = [user_data]`, read with
/// `hcl.RelTraversalForExpr`) name attributes, not values, and `parent`,
/// `deleted_with` and `replace_with` are addresses, as `depends_on` is.
pub(crate) fn options(inf: &mut Infer, owner: &str, b: &Block) {
    let what = match owner {
        "data" => "a data source's `pulumi`",
        "provider" => "a provider's `pulumi`",
        _ => "a resource's `pulumi`",
    };
    let allowed = arguments(owner);
    own_schema(inf, b, what, allowed, &[]);
    for a in b.body.attributes() {
        let key = a.key.value().as_str();
        // (An unsupported argument's value is not read: pulumi-hcl stops
        // there, and `ignore_changes = [content]` would also be reported as
        // an undefined reference.)
        if !allowed.contains(&key) {
            continue;
        }
        let want = match kind(key) {
            OptionKind::Names | OptionKind::Address => continue,
            OptionKind::Bool => Type::bool(),
            OptionKind::String => Type::string(),
            OptionKind::Value => Type::any(),
        };
        let t = inf.expr(&a.value);
        if !want.is_any() {
            inf.check(&a.value, &t, &want, None);
        }
    }
}

/// A `call "RESOURCE" "METHOD" { … }` block: its arguments are the method's,
/// values with no schema here (language-reference.md "Call Blocks").
pub(crate) fn call(inf: &mut Infer, b: &Block) {
    for a in b.body.attributes() {
        inf.expr(&a.value);
    }
    for nested in b.body.blocks() {
        nested_body(inf, &nested.body, Dialect::PulumiHcl);
    }
}

/// The roots Pulumi HCL adds to Terraform's: `call.RESOURCE.METHOD.ATTR`,
/// a method's results, typed `any` (no method schema is read).
pub(crate) fn is_root(dialect: Dialect, name: &str) -> bool {
    use crate::dialects::Handler;
    dialect == Dialect::PulumiHcl && crate::dialects::pulumi_hcl::PulumiHcl.roots().contains(&name)
}
