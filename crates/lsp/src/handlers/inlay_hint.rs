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
        // After the name in the text the user sees (a JSON file's own).
        let d = &snap.docs[snap.index];
        let after = |o: usize| d.shown_range(&(o.saturating_sub(1)..o)).end;
        ide::inlay_hints(&analysis, snap.index).into_iter().map(|(o, label)| (after(o), label)).collect::<Vec<_>>()
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
