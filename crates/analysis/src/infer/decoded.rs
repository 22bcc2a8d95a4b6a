//! What a conditional's results are as Terraform holds them, where our
//! types say less (issue 44 item 5, analysis.md §9.1):
//!
//! - `jsondecode(file(PATH))` with a constant `PATH` (or
//!   `"${path.module}/…"`): the file is read (by `project`, through the
//!   environment) and the value typed as go-cty's `json.ImpliedType` types
//!   it: objects, tuples, `number`, `string`, `bool`, `null` of unknown
//!   type.
//! - `{ for … : K => V }`: HCL builds an *object* whose attributes each have
//!   their element's own type (hashicorp/hcl `hclsyntax/expression.go`,
//!   `ForExpr.Value`: `cty.ObjectVal`), which our `map(V)` hides when the
//!   elements differ in type. Unified with another result (go-cty
//!   `convert/unify.go`), objects of different attributes become a map
//!   whose elements must unify.
//! - `var.NAME` of `type = any` where it keeps its default: the default's
//!   type.
//! - `jsondecode(file(var.NAME))` where `var.NAME` keeps its constant
//!   default (`default = "cfg.json"`) in a root module: the default's
//!   file, decoded (issue 44.5: `var.f != "" ? jsondecode(file(var.f)) : {}`
//!   fails at `plan` where the default is used, Terraform 1.11 checked).

use super::*;

/// go-cty's `json.ImpliedType` of a JSON value.
fn implied(v: &serde_json::Value) -> Type {
    use serde_json::Value as J;
    match v {
        J::Null => Type::none(),
        J::Bool(_) => Type::bool(),
        J::Number(_) => Type::number(),
        J::String(_) => Type::string(),
        J::Array(items) => Type::tuple(items.iter().map(implied).collect()),
        J::Object(attrs) => Type::object(attrs.iter().map(|(k, v)| (k.clone(), implied(v)))),
    }
}

/// A `for` expression with a key whose elements may differ in type: their
/// types, and whether every one of them surely occurs (the collection's
/// type lists its elements: a tuple or an object).
#[derive(Clone, Debug)]
pub(super) struct ForElements {
    pub types: Vec<Type>,
    pub all_occur: bool,
}

fn unparen(e: &Expression) -> &Expression {
    match e {
        Expression::Parenthesis(p) => unparen(p.inner()),
        _ => e,
    }
}

impl<'e, 's> Infer<'e, 's> {
    /// `jsondecode(file(PATH))` of a file the module ships: its implied
    /// type (`None` when the path is not constant or the file not JSON).
    pub(super) fn decoded_file(&self, args: &[&Expression]) -> Option<Type> {
        let [Expression::FuncCall(inner)] = args else { return None };
        if !guards::is_call(inner, "file") || inner.args.len() != 1 {
            return None;
        }
        let path = self.template_path(inner.args.iter().next()?)?;
        let text = self.env.read_file(&path)?;
        serde_json::from_str::<serde_json::Value>(&text).ok().as_ref().map(implied)
    }

    /// `jsondecode(file(var.NAME))` where `var.NAME` keeps a default that
    /// names a JSON file the module ships ([`Env::var_default_path`]): the
    /// variable's name, its default and the decoded value's implied type.
    pub(super) fn decoded_default(&self, e: &Expression) -> Option<(String, String, Type)> {
        let Expression::FuncCall(call) = unparen(e) else { return None };
        let Some(Expression::FuncCall(inner)) = call.args.iter().next().filter(|_| call.args.len() == 1) else {
            return None;
        };
        if !guards::is_call(call, "jsondecode") || !guards::is_call(inner, "file") || inner.args.len() != 1 {
            return None;
        }
        let name = self.var_name(inner.args.iter().next()?)?;
        let default = self.env.var_default_path(&name)?;
        let text = self.env.read_file(&self.module_path(&default)?)?;
        let ty = serde_json::from_str::<serde_json::Value>(&text).ok().as_ref().map(implied)?;
        Some((name, default, ty))
    }

