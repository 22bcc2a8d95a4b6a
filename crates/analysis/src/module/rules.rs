//! Terraform's configuration rules of one top-level block, without types
//! (validate.md): names (`invalid-name`), `count` beside `for_each`
//! (`meta-argument`) and `count`, `each` and `self` where no instance
//! gives them a value (`out-of-scope`).
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

use hcl_edit::expr::{Expression, ForExpr, Traversal, TraversalOperator};
use hcl_edit::structure::{Block, Body};
use hcl_edit::template::ForTemplateExpr;
use hcl_edit::visit::{self, Visit};
use hcl_edit::Span;

use super::decls::label_text;
use crate::infer::Infer;
use syntax::diagnostic::{Code, Diagnostic};

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
pub(super) fn block(inf: &mut Infer, b: &Block) {
    let ident = b.ident.value().as_str();
    names(inf, b, ident);
    match ident {
        "resource" | "data" | "ephemeral" | "module" => instances(inf, b, ident),
        "locals" | "output" => {
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
        expression(inf, &a.value, s, &[]);
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
        expression(inf, &a.value, scope, &[]);
    }
    for content in b.body.blocks() {
        let mut found = Vec::new();
        let bound = vec![iterator.clone()];
        Roots { scope, bound, found: &mut found }.visit_body(&content.body);
        report(inf, found);
    }
}

fn expression(inf: &mut Infer, e: &Expression, scope: Scope, bound: &[String]) {
    let mut found = Vec::new();
    Roots { scope, bound: bound.to_vec(), found: &mut found }.visit_expr(e);
    report(inf, found);
}

fn report(inf: &mut Infer, found: Vec<(Range<usize>, &'static str)>) {
    let base = inf.source().base;
    for (r, root) in found {
        let r = r.start + base..r.end + base;
        let msg = match root {
            "count" => "Reference to `count` in non-counted context: `count.index` is known only in a `resource`, `data` or `module` block that sets `count`",
            "each" => "Reference to `each` in context without `for_each`: `each.key` and `each.value` are known only in a `resource`, `data` or `module` block that sets `for_each`",
            "count." => "Invalid `count` attribute: the only one is `count.index`",
            "each." => "Invalid `each` attribute: the only ones are `each.key` and `each.value`",
            _ => "Invalid `self` reference: `self` is known only in a resource's provisioner, connection and postcondition blocks",
        };
        inf.report(Diagnostic::new(Code::OutOfScope, r, msg));
    }
}

/// Finds references to `count`, `each` and `self` that the scope does not
/// give, `for` variables (and a dynamic block's iterator) scoped out.
struct Roots<'a> {
    scope: Scope,
    bound: Vec<String>,
    found: &'a mut Vec<(Range<usize>, &'static str)>,
}

impl Roots<'_> {
    /// A reference to `name`, whose first attribute is `attr`.
    fn root(&mut self, name: &str, attr: Option<&str>, range: Option<Range<usize>>) {
        if self.bound.iter().any(|b| b == name) {
            return;
        }
        let root = match (name, attr) {
            ("count", _) if !self.scope.count => "count",
            ("count", Some("index")) => return,
            ("count", _) => "count.",
            ("each", _) if !self.scope.each => "each",
            ("each", Some("key" | "value")) => return,
            ("each", _) => "each.",
            ("self", _) if !self.scope.this => "self",
            _ => return,
        };
        if let Some(r) = range {
            self.found.push((r, root));
        }
    }

    fn scoped(&mut self, vars: impl IntoIterator<Item = String>, f: impl FnOnce(&mut Self)) {
        let depth = self.bound.len();
        self.bound.extend(vars);
        f(self);
        self.bound.truncate(depth);
    }
}

impl Visit for Roots<'_> {
    fn visit_expr(&mut self, e: &Expression) {
        match e {
            Expression::Variable(v) => self.root(v.value().as_str(), None, v.span()),
            _ => visit::visit_expr(self, e),
        }
    }

    fn visit_traversal(&mut self, t: &Traversal) {
        let Expression::Variable(v) = &t.expr else { return visit::visit_traversal(self, t) };
        // The reference: its root and first attribute (`count.index`).
        let (attr, end) = match t.operators.first().map(|o| (o.value(), o.span())) {
            Some((TraversalOperator::GetAttr(a), Some(s))) => (Some(a.value().as_str()), Some(s.end)),
            _ => (None, v.span().map(|s| s.end)),
        };
        let range = v.span().zip(end).map(|(s, e)| s.start..e);
        self.root(v.value().as_str(), attr, range);
        for op in &t.operators {
            if let TraversalOperator::Index(k) = op.value() {
                self.visit_expr(k);
            }
        }
    }

    fn visit_for_expr(&mut self, f: &ForExpr) {
        self.visit_expr(&f.intro.collection_expr);
        let vars = f.intro.key_var.iter().chain([&f.intro.value_var]).map(|v| v.value().to_string());
        self.scoped(vars.collect::<Vec<_>>(), |me| {
            if let Some(k) = &f.key_expr {
                me.visit_expr(k);
            }
            me.visit_expr(&f.value_expr);
            if let Some(c) = &f.cond {
                me.visit_expr(&c.expr);
            }
        });
    }

    fn visit_for_template_expr(&mut self, f: &ForTemplateExpr) {
        self.visit_expr(&f.collection_expr);
        let vars = f.key_var.iter().chain([&f.value_var]).map(|v| v.value().to_string());
        self.scoped(vars.collect::<Vec<_>>(), |me| me.visit_template(&f.template));
    }
}
