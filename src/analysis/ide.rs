//! Editor features as plain data with byte offsets (rust-analyzer's "IDE
//! API" idea): the server only converts positions and wraps these in LSP
//! types.

use std::ops::Range;

mod schema;

use super::calls::{Callee, Input};
use super::infer::Note;
use super::infer::Typed;
use super::module::{Memo, ModuleAnalysis, Symbol, SymbolKind};
use super::Document;
use crate::functions;
use crate::syntax::typeexpr::{constructors, keywords, parse_type_str, NodeKind, TypeContext};
use crate::syntax::Dialect;
use crate::types::{traverse, Kind, Step, Type};

/// What hover shows: the type (one line of canonical text) and prose.
#[derive(Clone, Debug, PartialEq)]
pub struct HoverInfo {
    pub range: Range<usize>,
    pub ty: Type,
    pub prose: Vec<String>,
}

impl HoverInfo {
    /// Markdown: the first fenced block holds exactly the type.
    pub fn markdown(&self) -> String {
        let mut s = format!("```hcl\n{}\n```", self.ty);
        for p in &self.prose {
            s.push_str("\n\n");
            s.push_str(p);
        }
        s
    }
}

fn line_of(text: &str, offset: usize) -> usize {
    memchr::memchr_iter(b'\n', &text.as_bytes()[..offset.min(text.len())]).count() + 1
}

fn file_name(docs: &[Document], path: Option<&std::path::Path>, doc: usize) -> String {
    let p = path.map(|p| p.to_path_buf()).unwrap_or_else(|| docs[doc].file.path.clone());
    p.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default()
}

/// The hover at `offset` of document `doc`.
pub fn hover(docs: &[Document], doc: usize, offset: usize) -> Option<HoverInfo> {
    hover_with(docs, doc, offset, &mut Memo::default())
}

/// [`hover`], reusing what earlier analyses of the module found.
pub fn hover_with(docs: &[Document], doc: usize, offset: usize, memo: &mut Memo) -> Option<HoverInfo> {
    let (analysis, probe) = memo.probe(docs, doc, offset);
    hover_in(docs, doc, offset, &analysis, &probe)
}

