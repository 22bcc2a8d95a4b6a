//! References to provider configurations (validate.md §3): a resource's,
//! data source's or ephemeral resource's `provider`, and both sides of a
//! module call's `providers` map.
//!
//! Each is a bare `NAME` or `NAME.ALIAS` ("Invalid provider configuration
//! reference", `decodeProviderConfigRef` in internal/configs/resource.go;
//! a quoted one is read as the reference it spells, with the warning
//! "Quoted references are deprecated", `shimTraversalInString` in
//! compat_shim.go), a `providers` map assigns each child configuration once
//! ("Duplicate provider address", `decodePassedProviderConfigs` in
//! module_call.go), and a module-level pass ([`check`], passes.rs) finds
//! each `NAME.ALIAS` the module neither configures (`provider "NAME" {
//! alias = "ALIAS" }`) nor requires of its callers (`configuration_aliases`):
//! Terraform's graph then has no such configuration ("Provider
//! configuration not present", reported without a place).

use std::ops::Range;

use hcl_edit::expr::{Expression, ObjectKey, TraversalOperator};
use hcl_edit::structure::{Block, Body};
use hcl_edit::Span;
use rustc_hash::FxHashSet as HashSet;

use super::decls::label_text;
use super::{Document, FileKind, Item};
use crate::infer::Infer;
use syntax::diagnostic::{Code, Diagnostic, Severity};

/// A reference as Terraform reads it.
pub(super) enum Reference {
    /// `NAME` or `NAME.ALIAS` (`quoted`: written as a string).
    Config { name: String, alias: Option<String>, quoted: bool },
    /// OpenTofu's `NAME.ALIAS[KEY]` (provider `for_each`, OpenTofu 1.9):
    /// left to OpenTofu.
    Keyed,
    /// Anything else: Terraform's error.
    Invalid,
}

fn is_identifier(s: &str) -> bool {
    super::rules::valid_identifier(s)
}

pub(super) fn read(e: &Expression) -> Reference {
    let (root, ops) = match e {
        Expression::Variable(v) => (v.value().as_str(), &[][..]),
        Expression::Traversal(t) => match &t.expr {
            Expression::Variable(v) => (v.value().as_str(), &t.operators[..]),
            _ => return Reference::Invalid,
        },
        Expression::String(s) => {
            let parts: Vec<&str> = s.value().split('.').collect();
            if parts.len() > 2 || !parts.iter().all(|p| is_identifier(p)) {
                return Reference::Invalid;
            }
            let alias = parts.get(1).map(|a| a.to_string());
            return Reference::Config { name: parts[0].to_owned(), alias, quoted: true };
        }
        _ => return Reference::Invalid,
    };
    let attr = |i: usize| match ops.get(i).map(|o| o.value()) {
        Some(TraversalOperator::GetAttr(a)) => Some(a.value().to_string()),
        _ => None,
    };
    match ops.len() {
        0 => Reference::Config { name: root.to_owned(), alias: None, quoted: false },
        1 => match attr(0) {
            Some(alias) => Reference::Config { name: root.to_owned(), alias: Some(alias), quoted: false },
            None => Reference::Invalid,
        },
        2 if attr(0).is_some() && matches!(ops[1].value(), TraversalOperator::Index(_)) => Reference::Keyed,
        _ => Reference::Invalid,
    }
}

/// Checks one reference (`arg`: the argument's name, as Terraform's
/// message says it); its address (`NAME` or `NAME.ALIAS`) when valid.
fn reference(inf: &mut Infer, e: &Expression, arg: &str) -> Option<String> {
    let r = inf.range(e);
    match read(e) {
        Reference::Keyed => None,
        Reference::Invalid => {
            let msg = format!(
                "Invalid provider configuration reference: `{arg}` takes a provider's local name, optionally followed by a period and a configuration alias (`aws` or `aws.west`), not in quotes"
            );
            inf.report(Diagnostic::new(Code::MetaArgument, r, msg));
            None
        }
        Reference::Config { name, alias, quoted } => {
            // ("Invalid provider local name", at the traversal's root.)
            let root = match e {
                Expression::Traversal(t) => inf.range(&t.expr),
                _ => r.clone(),
            };
            if super::meta_arguments::local_name(inf, &name, root) {
                return None;
            }
            if quoted {
                let msg = "Quoted references are deprecated: write the provider configuration without quotes";
                inf.report(Diagnostic::new(Code::Deprecated, r, msg).with_severity(Severity::Warning));
            }
            Some(match alias {
                Some(a) => format!("{name}.{a}"),
                None => name,
            })
        }
    }
}

/// The provider references of one top-level `resource`, `data`,
/// `ephemeral` or `module` block.
pub(super) fn block(inf: &mut Infer, b: &Block, ident: &str) {
    if ident != "module" {
        if let Some(a) = b.body.get_attribute("provider") {
            reference(inf, &a.value, "provider");
        }
        return;
    }
    let Some(a) = b.body.get_attribute("providers") else { return };
    let Expression::Object(o) = &a.value else { return };
    let mut seen: Vec<String> = Vec::new();
    for (key, value) in o.iter() {
        let child = match key {
            ObjectKey::Ident(i) => Some(i.value().to_string()),
            ObjectKey::Expression(e) => reference(inf, e, "providers"),
        };
        let parent = reference(inf, value.expr(), "providers");
        let (Some(child), Some(_)) = (child, parent) else { continue };
        // (The same key twice: the parser keeps the later one, and the
        // earlier one as superseded.)
        let again = o.superseded().any(|(k, _)| k == key);
        if again || seen.contains(&child) {
            duplicate_address(inf, value.expr(), &child);
        }
        seen.push(child);
    }
}

