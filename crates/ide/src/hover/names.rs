//! Hover on the name of an argument or block that no expression covers:
//! the languages' own (`count`, `lifecycle`, a variable's `type`, a test's
//! `run`: [`language`]), and, where a provider's schema would type it but
//! none is known, what would (issue 48.1). Names a schema or a called
//! module types are answered before this (`resources::hover_argument`, the
//! analysis' notes on a module call's arguments).

use std::ops::Range;

use analysis::calls::Callee;
use analysis::module::ModuleAnalysis;
use analysis::Document;
use schema::BlockKind;
use types::Type;

use super::language::{self, Files, Kind, Row};
use crate::cursor::{item_prefix, open_brackets};
use crate::HoverInfo;

/// A name at the cursor followed by `=` (an argument) or by labels and `{`
/// (a block), and the types of the blocks it is in with their labels.
struct Name<'a> {
    word: &'a str,
    range: Range<usize>,
    /// The enclosing blocks, outermost first: (type, first label).
    blocks: Vec<(&'a str, Option<&'a str>)>,
}

/// The hover on a name at `offset`, when the language defines it or a
/// missing schema is why nothing else did.
pub(crate) fn hover_name(docs: &[Document], doc: usize, offset: usize, analysis: &ModuleAnalysis) -> Option<HoverInfo> {
    let d = docs.get(doc)?;
    let name = name_at(d, offset)?;
    let files = Files::of(&d.file.path)?;
    let path: Vec<&str> = name.blocks.iter().map(|(t, _)| *t).collect();
    if let Some(row) = language::find(files, &path.join("."), name.word) {
        return Some(HoverInfo { range: name.range, ty: row.ty.clone(), prose: row_prose(row, files) });
    }
    no_schema(&name, analysis)
}

/// What hover says of a row: what it is and where, then what it does.
fn row_prose(row: &Row, files: Files) -> Vec<String> {
    let what = match (row.kind, row.is_block) {
        (Kind::Meta, true) => "Meta-argument block",
        (Kind::Meta, false) => "Meta-argument",
        (_, true) => "Block",
        (_, false) => "Argument",
    };
    let where_ = match (row.block, files) {
        ("", Files::Module) => "a module file",
        ("", Files::Test) => "a test file",
        ("", Files::Stack) => "a stack file",
        ("", Files::Deploy) => "a deployment file",
        (path, _) if !path.contains('.') => {
            let article = if path.starts_with(['a', 'e', 'i', 'o', 'u']) { "an" } else { "a" };
            &format!("{article} `{path}` block")
        }
        (path, _) => &format!("`{}`", path.replace('.', " › ")),
    };
    let presence = match (row.block, row.required, row.deprecated) {
        ("", ..) => "",
        (_, true, _) => ": required",
        (_, false, true) => ": optional, deprecated",
        (_, false, false) => ": optional",
    };
    let mut first = format!("{what} `{}` of {where_}{presence}", row.name);
    if row.kind == Kind::Meta {
        first.push_str(" (the language's own, not the provider's or the module's)");
    }
    vec![format!("{first}."), row.text.to_string()]
}

