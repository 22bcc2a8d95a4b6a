//! Hover: the type of the name or expression under the cursor (one line
//! of canonical text) and what is known of it (declaration, description,
//! schema documentation).

use std::ops::Range;

use analysis::infer::Note;
use analysis::infer::Typed;
use analysis::module::{Memo, ModuleAnalysis, SymbolKind};
use analysis::Document;
use syntax::typeexpr::NodeKind;
use types::Type;

use crate::*;

mod declared;
mod language;
mod names;

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

    /// Plain text: the type, then the prose.
    pub fn plain_text(&self) -> String {
        let mut s = self.ty.to_string();
        for p in &self.prose {
            s.push_str("\n\n");
            s.push_str(p);
        }
        s
    }
}

/// The hover at `offset` of document `doc`.
pub fn hover(docs: &[Document], doc: usize, offset: usize) -> Option<HoverInfo> {
    hover_with(docs, doc, offset, &mut Memo::default())
}

/// [`hover`], reusing what earlier analyses of the module found. The
/// offset and the range are in the text the user sees (a JSON file's own,
/// not its lowering: [`Document::shown_text`]).
pub fn hover_with(docs: &[Document], doc: usize, offset: usize, memo: &mut Memo) -> Option<HoverInfo> {
    let d = docs.get(doc)?;
    let offset = d.offset_from_shown(offset);
    let (analysis, probe) = memo.probe(docs, doc, offset);
    hover_in(docs, doc, offset, &analysis, &probe).map(|h| HoverInfo { range: d.shown_range(&h.range), ..h })
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
            NodeKind::Named => {
                let text = d.file.text.get(node.range.clone()).unwrap_or("");
                return Some(HoverInfo {
                    range: node.range.clone(),
                    ty: node.ty.clone(),
                    prose: named_type_prose(text, analysis),
                });
            }
        };
        return Some(HoverInfo {
            range: node.range.clone(),
            ty: node.ty.clone(),
            prose: vec![format!("The declared type of this {what}.")],
        });
    }
    if let Some(h) = symbols_block(d, offset, analysis) {
        return Some(h);
    }
    // The name of a declaration: the value type of what it declares.
    let near = |v: &'a [analysis::Symbol]| {
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
        if analysis.ephemeral.binary_search(&s.address).is_ok() {
            prose.push(EPHEMERAL.to_string());
        }
        if analysis::module::module_dialect(docs) == syntax::Dialect::OpenTofu {
            // (analysis.md §7: a module with a `.tofu` file, or so configured.)
            prose.push("An OpenTofu module: read as OpenTofu reads it (the `opentofu` dialect).".to_string());
        }
        return Some(HoverInfo { range: s.name_range.clone(), ty: s.ty.clone(), prose });
    }
    if let Some(h) = resources::hover_type_label(docs, doc, offset, analysis) {
        return Some(h);
    }
    // An expression: the innermost one, with every note recorded for it.
    let Some(best) = probe.iter().filter(|t| contains(&t.range)).min_by_key(|t| t.range.len()) else {
        return resources::hover_argument(docs, doc, offset, analysis)
            .or_else(|| names::hover_name(docs, doc, offset, analysis));
    };
    let same: Vec<_> = probe.iter().filter(|t| t.range == best.range).collect();
    let main = same.iter().find(|t| !matches!(t.note, Note::Checked(..))).unwrap_or(&same[0]);
    let mut prose = Vec::new();
    for t in &same {
        match &t.note {
            Note::Reference(Some(r)) => {
                let file = file_name(docs, r.path.as_deref(), doc);
                let at = match &r.path {
                    None => docs.get(doc),
                    Some(p) => docs.iter().find(|d| d.file.path == *p),
                };
                // (A file of another module, a callee's, is not at hand: no line.)
                match at {
                    Some(d) => {
                        prose.push(format!("{} ({}:{})", capitalise(&r.message), file, d.shown_line(r.range.start)))
                    }
                    None => prose.push(format!("{} ({file})", capitalise(&r.message))),
                }
            }
            Note::Conditional(a, b) => {
                prose.push(format!("A conditional: `{a}` and `{b}` unify to `{}`.", main.ty));
            }
            Note::Checked(expected, safety) => {
                let how = match safety {
                    types::Safety::Safe => "converts safely",
                    types::Safety::Unsafe => "may fail to convert at run time",
                    types::Safety::None => "cannot convert",
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
        if analysis::module::ephemeral::marked(text, &analysis.ephemeral) {
            prose.push(EPHEMERAL.to_string());
        }
        prose.extend(resources::reference_description(analysis, text));
        prose.extend(declared::declared_beside_value(docs, analysis, text, &main.ty));
    }
    Some(HoverInfo { range: main.range.clone(), ty: main.ty.clone(), prose })
}

/// What hover says of a value carrying Terraform's ephemeral mark.
const EPHEMERAL: &str = "**Ephemeral**: Terraform keeps this value out of plans and state. Only an output or a \
                         module variable declared `ephemeral = true`, a write-only resource argument, a local \
                         value, or a provider or provisioner block may take it (`ephemeralasnull(…)` drops the \
                         mark).";

/// What hover says of `symbols::LIB::NAME()` in a type expression: the
/// library type it expands to, and where it is defined
/// (docs/spec/opentofu-symbol-libraries.md §2).
fn named_type_prose(text: &str, analysis: &ModuleAnalysis) -> Vec<String> {
    let path: Vec<&str> = text.split('(').next().unwrap_or("").split("::").map(str::trim).collect();
    let [_, label, name] = path[..] else { return Vec::new() };
    let Some(lib) = analysis.context.symbols.get(label) else { return Vec::new() };
    let mut prose =
        vec![format!("`symbols::{label}::{name}()`: a type of symbol library `{label}` (`{}`).", lib.source)];
    if let Some(t) = lib.types.get(name) {
        let file = t.def.path.file_name().map(|f| f.to_string_lossy().into_owned()).unwrap_or_default();
        prose.push(format!("Defined by `typedef \"{name}\"` ({file}:{}).", t.def.line));
    }
    prose
}

/// The label of a `symbols "LIB"` block: what the library defines, its
/// type the object of its values (`symbols.LIB`).
fn symbols_block(d: &Document, offset: usize, analysis: &ModuleAnalysis) -> Option<HoverInfo> {
    use hcl_edit::Span;
    let lib_blocks = &analysis.context.symbols;
    if lib_blocks.is_empty() {
        return None;
    }
    let item = d.items.iter().find(|i| i.range.start <= offset && offset < i.range.end)?;
    let body = item.body(&d.file.text)?;
    let (label, range) = body.blocks().filter(|b| b.ident.value().as_str() == "symbols").find_map(|b| {
        let l = b.labels.first()?;
        let r = l.span()?;
        let range = item.range.start + r.start..item.range.start + r.end;
        let text = d.file.text.get(range.clone())?.trim_matches('"').to_string();
        (range.start <= offset && offset < range.end).then_some((text, range))
    })?;
    let lib = lib_blocks.get(&label)?;
    let ty = Type::object(lib.values.iter().map(|(n, v)| (n.clone(), v.ty.clone())));
    let names = |v: Vec<String>| if v.is_empty() { "none".to_string() } else { v.join(", ") };
    let mut prose = vec![format!("Symbol library `{label}` from `{}` (OpenTofu's `symbols` block).", lib.source)];
    if lib.known() {
        prose.push(format!("Types: {}.", names(lib.types.keys().map(|n| format!("`{n}`")).collect())));
        let functions = lib.functions.iter().map(|(n, f)| {
            let params: Vec<String> = f.params.iter().map(|(p, t)| format!("{p} {t}")).collect();
            format!("`{n}({}) {}`", params.join(", "), f.returns)
        });
        prose.push(format!("Functions: {}.", names(functions.collect())));
        prose.push(format!("Values: {}.", names(lib.values.keys().map(|n| format!("`{n}`")).collect())));
    } else {
        prose.push("Not a local source: its symbols are not read, and are `any`.".to_string());
    }
    Some(HoverInfo { range, ty, prose })
}

pub(crate) fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}
