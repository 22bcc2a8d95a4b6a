//! A module call judged by what its callee says of provider
//! configurations (validate.md §3): Terraform's `validateProviderConfigs`
//! (internal/configs/provider_validation.go) walks the configuration tree
//! and judges each call by the called module's `provider` blocks and
//! `required_providers`. The callee's side is gathered once with its
//! interface ([`needs`], `Interface::providers`), so a caller's check
//! reads no file of the callee.
//!
//! - A module that configures a provider itself (a `provider` block that
//!   sets anything, or a `version`) is a legacy module: a call of it with
//!   `count`, `for_each` or `depends_on` is an error at that argument
//!   ("Module is incompatible with count, for_each, and depends_on").
//! - A configuration the callee configures itself cannot be passed to it
//!   ("Cannot override provider configuration", at the `providers` key).
//! - Each `configuration_aliases` entry of the callee that it does not
//!   configure must be passed ("Missing required provider configuration",
//!   at the call's header).
//! - A passed configuration the callee neither requires (a
//!   `required_providers` name, a `configuration_aliases` entry) nor
//!   declares with an empty `provider` block is a warning ("Reference to
//!   undefined provider", at the key: Terraform assumes the default
//!   provider of that name, so the warning).
//!
//! Not followed: the rule's reach below the callee (a grandchild that
//! configures providers under a counted call of its parent).

use std::ops::Range;

use hcl_edit::expr::{Expression, ObjectKey};
use hcl_edit::structure::{Block, Body};

use super::decls::label_text;
use super::provider_refs::{aliased, read, Reference};
use super::{Document, FileKind};
use crate::calls::ProviderNeeds;
use crate::infer::Infer;
use syntax::diagnostic::{Code, Diagnostic, Severity};

/// The arguments and blocks a `provider` block's own schema takes
/// (`providerBlockSchema`, internal/configs/provider.go): a block with
/// nothing else (but a `version`) configures nothing.
const META: [&str; 6] = ["alias", "version", "count", "depends_on", "for_each", "source"];
const META_BLOCKS: [&str; 3] = ["_", "lifecycle", "locals"];

/// What the module of `docs` says of provider configurations.
pub(super) fn needs(docs: &[Document]) -> ProviderNeeds {
    let mut out = ProviderNeeds::default();
    for doc in docs.iter().filter(|d| d.file.kind == FileKind::Terraform) {
        for item in doc.items.iter() {
            // (Only items that name a provider: no tree of any other is made.)
            let text = doc.file.text.get(item.range.clone()).unwrap_or("");
            if !super::passes::has(text, "provider") {
                continue;
            }
            if let Some(body) = item.body(&doc.file.text) {
                read_body(&body, &mut out);
            }
        }
    }
    for v in [&mut out.configured, &mut out.empty, &mut out.aliases] {
        v.sort();
        v.dedup();
    }
    out.local_names.sort();
    out
}

/// Whether a `provider` block configures anything (a `version` too):
/// Terraform's `configured`, not an empty "proxy" block.
pub(super) fn configures(b: &Block) -> bool {
    b.body.attributes().any(|a| !META.contains(&a.key.value().as_str()))
        || b.body.blocks().any(|n| !META_BLOCKS.contains(&n.ident.value().as_str()))
        || b.body.get_attribute("version").is_some()
}

fn read_body(body: &Body, out: &mut ProviderNeeds) {
    for b in body.blocks() {
        match b.ident.value().as_str() {
            "provider" => {
                let Some(name) = b.labels.first().map(label_text) else { continue };
                let name = match b.body.get_attribute("alias").map(|a| &a.value) {
                    Some(Expression::String(a)) => format!("{name}.{}", a.value()),
                    _ => name.to_owned(),
                };
                if configures(b) { &mut out.configured } else { &mut out.empty }.push(name);
            }
            "terraform" => {
                for rp in b.body.get_blocks("required_providers") {
                    for a in rp.body.attributes() {
                        let name = a.key.value().to_string();
                        let source = match &a.value {
                            Expression::Object(o) => o.iter().find_map(|(k, v)| match (k, v.expr()) {
                                (ObjectKey::Ident(i), Expression::String(s)) if i.value().as_str() == "source" => {
                                    Some(s.value().to_string())
                                }
                                _ => None,
                            }),
                            _ => None,
                        };
                        let meant = provider_type(&name, source.as_deref());
                        out.local_names.push((name, meant));
                        let Expression::Object(o) = &a.value else { continue };
                        for (key, value) in o.iter() {
                            let named =
                                matches!(key, ObjectKey::Ident(i) if i.value().as_str() == "configuration_aliases");
                            if let (true, Expression::Array(list)) = (named, value.expr()) {
                                let refs = list.iter().filter(|e| !matches!(e, Expression::String(_)));
                                out.aliases.extend(refs.filter_map(aliased));
                            }
                        }
                    }
                }
            }
            _ => {}
        }
    }
}

