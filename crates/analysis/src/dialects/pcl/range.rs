//! PCL's `options { range = EXPR }` on a `resource` or `component`: it
//! defines `range` in the block's body and makes the name a collection of
//! instances. Pulumi's binder is the judge (`bindComponent` in
//! pkg/codegen/pcl/binder_component.go of pulumi/pulumi): a bool makes the
//! component optional, a number a list with `range.value` an int, a map or
//! object a map with `range.key` a string, anything else a list.

use crate::infer::{iteration, Infer};
use crate::module::decls::Repeat;
use hcl_edit::expr::Expression;
use hcl_edit::structure::{Attribute, Body};
use types::{Kind, Type};

/// The `range` of a block's `options`, if any.
pub(crate) fn range_of(body: &Body) -> Option<&Attribute> {
    body.get_blocks("options").find_map(|o| o.body.get_attribute("range"))
}

/// Binds `range` (`{key, value}`) in the body of a block whose options have
/// a `range`, typed from EXPR as Pulumi's binder types it. Returns how many
/// names to unbind after the body.
pub(crate) fn bind_range(inf: &mut Infer, body: &Body) -> usize {
    let Some(r) = range_of(body) else { return 0 };
    let t = inf.expr(&r.value);
    let (k, v) = match t.eventual_element().kind() {
        Kind::Int | Kind::Number => (Type::int(), Type::int()),
        _ => iteration(&t),
    };
    inf.bind("range", Type::object([("key".to_string(), k), ("value".to_string(), v)]));
    1
}

/// How `range` repeats a component, decided where the names are declared,
/// before any expression is inferred: from EXPR's syntax alone. A literal
/// bool is [`Repeat::Enabled`] (Pulumi's `Option<T>`), a literal number or a
/// tuple (`[…]`, `[for …]`) [`Repeat::Count`] (`List<T>`), an object (`{…}`,
/// `{for … => …}`) [`Repeat::ForEach`] (`Map<T>`). Any other expression (a
/// `config`, a call) could be any of them: [`Repeat::Unknown`], so that no
/// use of the component is reported falsely.
pub(crate) fn component_repeat(body: &Body) -> Repeat {
    let Some(r) = range_of(body) else { return Repeat::One };
    match &r.value {
        Expression::Bool(_) => Repeat::Enabled,
        Expression::Number(_) | Expression::Array(_) => Repeat::Count,
        Expression::Object(_) => Repeat::ForEach,
        Expression::ForExpr(f) if f.key_expr.is_some() => Repeat::ForEach,
        Expression::ForExpr(_) => Repeat::Count,
        _ => Repeat::Unknown,
    }
}
