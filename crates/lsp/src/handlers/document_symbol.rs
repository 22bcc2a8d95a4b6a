//! `textDocument/documentSymbol`.

use super::prelude::*;

pub(crate) async fn document_symbol(
    b: &Backend,
    params: DocumentSymbolParams,
) -> Result<Option<DocumentSymbolResponse>> {
    let Some(snap) = b.snapshot(&params.text_document.uri).await else { return Ok(None) };
    let (rope, enc, index) = (snap.rope.clone(), snap.enc, snap.index);
    let symbols = blocking(move || {
        let analysis = snap.analysis();
        let mut all: Vec<_> =
            analysis.symbols.iter().chain(&analysis.resources).filter(|s| s.doc == index).cloned().collect();
        all.sort_by_key(|s| s.range.start);
        all
    })
    .await?;
    let out = symbols.iter().map(|s| to_proto::document_symbol(&rope, s, enc)).collect();
    Ok(Some(DocumentSymbolResponse::Nested(out)))
}
