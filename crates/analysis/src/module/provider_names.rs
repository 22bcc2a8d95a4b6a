//! Local names of providers across a module (validate.md §3), as
//! `validateProviderConfigs` (internal/configs/provider_validation.go)
//! judges every module of a configuration, warnings all:
//!
//! - "Duplicate required provider": one provider required under two local
//!   names (Terraform walks the entries in map order, so which of the two
//!   it names varies; here the later in source order); a `required_providers`
//!   name for a `hashicorp` provider whose type another name's `provider`
//!   block uses (`myaws = { source = "hashicorp/aws" }` beside
//!   `provider "aws" {}`); a resource or data source without `provider`
//!   whose implied local name (its type's prefix) is not required but means
//!   a provider required under another name.
//! - "Reference to undefined provider": a module call's `providers` passing
//!   a default configuration (`aws`, no alias) of a name the module neither
//!   configures (a non-empty `provider` block) nor requires.
//!
//! A module-level pass over facts read once per item (provider_refs.rs
//! holds them).

use std::ops::Range;

use hcl_edit::expr::{Expression, ObjectKey};
use hcl_edit::structure::{Block, Body};
use hcl_edit::Span;

use super::decls::label_text;
use super::provider_calls::{configures, provider_type};
use super::provider_refs::{read, Reference};
use super::Item;
use crate::calls::ProviderNeeds;
use syntax::diagnostic::{Code, Diagnostic, Severity};

/// What one item says of provider names; ranges relative to the item.
#[derive(Clone, Debug, Default, PartialEq)]
pub(super) struct Facts {
    /// `required_providers` entries: name, the provider it means, the
    /// range of its value.
    required: Vec<(Box<str>, Box<str>, Range<u32>)>,
    /// Every `provider` block's name, and whether it configures anything
    /// (with its alias, `NAME.ALIAS`).
    providers: Vec<(Box<str>, Box<str>, bool)>,
    /// Resources and data sources without `provider`: the implied local
    /// name and the block's header.
    implied: Vec<(Box<str>, Range<u32>)>,
    /// Default configurations passed to module calls (`providers`
    /// values without alias), at the value.
    passed: Vec<(Box<str>, Range<u32>)>,
    /// Every configuration passed to a module call: the call, the child's
    /// key (`NAME[.ALIAS]`) and the parent's local name, each with its range.
    assigned: Vec<Assigned>,
}

#[derive(Clone, Debug, PartialEq)]
struct Assigned {
    call: Box<str>,
    child: Box<str>,
    child_range: Range<u32>,
    parent: Box<str>,
    parent_range: Range<u32>,
}

fn span(r: Option<Range<usize>>) -> Option<Range<u32>> {
    r.map(|r| r.start as u32..r.end as u32)
}

fn header(b: &Block) -> Option<Range<u32>> {
    let start = b.ident.span()?.start;
    let end = b.labels.last().and_then(|l| l.span()).or_else(|| b.ident.span())?.end;
    span(Some(start..end))
}

fn implied(b: &Block, f: &mut Facts) {
    if b.body.get_attribute("provider").is_some() {
        return;
    }
    let Some(ty) = b.labels.first().map(label_text) else { return };
    let name = ty.split('_').next().unwrap_or(ty);
    if let Some(r) = header(b) {
        f.implied.push((name.into(), r));
    }
}

/// The facts of one item's body.
pub(super) fn facts(body: &Body) -> Facts {
    let mut f = Facts::default();
    for b in body.blocks() {
        match b.ident.value().as_str() {
            "terraform" => {
                for rp in b.body.get_blocks("required_providers") {
                    for a in rp.body.attributes() {
                        let source = match &a.value {
                            Expression::Object(o) => o.iter().find_map(|(k, v)| match (k, v.expr()) {
                                (ObjectKey::Ident(i), Expression::String(s)) if i.value().as_str() == "source" => {
                                    Some(s.value().to_string())
                                }
                                _ => None,
                            }),
                            _ => None,
                        };
                        let name = a.key.value().as_str();
                        if let Some(r) = span(a.value.span()) {
                            f.required.push((name.into(), provider_type(name, source.as_deref()).into(), r));
                        }
                    }
                }
            }
            "provider" => {
                let Some(name) = b.labels.first().map(label_text) else { continue };
                let full = match b.body.get_attribute("alias").map(|a| &a.value) {
                    Some(Expression::String(a)) => format!("{name}.{}", a.value()),
                    _ => name.to_owned(),
                };
                f.providers.push((name.into(), full.into(), configures(b)));
            }
            "resource" | "data" => implied(b, &mut f),
            "check" => b.body.get_blocks("data").for_each(|d| implied(d, &mut f)),
            "module" => {
                let Some(Expression::Object(o)) = b.body.get_attribute("providers").map(|a| &a.value) else {
                    continue;
                };
                let call = b.labels.first().map(label_text).unwrap_or("");
                for (key, value) in o.iter() {
                    let Some(r) = span(value.expr().span()) else { continue };
                    let Reference::Config { name, alias, .. } = read(value.expr()) else { continue };
                    if alias.is_none() {
                        f.passed.push((name.as_str().into(), r.clone()));
                    }
                    let (child, child_range) = match key {
                        ObjectKey::Ident(i) => (i.value().to_string(), span(i.span())),
                        ObjectKey::Expression(e) => match read(e) {
                            Reference::Config { name, alias, .. } => {
                                (alias.map_or_else(|| name.clone(), |a| format!("{name}.{a}")), span(e.span()))
                            }
                            _ => continue,
                        },
                    };
                    let Some(child_range) = child_range else { continue };
                    f.assigned.push(Assigned {
                        call: call.into(),
                        child: child.into(),
                        child_range,
                        parent: name.into(),
                        parent_range: r,
                    });
                }
            }
            _ => {}
        }
    }
    f
}

