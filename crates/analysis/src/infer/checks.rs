//! Check sites: a value against the type it must convert to (analysis.md
//! §3), refined by its value when it is a constant.

use super::*;

/// `msg`, with why `actual` does not (or may not) convert to `expected`
/// when the algebra can say.
fn because(mut msg: String, actual: &Type, expected: &Type, dialect: Dialect) -> String {
    if let (_, Some(why)) = types::explain(actual, expected, options(dialect)) {
        msg.push_str(&format!(": {why}"));
    }
    msg
}

impl<'e, 's> Infer<'e, 's> {
    /// A check site without a constant to refine it (an expanded argument).
    pub(super) fn check_type(&mut self, range: Range<usize>, actual: &Type, expected: &Type) {
        let dialect = self.env.dialect();
        let (safety, why) = types::explain(actual, expected, options(dialect));
        let why = why.map(|w| format!(": {w}")).unwrap_or_default();
        match safety {
            Safety::None => self.report(Diagnostic::new(
                Code::TypeMismatch,
                range,
                format!(
                    "an element of type `{}` cannot be used where `{}` is expected{why}",
                    actual.brief(),
                    expected.brief()
                ),
            )),
            Safety::Unsafe => self.report(Diagnostic::new(
                Code::UnsafeConversion,
                range,
                format!(
                    "an element of type `{}` may not convert to `{}` at run time{why}",
                    actual.brief(),
                    expected.brief()
                ),
            )),
            Safety::Safe => {}
        }
    }

