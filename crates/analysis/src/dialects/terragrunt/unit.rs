//! A Terragrunt unit (`terragrunt.hcl`, docs/spec/terragrunt.md §2): its
//! `inputs` are handed to the module that `terraform { source }` names, as
//! `TF_VAR_` values (gruntwork-io/terragrunt `pkg/config/config.go`,
//! `TerraformConfig.Source`; inputs in `internal/runner/run/run.go`
//! `ToTerraformEnvVars`), so Terraform converts each to its variable's type
//! at plan and rejects what does not convert.

use crate::calls::{Callee, Context};
use crate::document::Document;
use crate::infer::{Env, Infer};
use crate::module::decls::{CallDecl, Repeat};
use crate::module::label_text;
use hcl_edit::expr::Expression;
use hcl_edit::structure::{Attribute, Block};
use rustc_hash::FxHashSet as HashSet;
use syntax::constant::{eval, Source};
use syntax::diagnostic::{Code, Diagnostic, Related};
use types::value::Value;
use types::Kind;

/// The call of the unit's module (not a name any reference can reach).
use crate::calls::TERRAGRUNT as CALL;

/// The call of the unit's own directory: without `terraform { source }`
/// Terragrunt runs Terraform in the unit's directory, on the `.tf` files
/// beside `terragrunt.hcl` (terragrunt's `test/fixtures/inputs`).
use crate::calls::TERRAGRUNT_DIR as OWN_DIR;

/// What a unit's `inputs` declare: a call of its own directory, used when
/// no `terraform { source }` is declared (see [`inputs`]).
pub(crate) fn own_dir_decl(name_range: std::ops::Range<usize>) -> CallDecl {
    CallDecl {
        name: OWN_DIR.to_string(),
        name_range,
        source: Some("./".to_string()),
        template: None,
        repeat: Repeat::One,
        component: false,
    }
}

/// `terraform { source = "…" }` as a call: a local path relative to the
/// unit's directory ([`local_source`]). A source that is not a constant
/// string (`"${get_repo_root()}/modules/app"`) is still declared, not
/// followed: the unit's own `source` wins over its includes' and its
/// directory (§2, §3).
pub(crate) fn terraform_decl(b: &Block, src: Source<'_>) -> Option<CallDecl> {
    let a = b.body.get_attribute("source")?;
    // (A remote source is declared as written: its callee is not
    // installed, and the unit's `inputs` say so, see [`inputs`]. An
    // absolute path is not followed.)
    let source = match eval(&a.value, src) {
        Ok(Value::String(s)) if s.is_empty() || std::path::Path::new(&s).is_absolute() => None,
        Ok(Value::String(s)) => Some(local_source(&s).unwrap_or(s)),
        _ => None,
    };
    Some(CallDecl {
        name: CALL.to_string(),
        name_range: src.range(&a.value),
        source,
        template: None,
        repeat: Repeat::One,
        component: false,
    })
}

/// A constant `source` that is a path relative to the unit's directory, as
/// a call source: Terragrunt's `//` (the module's subdirectory within what
/// is copied) read as one `/`, and `"."` the unit's own directory
/// (terragrunt's `test/fixtures/null-values`). `None` for another source.
fn local_source(s: &str) -> Option<String> {
    match s {
        "." | ".." => Some(format!("{s}/")),
        _ => crate::calls::is_local(s).then(|| s.replace("//", "/")),
    }
}

/// The unit's top-level `inputs = { … }`: each attribute against the
/// module's variable of the same name. Unknown names are not errors
/// (Terraform ignores a `TF_VAR_` value no variable declares) and missing
/// ones are not either (an `include`d file or the environment may give them).
pub(crate) fn inputs(inf: &mut Infer, unit: &super::merge::Unit, a: &Attribute) {
    // A declared `terraform { source }` wins, even one not followed (a
    // remote source); else the unit's own directory is the module.
    // (Every declared call has a callee, `Opaque` for a source not followed.)
    // A remote module is not followed: one hint, as for a module call that
    // `terraform init` has not installed (issue 30).
    if matches!(unit.module, Some(Callee::NotInstalled)) {
        let r = inf.range(&a.key);
        let msg = "not followed: this unit's module (its `terraform { source }` or an include's) is remote \
                   or built at run time, so these inputs are not checked against its variables; a local path is \
                   followed";
        inf.report(Diagnostic::new(Code::ModuleSource, r, msg));
        return;
    }
    let (Expression::Object(obj), Some(Callee::Module(i))) = (&a.value, &unit.module) else { return };
    let source = i.dir.display().to_string();
    // A name an include takes part in is checked at that include, merged.
    let merged = unit.merged.as_deref().unwrap_or_default();
    let elsewhere: HashSet<String> = merged.iter().filter(|m| !m.from.is_empty()).map(|m| m.name.clone()).collect();
    let site = crate::dialects::stacks::components::Site::Terragrunt(&elsewhere);
    crate::dialects::stacks::components::inputs(inf, obj, i, "the unit's module", &source, &source, site);
}

