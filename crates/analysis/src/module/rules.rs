//! Terraform's configuration rules of one top-level block, without types
//! (validate.md): names (`invalid-name`), `count` beside `for_each`
//! (`meta-argument`) and `count`, `each` and `self` where no instance
//! gives them a value (`out-of-scope`); meta_arguments.rs and
//! conditions.rs add the rules of meta-blocks and conditions.
//!
//! Sources: `decodeVariableBlock`, `decodeOutputBlock`, `decodeLocalsBlock`
//! (internal/configs/named_values.go), `decodeResourceBlock`,
//! `decodeDataBlock`, `decodeEphemeralBlock` (resource.go),
//! `decodeModuleBlock` (module_call.go); the scope errors come from the
//! evaluator (`GetCountAttr`, `GetForEachAttr` in
//! internal/terraform/evaluate.go, `SelfContextDiagnostics` in
//! internal/lang/eval.go), which `validate` runs on every resource, module
//! call, local and output.

use std::ops::Range;

use hcl_edit::expr::Expression;
use hcl_edit::structure::{Block, Body};

use super::decls::label_text;
use crate::infer::Infer;
use syntax::diagnostic::{Code, Diagnostic};
use syntax::Dialect;

/// The names a variable may not have: a module block's own arguments and
/// block types (`moduleBlockSchema` in internal/configs/module_call.go).
const RESERVED_VARIABLES: [&str; 11] = [
    "source",
    "version",
    "count",
    "for_each",
    "depends_on",
    "providers",
    "ignore_nested_deprecations",
    "_",
    "lifecycle",
    "locals",
    "provider",
];

/// hclsyntax.ValidIdentifier: a letter or `_`, then letters, digits, `_`
/// and `-`.
pub(super) fn valid_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_alphabetic() || c == '_')
        && chars.all(|c| c.is_alphanumeric() || c == '_' || c == '-')
}

/// The rules of one top-level block of a Terraform `.tf` file.
pub(super) fn block(inf: &mut Infer, b: &Block, dialect: Dialect) {
    let ident = b.ident.value().as_str();
    names(inf, b, ident);
    super::conditions::block(inf, b, ident);
    super::address_rules::block(inf, b, ident, dialect);
    super::lifecycle_rules::block(inf, b, ident);
    match ident {
        "resource" | "data" | "ephemeral" | "module" => {
            super::meta_arguments::block(inf, b, ident, dialect);
            super::provider_refs::block(inf, b, ident);
            instances(inf, b, ident)
        }
        "provider" => super::meta_arguments::provider(inf, b),
        "check" => super::meta_arguments::check(inf, b),
        "terraform" => super::requirement_rules::block(inf, b),
        "locals" | "output" => {
            if ident == "output" {
                super::meta_arguments::output(inf, b);
            }
            let scope = Scope { count: false, each: false, this: false };
            walk(inf, &b.body, scope, ident);
        }
        _ => {}
    }
}

fn names(inf: &mut Infer, b: &Block, ident: &str) {
    let what: &[&str] = match ident {
        "variable" => &["variable"],
        "output" => &["output"],
        "module" => &["module instance"],
        "resource" | "data" => &["resource type", "resource"],
        _ => &[],
    };
    for (label, what) in b.labels.iter().zip(what) {
        let name = label_text(label);
        let bad = !valid_identifier(name);
        let reserved = ident == "variable" && RESERVED_VARIABLES.contains(&name);
        if !bad && !reserved {
            continue;
        }
        let msg = match reserved {
            true => format!("Invalid variable name: `{name}` is reserved for its meaning inside module blocks"),
            false => format!(
                "Invalid {what} name `{name}`: a name must start with a letter or underscore and may contain only letters, digits, underscores and dashes"
            ),
        };
        let r = inf.range(label);
        inf.report(Diagnostic::new(Code::InvalidName, r, msg));
    }
    if ident == "locals" {
        for a in b.body.attributes().filter(|a| !valid_identifier(a.key.value().as_str())) {
            let r = inf.range(&a.key);
            let msg = format!("Invalid local value name `{}`", a.key.value().as_str());
            inf.report(Diagnostic::new(Code::InvalidName, r, msg));
        }
    }
}

/// What a body's expressions may refer to.
#[derive(Clone, Copy)]
struct Scope {
    /// `count.index`: in a block with `count`.
    count: bool,
    /// `each.key`, `each.value`: in a block with `for_each`.
    each: bool,
    /// `self`: in a resource's provisioners, connections and postconditions.
    this: bool,
}

