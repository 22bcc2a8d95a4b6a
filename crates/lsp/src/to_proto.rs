//! From the layers below to LSP: every conversion of an answer is here
//! (positions through [`crate::text`], which knows the client's encoding).

use ropey::Rope;
use tower_lsp_server::ls_types::*;

use crate::text;
use crate::Encoding;

/// The URI to show for a path of a module: the open document's, else the
/// file's (none for a document that is no file).
pub(crate) fn uri_of(docs: &project::documents::Documents, path: &std::path::Path) -> Option<Uri> {
    match docs.open.get(path) {
        Some(o) => o.uri.parse().ok(),
        None if project::disk::is_virtual(path) => None,
        None => Uri::from_file_path(path),
    }
}

/// A byte range of `rope`'s text.
pub(crate) fn range(rope: &Rope, r: &std::ops::Range<usize>, enc: Encoding) -> Range {
    text::range(rope, r, enc)
}

/// A byte offset of `rope`'s text.
pub(crate) fn position(rope: &Rope, offset: usize, enc: Encoding) -> Position {
    text::position(rope, offset, enc)
}

pub(crate) fn severity(s: syntax::diagnostic::Severity) -> DiagnosticSeverity {
    use syntax::diagnostic::Severity as Sev;
    match s {
        Sev::Error => DiagnosticSeverity::ERROR,
        Sev::Warning => DiagnosticSeverity::WARNING,
        Sev::Hint => DiagnosticSeverity::HINT,
    }
}

/// The `source` of every diagnostic.
pub(crate) const SOURCE: &str = "hcl-types";

/// Editors strike deprecated provider attributes through.
pub(crate) fn tags(d: &syntax::diagnostic::Diagnostic) -> Option<Vec<DiagnosticTag>> {
    use syntax::diagnostic::Code;
    match d.code {
        Code::Deprecated => Some(vec![DiagnosticTag::DEPRECATED]),
        // Shown faded, as editors show unused code.
        Code::UnusedVariable | Code::UnusedLocal | Code::UnusedData | Code::UnusedProvider | Code::UnusedOutput => {
            Some(vec![DiagnosticTag::UNNECESSARY])
        }
        _ => None,
    }
}

/// A diagnostic of `rope`'s text (the published ones are serialised by
/// [`crate::publish`] with the same fields, from these functions).
pub(crate) fn diagnostic(rope: &Rope, d: &syntax::diagnostic::Diagnostic, enc: Encoding) -> Diagnostic {
    Diagnostic {
        range: range(rope, &d.range, enc),
        severity: Some(severity(d.severity)),
        code: Some(NumberOrString::String(d.code.as_str().into())),
        source: Some(SOURCE.into()),
        message: d.message.clone(),
        tags: tags(d),
        ..Default::default()
    }
}

/// Markdown (the type in an `hcl` block) or, for a client that shows only
/// plain text, the type and the prose without fences.
pub(crate) fn hover(rope: &Rope, h: &ide::HoverInfo, enc: Encoding, markdown: bool) -> Hover {
    let contents = match markdown {
        true => MarkupContent { kind: MarkupKind::Markdown, value: h.markdown() },
        false => MarkupContent { kind: MarkupKind::PlainText, value: h.plain_text() },
    };
    Hover { contents: HoverContents::Markup(contents), range: Some(range(rope, &h.range, enc)) }
}

/// A snippet as plain text for a client without snippets: the text before
/// the first placeholder (`list(${1})` → `list(`), so the cursor ends where
/// the snippet would have put it.
fn without_snippet(snippet: &str) -> String {
    let cut = snippet.find("${").or_else(|| snippet.find("$0")).unwrap_or(snippet.len());
    snippet[..cut].replace("\\}", "}").replace("\\$", "$")
}

