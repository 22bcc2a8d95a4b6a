//! Editor features from provider schemas: hover on a resource's argument
//! (its type, what the schema says of it and its description; a provider
//! block's own arguments likewise, from its configuration schema) and on a
//! reference to a resource attribute; completion of resource types after
//! `resource "` (`data "`, `action "`, `list "`), of arguments (required
//! first) and blocks in a resource body (an action's or list block's
//! `config`), and of attributes after `TYPE.NAME.`.

use analysis::module::ModuleAnalysis;
use analysis::Document;

use crate::completion::{attributes_after, starts_with_folded};
use crate::cursor::*;
use crate::*;
use schema::{nested, BlockKind, BlockSchema, Found};

/// A resource or data source body the cursor is in (or an action's or list
/// resource's `config` block): its type and the nested blocks (by name)
/// from the schema's body inward.
struct Place {
    kind: BlockKind,
    ty: String,
    nested: Vec<String>,
}

/// Where `prefix` (an item's text up to the cursor) ends, when every open
/// bracket is a block's `{` inside `resource "T" "N" {`, `data "T" "N" {`
/// or `provider "NAME" {`,
/// or inside the `config {` of `action "T" "N" {` or `list "T" "N" {`
/// (Terraform 1.14; their schemas type only the config block).
fn place(prefix: &str) -> Option<Place> {
    let open = open_brackets(prefix);
    let ((first, '{'), mut rest) = open.split_first()? else { return None };
    let mut words = prefix[..*first].split_whitespace();
    let kind = match words.next()? {
        "resource" => BlockKind::Resource,
        "data" => BlockKind::DataSource,
        "action" => BlockKind::Action,
        "list" => BlockKind::ListResource,
        // Its own configuration, by the provider's name.
        "provider" => BlockKind::Provider,
        _ => return None,
    };
    let ty = words.next()?.trim_matches('"').to_string();
    if matches!(kind, BlockKind::Action | BlockKind::ListResource) {
        let ((i, '{'), inner) = rest.split_first()? else { return None };
        if prefix[prefix[..*i].rfind('\n').map_or(0, |p| p + 1)..*i].trim() != "config" {
            return None;
        }
        rest = inner;
    }
    let mut nested = Vec::new();
    for &(i, c) in rest {
        if c != '{' {
            return None;
        }
        let line = &prefix[prefix[..i].rfind('\n').map_or(0, |p| p + 1)..i];
        let mut w = line.split_whitespace();
        match w.next()? {
            "dynamic" => nested.push(w.next()?.trim_matches('"').to_string()),
            // A dynamic block's content is the block it names.
            "content" if nested.last().is_some() => {}
            name => nested.push(name.to_string()),
        }
    }
    Some(Place { kind, ty, nested })
}

/// The schema of the (nested) block a place is in.
fn block_at<'a>(found: &Found<'a>, nested: &[String]) -> Option<&'a BlockSchema> {
    let mut block: &'a BlockSchema = found.block;
    for name in nested {
        block = &block.block(name)?.block;
    }
    Some(block)
}

