//! Loader rules of a block's meta-blocks and `lifecycle` arguments
//! (validate.md §1-§3), each an error of `decodeResourceBlock`,
//! `decodeDataBlock`, `decodeEphemeralBlock` (internal/configs/resource.go),
//! `decodeModuleBlock`, `decodeProviderBlock` and `decodeProvisionerBlock`:
//!
//! - "Duplicate escaping block": a second `_ {}` block, at it.
//! - `ignore_changes = ["*"]`: "Invalid ignore_changes wildcard" (at the
//!   list) and, beside other elements, "Invalid ignore_changes ruleset" (at
//!   the `"*"`).
//! - `replace_triggered_by` (`decodeReplaceTriggeredBy`): each element
//!   refers to exactly one resource, and besides only to `count.index` and
//!   `each.key` ("Invalid each/count reference in replace_triggered_by
//!   expression", "Invalid reference in replace_triggered_by expression",
//!   "Invalid replace_triggered_by expression"), at the element.
//! - A resource's conditions that refer to the resource itself
//!   (`validateSelfReferences`, checks.go): "Invalid reference in
//!   precondition/postcondition", at the condition or message (`self` is
//!   how a postcondition reads its own object).

use hcl_edit::expr::{Expression, TraversalOperator};
use hcl_edit::structure::{Block, Body};

use super::decls::label_text;
use crate::infer::Infer;
use syntax::diagnostic::{Code, Diagnostic};

/// The rules of one top-level block of type `ident`.
pub(super) fn block(inf: &mut Infer, b: &Block, ident: &str) {
    if !matches!(ident, "resource" | "data" | "ephemeral" | "module" | "provider") {
        return;
    }
    escaping(inf, &b.body);
    for p in b.body.get_blocks("provisioner") {
        escaping(inf, &p.body);
    }
    if ident == "module" || ident == "provider" {
        return;
    }
    let own = match (ident, b.labels.as_slice()) {
        ("resource", [t, n]) => Some(vec![label_text(t), label_text(n)]),
        ("data" | "ephemeral", [t, n]) => Some(vec![ident, label_text(t), label_text(n)]),
        _ => None,
    };
    for l in b.body.get_blocks("lifecycle") {
        if ident == "resource" {
            if let Some(a) = l.body.get_attribute("ignore_changes") {
                ignore_changes(inf, &a.value);
            }
            if let Some(Expression::Array(list)) = l.body.get_attribute("replace_triggered_by").map(|a| &a.value) {
                // (Terraform skips every element after one with an
                // error: its diagnostics accumulate across them.)
                let _ = list.iter().find(|e| replace_trigger(inf, e));
            }
        }
        if let Some(own) = &own {
            for c in l.body.blocks().filter(|c| matches!(c.ident.value().as_str(), "precondition" | "postcondition")) {
                self_references(inf, c, own);
            }
        }
    }
}

fn escaping(inf: &mut Infer, body: &Body) {
    for extra in body.get_blocks("_").skip(1) {
        let r = inf.range(&extra.ident);
        let msg = "Duplicate escaping block: a block can have only one `_` block (which forces its arguments to be read as the provider's rather than as meta-arguments)";
        inf.report(Diagnostic::new(Code::Duplicate, r, msg));
    }
}

fn is_star(e: &Expression) -> bool {
    matches!(e, Expression::String(s) if s.value().as_str() == "*")
}

fn ignore_changes(inf: &mut Infer, e: &Expression) {
    let Expression::Array(list) = e else { return };
    let Some(star) = list.iter().find(|e| is_star(e)) else { return };
    let r = inf.range(e);
    let msg = "Invalid ignore_changes wildcard: the [\"*\"] form is no longer valid; write `ignore_changes = all` to ignore changes to every attribute";
    inf.report(Diagnostic::new(Code::MetaArgument, r, msg));
    if list.iter().any(|e| !is_star(e)) {
        let r = inf.range(star);
        let msg = "Invalid ignore_changes ruleset: the wildcard \"*\" cannot be mixed with references to attributes";
        inf.report(Diagnostic::new(Code::MetaArgument, r, msg));
    }
}

