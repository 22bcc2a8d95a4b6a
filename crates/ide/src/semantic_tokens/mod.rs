//! Semantic tokens of the whole language (docs/spec/lsp.md, "Semantic
//! tokens"): a forgiving scan of the text (`lex`), each token classified
//! by where it stands (`classify`: block types and labels, argument names,
//! references by their namespace, functions, keywords, literals,
//! operators, comments), and over them the parts of type expressions the
//! analysis found (constructors, type keywords, attribute names), which
//! win where both speak. One linear pass, no tree: a 10 MB file costs a
//! scan, not a parse.

mod classify;
mod items;
mod lex;

pub use items::TokenCache;

use std::ops::Range;

use analysis::module::ModuleAnalysis;
use analysis::Document;
use syntax::typeexpr::NodeKind;

/// What a token is; the LSP legend lists them in this order
/// (`lsp::to_proto::TOKEN_TYPES`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TokenKind {
    /// Block types, resource and data source types, type keywords.
    Type,
    /// Function calls, type constructors.
    Function,
    /// Argument names, attributes of a value, object keys, outputs.
    Property,
    /// `for`, `in`, `if`, template directives, `true`, `false`, `null`.
    Keyword,
    /// The roots of references (`var`, `local`, `module`, `each`, …),
    /// modules, providers and a provider function's namespace.
    Namespace,
    /// Locals, resources' names, `for` variables, other bare names.
    Variable,
    /// Input variables (a module's parameters).
    Parameter,
    String,
    Number,
    /// Operators and a template's `${`, `%{` and `}`.
    Operator,
    Comment,
    /// Labels of blocks that declare nothing (`provisioner "local-exec"`).
    EnumMember,
}

/// Token modifiers, as bits; the legend lists them in bit order
/// (`lsp::to_proto::TOKEN_MODIFIERS`).
pub mod modifier {
    /// Where the name is declared (a label, a local's name, a `for` variable).
    pub const DECLARATION: u8 = 1;
    /// A local value: named once, never assigned again.
    pub const READONLY: u8 = 2;
    /// Defined by the language: built-in functions and types, `var`, `each`, ….
    pub const DEFAULT_LIBRARY: u8 = 4;
}

/// A token: its bytes in the document's text, its kind and modifiers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SemanticToken {
    pub range: Range<usize>,
    pub kind: TokenKind,
    pub modifiers: u8,
}

/// The tokens of document `doc`, sorted and never overlapping, in its
/// text's offsets (for a JSON file, the lowering's: only the type
/// expressions, since the JSON itself is the client's to colour). Each
/// top-level item is classified on its own (`items.rs`); a
/// [`TokenCache`] gives the same tokens, remembering items between calls.
pub fn semantic_tokens(docs: &[Document], analysis: &ModuleAnalysis, doc: usize) -> Vec<SemanticToken> {
    let types = type_tokens(analysis, doc);
    let Some(d) = docs.get(doc) else { return types };
    if syntax::json::is_json_path(&d.file.path) {
        return types;
    }
    merge(items::lexical(d, 0..d.items.len(), 0..d.file.text.len()), types)
}

/// The tokens of document `doc` that can meet `within` (offsets of its
/// text): those of the top-level items from the one `within` starts in
/// to the one it ends in, scanned from the first one's start, where the
/// scan is at the top level as the document's item scan found it. A
/// screen of a 10 MB file costs that screen's items, not the file.
pub fn semantic_tokens_in(
    docs: &[Document],
    analysis: &ModuleAnalysis,
    doc: usize,
    within: Range<usize>,
) -> Vec<SemanticToken> {
    let Some(d) = docs.get(doc).filter(|d| !syntax::json::is_json_path(&d.file.path)) else {
        return semantic_tokens(docs, analysis, doc);
    };
    let text = d.file.text.as_str();
    let first = d.items.partition_point(|i| i.range.start <= within.start).saturating_sub(1);
    let from = if first == 0 { 0 } else { d.items[first].range.start };
    let last = d.items.partition_point(|i| i.range.start < within.end).max(first);
    let to = d.items.get(last).map_or(text.len(), |i| i.range.start).max(from);
    let lexical = items::lexical(d, first..last, from..to);
    let mut types = type_tokens(analysis, doc);
    types.retain(|t| t.range.start >= from && t.range.end <= to);
    merge(lexical, types)
}

