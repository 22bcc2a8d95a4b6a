//! `textDocument/semanticTokens/full`.

use super::prelude::*;

pub(crate) async fn semantic_tokens_full(
    b: &Backend,
    params: SemanticTokensParams,
) -> Result<Option<SemanticTokensResult>> {
    let Some(snap) = b.snapshot(&params.text_document.uri).await else { return Ok(None) };
    let (rope, enc) = (snap.rope.clone(), snap.enc);
    let tokens = blocking(move || {
        // In the text the user sees (a JSON file's own: a type expression
        // in a JSON string is coloured where it is).
        let d = &snap.docs[snap.index];
        let mut tokens: Vec<_> = ide::semantic_tokens(&snap.analysis(), snap.index)
            .into_iter()
            .map(|(r, k)| (d.shown_range(&r), k))
            .filter(|(r, _)| !r.is_empty())
            .collect();
        tokens.sort_by_key(|(r, _)| (r.start, r.end));
        tokens.dedup_by(|a, b| a.0.start < b.0.end);
        tokens
    })
    .await?;
    Ok(Some(SemanticTokensResult::Tokens(to_proto::semantic_tokens(&rope, tokens, enc))))
}