/// Terragrunt's merge strategies of an `include` (`MergeStrategyType` in
/// gruntwork-io/terragrunt `pkg/config/config.go`; `shallow` when unset).
const STRATEGIES: [&str; 3] = ["no_merge", "shallow", "deep"];

/// An `include "LABEL" { path  merge_strategy }`'s strategy, as written
/// (`shallow` when unset or not a constant string).
pub(crate) fn strategy(b: &Block, src: Source<'_>) -> String {
    match b.body.get_attribute("merge_strategy").map(|a| eval(&a.value, src)) {
        Some(Ok(Value::String(s))) => s,
        _ => "shallow".to_string(),
    }
}

/// The file an include's `path` names, as its call's source (resolved by
/// `workspace::included_file`):
/// - `find_in_parent_folders("FILE")` (any fallback aside; no argument is
///   `terragrunt.hcl`): `#parent:FILE`;
/// - `"${dirname(find_in_parent_folders("FILE"))}/REST"`, the shape of
///   Terragrunt's `_envcommon` examples: `#parent:FILE#dir:/REST`, REST
///   beside the file found;
/// - `"${get_terragrunt_dir()}/REST"` or a constant: a path relative to the
///   unit's directory.
///
/// A path built otherwise is not followed.
pub(crate) fn include_source(e: &Expression, src: Source<'_>) -> Option<String> {
    if let Some(file) = parent_call(e, src) {
        return Some(format!("{}{file}", crate::calls::PARENT));
    }
    if let Expression::StringTemplate(t) = e {
        use hcl_edit::template::Element;
        let mut elements = t.iter();
        let Some(Element::Interpolation(first)) = elements.next() else { return None };
        let mut rest = String::new();
        for el in elements {
            let Element::Literal(l) = el else { return None };
            rest.push_str(l.value());
        }
        if !rest.starts_with('/') {
            return None;
        }
        let Expression::FuncCall(call) = &first.expr else { return None };
        let mut args = call.args.iter();
        return match (call.name.name.value().as_str(), args.next(), args.next()) {
            ("dirname", Some(inner), None) => {
                let file = parent_call(inner, src)?;
                Some(format!("{}{file}{}{rest}", crate::calls::PARENT, crate::calls::BESIDE))
            }
            ("get_terragrunt_dir", None, None) => Some(format!(".{rest}")),
            _ => None,
        };
    }
    match eval(e, src) {
        Ok(Value::String(s)) if !s.is_empty() && !s.starts_with('#') => Some(s),
        _ => None,
    }
}

/// The file of a `find_in_parent_folders("FILE")` call (no argument is
/// `terragrunt.hcl`, Terragrunt's default).
fn parent_call(e: &Expression, src: Source<'_>) -> Option<String> {
    let Expression::FuncCall(call) = e else { return None };
    if call.name.is_namespaced() || call.name.name.value().as_str() != "find_in_parent_folders" {
        return None;
    }
    match call.args.iter().next().map(|a| eval(a, src)) {
        None => Some("terragrunt.hcl".to_string()),
        Some(Ok(Value::String(s))) if !s.is_empty() && !s.contains('#') => Some(s),
        Some(_) => None,
    }
}

