//! `textDocument/selectionRange`.

use super::prelude::*;

pub(crate) async fn selection_range(b: &Backend, params: SelectionRangeParams) -> Result<Option<Vec<SelectionRange>>> {
    let Some(snap) = b.snapshot(&params.text_document.uri).await else { return Ok(None) };
    let (rope, enc) = (snap.rope.clone(), snap.enc);
    let offsets: Vec<usize> = params.positions.iter().map(|p| from_proto::offset(&rope, *p, enc)).collect();
    let chains = blocking(move || {
        let Some(doc) = snap.docs.get(snap.index) else { return Vec::new() };
        offsets.iter().map(|o| ide::selection_ranges(doc, *o)).collect::<Vec<_>>()
    })
    .await?;
    // One answer per position, as the protocol requires.
    Ok(Some(chains.iter().map(|c| to_proto::selection_range(&rope, c, enc)).collect()))
}
