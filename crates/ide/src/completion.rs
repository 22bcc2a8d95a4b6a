//! Completion: type constructors and keywords in a type expression,
//! names, attributes after a traversal, functions, a called module's
//! variables and an object default's missing attributes.

use analysis::calls::{Callee, Input};
use analysis::functions;
use analysis::module::{ModuleAnalysis, Symbol, SymbolKind};
use analysis::Document;
use syntax::typeexpr::{constructors, keywords, parse_type_str, TypeContext};
use syntax::Dialect;
use types::{traverse, Kind, Step, Type};

use crate::cursor::*;
use crate::*;

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

pub(crate) fn constructor_snippet(name: &str) -> String {
    match name {
        "object" => "object({${1}})".into(),
        "tuple" => "tuple([${1}])".into(),
        _ => format!("{name}(${{1}})"),
    }
}

/// Completions at `offset` of document `doc` (in the text the user sees:
/// a JSON file's own, not its lowering).
pub fn completion(docs: &[Document], doc: usize, offset: usize, analysis: &ModuleAnalysis) -> CompletionList {
    let d = &docs[doc];
    let offset = d.offset_from_shown(offset);
    let dialect = d.file.dialect;
    let prefix = item_prefix(d, offset);
    if let Some(list) = symbol_completion(prefix, type_position(prefix, dialect).is_some(), analysis) {
        return list;
    }
    if let Some(list) = library_completion(d, prefix, type_position(prefix, dialect).is_some(), analysis) {
        return list;
    }
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
    // A policy file's inputs are its variables (analysis.md §10).
    let input = parts[0] == "input" && analysis::is_policy_file(&d.file.path);
    if parts.len() >= 2 && dialect != Dialect::Pcl && (matches!(parts[0], "var" | "local") || input) {
        let space = parts[0];
        if parts.len() == 2 {
            let kind = if space == "local" { SymbolKind::Local } else { SymbolKind::Variable };
            // Not the local being written: it cannot refer to itself.
            let own = |s: &Symbol| s.doc == doc && (s.range.start..=s.range.end).contains(&offset);
            return names(parts[1], analysis.symbols.iter().filter(|s| s.kind == kind && !own(s)));
        }
        let address = format!("{}.{}", parts[0], parts[1]);
        let Some(sym) = analysis.symbols.iter().find(|s| s.address == address) else { return Vec::new().into() };
        return attributes_after(&sym.ty, &parts[2..parts.len() - 1]).into();
    }
    if let Some(keys) = nomad_spec_keys(d, prefix, offset) {
        return keys.into();
    }
    if !dialect.is_terraform() {
        if let Some(inputs) = hcl_inputs(d, prefix, offset, analysis) {
            return inputs.into();
        }
        // A stack's `component.NAME.`: the component module's outputs (stacks.md §3).
        if parts.len() >= 3 && parts[0] == "component" && analysis::is_stack_component(&d.file.path) {
            let call = analysis::calls::component_call(parts[1]);
            let Some(i) = analysis.context.callee(&call).and_then(Callee::interface) else {
                return Vec::new().into();
            };
            return attributes_after(&i.value(), &parts[2..parts.len() - 1]).into();
        }
        // A Terragrunt stack file's `unit.NAME.path` and `stack.NAME.path`
        // (terragrunt.md §5): the file's components, then their `path`.
        if parts.len() >= 2
            && matches!(parts[0], "unit" | "stack")
            && analysis::dialects::terragrunt::stack::is_stack_file(&d.file.path)
        {
            if parts.len() == 2 {
                let prefix = format!("{}.", parts[0]);
                return names(parts[1], analysis.symbols.iter().filter(|s| s.address.starts_with(&prefix)));
            }
            let ty = analysis::dialects::terragrunt::stack::component_type();
            return attributes_after(&ty, &parts[2..parts.len() - 1]).into();
        }
        // A resource policy's `attrs.` (analysis.md §10).
        if parts[0] == "attrs" && analysis::is_policy_file(&d.file.path) {
            if let Some(list) = resources::completion(d, offset, &parts, analysis) {
                return list;
            }
        }
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
    if d.file.kind == analysis::FileKind::TfTest {
        let file = analysis::calls::test_file_name(&d.file.path);
        if let Some(list) = test_completion(&file, prefix, &parts, item_text(d, offset), analysis) {
            return list.into();
        }
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
    if let Some(options) = pulumi_options(d, prefix, offset) {
        return options.into();
    }
    if let Some(list) = resources::completion(d, offset, &parts, analysis) {
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

/// OpenTofu's symbol libraries (docs/spec/opentofu-symbol-libraries.md):
/// after `symbols::` the imported libraries, after `symbols::LIB::` the
/// library's types (in a type expression) or functions (elsewhere), after
/// `symbols.LIB.` its values. `None` elsewhere, or in a module that imports
/// no library.
fn symbol_completion(prefix: &str, in_type: bool, analysis: &ModuleAnalysis) -> Option<CompletionList> {
    let libs = &analysis.context.symbols;
    if libs.is_empty() {
        return None;
    }
    let tail = path_tail(prefix);
    let item = |label: &str, kind: CompletionKind, detail: String, snippet: Option<String>| Completion {
        label: label.to_string(),
        kind,
        detail: Some(detail),
        snippet,
    };
    let (path, dotted): (Vec<&str>, bool) = match tail.strip_prefix("symbols::") {
        Some(rest) => (rest.split("::").collect(), false),
        None => (tail.strip_prefix("symbols.")?.split('.').collect(), true),
    };
    let out: Vec<Completion> = match path[..] {
        [_] => libs
            .0
            .values()
            .map(|l| item(&l.label, CompletionKind::Variable, format!("symbol library `{}`", l.source), None))
            .collect(),
        [label, name, ref steps @ .., _] if dotted => {
            let v = libs.get(label)?.values.get(name)?;
            attributes_after(&v.ty, steps)
        }
        [label, _] if dotted => {
            let lib = libs.get(label)?;
            lib.values.iter().map(|(n, v)| item(n, CompletionKind::Attribute, v.ty.to_string(), None)).collect()
        }
        [label, _] if in_type => {
            let lib = libs.get(label)?;
            let snippet = |n: &str| Some(format!("{n}()"));
            lib.types
                .iter()
                .map(|(n, t)| item(n, CompletionKind::Constructor, t.declared.to_string(), snippet(n)))
                .collect()
        }
        [label, _] => {
            let lib = libs.get(label)?;
            lib.functions
                .iter()
                .map(|(n, f)| {
                    let params: Vec<String> = f.params.iter().map(|(p, t)| format!("{p} {t}")).collect();
                    let detail = format!("({}) {}", params.join(", "), f.returns);
                    item(n, CompletionKind::Function, detail, Some(format!("{n}(${{1}})")))
                })
                .collect()
        }
        _ => return None,
    };
    Some(out.into())
}

/// In a symbol library's own file (docs/spec/opentofu-symbol-libraries.md
/// §4): after `value.` its values, after `param.` and `local.` the
/// enclosing function's parameters and locals, after `symbols::` its own
/// types (in a type expression) or functions. `None` elsewhere.
fn library_completion(d: &Document, prefix: &str, in_type: bool, analysis: &ModuleAnalysis) -> Option<CompletionList> {
    let lib = analysis
        .own_library
        .as_ref()
        .filter(|_| analysis::dialects::symbol_libraries::libraries::is_symbol_file(&d.file.path))?;
    let tail = path_tail(prefix);
    let item = |label: &str, kind: CompletionKind, detail: String| Completion {
        label: label.to_string(),
        snippet: matches!(kind, CompletionKind::Function | CompletionKind::Constructor)
            .then(|| format!("{label}(${{1}})")),
        kind,
        detail: Some(detail),
    };
    // A library file's `type = …` is a type expression wherever it is.
    let line = prefix.rsplit('\n').next().unwrap_or("");
    let in_type = in_type || line.trim_start().strip_prefix("type").is_some_and(|r| r.trim_start().starts_with('='));
    // The function whose block the cursor is in (each top-level block is
    // an item); while it does not parse, the names its text declares.
    let function = || {
        let rest = prefix.trim_start().strip_prefix("function")?.trim_start().strip_prefix('"')?;
        lib.functions.get(&rest[..rest.find('"')?])
    };
    let text = item_text(d, offset_of(d, prefix));
    let out: Vec<Completion> = if let Some(rest) = tail.strip_prefix("symbols::") {
        if rest.contains("::") {
            return None;
        }
        if in_type {
            lib.types.iter().map(|(n, t)| item(n, CompletionKind::Constructor, t.declared.to_string())).collect()
        } else {
            lib.functions.iter().map(|(n, f)| item(n, CompletionKind::Function, f.returns.to_string())).collect()
        }
    } else if tail.strip_prefix("value.").is_some_and(|r| !r.contains('.')) {
        lib.values.iter().map(|(n, v)| item(n, CompletionKind::Attribute, v.ty.to_string())).collect()
    } else if tail.strip_prefix("param.").is_some_and(|r| !r.contains('.')) {
        match function() {
            Some(f) => {
                let params = f.params.iter().chain(&f.variadic);
                params.map(|(n, t)| item(n, CompletionKind::Variable, t.to_string())).collect()
            }
            None => labels_in(text, "parameter")
                .into_iter()
                .map(|n| item(&n, CompletionKind::Variable, "parameter".into()))
                .collect(),
        }
    } else if tail.strip_prefix("local.").is_some_and(|r| !r.contains('.')) {
        match function() {
            Some(f) => f.locals.iter().map(|(n, v)| item(n, CompletionKind::Variable, v.ty.to_string())).collect(),
            None => locals_in(text).into_iter().map(|n| item(&n, CompletionKind::Variable, "local".into())).collect(),
        }
    } else {
        return None;
    };
    Some(out.into())
}

/// The dotted or `::` path the cursor ends (`symbols::lib::he`).
fn path_tail(prefix: &str) -> &str {
    let start = prefix
        .char_indices()
        .rev()
        .take_while(|(_, c)| c.is_alphanumeric() || matches!(c, '_' | '-' | ':' | '.'))
        .last()
        .map_or(prefix.len(), |(i, _)| i);
    &prefix[start..]
}

/// Where `prefix` (a slice of the document's text) ends.
fn offset_of(d: &Document, prefix: &str) -> usize {
    (prefix.as_ptr() as usize).saturating_sub(d.file.text.as_ptr() as usize) + prefix.len()
}

/// The labels of `ident "LABEL"` headers in a text that does not parse.
fn labels_in(text: &str, ident: &str) -> Vec<String> {
    text.lines()
        .filter_map(|l| l.trim_start().strip_prefix(ident)?.trim_start().strip_prefix('"'))
        .filter_map(|r| Some(r[..r.find('"')?].to_string()))
        .collect()
}

/// The `NAME =` lines of the `locals` blocks of a text that does not parse.
fn locals_in(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut inside = false;
    for l in text.lines().map(str::trim) {
        if l.starts_with("locals") && l.ends_with('{') {
            inside = true;
        } else if inside && l.starts_with('}') {
            inside = false;
        } else if let Some((name, _)) = l.split_once('=').filter(|_| inside) {
            let name = name.trim();
            if !name.is_empty() && name.chars().all(|c| c.is_alphanumeric() || c == '_' || c == '-') {
                out.push(name.to_string());
            }
        }
    }
    out
}

/// At most this many names are offered at once; the list is marked
/// incomplete so the editor asks again as the user types more of the name.
pub const NAME_LIMIT: usize = 200;

/// The names that the typed part could still become (see [`fuzzy_match`]),
/// those it starts first, in source order otherwise.
fn names<'a>(typed: &str, symbols: impl Iterator<Item = &'a analysis::Symbol>) -> CompletionList {
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
pub(crate) fn starts_with_folded(name: &str, lower: &[char]) -> bool {
    let mut folded = name.chars().flat_map(char::to_lowercase);
    lower.iter().all(|c| folded.next() == Some(*c))
}

/// Whether the typed part of a name could still become `name`: its
/// characters in order, ignoring case (how editors filter completions, so
/// leaving the others out changes nothing but the size of the answer).
pub(crate) fn fuzzy_match(typed: &str, name: &str) -> bool {
    let mut rest = name.chars().flat_map(char::to_lowercase);
    typed.chars().flat_map(char::to_lowercase).all(|c| rest.any(|n| n == c))
}

fn name_completion(s: &analysis::Symbol) -> Completion {
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
pub(crate) fn attributes_after(t: &Type, steps: &[&str]) -> Vec<Completion> {
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
    Some(input_completions(i, item))
}

/// Where plain HCL hands values to a module (stacks.md §3, terragrunt.md
/// §2): at a name in a stack's `component "NAME" { inputs = { … } }` or a
/// Terragrunt unit's `inputs = { … }`, the module's variables not given yet,
/// those without a default first.
fn hcl_inputs(d: &Document, prefix: &str, offset: usize, analysis: &ModuleAnalysis) -> Option<Vec<Completion>> {
    let open = open_brackets(prefix);
    let line = &prefix[prefix.rfind('\n').map_or(0, |i| i + 1)..];
    if !line.trim_start().chars().all(|c| c.is_alphanumeric() || c == '_' || c == '-') {
        return None;
    }
    let head = prefix.trim_start();
    let is_stack = analysis::is_stack_component(&d.file.path);
    let (call, inputs_at) = if analysis::is_terragrunt_unit(&d.file.path) && head.starts_with("inputs") {
        (analysis::calls::TERRAGRUNT.to_string(), *open.first().filter(|_| open.len() == 1)?)
    } else if analysis::is_stack_component(&d.file.path) {
        let name = head.strip_prefix("component")?.trim_start().strip_prefix('"')?.split('"').next()?;
        let [(_, '{'), inputs] = open.as_slice() else { return None };
        if !prefix.get(..inputs.0)?.trim_end().strip_suffix('=')?.trim_end().ends_with("inputs") {
            return None;
        }
        (analysis::calls::component_call(name), *inputs)
    } else {
        return None;
    };
    if inputs_at.1 != '{' {
        return None;
    }
    // A Terragrunt unit runs its own `source`, its includes' or its own
    // directory (terragrunt.md §2, §3).
    let callee = match is_stack {
        false if call == analysis::calls::TERRAGRUNT => analysis::module::terragrunt_module(&analysis.context, d),
        _ => analysis.context.callee(&call).cloned(),
    };
    let callee = callee?;
    let i = callee.interface()?;
    let body = item_text(d, offset).get(inputs_at.0..).unwrap_or("");
    Some(input_completions(i, body))
}

/// Pulumi HCL (docs/spec/pulumi-hcl.md §2): at a name in the `pulumi { … }`
/// block of a resource, data source or provider, its options not set yet,
/// with what each takes.
fn pulumi_options(d: &Document, prefix: &str, offset: usize) -> Option<Vec<Completion>> {
    use analysis::dialects::pulumi_hcl::checks::{arguments, kind, OptionKind};
    if d.file.dialect != Dialect::PulumiHcl {
        return None;
    }
    let open = open_brackets(prefix);
    let [(owner_at, '{'), (block_at, '{')] = open.as_slice() else { return None };
    let owner = prefix.get(..*owner_at)?.split_whitespace().next()?;
    let line = prefix.get(..*block_at)?.rsplit('\n').next()?;
    if line.trim() != "pulumi" || !matches!(owner, "resource" | "data" | "provider") {
        return None;
    }
    let typed = &prefix[prefix.rfind('\n').map_or(0, |i| i + 1)..];
    if !typed.trim_start().chars().all(|c| c.is_alphanumeric() || c == '_') {
        return None;
    }
    let set = resources::set_in_block(prefix, item_text(d, offset));
    let items = arguments(owner).iter().filter(|a| !set.contains(a)).map(|a| {
        let detail = match kind(a) {
            OptionKind::Names => "list of attribute names",
            OptionKind::Address => "address",
            OptionKind::Bool => "bool",
            OptionKind::String => "string",
            OptionKind::Value => "any",
        };
        Completion {
            label: (*a).to_string(),
            kind: CompletionKind::Attribute,
            detail: Some(detail.to_string()),
            snippet: Some(format!("{a} = ${{1}}")),
        }
    });
    Some(items.collect())
}

/// In a Nomad variable specification (analysis.md §8.1), at a top-level
/// name: the keys `nomad var put` takes that the file does not set yet,
/// each with its type.
fn nomad_spec_keys(d: &Document, prefix: &str, offset: usize) -> Option<Vec<Completion>> {
    if !analysis::is_nomad_variable_spec(&d.file.path) || !open_brackets(prefix).is_empty() {
        return None;
    }
    let typed = &prefix[prefix.rfind('\n').map_or(0, |i| i + 1)..];
    if !typed.trim_start().chars().all(|c| c.is_alphanumeric() || c == '_') {
        return None;
    }
    let text = &d.file.text;
    let set: Vec<&str> = (d.items.iter())
        .filter(|i| !(i.range.start..=i.range.end).contains(&offset))
        .filter_map(|i| text.get(i.range.clone())?.split(|c: char| !(c.is_alphanumeric() || c == '_')).next())
        .collect();
    let keys = analysis::dialects::nomad::variables::arguments().into_iter().filter(|(k, _)| !set.contains(k));
    let items = keys.map(|(k, t)| Completion {
        label: k.to_string(),
        kind: CompletionKind::Attribute,
        detail: Some(t.to_string()),
        snippet: Some(if k == "items" { "items {\n  ${1} = \"${2}\"\n}".to_string() } else { format!("{k} = ${{1}}") }),
    });
    Some(items.collect())
}

/// In a test file (docs/spec/tests.md): in a `variables { }` block (the
/// file's or a run's) the variables of the module it sets, those without a
/// default first; after `run.` the runs, after `run.NAME.` the run's
/// outputs; in a run's `assert` after `output.` the run module's outputs.
fn test_completion(
    file: &str,
    prefix: &str,
    parts: &[&str],
    item: &str,
    analysis: &ModuleAnalysis,
) -> Option<Vec<Completion>> {
    use analysis::calls::{run_call, TESTED};
    let run_call = |name: &str| run_call(file, name);
    let own = run_call("");
    let interface = |call: &str| analysis.context.callee(call).and_then(Callee::interface);
    let run = prefix
        .trim_start()
        .strip_prefix("run")
        .and_then(|h| h.trim_start().strip_prefix('"'))
        .and_then(|h| h.split('"').next());
    if parts.len() >= 2 && parts[0] == "run" {
        if parts.len() == 2 {
            let runs = analysis.context.calls.iter().filter_map(|(k, c)| Some((k.strip_prefix(own.as_str())?, c)));
            return Some(
                runs.map(|(name, c)| Completion {
                    label: name.to_string(),
                    kind: CompletionKind::Variable,
                    detail: c.interface().map(|i| i.value().to_string()),
                    snippet: None,
                })
                .collect(),
            );
        }
        let i = interface(&run_call(parts[1]))?;
        return Some(attributes_after(&i.value(), &parts[2..parts.len() - 1]));
    }
    let open = open_brackets(prefix);
    if parts.len() >= 2 && parts[0] == "output" {
        let i = interface(&run_call(run?))?;
        return Some(attributes_after(&i.value(), &parts[1..parts.len() - 1]));
    }
    let line = &prefix[prefix.rfind('\n').map_or(0, |i| i + 1)..];
    if !line.trim_start().chars().all(|c| c.is_alphanumeric() || c == '_' || c == '-') {
        return None;
    }
    let (call, block_start) = match (run, open.as_slice()) {
        (None, [(at, '{')]) if prefix.trim_start().starts_with("variables") => (TESTED.to_string(), *at),
        (Some(name), [(_, '{'), (at, '{')]) if prefix[..*at].trim_end().ends_with("variables") => (run_call(name), *at),
        _ => return None,
    };
    let i = interface(&call)?;
    // The names set in this block (up to its closing brace).
    let block = &item[block_start.min(item.len())..];
    let end = block.find('}').unwrap_or(block.len());
    Some(input_completions(i, &block[..end]))
}

/// A module's variables not set in `body` (lines `NAME = …`), those
/// without a default first, with their types.
fn input_completions(i: &analysis::Interface, body: &str) -> Vec<Completion> {
    let given: Vec<&str> = body
        .lines()
        .skip(1)
        .filter_map(|l| l.split_once('=').map(|(k, _)| k.trim()))
        .filter(|k| k.chars().all(|c| c.is_alphanumeric() || c == '_' || c == '-'))
        .collect();
    let mut inputs: Vec<&Input> = i.inputs.iter().filter(|v| !given.contains(&v.name.as_str())).collect();
    inputs.sort_by_key(|v| !v.required);
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
        .collect()
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