/// The call an `include "LABEL" { path = … }` of a unit declares: the
/// plain HCL module of the directory of the file it names, whose file's
/// `inputs` the unit merges into its own (terragrunt.md §3).
///
/// With it, `#include:LABEL#exposed` for an include with `expose = true`
/// (the same file, readable as `include.LABEL`), and the module the
/// included file's `terraform { source }` names,
/// seen from the unit (`#include-source:LABEL`, resolved by
/// `workspace::included_terraform`): the unit's module when the unit has
/// no `source` of its own (see [`module`]).
pub(crate) fn include_decl(b: &Block, src: Source<'_>) -> Vec<CallDecl> {
    let label = b.labels.first().map(label_text).unwrap_or("");
    let Some(path) = b.body.get_attribute("path") else { return Vec::new() };
    let source = include_source(&path.value, src);
    let call = |name: String, source: Option<String>| CallDecl {
        name,
        name_range: src.range(&path.value),
        source,
        template: None,
        repeat: Repeat::One,
        component: false,
    };
    let of = source.as_ref().map(|s| format!("{}{s}", crate::calls::SOURCE_OF));
    let exposed = matches!(b.body.get_attribute("expose").map(|a| eval(&a.value, src)), Some(Ok(Value::Bool(true))));
    let mut calls = vec![call(crate::calls::include_source_call(label), of)];
    if exposed {
        calls.push(call(crate::calls::exposed_call(label), source.clone()));
    }
    calls.push(call(crate::calls::include_call(label), source));
    calls
}

/// Where an included file's `terraform { source }` leads, seen from the
/// including unit.
#[derive(Debug, PartialEq)]
pub(crate) enum IncludedSource {
    /// A path as an include's call source (see `include_source`):
    /// relative to the unit's directory, or `#parent:FILE#dir:/REST`.
    Local(String),
    /// A remote source, or one built otherwise: not followed.
    NotFollowed,
}

/// The `terraform { source }` of an included file's text, if it has one.
/// Terragrunt evaluates the included file in the unit's context
/// (`find_in_parent_folders` "will search from the child `terragrunt.hcl`",
/// docs `04-reference/01-hcl/04-functions.mdx`) and resolves a local source
/// against the unit's directory (`tf.NewSource(…, opts.UnitDir, …)` in
/// `internal/runner/run/download_source.go`), so the shapes an include's
/// `path` may take mean the same here.
pub(crate) fn terraform_source_in(text: &str) -> Option<IncludedSource> {
    let body = syntax::deep::parse_body(text).ok()?;
    let b = body.blocks().filter(|b| b.ident.value().as_str() == "terraform").last()?;
    let a = b.body.get_attribute("source")?;
    let src = Source::new(text, 0);
    let local = match eval(&a.value, src) {
        Ok(Value::String(s)) => local_source(&s),
        _ => include_source(&a.value, src).filter(|s| !s.contains('?')).map(|s| s.replace("//", "/")),
    };
    Some(local.map_or(IncludedSource::NotFollowed, IncludedSource::Local))
}

/// The unit's module (Terragrunt's merged `terraform { source }`, `Merge` /
/// `DeepMerge` in `pkg/config/include.go`: the child's `source` wins, so the
/// unit's own, else the last merged include's that sets one), else the
/// unit's own directory.
pub(crate) fn module(env: &dyn Env, incs: &[super::merge::Include]) -> Option<Callee> {
    let labels: Vec<(&str, &str)> = incs.iter().map(|i| (i.label.as_str(), i.strategy.as_str())).collect();
    module_of(|call| env.callee(call), &labels)
}

/// [`module`] with the callees `callee` gives, for the unit's includes
/// (label, strategy) in file order.
fn module_of(callee: impl Fn(&str) -> Option<Callee>, incs: &[(&str, &str)]) -> Option<Callee> {
    if let Some(own) = callee(CALL) {
        return Some(own);
    }
    for (label, _) in incs.iter().rev().filter(|(_, strategy)| *strategy != "no_merge") {
        // A file not followed may name the module: not known.
        if !matches!(callee(&crate::calls::include_call(label)), Some(Callee::Module(_))) {
            return None;
        }
        match callee(&crate::calls::include_source_call(label)) {
            None | Some(Callee::Opaque) => continue,
            found => return found,
        }
    }
    callee(OWN_DIR)
}

