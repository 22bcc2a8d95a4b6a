//! The type to declare on a variable that has none (or `type = any`):
//! the hint's message from the default alone (module-local), and the
//! quick fix's type from every value the variable is known to receive:
//! its default, its `.tfvars` values and its callers' arguments
//! (terraform-ls#1476, issue 32 item 4). The values are typed as literals:
//! a tfvars value is one, and a caller's argument that reads a name has no
//! type here (the caller's own analysis checks it against what is declared).

use super::env::Empty;
use super::*;

/// The hint on a Terraform variable without `type` (terraform-ls#1476): any
/// value is accepted. When its default says what it holds, the message
/// names the type to declare (`ide::quick_fix` writes it).
pub(super) fn missing_type(name: &str, range: std::ops::Range<usize>, default: &Type) -> Diagnostic {
    let message = match declarable(default).filter(|t| !t.is_any()) {
        Some(t) => {
            format!("variable `{name}` has no `type`, so any value is accepted; its default suggests `type = {t}`")
        }
        None => format!("variable `{name}` has no `type`, so any value is accepted"),
    };
    Diagnostic::new(Code::MissingType, range, message)
}

/// `t` as a Terraform type expression can write it: `int` is `number`, a
/// tuple of one element type a list of it; `None` for what Terraform has no
/// words for.
pub fn declarable(t: &Type) -> Option<Type> {
    Some(match t.kind() {
        Kind::Int => Type::number(),
        // PCL's `id` is a string to Terraform.
        Kind::Id => Type::string(),
        Kind::Bool | Kind::Number | Kind::String | Kind::Any => t.clone(),
        Kind::List(e) => Type::list(declarable(e)?),
        Kind::Set(e) => Type::set(declarable(e)?),
        Kind::Map(e) => Type::map(declarable(e)?),
        Kind::Tuple(ts) => {
            let ts = ts.iter().map(declarable).collect::<Option<Vec<_>>>()?;
            match ts.first() {
                Some(first) if ts.iter().all(|x| x == first) => Type::list(first.clone()),
                _ => Type::tuple(ts),
            }
        }
        Kind::Object(attrs) => {
            let attrs = attrs.iter().map(|(k, v)| Some((k.clone(), declarable(v)?))).collect::<Option<Vec<_>>>()?;
            Type::object(attrs)
        }
        Kind::None | Kind::Union(_) | Kind::Promise(_) | Kind::Output(_) => return None,
    })
}

/// An untyped variable's type from a value: what the value shows, except
/// that empty collections and null say nothing about what else is passed
/// (`default = {}` takes any map), so they become `any`-typed.
pub(super) fn generalize(t: &Type) -> Type {
    match t.kind() {
        Kind::None => Type::any(),
        Kind::Object(attrs) if attrs.is_empty() => Type::map(Type::any()),
        Kind::Tuple(ts) if ts.is_empty() => Type::list(Type::any()),
        _ => t.map_children(generalize),
    }
}

/// Whether a variable's default is a placeholder: `""`, `{}`, `[]` or
/// `null`, written so the argument may be left out, not to say what the
/// variable holds. Terraform types an untyped variable by the value it
/// gets (`internal/configs/named_values.go`: no `type` is
/// `cty.DynamicPseudoType`, and the default is converted only to a
/// declared type), so a placeholder types nothing: an untyped variable
/// with one is `any` for traversals and suggests no `type`
/// (analysis.md §3.2, untyped variables).
pub fn placeholder(e: &hcl_edit::expr::Expression) -> bool {
    use hcl_edit::expr::Expression as E;
    match e {
        E::Null(_) => true,
        E::String(s) => s.value().is_empty(),
        E::Array(a) => a.is_empty(),
        E::Object(o) => o.is_empty(),
        E::StringTemplate(t) => t.is_empty(),
        E::Parenthesis(p) => placeholder(p.inner()),
        _ => false,
    }
}

/// The type of a value given to a variable (a default, a tfvars value, a
/// caller's argument) in `item` of `doc`, read as a literal: a name read
/// has type `any`.
pub fn value_type(doc: &Document, item: &Item, e: &hcl_edit::expr::Expression) -> Type {
    generalize(&Infer::new(&Empty(doc.file.dialect), doc.source(item)).expr(e))
}

/// The type to declare for a variable given `values` (see [`value_type`]):
/// the type every one of them converts to (go-cty's `unify`, as Terraform
/// unifies a collection's elements), in words Terraform has. Values of no
/// known type (`any`: a name read) are left out; `None` when nothing is
/// left, when the values have no common type, or when the type says
/// nothing: `any` itself, or for `narrowing` (the variable has
/// `type = any`) any `any` inside, since `map(any)` would refuse the mixed
/// values `any` accepts.
pub fn suggested_type(values: &[Type], narrowing: bool) -> Option<Type> {
    let known: Vec<Type> = values.iter().filter(|t| !t.is_any()).filter_map(declarable).collect();
    let t = declarable(&types::cty::unify(&known)?)?;
    let vague = if narrowing { types::contains_any(&t) } else { t.is_any() };
    (!vague).then_some(t)
}
