//! Signature help: the function call around the cursor and its active
//! parameter.

use std::ops::Range;

use analysis::dialects::symbol_libraries::libraries::Libraries;
use analysis::functions;
use analysis::Document;

use crate::cursor::*;

/// Signature help: the call around the cursor and its active parameter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SignatureInfo {
    pub label: String,
    /// Parameter label ranges (byte offsets into `label`).
    pub parameters: Vec<Range<usize>>,
    pub active: usize,
    pub documentation: Option<String>,
}

pub fn signature_help(doc: &Document, offset: usize) -> Option<SignatureInfo> {
    signature_help_with(doc, offset, &Libraries::default())
}

/// [`signature_help`], where `symbols` are the symbol libraries the
/// module imports (`symbols::LIB::FN(…)` calls, OpenTofu 1.13).
pub fn signature_help_with(doc: &Document, offset: usize, symbols: &Libraries) -> Option<SignatureInfo> {
    // The offset is in the text the user sees (a JSON file's own).
    let offset = doc.offset_from_shown(offset);
    let dialect = doc.file.dialect;
    let prefix = item_prefix(doc, offset);
    let open = open_brackets(prefix);
    let &(at, '(') = open.iter().rev().find(|(_, c)| *c == '(')? else { return None };
    let before = &prefix[..at];
    let name_start = before.char_indices().rev().take_while(|(_, c)| c.is_alphanumeric() || *c == '_').last()?.0;
    let name = &before[name_start..];
    let inside = &prefix[at + 1..];
    // Commas at the call's own level.
    let mut depth = 0i32;
    let mut active = 0;
    let mut in_str = false;
    for c in inside.chars() {
        match c {
            '"' => in_str = !in_str,
            '(' | '[' | '{' if !in_str => depth += 1,
            ')' | ']' | '}' if !in_str => depth -= 1,
            ',' if depth == 0 && !in_str => active += 1,
            _ => {}
        }
    }
    let in_type = type_position(prefix, dialect).is_some_and(|s| s <= at);
    let (label, params, docs): (String, Vec<String>, Option<String>) = if in_type {
        let params: Vec<&str> = match name {
            "list" | "set" | "map" | "promise" | "output" => vec!["element_type"],
            "tuple" => vec!["[element_types…]"],
            "object" => vec!["{attribute = type, …}"],
            "optional" => vec!["type", "default"],
            "union" => vec!["types…"],
            _ => return None,
        };
        let label = format!("{name}({})", params.join(", "));
        (label, params.into_iter().map(String::from).collect(), Some("type constructor".into()))
    } else if let Some(library) = symbol_function(&before[..name_start], name, symbols) {
        library
    } else {
        let f = functions::lookup(dialect, name)?;
        let mut params: Vec<String> = f.params.iter().map(|p| format!("{}: {}", p.name, p.ty)).collect();
        if let Some(v) = &f.variadic {
            params.push(format!("{}: {}...", v.name, v.ty));
        }
        (format!("{}({}) -> {}", f.name, params.join(", "), f.returns), params, Some(f.summary.to_string()))
    };
    let mut ranges = Vec::new();
    let mut search = label.find('(').map_or(0, |i| i + 1);
    for p in &params {
        let start = label[search..].find(p.as_str()).map_or(search, |i| search + i);
        ranges.push(start..start + p.len());
        search = start + p.len();
    }
    let variadic = !in_type && functions::lookup(dialect, name).is_some_and(|f| f.variadic.is_some());
    let active = if variadic { active.min(params.len().saturating_sub(1)) } else { active };
    Some(SignatureInfo { label, parameters: ranges, active, documentation: docs })
}

/// `symbols::LIB::NAME(` (what precedes the name, and the name): the
/// library function's signature (docs/spec/opentofu-symbol-libraries.md §3).
fn symbol_function(before: &str, name: &str, symbols: &Libraries) -> Option<(String, Vec<String>, Option<String>)> {
    let rest = before.strip_suffix("::")?;
    let start = rest.char_indices().rev().take_while(|(_, c)| c.is_alphanumeric() || *c == '_' || *c == '-').last()?.0;
    let label = &rest[start..];
    rest[..start].strip_suffix("symbols::")?;
    let lib = symbols.get(label)?;
    let f = lib.functions.get(name)?;
    let params: Vec<String> = f.params.iter().map(|(p, t)| format!("{p}: {t}")).collect();
    let signature = format!("symbols::{label}::{name}({}) -> {}", params.join(", "), f.returns);
    Some((signature, params, Some(format!("A function of symbol library `{label}` (`{}`).", lib.source))))
}
