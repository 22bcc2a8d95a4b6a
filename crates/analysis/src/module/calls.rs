//! A Terraform module call (or a PCL component) as a check site: each
//! argument against the called module's variable (config), as Terraform
//! checks it when it evaluates the call (its `Invalid value for input
//! variable`, `Missing required argument` and `Unsupported argument`).

use super::*;
use crate::calls::{is_local, Input, Interface};
use crate::infer::Note;

/// Arguments of a module block that are not the module's variables.
const META: [&str; 6] = ["source", "version", "count", "for_each", "providers", "depends_on"];

/// How a kind of call names itself and its inputs in messages.
pub(crate) struct Words {
    pub(crate) what: &'static str,
    pub(crate) input: &'static str,
}

const MODULE: Words = Words { what: "module", input: "variable" };
const COMPONENT: Words = Words { what: "component", input: "config" };

/// The checks of `module "NAME" { … }`.
pub(super) fn module_call(inf: &mut Infer, b: &Block, dialect: Dialect) {
    let name = b.labels.first().map(label_text).unwrap_or("");
    let callee = inf.env().callee(name);
    let bound = repetition(inf, &b.body);
    let interface = callee.as_ref().and_then(Callee::interface);
    let set: HashSet<&str> = b.body.attributes().map(|a| a.key.value().as_str()).collect();
    let source: String = match b.body.get_attribute("source").map(|s| eval(&s.value, inf.source())) {
        Some(Ok(Value::String(s))) => s,
        Some(Err(_)) => {
            b.body.get_attribute("source").map(|s| inf.source().slice(&s.value).to_string()).unwrap_or_default()
        }
        _ => String::new(),
    };
    // Terraform 1.15 evaluates `source` and `version` when it installs
    // modules, where only literals, const variables and `path` are known.
    let mut unresolved_const = false;
    for key in ["source", "version"] {
        if let Some(a) = b.body.get_attribute(key) {
            if eval(&a.value, inf.source()).is_err() {
                let known = if dialect == Dialect::OpenTofu {
                    inf.expr(&a.value);
                    static_refs(inf, &a.value, &format!("the module {key}"), Code::ModuleSource, &[])
                } else {
                    init_time(inf, a, key)
                };
                unresolved_const |= known && key == "source";
            }
        }
    }
    for a in b.body.attributes() {
        // `count` and `for_each` are checked above; the others are
        // constants, provider addresses and references to whole objects.
        let key = a.key.value().as_str();
        if META.contains(&key) {
            if key == "version" && is_local(&source) {
                // Terraform then reads the source as a registry address
                // and fails to load the call.
                let r = inf.range(&a.key);
                let msg = format!(
                    "`version` applies only to registry modules: with it Terraform reads `{source}` as a registry address and fails; remove `version`"
                );
                inf.report(Diagnostic::new(Code::UnsupportedArgument, r, msg));
            }
            continue;
        }
        let t = inf.expr(&a.value);
        if let Some(i) = interface {
            against_input(inf, a, &t, i, name, &source, &set, &MODULE);
        }
    }
    for nested in b.body.blocks() {
        match nested.ident.value().as_str() {
            "lifecycle" => lifecycle(inf, nested, dialect),
            _ => nested_body(inf, &nested.body, dialect),
        }
    }
    inf.unbind(bound);
    if let Some(i) = interface {
        super::provider_calls::at_call(inf, b, name, &i.providers);
    }
    match (&callee, interface) {
        (_, Some(i)) => missing(inf, b, i, name, &MODULE),
        (Some(Callee::NotInstalled), _) => {
            if let Some(s) = b.body.get_attribute("source") {
                let r = inf.range(&s.value);
                inf.report(Diagnostic::new(
                    Code::ModuleSource,
                    r,
                    "not installed: run `terraform init` to check this module's arguments and outputs",
                ));
            }
        }
        (Some(Callee::Unsaved), _) => {
            if let Some(s) = b.body.get_attribute("source") {
                let r = inf.range(&s.value);
                inf.report(Diagnostic::new(
                    Code::ModuleSource,
                    r,
                    "not followed: this document is not saved, so its module calls lead from no directory; save it to check this module's arguments and outputs",
                ));
            }
        }
        (Some(Callee::Opaque), _) if unresolved_const => {
            if let Some(s) = b.body.get_attribute("source") {
                let r = inf.range(&s.value);
                inf.report(Diagnostic::new(
                    Code::ModuleSource,
                    r,
                    "not followed: this source is built of KIND with no known value here (a default, \
                     `terraform.tfvars` or a `*.auto.tfvars` file); module `NAME`'s arguments and outputs are not checked"
                        .replace("NAME", name)
                        .replace(
                            "KIND",
                            if dialect == Dialect::OpenTofu { "variables and locals" } else { "const variables" },
                        ),
                ));
            }
        }
        (Some(Callee::Missing(dir)), _) => {
            if let Some(s) = b.body.get_attribute("source") {
                let r = inf.range(&s.value);
                let d = Diagnostic::new(
                    Code::ModuleSource,
                    r,
                    format!("no module at `{source}`: {} has no Terraform files", dir.display()),
                );
                inf.report(d.with_severity(Severity::Warning));
            }
        }
        _ => {}
    }
}

