//! `textDocument/hover`.

use super::prelude::*;

pub(crate) async fn hover(b: &Backend, params: HoverParams) -> Result<Option<Hover>> {
    let pp = params.text_document_position_params;
    let Some(snap) = b.snapshot(&pp.text_document.uri).await else { return Ok(None) };
    let (rope, enc) = (snap.rope.clone(), snap.enc);
    let offset = from_proto::offset(&rope, pp.position, enc);
    let info = blocking(move || ide::hover_with(&snap.docs, snap.index, offset, &mut snap.memo())).await?;
    Ok(info.map(|h| to_proto::hover(&rope, &h, enc)))
}