/// The provider a local name means (`HOST/NAMESPACE/TYPE`, lower case):
/// its `source` (`ParseProviderSourceString` of
/// terraform-registry-address: the public registry and the `hashicorp`
/// namespace by default), else the one `ImpliedProviderForUnqualifiedType`
/// (internal/addrs) gives a name: `terraform` is the built-in one.
/// Empty for a source that is none (an error of its own, requirement_rules.rs):
/// what it means is not judged.
pub(super) fn provider_type(name: &str, source: Option<&str>) -> String {
    const REGISTRY: &str = "registry.terraform.io";
    if source.is_some_and(|s| !super::requirement_rules::source(s)) {
        return String::new();
    }
    let t = match source.map(|s| s.split('/').collect::<Vec<_>>()).as_deref() {
        Some([host, ns, ty]) => format!("{host}/{ns}/{ty}"),
        Some([ns, ty]) => format!("{REGISTRY}/{ns}/{ty}"),
        Some([ty]) => format!("{REGISTRY}/hashicorp/{ty}"),
        Some(_) => String::new(),
        None if name == "terraform" => "terraform.io/builtin/terraform".to_owned(),
        None => format!("{REGISTRY}/hashicorp/{name}"),
    };
    t.to_lowercase()
}

/// Whether a provider is one of the public registry's `hashicorp`
/// namespace (`IsDefaultProvider`).
fn is_default(t: &str) -> bool {
    t.strip_prefix("registry.terraform.io/hashicorp/").is_some()
}

/// The configurations a call's `providers` passes (the child's side, as
/// `NAME` or `NAME.ALIAS`), each with its key's range.
fn passed(inf: &Infer, b: &Block) -> Vec<(String, Range<usize>)> {
    let Some(Expression::Object(o)) = b.body.get_attribute("providers").map(|a| &a.value) else { return Vec::new() };
    let mut out = Vec::new();
    for (key, _) in o.iter() {
        let (child, range) = match key {
            ObjectKey::Ident(i) => (i.value().to_string(), inf.range(i)),
            ObjectKey::Expression(e) => match read(e) {
                Reference::Config { name, alias, .. } => {
                    (alias.map_or_else(|| name.clone(), |a| format!("{name}.{a}")), inf.range(e))
                }
                _ => continue,
            },
        };
        out.push((child, range));
    }
    out
}

/// The checks of call `b` of module `call` by what the callee says of
/// provider configurations.
pub(super) fn at_call(inf: &mut Infer, b: &Block, call: &str, needs: &ProviderNeeds) {
    let passed = passed(inf, b);
    if let Some(first) = needs.configured.first() {
        // Terraform's order: `count`, then `for_each`, then the first
        // element of `depends_on` (an empty list is none).
        let repeated = ["count", "for_each"].into_iter().find_map(|k| b.body.get_attribute(k)).map(|a| &a.value);
        let depends = match b.body.get_attribute("depends_on").map(|a| &a.value) {
            Some(Expression::Array(list)) => list.iter().next(),
            _ => None,
        };
        if let Some(e) = repeated.or(depends) {
            let r = inf.range(e);
            let msg = format!(
                "Module is incompatible with count, for_each, and depends_on: module `{call}` configures providers itself (`provider \"{}\"`), so its calls cannot use `count`, `for_each` or `depends_on`; pass it the configurations through `providers` instead",
                first.split('.').next().unwrap_or(first)
            );
            inf.report(Diagnostic::new(Code::MetaArgument, r, msg));
        }
    }
    for (child, r) in &passed {
        if needs.configured.contains(child) {
            let msg = format!(
                "Cannot override provider configuration: module `{call}` has its own configuration for `{child}`, so it cannot be passed one"
            );
            inf.report(Diagnostic::new(Code::MetaArgument, r.clone(), msg));
        }
        let declared = needs.local_names.iter().any(|(n, _)| n == child)
            || needs.aliases.contains(child)
            || needs.empty.contains(child);
        if !declared {
            // The provider the callee means by the name: a warning when it
            // is the default one Terraform assumes.
            let (name, _) = child.split_once('.').unwrap_or((child, ""));
            let meant = needs.local_names.iter().find(|(n, _)| n == name).map(|(_, t)| t.clone());
            let meant = meant.unwrap_or_else(|| provider_type(name, Some(name)));
            let severity = if is_default(&meant) || meant.is_empty() { Severity::Warning } else { Severity::Error };
            let msg = format!(
                "Reference to undefined provider: module `{call}` declares no provider requirement `{child}` (a `required_providers` entry, or `configuration_aliases`) for the provider `{meant}`"
            );
            inf.report(Diagnostic::new(Code::UndefinedReference, r.clone(), msg).with_severity(severity));
        }
    }
    let ident = inf.range(&b.ident);
    let header = ident.start..b.labels.last().map_or(ident.end, |l| inf.range(l).end);
    for alias in &needs.aliases {
        if needs.configured.contains(alias) || passed.iter().any(|(c, _)| c == alias) {
            continue;
        }
        let msg = format!(
            "Missing required provider configuration: module `{call}` requires a configuration `{alias}` (its `configuration_aliases`); pass one in `providers`, as `{alias} = …`"
        );
        inf.report(Diagnostic::new(Code::MissingArgument, header.clone(), msg));
    }
}