/// The module a Terragrunt unit `doc` runs, from its module's calls
/// `context` (for the editor: completion of its `inputs`).
pub fn terragrunt_module(context: &Context, doc: &Document) -> Option<Callee> {
    let incs = super::merge::include_blocks(doc);
    let labels: Vec<(&str, &str)> = incs.iter().map(|(l, s)| (l.as_str(), s.as_str())).collect();
    module_of(|call| context.callee(call).cloned(), &labels)
}

/// `include "LABEL" { path  merge_strategy }` in a unit: the value of each
/// input this include is the first (in file order) to take part in reaches
/// the unit's module as Terragrunt merges it (see `terragrunt_merge`), so
/// it is checked against its variable here (the one file may be included
/// by units of different modules; its value is named in the diagnostic).
/// A value the unit's own sets alone is checked at the unit's `inputs`. An
/// unknown strategy is Terragrunt's error (`GetMergeStrategy`,
/// `InvalidMergeStrategyTypeError` in `pkg/config/include.go`).
pub(crate) fn include(inf: &mut Infer, unit: &super::merge::Unit, b: &Block) {
    let label = b.labels.first().map(label_text).unwrap_or("");
    let header = {
        let ident = inf.range(&b.ident);
        ident.start..b.labels.last().map_or(ident.end, |l| inf.range(l).end)
    };
    let strategy = strategy(b, inf.source());
    if let Some(a) = b.body.get_attribute("merge_strategy") {
        if !STRATEGIES.contains(&strategy.as_str()) && matches!(eval(&a.value, inf.source()), Ok(Value::String(_))) {
            let msg =
                format!("`{strategy}` is not a merge strategy of Terragrunt: it takes `no_merge`, `shallow` or `deep`");
            let r = inf.range(&a.value);
            inf.report(Diagnostic::new(Code::InvalidValue, r, msg));
        }
    }
    let incs = &unit.incs;
    let Some(Callee::Module(module)) = &unit.module else { return };
    let Some(me) = unit.position(label) else { return };
    for m in unit.first_in(me) {
        let name = &m.name;
        let Some(input) = module.input(name) else { continue };
        let Some(declared) = &input.declared else { continue };
        // A string variable reads its `TF_VAR_` text literally (§2).
        if matches!(declared.kind(), Kind::String) {
            continue;
        }
        let Some(callee) = &incs[me].callee else { continue };
        let Some(given) = callee.output(&crate::calls::included_input(name)) else { continue };
        let related = Related {
            path: Some(given.path.clone()),
            range: given.name_range.clone(),
            message: format!("`{name}` is given here"),
        };
        let file = |k: usize| {
            let inc = &incs[k];
            let path = inc.callee.as_ref().and_then(|c| c.output(&crate::calls::included_input(name)));
            let file = path.and_then(|o| o.path.file_name()).map(|n| n.to_string_lossy()).unwrap_or_default();
            format!("`{file}` (include `{}`)", inc.label)
        };
        let mut parts: Vec<String> = m.from.iter().map(|&k| file(k)).collect();
        if m.unit {
            parts.push("this unit's `inputs`".to_string());
        }
        let from = match parts.as_slice() {
            [one] => format!("input `{name}` from {one}"),
            _ => format!("input `{name}` deep-merged from {}", parts.join(" and ")),
        };
        let dialect = inf.env().dialect();
        let ty = match &m.value {
            super::merge::Part::Value(v) => {
                for issue in types::value::check_value(v, declared, true).errors {
                    let msg = format!("{from}: invalid value for `{}`: {}", declared.brief(), issue.message);
                    inf.report(Diagnostic::new(Code::InvalidValue, header.clone(), msg).with_related(related.clone()));
                }
                continue;
            }
            super::merge::Part::Type(t) => t,
        };
        let (safety, why) = types::explain(ty, declared, crate::infer::options(dialect));
        let why = why.map(|w| format!(": {w}")).unwrap_or_default();
        let (t, d) = (ty.brief(), declared.brief());
        let (code, msg) = match safety {
            types::Safety::None => {
                (Code::TypeMismatch, format!("{from}: a `{t}` value cannot be used where `{d}` is expected{why}"))
            }
            types::Safety::Unsafe => {
                (Code::UnsafeConversion, format!("{from}: `{t}` may not convert to `{d}` at run time{why}"))
            }
            types::Safety::Safe => continue,
        };
        inf.report(Diagnostic::new(code, header.clone(), msg).with_related(related));
    }
}