pub(crate) fn completion_item(c: ide::Completion, snippets: bool) -> CompletionItem {
    let (insert_text, format) = match (c.snippet, snippets) {
        (Some(s), true) => (Some(s), Some(InsertTextFormat::SNIPPET)),
        (Some(s), false) => (Some(without_snippet(&s)), Some(InsertTextFormat::PLAIN_TEXT)),
        (None, _) => (None, None),
    };
    CompletionItem {
        kind: Some(match c.kind {
            ide::CompletionKind::Keyword => CompletionItemKind::KEYWORD,
            ide::CompletionKind::Constructor => CompletionItemKind::CONSTRUCTOR,
            ide::CompletionKind::Variable => CompletionItemKind::VARIABLE,
            ide::CompletionKind::Attribute => CompletionItemKind::FIELD,
            ide::CompletionKind::Function => CompletionItemKind::FUNCTION,
        }),
        detail: c.detail,
        insert_text_format: format,
        insert_text,
        label: c.label,
        ..Default::default()
    }
}

pub(crate) fn completion(list: ide::CompletionList, snippets: bool) -> CompletionResponse {
    let items = list.items.into_iter().map(|c| completion_item(c, snippets)).collect();
    if list.incomplete {
        return CompletionResponse::List(CompletionList { is_incomplete: true, items });
    }
    CompletionResponse::Array(items)
}

/// Parameter labels are offsets in UTF-16 code units of the label,
/// whatever the position encoding.
pub(crate) fn signature_help(s: ide::SignatureInfo) -> SignatureHelp {
    let utf16 = |byte: usize| s.label[..byte.min(s.label.len())].encode_utf16().count() as u32;
    SignatureHelp {
        signatures: vec![SignatureInformation {
            label: s.label.clone(),
            documentation: s.documentation.clone().map(Documentation::String),
            parameters: Some(
                s.parameters
                    .iter()
                    .map(|r| ParameterInformation {
                        label: ParameterLabel::LabelOffsets([utf16(r.start), utf16(r.end)]),
                        documentation: None,
                    })
                    .collect(),
            ),
            active_parameter: Some(s.active as u32),
        }],
        active_signature: Some(0),
        active_parameter: Some(s.active as u32),
    }
}

pub(crate) fn inlay_hint(rope: &Rope, offset: usize, label: String, enc: Encoding) -> InlayHint {
    InlayHint {
        position: position(rope, offset, enc),
        label: InlayHintLabel::String(label),
        kind: Some(InlayHintKind::TYPE),
        text_edits: None,
        tooltip: None,
        padding_left: None,
        padding_right: None,
        data: None,
    }
}

/// The legend of [`semantic_tokens`]: a token's type is its index here,
/// in the order of `ide::TokenKind` (docs/spec/lsp.md, "Semantic tokens").
pub const TOKEN_TYPES: [SemanticTokenType; 12] = [
    SemanticTokenType::TYPE,
    SemanticTokenType::FUNCTION,
    SemanticTokenType::PROPERTY,
    SemanticTokenType::KEYWORD,
    SemanticTokenType::NAMESPACE,
    SemanticTokenType::VARIABLE,
    SemanticTokenType::PARAMETER,
    SemanticTokenType::STRING,
    SemanticTokenType::NUMBER,
    SemanticTokenType::OPERATOR,
    SemanticTokenType::COMMENT,
    SemanticTokenType::ENUM_MEMBER,
];

/// The modifiers' legend: bit `i` is the modifier here at `i`, as in
/// `ide::modifier`.
pub const TOKEN_MODIFIERS: [SemanticTokenModifier; 3] =
    [SemanticTokenModifier::DECLARATION, SemanticTokenModifier::READONLY, SemanticTokenModifier::DEFAULT_LIBRARY];

/// Tokens as LSP encodes them, each relative to the one before, found in
/// one walk over `text` (the shown text the offsets are in); a token that
/// spans lines becomes one per line. Only the tokens that meet `within`,
/// when given (`semanticTokens/range`).
pub fn semantic_tokens(
    text: &str,
    tokens: &[ide::SemanticToken],
    enc: Encoding,
    within: Option<std::ops::Range<usize>>,
) -> Vec<SemanticToken> {
    let (from, to) = within.map_or((0, usize::MAX), |r| (r.start, r.end));
    let first = tokens.partition_point(|t| t.range.end <= from);
    let mut walk = match tokens.get(first) {
        Some(t) if from > 0 => text::Walk::starting_at(text, enc, t.range.start),
        _ => text::Walk::new(text, enc),
    };
    let count = tokens[first..].partition_point(|t| t.range.start < to);
    let mut data = Vec::with_capacity(count);
    encode_tokens(text, &tokens[first..first + count], &mut walk, &mut (0, 0), &mut data, None);
    data
}

