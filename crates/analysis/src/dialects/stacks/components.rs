//! Terraform Stacks' component files (`*.tfcomponent.hcl`, docs/spec/stacks.md):
//! plain HCL here, with the rules of Terraform's `internal/stacks/stackconfig`
//! that hold without the component modules.

use crate::calls::{Callee, Interface};
use crate::document::Document;
use crate::infer::{Infer, Space};
use crate::module::calls::{describe_input_at, Words};
use crate::module::decls::{CallDecl, Repeat};
use crate::module::env::View;
use crate::module::{item_source, label_text, shift, Shared, VarRef};
use hcl_edit::expr::Expression;
use hcl_edit::structure::Block;
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use syntax::constant::{eval, Source};
use syntax::diagnostic::{Code, Diagnostic, Related, Severity};
use syntax::Dialect;
use types::value::Value;
use types::{Kind, Type};

pub(crate) use crate::is_stack_component as is_component_file;

/// A stack's `variable` and `output` must have `type`: it is `Required: true`
/// in `inputVariableBlockSchema` (input_variable.go) and `outputValueBlockSchema`
/// (output_value.go), so Terraform rejects the block ("Missing required argument")
/// where a module's variable would take any value.
pub(crate) fn block(inf: &mut Infer, b: &Block) {
    let what = match b.ident.value().as_str() {
        "variable" => "variable",
        "output" => "output",
        _ => return,
    };
    if b.labels.len() != 1 || b.body.has_attribute("type") {
        return;
    }
    let ident = inf.range(&b.ident);
    let header = ident.start..b.labels.last().map_or(ident.end, |l| inf.range(l).end);
    let name = b.labels.first().map(label_text).unwrap_or("");
    let msg = format!("a stack's {what} needs `type`: `{what} \"{name}\"` has none, and Terraform requires it");
    inf.report(Diagnostic::new(Code::MissingArgument, header, msg));
}

/// The call name of `component "NAME"`: `#` keeps it out of what a
/// reference can name (as a test's run calls are kept), since the stack's
/// `component.NAME` is not Terraform's `module.NAME`.
use crate::calls::component_call as call_name;

/// The call a stack's `component "NAME" { source = "…" }` declares: the
/// module at `source`, resolved as a module call's (analysis.md §6).
pub(crate) fn component_decl(b: &Block, src: Source<'_>) -> Option<CallDecl> {
    let label = b.labels.first()?;
    let source = b.body.get_attribute("source").and_then(|a| match eval(&a.value, src) {
        Ok(Value::String(s)) => Some(s),
        _ => None,
    });
    Some(CallDecl {
        name: call_name(label_text(label)),
        name_range: src.range(label),
        source,
        template: None,
        // `for_each` makes a map of instances (Stacks has no `count`):
        // `component.NAME[each.key].OUT`, `for x in component.NAME`.
        repeat: if b.body.has_attribute("for_each") { Repeat::ForEach } else { Repeat::One },
        component: false,
    })
}

/// `component "NAME" { source  inputs = { … } }`: each input against the
/// variable of the same name in the component's module, as a module call's
/// arguments are (Terraform's stackeval hands `inputs` to the module's root
/// variables: "Invalid value for input variable", "Unsupported argument",
/// "Missing required argument"). Only an `inputs` written as an object
/// constructor is checked input by input.
pub(crate) fn component(inf: &mut Infer, b: &Block, dialect: Dialect) {
    let name = b.labels.first().map(label_text).unwrap_or("");
    let interface = match inf.env().callee(&call_name(name)) {
        Some(Callee::Module(i)) => Some(i),
        _ => None,
    };
    let source = match b.body.get_attribute("source").map(|a| eval(&a.value, inf.source())) {
        Some(Ok(Value::String(s))) => s,
        _ => String::new(),
    };
    for a in b.body.attributes() {
        let key = a.key.value().as_str();
        let (Some(i), "inputs", Expression::Object(obj)) = (&interface, key, &a.value) else {
            inf.expr(&a.value);
            continue;
        };
        let who = format!("component `{name}`");
        let given = inputs(inf, obj, i, &who, name, &source, Site::Component);
        let header = inf.range(&b.ident).start..b.labels.last().map_or(inf.range(&b.ident).end, |l| inf.range(l).end);
        for v in i.required_inputs().filter(|v| !given.contains(&v.name)) {
            let msg = format!("component `{name}` needs the input `{}`: its variable has no default", v.name);
            let related = Related {
                path: Some(v.path.clone()),
                range: v.name_range.clone(),
                message: format!("variable `{}` is declared here", v.name),
            };
            inf.report(Diagnostic::new(Code::MissingArgument, header.clone(), msg).with_related(related));
        }
    }
    for nested in b.body.blocks() {
        crate::module::checks::body(inf, &nested.body, dialect, false);
    }
}

