//! `textDocument/documentSymbol`: declarations with their nested blocks
//! and arguments for a client that says
//! `documentSymbol.hierarchicalDocumentSymbolSupport`, else the
//! declarations alone as flat `SymbolInformation`s (what LSP says a
//! client without that support understands).

use super::prelude::*;

pub(crate) async fn document_symbol(
    b: &Backend,
    params: DocumentSymbolParams,
) -> Result<Option<DocumentSymbolResponse>> {
    let Some(snap) = b.snapshot(&params.text_document.uri).await else { return Ok(None) };
    let (rope, enc, nested) = (snap.rope.clone(), snap.enc, snap.caps.hierarchical_symbols);
    let symbols = blocking(move || {
        let analysis = snap.analysis();
        ide::document_symbols(&analysis, &snap.docs, snap.index)
    })
    .await?;
    Ok(Some(match nested {
        true => {
            DocumentSymbolResponse::Nested(symbols.iter().map(|s| to_proto::document_symbol(&rope, s, enc)).collect())
        }
        false => DocumentSymbolResponse::Flat(
            symbols.iter().map(|s| to_proto::symbol_information(&rope, s, &params.text_document.uri, enc)).collect(),
        ),
    }))
}