/// Hover on an argument name or nested block name inside a resource or
/// data source body.
pub(super) fn hover_argument(
    docs: &[Document],
    doc: usize,
    offset: usize,
    analysis: &ModuleAnalysis,
) -> Option<HoverInfo> {
    let schemas = analysis.context.schemas.as_ref()?;
    let d = docs.get(doc)?;
    let text = &d.file.text;
    let is_word = |c: char| c.is_alphanumeric() || c == '_' || c == '-';
    // (A non-word character before the name may be several bytes long.)
    let before = text.get(..offset.min(text.len()))?;
    let start = before.char_indices().rev().find(|&(_, c)| !is_word(c)).map_or(0, |(i, c)| i + c.len_utf8());
    let end = text[start..].find(|c: char| !is_word(c)).map_or(text.len(), |p| start + p);
    let word = text.get(start..end).filter(|w| !w.is_empty())?;
    let after = text[end..].trim_start_matches([' ', '\t']);
    let is_attribute = after.starts_with('=') && !after.starts_with("==");
    if !is_attribute && !after.starts_with('{') {
        return None;
    }
    let place = place(item_prefix(d, start))?;
    let Some(found) = schemas.find_kind(place.kind, &place.ty) else {
        return pulumi_hcl_argument(d, schemas, &place, word, start..end);
    };
    let block = block_at(&found, &place.nested)?;
    let kind = place.kind.noun();
    let mut path: Vec<&str> = place.nested.iter().map(String::as_str).collect();
    path.push(word);
    let (ty, mut prose) = match (block.attribute(word), block.block(word)) {
        (Some(a), _) => {
            let how = if a.required {
                "required"
            } else if a.optional && a.computed {
                "optional, computed by the provider when not set"
            } else if a.optional {
                "optional"
            } else {
                "computed by the provider (read-only)"
            };
            let mut line = format!("`{word}` of {kind} `{}`: {how}", place.ty);
            if a.sensitive {
                line.push_str(", sensitive");
            }
            if a.deprecated {
                line.push_str(", deprecated");
            }
            (a.ty.clone(), vec![format!("{line}.")])
        }
        (None, Some(b)) => {
            let mut line = format!("Block `{word}` of {kind} `{}`", place.ty);
            match (b.min_items, b.max_items) {
                (0, 0) => {}
                (min, 0) => line.push_str(&format!(": at least {min}")),
                (min, max) => line.push_str(&format!(": {min} to {max}")),
            }
            (nested(b.nesting, b.block.value_type()), vec![format!("{line}.")])
        }
        (None, None) => return None,
    };
    prose.extend(found.description_of(place.kind, &place.ty, &path));
    prose.push(format!("From the schema {}.", found.origin()));
    Some(HoverInfo { range: start..end, ty, prose })
}

/// Hover on the type label of a resource or data source block
/// (`resource "aws_instance"`): where its type comes from, the provider,
/// version and schema (lsp.md "Provider schemas"), or that no schema has it.
pub(super) fn hover_type_label(
    docs: &[Document],
    doc: usize,
    offset: usize,
    analysis: &ModuleAnalysis,
) -> Option<HoverInfo> {
    let d = docs.get(doc)?;
    if d.file.kind != analysis::FileKind::Terraform {
        return None;
    }
    let text = &d.file.text;
    let is_word = |c: char| c.is_alphanumeric() || c == '_' || c == '-';
    // (Char boundaries: the character before the word may be wide.)
    let before = text.get(..offset.min(text.len()))?;
    let start = before.char_indices().rev().find(|(_, c)| !is_word(*c)).map_or(0, |(i, c)| i + c.len_utf8());
    let end = text[start..].find(|c: char| !is_word(c)).map_or(text.len(), |p| start + p);
    let word = text.get(start..end).filter(|w| !w.is_empty())?;
    let kind = match item_prefix(d, start).strip_suffix('"')?.trim() {
        "resource" => BlockKind::Resource,
        "data" => BlockKind::DataSource,
        "provider" => BlockKind::Provider,
        _ => return None,
    };
    if !text[end..].starts_with('"') {
        return None;
    }
    let noun = kind.noun();
    if kind == BlockKind::Provider {
        return provider_label(analysis, word, start..end);
    }
    let Some(found) = analysis.context.schemas.as_ref().and_then(|s| s.find_kind(kind, word)) else {
        let prose = format!(
            "No provider schema has {noun} `{word}`: its attributes are `any`. `hcl-types schemas DIR` says which \
             providers are typed and from where."
        );
        let mut prose = vec![prose];
        // Why the search of the user's provider binaries did not type it
        // (by the type's prefix: the provider's usual local name).
        let provider = word.split('_').next().unwrap_or(word);
        let searched = analysis.context.schemas.as_ref().and_then(|s| s.searched.as_ref());
        let why = searched.and_then(|s| s.untyped.iter().find(|(n, _)| n == provider));
        prose.extend(why.map(|(n, why)| format!("The plugin cache was searched for `{n}`: {why}.")));
        return Some(HoverInfo { range: start..end, ty: types::Type::any(), prose });
    };
    let prose = vec![
        format!("{} `{word}` of provider `{}`.", crate::hover::capitalise(noun), found.provider.address),
        format!("Its schema: {}.", found.origin()),
    ];
    Some(HoverInfo { range: start..end, ty: found.block.value_type(), prose })
}