/// Where `inputs = { … }` hands values to a module.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Site<'a> {
    /// A stack's component: Terraform converts each value to its variable's
    /// type. A name that is no variable is an `unsupported-argument`
    /// *warning*, not an error: Terraform converts the whole `inputs` object
    /// to an object type of the module's variables
    /// (`EvalComponentInputVariables` in hashicorp/terraform
    /// `internal/stacks/stackruntime/internal/stackeval/expressions.go`), and
    /// cty's object-to-object conversion drops attributes the target type
    /// lacks (`conversionObjectToObject` in zclconf/go-cty
    /// `cty/convert/conversion_object.go`), so the value is silently unused.
    Component,
    /// A Terragrunt unit (terragrunt.md §2): the values were inferred already
    /// (a top-level attribute of plain HCL is, as a name), so inferring them
    /// again must not report their diagnostics twice; unknown names are
    /// ignored; and a `string` variable takes any value, as Terraform reads a
    /// string variable's `TF_VAR_` text literally (`ParsingMode` literal).
    /// The names held are checked elsewhere: an `include` takes part in
    /// their value (terragrunt.md §3).
    Terragrunt(&'a HashSet<String>),
}

/// Each attribute of `obj` (an `inputs = { … }`) against the variable of the
/// same name in `i`: its value is a check site of the variable's type.
/// Returns the names given.
pub(crate) fn inputs(
    inf: &mut Infer,
    obj: &hcl_edit::expr::Object,
    i: &Interface,
    who: &str,
    call: &str,
    source: &str,
    site: Site<'_>,
) -> HashSet<String> {
    let typed = matches!(site, Site::Terragrunt(_));
    let elsewhere = match site {
        Site::Terragrunt(names) => Some(names),
        Site::Component => None,
    };
    let mut given = HashSet::default();
    for (k, v) in obj.iter() {
        let input_name = match k {
            hcl_edit::expr::ObjectKey::Ident(id) => id.value().to_string(),
            hcl_edit::expr::ObjectKey::Expression(Expression::String(s)) => s.value().to_string(),
            _ if typed => continue,
            _ => {
                inf.expr(v.expr());
                continue;
            }
        };
        let reported = inf.diagnostics.len();
        let t = inf.expr(v.expr());
        if typed {
            inf.diagnostics.truncate(reported);
        }
        match i.input(&input_name) {
            Some(input) => {
                let w = Words { what: if typed { "module" } else { "component" }, input: "variable" };
                let r = inf.range(k);
                describe_input_at(inf, r, input, call, &w);
                let literal = typed && matches!(input.declared.as_ref().map(Type::kind), Some(Kind::String));
                let merged = elsewhere.is_some_and(|n| n.contains(&input_name));
                if let Some(declared) = input.declared.as_ref().filter(|_| !literal && !merged) {
                    let related = Related {
                        path: Some(input.path.clone()),
                        range: input.type_range.clone().unwrap_or_else(|| input.name_range.clone()),
                        message: format!("the type of variable `{input_name}` in {who}"),
                    };
                    inf.check(v.expr(), &t, declared, Some(related));
                }
            }
            None if matches!(site, Site::Component) => {
                let r = inf.range(k);
                let mut msg =
                    format!("{who} ({source}) has no variable `{input_name}`, so Terraform ignores this value");
                let names = i.inputs.iter().map(|i| i.name.as_str());
                if let Some(s) = types::suggest::closest(&input_name, names) {
                    msg.push_str(&format!("; did you mean `{s}`?"));
                }
                inf.report(Diagnostic::new(Code::UnsupportedArgument, r, msg).with_severity(Severity::Warning));
            }
            None => {}
        }
        given.insert(input_name);
    }
    given
}

use crate::dialects::stacks::is_deployment_file;

/// `deployment "NAME" { inputs = { … } }` in a `.tfdeploy.hcl` file: each
/// input is a value of the stack's variable of the same name (the
/// component files' `variable` blocks, in the same directory and so the
/// same unit here), checked against its type. The block was typed already
/// (by `check_block`), so the values' own diagnostics are not reported
/// again. Names no variable declares and required variables left out are
/// [`deployments`]' (they depend on every variable of the stack).
pub(crate) fn deployment(
    inf: &mut Infer,
    view: &View,
    path: &std::path::Path,
    b: &Block,
    vars: &HashMap<&str, (&VarRef, Option<Related>)>,
) {
    if b.ident.value().as_str() != "deployment" || !is_deployment_file(path) {
        return;
    }
    let Some(Expression::Object(obj)) = b.body.get_attribute("inputs").map(|a| &a.value) else { return };
    for (k, v) in obj.iter() {
        let name = match k {
            hcl_edit::expr::ObjectKey::Ident(id) => id.value().to_string(),
            hcl_edit::expr::ObjectKey::Expression(Expression::String(s)) => s.value().to_string(),
            _ => continue,
        };
        view.lookups.borrow_mut().push((Space::Var, name.clone()));
        let Some((var, related)) = vars.get(name.as_str()) else { continue };
        // (A typed variable's related place is its file: a stack's
        // variables are the component files', see [`deployments`].)
        let stacked = related.as_ref().and_then(|r| r.path.as_deref()).is_some_and(is_component_file);
        let Some(declared) = var.decl.declared.as_ref().filter(|_| stacked) else { continue };
        let reported = inf.diagnostics.len();
        let t = inf.expr(v.expr());
        inf.diagnostics.truncate(reported);
        inf.check(v.expr(), &t, declared, related.clone());
    }
}

