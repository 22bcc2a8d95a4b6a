//! Terraform test mocks (Terraform 1.7): `mock_provider` blocks of a test
//! file, the `*.tfmock.hcl` files a `mock_provider { source = DIR }` reads,
//! and `override_resource` / `override_data` / `override_module` blocks
//! (file level, in a run, in a mock provider). Their forms:
//! `internal/configs/mock_provider.go` of hashicorp/terraform
//! (`mockDataSchema`, `mockResourceSchema`, `decodeOverrideBlock`).
//!
//! A mock's `defaults` and an override's `values` give the **computed**
//! attributes of the resource or data source (`populateComputedValues` in
//! internal/moduletest/mocking/values.go): each value must convert to its
//! attribute's type ("Failed to compute attribute" in `makeKnown`); the
//! value must be an object ("Invalid values attribute"); a key the schema
//! lacks, or a non-computed attribute, is never read. Terraform 1.11's
//! `terraform test` (the aws provider mocked) agrees on all four.

use crate::calls::Callee;
use crate::infer::Infer;
use crate::module::checks::nested_body;
use crate::module::{label_text, literal_key};
use hcl_edit::expr::{Expression, TraversalOperator};
use hcl_edit::structure::Block;
use schema::{BlockKind, BlockSchema};
use std::ops::Range;
use std::sync::Arc;
use syntax::diagnostic::{Code, Diagnostic, Related, Severity};
use syntax::Dialect;
use types::Type;

pub use crate::dialects::tftest::is_mock_file;

/// A block of a mock file or inside a `mock_provider`: `mock_resource`,
/// `mock_data`, `override_resource`, `override_data` (and, in a test file,
/// `override_module`). Whether it was one.
pub(crate) fn block(inf: &mut Infer, b: &Block) -> bool {
    match b.ident.value().as_str() {
        "mock_resource" | "mock_data" => {
            let kind = BlockKind::of_data(b.ident.value().as_str() == "mock_data");
            let ty = b.labels.first().map(label_text).unwrap_or("");
            // (`override_during = plan` is a keyword.)
            for a in b.body.attributes().filter(|a| a.key.value().as_str() == "defaults") {
                values(inf, &a.value, kind, ty);
            }
        }
        "override_resource" | "override_data" => {
            let data = b.ident.value().as_str() == "override_data";
            let ty = b.body.get_attribute("target").and_then(|t| target_type(&t.value, data));
            for a in b.body.attributes().filter(|a| a.key.value().as_str() == "values") {
                match &ty {
                    Some(ty) => values(inf, &a.value, BlockKind::of_data(data), ty),
                    None => {
                        inf.expr(&a.value);
                    }
                }
            }
        }
        // The outputs of a module the module under test calls: an object
        // ("Invalid outputs attribute" in internal/moduletest/mocking/overrides.go),
        // against that module's outputs where it is known.
        "override_module" => {
            let target = b.body.get_attribute("target").and_then(|t| module_path(&t.value));
            let callee = target.as_deref().and_then(|path| overridden(inf, path));
            for a in b.body.attributes().filter(|a| a.key.value().as_str() == "outputs") {
                match (&callee, &a.value, &target) {
                    (Some(i), Expression::Object(o), Some(path)) => outputs(inf, o, i, path),
                    _ => {
                        let t = inf.expr(&a.value);
                        not_object(
                            inf,
                            &a.value,
                            &t,
                            "the overridden outputs of a module",
                            "Invalid outputs attribute",
                        );
                    }
                }
            }
        }
        _ => return false,
    }
    true
}

/// `mock_provider "NAME" { alias, source, override_during, … }`: its
/// blocks as a mock file's.
pub(crate) fn provider(inf: &mut Infer, b: &Block) {
    for nested in b.body.blocks() {
        if !block(inf, nested) {
            nested_body(inf, &nested.body, Dialect::Terraform);
        }
    }
}

