//! The nodes of a document's syntax trees as plain ranges, for the
//! features that only need the tree's shape (folding, selection ranges):
//! one walk of hcl-edit's types here, so those features do not each match
//! every expression variant.

use std::ops::Range;

use analysis::Document;
use hcl_edit::expr::{Expression, ObjectKey, TraversalOperator};
use hcl_edit::structure::{Body, Structure};
use hcl_edit::template::{Directive, Element, Template};
use syntax::span_of;

/// What a node is, as far as folding and selection care.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum NodeKind {
    Block,
    /// A block's braces' content (between `{` and `}`, whitespace trimmed).
    BlockBody,
    Attribute,
    Object,
    Tuple,
    Call,
    Heredoc,
    /// `for` expressions, conditionals and templates: a selection step,
    /// and a fold when they span lines.
    Compound,
    /// Any other expression (a selection step only).
    Expr,
}

#[derive(Clone, Debug)]
pub(crate) struct Node {
    pub range: Range<usize>,
    pub kind: NodeKind,
}

/// Every node of `doc`'s items that parse, in document order (a parent
/// before its children). Items whose tree was dropped are parsed again.
pub(crate) fn nodes(doc: &Document) -> Vec<Node> {
    let text = doc.file.text.as_str();
    let mut out = Vec::new();
    for item in doc.items.iter() {
        if let Some(body) = item.body(text) {
            body_nodes(&body, item.range.start, text, &mut out);
        }
    }
    out
}

fn body_nodes(body: &Body, base: usize, text: &str, out: &mut Vec<Node>) {
    for s in body.iter() {
        match s {
            Structure::Attribute(a) => {
                out.push(Node { range: span_of(a, base), kind: NodeKind::Attribute });
                expr_nodes(&a.value, base, out);
            }
            Structure::Block(b) => {
                let range = span_of(b, base);
                out.push(Node { range: range.clone(), kind: NodeKind::Block });
                if let Some(inner) = braces_content(text, range) {
                    out.push(Node { range: inner, kind: NodeKind::BlockBody });
                }
                body_nodes(&b.body, base, text, out);
            }
        }
    }
}

/// The text between a block's `{` and its last `}`, whitespace trimmed;
/// `None` for an empty body. The labels before `{` are strings or
/// identifiers, so the first `{` of the block is its body's.
fn braces_content(text: &str, block: Range<usize>) -> Option<Range<usize>> {
    let src = text.get(block.clone())?;
    let open = src.find('{')? + 1;
    let close = src.rfind('}')?;
    let inner = src.get(open..close)?;
    let start = open + (inner.len() - inner.trim_start().len());
    let end = close - (inner.len() - inner.trim_end().len());
    (start < end).then(|| block.start + start..block.start + end)
}

fn expr_nodes(e: &Expression, base: usize, out: &mut Vec<Node>) {
    let range = span_of(e, base);
    let kind = match e {
        Expression::Object(_) => NodeKind::Object,
        Expression::Array(_) => NodeKind::Tuple,
        Expression::FuncCall(_) => NodeKind::Call,
        Expression::HeredocTemplate(_) => NodeKind::Heredoc,
        Expression::ForExpr(_) | Expression::Conditional(_) | Expression::StringTemplate(_) => NodeKind::Compound,
        _ => NodeKind::Expr,
    };
    out.push(Node { range, kind });
    match e {
        Expression::Array(a) => a.iter().for_each(|x| expr_nodes(x, base, out)),
        Expression::Object(o) => {
            for (k, v) in o.iter() {
                let key = span_of(k, base);
                let value = span_of(v.expr(), base);
                // The pair `key = value` is a step between the value and the object.
                out.push(Node { range: key.start..value.end.max(key.end), kind: NodeKind::Attribute });
                if let ObjectKey::Expression(k) = k {
                    expr_nodes(k, base, out);
                }
                expr_nodes(v.expr(), base, out);
            }
        }
        Expression::Parenthesis(p) => expr_nodes(p.inner(), base, out),
        Expression::Conditional(c) => {
            for x in [&c.cond_expr, &c.true_expr, &c.false_expr] {
                expr_nodes(x, base, out);
            }
        }
        Expression::FuncCall(f) => f.args.iter().for_each(|x| expr_nodes(x, base, out)),
        Expression::Traversal(t) => expr_nodes(&t.expr, base, out),
        Expression::UnaryOp(u) => expr_nodes(&u.expr, base, out),
        Expression::BinaryOp(b) => {
            expr_nodes(&b.lhs_expr, base, out);
            expr_nodes(&b.rhs_expr, base, out);
        }
        Expression::ForExpr(f) => {
            expr_nodes(&f.intro.collection_expr, base, out);
            if let Some(k) = &f.key_expr {
                expr_nodes(k, base, out);
            }
            expr_nodes(&f.value_expr, base, out);
            if let Some(c) = &f.cond {
                expr_nodes(&c.expr, base, out);
            }
        }
        _ => {}
    }
}

