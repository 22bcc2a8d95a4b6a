//! `textDocument/completion`.

use super::prelude::*;

pub(crate) async fn completion(b: &Backend, params: CompletionParams) -> Result<Option<CompletionResponse>> {
    let pp = params.text_document_position;
    let Some(snap) = b.snapshot(&pp.text_document.uri).await else { return Ok(None) };
    let offset = from_proto::offset(&snap.rope, pp.position, snap.enc);
    let list = blocking(move || {
        let analysis = snap.analysis();
        ide::completion(&snap.docs, snap.index, offset, &analysis)
    })
    .await?;
    Ok(Some(to_proto::completion(list)))
}