/// The module path an `override_module`'s `target` names: `a` for
/// `module.a` or `module.a[0]`, `a.b` for `module.a.module.b` (the module
/// addresses `decodeOverrideModuleBlock` accepts).
pub(crate) fn module_path(e: &Expression) -> Option<String> {
    let Expression::Traversal(t) = e else { return None };
    let Expression::Variable(root) = &t.expr else { return None };
    if root.value().as_str() != "module" {
        return None;
    }
    let (mut names, mut named) = (Vec::new(), false);
    for op in t.operators.iter() {
        match op.value() {
            TraversalOperator::GetAttr(a) if !named => {
                names.push(a.value().to_string());
                named = true;
            }
            TraversalOperator::GetAttr(a) if a.value().as_str() == "module" => named = false,
            TraversalOperator::Index(_) | TraversalOperator::LegacyIndex(_) if named => {}
            _ => return None,
        }
    }
    named.then(|| names.join("."))
}

/// The interface of the module an `override_module` in this place (the
/// file, or the run being checked) overrides, when known: what the module
/// of the run (the module under test at file level) calls as `path`.
fn overridden(inf: &Infer, path: &str) -> Option<Arc<crate::calls::Interface>> {
    let root = match &inf.run {
        Some((run, _)) => crate::calls::run_call(inf.test_file.as_deref().unwrap_or(""), run),
        None => crate::calls::TESTED.to_string(),
    };
    match inf.env().callee(&crate::calls::override_call(&root, path))? {
        Callee::Module(i) => Some(i),
        _ => None,
    }
}

/// An `override_module`'s `outputs = { … }` against the outputs of module
/// `path` (`i`). Terraform reads the value of each output the module
/// declares, and no other key (`getOverrideValue` in
/// internal/terraform/node_output.go; an output left out is null). It takes
/// the value as it is, not converted to the output's `type`, so a value that
/// can never be of a declared type is a warning: it fails, if at all, where
/// the module under test uses it (Terraform 1.11: "Invalid function
/// argument" in the caller, the run failing).
fn outputs(inf: &mut Infer, o: &hcl_edit::expr::Object, i: &crate::calls::Interface, path: &str) {
    let address: Vec<String> = path.split('.').map(|n| format!("module.{n}")).collect();
    let address = address.join(".");
    each_key(inf, o, |inf, key, name, value, t| match i.output(&name).filter(|_| !name.starts_with('#')) {
        Some(out) if out.typed && !matches!(value, Expression::Null(_)) => {
            let before = inf.diagnostics.len();
            let related = Related {
                path: Some(out.path.clone()),
                range: out.name_range.clone(),
                message: format!("output `{name}` of `{address}` is declared here"),
            };
            inf.check(value, t, &out.ty, Some(related));
            for d in inf.diagnostics[before..].iter_mut().filter(|d| d.severity == Severity::Error) {
                d.severity = Severity::Warning;
                d.message.push_str(&format!(
                        " (Terraform does not convert an overridden output: the run may fail where the module under test uses `{address}.{name}`)"
                    ));
            }
        }
        Some(_) => {}
        None => {
            let mut msg = format!("`{address}` has no output `{name}`: Terraform never reads this value");
            let names = i.outputs.iter().map(|o| o.name.as_str()).filter(|n| !n.starts_with('#'));
            if let Some(s) = types::suggest::closest(&name, names) {
                msg.push_str(&format!("; did you mean `{s}`?"));
            }
            let d = Diagnostic::new(Code::UnsupportedArgument, key, msg);
            inf.report(d.with_severity(Severity::Warning));
        }
    });
}

/// The resource type an override's `target` names: `TYPE.NAME`,
/// `data.TYPE.NAME`, with an index or under `module.NAME…` (what
/// `addrs.ParseTarget` reads).
fn target_type(e: &Expression, data: bool) -> Option<String> {
    let Expression::Traversal(t) = e else { return None };
    let Expression::Variable(root) = &t.expr else { return None };
    let mut names = vec![root.value().to_string()];
    for op in t.operators.iter() {
        if let TraversalOperator::GetAttr(a) = op.value() {
            names.push(a.value().to_string());
        }
    }
    let mut rest = &names[..];
    while let [m, _, tail @ ..] = rest {
        if m != "module" {
            break;
        }
        rest = tail;
    }
    match (data, rest) {
        (true, [d, ty, _]) if d == "data" => Some(ty.clone()),
        (false, [ty, _]) if ty != "data" => Some(ty.clone()),
        _ => None,
    }
}