/// Hover on a provider block's name (`provider "aws"`): the provider and
/// where its configuration's schema comes from, or why none is known.
fn provider_label(analysis: &ModuleAnalysis, word: &str, range: std::ops::Range<usize>) -> Option<HoverInfo> {
    let schemas = analysis.context.schemas.as_ref();
    let Some(found) = schemas.and_then(|s| s.find_kind(BlockKind::Provider, word)) else {
        let mut prose = vec![format!(
            "No provider schema has provider `{word}`: its configuration's arguments are not typed. \
             `hcl-types schemas DIR` says which providers are typed and from where."
        )];
        let why = schemas.and_then(|s| s.searched.as_ref()).and_then(|s| s.untyped.iter().find(|(n, _)| n == word));
        prose.extend(why.map(|(n, why)| format!("The plugin cache was searched for `{n}`: {why}.")));
        return Some(HoverInfo { range, ty: types::Type::any(), prose });
    };
    let prose = vec![
        format!("Configuration of provider `{}`.", found.provider.address),
        format!("Its schema: {}.", found.origin()),
    ];
    Some(HoverInfo { range, ty: found.block.value_type(), prose })
}

/// Hover on an argument of a Pulumi HCL resource that a package resource
/// types (docs/spec/pulumi-hcl.md §6): its property's type, and the
/// Pulumi name it has.
fn pulumi_hcl_argument(
    d: &Document,
    schemas: &schema::Schemas,
    place: &Place,
    word: &str,
    range: std::ops::Range<usize>,
) -> Option<HoverInfo> {
    if d.file.dialect != syntax::Dialect::PulumiHcl || place.kind != BlockKind::Resource || !place.nested.is_empty() {
        return None;
    }
    let packages: Vec<&schema::pulumi::Package> = schemas.packages.iter().map(|p| &*p.package).collect();
    let bridged = schema::bridge::resource(&packages, &place.ty)?;
    let p = bridged.resource.inputs.iter().find(|p| bridged.tf_name(&p.name) == word)?;
    let how = if p.required { "required" } else { "optional" };
    let file = schemas.packages.iter().find(|f| f.package.resources.contains_key(bridged.token))?;
    let prose = vec![
        format!("`{word}` of resource `{}`: {how} (`{}` of `{}`).", place.ty, p.name, bridged.token),
        format!("From the package schema {}.", file.label),
    ];
    Some(HoverInfo { range, ty: p.ty.clone(), prose })
}

/// The schema's description of the attribute a reference like
/// `TYPE.NAME.attr` or `data.TYPE.NAME[0].block.attr` names.
pub(super) fn reference_description(analysis: &ModuleAnalysis, text: &str) -> Option<String> {
    let schemas = analysis.context.schemas.as_ref()?;
    let mut parts: Vec<&str> = Vec::new();
    for p in text.split('.') {
        // Index steps (`[0]`, `["k"]`) do not name attributes.
        let name = p.split('[').next()?.trim();
        if name.is_empty() || !name.chars().all(|c| c.is_alphanumeric() || c == '_' || c == '-') {
            return None;
        }
        parts.push(name);
    }
    let (data, rest) = match parts.first() {
        Some(&"data") => (true, &parts[1..]),
        _ => (false, &parts[..]),
    };
    let [ty, _, path @ ..] = rest else { return None };
    if path.is_empty() {
        return None;
    }
    let found = schemas.find(data, ty)?;
    found.description(data, ty, path)
}

