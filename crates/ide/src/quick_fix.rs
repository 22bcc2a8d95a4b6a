//! Quick fixes, where the fix is certain: a suggested name, legacy
//! quotes removed, a removed `list`/`map` call made explicit.

use std::ops::Range;

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
pub fn quick_fix(d: &syntax::diagnostic::Diagnostic, text: &str) -> Option<QuickFix> {
    use syntax::diagnostic::Code;
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

#[cfg(test)]
mod tests {
    use super::*;
    use syntax::diagnostic::{Code, Diagnostic};

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
