//! A Terraform test file's check sites (docs/spec/tests.md), as `terraform
//! test` evaluates them (internal/moduletest): the file's and each run's
//! `variables` against the variables of the module the run tests (its
//! "Invalid value for input variable"), `assert` conditions (bool: its
//! "Invalid condition run") and error messages (string), and
//! `expect_failures` (checkable objects only).

use crate::calls::{run_call, Callee, Interface, TESTED};
use crate::infer::Infer;
use crate::module::calls::{argument, describe_input, Words};
use crate::module::checks::nested_body;
use crate::module::label_text;
use hcl_edit::expr::{Expression, TraversalOperator};
use hcl_edit::structure::{Attribute, Block, Structure};
use std::sync::Arc;
use syntax::diagnostic::{Code, Diagnostic, Severity};
use syntax::Dialect;
use types::Type;

const RUN: Words = Words { what: "run", input: "variable" };
const FILE: Words = Words { what: "module under test", input: "variable" };

/// The interface of the module a call of the test file leads to.
fn interface_of(inf: &Infer, call: &str) -> Option<Arc<Interface>> {
    match inf.env().callee(call)? {
        Callee::Module(i) => Some(i),
        _ => None,
    }
}

/// The file-level `variables { … }`: each value a module variable of the
/// same name takes, checked against it; other names are test-only
/// variables (`var.NAME` in the file), unchecked.
pub(crate) fn file_variables(inf: &mut Infer, b: &Block) {
    let tested = interface_of(inf, TESTED);
    let shown = tested.as_ref().map(|i| shown_dir(i)).unwrap_or_default();
    for a in b.body.attributes() {
        let t = inf.expr(&a.value);
        let Some(i) = &tested else { continue };
        if let Some(input) = i.input(a.key.value().as_str()) {
            describe_input(inf, a, input, &shown, &FILE);
            argument(inf, a, &t, input, &shown, &FILE);
        }
    }
    for nested in b.body.blocks() {
        nested_body(inf, &nested.body, Dialect::Terraform);
    }
}

/// How the module under test is named in messages: its directory's name.
fn shown_dir(i: &Interface) -> String {
    i.dir.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| i.dir.display().to_string())
}

/// `run "NAME" { … }`.
pub(crate) fn run(inf: &mut Infer, b: &Block) {
    let name = b.labels.first().map(label_text).unwrap_or("").to_string();
    let call = run_call(inf.test_file.as_deref().unwrap_or(""), &name);
    let module = interface_of(inf, &call);
    // The variables the run's assertions name: Terraform passes a run's
    // variable the module does not declare to them, and warns only when
    // nothing uses it.
    let asserted: String = b.body.get_blocks("assert").map(|a| inf.source().slice(a).to_string()).collect();
    let set = b.body.get_blocks("variables").flat_map(|v| v.body.attributes().map(|a| a.key.value().to_string()));
    inf.run = Some((name.clone(), set.collect()));
    for s in b.body.iter() {
        match s {
            Structure::Attribute(a) => match a.key.value().as_str() {
                // Keywords (`plan`, `apply`) and provider addresses.
                "command" | "providers" => {}
                "expect_failures" => expect_failures(inf, a, module.as_deref()),
                _ => {
                    inf.expr(&a.value);
                }
            },
            Structure::Block(nested) => match nested.ident.value().as_str() {
                "variables" => run_variables(inf, nested, module.as_deref(), &name, &asserted),
                "assert" => {
                    inf.tested = Some(call.clone());
                    assertion(inf, nested);
                    inf.tested = None;
                }
                // `source` and `version`: constants; `plan_options`: keywords and addresses.
                "module" | "plan_options" => {}
                "override_resource" | "override_data" | "override_module" => {
                    super::mocks::block(inf, nested);
                }
                _ => nested_body(inf, &nested.body, Dialect::Terraform),
            },
        }
    }
    inf.run = None;
}