/// [`semantic_tokens`] of `tokens` appended to `data`, the first relative
/// to `prev` (the line and character of the last token placed, kept up):
/// `walk` is at or before the first token. With `split`, each token that
/// became more than one (it spans lines) is noted there as its index plus
/// the `u32` given, with the length of `data` after it.
pub(crate) fn encode_tokens(
    text: &str,
    tokens: &[ide::SemanticToken],
    walk: &mut text::Walk<'_>,
    prev: &mut (u32, u32),
    data: &mut Vec<SemanticToken>,
    mut split: Option<(&mut Vec<(u32, u32)>, u32)>,
) {
    for (i, t) in tokens.iter().enumerate() {
        let token_type = t.kind as u32;
        walk.position(t.range.start);
        let multi = !walk.in_line(t.range.end);
        let before = data.len();
        let mut place = |r: std::ops::Range<usize>| {
            if r.is_empty() {
                return;
            }
            let start = walk.position(r.start);
            let end = walk.position(r.end);
            let delta_line = start.line - prev.0;
            let delta_start = if delta_line == 0 { start.character - prev.1 } else { start.character };
            data.push(SemanticToken {
                delta_line,
                delta_start,
                length: end.character - start.character,
                token_type,
                token_modifiers_bitset: u32::from(t.modifiers),
            });
            *prev = (start.line, start.character);
        };
        if multi {
            text::lines(text, t.range.clone()).for_each(&mut place);
            if let Some((split, base)) = split.as_mut().filter(|_| data.len() != before + 1) {
                split.push((*base + i as u32, data.len() as u32));
            }
        } else {
            place(t.range.clone());
        }
    }
}

pub(crate) fn symbol_kind(k: analysis::SymbolKind) -> SymbolKind {
    match k {
        analysis::SymbolKind::Variable => SymbolKind::VARIABLE,
        analysis::SymbolKind::Local => SymbolKind::CONSTANT,
        analysis::SymbolKind::Output => SymbolKind::PROPERTY,
        analysis::SymbolKind::Config => SymbolKind::VARIABLE,
        analysis::SymbolKind::Attribute => SymbolKind::CONSTANT,
        analysis::SymbolKind::Resource => SymbolKind::OBJECT,
    }
}

fn outline_kind(k: ide::OutlineKind) -> SymbolKind {
    match k {
        ide::OutlineKind::Declaration(k) => symbol_kind(k),
        ide::OutlineKind::Block => SymbolKind::STRUCT,
        ide::OutlineKind::Argument => SymbolKind::FIELD,
    }
}

#[allow(deprecated)]
pub(crate) fn document_symbol(rope: &Rope, s: &ide::OutlineSymbol, enc: Encoding) -> DocumentSymbol {
    DocumentSymbol {
        name: s.name.clone(),
        detail: s.detail.clone(),
        kind: outline_kind(s.kind),
        tags: None,
        deprecated: None,
        range: range(rope, &s.range, enc),
        selection_range: range(rope, &s.name_range, enc),
        children: (!s.children.is_empty()).then(|| s.children.iter().map(|c| document_symbol(rope, c, enc)).collect()),
    }
}

/// A declaration as a flat symbol (its children left out).
#[allow(deprecated)]
pub(crate) fn symbol_information(rope: &Rope, s: &ide::OutlineSymbol, uri: &Uri, enc: Encoding) -> SymbolInformation {
    SymbolInformation {
        name: s.name.clone(),
        kind: outline_kind(s.kind),
        tags: None,
        deprecated: None,
        location: Location { uri: uri.clone(), range: range(rope, &s.range, enc) },
        container_name: None,
    }
}