/// Calls `f` on every expression of `body`, nested blocks', objects',
/// and template interpolations' and directives' included (where
/// references hide: `"${var.x}"`).
pub(crate) fn each_expr(body: &Body, f: &mut dyn FnMut(&Expression)) {
    for s in body.iter() {
        match s {
            Structure::Attribute(a) => walk_expr(&a.value, f),
            Structure::Block(b) => each_expr(&b.body, f),
        }
    }
}

fn walk_expr(e: &Expression, f: &mut dyn FnMut(&Expression)) {
    f(e);
    match e {
        Expression::Array(a) => a.iter().for_each(|x| walk_expr(x, f)),
        Expression::Object(o) => {
            for (k, v) in o.iter() {
                if let ObjectKey::Expression(k) = k {
                    walk_expr(k, f);
                }
                walk_expr(v.expr(), f);
            }
        }
        Expression::Parenthesis(p) => walk_expr(p.inner(), f),
        Expression::Conditional(c) => {
            [&c.cond_expr, &c.true_expr, &c.false_expr].into_iter().for_each(|x| walk_expr(x, f))
        }
        Expression::FuncCall(c) => c.args.iter().for_each(|x| walk_expr(x, f)),
        Expression::Traversal(t) => {
            walk_expr(&t.expr, f);
            for op in &t.operators {
                if let TraversalOperator::Index(i) = op.value() {
                    walk_expr(i, f);
                }
            }
        }
        Expression::UnaryOp(u) => walk_expr(&u.expr, f),
        Expression::BinaryOp(b) => {
            walk_expr(&b.lhs_expr, f);
            walk_expr(&b.rhs_expr, f);
        }
        Expression::ForExpr(x) => {
            walk_expr(&x.intro.collection_expr, f);
            if let Some(k) = &x.key_expr {
                walk_expr(k, f);
            }
            walk_expr(&x.value_expr, f);
            if let Some(c) = &x.cond {
                walk_expr(&c.expr, f);
            }
        }
        Expression::StringTemplate(t) => walk_template(t, f),
        Expression::HeredocTemplate(h) => walk_template(&h.template, f),
        _ => {}
    }
}

fn walk_template(t: &Template, f: &mut dyn FnMut(&Expression)) {
    for el in t.iter() {
        match el {
            Element::Interpolation(i) => walk_expr(&i.expr, f),
            Element::Directive(d) => match d.as_ref() {
                Directive::If(i) => {
                    walk_expr(&i.if_expr.cond_expr, f);
                    walk_template(&i.if_expr.template, f);
                    if let Some(e) = &i.else_expr {
                        walk_template(&e.template, f);
                    }
                }
                Directive::For(x) => {
                    walk_expr(&x.for_expr.collection_expr, f);
                    walk_template(&x.for_expr.template, f);
                }
            },
            Element::Literal(_) => {}
        }
    }
}