/// A run's `variables { … }`: against the run's module; a name it does not
/// declare is Terraform's warning "Value for undeclared variable", unless
/// the run's assertions use it.
fn run_variables(inf: &mut Infer, b: &Block, module: Option<&Interface>, run: &str, asserted: &str) {
    for a in b.body.attributes() {
        let t = inf.expr(&a.value);
        let Some(i) = module else { continue };
        let key = a.key.value().as_str();
        match i.input(key) {
            Some(input) => {
                describe_input(inf, a, input, run, &RUN);
                argument(inf, a, &t, input, run, &RUN);
            }
            None if !names_var(asserted, key) => {
                let mut msg = format!("the module under test of run `{run}` declares no variable `{key}`");
                if let Some(s) = types::suggest::closest(key, i.inputs.iter().map(|i| i.name.as_str())) {
                    msg.push_str(&format!("; did you mean `{s}`?"));
                }
                let d = Diagnostic::new(Code::UnsupportedArgument, inf.range(&a.key), msg);
                inf.report(d.with_severity(Severity::Warning));
            }
            None => {}
        }
    }
    for nested in b.body.blocks() {
        nested_body(inf, &nested.body, Dialect::Terraform);
    }
}

/// Whether `text` holds the reference `var.NAME`.
fn names_var(text: &str, name: &str) -> bool {
    let needle = format!("var.{name}");
    let ident = |c: char| c.is_alphanumeric() || c == '_' || c == '-';
    text.match_indices(&needle).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + needle.len()..].chars().next();
        !before.is_some_and(|c| ident(c) || c == '.') && !after.is_some_and(ident)
    })
}

/// `assert { condition = …  error_message = … }`.
fn assertion(inf: &mut Infer, b: &Block) {
    for a in b.body.attributes() {
        let t = inf.expr(&a.value);
        match a.key.value().as_str() {
            // Terraform: "Condition expression must return either true or
            // false, not null".
            "condition" if t.is_none() => {
                let msg = "this condition is always null: an assertion's condition must be true or false";
                inf.report(Diagnostic::new(Code::InvalidValue, inf.range(&a.value), msg));
            }
            "condition" => {
                inf.check(&a.value, &t, &Type::bool(), None);
            }
            "error_message" => {
                inf.check(&a.value, &t, &Type::string(), None);
            }
            _ => {}
        }
    }
    for nested in b.body.blocks() {
        nested_body(inf, &nested.body, Dialect::Terraform);
    }
}

/// `expect_failures = [var.x, output.y, check.z, aws_s3_bucket.b]`: only
/// checkable objects (Terraform's "Invalid `expect_failures` reference");
/// a variable or output the module does not declare can never fail.
fn expect_failures(inf: &mut Infer, a: &Attribute, module: Option<&Interface>) {
    let Expression::Array(items) = &a.value else {
        inf.expr(&a.value);
        return;
    };
    for e in items.iter() {
        let (root, first) = match e {
            Expression::Traversal(t) => match &t.expr {
                Expression::Variable(v) => {
                    let first = t.operators.first().and_then(|o| match o.value() {
                        TraversalOperator::GetAttr(n) => Some(n.value().to_string()),
                        _ => None,
                    });
                    (v.value().to_string(), first)
                }
                _ => (String::new(), None),
            },
            Expression::Variable(v) => (v.value().to_string(), None),
            _ => (String::new(), None),
        };
        let range = inf.range(e);
        let what = match root.as_str() {
            "var" | "output" | "check" | "data" => None,
            "" => Some("this is not a reference".to_string()),
            "local" => Some("a local value".to_string()),
            "module" => Some("a module call".to_string()),
            "run" => Some("a run block".to_string()),
            "count" | "each" | "path" | "terraform" | "self" => Some(format!("`{root}`")),
            // TYPE.NAME: a managed resource.
            _ if first.is_some() => None,
            _ => Some(format!("`{root}` (a resource needs `TYPE.NAME`)")),
        };
        if let Some(what) = what {
            let msg = format!(
                "`expect_failures` names {what}: only checkable objects can fail (input variables, output values, check blocks, managed resources and data sources)"
            );
            inf.report(Diagnostic::new(Code::InvalidValue, range, msg));
            continue;
        }
        let (Some(i), Some(name)) = (module, first) else { continue };
        let known = match root.as_str() {
            "var" => i.input(&name).is_some(),
            "output" => i.output(&name).is_some(),
            _ => true,
        };
        if !known {
            let space = if root == "var" { "variable" } else { "output" };
            let msg = format!(
                "the module under test declares no {space} `{name}`: the expected failure can never happen, so the run fails"
            );
            inf.report(Diagnostic::new(Code::UndefinedReference, range, msg).with_severity(Severity::Warning));
        }
    }
}
