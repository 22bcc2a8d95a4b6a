//! Quick fixes, where the fix is certain: a suggested name, legacy
//! quotes removed, a removed `list`/`map` call made explicit.

use std::ops::Range;

use analysis::module::{placeholder, suggested_type, value_type};
use analysis::{Document, FileKind, Item};
use hcl_edit::structure::{Block, BlockLabel, Structure};
use syntax::diagnostic::{Code, Diagnostic};
use types::Type;

use crate::Caller;

/// A quick fix for a diagnostic, where the fix is certain: the range to
/// replace and the new text, with a title.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QuickFix {
    pub title: String,
    pub range: Range<usize>,
    pub replacement: String,
}

/// `list(a, b)` as `tolist([a, b])` and `map(k, v)` as `tomap({ k = v })`
/// (a key that is not a string literal in parentheses), the arguments as
/// written; `None` for an odd number of map arguments or an expansion.
fn removed_call(call: &str) -> Option<String> {
    // A shallow parse (a request runs on a 2 MiB thread); deeper arguments get no fix.
    let options = hcl_edit::parser::ParseOptions::default().max_nesting_depth(32);
    let hcl_edit::expr::Expression::FuncCall(f) = hcl_edit::parser::parse_expr_with(call, options).ok()? else {
        return None;
    };
    if f.args.expand_final() {
        return None;
    }
    use hcl_edit::Span;
    let args: Vec<&str> =
        f.args.iter().map(|a| a.span().and_then(|r| call.get(r)).map(str::trim)).collect::<Option<_>>()?;
    match f.name.name.value().as_str() {
        "list" => Some(format!("tolist([{}])", args.join(", "))),
        "map" if args.len().is_multiple_of(2) => {
            let pairs: Vec<String> = args
                .chunks(2)
                .map(|kv| {
                    let quoted = kv[0].starts_with('"') && kv[0].ends_with('"') && !kv[0].contains("${");
                    if quoted {
                        format!("{} = {}", kv[0], kv[1])
                    } else {
                        format!("({}) = {}", kv[0], kv[1])
                    }
                })
                .collect();
            Some(if pairs.is_empty() { "tomap({})".to_string() } else { format!("tomap({{ {} }})", pairs.join(", ")) })
        }
        _ => None,
    }
}

/// `type = …` as the first line of the body of the variable block whose
/// label ends at `label_end`, indented as the body's next line. A one-line
/// block takes one argument only: no fix.
fn insert_type(text: &str, label_end: usize, declared: &str) -> Option<QuickFix> {
    let open = label_end + text.get(label_end..)?.find('{')?;
    let line_end = open + text[open..].find('\n')?;
    if !text[open + 1..line_end].trim().is_empty() {
        return None;
    }
    let next = text[line_end + 1..].lines().find(|l| !l.trim().is_empty()).unwrap_or("");
    let indent: String = next.chars().take_while(|c| *c == ' ' || *c == '\t').collect();
    let indent = if indent.is_empty() || next.trim_start().starts_with('}') { "  ".to_string() } else { indent };
    Some(QuickFix {
        title: format!("Declare {declared}"),
        range: line_end + 1..line_end + 1,
        replacement: format!("{indent}{declared}\n"),
    })
}

/// The quick fix of a diagnostic: a suggested name, legacy quotes removed,
/// a bare `list`/`map` made explicit, a missing `type` declared.
pub fn quick_fix(d: &Diagnostic, text: &str) -> Option<QuickFix> {
    let original = text.get(d.range.clone())?;
    let between = |m: &str, start: &str| -> Option<String> {
        let i = m.find(start)? + start.len();
        let j = m[i..].find('`')?;
        Some(m[i..i + j].to_string())
    };
    if d.code == Code::TypeSyntax && d.message.contains("legacy form") {
        let inner = original.trim().trim_matches('"').to_string();
        return Some(QuickFix {
            title: format!("Remove the quotes: {inner}"),
            range: d.range.clone(),
            replacement: inner,
        });
    }
    if d.code == Code::UnknownFunction && d.message.contains("was removed in Terraform 0.15") {
        let replacement = removed_call(original)?;
        return Some(QuickFix { title: format!("Write {replacement}"), range: d.range.clone(), replacement });
    }
    if d.code == Code::UnknownFunction && d.message.contains("` in pulumi-hcl (") {
        let new = between(&d.message, "with no alias: write `")?;
        return Some(QuickFix { title: format!("Rename to `{new}`"), range: d.range.clone(), replacement: new });
    }
    if d.code == Code::MissingType {
        let declared = between(&d.message, "suggests `")?;
        // On `any` itself: narrowed in place.
        if original.trim() == "any" {
            let narrowed = declared.strip_prefix("type = ")?.to_string();
            return Some(QuickFix {
                title: format!("Declare {declared}"),
                range: d.range.clone(),
                replacement: narrowed,
            });
        }
        return insert_type(text, d.range.end, &declared);
    }
    if d.code == Code::TypeSyntax && d.message.starts_with("bare `") {
        let explicit = between(&d.message, "; write `")?;
        return Some(QuickFix { title: format!("Write {explicit}"), range: d.range.clone(), replacement: explicit });
    }
    let suggestion = between(&d.message, "did you mean `")?;
    let replacement = match (d.code, original.chars().next()) {
        (Code::Traversal, Some('.')) => format!(".{suggestion}"),
        (Code::Traversal, Some('[')) => format!("[{}]", types::quote_string(&suggestion)),
        _ => suggestion.clone(),
    };
    Some(QuickFix { title: format!("Change to `{suggestion}`"), range: d.range.clone(), replacement })
}

