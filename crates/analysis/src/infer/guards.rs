//! Null guards and the short-circuit of `&&` and `||` (analysis.md §2.1).
//!
//! Since Terraform 1.12 (HCL 2.24, `OpLogicalAnd`/`OpLogicalOr` in
//! hashicorp/hcl `hclsyntax/expression_ops.go`) both operands are still
//! evaluated, but the right one's diagnostics are dropped when the left one
//! decides the result, or when both are unknown (as everything is in
//! `terraform validate`); only operand conversions ("Invalid operand") and
//! static reference checks are always reported. So `x != null && x.a` is
//! fine where `x` is null, and a failure on the right appears at `plan`
//! only, when the left operand lets the right one decide.

use super::*;

impl<'e, 's> Infer<'e, 's> {
    /// `l && r` (`and`) or `l || r`: `bool`, with the right operand inferred
    /// where the left one's guards hold (`x != null &&`, `x == null ||`).
    pub(super) fn logical(&mut self, l: &Expression, and: bool, r: &Expression) -> Type {
        let before = self.diagnostics.len();
        let lt = self.expr(l);
        let right_start = self.diagnostics.len();
        let rt = self.guarded(facts(l, and, self.src), r);
        let checks_start = self.diagnostics.len();
        self.check(l, &lt, &Type::bool(), None);
        self.check(r, &rt, &Type::bool(), None);
        let failed = |ds: &[Diagnostic]| ds.iter().any(|d| d.severity == Severity::Error);
        // HCL keeps every diagnostic when an operand fails to convert or the
        // left one fails: it then does not short-circuit.
        let keep = failed(&self.diagnostics[before..right_start]) || failed(&self.diagnostics[checks_start..]);
        if self.env.dialect().is_terraform() && !keep {
            let decided = matches!(eval(l, self.src), Ok(Value::Bool(b)) if b != and);
            let op = if and { "&&" } else { "||" };
            let when = if and { "true" } else { "false" };
            let right: Vec<Diagnostic> = self.diagnostics.drain(right_start..checks_start).collect();
            let right = right.into_iter().filter_map(|mut d| {
                // References are checked before evaluation: always reported.
                if d.code == Code::UndefinedReference {
                    return Some(d);
                }
                if decided {
                    return None;
                }
                if d.severity == Severity::Error {
                    d.severity = Severity::Warning;
                    d.message.push_str(&format!(
                        " (right of `{op}`: Terraform reports it at plan only, where the left operand is {when})"
                    ));
                }
                Some(d)
            });
            let right: Vec<Diagnostic> = right.collect();
            self.diagnostics.splice(right_start..right_start, right);
        }
        Type::lift(Type::bool(), &[&lt, &rt])
    }

    /// The type of `e` where `facts` hold: the references they name are
    /// not null, or do not fail.
    pub(super) fn guarded(&mut self, facts: Facts, e: &Expression) -> Type {
        let (n, s) = (facts.nonnull.len(), facts.succeeds.len());
        self.nonnull.extend(facts.nonnull);
        self.succeeds.extend(facts.succeeds);
        let t = self.expr(e);
        let keep = self.nonnull.len().saturating_sub(n);
        self.nonnull.truncate(keep);
        let keep = self.succeeds.len().saturating_sub(s);
        self.succeeds.truncate(keep);
        t
    }

    /// `t`, the type of the reference `path`, without null where a guard
    /// says it is not null (or that a longer reference through it does not
    /// fail: an attribute of null fails); a reference that is always null
    /// is then never reached, so `any`.
    pub(super) fn narrow(&self, path: &str, t: Type) -> Type {
        let through =
            |s: &String| s.len() > path.len() && s.starts_with(path) && s[path.len()..].starts_with(['.', '[']);
        if !self.nonnull.iter().any(|p| p == path) && !self.succeeds.iter().any(through) {
            return t;
        }
        match t.kind() {
            Kind::None => Type::any(),
            Kind::Union(ms) if ms.iter().any(Type::is_none) => {
                Type::union(ms.iter().filter(|m| !m.is_none()).cloned().collect::<Vec<_>>())
            }
            _ => t,
        }
    }

    /// `t`, the value of the reference `path`, with null taken out of the
    /// attributes inside it that guards say are not null (or lead to a
    /// reference that does not fail): `p` in `{ for k, p in m : k => p if
    /// try(p.a.b, null) != null }` is an object whose `a` and `a.b` are
    /// not null, which the `for`'s result keeps for whoever iterates it.
    pub(super) fn refine(&self, path: &str, t: Type) -> Type {
        let inside = |s: &String| s.strip_prefix(path).filter(|rest| rest.starts_with('.')).map(str::to_string);
        let mut t = t;
        for (rest, last_too) in self
            .nonnull
            .iter()
            .filter_map(inside)
            .map(|r| (r, true))
            .chain(self.succeeds.iter().filter_map(inside).map(|r| (r, false)))
        {
            // Attributes only: a key step (`[…]`) ends what is followed.
            let attrs: Vec<&str> = rest[1..].split('[').next().unwrap_or("").split('.').collect();
            let whole = !rest.contains('[');
            t = strip_nulls(&t, &attrs, last_too && whole);
        }
        t
    }

    /// Whether a guard says the reference `path` does not fail: it is, or
    /// leads to, a reference `can(…)` or `try(…, null) != null` vouches for.
    pub(super) fn vouched(&self, path: &str) -> bool {
        self.succeeds.iter().any(|s| s == path || (s.starts_with(path) && s[path.len()..].starts_with(['.', '['])))
    }
}

