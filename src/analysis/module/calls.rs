//! A Terraform module call as a check site: each argument against the
//! called module's variable, as Terraform checks it when it evaluates the
//! call (its `Invalid value for input variable`, `Missing required
//! argument` and `Unsupported argument`).

use super::*;
use crate::analysis::calls::Input;

/// Arguments of a module block that are not the module's variables.
const META: [&str; 6] = ["source", "version", "count", "for_each", "providers", "depends_on"];

/// The checks of `module "NAME" { … }`.
pub(super) fn module_call(inf: &mut Infer, b: &Block, dialect: Dialect) {
    let name = b.labels.first().map(label_text).unwrap_or("");
    let callee = inf.env().callee(name);
    let bound = repetition(inf, &b.body);
    let interface = callee.as_ref().and_then(Callee::interface);
    let source: String = match b.body.get_attribute("source").map(|s| eval(&s.value, inf.source())) {
        Some(Ok(Value::String(s))) => s,
        _ => String::new(),
    };
    for a in b.body.attributes() {
        let key = a.key.value().as_str();
        // `count` and `for_each` are checked above; the others are
        // constants, provider addresses and references to whole objects.
        if META.contains(&key) {
            continue;
        }
        let t = inf.expr(&a.value);
        let Some(i) = interface else { continue };
        match i.input(key) {
            Some(input) => argument(inf, a, &t, input, name),
            None => {
                let r = inf.range(&a.key);
                let mut msg = format!("module `{name}` ({source}) has no variable `{key}`");
                let names = i.inputs.iter().map(|i| i.name.as_str()).filter(|n| !META.contains(n));
                if let Some(s) = crate::suggest::closest(key, names) {
                    msg.push_str(&format!("; did you mean `{s}`?"));
                }
                inf.report(Diagnostic::new(Code::UnsupportedArgument, r, msg));
            }
        }
    }
    for nested in b.body.blocks() {
        body(inf, &nested.body, dialect, false);
    }
    inf.unbind(bound);
    let header =
        inf.range(&b.ident).start..b.labels.last().map_or_else(|| inf.range(&b.ident).end, |l| inf.range(l).end);
    match (&callee, interface) {
        (_, Some(i)) => {
            let given: HashSet<&str> = b.body.attributes().map(|a| a.key.value().as_str()).collect();
            let missing: Vec<&Input> =
                i.inputs.iter().filter(|v| v.required && !given.contains(v.name.as_str())).collect();
            for v in missing {
                let mut d = Diagnostic::new(
                    Code::MissingArgument,
                    header.clone(),
                    format!("module `{name}` needs the argument `{}`: its variable has no default", v.name),
                );
                d = d.with_related(Related {
                    path: Some(v.path.clone()),
                    range: v.name_range.clone(),
                    message: format!("variable `{}` is declared here", v.name),
                });
                inf.report(d);
            }
        }
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

/// One argument against the variable it sets.
fn argument(inf: &mut Infer, a: &Attribute, t: &Type, input: &Input, call: &str) {
    let is_null = matches!(a.value, Expression::Null(_));
    if is_null {
        // null is "not set": a nullable variable takes it, a non-nullable
        // one takes its default instead, and without a default it is an error.
        if !input.nullable && input.required {
            let r = inf.range(&a.value);
            inf.report(Diagnostic::new(
                Code::InvalidValue,
                r,
                format!(
                    "`{}` of module `{call}` may not be null: its variable has `nullable = false` and no default",
                    input.name
                ),
            ));
        }
        return;
    }
    let Some(declared) = &input.declared else { return };
    let related = Related {
        path: Some(input.path.clone()),
        range: input.type_range.clone().unwrap_or_else(|| input.name_range.clone()),
        message: format!("the type of `var.{}` in module `{call}`", input.name),
    };
    inf.check(&a.value, t, declared, Some(related));
}