fn instances(inf: &mut Infer, b: &Block, ident: &str) {
    let count = b.body.get_attribute("count");
    let for_each = b.body.get_attribute("for_each");
    if let (Some(_), Some(f)) = (count, for_each) {
        let r = inf.range(&f.key);
        inf.report(Diagnostic::new(
            Code::MetaArgument,
            r,
            "Invalid combination of `count` and `for_each`: only one of them may say how many instances there are",
        ));
    }
    if ident != "module" {
        once(inf, &b.body, &["lifecycle", "connection"]);
    }
    let scope = Scope { count: count.is_some(), each: for_each.is_some(), this: false };
    walk(inf, &b.body, scope, ident);
}

/// A second nested block of a kind a resource has once ("Duplicate
/// lifecycle block", "Duplicate connection block" in `decodeResourceBlock`).
fn once(inf: &mut Infer, body: &Body, kinds: &[&str]) {
    for kind in kinds {
        for again in body.get_blocks(kind).skip(1) {
            let r = inf.range(&again.ident);
            let msg = format!("Duplicate `{kind}` block: this resource already has one");
            inf.report(Diagnostic::new(Code::Duplicate, r, msg));
        }
    }
}

/// Walks a body of `ident`'s top-level block (or a nested block of it).
fn walk(inf: &mut Infer, body: &Body, scope: Scope, ident: &str) {
    let top = matches!(ident, "resource" | "data" | "ephemeral" | "module" | "locals" | "output");
    for a in body.attributes() {
        let key = a.key.value().as_str();
        let s = match key {
            // References, not values (their own rules).
            "depends_on" | "provider" | "providers" if top => continue,
            // Evaluated before there are instances.
            "count" | "for_each" if top && ident != "locals" => Scope { count: false, each: false, this: false },
            "ignore_changes" | "replace_triggered_by" if ident == "lifecycle" => continue,
            _ => scope,
        };
        expression(inf, &a.value, s);
    }
    for nested in body.blocks() {
        let kind = nested.ident.value().as_str();
        let resource = matches!(ident, "resource" | "data" | "ephemeral" | "lifecycle" | "provisioner");
        let s = match kind {
            "provisioner" | "connection" | "postcondition" if resource => Scope { this: true, ..scope },
            "precondition" => Scope { this: false, ..scope },
            _ => scope,
        };
        if kind == "dynamic" {
            dynamic(inf, nested, s);
            continue;
        }
        walk(inf, &nested.body, s, kind);
    }
}

/// A `dynamic` block: its iterator (`iterator`, else its label) is a name
/// within `content`.
fn dynamic(inf: &mut Infer, b: &Block, scope: Scope) {
    let iterator = match b.body.get_attribute("iterator").map(|a| &a.value) {
        Some(Expression::Variable(v)) => v.value().to_string(),
        _ => b.labels.first().map(label_text).unwrap_or("").to_owned(),
    };
    for a in b.body.attributes().filter(|a| a.key.value().as_str() != "iterator") {
        expression(inf, &a.value, scope);
    }
    for content in b.body.blocks() {
        let roots = super::roots::of_body(&content.body, std::slice::from_ref(&iterator));
        report(inf, out_of_scope(roots, scope));
    }
}

fn expression(inf: &mut Infer, e: &Expression, scope: Scope) {
    report(inf, out_of_scope(super::roots::of_expr(e, &[]), scope));
}

fn report(inf: &mut Infer, found: Vec<(Range<usize>, &'static str)>) {
    let base = inf.source().base;
    for (r, root) in found {
        let r = r.start + base..r.end + base;
        let msg = match root {
            "count" => "Reference to `count` in non-counted context: `count.index` is known only in a `resource`, `data` or `module` block that sets `count`",
            "each" => "Reference to `each` in context without `for_each`: `each.key` and `each.value` are known only in a `resource`, `data` or `module` block that sets `for_each`",
            "count." => "Invalid reference: `count` cannot be used alone; write `count.index`",
            "each." => "Invalid reference: `each` cannot be used alone; write `each.key` or `each.value`",
            _ => "Invalid `self` reference: `self` is known only in a resource's provisioner, connection and postcondition blocks",
        };
        inf.report(Diagnostic::new(Code::OutOfScope, r, msg));
    }
}

/// The references to `count`, `each` and `self` that the scope does not
/// give: (range, what is wrong).
fn out_of_scope(roots: Vec<super::roots::Root>, scope: Scope) -> Vec<(Range<usize>, &'static str)> {
    let mut out = Vec::new();
    for root in roots {
        let wrong = match (root.name.as_str(), root.attr.as_deref()) {
            ("count", _) if !scope.count => "count",
            // (Another attribute is a `traversal` error of their types.)
            ("count", Some(_)) => continue,
            ("count", None) => "count.",
            ("each", _) if !scope.each => "each",
            ("each", Some(_)) => continue,
            ("each", None) => "each.",
            ("self", _) if !scope.this => "self",
            _ => continue,
        };
        out.extend(root.range.map(|r| (r, wrong)));
    }
    out
}