/// Hover from a module's analysis and the expression types recorded for
/// the item at the offset.
pub fn hover_in<'a>(
    docs: &[Document],
    doc: usize,
    offset: usize,
    analysis: &'a ModuleAnalysis,
    probe: &[Typed],
) -> Option<HoverInfo> {
    let contains = |r: &Range<usize>| r.start <= offset && offset < r.end.max(r.start + 1);
    // Type nodes and symbols are sorted by position and lie inside their
    // items: only those of the item at the offset, up to it, can contain it.
    let d = docs.get(doc)?;
    let item_start =
        d.items[..d.items.partition_point(|i| i.range.start <= offset)].last().map_or(0, |i| i.range.start);
    let nodes = analysis.type_nodes.get(doc)?;
    let upto = nodes.partition_point(|start| start <= offset);
    let from = nodes.partition_point(|start| start < item_start).min(upto);
    // A type expression: what the innermost keyword or constructor denotes.
    let candidates = (from..upto).filter_map(|i| nodes.get(i));
    if let Some(node) = candidates.filter(|n| contains(&n.range)).min_by_key(|n| n.range.len()) {
        let what = match node.kind {
            NodeKind::Keyword => "type keyword",
            NodeKind::Constructor => "type constructor",
            NodeKind::Attribute => "object attribute",
        };
        return Some(HoverInfo {
            range: node.range.clone(),
            ty: node.ty.clone(),
            prose: vec![format!("The declared type of this {what}.")],
        });
    }
    // The name of a declaration: the value type of what it declares.
    let near = |v: &'a [super::Symbol]| {
        let upto = v.partition_point(|s| (s.doc, s.name_range.start) <= (doc, offset));
        let from = v[..upto].partition_point(|s| (s.doc, s.name_range.start) < (doc, item_start));
        &v[from..upto]
    };
    if let Some(s) = near(&analysis.symbols).iter().chain(near(&analysis.resources)).find(|s| contains(&s.name_range)) {
        let what = match s.kind {
            SymbolKind::Variable => "variable",
            SymbolKind::Local => "local value",
            SymbolKind::Output => "output",
            SymbolKind::Config => "config",
            SymbolKind::Attribute => "top-level value",
            SymbolKind::Resource => "resource",
        };
        let mut prose = vec![format!("`{}`: the value type of this {what}.", s.address)];
        if super::module::module_dialect(docs) == crate::syntax::Dialect::OpenTofu {
            // (analysis.md §7: a module with a `.tofu` file, or so configured.)
            prose.push("An OpenTofu module: read as OpenTofu reads it (the `opentofu` dialect).".to_string());
        }
        return Some(HoverInfo { range: s.name_range.clone(), ty: s.ty.clone(), prose });
    }
    // An expression: the innermost one, with every note recorded for it.
    let Some(best) = probe.iter().filter(|t| contains(&t.range)).min_by_key(|t| t.range.len()) else {
        return schema::hover_argument(docs, doc, offset, analysis);
    };
    let same: Vec<_> = probe.iter().filter(|t| t.range == best.range).collect();
    let main = same.iter().find(|t| !matches!(t.note, Note::Checked(..))).unwrap_or(&same[0]);
    let mut prose = Vec::new();
    for t in &same {
        match &t.note {
            Note::Reference(Some(r)) => {
                let file = file_name(docs, r.path.as_deref(), doc);
                let text = docs
                    .iter()
                    .find(|d| Some(&d.file.path) == r.path.as_ref())
                    .map(|d| &d.file.text)
                    .unwrap_or(&docs[doc].file.text);
                prose.push(format!("{} ({}:{})", capitalise(&r.message), file, line_of(text, r.range.start)));
            }
            Note::Conditional(a, b) => {
                prose.push(format!("A conditional: `{a}` and `{b}` unify to `{}`.", main.ty));
            }
            Note::Checked(expected, safety) => {
                let how = match safety {
                    crate::types::Safety::Safe => "converts safely",
                    crate::types::Safety::Unsafe => "may fail to convert at run time",
                    crate::types::Safety::None => "cannot convert",
                };
                prose.push(format!("Expected `{expected}` here: this value {how}."));
            }
            Note::Doc(text) => prose.push(text.clone()),
            Note::Plain | Note::Reference(None) => {}
        }
    }
    // A reference is recorded both as itself and as the root of its traversal.
    let mut seen = std::collections::HashSet::new();
    prose.retain(|p| seen.insert(p.clone()));
    if let Some(text) = docs[doc].file.text.get(main.range.clone()) {
        prose.extend(schema::reference_description(analysis, text));
    }
    Some(HoverInfo { range: main.range.clone(), ty: main.ty.clone(), prose })
}

fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

/// What a completion item inserts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CompletionKind {
    Keyword,
    Constructor,
    Variable,
    Attribute,
    Function,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Completion {
    pub label: String,
    pub kind: CompletionKind,
    pub detail: Option<String>,
    /// A snippet (`list(${1})`) when it differs from the label.
    pub snippet: Option<String>,
}

/// What completion offers, and whether typing more can bring other items
/// (the list was cut at [`NAME_LIMIT`]).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CompletionList {
    pub items: Vec<Completion>,
    pub incomplete: bool,
}

impl From<Vec<Completion>> for CompletionList {
    fn from(items: Vec<Completion>) -> Self {
        CompletionList { items, incomplete: false }
    }
}

fn constructor_snippet(name: &str) -> String {
    match name {
        "object" => "object({${1}})".into(),
        "tuple" => "tuple([${1}])".into(),
        _ => format!("{name}(${{1}})"),
    }
}

/// The text of the current top-level item up to `offset`, even when the
/// item does not parse (the user is typing).
fn item_prefix(doc: &Document, offset: usize) -> &str {
    let text = &doc.file.text;
    let offset = offset.min(text.len());
    let start = doc.items.iter().filter(|i| i.range.start <= offset).map(|i| i.range.start).max().unwrap_or(0);
    // Items end at their last line; text typed after the last item still
    // belongs to it when it is inside its brackets, else starts a new one.
    text.get(start..offset).unwrap_or("")
}

/// The whole text of the top-level item at `offset`.
fn item_text(doc: &Document, offset: usize) -> &str {
    let text = &doc.file.text;
    let item = doc.items.iter().filter(|i| i.range.start <= offset).max_by_key(|i| i.range.start);
    item.and_then(|i| text.get(i.range.start..i.range.end.max(offset).min(text.len()))).unwrap_or("")
}

