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
        };
        return Some(HoverInfo {
            range: node.range.clone(),
            ty: node.ty.clone(),
            prose: vec![format!("The declared type of this {what}.")],
        });
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
        if analysis::module::module_dialect(docs) == syntax::Dialect::OpenTofu {
            // (analysis.md §7: a module with a `.tofu` file, or so configured.)
            prose.push("An OpenTofu module: read as OpenTofu reads it (the `opentofu` dialect).".to_string());
        }
        return Some(HoverInfo { range: s.name_range.clone(), ty: s.ty.clone(), prose });
    }
    // An expression: the innermost one, with every note recorded for it.
    let Some(best) = probe.iter().filter(|t| contains(&t.range)).min_by_key(|t| t.range.len()) else {
        return resources::hover_argument(docs, doc, offset, analysis);
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
                    Some(d) => prose.push(format!(
                        "{} ({}:{})",
                        capitalise(&r.message),
                        file,
                        syntax::lines::line_col(d.shown_text(), d.shown_range(&r.range).start).0
                    )),
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
        prose.extend(resources::reference_description(analysis, text));
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
