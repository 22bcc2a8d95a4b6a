//! Functions a module's `required_version` excludes (analysis.md §4.1).
//!
//! Terraform added functions over its versions; an older Terraform
//! rejects a call to one as "Call to unknown function". A module whose
//! `required_version` allows only versions before a function was added
//! can never run such a call, so the call is an error here, saying which
//! version added the function, rather than being accepted (the function
//! table is today's) or called unknown.
//!
//! A module-level pass after the items were checked: only a module with
//! an upper bound (`~> 1.5.0`, `< 1.9`) is walked.

use std::ops::Range;

use hcl_edit::expr::{Expression, FuncCall};
use hcl_edit::structure::Body;
use hcl_edit::visit::{self, Visit};
use hcl_edit::Span;

use super::{Document, FileKind};
use syntax::diagnostic::{Code, Diagnostic, Related};
use syntax::Dialect;

/// A Terraform version (major, minor, patch; a pre-release suffix is
/// ignored).
pub(super) type Version = (u64, u64, u64);

/// The Terraform version that added each function whose age matters to
/// the Terraform versions a module may still name (CHANGELOG.md at each
/// release tag of hashicorp/terraform).
const ADDED: &[(&str, Version)] = &[
    // v1.3.0: "Added functions: `startswith` and `endswith`"; "New
    // built-in function `timecmp`".
    ("startswith", (1, 3, 0)),
    ("endswith", (1, 3, 0)),
    ("timecmp", (1, 3, 0)),
    // v1.5.0: "Adds a new `plantimestamp` function", "Adds a new
    // `strcontains` function".
    ("plantimestamp", (1, 5, 0)),
    ("strcontains", (1, 5, 0)),
    // v1.8.0: "New `issensitive` function".
    ("issensitive", (1, 8, 0)),
    // v1.9.0: "`templatestring` function".
    ("templatestring", (1, 9, 0)),
    // v1.10.0: "`ephemeralasnull` function".
    ("ephemeralasnull", (1, 10, 0)),
    // v1.15.0: "`convert` function".
    ("convert", (1, 15, 0)),
];

/// v1.8.0: "Providers can now offer functions … `provider::provider_name::function_name()`"
/// (the built-in `terraform` provider's `encode_tfvars`, `decode_tfvars`
/// and `encode_expr` came with them).
const PROVIDER_FUNCTIONS: Version = (1, 8, 0);

/// The version that added the function a call names, if it matters.
fn added(call: &FuncCall) -> Option<(String, Version)> {
    let name = call.name.name.value().as_str();
    if call.name.is_namespaced() {
        let ns: Vec<&str> = call.name.namespace.iter().map(|n| n.value().as_str()).collect();
        return Some((format!("{}::{name}", ns.join("::")), PROVIDER_FUNCTIONS));
    }
    ADDED.iter().find(|(n, _)| *n == name).map(|(n, v)| ((*n).to_owned(), *v))
}

fn version(text: &str) -> Option<(Version, usize)> {
    let core = text.trim().trim_start_matches('v');
    let core = core.split(['-', '+']).next().unwrap_or(core);
    let parts: Vec<&str> = core.split('.').collect();
    if parts.is_empty() || parts.len() > 3 {
        return None;
    }
    let mut v = [0u64; 3];
    for (slot, p) in v.iter_mut().zip(&parts) {
        *slot = p.parse().ok()?;
    }
    Some(((v[0], v[1], v[2]), parts.len()))
}

/// The first version a `required_version` constraint string no longer
/// allows, if it has an upper bound: every version from it on is
/// excluded. The hashicorp/go-version operators (`=`, `!=`, `>`, `>=`,
/// `<`, `<=`, `~>`, comma for "and"); `None` for no bound or a string
/// it does not read.
pub(super) fn upper_bound(constraint: &str) -> Option<Version> {
    let mut bound: Option<Version> = None;
    for part in constraint.split(',') {
        let part = part.trim();
        let op_len = part.find(|c: char| c.is_ascii_digit() || c == 'v').unwrap_or(part.len());
        let (op, rest) = part.split_at(op_len);
        let Some((v, given)) = version(rest) else { continue };
        let next_patch = (v.0, v.1, v.2 + 1);
        let here = match op.trim() {
            "" | "=" | "<=" => Some(next_patch),
            "<" => Some(v),
            // `~> 1.5.0` allows 1.5.x, `~> 1.5` allows 1.x from 1.5.
            "~>" => Some(match given {
                3 => (v.0, v.1 + 1, 0),
                _ => (v.0 + 1, 0, 0),
            }),
            _ => None,
        };
        if let Some(h) = here {
            bound = Some(bound.map_or(h, |b| b.min(h)));
        }
    }
    bound
}

/// `required_version`s of the module's `terraform` blocks: the constraint
/// and where it is (document, absolute range).
fn required_versions(docs: &[Document]) -> Vec<(String, usize, Range<usize>)> {
    let mut out = Vec::new();
    for (di, doc) in docs.iter().enumerate() {
        if doc.file.kind != FileKind::Terraform || !super::passes::has(&doc.file.text, "required_version") {
            continue;
        }
        for item in doc.items.iter() {
            let Some(text) = doc.file.text.get(item.range.clone()) else { continue };
            if !text.contains("required_version") {
                continue;
            }
            let Some(body) = item.body(&doc.file.text) else { continue };
            for b in body.blocks().filter(|b| b.ident.value().as_str() == "terraform") {
                let Some(a) = b.body.get_attribute("required_version") else { continue };
                let Expression::String(s) = &a.value else { continue };
                let Some(r) = a.value.span() else { continue };
                out.push((s.value().to_string(), di, item.range.start + r.start..item.range.start + r.end));
            }
        }
    }
    out
}