/// Whether a module holds a deployment file: its names are checked
/// against all of the stack's variables ([`deployments`]), which no item's
/// remembered check follows, so the module is analysed in full after each
/// edit (stacks are small).
pub(crate) fn deploys(docs: &[Document]) -> bool {
    docs.iter().any(|d| is_deployment_file(&d.file.path))
}

/// Each deployment's `inputs` against the stack's variables: those that
/// Terraform reads, in the `.tfcomponent.hcl` files (`validFilenameSuffix`
/// in hashicorp/terraform `internal/stacks/stackconfig/file.go`: a file of
/// another suffix, such as the beta's `.tfstack.hcl`, is skipped when the
/// stack's directory is read, `stack.go`).
///
/// - A required variable (no `default`) that a deployment leaves out is
///   Terraform's "No value for required variable" (`CheckValue` in
///   `internal/stacks/stackruntime/internal/stackeval/input_variable.go`):
///   an error at the deployment's header.
/// - A name no variable declares is a warning: the deployment docs say the
///   keys "must correspond to the names of the variables", but Terraform's
///   stack runtime looks values up by declared variable only
///   (`RootVariableValue` in `stackeval/main.go`), so the value is unused.
///
/// Only an `inputs` written as an object constructor is checked.
pub(crate) fn deployments(docs: &[Document], vars: &[VarRef], diagnostics: &mut [Shared<Vec<Diagnostic>>]) {
    if !deploys(docs) {
        return;
    }
    let stack: Vec<&VarRef> =
        vars.iter().filter(|v| docs.get(v.doc).is_some_and(|d| is_component_file(&d.file.path))).collect();
    if stack.is_empty() {
        // No component file here: not a stack this unit can judge.
        return;
    }
    for (di, doc) in docs.iter().enumerate().filter(|(_, d)| is_deployment_file(&d.file.path)) {
        let mut found = Vec::new();
        for item in doc.items.iter() {
            let Some(body) = item.body(&doc.file.text) else { continue };
            let src = item_source(doc, item);
            let at = item.range.start;
            for b in body.blocks().filter(|b| b.ident.value().as_str() == "deployment") {
                let name = b.labels.first().map(label_text).unwrap_or("").to_string();
                let ident = src.range(&b.ident);
                let header = ident.start..b.labels.last().map_or(ident.end, |l| src.range(l).end);
                let Some(Expression::Object(obj)) = b.body.get_attribute("inputs").map(|a| &a.value) else {
                    continue;
                };
                let mut given = HashSet::default();
                for (k, _) in obj.iter() {
                    let key = match k {
                        hcl_edit::expr::ObjectKey::Ident(id) => id.value().to_string(),
                        hcl_edit::expr::ObjectKey::Expression(Expression::String(s)) => s.value().to_string(),
                        _ => continue,
                    };
                    if !stack.iter().any(|v| v.decl.name == key) {
                        let mut msg =
                            format!("the stack has no variable `{key}`, so Terraform does not use this value");
                        if let Some(s) = types::suggest::closest(&key, stack.iter().map(|v| v.decl.name.as_str())) {
                            msg.push_str(&format!("; did you mean `{s}`?"));
                        }
                        let d = Diagnostic::new(Code::UnsupportedArgument, shift(&src.range(k), at), msg);
                        found.push(d.with_severity(Severity::Warning));
                    }
                    given.insert(key);
                }
                let mut missing: Vec<&&VarRef> =
                    stack.iter().filter(|v| v.decl.required && !given.contains(&v.decl.name)).collect();
                missing.sort_by_key(|v| v.decl.name.as_str());
                missing.dedup_by_key(|v| v.decl.name.as_str());
                for v in missing {
                    let msg = format!(
                        "deployment `{name}` needs the input `{}`: the stack's variable has no default",
                        v.decl.name
                    );
                    let related = Related {
                        path: docs.get(v.doc).map(|d| d.file.path.clone()),
                        range: shift(&v.decl.name_range, v.start),
                        message: format!("variable `{}` is declared here", v.decl.name),
                    };
                    found.push(Diagnostic::new(Code::MissingArgument, shift(&header, at), msg).with_related(related));
                }
            }
        }
        if let Some(ds) = diagnostics.get_mut(di) {
            ds.extend(found);
        }
    }
}