/// Open brackets of `s` (quotes and comments are not tracked: this reads
/// half-typed text).
fn open_brackets(s: &str) -> Vec<(usize, char)> {
    let mut stack = Vec::new();
    let mut in_str = false;
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'\\' if in_str => i += 1,
            b'"' => in_str = !in_str,
            b'(' | b'[' | b'{' if !in_str => stack.push((i, b[i] as char)),
            b')' | b']' | b'}' if !in_str => {
                stack.pop();
            }
            _ => {}
        }
        i += 1;
    }
    stack
}

/// Where a type expression being typed starts (offset into `prefix`), when
/// the cursor is in one.
fn type_position(prefix: &str, dialect: Dialect) -> Option<usize> {
    let head = prefix.trim_start();
    // A variable's `type`, and (Terraform 1.15) an output's.
    let typed_block = head.starts_with("variable") || dialect.is_terraform() && head.starts_with("output");
    if dialect != Dialect::Pcl && typed_block {
        // The last `type =` at a line start whose expression is still open
        // or on the cursor's line.
        let mut found = None;
        let mut at = 0;
        for line in prefix.split_inclusive('\n') {
            let t = line.trim_start();
            if let Some(rest) = t.strip_prefix("type") {
                if rest.trim_start().starts_with('=') && !rest.trim_start().starts_with("==") {
                    let eq = at + (line.len() - t.len()) + 4 + (rest.len() - rest.trim_start().len()) + 1;
                    found = Some(eq);
                }
            }
            at += line.len();
        }
        let start = found?;
        // The type expression ends at the first newline outside brackets.
        let mut depth = 0i32;
        for c in prefix[start..].chars() {
            match c {
                '(' | '[' | '{' => depth += 1,
                ')' | ']' | '}' => depth -= 1,
                '\n' if depth <= 0 => return None,
                _ => {}
            }
        }
        return Some(start);
    }
    if !dialect.is_terraform() {
        // `config NAME "…` or `output NAME "…`: inside the quoted label.
        let line_start = prefix.rfind('\n').map_or(0, |i| i + 1);
        let line = &prefix[line_start..];
        let t = line.trim_start();
        if (t.starts_with("config ") || t.starts_with("output ")) && line.matches('"').count() % 2 == 1 {
            return line.find('"').map(|q| line_start + q + 1);
        }
    }
    None
}

/// The identifier (and dotted path) that ends at the cursor.
fn trailing_path(prefix: &str) -> &str {
    let start = prefix
        .char_indices()
        .rev()
        .take_while(|(_, c)| c.is_alphanumeric() || matches!(c, '_' | '-' | '.'))
        .last()
        .map_or(prefix.len(), |(i, _)| i);
    &prefix[start..]
}