    /// The `try(…)` call `e` is (in parentheses or not), with what
    /// [`Infer::call`] found of its arguments.
    fn try_parts<'x>(&self, e: &'x Expression) -> Option<(&'x FuncCall, Vec<Option<Type>>)> {
        match e {
            Expression::Parenthesis(p) => self.try_parts(p.inner()),
            Expression::FuncCall(call) => Some((call, self.try_args.get(&self.range(call))?.clone())),
            _ => None,
        }
    }

    /// The Terraform conditional `e` is (in parentheses or not), with its
    /// results' types, when they unify.
    fn conditional_parts<'x>(&self, e: &'x Expression) -> Option<(&'x hcl_edit::expr::Conditional, (Type, Type))> {
        match e {
            Expression::Parenthesis(p) => self.conditional_parts(p.inner()),
            Expression::Conditional(c) => Some((c, self.branches.get(&self.range(c))?.clone())),
            _ => None,
        }
    }

    /// A check site (analysis.md §3): `actual` (the type of `e`) against
    /// `expected`, eventuals looked through, refined by the value when `e`
    /// is a constant. Returns the conversion kind.
    pub fn check(&mut self, e: &Expression, actual: &Type, expected: &Type, related: Option<Related>) -> Safety {
        let dialect = self.env.dialect();
        if matches!(expected.kind(), Kind::Number | Kind::Int) && self.numeric_each_key(e) {
            // "0", "1", …: the numbers the keys were made of.
            let range = self.range(e);
            self.note(range, actual, Note::Checked(expected.clone(), Safety::Safe));
            return Safety::Safe;
        }
        // Terraform's `try(a, …, fallback)` is the first argument that does
        // not fail: each one (but those that always fail) may be the value,
        // so each is checked, a constant fallback by its value.
        if dialect.is_terraform() {
            if let Some((call, parts)) = self.try_parts(e) {
                let mut safety = Safety::Safe;
                for (arg, t) in call.args.iter().zip(parts) {
                    if let Some(t) = t {
                        safety = safety.min(self.check(arg, &t, expected, related.clone()));
                    }
                }
                return safety;
            }
        }
        // A Terraform conditional is one of its results: each one is
        // checked where it is (issue 34 item 6). Where the results' common
        // type converts, `validate` (the condition unknown) accepts it and
        // `plan` fails only where the condition picks a result that does
        // not: a warning there. Where it cannot convert, the whole is
        // checked below, as `validate` rejects it.
        let whole = convert_with(&actual.strip(Strip::Eventuals), expected, options(dialect));
        if dialect.is_terraform() && whole != Safety::None {
            if let Some((c, (a, b))) = self.conditional_parts(e) {
                let constant = match eval(&c.cond_expr, self.src) {
                    Ok(Value::Bool(b)) => Some(b),
                    _ => None,
                };
                let mut safety = Safety::Safe;
                let mut found = Vec::new();
                for (result, t, when) in [(&c.true_expr, a, true), (&c.false_expr, b, false)] {
                    if constant.is_some_and(|k| k != when) {
                        continue;
                    }
                    let before = self.diagnostics.len();
                    safety = safety.min(self.check(result, &t, expected, related.clone()));
                    found.push((before..self.diagnostics.len(), when));
                }
                // In a test file, where every result fails, `terraform test`
                // fails whatever the condition is (it knows it): errors stay
                // errors. Elsewhere the judge is `validate`, which accepts.
                let fails =
                    |r: &Range<usize>| self.diagnostics[r.clone()].iter().any(|d| d.severity == Severity::Error);
                let always = self.test_file.is_some() && found.iter().all(|(r, _)| fails(r));
                if constant.is_none() && !always {
                    for (r, when) in found {
                        for d in &mut self.diagnostics[r] {
                            if d.severity == Severity::Error {
                                d.severity = Severity::Warning;
                                d.message.push_str(&format!(
                                    " (Terraform's plan fails where the condition is {when}; validate accepts it)"
                                ));
                            }
                        }
                    }
                }
                return safety;
            }
        }
        let s = actual.strip(Strip::Eventuals);
        let mut safety = convert_with(&s, expected, options(dialect));
        // What go-cty alone makes impossible (a bool as a number, a lacking
        // required attribute, a list as a tuple) is judged by value on a
        // constant, at the offending element, as an unsafe conversion is.
        if safety == Safety::None && options(dialect).go_cty && eval(e, self.src).is_ok() {
            let lenient = ConvertOptions { go_cty: false, ..options(dialect) };
            if convert_with(&s, expected, lenient) != Safety::None {
                safety = Safety::Unsafe;
            }
        }
        let range = self.range(e);
        self.note(range.clone(), actual, Note::Checked(expected.clone(), safety));
        let with_related = |d: Diagnostic| match &related {
            Some(r) => d.with_related(r.clone()),
            None => d,
        };
        let constant = match eval(e, self.src) {
            Ok(v) => Some(v),
            Err(NotConstant::IntPrecision(..)) | Err(NotConstant::Dynamic(_)) => None,
        };
        // A constant is judged by its value wherever it meets a type (a
        // tfvars file, a deployment, a test's `variables`, a Terragrunt
        // unit's `inputs`, an argument): one code, `invalid-value`, at the
        // offending element (issue 43, last paragraph). A type mismatch
        // is the word for what is not a constant.
        let by_value = constant.as_ref().map(|v| check_value(v, expected, dialect.is_terraform()));
        match safety {
            Safety::None if by_value.as_ref().is_some_and(|vc| !vc.errors.is_empty()) => {
                for issue in by_value.into_iter().flat_map(|vc| vc.errors) {
                    let at = range_at(e, &issue.path, self.src);
                    self.report(with_related(Diagnostic::new(
                        Code::InvalidValue,
                        at,
                        format!("invalid value for `{}`: {}", expected.brief(), issue.message),
                    )));
                }
            }
            Safety::None => {
                let msg =
                    format!("a `{}` value cannot be used where `{}` is expected", actual.brief(), expected.brief());
                let msg = because(msg, &s, expected, dialect);
                self.report(with_related(Diagnostic::new(Code::TypeMismatch, range, msg)));
            }
            Safety::Unsafe | Safety::Safe => match constant {
                Some(_) => {
                    let vc = by_value.unwrap_or_default();
                    for issue in vc.errors {
                        let at = range_at(e, &issue.path, self.src);
                        self.report(with_related(Diagnostic::new(
                            Code::InvalidValue,
                            at,
                            format!("invalid value for `{}`: {}", expected.brief(), issue.message),
                        )));
                    }
                    if safety == Safety::Unsafe {
                        for issue in vc.implicit {
                            let at = range_at(e, &issue.path, self.src);
                            self.report(Diagnostic::new(Code::ImplicitConversion, at, issue.message));
                        }
                    }
                }
                None if safety == Safety::Unsafe && self.constant_elements(e, expected, &related) => {}
                None if safety == Safety::Unsafe => {
                    let msg = format!("`{}` may not convert to `{}` at run time", actual.brief(), expected.brief());
                    let msg = because(msg, &s, expected, dialect);
                    self.report(with_related(Diagnostic::new(Code::UnsafeConversion, range, msg)));
                }
                None => {}
            },
        }
        safety
    }

    /// A `for` whose element is a constant (`[for s in l : "true" if …]`)
    /// makes a collection of that constant: judged by value against the
    /// expected element type, as a constant is (issue 43.6: `"true"`
    /// converts to `bool`, `"maybe"` cannot). `false` when `e` is no such
    /// `for` (then the types judge it).
    fn constant_elements(&mut self, e: &Expression, expected: &Type, related: &Option<Related>) -> bool {
        let Expression::ForExpr(f) = e else { return false };
        let element = match (expected.kind(), &f.key_expr) {
            (Kind::List(t) | Kind::Set(t), None) => t,
            (Kind::Map(t), Some(_)) if !f.grouping => t,
            _ => return false,
        };
        let Ok(v) = eval(&f.value_expr, self.src) else { return false };
        let vc = check_value(&v, element, self.env.dialect().is_terraform());
        for issue in vc.errors {
            let at = range_at(&f.value_expr, &issue.path, self.src);
            let message = format!("invalid value for `{}`: {}", element.brief(), issue.message);
            let d = Diagnostic::new(Code::InvalidValue, at, message);
            self.report(match related {
                Some(r) => d.with_related(r.clone()),
                None => d,
            });
        }
        for issue in vc.implicit {
            let at = range_at(&f.value_expr, &issue.path, self.src);
            self.report(Diagnostic::new(Code::ImplicitConversion, at, issue.message));
        }
        true
    }
}
