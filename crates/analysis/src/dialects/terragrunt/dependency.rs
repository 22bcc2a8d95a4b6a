//! `dependency "NAME" { config_path … }` in a Terragrunt unit
//! (docs/spec/terragrunt.md §7): `dependency.NAME.outputs` are the outputs
//! of the module the unit at `config_path` runs, read from its state
//! (`getTerragruntOutputIfAppliedElseConfiguredDefault` in
//! gruntwork-io/terragrunt `pkg/config/dependency.go`), so they are typed
//! by that module's `output` blocks, and `mock_outputs`, which stand in
//! for them before it is applied, are checked against them.

use crate::calls::Callee;
use crate::infer::Infer;
use crate::module::decls::{CallDecl, Repeat};
use crate::module::label_text;
use hcl_edit::expr::Expression;
use hcl_edit::structure::Block;
use syntax::constant::{eval, Source};
use syntax::diagnostic::{Code, Diagnostic, Related, Severity};
use types::value::Value;

/// A constant Terragrunt boolean or string argument of `b`.
fn constant(b: &Block, key: &str, src: Source<'_>) -> Option<Value> {
    eval(&b.body.get_attribute(key)?.value, src).ok()
}

/// Whether the dependency's outputs are the module's: not when
/// `skip_outputs = true` or `enabled = false` (the mocks, or nothing,
/// stand in: `shouldGetOutputs`, `isDisabled`), nor when the mocks are
/// merged with the state (`mock_outputs_merge_strategy_with_state`
/// `shallow` or `deep_map_only`: a key only the mocks have is there too).
fn typed(b: &Block, src: Source<'_>) -> bool {
    let skip = matches!(constant(b, "skip_outputs", src), Some(Value::Bool(true)));
    let disabled = matches!(constant(b, "enabled", src), Some(Value::Bool(false)));
    let merged = match b.body.get_attribute("mock_outputs_merge_strategy_with_state") {
        None => false,
        Some(a) => !matches!(eval(&a.value, src), Ok(Value::String(s)) if s == "no_merge"),
    };
    !skip && !disabled && !merged
}

/// The call of the module the dependency's unit runs: a constant local
/// `config_path` (relative to the unit's directory).
pub(crate) fn decl(b: &Block, src: Source<'_>) -> Option<CallDecl> {
    let name = b.labels.first().map(label_text)?;
    if !typed(b, src) {
        return None;
    }
    let a = b.body.get_attribute("config_path")?;
    let Ok(Value::String(path)) = eval(&a.value, src) else { return None };
    if path.is_empty() || std::path::Path::new(&path).is_absolute() || path.contains('#') {
        return None;
    }
    Some(CallDecl {
        name: crate::calls::dependency_call(name),
        name_range: src.range(&a.value),
        source: Some(format!("{}{path}", crate::calls::DEPENDENCY_OF)),
        template: None,
        repeat: Repeat::One,
        component: false,
    })
}

/// `mock_outputs = { … }` against the module's outputs: a key no output
/// declares is a warning (the real outputs never have it), a constant that
/// cannot become the output's type is the usual check site.
pub(crate) fn block(inf: &mut Infer, b: &Block) {
    let Some(name) = b.labels.first().map(label_text) else { return };
    if !typed(b, inf.source()) {
        return;
    }
    let Some(Callee::Module(i)) = inf.env().callee(&crate::calls::dependency_call(name)) else { return };
    let Some(Expression::Object(obj)) = b.body.get_attribute("mock_outputs").map(|a| &a.value) else { return };
    for (k, v) in obj.iter() {
        let key = match k {
            hcl_edit::expr::ObjectKey::Ident(id) => id.value().to_string(),
            hcl_edit::expr::ObjectKey::Expression(Expression::String(s)) => s.value().to_string(),
            _ => continue,
        };
        let Some(output) = i.output(&key).filter(|_| !key.starts_with('#')) else {
            let mut msg = format!(
                "the module of dependency `{name}` ({}) has no output `{key}`: this mock stands for nothing its \
                 state will have",
                i.dir.display()
            );
            let names = i.outputs.iter().map(|o| o.name.as_str()).filter(|n| !n.starts_with('#'));
            if let Some(s) = types::suggest::closest(&key, names) {
                msg.push_str(&format!("; did you mean `{s}`?"));
            }
            let r = inf.range(k);
            inf.report(Diagnostic::new(Code::UnsupportedArgument, r, msg).with_severity(Severity::Warning));
            continue;
        };
        let related = Related {
            path: Some(output.path.clone()),
            range: output.name_range.clone(),
            message: format!("output `{key}` of dependency `{name}`'s module"),
        };
        let expected = output.ty.clone();
        let reported = inf.diagnostics.len();
        let t = inf.expr(v.expr());
        inf.diagnostics.truncate(reported);
        inf.check(v.expr(), &t, &expected, Some(related));
    }
}
