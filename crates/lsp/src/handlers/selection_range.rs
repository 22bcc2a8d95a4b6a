//! `textDocument/selectionRange`.

use super::prelude::*;

pub(crate) async fn selection_range(b: &Backend, params: SelectionRangeParams) -> Result<Option<Vec<SelectionRange>>> {
    let Some(snap) = b.snapshot(&params.text_document.uri).await else { return Ok(None) };
    let (rope, enc) = (snap.rope.clone(), snap.enc);
    let offsets: Vec<usize> = params.positions.iter().map(|p| from_proto::offset(&rope, *p, enc)).collect();
    let chains = blocking(move || {
        let Some(doc) = snap.docs.get(snap.index) else { return Vec::new() };
        // In the text the user sees (a JSON file's own, not its lowering).
        let chain = |o: usize| {
            let mut c: Vec<std::ops::Range<usize>> = Vec::new();
            for r in ide::selection_ranges(doc, doc.offset_from_shown(o)) {
                // Mapped, each must still hold the one before (a header's
                // type name stands for its last label, ahead of the first).
                let r = doc.shown_range(&r);
                let r = match c.last() {
                    Some(p) => r.start.min(p.start)..r.end.max(p.end),
                    None => r,
                };
                if c.last() != Some(&r) {
                    c.push(r);
                }
            }
            c
        };
        offsets.iter().map(|o| chain(*o)).collect::<Vec<_>>()
    })
    .await?;
    // One answer per position, as the protocol requires.
    Ok(Some(chains.iter().map(|c| to_proto::selection_range(&rope, c, enc)).collect()))
}
