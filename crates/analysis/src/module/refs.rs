//! The names an expression refers to (`local.X`, `var.X`, bare PCL names,
//! those inside templates), with `for` variables scoped out: what a
//! computed name depends on, for ordering and for the patch.

use super::*;

/// Names a computed expression refers to (`local.X`, bare PCL names),
/// with `for` variables scoped out.
pub(super) fn references(e: &Expression, dialect: Dialect) -> Vec<(Space, String)> {
    let mut out = Vec::new();
    let mut bound: Vec<String> = Vec::new();
    refs(e, dialect, &mut bound, &mut out);
    out
}

pub(super) fn refs(e: &Expression, dialect: Dialect, bound: &mut Vec<String>, out: &mut Vec<(Space, String)>) {
    let mut push_root = |name: &str, first: Option<&TraversalOperator>, bound: &Vec<String>| {
        if bound.iter().any(|b| b == name) {
            return;
        }
        if dialect != Dialect::Pcl && name == "local" {
            if let Some(TraversalOperator::GetAttr(a)) = first {
                out.push((Space::Local, a.value().to_string()));
            }
        } else if !dialect.is_terraform() {
            out.push((Space::Pcl, name.to_string()));
        }
    };
    match e {
        Expression::Variable(v) => push_root(v.value().as_str(), None, bound),
        Expression::Traversal(t) => {
            match &t.expr {
                Expression::Variable(v) => push_root(v.value().as_str(), t.operators.first().map(|o| o.value()), bound),
                other => refs(other, dialect, bound, out),
            }
            for op in &t.operators {
                if let TraversalOperator::Index(k) = op.value() {
                    refs(k, dialect, bound, out);
                }
            }
        }
        Expression::Array(items) => items.iter().for_each(|i| refs(i, dialect, bound, out)),
        Expression::Object(obj) => {
            for (k, v) in obj.iter() {
                if let hcl_edit::expr::ObjectKey::Expression(k) = k {
                    if !matches!(k, Expression::Variable(_)) {
                        refs(k, dialect, bound, out);
                    }
                }
                refs(v.expr(), dialect, bound, out);
            }
        }
        Expression::StringTemplate(t) => template_refs(t, dialect, bound, out),
        Expression::HeredocTemplate(h) => template_refs(&h.template, dialect, bound, out),
        Expression::Parenthesis(p) => refs(p.inner(), dialect, bound, out),
        Expression::Conditional(c) => {
            refs(&c.cond_expr, dialect, bound, out);
            refs(&c.true_expr, dialect, bound, out);
            refs(&c.false_expr, dialect, bound, out);
        }
        Expression::FuncCall(f) => f.args.iter().for_each(|a| refs(a, dialect, bound, out)),
        Expression::UnaryOp(u) => refs(&u.expr, dialect, bound, out),
        Expression::BinaryOp(b) => {
            refs(&b.lhs_expr, dialect, bound, out);
            refs(&b.rhs_expr, dialect, bound, out);
        }
        Expression::ForExpr(f) => {
            refs(&f.intro.collection_expr, dialect, bound, out);
            let n = bound.len();
            if let Some(k) = &f.intro.key_var {
                bound.push(k.value().to_string());
            }
            bound.push(f.intro.value_var.value().to_string());
            if let Some(k) = &f.key_expr {
                refs(k, dialect, bound, out);
            }
            refs(&f.value_expr, dialect, bound, out);
            if let Some(c) = &f.cond {
                refs(&c.expr, dialect, bound, out);
            }
            bound.truncate(n);
        }
        Expression::Null(_) | Expression::Bool(_) | Expression::Number(_) | Expression::String(_) => {}
    }
}

pub(super) fn template_refs(
    t: &hcl_edit::template::Template,
    dialect: Dialect,
    bound: &mut Vec<String>,
    out: &mut Vec<(Space, String)>,
) {
    use hcl_edit::template::{Directive, Element};
    for el in t.iter() {
        match el {
            Element::Literal(_) => {}
            Element::Interpolation(i) => refs(&i.expr, dialect, bound, out),
            Element::Directive(d) => match d.as_ref() {
                Directive::If(i) => {
                    refs(&i.if_expr.cond_expr, dialect, bound, out);
                    template_refs(&i.if_expr.template, dialect, bound, out);
                    if let Some(e) = &i.else_expr {
                        template_refs(&e.template, dialect, bound, out);
                    }
                }
                Directive::For(f) => {
                    refs(&f.for_expr.collection_expr, dialect, bound, out);
                    let n = bound.len();
                    if let Some(k) = &f.for_expr.key_var {
                        bound.push(k.value().to_string());
                    }
                    bound.push(f.for_expr.value_var.value().to_string());
                    template_refs(&f.for_expr.template, dialect, bound, out);
                    bound.truncate(n);
                }
            },
        }
    }
}
