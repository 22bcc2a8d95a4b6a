//! The variables an expression refers to, as hcl's `Variables()` gives
//! them: each root name with its first attribute and where it is, `for`
//! variables (and names bound around it, such as a dynamic block's
//! iterator) scoped out. What Terraform's configuration rules read
//! (rules.rs, conditions.rs).

use std::ops::Range;

use hcl_edit::expr::{Expression, ForExpr, Traversal, TraversalOperator};
use hcl_edit::structure::Body;
use hcl_edit::template::ForTemplateExpr;
use hcl_edit::visit::{self, Visit};
use hcl_edit::Span;

/// One reference: `count.index` is root `count`, attribute `index`.
pub(super) struct Root {
    pub(super) name: String,
    pub(super) attr: Option<String>,
    /// The root and its first attribute, relative to the parsed source.
    pub(super) range: Option<Range<usize>>,
}

/// The references of `e`, `bound` names aside.
pub(super) fn of_expr(e: &Expression, bound: &[String]) -> Vec<Root> {
    let mut v = Roots { bound: bound.to_vec(), found: Vec::new() };
    v.visit_expr(e);
    v.found
}

/// The references of a whole body (attributes and nested blocks).
pub(super) fn of_body(body: &Body, bound: &[String]) -> Vec<Root> {
    let mut v = Roots { bound: bound.to_vec(), found: Vec::new() };
    v.visit_body(body);
    v.found
}

struct Roots {
    bound: Vec<String>,
    found: Vec<Root>,
}

impl Roots {
    fn root(&mut self, name: &str, attr: Option<&str>, range: Option<Range<usize>>) {
        if !self.bound.iter().any(|b| b == name) {
            self.found.push(Root { name: name.to_owned(), attr: attr.map(str::to_owned), range });
        }
    }

    fn scoped(&mut self, vars: Vec<String>, f: impl FnOnce(&mut Self)) {
        let depth = self.bound.len();
        self.bound.extend(vars);
        f(self);
        self.bound.truncate(depth);
    }
}

impl Visit for Roots {
    fn visit_expr(&mut self, e: &Expression) {
        match e {
            Expression::Variable(v) => self.root(v.value().as_str(), None, v.span()),
            _ => visit::visit_expr(self, e),
        }
    }

    fn visit_traversal(&mut self, t: &Traversal) {
        let Expression::Variable(v) = &t.expr else { return visit::visit_traversal(self, t) };
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
        let vars = f.intro.key_var.iter().chain([&f.intro.value_var]).map(|v| v.value().to_string()).collect();
        self.scoped(vars, |me| {
            if let Some(k) = &f.key_expr {
                me.visit_expr(k);
            }
            me.visit_expr(&f.value_expr);
            if let Some(c) = &f.cond {
                me.visit_expr(&c.expr);
            }
        });
    }

    // (hcl-edit's default walk skips the collection of a template `for`.)
    fn visit_for_template_expr(&mut self, f: &ForTemplateExpr) {
        self.visit_expr(&f.collection_expr);
        let vars = f.key_var.iter().chain([&f.value_var]).map(|v| v.value().to_string()).collect();
        self.scoped(vars, |me| me.visit_template(&f.template));
    }
}