/// Completions at `offset` of document `doc`.
pub fn completion(docs: &[Document], doc: usize, offset: usize, analysis: &ModuleAnalysis) -> CompletionList {
    let d = &docs[doc];
    let dialect = d.file.dialect;
    let prefix = item_prefix(d, offset);
    if let Some(start) = type_position(prefix, dialect) {
        let expr = &prefix[start..];
        // `optional` only where the dialect allows it: inside object({…})
        // attribute types, or anywhere outside Terraform.
        let in_object =
            open_brackets(expr).iter().any(|(i, c)| *c == '{' && expr[..*i].trim_end().ends_with("object("));
        let mut out: Vec<Completion> = keywords(dialect)
            .into_iter()
            .map(|k| Completion {
                label: k.into(),
                kind: CompletionKind::Keyword,
                detail: Some("type".into()),
                snippet: None,
            })
            .collect();
        for c in constructors(dialect) {
            if c == "optional" && !in_object && dialect.is_terraform() {
                continue;
            }
            out.push(Completion {
                label: c.into(),
                kind: CompletionKind::Constructor,
                detail: Some("type constructor".into()),
                snippet: Some(constructor_snippet(c)),
            });
        }
        return out.into();
    }
    let path = trailing_path(prefix);
    let parts: Vec<&str> = path.split('.').collect();
    if parts.len() >= 2 && dialect != Dialect::Pcl && matches!(parts[0], "var" | "local") {
        let space = parts[0];
        if parts.len() == 2 {
            let kind = if space == "var" { SymbolKind::Variable } else { SymbolKind::Local };
            // Not the local being written: it cannot refer to itself.
            let own = |s: &Symbol| s.doc == doc && (s.range.start..=s.range.end).contains(&offset);
            return names(parts[1], analysis.symbols.iter().filter(|s| s.kind == kind && !own(s)));
        }
        let address = format!("{}.{}", parts[0], parts[1]);
        let Some(sym) = analysis.symbols.iter().find(|s| s.address == address) else { return Vec::new().into() };
        return attributes_after(&sym.ty, &parts[2..parts.len() - 1]).into();
    }
    if !dialect.is_terraform() {
        if parts.len() >= 2 {
            let Some(sym) = analysis.symbols.iter().find(|s| s.name == parts[0] && !s.address.starts_with("output."))
            else {
                return Vec::new().into();
            };
            return attributes_after(&sym.ty, &parts[1..parts.len() - 1]).into();
        }
        let typed = parts[0];
        let candidates = analysis.symbols.iter().chain(&analysis.resources);
        let mut out = names(typed, candidates.filter(|s| s.doc < docs.len() && !s.address.starts_with("output.")));
        out.items.extend(functions_completions(dialect));
        return out;
    }
    if let Some(missing) = missing_default_attributes(d, prefix, offset) {
        return missing.into();
    }
    if parts.len() >= 2 && parts[0] == "module" {
        if parts.len() == 2 {
            let calls = analysis.resources.iter().filter(|s| s.address.starts_with("module."));
            return names(parts[1], calls);
        }
        let Some(i) = analysis.context.callee(parts[1]).and_then(Callee::interface) else {
            return Vec::new().into();
        };
        return attributes_after(&i.value(), &parts[2..parts.len() - 1]).into();
    }
    if let Some(args) = module_arguments(prefix, item_text(d, offset), analysis) {
        return args.into();
    }
    if let Some(list) = schema::completion(d, offset, &parts, analysis) {
        return list;
    }
    if parts.len() == 1 && !path.is_empty() {
        let mut out: Vec<Completion> = ["var", "local", "each", "count", "path", "terraform"]
            .iter()
            .map(|k| Completion { label: (*k).into(), kind: CompletionKind::Keyword, detail: None, snippet: None })
            .collect();
        out.extend(functions_completions(dialect));
        return out.into();
    }
    Vec::new().into()
}

/// At most this many names are offered at once; the list is marked
/// incomplete so the editor asks again as the user types more of the name.
pub const NAME_LIMIT: usize = 200;

/// The names that the typed part could still become (see [`fuzzy_match`]),
/// those it starts first, in source order otherwise.
fn names<'a>(typed: &str, symbols: impl Iterator<Item = &'a super::Symbol>) -> CompletionList {
    let lower: Vec<char> = typed.chars().flat_map(char::to_lowercase).collect();
    let (mut starts, mut others) = (Vec::new(), Vec::new());
    // A name declared twice (an error reported elsewhere) is offered once;
    // only names offered are remembered, so a large module costs no more.
    let mut seen = std::collections::HashSet::new();
    for s in symbols {
        if starts_with_folded(&s.name, &lower) {
            if seen.insert(s.name.as_str()) {
                starts.push(s);
            }
            // Enough names that start with it: no other comes before them.
            if starts.len() > NAME_LIMIT {
                break;
            }
        } else if others.len() <= NAME_LIMIT && fuzzy_match(typed, &s.name) && seen.insert(s.name.as_str()) {
            others.push(s);
        }
    }
    starts.append(&mut others);
    let incomplete = starts.len() > NAME_LIMIT;
    CompletionList { items: starts.into_iter().take(NAME_LIMIT).map(name_completion).collect(), incomplete }
}

/// Whether `name`, lowercased, starts with `lower` (without allocating).
fn starts_with_folded(name: &str, lower: &[char]) -> bool {
    let mut folded = name.chars().flat_map(char::to_lowercase);
    lower.iter().all(|c| folded.next() == Some(*c))
}

/// Whether the typed part of a name could still become `name`: its
/// characters in order, ignoring case (how editors filter completions, so
/// leaving the others out changes nothing but the size of the answer).
fn fuzzy_match(typed: &str, name: &str) -> bool {
    let mut rest = name.chars().flat_map(char::to_lowercase);
    typed.chars().flat_map(char::to_lowercase).all(|c| rest.any(|n| n == c))
}

fn name_completion(s: &super::Symbol) -> Completion {
    Completion { label: s.name.clone(), kind: CompletionKind::Variable, detail: Some(s.ty.to_string()), snippet: None }
}