fn duplicate_address(inf: &mut Infer, e: &Expression, child: &str) {
    let r = inf.range(e);
    let msg = format!(
        "Duplicate provider address: a configuration is already passed to `{child}`; each child provider configuration can be assigned only once"
    );
    inf.report(Diagnostic::new(Code::Duplicate, r, msg));
}

/// What one item tells the pass: the aliased configurations it declares
/// (`NAME.ALIAS`) and the aliased ones it refers to, with their ranges
/// relative to the item.
#[derive(Clone, Debug, Default, PartialEq)]
pub(super) struct Facts {
    declared: Vec<Box<str>>,
    used: Vec<(Box<str>, Range<u32>)>,
    /// What provider_names.rs judges.
    names: super::provider_names::Facts,
}

pub(super) fn aliased(e: &Expression) -> Option<String> {
    match read(e) {
        // (An invalid local name is reported alone, as Terraform does.)
        Reference::Config { name, alias: Some(a), .. } if super::meta_arguments::local_name_fault(&name).is_none() => {
            Some(format!("{name}.{a}"))
        }
        _ => None,
    }
}

/// The facts of one item's body.
pub(super) fn facts(body: &Body) -> Facts {
    let mut f = Facts { names: super::provider_names::facts(body), ..Facts::default() };
    let used = |e: &Expression, f: &mut Facts| {
        if let (Some(key), Some(r)) = (aliased(e), e.span()) {
            f.used.push((key.into(), r.start as u32..r.end as u32));
        }
    };
    for b in body.blocks() {
        match b.ident.value().as_str() {
            "provider" => {
                let alias = b.body.get_attribute("alias").map(|a| &a.value);
                if let (Some(name), Some(Expression::String(a))) = (b.labels.first(), alias) {
                    f.declared.push(format!("{}.{}", label_text(name), a.value()).into());
                }
            }
            "terraform" => {
                for rp in b.body.get_blocks("required_providers") {
                    for a in rp.body.attributes() {
                        let Expression::Object(o) = &a.value else { continue };
                        for (key, value) in o.iter() {
                            let named =
                                matches!(key, ObjectKey::Ident(i) if i.value().as_str() == "configuration_aliases");
                            let Expression::Array(list) = value.expr() else { continue };
                            if named {
                                // (Quoted, an alias is an error, and declares nothing.)
                                let refs = list.iter().filter(|e| !matches!(e, Expression::String(_)));
                                f.declared.extend(refs.filter_map(aliased).map(Into::into));
                            }
                        }
                    }
                }
            }
            "resource" | "data" | "ephemeral" => {
                if let Some(a) = b.body.get_attribute("provider") {
                    used(&a.value, &mut f);
                }
            }
            "check" => {
                for d in b.body.get_blocks("data") {
                    if let Some(a) = d.body.get_attribute("provider") {
                        used(&a.value, &mut f);
                    }
                }
            }
            "module" => {
                if let Some(Expression::Object(o)) = b.body.get_attribute("providers").map(|a| &a.value) {
                    for (_, value) in o.iter() {
                        used(value.expr(), &mut f);
                    }
                }
            }
            _ => {}
        }
    }
    f
}

/// Per document, an `undefined-reference` error at each reference to an
/// aliased provider configuration the module neither declares nor requires.
pub(super) fn check<'a>(
    docs: &[Document],
    context: &'a crate::calls::Context,
    facts: impl Fn(&Item) -> Option<&'a Facts>,
) -> Vec<Vec<Diagnostic>> {
    let items = || {
        docs.iter()
            .enumerate()
            .filter(|(_, d)| d.file.kind == FileKind::Terraform)
            .flat_map(|(i, d)| d.items.iter().map(move |item| (i, item)))
    };
    let declared: HashSet<&str> =
        items().filter_map(|(_, item)| facts(item)).flat_map(|f| f.declared.iter().map(|d| &**d)).collect();
    let named: Vec<_> = items().filter_map(|(i, item)| Some((i, item, &facts(item)?.names))).collect();
    let callee = |call: &str| match context.callee(call) {
        Some(crate::calls::Callee::Module(i)) => Some(&i.providers),
        _ => None,
    };
    let mut out = super::provider_names::check(&named, docs.len(), &callee);
    for (i, item) in items() {
        for (key, r) in facts(item).into_iter().flat_map(|f| f.used.iter()) {
            if declared.contains(&**key) {
                continue;
            }
            let (name, alias) = key.split_once('.').unwrap_or((key, ""));
            let range = item.range.start + r.start as usize..item.range.start + r.end as usize;
            let msg = format!(
                "Reference to undefined provider configuration `{key}`: this module has no `provider \"{name}\"` block with `alias = \"{alias}\"` and does not list `{key}` in `configuration_aliases`"
            );
            out[i].push(Diagnostic::new(Code::UndefinedReference, range, msg));
        }
    }
    out
}
