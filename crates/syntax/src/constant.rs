//! Constant expressions: literals, and tuples, objects, templates,
//! operators and conditionals built of them, evaluated to [`Value`]s.

use std::ops::Range;

use hcl_edit::expr::{BinaryOperator, Expression, ObjectKey, UnaryOperator};
use hcl_edit::template::{Element, Template};
use hcl_edit::Span;
use num_bigint::BigInt;
use num_traits::{ToPrimitive, Zero};

use super::span_of;
use types::value::{is_decimal, PathStep, Value};

/// Integers are exact up to this many bits (types.md §1 asks for ≥ 256).
pub const MAX_INT_BITS: u64 = 4096;
/// Decimal digits that always fit in [`MAX_INT_BITS`]; longer literals are
/// measured exactly, far longer ones are rejected without parsing.
const MAX_INT_DIGITS: usize = 1234;

/// Text an hcl-edit tree was parsed from, and where that text starts in its file.
#[derive(Clone, Copy, Debug)]
pub struct Source<'a> {
    pub text: &'a str,
    pub base: usize,
}

impl<'a> Source<'a> {
    pub fn new(text: &'a str, base: usize) -> Self {
        Source { text, base }
    }

    /// File range of a node.
    pub fn range(&self, node: &impl Span) -> Range<usize> {
        span_of(node, self.base)
    }

    /// The source text of a node.
    pub fn slice(&self, node: &impl Span) -> &'a str {
        node.span().and_then(|r| self.text.get(r)).unwrap_or("")
    }

    /// The full text of a number literal. A literal hcl-edit could not hold
    /// was masked to `0` before parsing (see `scan`), so the span is read
    /// from its start over the original characters.
    pub fn number_text(&self, node: &impl Span) -> &'a str {
        let Some(start) = node.span().map(|r| r.start) else { return "" };
        let b = self.text.as_bytes();
        let mut end = start;
        // hcl-edit sometimes folds a unary minus into the literal.
        if b.get(end) == Some(&b'-') {
            end += 1;
        }
        while end < b.len() {
            let c = b[end];
            let sign_after_e = (c == b'+' || c == b'-') && end > start && matches!(b[end - 1], b'e' | b'E');
            if c.is_ascii_digit() || c == b'.' || c == b'e' || c == b'E' || sign_after_e {
                end += 1;
            } else {
                break;
            }
        }
        self.text.get(start..end).unwrap_or("")
    }
}

/// The value of a number literal from its source text: digits only is an
/// exact `int` (or an error beyond [`MAX_INT_BITS`]), anything else a number.
pub fn number_literal(text: &str) -> Result<Value, String> {
    if let Some(positive) = text.strip_prefix('-') {
        return Ok(match number_literal(positive)? {
            Value::Int(i) => Value::Int(-i),
            _ => Value::Number(text.to_string()),
        });
    }
    if !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit()) {
        let digits = text.trim_start_matches('0');
        if digits.len() > MAX_INT_DIGITS + 1 {
            return Err(int_too_large(digits.len()));
        }
        let v: BigInt =
            if digits.is_empty() { BigInt::zero() } else { digits.parse().map_err(|_| int_too_large(digits.len()))? };
        if v.bits() > MAX_INT_BITS {
            return Err(int_too_large(digits.len()));
        }
        return Ok(Value::Int(v));
    }
    Ok(Value::Number(text.to_string()))
}

fn int_too_large(digits: usize) -> String {
    format!("this {digits}-digit integer exceeds the supported precision of {MAX_INT_BITS} bits; it cannot be represented exactly")
}

/// Why an expression is not a constant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NotConstant {
    /// The part that is not constant (a reference, a call, a `for`).
    Dynamic(Range<usize>),
    /// An integer literal beyond the supported precision.
    IntPrecision(Range<usize>, String),
}

/// Evaluates a constant expression. Operators whose result the runtime would
/// reject (`1 / 0`, `"a" + 1`) are not constant.
pub fn eval(expr: &Expression, src: Source<'_>) -> Result<Value, NotConstant> {
    let dynamic = || NotConstant::Dynamic(src.range(expr));
    match expr {
        Expression::Null(_) => Ok(Value::Null),
        Expression::Bool(b) => Ok(Value::Bool(*b.value())),
        Expression::Number(n) => {
            let text = src.number_text(n);
            let start = src.range(n).start;
            number_literal(text).map_err(|m| NotConstant::IntPrecision(start..start + text.len(), m))
        }
        Expression::String(s) => Ok(Value::String(s.value().clone())),
        Expression::Parenthesis(p) => eval(p.inner(), src),
        Expression::Array(items) => items.iter().map(|e| eval(e, src)).collect::<Result<_, _>>().map(Value::Tuple),
        Expression::Object(obj) => {
            let mut attrs: Vec<(String, Value)> = Vec::new();
            for (key, value) in obj.iter() {
                let name = match key {
                    ObjectKey::Ident(id) => id.value().to_string(),
                    ObjectKey::Expression(e) => match e {
                        Expression::Variable(v) => v.value().to_string(),
                        _ => eval(e, src)?.as_text().ok_or_else(|| NotConstant::Dynamic(src.range(e)))?,
                    },
                };
                let v = eval(value.expr(), src)?;
                attrs.retain(|(k, _)| *k != name);
                attrs.push((name, v));
            }
            Ok(Value::Object(attrs))
        }
        Expression::StringTemplate(t) => template(t, src),
        Expression::HeredocTemplate(h) => template(&h.template, src),
        Expression::UnaryOp(op) => {
            let v = eval(&op.expr, src)?;
            match (op.operator.value(), v) {
                (UnaryOperator::Not, Value::Bool(b)) => Ok(Value::Bool(!b)),
                (UnaryOperator::Neg, Value::Int(i)) => Ok(Value::Int(-i)),
                (UnaryOperator::Neg, Value::Number(n)) => Ok(Value::Number(match n.strip_prefix('-') {
                    Some(pos) => pos.to_string(),
                    None => format!("-{n}"),
                })),
                _ => Err(dynamic()),
            }
        }
        Expression::BinaryOp(op) => {
            let l = eval(&op.lhs_expr, src)?;
            let r = eval(&op.rhs_expr, src)?;
            binary(*op.operator.value(), &l, &r).ok_or_else(dynamic)
        }
        Expression::Conditional(c) => match eval(&c.cond_expr, src)? {
            Value::Bool(b) => {
                // Both branches must be constant, as the whole expression is.
                let t = eval(&c.true_expr, src)?;
                let f = eval(&c.false_expr, src)?;
                Ok(if b { t } else { f })
            }
            _ => Err(dynamic()),
        },
        Expression::Variable(_) | Expression::FuncCall(_) | Expression::Traversal(_) | Expression::ForExpr(_) => {
            Err(dynamic())
        }
    }
}