fn functions_completions(dialect: Dialect) -> Vec<Completion> {
    functions::names(dialect)
        .into_iter()
        .filter_map(|n| functions::lookup(dialect, n))
        .map(|f| Completion {
            label: f.name.into(),
            kind: CompletionKind::Function,
            detail: Some(f.label()),
            snippet: Some(format!("{}(${{1}})", f.name)),
        })
        .collect()
}

/// The attributes of `t` after traversing `steps`.
fn attributes_after(t: &Type, steps: &[&str]) -> Vec<Completion> {
    let mut t = t.clone();
    for s in steps {
        t = traverse(&t, &Step::Attr((*s).to_string())).ty;
    }
    let mut out = Vec::new();
    for m in t.eventual_element().members() {
        if let Kind::Object(attrs) = m.kind() {
            for (name, ty) in attrs {
                if !out.iter().any(|c: &Completion| c.label == *name) {
                    out.push(Completion {
                        label: name.clone(),
                        kind: CompletionKind::Attribute,
                        detail: Some(ty.to_string()),
                        snippet: None,
                    });
                }
            }
        }
    }
    out
}

/// At the start of a line directly in a `module` block's body: the called
/// module's variables not set yet, those without a default first.
fn module_arguments(prefix: &str, item: &str, analysis: &ModuleAnalysis) -> Option<Vec<Completion>> {
    let head = prefix.trim_start().strip_prefix("module")?;
    let name = head.trim_start().strip_prefix('"')?.split('"').next()?;
    let open = open_brackets(prefix);
    if open.len() != 1 || open[0].1 != '{' {
        return None;
    }
    let line = &prefix[prefix.rfind('\n').map_or(0, |i| i + 1)..];
    if !line.trim_start().chars().all(|c| c.is_alphanumeric() || c == '_' || c == '-') {
        return None;
    }
    let i = analysis.context.callee(name)?.interface()?;
    let given: Vec<&str> = item
        .lines()
        .skip(1)
        .filter_map(|l| l.split_once('=').map(|(k, _)| k.trim()))
        .filter(|k| k.chars().all(|c| c.is_alphanumeric() || c == '_' || c == '-'))
        .collect();
    let mut inputs: Vec<&Input> = i.inputs.iter().filter(|v| !given.contains(&v.name.as_str())).collect();
    inputs.sort_by_key(|v| !v.required);
    Some(
        inputs
            .into_iter()
            .map(|v| {
                let ty = v.declared.clone().unwrap_or_else(|| v.value.clone());
                let detail = if v.required { format!("{ty} (required)") } else { ty.to_string() };
                Completion {
                    label: v.name.clone(),
                    kind: CompletionKind::Attribute,
                    detail: Some(detail),
                    snippet: Some(format!("{} = ${{1}}", v.name)),
                }
            })
            .collect(),
    )
}

/// Inside `default = { … }` of an object-typed variable: the attributes
/// not written yet.
fn missing_default_attributes(doc: &Document, prefix: &str, offset: usize) -> Option<Vec<Completion>> {
    if !prefix.trim_start().starts_with("variable") {
        return None;
    }
    let default_at = prefix.rfind("default")?;
    let after = &prefix[default_at..];
    let open = open_brackets(after);
    let &(brace, '{') = open.first()? else { return None };
    if open.len() != 1 {
        return None;
    }
    let text = &doc.file.text;
    let item = doc.items.iter().filter(|i| i.range.start <= offset).max_by_key(|i| i.range.start)?;
    let item_text = &text[item.range.start..item.range.end.max(offset).min(text.len())];
    let type_line = item_text.lines().find(|l| l.trim_start().starts_with("type") && l.contains('='))?;
    let type_start = item_text.find(type_line)? + type_line.find('=')? + 1;
    // The type expression runs until its brackets close.
    let rest = &item_text[type_start..];
    let mut depth = 0i32;
    let mut end = rest.len();
    for (i, c) in rest.char_indices() {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => depth -= 1,
            '\n' if depth == 0 && i > 0 => {
                end = i;
                break;
            }
            _ => {}
        }
    }
    let ty = parse_type_str(rest[..end].trim(), TypeContext::variable(doc.file.dialect)).declared;
    let Kind::Object(attrs) = ty.kind() else { return None };
    let written = &after[brace..];
    let present: Vec<&str> = written.lines().filter_map(|l| l.trim_start().split(['=', ' ']).next()).collect();
    Some(
        attrs
            .iter()
            .filter(|(n, _)| !present.contains(&n.as_str()))
            .map(|(n, t)| Completion {
                label: n.clone(),
                kind: CompletionKind::Attribute,
                detail: Some(t.to_string()),
                snippet: Some(format!("{n} = ${{1}}")),
            })
            .collect(),
    )
}

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