struct Calls<'a> {
    at: usize,
    found: &'a mut Vec<(Range<usize>, String, Version)>,
    /// Inside `try(…)` or `can(…)`, which catch an unknown function as
    /// any other failure (§4): not reported there.
    caught: usize,
}

impl Visit for Calls<'_> {
    fn visit_func_call(&mut self, call: &FuncCall) {
        let start = call.name.namespace.first().and_then(|n| n.span()).or_else(|| call.name.name.span());
        if let (Some((name, v)), Some(s), Some(e), 0) = (added(call), start, call.name.name.span(), self.caught) {
            self.found.push((self.at + s.start..self.at + e.end, name, v));
        }
        let catches = !call.name.is_namespaced() && matches!(call.name.name.value().as_str(), "try" | "can");
        self.caught += usize::from(catches);
        visit::visit_func_call(self, call);
        self.caught -= usize::from(catches);
    }
}

/// Whether this pass may report in the module: a Terraform module with a
/// `required_version` whose upper bound excludes some function of the
/// table. (`~> 1.5`, below 2.0, excludes none: the pass does not run.)
pub(super) fn bounded(docs: &[Document], dialect: Dialect) -> bool {
    let newest = ADDED.iter().map(|(_, v)| *v).chain([PROVIDER_FUNCTIONS]).max().unwrap_or_default();
    dialect == Dialect::Terraform
        && required_versions(docs).iter().any(|(c, ..)| upper_bound(c).is_some_and(|b| b <= newest))
}

/// The calls of one item to functions whose age matters, relative to the
/// item: (range, name, the version that added it). Computed once per
/// item ([`super::passes`]).
pub(super) type Facts = Vec<(Range<usize>, String, Version)>;

/// The facts of one item's body.
pub(super) fn facts(body: &Body) -> Facts {
    let mut found = Vec::new();
    Calls { at: 0, found: &mut found, caught: 0 }.visit_body(body);
    found
}

/// The module's tightest `required_version`: its constraint, the version
/// it excludes from on, and where it is (document, range).
pub(super) type Bound = (String, Version, usize, Range<usize>);

/// [`Bound`] of the module, if a `required_version` excludes a version.
pub(super) fn bound(docs: &[Document], dialect: Dialect) -> Option<Bound> {
    if dialect != Dialect::Terraform {
        return None;
    }
    required_versions(docs)
        .into_iter()
        .filter_map(|(c, di, r)| upper_bound(&c).map(|b| (c, b, di, r)))
        .min_by_key(|(_, b, ..)| *b)
}

/// Per document, `unknown-function` at each call of a function that no
/// version the module's `required_version` allows has. `facts` gives each
/// item's (of the module's Terraform files).
pub(super) fn check<'a>(
    docs: &[Document],
    dialect: Dialect,
    facts: impl Fn(&super::Item) -> Option<&'a Facts>,
) -> Vec<Vec<Diagnostic>> {
    let mut out: Vec<Vec<Diagnostic>> = vec![Vec::new(); docs.len()];
    let Some(bound) = bound(docs, dialect) else { return out };
    for (dj, doc) in docs.iter().enumerate().filter(|(_, d)| d.file.kind == FileKind::Terraform) {
        out[dj] = check_items(docs, &bound, &doc.items, &facts);
    }
    out
}

/// [`check`] of some items of one Terraform document, under `bound` (a
/// patch judges only the items it parsed again).
pub(super) fn check_items<'a>(
    docs: &[Document],
    (constraint, bound, di, range): &Bound,
    items: &[super::Item],
    facts: impl Fn(&super::Item) -> Option<&'a Facts>,
) -> Vec<Diagnostic> {
    let path = docs.get(*di).map(|d| d.file.path.clone());
    let mut out = Vec::new();
    for item in items {
        let Some(found) = facts(item) else { continue };
        let at = item.range.start;
        for (r, name, since) in found.iter().filter(|(_, _, since)| since >= bound) {
            let msg = format!(
                "`{name}` was added in Terraform {}.{}.{}, which this module's required_version \"{constraint}\" \
                 excludes",
                since.0, since.1, since.2
            );
            let related =
                Related { path: path.clone(), range: range.clone(), message: "the module's required_version".into() };
            out.push(Diagnostic::new(Code::UnknownFunction, at + r.start..at + r.end, msg).with_related(related));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn upper_bounds_of_version_constraints() {
        for (c, want) in [
            ("~> 1.5.0", Some((1, 6, 0))),
            ("~> 1.5", Some((2, 0, 0))),
            (">= 1.2, < 1.9", Some((1, 9, 0))),
            ("1.4.6", Some((1, 4, 7))),
            ("<= 1.8.2", Some((1, 8, 3))),
            (">= 1.0", None),
            ("!= 1.2.0", None),
            ("~> 1.3.0-beta1", Some((1, 4, 0))),
            ("nonsense", None),
        ] {
            assert_eq!(upper_bound(c), want, "{c}");
        }
    }
}