/// An argument of a resource, data source or ephemeral resource with no
/// known schema, of a provider block, or of a module call whose module is
/// not read: `any`, and what would type it.
fn no_schema(name: &Name, analysis: &ModuleAnalysis) -> Option<HoverInfo> {
    let [(outer, label)] = name.blocks[..] else { return None };
    let ty = label.unwrap_or("");
    let fix = "Name a `terraform providers schema -json` file in the editor setting `hclTypes.providerSchemas` \
               (or `provider_schemas` in `.hcl-types.hcl`), or let the server run Terraform for it after \
               `terraform init` (`terraform.runForSchemas`).";
    let line = match outer {
        "resource" | "data" | "ephemeral" => {
            let kind = if outer == "data" { BlockKind::DataSource } else { BlockKind::Resource };
            let noun = match outer {
                "resource" => "resource",
                "data" => "data source",
                _ => "ephemeral resource",
            };
            match &analysis.context.schemas {
                // The schema is known and has no such name: the
                // diagnostics say so.
                Some(s) if s.find_kind(kind, ty).is_some() => return None,
                Some(_) => format!(
                    "`{}` of {noun} `{ty}`: no provider schema loaded has this type, so its arguments are not typed.",
                    name.word
                ),
                None => format!(
                    "`{}` of {noun} `{ty}`: no provider schema is known, so its arguments are not typed.",
                    name.word
                ),
            }
        }
        "provider" => match &analysis.context.schemas {
            // The schema has the provider's configuration and no such
            // name: the diagnostics say so.
            Some(s) if s.find_kind(BlockKind::Provider, ty).is_some() => return None,
            Some(_) => format!(
                "`{}` of provider `{ty}`: no provider schema loaded has this provider, so its arguments are not typed.",
                name.word
            ),
            None => format!(
                "`{}` of provider `{ty}`: no provider schema is known, so its arguments are not typed.",
                name.word
            ),
        },
        "module" => {
            // A module read has its variables noted on the arguments (and
            // a name it lacks is a diagnostic): only one not read is left.
            let why = match analysis.context.callee(ty) {
                Some(Callee::Module(_)) => return None,
                Some(Callee::Missing(_)) => "Its source has no module files".to_string(),
                Some(Callee::Opaque) => "The call cannot be followed (a cycle, or too deep)".to_string(),
                Some(Callee::Unsaved) => "An unsaved document's calls are not followed".to_string(),
                Some(Callee::NotInstalled) | None => {
                    "Its source is not read: a registry or remote source is read once \
                                                      `terraform init` has installed it (`.terraform/modules`)"
                        .to_string()
                }
            };
            let line = format!("`{}` of module `{ty}`: the module's variables are unknown. {why}.", name.word);
            return Some(HoverInfo { range: name.range.clone(), ty: Type::any(), prose: vec![line] });
        }
        _ => return None,
    };
    Some(HoverInfo { range: name.range.clone(), ty: Type::any(), prose: vec![line, fix.to_string()] })
}

/// The argument or block name at `offset`, with the blocks around it read
/// from the text (the item need not parse).
fn name_at(d: &Document, offset: usize) -> Option<Name<'_>> {
    let text = d.file.text.as_str();
    let is_word = |c: char| c.is_alphanumeric() || c == '_' || c == '-';
    // (A non-word character before the name may be several bytes long.)
    let before = text.get(..offset.min(text.len()))?;
    let start = before.char_indices().rev().find(|&(_, c)| !is_word(c)).map_or(0, |(i, c)| i + c.len_utf8());
    let end = text[start..].find(|c: char| !is_word(c)).map_or(text.len(), |p| start + p);
    let word = text.get(start..end).filter(|w| !w.is_empty() && !w.starts_with(|c: char| c.is_ascii_digit()))?;
    // The rest of the line: `= …` (not `==`), or labels then `{`.
    let line_end = text[end..].find('\n').map_or(text.len(), |p| end + p);
    let after = text[end..line_end].trim_start();
    let argument = after.starts_with('=') && !after.starts_with("==") && !after.starts_with("=>");
    if !argument && !opens_block(after) {
        return None;
    }
    // The name starts its line (after indentation).
    let line_start = text[..start].rfind('\n').map_or(0, |p| p + 1);
    if !text[line_start..start].trim().is_empty() {
        return None;
    }
    let prefix = item_prefix(d, start);
    let mut blocks = Vec::new();
    for (i, c) in open_brackets(prefix) {
        // Every open bracket is a block's: `TYPE LABEL… {` on its line.
        if c != '{' {
            return None;
        }
        let head = prefix[prefix[..i].rfind('\n').map_or(0, |p| p + 1)..i].trim();
        if head.contains('=') || head.is_empty() {
            return None;
        }
        let mut words = head.split_whitespace();
        let ty = words.next()?;
        let label = words.next().map(|l| l.trim_matches('"'));
        // (`dynamic` stays itself: its `for_each` and `content` are the
        // language's; what is inside `content` is the provider's.)
        blocks.push((ty, label));
    }
    // A top-level name is a block's type only at the item's start.
    if blocks.is_empty() && (argument || prefix.trim() != "") {
        return None;
    }
    Some(Name { word, range: start..end, blocks })
}

/// Whether the rest of a line after a name opens a block: labels (quoted
/// or bare), then `{`.
fn opens_block(after: &str) -> bool {
    let Some(brace) = after.find('{') else { return false };
    let labels = &after[..brace];
    let mut rest = labels.trim();
    while !rest.is_empty() {
        if let Some(r) = rest.strip_prefix('"') {
            let Some(q) = r.find('"') else { return false };
            rest = r[q + 1..].trim_start();
        } else {
            let w = rest.find(char::is_whitespace).unwrap_or(rest.len());
            if !rest[..w].chars().all(|c| c.is_alphanumeric() || c == '_' || c == '-') {
                return false;
            }
            rest = rest[w..].trim_start();
        }
    }
    true
}
