//! `textDocument/documentHighlight`: the current document's occurrences
//! of the symbol under the cursor (its declaration as a write).

use super::prelude::*;

pub(crate) async fn document_highlight(
    b: &Backend,
    params: DocumentHighlightParams,
) -> Result<Option<Vec<DocumentHighlight>>> {
    let pp = params.text_document_position_params;
    let Some(snap) = b.snapshot(&pp.text_document.uri).await else { return Ok(None) };
    let enc = snap.enc;
    let offset = from_proto::offset(&snap.rope, pp.position, enc);
    blocking(move || {
        let found = ide::document_highlight(&snap.docs, snap.index, offset);
        let kind = |write: bool| if write { DocumentHighlightKind::WRITE } else { DocumentHighlightKind::READ };
        let out: Vec<DocumentHighlight> = found
            .into_iter()
            .map(|(r, write)| DocumentHighlight {
                range: to_proto::range(&snap.rope, &r, enc),
                kind: Some(kind(write)),
            })
            .collect();
        (!out.is_empty()).then_some(out)
    })
    .await
}
