//! Go to definition: where the reference under the cursor is declared,
//! in this module or a module it calls.

use std::ops::Range;

use analysis::infer::Note;
use analysis::module::{Memo, ModuleAnalysis};
use analysis::Document;
use syntax::typeexpr::NodeKind;

/// Where the reference at `offset` is declared: (document path, range).
pub fn definition(docs: &[Document], doc: usize, offset: usize) -> Option<(std::path::PathBuf, Range<usize>)> {
    definition_with(docs, doc, offset, &mut Memo::default())
}

/// [`definition`], reusing what earlier analyses of the module found.
/// Offsets and ranges are in the texts the user sees (a JSON file's own,
/// not its lowering: [`Document::shown_text`]); a range in another
/// module's file is in that file's analysed text.
pub fn definition_with(
    docs: &[Document],
    doc: usize,
    offset: usize,
    memo: &mut Memo,
) -> Option<(std::path::PathBuf, Range<usize>)> {
    let offset = docs.get(doc)?.offset_from_shown(offset);
    let (path, range) = found(docs, doc, offset, memo)?;
    let range = docs.iter().find(|d| d.file.path == path).map_or(range.clone(), |d| d.shown_range(&range));
    Some((path, range))
}

/// [`definition_with`] in the analysed texts.
fn found(docs: &[Document], doc: usize, offset: usize, memo: &mut Memo) -> Option<(std::path::PathBuf, Range<usize>)> {
    let (analysis, probe) = memo.probe(docs, doc, offset);
    let contains = |r: &Range<usize>| r.start <= offset && offset < r.end.max(r.start + 1);
    if let Some(found) = named_type(docs.get(doc)?, doc, offset, &analysis) {
        return Some(found);
    }
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

/// `symbols::LIB::NAME()` in a type expression: its `typedef` in the
/// library's `.sym.hcl` file (docs/spec/opentofu-symbol-libraries.md §2).
fn named_type(
    d: &Document,
    doc: usize,
    offset: usize,
    analysis: &ModuleAnalysis,
) -> Option<(std::path::PathBuf, Range<usize>)> {
    let nodes = analysis.type_nodes.get(doc)?;
    let node = nodes.iter().find(|n| n.kind == NodeKind::Named && n.range.start <= offset && offset < n.range.end)?;
    let text = d.file.text.get(node.range.clone())?;
    let path: Vec<&str> = text.split('(').next()?.split("::").map(str::trim).collect();
    let [_, label, name] = path[..] else { return None };
    let def = &analysis.context.symbols.get(label)?.types.get(name)?.def;
    Some((def.path.clone(), def.name_range.clone()))
}