/// A module's `source` or `version` (`key`) that is not a constant string:
/// each reference in it must be one Terraform knows when it installs
/// modules (Terraform 1.15's `Invalid module source` / `Invalid module
/// version`). Whether it is built of const variables only (so that the call
/// is followed when their values are known).
fn init_time(inf: &mut Infer, a: &Attribute, key: &str) -> bool {
    inf.expr(&a.value);
    init_time_refs(inf, &a.value, key, "module", Code::ModuleSource)
}

/// The references of `e`, the `key` of a `what` (`module`, `provider`)
/// Terraform evaluates at init: const variables, locals and `path` only.
/// Each other one is a `code` error; whether all are const variables or
/// locals.
pub(super) fn init_time_refs(inf: &mut Infer, e: &Expression, key: &str, what: &str, code: Code) -> bool {
    let mut found = Vec::new();
    traversals(e, &mut found);
    let summary = format!("Invalid {what} {key}");
    let mut all_const = !found.is_empty();
    for t in found {
        let root = match &t.expr {
            Expression::Variable(v) => v.value().as_str(),
            _ => continue,
        };
        let attr = match t.operators.first().map(|o| o.value()) {
            Some(TraversalOperator::GetAttr(a)) => Some(a.value().as_str()),
            _ => None,
        };
        let r = inf.range(t);
        let msg = match (root, attr) {
            ("path", _) => {
                all_const = false;
                continue;
            }
            ("var", Some(name)) => match inf.env().is_const(name) {
                Some(false) => format!(
                    "Unknown {what} {key}: `var.{name}` is not a const variable, and only literal values and const variables (`const = true`) can be evaluated during init"
                ),
                // (An undeclared one is reported as such.)
                _ => continue,
            },
            // (A local built of literals and const variables is known.)
            ("local", Some(_)) => continue,
            _ => format!("{summary}: the {what} {key} can only reference constant input variables and local values"),
        };
        all_const = false;
        inf.report(Diagnostic::new(code, r, msg).with_severity(Severity::Error));
    }
    all_const
}

/// The traversals rooted at a name in `e` (not inside `for` expressions,
/// whose names may be bound).
pub(super) fn traversals<'a>(e: &'a Expression, out: &mut Vec<&'a hcl_edit::expr::Traversal>) {
    use hcl_edit::template::Element;
    match e {
        Expression::Traversal(t) => match &t.expr {
            Expression::Variable(_) => out.push(t),
            other => traversals(other, out),
        },
        Expression::StringTemplate(t) => {
            for el in t.iter() {
                if let Element::Interpolation(i) = el {
                    traversals(&i.expr, out);
                }
            }
        }
        Expression::Parenthesis(p) => traversals(p.inner(), out),
        Expression::Array(items) => items.iter().for_each(|i| traversals(i, out)),
        Expression::FuncCall(f) => f.args.iter().for_each(|a| traversals(a, out)),
        Expression::Conditional(c) => {
            traversals(&c.cond_expr, out);
            traversals(&c.true_expr, out);
            traversals(&c.false_expr, out);
        }
        Expression::UnaryOp(u) => traversals(&u.expr, out),
        Expression::BinaryOp(b) => {
            traversals(&b.lhs_expr, out);
            traversals(&b.rhs_expr, out);
        }
        _ => {}
    }
}

/// The checks of `component "NAME" "./DIR" { … }`: its arguments against
/// the component's `config`s (checked as every PCL site is, outputs looked
/// through).
pub(super) fn component_call(inf: &mut Infer, b: &Block) {
    let name = b.labels.first().map(label_text).unwrap_or("");
    let source = b.labels.get(1).map(label_text).unwrap_or("");
    let callee = inf.env().callee(name);
    let interface = callee.as_ref().and_then(Callee::interface);
    let set: HashSet<&str> = b.body.attributes().map(|a| a.key.value().as_str()).collect();
    // Pulumi binds the whole block, `options` too, in the scope with `range`.
    let bound = bind_range(inf, &b.body);
    for a in b.body.attributes() {
        let t = inf.expr(&a.value);
        if let Some(i) = interface {
            against_input(inf, a, &t, i, name, source, &set, &COMPONENT);
        }
    }
    for nested in b.body.blocks() {
        nested_body(inf, &nested.body, Dialect::Pcl);
    }
    inf.unbind(bound);
    if let Some(i) = interface {
        missing(inf, b, i, name, &COMPONENT);
    }
}

