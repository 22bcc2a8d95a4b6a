//! An `import` block's `to` against the resource it targets (validate.md
//! §3), as the validate walk judges a static one
//! (`validateImportTargetExpansion`, `validateConfigGen` in
//! internal/terraform/node_resource_validate.go): an instance key of the
//! kind the resource repeats by (`[0]` for `count`, `["k"]` for
//! `for_each`), none for a resource without either; a keyed target that
//! no block declares cannot have its configuration generated; a target in
//! a module the module does not call has no configuration. Each an error
//! at the `to` ("Invalid import 'to' expression", "Configuration for
//! import target does not exist").
//!
//! Likewise a `depends_on` element that indexes a resource without `count`
//! or `for_each` ("Unexpected resource instance key",
//! `staticValidateResourceReference` in evaluate_valid.go, as
//! `validateDependsOn` evaluates each element until one fails).
//!
//! Part of the duplicates pass (duplicates.rs): its facts hold each static
//! `to` without `for_each` (`import.ADDR`), each resource and module call,
//! each resource's repetition (`#count.resource.T.N`) and its `depends_on`
//! elements in order (`#depends:KIND:ADDR`, [`dependency`]).

use rustc_hash::FxHashSet as HashSet;

use hcl_edit::expr::Expression;

use super::duplicates::Facts;
use super::{Document, FileKind, Item};
use syntax::diagnostic::{Code, Diagnostic};

/// How a `to` address ends: no key, an integer one, a string one.
#[derive(PartialEq)]
enum Key {
    None,
    Int,
    Str,
}

/// `T.N` and its key, of a resource address `T.N`, `T.N[0]`, `T.N["k"]`.
fn split(addr: &str) -> Option<(&str, Key)> {
    match addr.split_once('[') {
        None => Some((addr, Key::None)),
        Some((res, rest)) => Some((res, if rest.starts_with('"') { Key::Str } else { Key::Int })),
    }
}

/// What a `depends_on` element is to the walk: `k:resource.T.N` (an
/// instance of a resource: `T.N[…]`, `data.T.N[…]`), `r:resource.T.N` (a
/// whole one), `o:` (another object: `var.x`, `module.m`), `b:` (anything
/// else: an error of its own, after which Terraform evaluates no element).
pub(super) fn dependency(e: &Expression) -> String {
    use hcl_edit::expr::TraversalOperator as Op;
    let (root, ops) = match e {
        Expression::Traversal(t) => match &t.expr {
            Expression::Variable(v) => (v.value().as_str(), &t.operators[..]),
            _ => return "b:".into(),
        },
        _ => return "b:".into(),
    };
    let attr = |i: usize| match ops.get(i).map(|o| o.value()) {
        Some(Op::GetAttr(a)) => Some(a.value().as_str()),
        _ => None,
    };
    let (kind, t, n, rest) = match root {
        "var" | "local" | "module" => return "o:".into(),
        "data" => ("data", attr(0), attr(1), &ops[2.min(ops.len())..]),
        _ => ("resource", Some(root), attr(0), &ops[1.min(ops.len())..]),
    };
    let (Some(t), Some(n)) = (t, n) else { return "b:".into() };
    match rest {
        [] => format!("r:{kind}.{t}.{n}"),
        [key] if matches!(key.value(), Op::Index(_) | Op::LegacyIndex(_)) => format!("k:{kind}.{t}.{n}"),
        _ => "b:".into(),
    }
}

/// Adds an error at each `import` whose `to` its target refuses.
/// `declared`: the primary files' declaration keys.
pub(super) fn check<'a>(
    docs: &[Document],
    declared: &HashSet<Box<str>>,
    facts: &impl Fn(&Item) -> Option<&'a Facts>,
    out: &mut [Vec<Diagnostic>],
) {
    let terraform = || docs.iter().enumerate().filter(|(_, d)| d.file.kind == FileKind::Terraform);
    let primary = |d: &Document| !super::overrides::is_override(&d.file.path);
    let all = || terraform().flat_map(|(i, d)| d.items.iter().map(move |item| (i, item)));
    let mut repeated: HashSet<&str> = HashSet::default();
    for (_, item) in all() {
        repeated.extend(facts(item).into_iter().flatten().map(|d| d.key()).filter(|k| k.starts_with('#')));
    }
    for (di, item) in all() {
        let deps = facts(item).into_iter().flatten().filter_map(|d| Some((d, d.key().strip_prefix("#depends:")?)));
        for (d, dep) in deps {
            let (kind, addr) = dep.split_once(':').unwrap_or(("b", ""));
            let known = declared.contains(addr);
            match kind {
                "o" => continue,
                "r" if known => continue,
                "k" if known
                    && !repeated
                        .iter()
                        .any(|r| r.ends_with(addr) && r[1..].split_once('.').is_some_and(|(_, a)| a == addr)) =>
                {
                    let msg = format!(
                        "Unexpected resource instance key: `{}` has no `count` or `for_each`, so a reference to it takes no index; remove the brackets",
                        addr.strip_prefix("resource.").unwrap_or(addr)
                    );
                    out[di].push(Diagnostic::new(Code::Traversal, d.range(item.range.start), msg));
                }
                "k" if known => continue,
                _ => {}
            }
            break;
        }
    }
    // (An override file's `import` is refused before: override_rules.rs.)
    for (di, item) in all().filter(|(di, _)| primary(&docs[*di])) {
        for d in facts(item).into_iter().flatten() {
            let Some(addr) = d.key().strip_prefix("import.") else { continue };
            let msg = if let Some(rest) = addr.strip_prefix("module.") {
                let call = rest.split(['.', '[']).next().unwrap_or(rest);
                if declared.contains(format!("module.{call}").as_str()) {
                    continue;
                }
                format!(
                    "Configuration for import target does not exist: this module calls no module `{call}`, so `{addr}` has no configuration"
                )
            } else {
                let Some((res, key)) = split(addr) else { continue };
                if !declared.contains(format!("resource.{res}").as_str()) {
                    if key == Key::None {
                        continue;
                    }
                    format!(
                        "Configuration for import target does not exist: no block declares `{res}`, and an import with an instance key cannot generate its configuration"
                    )
                } else {
                    let count = repeated.contains(format!("#count.resource.{res}").as_str());
                    let for_each = repeated.contains(format!("#for_each.resource.{res}").as_str());
                    let why = match key {
                        Key::Str if !for_each => "the target resource does not use `for_each`",
                        Key::Int if !count => "the target resource does not use `count`",
                        Key::None if count => "the target resource uses `count`: name an instance (`[0]`)",
                        Key::None if for_each => "the target resource uses `for_each`: name an instance (`[\"key\"]`)",
                        _ => continue,
                    };
                    format!("Invalid import 'to' expression: {why}")
                }
            };
            let code = if msg.starts_with("Invalid") { Code::MetaArgument } else { Code::UndefinedReference };
            out[di].push(Diagnostic::new(code, d.range(item.range.start), msg));
        }
    }
}
