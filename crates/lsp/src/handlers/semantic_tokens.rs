//! `textDocument/semanticTokens/full`.

use super::prelude::*;

pub(crate) async fn semantic_tokens_full(
    b: &Backend,
    params: SemanticTokensParams,
) -> Result<Option<SemanticTokensResult>> {
    let Some(snap) = b.snapshot(&params.text_document.uri).await else { return Ok(None) };
    let (rope, enc) = (snap.rope.clone(), snap.enc);
    let tokens = blocking(move || ide::semantic_tokens(&snap.analysis(), snap.index)).await?;
    Ok(Some(SemanticTokensResult::Tokens(to_proto::semantic_tokens(&rope, tokens, enc))))
}