    /// `NAME` of `var.NAME` (no `var` of a `for` or function in scope).
    fn var_name(&self, e: &Expression) -> Option<String> {
        let Expression::Traversal(t) = unparen(e) else { return None };
        let Expression::Variable(root) = &t.expr else { return None };
        let [op] = t.operators.as_slice() else { return None };
        let TraversalOperator::GetAttr(name) = op.value() else { return None };
        if root.value().as_str() != "var" || self.scope.iter().any(|(n, _)| n == "var") {
            return None;
        }
        Some(name.value().to_string())
    }

    /// Records a `{ for … }` whose elements' types differ (see the module
    /// comment), by its range.
    pub(super) fn record_for_elements(&mut self, f: &ForExpr, coll: &Type, value: &Type) {
        if f.key_expr.is_none() || f.grouping || !self.env.dialect().is_terraform() {
            return;
        }
        let types: Vec<Type> = match value.kind() {
            Kind::Union(ms) => ms.iter().filter(|m| !m.is_none()).cloned().collect(),
            _ => return,
        };
        if types.len() < 2 {
            return;
        }
        let all_occur = matches!(coll.kind(), Kind::Tuple(_) | Kind::Object(_))
            && matches!(&f.value_expr, Expression::Variable(v) if *v.value() == *f.intro.value_var.value());
        let range = self.range(f);
        self.for_elements.insert(range, ForElements { types, all_occur });
    }

    /// A conditional's result as Terraform holds it, when that says more
    /// than our type: a `{ for … }` of elements of different types as an
    /// object of one attribute per type (and whether every such element
    /// surely occurs).
    pub(super) fn held_result(&self, e: &Expression, t: &Type) -> Option<(Type, bool)> {
        let Expression::ForExpr(_) = unparen(e) else { return None };
        let found = self.for_elements.get(&self.range(unparen(e)))?;
        let attrs = found.types.iter().enumerate().map(|(i, t)| (format!("\0{i}"), t.clone()));
        let _ = t;
        Some((Type::object(attrs), found.all_occur))
    }

    /// `var.NAME` of type `any` that has a non-null default: its name and
    /// the default's type.
    pub(super) fn any_with_default(&self, e: &Expression) -> Option<(String, Type)> {
        let name = self.var_name(e)?;
        let d = self.env.var_default(&name)?;
        Some((name, d))
    }

    /// Terraform's unification of `c ? a : b` where a result is held as
    /// more than its type says (see [`Self::held_result`],
    /// [`Self::any_with_default`]): a result pair with no common type is
    /// "Inconsistent conditional result types", an error where it fails for
    /// every input, a warning naming the input otherwise.
    pub(super) fn held_conditional(&mut self, c: &hcl_edit::expr::Conditional, a: &Type, b: &Type) {
        if self.suppress > 0 {
            return;
        }
        let held = |inf: &Self, e: &Expression, t: &Type| -> (Type, Option<String>, bool) {
            if let Some((h, all)) = inf.held_result(e, t) {
                return (h, Some("where the `for` yields elements of different types".into()), all);
            }
            if let Some((name, path, d)) = inf.decoded_default(e) {
                return (d, Some(format!("where `var.{name}` keeps its default, the file `{path}`")), false);
            }
            if let Some((name, d)) = inf.any_with_default(e) {
                return (d.clone(), Some(format!("where `var.{name}` keeps its default, a `{}`", d.brief())), false);
            }
            (t.clone(), None, true)
        };
        let (ha, wa, alla) = held(self, &c.true_expr, a);
        let (hb, wb, allb) = held(self, &c.false_expr, b);
        let Some(when) = wa.or(wb) else { return };
        let Err(why) = types::cty::conditional(&ha, &hb) else { return };
        let every = alla && allb;
        let range = self.range(&c.true_expr).start..self.range(&c.false_expr).end;
        let show = |t: &Type| t.brief().replace('\0', "");
        let why = why.replace('\0', "");
        let msg = format!(
            "inconsistent conditional result types {when}: the true result `{}` and the false result `{}` have no \
             common type in Terraform ({why})",
            show(&ha),
            show(&hb)
        );
        let sev = if every { Severity::Error } else { Severity::Warning };
        self.report(Diagnostic::new(Code::TypeMismatch, range, msg).with_severity(sev));
    }
}
