//! Conditions whose truth the types already decide (analysis.md §2.2): a
//! `can(x)` whose argument always fails is always false, and `==` between
//! values of different primitive types is always false (HCL compares
//! without converting: cty's `Value.Equals` is false for values of
//! different types, so `1 == true` and `"1" == 1` never hold). Such a
//! condition is dead logic, a `dead-condition` warning of its own, and the
//! branch it never takes is not checked as if it ran: Terraform does not
//! evaluate it (hashicorp/hcl `hclsyntax/expression.go`, `ConditionalExpr`
//! keeps only the chosen result's diagnostics; a `for`'s value expression
//! is evaluated only where its `if` holds).

use super::*;

/// Whether a failure's message says a name is misspelt.
pub(super) fn misspelt(why: &str) -> bool {
    why.contains("did you mean")
}

/// The primitive kind a value of type `t` surely has, when it has one.
fn primitive(t: &Type) -> Option<&'static str> {
    match t.kind() {
        Kind::Int | Kind::Number => Some("number"),
        Kind::String => Some("string"),
        Kind::Bool => Some("bool"),
        _ => None,
    }
}

impl<'e, 's> Infer<'e, 's> {
    /// Whether `e`, a condition already inferred, always holds or never
    /// does, by what [`Self::decided`] recorded, through `!`, parentheses,
    /// `&&` and `||`.
    pub(super) fn truth(&self, e: &Expression) -> Option<bool> {
        match e {
            Expression::Parenthesis(p) => self.truth(p.inner()),
            Expression::UnaryOp(op) if *op.operator.value() == UnaryOperator::Not => self.truth(&op.expr).map(|b| !b),
            Expression::BinaryOp(op) if matches!(op.operator.value(), BinaryOperator::And | BinaryOperator::Or) => {
                let and = *op.operator.value() == BinaryOperator::And;
                match (self.truth(&op.lhs_expr), self.truth(&op.rhs_expr)) {
                    (Some(l), _) if l != and => Some(l),
                    (_, Some(r)) if r != and => Some(r),
                    (Some(l), Some(r)) => Some(if and { l && r } else { l || r }),
                    _ => None,
                }
            }
            Expression::BinaryOp(op) => {
                let range = self.range(&op.lhs_expr).start..self.range(&op.rhs_expr).end;
                self.decided.get(&range).copied()
            }
            _ => self.decided.get(&self.range(e)).copied(),
        }
    }

    /// Drops what a never taken branch reported since `start` (its
    /// references stay: Terraform checks them before evaluating).
    pub(super) fn drop_dead(&mut self, start: usize, dead: bool) {
        if !dead {
            return;
        }
        let tail: Vec<Diagnostic> = self.diagnostics.drain(start..).collect();
        self.diagnostics.extend(tail.into_iter().filter(|d| d.code == Code::UndefinedReference));
    }

    /// `can(x)` (terraform) whose argument always failed: always false.
    pub(super) fn dead_can(&mut self, call: &FuncCall, why: Option<String>) {
        let range = self.range(call);
        // A misspelt name ("did you mean") is the bug: what the guard
        // guards is then still checked, where the name is used again.
        if !why.as_deref().is_some_and(misspelt) {
            self.decided.insert(range.clone(), false);
        }
        let why = why.map_or_else(String::new, |w| format!(" ({w})"));
        let msg = format!(
            "`can(…)` is always false here: its argument fails for every value its types allow{why}, so what it \
             guards is dead logic"
        );
        self.report(Diagnostic::new(Code::DeadCondition, range, msg));
    }

    /// The type `e` (of type `t`) can have: of a `try(…)`, only its
    /// arguments up to the first that cannot fail (`try(var.n, false)` is
    /// `var.n`).
    fn can_be(&self, e: &Expression, t: &Type) -> Type {
        let Expression::FuncCall(call) = e else { return t.clone() };
        match self.try_args.get(&self.range(call)).filter(|_| guards::is_call(call, "try")) {
            Some(parts) => unify_safe_fold(&parts.iter().flatten().cloned().collect::<Vec<_>>()),
            None => t.clone(),
        }
    }

    /// Whether `e` is `try(x, null…)` whose `x` always fails: always null.
    fn always_null_try(&self, e: &Expression) -> bool {
        let Expression::FuncCall(call) = e else { return false };
        if !guards::is_call(call, "try") || call.args.len() < 2 {
            return false;
        }
        let Some(parts) = self.try_args.get(&self.range(call)) else { return false };
        parts.first().is_some_and(Option::is_none) && call.args.iter().skip(1).all(|a| matches!(a, Expression::Null(_)))
    }

    /// `l == r` / `l != r` (terraform) of values of different primitive
    /// types: never equal.
    pub(super) fn dead_comparison(&mut self, l: &Expression, eq: bool, r: &Expression, lt: &Type, rt: &Type) {
        if !self.env.dialect().is_terraform() {
            return;
        }
        if let Some(x) = [l, r].into_iter().find(|x| self.always_null_try(x)) {
            let other = if std::ptr::eq(x, l) { r } else { l };
            if matches!(other, Expression::Null(_)) {
                let range = self.range(l).start..self.range(r).end;
                if !self.misspelt_tries.contains(&self.range(x)) {
                    self.decided.insert(range.clone(), eq);
                }
                let what = if eq { "always true" } else { "always false" };
                let msg = format!(
                    "this comparison is {what}: the `try(…)` is always null, as its first argument fails for every \
                     value its types allow, so the branch it guards is dead logic"
                );
                self.report(Diagnostic::new(Code::DeadCondition, range, msg));
                return;
            }
        }
        let (lt, rt) = (self.can_be(l, lt), self.can_be(r, rt));
        let (Some(a), Some(b)) = (primitive(&lt), primitive(&rt)) else { return };
        if a == b {
            return;
        }
        let range = self.range(l).start..self.range(r).end;
        self.decided.insert(range.clone(), !eq);
        let article = |k: &str| {
            if k == "bool" {
                "a bool"
            } else if k == "number" {
                "a number"
            } else {
                "a string"
            }
        };
        let what = if eq { "always false" } else { "always true" };
        let msg = format!(
            "this comparison is {what}: {} is never equal to {} (Terraform compares values without converting \
             them), so the branch it guards is dead logic",
            article(a),
            article(b)
        );
        self.report(Diagnostic::new(Code::DeadCondition, range, msg));
    }
}