/// An argument against the input of the same name (or `unsupported-argument`).
/// (`set`: the arguments the call sets, never suggested for a misspelt one.)
#[allow(clippy::too_many_arguments)]
fn against_input(
    inf: &mut Infer,
    a: &Attribute,
    t: &Type,
    i: &Interface,
    call: &str,
    source: &str,
    set: &HashSet<&str>,
    w: &Words,
) {
    let key = a.key.value().as_str();
    match i.input(key) {
        Some(input) => {
            describe_input(inf, a, input, call, w);
            if let Some(why) = &input.deprecated {
                // Terraform 1.15: "Deprecated variable got a value".
                let msg = format!("{} `{key}` of `{call}` is deprecated: {why}", w.input);
                let d = Diagnostic::new(Code::Deprecated, inf.range(&a.key), msg).with_severity(Severity::Warning);
                inf.report(d);
            }
            argument(inf, a, t, input, call, w)
        }
        None => {
            let r = inf.range(&a.key);
            let mut msg = format!("{} `{call}` ({source}) has no {} `{key}`", w.what, w.input);
            let names = i.inputs.iter().map(|i| i.name.as_str()).filter(|n| !META.contains(n) && !set.contains(n));
            if let Some(s) = types::suggest::closest(key, names) {
                msg.push_str(&format!("; did you mean `{s}`?"));
            }
            inf.report(Diagnostic::new(Code::UnsupportedArgument, r, msg));
        }
    }
}

/// `missing-argument` (on the block's header) for each input without a
/// default that the call does not set.
fn missing(inf: &mut Infer, b: &Block, i: &Interface, call: &str, w: &Words) {
    let ident = inf.range(&b.ident);
    let header = ident.start..b.labels.last().map_or(ident.end, |l| inf.range(l).end);
    let given: HashSet<&str> = b.body.attributes().map(|a| a.key.value().as_str()).collect();
    for v in i.required_inputs().filter(|v| !given.contains(v.name.as_str())) {
        let d = Diagnostic::new(
            Code::MissingArgument,
            header.clone(),
            format!("{} `{call}` needs the argument `{}`: its {} has no default", w.what, v.name, w.input),
        );
        inf.report(d.with_related(Related {
            path: Some(v.path.clone()),
            range: v.name_range.clone(),
            message: format!("{} `{}` is declared here", w.input, v.name),
        }));
    }
}

/// What hover and definition show on an argument's name: the variable it
/// sets in the called module.
pub(crate) fn describe_input(inf: &mut Infer, a: &Attribute, input: &Input, call: &str, w: &Words) {
    if inf.record.is_some() {
        let range = inf.range(&a.key);
        describe_input_at(inf, range, input, call, w);
    }
}

/// [`describe_input`] at a name's `range` (an attribute of `inputs = { … }`).
pub(crate) fn describe_input_at(inf: &mut Infer, range: Range<usize>, input: &Input, call: &str, w: &Words) {
    if inf.record.is_none() {
        return;
    }
    let ty = input.declared.clone().unwrap_or_else(|| input.value.clone());
    let related = Related {
        path: Some(input.path.clone()),
        range: input.name_range.clone(),
        message: format!("{} `{}` of {} `{call}`", w.input, input.name, w.what),
    };
    inf.note(range.clone(), &ty, Note::Reference(Some(related)));
    if let Some(d) = &input.description {
        inf.note(range.clone(), &ty, Note::Doc(d.clone()));
    }
    if let Some(why) = &input.deprecated {
        // (Terraform 1.15's `deprecated`: hover says it where it is set.)
        inf.note(range.clone(), &ty, Note::Doc(format!("**Deprecated**: {why}")));
    }
    let default = match (&input.default, input.required) {
        (Some(d), _) => format!("Default: `{d}`"),
        (None, true) => format!("Required: the {} has no default.", w.input),
        (None, false) => return,
    };
    inf.note(range, &ty, Note::Doc(default));
}

/// One argument against the input it sets.
pub(crate) fn argument(inf: &mut Infer, a: &Attribute, t: &Type, input: &Input, call: &str, w: &Words) {
    // A value of type none (`null`, or a local holding it) is always null.
    if matches!(a.value, Expression::Null(_)) || t.is_none() {
        // null is "not set": a nullable variable takes it, a non-nullable
        // one takes its default instead, and without a default it is an error.
        if !input.nullable && input.required {
            let r = inf.range(&a.value);
            let msg = format!(
                "`{}` of {} `{call}` may not be null: its {} has `nullable = false` and no default",
                input.name, w.what, w.input
            );
            inf.report(Diagnostic::new(Code::InvalidValue, r, msg));
        }
        return;
    }
    let Some(declared) = &input.declared else { return };
    let related = Related {
        path: Some(input.path.clone()),
        range: input.type_range.clone().unwrap_or_else(|| input.name_range.clone()),
        message: format!("the type of {} `{}` in {} `{call}`", w.input, input.name, w.what),
    };
    inf.check(&a.value, t, declared, Some(related));
}