/// The references in `e` as (root, first attribute), with those in
/// traversals' indexes (not inside `for` expressions or objects: left out).
fn references<'a>(e: &'a Expression, out: &mut Vec<(&'a str, Option<&'a str>)>) {
    match e {
        Expression::Variable(v) => out.push((v.value().as_str(), None)),
        Expression::Traversal(t) => {
            if let Expression::Variable(v) = &t.expr {
                let attr = match t.operators.first().map(|o| o.value()) {
                    Some(TraversalOperator::GetAttr(a)) => Some(a.value().as_str()),
                    _ => None,
                };
                out.push((v.value().as_str(), attr));
            } else {
                references(&t.expr, out);
            }
            for o in &t.operators {
                if let TraversalOperator::Index(i) = o.value() {
                    references(i, out);
                }
            }
        }
        Expression::Parenthesis(p) => references(p.inner(), out),
        Expression::FuncCall(f) => f.args.iter().for_each(|a| references(a, out)),
        Expression::Conditional(c) => {
            references(&c.cond_expr, out);
            references(&c.true_expr, out);
            references(&c.false_expr, out);
        }
        Expression::BinaryOp(b) => {
            references(&b.lhs_expr, out);
            references(&b.rhs_expr, out);
        }
        Expression::UnaryOp(u) => references(&u.expr, out),
        _ => {}
    }
}

/// Roots that are no resource (`addrs.ParseRef`).
const NOT_RESOURCES: [&str; 10] =
    ["var", "local", "module", "path", "terraform", "self", "count", "each", "action", "run"];

/// Whether element `e` of `replace_triggered_by` had an error.
fn replace_trigger(inf: &mut Infer, e: &Expression) -> bool {
    // (Only the forms whose references are all seen.)
    if !matches!(e, Expression::Traversal(_) | Expression::Variable(_) | Expression::FuncCall(_)) {
        return false;
    }
    let mut refs = Vec::new();
    references(e, &mut refs);
    let mut resources = 0;
    let mut why = None;
    for (root, attr) in refs {
        let found = match (root, attr) {
            (_, None) => Some("Invalid reference in replace_triggered_by expression: a reference needs an attribute (`count.index`, `each.key`, `TYPE.NAME`)"),
            ("count", Some("index")) | ("each", Some("key")) => None,
            ("count", _) => Some("Invalid count reference in replace_triggered_by expression: only `count.index` may be used there"),
            ("each", _) => Some("Invalid each reference in replace_triggered_by expression: only `each.key` may be used there"),
            (r, _) if NOT_RESOURCES.contains(&r) => Some("Invalid reference in replace_triggered_by expression: only resources, `count.index` and `each.key` may be used there"),
            _ => {
                resources += 1;
                None
            }
        };
        why = why.or(found);
    }
    let why = why.or(match resources {
        0 => Some("Invalid replace_triggered_by expression: it refers to no resource"),
        1 => None,
        _ => Some("Invalid replace_triggered_by expression: it refers to more than one resource"),
    });
    if let Some(msg) = why {
        let r = inf.range(e);
        inf.report(Diagnostic::new(Code::MetaArgument, r, msg));
    }
    why.is_some()
}

fn self_references(inf: &mut Infer, c: &Block, own: &[&str]) {
    let kind = c.ident.value().to_string();
    for key in ["condition", "error_message"] {
        let Some(a) = c.body.get_attribute(key) else { continue };
        let mut found = Vec::new();
        super::calls::traversals(&a.value, &mut found);
        let refers = found.iter().any(|t| {
            let Expression::Variable(root) = &t.expr else { return false };
            let attrs = t.operators.iter().map(|o| match o.value() {
                TraversalOperator::GetAttr(a) => Some(a.value().as_str()),
                _ => None,
            });
            let path: Vec<Option<&str>> = std::iter::once(Some(root.value().as_str())).chain(attrs).collect();
            path.len() >= own.len() && path.iter().zip(own).all(|(p, o)| *p == Some(*o))
        });
        if refers {
            let r = inf.range(&a.value);
            let msg = format!(
                "Invalid reference in {kind}: the configuration of `{}` may not refer to itself; a postcondition reads its own object as `self`",
                own.join(".")
            );
            inf.report(Diagnostic::new(Code::CheckRule, r, msg));
        }
    }
}
