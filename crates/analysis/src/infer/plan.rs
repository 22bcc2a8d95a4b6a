//! Errors `terraform validate` cannot see, as the values are unknown there,
//! but whose types already decide them, reported before `plan`
//! (analysis.md §9.1, issue 44 item 2): iteration over a value that is
//! null ("Iteration over null value" of a `for`, "Invalid for_each
//! argument", "Invalid dynamic for_each value"), and a `try(…)` none of
//! whose arguments can succeed ("no expression succeeded"). An error
//! where it fails for every input, a warning naming the input where it
//! fails for some: a variable that keeps its `default = null`.

use super::*;

impl<'e, 's> Infer<'e, 's> {
    /// `var.NAME` (nothing after it) when `e` is such a reference to a
    /// variable declared `default = null` that no guard says is not null.
    fn null_default_var(&self, e: &Expression) -> Option<String> {
        let e = match e {
            Expression::Parenthesis(p) => p.inner(),
            _ => e,
        };
        let Expression::Traversal(t) = e else { return None };
        let Expression::Variable(root) = &t.expr else { return None };
        let [op] = t.operators.as_slice() else { return None };
        let TraversalOperator::GetAttr(name) = op.value() else { return None };
        let name = name.value().as_str();
        let path = format!("var.{name}");
        let shadowed = self.scope.iter().any(|(n, _)| n == "var");
        let guarded = self.nonnull.contains(&path) || self.narrow(&path, Type::none()) != Type::none();
        (root.value().as_str() == "var" && !shadowed && !guarded && self.env.var_null_default(name)).then_some(path)
    }

    /// The collection `e` (of type `t`) of a `for`, a `for_each` or a
    /// dynamic block's `for_each` (`what`): iterating null fails at plan.
    pub fn null_iteration(&mut self, e: &Expression, t: &Type, what: &str) {
        // Terraform's summary of each.
        let summary = match what {
            "`for_each`" => "Invalid for_each argument",
            w if w.contains("dynamic") => "Invalid dynamic for_each value",
            _ => "Iteration over null value",
        };
        if !self.env.dialect().is_terraform() || self.suppress > 0 {
            return;
        }
        let range = self.range(e);
        if t.is_none() {
            let msg = format!("{what} iterates a value that is always null: Terraform fails at plan (\"{summary}\")");
            self.report(Diagnostic::new(Code::NullValue, range, msg));
        } else if let Some(var) = self.null_default_var(e).filter(|_| !self.scope.iter().any(|(n, _)| n == REPEATED)) {
            let msg = format!(
                "{what} iterates `{var}`, which is null where it keeps its default null: Terraform then fails at plan \
                 (\"{summary}\"); give it a default such as `[]`/`{{}}` or guard it (`{var} == null ? [] : …`)"
            );
            self.report(Diagnostic::new(Code::NullValue, range, msg).with_severity(Severity::Warning));
        }
    }

    /// Inside `try(…)`/`can(…)`: an attribute or key of `var.NAME` (at
    /// `root`) that is null where it keeps its default null fails there.
    pub(super) fn null_default_step(&mut self, root: &str) {
        if self.suppress == 0
            || self.nonnull.iter().any(|p| p == root)
            || self.narrow(root, Type::none()) != Type::none()
        {
            return;
        }
        if let Some(name) = root.strip_prefix("var.").filter(|n| self.env.var_null_default(n)) {
            self.may_fail = Some(format!("where `var.{name}` keeps its default null"));
        }
    }

    /// `try(…)` (terraform) whose every argument fails: an error when each
    /// fails for every value, a warning naming the input when the last
    /// one fails only for some.
    pub(super) fn failing_try(
        &mut self,
        call: &FuncCall,
        parts: &[Option<Type>],
        why: Option<String>,
        maybe: Option<String>,
    ) {
        if !self.env.dialect().is_terraform() || self.suppress > 0 || call.args.expand_final() {
            return;
        }
        let range = self.range(call);
        if parts.iter().all(Option::is_none) && why.is_some() {
            let why = why.map_or_else(String::new, |w| format!(" ({w})"));
            let msg = format!("`try(…)` fails for every value: none of its arguments can succeed{why}, so Terraform reports \"no expression succeeded\"");
            self.report(Diagnostic::new(Code::Traversal, range, msg));
        } else if let (1, Some(when)) = (parts.len(), maybe) {
            let msg = format!(
                "`try(…)` with one argument catches nothing: its argument fails {when}, and Terraform then reports \
                 \"no expression succeeded\"; add a fallback (`try(…, null)`)"
            );
            self.report(Diagnostic::new(Code::NullValue, range, msg).with_severity(Severity::Warning));
        }
    }
}
