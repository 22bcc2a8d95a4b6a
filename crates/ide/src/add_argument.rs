//! Add a missing required argument of a module call: the quick fix of a
//! `missing-argument` on `module "NAME"` (issue 44.4, as terraform-ls-rs
//! and JetBrains offer it). `name = PLACEHOLDER` goes on its own line
//! before the block's closing brace, indented as the block's other
//! arguments; the placeholder is the simplest value of the variable's
//! declared type (`""`, `0`, `false`, `[]`, `{}`, an object with its
//! required attributes), so the call is valid at once and the value the
//! one thing left to write. One action per missing argument, and one that
//! adds them all when there are several.

use analysis::Document;
use analysis::{Callee, Context, Interface};
use syntax::diagnostic::{Code, Diagnostic};
use types::{Kind, Type};

use crate::actions::{item_at, line_start, Action, ActionKind, FileEdit};

/// The simplest value of type `t`, written as HCL: an object gets each
/// attribute that is not `optional(…)`. `nullable`: whether `null` is a
/// value (it is `any`'s placeholder then: a `nullable = false` variable
/// takes `""`).
pub(crate) fn placeholder(t: &Type, nullable: bool) -> String {
    match t.kind() {
        Kind::Bool => "false".into(),
        Kind::Int | Kind::Number => "0".into(),
        Kind::String | Kind::Id => "\"\"".into(),
        Kind::Any if nullable => "null".into(),
        Kind::Any => "\"\"".into(),
        Kind::None => "null".into(),
        Kind::List(_) | Kind::Set(_) => "[]".into(),
        Kind::Map(_) => "{}".into(),
        Kind::Tuple(ts) => format!("[{}]", ts.iter().map(|t| placeholder(t, false)).collect::<Vec<_>>().join(", ")),
        Kind::Object(attrs) => {
            let optional = |t: &Type| matches!(t.kind(), Kind::Union(ms) if ms.iter().any(|m| *m.kind() == Kind::None));
            let required: Vec<String> = attrs
                .iter()
                .filter(|(_, t)| !optional(t))
                .map(|(k, t)| {
                    let key = if types::is_identifier(k) { k.clone() } else { types::quote_string(k) };
                    format!("{key} = {}", placeholder(t, false))
                })
                .collect();
            if required.is_empty() {
                "{}".into()
            } else {
                format!("{{ {} }}", required.join(", "))
            }
        }
        Kind::Union(ms) => {
            ms.iter().find(|m| *m.kind() != Kind::None).map_or_else(|| "null".into(), |m| placeholder(m, false))
        }
        Kind::Promise(t) | Kind::Output(t) => placeholder(t, nullable),
    }
}

/// The argument a `missing-argument` diagnostic of a module call names.
fn argument(d: &Diagnostic) -> Option<&str> {
    if d.code != Code::MissingArgument || !d.message.starts_with("module `") {
        return None;
    }
    let i = d.message.find("needs the argument `")? + "needs the argument `".len();
    let j = d.message[i..].find('`')?;
    Some(&d.message[i..i + j])
}

/// The line `name = PLACEHOLDER` for the input `name` of `callee`.
fn line(callee: &Interface, name: &str) -> Option<String> {
    let input = callee.input(name)?;
    let t = input.declared.clone().unwrap_or_else(Type::any);
    Some(format!("{name} = {}", placeholder(&t, input.nullable)))
}

/// The edit that adds `lines` to the block `block` (its range in `text`):
/// before its closing brace, indented as its first argument (two spaces
/// more than the block when it has none). A one-line block is opened up.
fn insert(text: &str, block: std::ops::Range<usize>, lines: &[String]) -> Option<(std::ops::Range<usize>, String)> {
    let src = text.get(block.clone())?;
    let open = block.start + src.find('{')?;
    let close = block.start + src.rfind('}')?;
    let outer: String = text[line_start(text, block.start)..].chars().take_while(|c| *c == ' ' || *c == '\t').collect();
    let inner = text[open + 1..close].lines().skip(1).find(|l| !l.trim().is_empty());
    let indent =
        inner.map_or_else(|| format!("{outer}  "), |l| l.chars().take_while(|c| *c == ' ' || *c == '\t').collect());
    let body: String = lines.iter().map(|l| format!("{indent}{l}\n")).collect();
    if !text[open + 1..close].contains('\n') {
        // `module "m" { source = "./m" }`: each argument on a line of its own.
        let existing = text[open + 1..close].trim();
        let kept = if existing.is_empty() { String::new() } else { format!("{indent}{existing}\n") };
        return Some((open + 1..close, format!("\n{kept}{body}{outer}")));
    }
    let at = line_start(text, close);
    if text[at..close].trim().is_empty() {
        Some((at..at, body))
    } else {
        // `  x = 1 }`: the brace goes to a line of its own.
        Some((close..close, format!("\n{body}{outer}")))
    }
}