fn template(t: &Template, src: Source<'_>) -> Result<Value, NotConstant> {
    let mut out = String::new();
    for element in t.iter() {
        match element {
            Element::Literal(s) => out.push_str(s.value()),
            Element::Interpolation(i) => {
                let v = eval(&i.expr, src)?;
                out.push_str(&v.as_text().ok_or_else(|| NotConstant::Dynamic(src.range(&i.expr)))?);
            }
            Element::Directive(d) => return Err(NotConstant::Dynamic(src.range(d.as_ref()))),
        }
    }
    Ok(Value::String(out))
}

fn to_f64(v: &Value) -> Option<f64> {
    match v {
        Value::Int(i) => i.to_f64(),
        Value::Number(n) => n.parse().ok(),
        Value::String(s) if is_decimal(s) => s.parse().ok(),
        _ => None,
    }
}

fn to_int(v: &Value) -> Option<BigInt> {
    match v {
        Value::Int(i) => Some(i.clone()),
        _ => None,
    }
}

fn number(f: f64) -> Option<Value> {
    f.is_finite().then(|| Value::Number(format!("{f}")))
}

fn binary(op: BinaryOperator, l: &Value, r: &Value) -> Option<Value> {
    use BinaryOperator as B;
    match op {
        B::And | B::Or => match (l, r) {
            (Value::Bool(a), Value::Bool(b)) => Some(Value::Bool(if op == B::And { *a && *b } else { *a || *b })),
            _ => None,
        },
        B::Eq => Some(Value::Bool(l == r)),
        B::NotEq => Some(Value::Bool(l != r)),
        B::Less | B::LessEq | B::Greater | B::GreaterEq => {
            let (a, b) = (to_f64(l)?, to_f64(r)?);
            Some(Value::Bool(match op {
                B::Less => a < b,
                B::LessEq => a <= b,
                B::Greater => a > b,
                _ => a >= b,
            }))
        }
        B::Plus | B::Minus | B::Mul | B::Mod => {
            if let (Some(a), Some(b)) = (to_int(l), to_int(r)) {
                let v = match op {
                    B::Plus => a + b,
                    B::Minus => a - b,
                    B::Mul if a.bits() + b.bits() <= MAX_INT_BITS => a * b,
                    B::Mod if !b.is_zero() => a % b,
                    _ => return None,
                };
                return (v.bits() <= MAX_INT_BITS).then_some(Value::Int(v));
            }
            let (a, b) = (to_f64(l)?, to_f64(r)?);
            number(match op {
                B::Plus => a + b,
                B::Minus => a - b,
                B::Mul => a * b,
                _ if b != 0.0 => a % b,
                _ => return None,
            })
        }
        B::Div => {
            let (a, b) = (to_f64(l)?, to_f64(r)?);
            if b == 0.0 {
                return None;
            }
            number(a / b)
        }
    }
}

/// The range of the part of a constant expression that `path` leads to, as
/// far as the syntax follows it (a conditional or template stops the walk).
pub fn range_at(expr: &Expression, path: &[PathStep], src: Source<'_>) -> Range<usize> {
    let Some((step, rest)) = path.split_first() else {
        return src.range(expr);
    };
    match (expr, step) {
        (Expression::Parenthesis(p), _) => range_at(p.inner(), path, src),
        (Expression::Array(items), PathStep::Index(i)) => match items.get(*i) {
            Some(e) => range_at(e, rest, src),
            None => src.range(expr),
        },
        (Expression::Object(obj), PathStep::Attr(name)) => {
            let found = obj.iter().filter(|(k, _)| key_text(k).as_deref() == Some(name.as_str())).last();
            match found {
                Some((_, v)) => range_at(v.expr(), rest, src),
                None => src.range(expr),
            }
        }
        _ => src.range(expr),
    }
}

fn key_text(key: &ObjectKey) -> Option<String> {
    match key {
        ObjectKey::Ident(id) => Some(id.value().to_string()),
        ObjectKey::Expression(Expression::Variable(v)) => Some(v.value().to_string()),
        ObjectKey::Expression(Expression::String(s)) => Some(s.value().clone()),
        ObjectKey::Expression(Expression::Null(_)) => Some("null".into()),
        ObjectKey::Expression(Expression::Bool(b)) => Some(b.value().to_string()),
        ObjectKey::Expression(Expression::Number(n)) => Some(n.value().to_string()),
        _ => None,
    }
}