/// A quick fix of diagnostic `d` in the document `uri`.
pub(crate) fn quick_fix(
    uri: &Uri,
    rope: &Rope,
    d: &syntax::diagnostic::Diagnostic,
    f: ide::QuickFix,
    enc: Encoding,
) -> CodeActionOrCommand {
    let edit = TextEdit { range: range(rope, &f.range, enc), new_text: f.replacement };
    let mut changes = std::collections::HashMap::new();
    changes.insert(uri.clone(), vec![edit]);
    CodeActionOrCommand::CodeAction(CodeAction {
        title: f.title,
        kind: Some(CodeActionKind::QUICKFIX),
        diagnostics: Some(vec![diagnostic(rope, d, enc)]),
        edit: Some(WorkspaceEdit { changes: Some(changes), ..Default::default() }),
        is_preferred: Some(true),
        ..Default::default()
    })
}

/// A code action of the ide layer: its edits per file, as `documentChanges`
/// (open documents with their version, a new file created first) when the
/// client takes them, else as `changes`. `texts` holds the text of every
/// file the action edits that exists; `rope` is the requesting document's,
/// for the diagnostic the action fixes.
pub(crate) fn action(
    a: ide::Action,
    texts: &std::collections::BTreeMap<std::path::PathBuf, Rope>,
    rope: &Rope,
    enc: Encoding,
    versioned: bool,
    version: &dyn Fn(&std::path::Path) -> Option<i32>,
) -> Option<CodeActionOrCommand> {
    let empty = Rope::new();
    let mut per_file: std::collections::BTreeMap<std::path::PathBuf, Vec<TextEdit>> = Default::default();
    for e in a.edits {
        let r = texts.get(&e.path).unwrap_or(&empty);
        per_file.entry(e.path).or_default().push(TextEdit { range: range(r, &e.range, enc), new_text: e.text });
    }
    let mut files = Vec::new();
    for (path, edits) in per_file {
        files.push((Uri::from_file_path(&path)?, texts.contains_key(&path), version(&path), edits));
    }
    let edit = if versioned {
        let mut ops = Vec::new();
        for (uri, exists, version, edits) in files {
            if !exists {
                ops.push(DocumentChangeOperation::Op(ResourceOp::Create(CreateFile {
                    uri: uri.clone(),
                    options: Some(CreateFileOptions { overwrite: Some(false), ignore_if_exists: Some(true) }),
                    annotation_id: None,
                })));
            }
            ops.push(DocumentChangeOperation::Edit(TextDocumentEdit {
                text_document: OptionalVersionedTextDocumentIdentifier { uri, version },
                edits: edits.into_iter().map(OneOf::Left).collect(),
            }));
        }
        WorkspaceEdit { document_changes: Some(DocumentChanges::Operations(ops)), ..Default::default() }
    } else {
        let changes = files.into_iter().map(|(uri, _, _, edits)| (uri, edits)).collect();
        WorkspaceEdit { changes: Some(changes), ..Default::default() }
    };
    let kind = match a.kind {
        ide::ActionKind::QuickFix => CodeActionKind::QUICKFIX,
        ide::ActionKind::RefactorExtract => CodeActionKind::REFACTOR_EXTRACT,
        ide::ActionKind::RefactorRewrite => CodeActionKind::REFACTOR_REWRITE,
        ide::ActionKind::RefactorMove => CodeActionKind::new("refactor.move"),
    };
    Some(CodeActionOrCommand::CodeAction(CodeAction {
        title: a.title,
        kind: Some(kind),
        diagnostics: a.fixes.map(|d| vec![diagnostic(rope, &d, enc)]),
        edit: Some(edit),
        ..Default::default()
    }))
}

