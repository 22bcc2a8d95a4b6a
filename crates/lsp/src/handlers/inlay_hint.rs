//! `textDocument/inlayHint`.

use super::prelude::*;

pub(crate) async fn inlay_hint(b: &Backend, params: InlayHintParams) -> Result<Option<Vec<InlayHint>>> {
    let Some(snap) = b.snapshot(&params.text_document.uri).await else {
        return Ok(None);
    };
    if !snap.settings.inlay_hints {
        return Ok(Some(Vec::new()));
    }
    let (rope, enc) = (snap.rope.clone(), snap.enc);
    let hints = blocking(move || {
        let analysis = snap.analysis();
        ide::inlay_hints(&analysis, snap.index)
    })
    .await?;
    let range = params.range;
    Ok(Some(
        hints
            .into_iter()
            .map(|(offset, label)| to_proto::inlay_hint(&rope, offset, label, enc))
            .filter(|h| h.position >= range.start && h.position <= range.end)
            .collect(),
    ))
}