/// The label text of a block label.
fn label(l: &BlockLabel) -> &str {
    match l {
        BlockLabel::Ident(i) => i.value().as_str(),
        BlockLabel::String(s) => s.value().as_str(),
    }
}

/// Every block of `docs` as (document, item, block), for the top-level
/// blocks a quick fix reads.
fn each_block<'a>(docs: &'a [Document], mut f: impl FnMut(&'a Document, &'a Item, &Block)) {
    for d in docs {
        for item in d.items.iter() {
            let Some(body) = item.body(&d.file.text) else { continue };
            for s in body.iter() {
                if let Structure::Block(b) = s {
                    f(d, item, b);
                }
            }
        }
    }
}

/// The quick fix of a missing `type` (or of `type = any`) on a variable of
/// `docs[doc]`, with the type inferred from every value the variable is
/// known to receive, unified: its default, the values the module's
/// `.tfvars` files give it, and the arguments of its callers' calls to
/// this module (`callers`, as the server knows them). Other diagnostics get
/// [`quick_fix`]'s fix; `None` where the values suggest no type.
pub fn type_fix(d: &Diagnostic, docs: &[Document], doc: usize, callers: &[Caller<'_>]) -> Option<QuickFix> {
    let here = docs.get(doc)?;
    let text = &here.file.text;
    if d.code != Code::MissingType {
        return quick_fix(d, text);
    }
    let narrowing = text.get(d.range.clone())?.trim() == "any";
    // The variable whose label (no type) or `type` value (`any`) the hint is on.
    let mut var: Option<(String, Vec<Type>)> = None;
    each_block(std::slice::from_ref(here), |dd, item, b| {
        let src = dd.source(item);
        let Some(l) = b.labels.first().filter(|_| b.ident.value().as_str() == "variable") else { return };
        let on = if narrowing { b.body.get_attribute("type").map(|a| src.range(&a.value)) } else { Some(src.range(l)) };
        if on.as_ref() == Some(&d.range) {
            // A placeholder (`""`, `{}`) says nothing of what callers pass.
            let default = b.body.get_attribute("default").filter(|a| !placeholder(&a.value));
            let default = default.map(|a| value_type(dd, item, &a.value));
            var = Some((label(l).to_string(), default.into_iter().collect()));
        }
    });
    let (name, mut values) = var?;
    for t in docs.iter().filter(|t| t.file.kind == FileKind::Tfvars) {
        for item in t.items.iter() {
            let Some(body) = item.body(&t.file.text) else { continue };
            if let Some(a) = body.get_attribute(&name) {
                values.push(value_type(t, item, &a.value));
            }
        }
    }
    for c in callers {
        each_block(c.docs, |cd, item, b| {
            let call = b.labels.first().map(label);
            if b.ident.value().as_str() == "module" && call.is_some_and(|n| c.calls.iter().any(|x| x == n)) {
                if let Some(a) = b.body.get_attribute(&name) {
                    values.push(value_type(cd, item, &a.value));
                }
            }
        });
    }
    let declared = format!("type = {}", suggested_type(&values, narrowing)?);
    if narrowing {
        let narrowed = declared.strip_prefix("type = ")?.to_string();
        return Some(QuickFix { title: format!("Declare {declared}"), range: d.range.clone(), replacement: narrowed });
    }
    insert_type(text, d.range.end, &declared)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 34.9: the quick fix of a removed `list(…)`/`map(…)` call keeps
    /// the arguments as written.
    #[test]
    fn removed_list_and_map_calls_are_rewritten() {
        let fix = |text: &str| {
            let msg = "`x` was removed in Terraform 0.15: write it";
            quick_fix(&Diagnostic::new(Code::UnknownFunction, 0..text.len(), msg), text).map(|f| f.replacement)
        };
        assert_eq!(fix("list(\"a\", var.x)").as_deref(), Some("tolist([\"a\", var.x])"));
        assert_eq!(fix("list()").as_deref(), Some("tolist([])"));
        assert_eq!(fix("map(\"k\", 1, var.k, [2])").as_deref(), Some("tomap({ \"k\" = 1, (var.k) = [2] })"));
        assert_eq!(fix("map(\"${x}\", 1)").as_deref(), Some("tomap({ (\"${x}\") = 1 })"));
        assert_eq!(fix("map(\"k\")"), None, "an odd number of arguments has no certain fix");
        assert_eq!(fix("list(var.xs...)"), None);
    }
}