/// A symbol of the workspace index.
pub(crate) fn workspace_symbol(found: &project::index::Found, enc: Encoding) -> Option<WorkspaceSymbol> {
    use ide::workspace_symbols::SymbolKind as K;
    let uri = Uri::from_file_path(&found.path)?;
    let kind = match found.kind {
        K::Variable => SymbolKind::VARIABLE,
        K::Local => SymbolKind::CONSTANT,
        K::Output => SymbolKind::PROPERTY,
        K::Module => SymbolKind::MODULE,
        K::Resource | K::DataSource => SymbolKind::STRUCT,
        K::Other => SymbolKind::OBJECT,
    };
    let pos = |p: project::index::Pos| Position {
        line: p.line,
        character: if enc == Encoding::Utf8 { p.utf8 } else { p.utf16 },
    };
    // The module's directory, to tell modules' `var.region`s apart.
    let container = found.path.parent().map(|d| d.display().to_string());
    Some(WorkspaceSymbol {
        name: found.name.clone(),
        kind,
        tags: None,
        container_name: container,
        location: OneOf::Left(Location { uri, range: Range { start: pos(found.start), end: pos(found.end) } }),
        data: None,
    })
}

/// A fold in lines. For a client that folds whole lines only, a region
/// that ends with a closing bracket on its own line ends on the line
/// before, so the bracket stays visible (as rust-analyzer does); a fold
/// left within one line is dropped.
pub(crate) fn folding_range(rope: &Rope, f: &ide::Fold, enc: Encoding, lines_only: bool) -> Option<FoldingRange> {
    let start = position(rope, f.range.start, enc);
    let mut end = position(rope, f.range.end, enc);
    let kind = match f.kind {
        ide::FoldKind::Region => FoldingRangeKind::Region,
        ide::FoldKind::Comment => FoldingRangeKind::Comment,
    };
    if lines_only && f.kind == ide::FoldKind::Region && end.line > start.line {
        end.line -= 1;
    }
    (end.line > start.line).then(|| FoldingRange {
        start_line: start.line,
        start_character: (!lines_only).then_some(start.character),
        end_line: end.line,
        end_character: (!lines_only).then_some(end.character),
        kind: Some(kind),
        collapsed_text: None,
    })
}

/// A chain of ranges, innermost first, as nested selection ranges.
pub(crate) fn selection_range(rope: &Rope, chain: &[std::ops::Range<usize>], enc: Encoding) -> SelectionRange {
    let mut out: Option<SelectionRange> = None;
    for r in chain.iter().rev() {
        out = Some(SelectionRange { range: range(rope, r, enc), parent: out.map(Box::new) });
    }
    out.unwrap_or(SelectionRange { range: Range::default(), parent: None })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn snippets_become_the_text_before_their_first_placeholder() {
        assert_eq!(without_snippet("list(${1})"), "list(");
        assert_eq!(without_snippet("object({${1}})"), "object({");
        assert_eq!(without_snippet("name = ${1}"), "name = ");
        assert_eq!(without_snippet("plain"), "plain");
    }

    fn fold(text: &str, kind: ide::FoldKind, lines_only: bool) -> Option<(u32, Option<u32>, u32, Option<u32>)> {
        let rope = Rope::from_str(text);
        let f = ide::Fold { range: 0..text.trim_end().len(), kind };
        folding_range(&rope, &f, Encoding::Utf16, lines_only)
            .map(|r| (r.start_line, r.start_character, r.end_line, r.end_character))
    }

    #[test]
    fn a_line_folding_client_keeps_the_closing_bracket_visible() {
        let block = "a {\n  b = 1\n}\n";
        assert_eq!(fold(block, ide::FoldKind::Region, false), Some((0, Some(0), 2, Some(1))));
        assert_eq!(fold(block, ide::FoldKind::Region, true), Some((0, None, 1, None)));
        // Comments have no bracket: their last line folds too.
        assert_eq!(fold("# a\n# b\n", ide::FoldKind::Comment, true), Some((0, None, 1, None)));
        // Two lines, the second only `}`: nothing left to fold.
        assert_eq!(fold("a {\n}\n", ide::FoldKind::Region, true), None);
    }

    #[test]
    fn a_selection_chain_nests_outwards() {
        let rope = Rope::from_str("ab cd");
        let s = selection_range(&rope, &[0..2, 0..5], Encoding::Utf16);
        assert_eq!(s.range.end.character, 2);
        assert_eq!(s.parent.as_ref().map(|p| p.range.end.character), Some(5));
        assert!(s.parent.is_some_and(|p| p.parent.is_none()));
    }
}