/// Completion from the schemas: `None` when the cursor is in no place they
/// know (the other completions apply).
pub(super) fn completion(
    d: &Document,
    offset: usize,
    parts: &[&str],
    analysis: &ModuleAnalysis,
) -> Option<CompletionList> {
    let schemas = analysis.context.schemas.as_ref()?;
    let prefix = item_prefix(d, offset);
    // `resource "goo…`: the resource (or data source) types.
    let head = prefix.trim_start();
    let kinds = [
        ("resource", BlockKind::Resource),
        ("data", BlockKind::DataSource),
        ("action", BlockKind::Action),
        ("list", BlockKind::ListResource),
    ];
    for (keyword, kind) in kinds {
        if let Some(typed) = head.strip_prefix(keyword).map(str::trim_start).and_then(|s| s.strip_prefix('"')) {
            if typed.chars().all(|c| c.is_alphanumeric() || c == '_' || c == '-') {
                let lower: Vec<char> = typed.chars().flat_map(char::to_lowercase).collect();
                let mut items: Vec<Completion> = schemas
                    .types_of(kind)
                    .filter(|(name, _)| starts_with_folded(name, &lower))
                    .map(|(name, f)| Completion {
                        label: name.to_string(),
                        kind: CompletionKind::Variable,
                        detail: Some(f.provider.address.clone()),
                        snippet: None,
                    })
                    .collect();
                items.sort_by(|a, b| a.label.cmp(&b.label));
                let incomplete = items.len() > NAME_LIMIT;
                items.truncate(NAME_LIMIT);
                return Some(CompletionList { items, incomplete });
            }
        }
    }
    // `attrs.…` in a policy file's `resource_policy "TYPE"`: the resource's
    // attributes (analysis.md §10).
    if let ["attrs", steps @ .., _] = parts {
        if analysis::is_policy_file(&d.file.path) {
            let mut words = prefix.split_whitespace();
            if let (Some("resource_policy"), Some(ty)) = (words.next(), words.next()) {
                let found = schemas.find(false, ty.trim_matches('"'))?;
                return Some(attributes_after(&found.block.value_type(), steps).into());
            }
        }
    }
    // `TYPE.NAME.…`: the attributes of a declared resource.
    let (address, steps) = match parts {
        ["data", ty, name, steps @ .., _] => (format!("data.{ty}.{name}"), steps),
        [ty, name, steps @ .., _] if *ty != "data" => (format!("{ty}.{name}"), steps),
        _ => (String::new(), &[][..]),
    };
    if let Some(sym) = analysis.resources.iter().find(|s| !address.is_empty() && s.address == address) {
        return Some(attributes_after(&sym.ty, steps).into());
    }
    // At the start of a line in a resource body: its arguments, required first, then blocks.
    let line = &prefix[prefix.rfind('\n').map_or(0, |p| p + 1)..];
    let typed = line.trim_start();
    if !typed.chars().all(|c| c.is_alphanumeric() || c == '_') {
        return None;
    }
    let place = place(prefix)?;
    let found = schemas.find_kind(place.kind, &place.ty)?;
    let block = block_at(&found, &place.nested)?;
    // Not what the block already sets (before or after the cursor).
    let set = set_in_block(prefix, item_text(d, offset));
    let settable = block.attributes.iter().filter(|a| (a.required || a.optional) && !set.contains(&a.name.as_str()));
    let (required, optional): (Vec<_>, Vec<_>) = settable.partition(|a| a.required);
    let mut items: Vec<Completion> = required
        .into_iter()
        .chain(optional)
        .map(|a| Completion {
            label: a.name.clone(),
            kind: CompletionKind::Attribute,
            detail: Some(format!("{}{}", if a.required { "required: " } else { "" }, a.ty)),
            snippet: Some(format!("{} = ${{1}}", a.name)),
        })
        .collect();
    items.extend(block.blocks.iter().map(|b| Completion {
        label: b.name.clone(),
        kind: CompletionKind::Keyword,
        detail: Some(if b.min_items > 0 { "required block".into() } else { "block".into() }),
        snippet: Some(format!("{} {{\n  ${{1}}\n}}", b.name)),
    }));
    Some(items.into())
}

/// The attribute names set directly in the innermost block open at the end
/// of `prefix`, read from the whole item text (`item` starts where `prefix`
/// does).
pub(crate) fn set_in_block<'a>(prefix: &str, item: &'a str) -> Vec<&'a str> {
    let Some(&(open, '{')) = open_brackets(prefix).last() else { return Vec::new() };
    let mut out = Vec::new();
    let mut depth = 0usize;
    for line in item.get(open + 1..).unwrap_or("").lines() {
        if depth == 0 {
            if let Some((key, _)) = line.split_once('=') {
                let key = key.trim();
                if !key.is_empty() && key.chars().all(|c| c.is_alphanumeric() || c == '_') {
                    out.push(key);
                }
            }
        }
        for c in line.chars() {
            match c {
                '{' | '[' | '(' => depth += 1,
                '}' | ']' | ')' if depth == 0 => return out,
                '}' | ']' | ')' => depth -= 1,
                _ => {}
            }
        }
    }
    out
}