/// A call's header and, per missing argument, its diagnostic and line.
type Missing<'d> = (std::ops::Range<usize>, Vec<(&'d Diagnostic, String)>);

/// The actions that add the arguments the `missing-argument` diagnostics
/// `ds` (of `docs[doc]`) name: one each, and one for all the missing
/// arguments of a call when it misses several. `context` tells the called
/// modules' variables (their types).
pub fn add_arguments(ds: &[&Diagnostic], docs: &[Document], doc: usize, context: &Context) -> Vec<Action> {
    let Some(here) = docs.get(doc) else { return Vec::new() };
    let text = &here.file.text;
    let mut out = Vec::new();
    // Per call (its header's range), the (diagnostic, line) of each missing argument.
    let mut calls: Vec<Missing> = Vec::new();
    for d in ds.iter().copied() {
        let Some(name) = argument(d) else { continue };
        let Some(call) = text.get(d.range.clone()).and_then(call_name) else { continue };
        let Some(Callee::Module(callee)) = context.callee(call) else { continue };
        let Some(l) = line(callee, name) else { continue };
        match calls.iter_mut().find(|(r, _)| *r == d.range) {
            Some((_, v)) => v.push((d, l)),
            None => calls.push((d.range.clone(), vec![(d, l)])),
        }
    }
    for (header, missing) in calls {
        let Some(item) = item_at(here, header.start) else { continue };
        let edit = |lines: &[String]| {
            let (range, text) = insert(text, item.range.clone(), lines)?;
            Some(vec![FileEdit { path: here.file.path.clone(), range, text }])
        };
        for (d, l) in &missing {
            let Some(edits) = edit(std::slice::from_ref(l)) else { continue };
            let title = format!("Add argument `{l}`");
            out.push(Action { fixes: Some((*d).clone()), ..Action::new(title, ActionKind::QuickFix, edits) });
        }
        if missing.len() > 1 {
            let lines: Vec<String> = missing.iter().map(|(_, l)| l.clone()).collect();
            let Some(edits) = edit(&lines) else { continue };
            let title = format!("Add all {} missing arguments", lines.len());
            out.push(Action::new(title, ActionKind::QuickFix, edits));
        }
    }
    out
}

/// The quick fix of a `sensitive-output` (an output of a root module whose
/// value is sensitive): `sensitive = true` added to the output, as an
/// argument is added to a call.
pub fn mark_sensitive(d: &Diagnostic, docs: &[Document], doc: usize) -> Option<Action> {
    let here = docs.get(doc)?;
    if d.code != Code::SensitiveOutput {
        return None;
    }
    let item = item_at(here, d.range.start)?;
    let (range, text) = insert(&here.file.text, item.range.clone(), &["sensitive = true".to_string()])?;
    let edit = FileEdit { path: here.file.path.clone(), range, text };
    Some(Action { fixes: Some(d.clone()), ..Action::new("Add `sensitive = true`", ActionKind::QuickFix, vec![edit]) })
}

/// The call's name in a `module "NAME"` header.
fn call_name(header: &str) -> Option<&str> {
    let rest = header.strip_prefix("module")?.trim_start();
    let rest = rest.strip_prefix('"').unwrap_or(rest);
    let end = rest.find(|c: char| c == '"' || c.is_whitespace()).unwrap_or(rest.len());
    Some(&rest[..end]).filter(|n| !n.is_empty())
}