/// Inlay hints: `(offset, label)` after each local, PCL top-level value and
/// untyped output name.
pub fn inlay_hints(analysis: &ModuleAnalysis, doc: usize, docs: &[Document]) -> Vec<(usize, String)> {
    let text = &docs[doc].file.text;
    analysis
        .symbols
        .iter()
        .filter(|s| s.doc == doc)
        .filter(|s| match s.kind {
            SymbolKind::Local | SymbolKind::Attribute => true,
            SymbolKind::Output => {
                // Typed PCL outputs show their type already.
                let decl = text.get(s.range.clone()).unwrap_or("");
                let head = decl.split('{').next().unwrap_or("");
                head.split_whitespace().count() <= 2
            }
            _ => false,
        })
        .map(|s| (s.name_range.end, format!(": {}", s.ty.brief())))
        .collect()
}

/// Semantic token kinds of type expressions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TokenKind {
    Type,
    Function,
    Property,
}

pub fn semantic_tokens(analysis: &ModuleAnalysis, doc: usize) -> Vec<(Range<usize>, TokenKind)> {
    let mut out: Vec<(Range<usize>, TokenKind)> = analysis
        .type_nodes
        .get(doc)
        .map(|nodes| {
            nodes
                .iter()
                .map(|n| {
                    let kind = match n.kind {
                        NodeKind::Keyword => TokenKind::Type,
                        NodeKind::Constructor => TokenKind::Function,
                        NodeKind::Attribute => TokenKind::Property,
                    };
                    (n.name_range.clone(), kind)
                })
                .collect()
        })
        .unwrap_or_default();
    out.sort_by_key(|(r, _)| (r.start, r.end));
    out.dedup_by(|a, b| a.0.start < b.0.end);
    out
}

/// Where the reference at `offset` is declared: (document path, range).
pub fn definition(docs: &[Document], doc: usize, offset: usize) -> Option<(std::path::PathBuf, Range<usize>)> {
    definition_with(docs, doc, offset, &mut Memo::default())
}

/// [`definition`], reusing what earlier analyses of the module found.
pub fn definition_with(
    docs: &[Document],
    doc: usize,
    offset: usize,
    memo: &mut Memo,
) -> Option<(std::path::PathBuf, Range<usize>)> {
    let (_, probe) = memo.probe(docs, doc, offset);
    let contains = |r: &Range<usize>| r.start <= offset && offset < r.end.max(r.start + 1);
    probe
        .iter()
        .filter(|t| contains(&t.range))
        .filter_map(|t| match &t.note {
            Note::Reference(Some(r)) => Some((t.range.len(), r)),
            _ => None,
        })
        .min_by_key(|(len, _)| *len)
        .map(|(_, r)| (r.path.clone().unwrap_or_else(|| docs[doc].file.path.clone()), r.range.clone()))
}

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

/// The quick fix of a diagnostic: a suggested name, legacy quotes removed,
/// a bare `list`/`map` made explicit.
pub fn quick_fix(d: &crate::diagnostic::Diagnostic, text: &str) -> Option<QuickFix> {
    use crate::diagnostic::Code;
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
    if d.code == Code::TypeSyntax && d.message.starts_with("bare `") {
        let explicit = between(&d.message, "; write `")?;
        return Some(QuickFix { title: format!("Write {explicit}"), range: d.range.clone(), replacement: explicit });
    }
    let suggestion = between(&d.message, "did you mean `")?;
    let replacement = match (d.code, original.chars().next()) {
        (Code::Traversal, Some('.')) => format!(".{suggestion}"),
        (Code::Traversal, Some('[')) => format!("[{}]", crate::types::quote_string(&suggestion)),
        _ => suggestion.clone(),
    };
    Some(QuickFix { title: format!("Change to `{suggestion}`"), range: d.range.clone(), replacement })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostic::{Code, Diagnostic};

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