/// `defaults` or `values` (`e`) for resource (or data source) type `ty`,
/// against its schema when one is known.
fn values(inf: &mut Infer, e: &Expression, kind: BlockKind, ty: &str) {
    let schemas = inf.env().schemas();
    let Some(found) = schemas.as_ref().and_then(|s| s.find_kind(kind, ty)) else {
        inf.expr(e);
        return;
    };
    let what = format!("{} `{ty}`", kind.noun());
    let Expression::Object(o) = e else {
        let t = inf.expr(e);
        not_object(inf, e, &t, &format!("the mocked values of {what}"), "Invalid values attribute");
        return;
    };
    each_key(inf, o, |inf, key, name, value, t| attribute(inf, key, &name, value, t, found.block, &what));
}

/// Each entry of object `o`, its value inferred: `f` with the key's range
/// and name, the value and its type, for a key that is a name or literal
/// (another key is only inferred).
fn each_key(
    inf: &mut Infer,
    o: &hcl_edit::expr::Object,
    mut f: impl FnMut(&mut Infer, Range<usize>, String, &Expression, &Type),
) {
    for (key, value) in o.iter() {
        let value = value.expr();
        let t = inf.expr(value);
        match literal_key(key) {
            Some(name) => f(inf, inf.range(key), name, value, &t),
            None => {
                if let hcl_edit::expr::ObjectKey::Expression(k) = key {
                    inf.expr(k);
                }
            }
        }
    }
}

/// One key of mocked values against the schema's attribute of that name.
fn attribute(
    inf: &mut Infer,
    range: Range<usize>,
    name: &str,
    value: &Expression,
    t: &Type,
    schema: &BlockSchema,
    what: &str,
) {
    let unread = |inf: &mut Infer, msg: String| {
        inf.report(Diagnostic::new(Code::UnsupportedArgument, range.clone(), msg).with_severity(Severity::Warning))
    };
    match (schema.attribute(name), schema.block(name)) {
        (Some(attr), _) if attr.computed => {
            // `fillType` adds what an object lacks: only types without
            // objects are checked as they are.
            if !has_object(&attr.ty) && !matches!(value, Expression::Null(_)) {
                inf.check(value, t, &attr.ty, None);
            }
        }
        (Some(_), _) => unread(
            inf,
            format!("`{name}` of {what} is not computed: Terraform takes it from the configuration and never reads this value"),
        ),
        // A nested block's values: one object for every block.
        (None, Some(_)) => {}
        (None, None) => {
            let mut msg = format!("{what} has no attribute `{name}`: Terraform never reads this value");
            let names = schema.attributes.iter().filter(|a| a.computed).map(|a| a.name.as_str());
            if let Some(s) = types::suggest::closest(name, names) {
                msg.push_str(&format!("; did you mean `{s}`?"));
            }
            unread(inf, msg);
        }
    }
}

/// `e` (of type `t`), which must be an object: a `type-mismatch` when it
/// never is (Terraform's `summary`).
fn not_object(inf: &mut Infer, e: &Expression, t: &Type, what: &str, summary: &str) {
    use types::Kind::{Bool, Int, List, Number, Set, String, Tuple};
    if matches!(t.kind(), Bool | Int | Number | String | List(_) | Set(_) | Tuple(_)) {
        let msg = format!("{what} must be an object, not `{t}` (Terraform: \"{summary}\")");
        inf.report(Diagnostic::new(Code::TypeMismatch, inf.range(e), msg));
    }
}

/// Whether `t` holds an object type anywhere.
fn has_object(t: &Type) -> bool {
    match t.kind() {
        types::Kind::Object(_) => true,
        types::Kind::List(e) | types::Kind::Set(e) | types::Kind::Map(e) => has_object(e),
        types::Kind::Tuple(es) | types::Kind::Union(es) => es.iter().any(has_object),
        _ => false,
    }
}
