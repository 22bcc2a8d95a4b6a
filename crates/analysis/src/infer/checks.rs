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

    /// A check site (analysis.md §3): `actual` (the type of `e`) against
    /// `expected`, eventuals looked through, refined by the value when `e`
    /// is a constant. Returns the conversion kind.
    pub fn check(&mut self, e: &Expression, actual: &Type, expected: &Type, related: Option<Related>) -> Safety {
        let dialect = self.env.dialect();
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
        match safety {
            Safety::None => {
                let msg =
                    format!("a `{}` value cannot be used where `{}` is expected", actual.brief(), expected.brief());
                let msg = because(msg, &s, expected, dialect);
                self.report(with_related(Diagnostic::new(Code::TypeMismatch, range, msg)));
            }
            Safety::Unsafe | Safety::Safe => {
                let constant = match eval(e, self.src) {
                    Ok(v) => Some(v),
                    Err(NotConstant::IntPrecision(..)) | Err(NotConstant::Dynamic(_)) => None,
                };
                match constant {
                    Some(v) => {
                        let vc = check_value(&v, expected, dialect == Dialect::Terraform);
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
                    None if safety == Safety::Unsafe => {
                        let msg = format!("`{}` may not convert to `{}` at run time", actual.brief(), expected.brief());
                        let msg = because(msg, &s, expected, dialect);
                        self.report(with_related(Diagnostic::new(Code::UnsafeConversion, range, msg)));
                    }
                    None => {}
                }
            }
        }
        safety
    }
}
