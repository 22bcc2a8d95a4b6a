//! Terraform policy files (`*.policy.hcl`; Terraform policy, GA with
//! Terraform 1.17), each a unit of its own (`Family::Policy`). The blocks,
//! from developer.hashicorp.com/terraform/policy/reference/policy: `input`
//! (a variable: `input.NAME`, its `default` against its `type`, read by
//! `decls::block_ident`), `locals` (the file's, or a policy's own),
//! `policy`, and `resource_policy "TYPE" "NAME"`, `provider_policy`,
//! `module_policy`, whose `enforce { condition  error_message
//! info_message }` blocks are check sites, `filter` a bool and
//! `operations` a list of strings; `attrs` in a resource policy is the
//! resource's object, typed from its schema where one is known.

use crate::infer::Infer;
use crate::module::checks::nested_body;
use crate::module::label_text;
use hcl_edit::structure::Block;
use syntax::Dialect;
use types::Type;

/// The checks of one top-level block of a policy file; whether it was a
/// policy block (the others are read as Terraform's).
pub(crate) fn block(inf: &mut Infer, b: &Block) -> bool {
    let ident = b.ident.value().as_str();
    if !matches!(ident, "resource_policy" | "provider_policy" | "module_policy") {
        return false;
    }
    let target = b.labels.first().map(label_text).unwrap_or("");
    let schemas = inf.env().schemas();
    let attrs = match ident {
        "resource_policy" => schemas.as_ref().and_then(|s| s.find(false, target)).map(|f| f.block.value_type()),
        _ => None,
    };
    inf.bind("attrs", attrs.unwrap_or_else(Type::any));
    // A policy's own locals, in order: each may read the ones above it.
    let before = inf.scoped_locals.len();
    for locals in b.body.get_blocks("locals") {
        for a in locals.body.attributes() {
            let t = inf.expr(&a.value);
            inf.scoped_locals.push((a.key.value().to_string(), t));
        }
    }
    for a in b.body.attributes() {
        let t = inf.expr(&a.value);
        let want = match a.key.value().as_str() {
            "filter" => Type::bool(),
            "enforcement_level" => Type::string(),
            "operations" => Type::list(Type::string()),
            _ => continue,
        };
        inf.check(&a.value, &t, &want, None);
    }
    for nested in b.body.blocks() {
        match nested.ident.value().as_str() {
            "locals" => {}
            "enforce" => enforce(inf, nested),
            _ => nested_body(inf, &nested.body, Dialect::Hcl),
        }
    }
    inf.scoped_locals.truncate(before);
    inf.unbind(1);
    true
}

/// `enforce { condition = BOOL  error_message = STRING  info_message = STRING }`.
fn enforce(inf: &mut Infer, b: &Block) {
    for a in b.body.attributes() {
        let t = inf.expr(&a.value);
        let want = match a.key.value().as_str() {
            "condition" => Type::bool(),
            "error_message" | "info_message" => Type::string(),
            _ => continue,
        };
        inf.check(&a.value, &t, &want, None);
    }
    for nested in b.body.blocks() {
        nested_body(inf, &nested.body, Dialect::Hcl);
    }
}