fn warning(item: &Item, r: &Range<u32>, msg: String, code: Code) -> Diagnostic {
    let range = item.range.start + r.start as usize..item.range.start + r.end as usize;
    Diagnostic::new(code, range, msg).with_severity(Severity::Warning)
}

/// "Provider type mismatch" (`validateProviderConfigs`): each
/// configuration passed to a call whose callee (`callee`: its provider
/// needs) means another provider by the child's name than the caller
/// means by its own (`required`: the caller's entries; a name no entry
/// has means `hashicorp/NAME`). At the child's key when the callee
/// requires the caller's provider under another name, else at the value.
fn mismatches<'a>(
    items: &[(usize, &'a Item, &'a Facts)],
    required: &[(&str, &str)],
    callee: &dyn Fn(&str) -> Option<&'a ProviderNeeds>,
    out: &mut [Vec<Diagnostic>],
) {
    let meant = |name: &str| {
        required
            .iter()
            .find(|(n, _)| *n == name)
            .map_or_else(|| provider_type(name, Some(name)), |(_, t)| t.to_string())
    };
    for (doc, item, f) in items {
        for a in &f.assigned {
            let Some(needs) = callee(&a.call) else { continue };
            let mut parent = meant(&a.parent);
            // (Terraform looks the child's key up among the caller's names.)
            if let Some((_, t)) = required.iter().find(|(n, _)| *n == &*a.child) {
                parent = t.to_string();
            }
            let name = a.child.split('.').next().unwrap_or(&a.child);
            let child = needs.local_names.iter().find(|(n, _)| n == name).map(|(_, t)| t.clone());
            let child = child.unwrap_or_else(|| provider_type(name, Some(name)));
            if child == parent || child.is_empty() || parent.is_empty() {
                continue;
            }
            let other = needs.local_names.iter().find(|(_, t)| *t == parent).map(|(n, _)| n);
            let (r, msg) = match other {
                Some(other) => (&a.child_range, format!(
                    "Provider type mismatch: the configuration passed is for `{parent}`, but module `{}` means `{child}` by `{}`; pass it as `{other}`",
                    a.call, a.child
                )),
                None => (&a.parent_range, format!(
                    "Provider type mismatch: `{}` here is `{parent}`, but module `{}` means `{child}` by `{}`, and requires no `{parent}`",
                    a.parent, a.call, a.child
                )),
            };
            let range = item.range.start + r.start as usize..item.range.start + r.end as usize;
            out[*doc].push(Diagnostic::new(Code::UndefinedReference, range, msg));
        }
    }
}

/// The warnings of a module whose items (each with its document's index)
/// say `facts`, per document, and the errors of its calls' provider
/// types (`callee`: a call's provider needs, when its callee is known).
pub(super) fn check<'a>(
    items: &[(usize, &'a Item, &'a Facts)],
    docs: usize,
    callee: &dyn Fn(&str) -> Option<&'a ProviderNeeds>,
) -> Vec<Vec<Diagnostic>> {
    let mut out: Vec<Vec<Diagnostic>> = vec![Vec::new(); docs];
    let all = || items.iter().flat_map(|(i, item, f)| std::iter::repeat((*i, *item)).zip(f.required.iter()));
    let providers: Vec<&(Box<str>, Box<str>, bool)> = items.iter().flat_map(|(_, _, f)| &f.providers).collect();
    let mut seen: Vec<(&str, &str)> = Vec::new();
    for ((doc, item), (name, ty, r)) in all() {
        if ty.is_empty() {
            seen.push((name, ty));
            continue;
        }
        if let Some((before, _)) = seen.iter().find(|(_, t)| t == &&**ty) {
            let msg = format!(
                "Duplicate required provider: provider `{ty}` with the local name `{name}` was required before as `{before}`; a provider can be required once in required_providers"
            );
            out[doc].push(warning(item, r, msg, Code::Duplicate));
        } else if let Some(implied) = ty.strip_prefix("registry.terraform.io/hashicorp/") {
            if **name != *implied && providers.iter().any(|(p, _, _)| **p == *implied) {
                let msg = format!(
                    "Duplicate required provider: provider `{ty}` with the local name `{name}` is required by a `provider \"{implied}\"` block as `{implied}`; a provider block's name must be the one in required_providers"
                );
                out[doc].push(warning(item, r, msg, Code::Duplicate));
            }
        }
        seen.push((name, ty));
    }
    for (doc, item, f) in items {
        for (local, r) in &f.implied {
            if seen.iter().any(|(n, _)| *n == &**local) {
                continue;
            }
            let meant = provider_type(local, None);
            for (name, _) in seen.iter().filter(|(_, t)| **t == meant) {
                let msg = format!(
                    "Duplicate required provider: provider `{meant}` is implied by this block's type, but listed in required_providers as `{name}`; name the provider `{name}` in required_providers after the type, or set `provider = {name}` here"
                );
                out[*doc].push(warning(item, r, msg, Code::Duplicate));
            }
        }
        for (name, r) in &f.passed {
            let configured = providers.iter().any(|(_, full, sets)| *sets && full == name);
            if !configured && !seen.iter().any(|(n, _)| *n == &**name) {
                let msg = format!(
                    "Reference to undefined provider: this module declares no provider `{name}` (a `provider \"{name}\"` block that configures it, or a required_providers entry), so Terraform assumes `hashicorp/{name}`; add a required_providers entry `{name}`"
                );
                out[*doc].push(warning(item, r, msg, Code::UndefinedReference));
            }
        }
    }
    // (A provider block's name no entry has means the `hashicorp` provider,
    // as a name nothing declares does.)
    mismatches(items, &seen, callee, &mut out);
    out
}