/// The parts of type expressions the analysis found.
fn type_tokens(analysis: &ModuleAnalysis, doc: usize) -> Vec<SemanticToken> {
    let mut out: Vec<SemanticToken> = analysis
        .type_nodes
        .get(doc)
        .map(|nodes| {
            nodes
                .iter()
                .map(|n| {
                    let (kind, modifiers) = match n.kind {
                        NodeKind::Keyword => (TokenKind::Type, modifier::DEFAULT_LIBRARY),
                        NodeKind::Named => (TokenKind::Type, 0),
                        NodeKind::Constructor => (TokenKind::Function, modifier::DEFAULT_LIBRARY),
                        NodeKind::Attribute => (TokenKind::Property, 0),
                    };
                    SemanticToken { range: n.name_range.clone(), kind, modifiers }
                })
                .collect()
        })
        .unwrap_or_default();
    out.sort_by_key(|t| (t.range.start, t.range.end));
    out.dedup_by(|a, b| a.range.start < b.range.end);
    out
}

/// Both lists in order; a lexical token that overlaps a type token gives
/// way to it. In place: the lexical list is a whole document's (two
/// million tokens at 10 MB, 48 MB), the type tokens are few.
fn merge(mut lexical: Vec<SemanticToken>, types: Vec<SemanticToken>) -> Vec<SemanticToken> {
    if types.is_empty() {
        return lexical;
    }
    // Types are sorted and never overlap, so their ends are sorted too:
    // the first type ending after a token's start is the only one that
    // can overlap it.
    let mut k = 0;
    lexical.retain(|t| {
        while types.get(k).is_some_and(|ty| ty.range.end <= t.range.start) {
            k += 1;
        }
        types.get(k).is_none_or(|ty| ty.range.start >= t.range.end)
    });
    // Merged from the back, into the room the types take at the end; at
    // the same start a type goes first.
    let (n, m) = (lexical.len(), types.len());
    lexical.extend(types.iter().cloned());
    let (mut i, mut j) = (n, m);
    for w in (0..n + m).rev() {
        if j == 0 {
            break;
        }
        if i > 0 && lexical[i - 1].range.start >= types[j - 1].range.start {
            lexical.swap(w, i - 1);
            i -= 1;
        } else {
            lexical[w] = types[j - 1].clone();
            j -= 1;
        }
    }
    lexical
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(range: Range<usize>, kind: TokenKind) -> SemanticToken {
        SemanticToken { range, kind, modifiers: 0 }
    }

    #[test]
    fn type_tokens_replace_the_lexical_ones_they_overlap() {
        use TokenKind::{Function, Property, Type, Variable};
        let lexical = vec![t(0..4, Property), t(5..11, Variable), t(12..13, Variable), t(14..20, Variable)];
        let types = vec![t(5..11, Type), t(13..14, Function), t(14..16, Type), t(30..31, Type)];
        let merged = merge(lexical, types);
        let want = [t(0..4, Property), t(5..11, Type), t(12..13, Variable), t(13..14, Function), t(14..16, Type)];
        assert_eq!(merged[..5], want);
        assert_eq!(merged[5], t(30..31, Type));
        assert_eq!(merged.len(), 6);
    }

    /// A range's tokens are the whole document's that meet it, found from
    /// the items the range spans only.
    #[test]
    fn a_range_scans_its_items_only_and_agrees_with_the_whole() {
        use analysis::module::Memo;
        use analysis::SourceFile;
        let mut text = String::from("# head\n");
        for i in 0..200 {
            text.push_str(&format!(
                "variable \"v{i}\" {{\n  type = object({{ a = string }})\n  default = {{ a = \"${{{i}}}\" }}\n}}\n# c{i}\n"
            ));
        }
        let docs = vec![Document::parse(SourceFile::new("main.tf", text.as_str()).unwrap())];
        let analysis = Memo::default().analysis(&docs);
        let whole = semantic_tokens(&docs, &analysis, 0);
        let meets = |r: &Range<usize>, w: &Range<usize>| r.start < w.end && w.start < r.end;
        let at = |needle: &str| text.find(needle).unwrap();
        for within in [0..10, at("\"v7\"")..at("\"v9\""), at("# c100")..at("# c101"), text.len() - 5..text.len()] {
            let part = semantic_tokens_in(&docs, &analysis, 0, within.clone());
            let want: Vec<_> = whole.iter().filter(|t| meets(&t.range, &within)).collect();
            let got: Vec<_> = part.iter().filter(|t| meets(&t.range, &within)).collect();
            assert_eq!(got, want, "{within:?}");
            assert!(!want.is_empty() && part.len() <= 60, "{within:?}: {} tokens scanned", part.len());
        }
    }
}