/// `t` with null taken out of the attribute chain `attrs` (of the last
/// attribute itself only when `last_too`).
fn strip_nulls(t: &Type, attrs: &[&str], last_too: bool) -> Type {
    let Some((first, rest)) = attrs.split_first() else { return t.clone() };
    let not_null = |t: &Type| match t.kind() {
        Kind::Union(ms) if ms.iter().any(Type::is_none) => {
            Type::union(ms.iter().filter(|m| !m.is_none()).cloned().collect::<Vec<_>>())
        }
        _ => t.clone(),
    };
    match t.kind() {
        Kind::Object(fields) => Type::object(fields.iter().map(|(k, v)| {
            if k != first {
                return (k.clone(), v.clone());
            }
            let v = if rest.is_empty() && !last_too { v.clone() } else { not_null(v) };
            (k.clone(), strip_nulls(&v, rest, last_too))
        })),
        Kind::Union(ms) if ms.iter().any(|m| matches!(m.kind(), Kind::Object(_))) => {
            Type::union(ms.iter().map(|m| strip_nulls(m, attrs, last_too)).collect::<Vec<_>>())
        }
        _ => t.clone(),
    }
}

/// The text a traversal step adds to a reference's path (`.a`, `[0]`), for
/// matching a guard with the references it guards.
pub(super) fn step_text(step: &Step) -> Option<String> {
    match step {
        Step::Attr(a) => Some(format!(".{a}")),
        Step::Index(v) => Some(format!("[{v:?}]")),
        _ => None,
    }
}

/// The path of a reference made of names, attributes and constant keys
/// (`var.x.a["k"]`), as [`step_text`] spells it.
fn path_of(e: &Expression, src: Source) -> Option<String> {
    match e {
        Expression::Parenthesis(p) => path_of(p.inner(), src),
        Expression::Variable(v) => Some(v.value().to_string()),
        Expression::Traversal(t) => {
            let Expression::Variable(root) = &t.expr else { return None };
            let mut path = root.value().to_string();
            for op in &t.operators {
                let step = match op.value() {
                    TraversalOperator::GetAttr(a) => Step::Attr(a.value().to_string()),
                    TraversalOperator::LegacyIndex(n) => Step::Index(Value::Int((*n.value()).into())),
                    TraversalOperator::Index(key) => match eval(key, src) {
                        Ok(v @ (Value::Int(_) | Value::Number(_) | Value::String(_) | Value::Bool(_))) => {
                            Step::Index(v)
                        }
                        _ => return None,
                    },
                    _ => return None,
                };
                path.push_str(&step_text(&step)?);
            }
            Some(path)
        }
        _ => None,
    }
}

/// What a condition says of references where it has a given truth.
#[derive(Default)]
pub(super) struct Facts {
    /// References that are not null.
    pub nonnull: Vec<String>,
    /// References whose evaluation does not fail (analysis.md §2.2).
    pub succeeds: Vec<String>,
}

impl Facts {
    fn extend(&mut self, other: Facts) {
        self.nonnull.extend(other.nonnull);
        self.succeeds.extend(other.succeeds);
    }
}

/// What `e` says when it is `truth`: `x != null` when true, `x == null`
/// when false (x is not null); `can(x)` when true (x does not fail);
/// `try(x, null) != null` when true (both); through `!`, parentheses, `&&`
/// (when true) and `||` (when false).
pub(super) fn facts(e: &Expression, truth: bool, src: Source) -> Facts {
    use BinaryOperator as B;
    let mut out = Facts::default();
    match e {
        Expression::Parenthesis(p) => return facts(p.inner(), truth, src),
        Expression::UnaryOp(op) if *op.operator.value() == UnaryOperator::Not => return facts(&op.expr, !truth, src),
        Expression::FuncCall(call) if truth && is_call(call, "can") && call.args.len() == 1 => {
            out.succeeds.extend(call.args.iter().next().and_then(|x| path_of(x, src)));
        }
        Expression::BinaryOp(op) => {
            let (l, r) = (&op.lhs_expr, &op.rhs_expr);
            match (*op.operator.value(), truth) {
                (B::NotEq, true) | (B::Eq, false) => {
                    let other = match (l, r) {
                        (Expression::Null(_), x) | (x, Expression::Null(_)) => x,
                        _ => return out,
                    };
                    if let Some(x) = null_fallback_try(other) {
                        let p = path_of(x, src);
                        out.succeeds.extend(p.clone());
                        out.nonnull.extend(p);
                    } else {
                        out.nonnull.extend(path_of(other, src));
                    }
                }
                (B::And, true) | (B::Or, false) => {
                    out = facts(l, truth, src);
                    out.extend(facts(r, truth, src));
                }
                _ => {}
            }
        }
        _ => {}
    }
    out
}

/// Whether `call` is the built-in `name(…)`.
pub(super) fn is_call(call: &FuncCall, name: &str) -> bool {
    call.name.namespace.is_empty() && call.name.name.value().as_str() == name
}

/// `x` of `try(x, null)` (every fallback `null`): not null only where x
/// succeeds and is not null.
fn null_fallback_try(e: &Expression) -> Option<&Expression> {
    let e = match e {
        Expression::Parenthesis(p) => p.inner(),
        _ => e,
    };
    let Expression::FuncCall(call) = e else { return None };
    let mut args = call.args.iter();
    let first = args.next()?;
    let nulls = args.all(|a| matches!(a, Expression::Null(_)));
    (is_call(call, "try") && call.args.len() >= 2 && nulls && !call.args.expand_final()).then_some(first)
}
