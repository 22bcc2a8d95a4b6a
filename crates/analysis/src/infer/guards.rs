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

    /// The type of `e` where the references in `nonnull` are known not to
    /// be null.
    pub(super) fn guarded(&mut self, nonnull: Vec<String>, e: &Expression) -> Type {
        let n = nonnull.len();
        self.nonnull.extend(nonnull);
        let t = self.expr(e);
        let keep = self.nonnull.len().saturating_sub(n);
        self.nonnull.truncate(keep);
        t
    }

    /// `t`, the type of the reference `path`, without null where a guard
    /// says it is not null; a reference that is always null is then never
    /// reached, so `any`.
    pub(super) fn narrow(&self, path: &str, t: Type) -> Type {
        if !self.nonnull.iter().any(|p| p == path) {
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

/// The references `e` says are not null when it is `truth`: `x != null`
/// when true, `x == null` when false, through `!`, parentheses, `&&` (when
/// true) and `||` (when false).
pub(super) fn facts(e: &Expression, truth: bool, src: Source) -> Vec<String> {
    use BinaryOperator as B;
    match e {
        Expression::Parenthesis(p) => facts(p.inner(), truth, src),
        Expression::UnaryOp(op) if *op.operator.value() == UnaryOperator::Not => facts(&op.expr, !truth, src),
        Expression::BinaryOp(op) => {
            let (l, r) = (&op.lhs_expr, &op.rhs_expr);
            match (*op.operator.value(), truth) {
                (B::NotEq, true) | (B::Eq, false) => {
                    let other = match (l, r) {
                        (Expression::Null(_), x) | (x, Expression::Null(_)) => x,
                        _ => return Vec::new(),
                    };
                    path_of(other, src).into_iter().collect()
                }
                (B::And, true) | (B::Or, false) => {
                    let mut all = facts(l, truth, src);
                    all.extend(facts(r, truth, src));
                    all
                }
                _ => Vec::new(),
            }
        }
        _ => Vec::new(),
    }
}
