//! `textDocument/foldingRange`.

use super::prelude::*;

pub(crate) async fn folding_range(b: &Backend, params: FoldingRangeParams) -> Result<Option<Vec<FoldingRange>>> {
    let Some(snap) = b.snapshot(&params.text_document.uri).await else { return Ok(None) };
    let (rope, enc, lines_only) = (snap.rope.clone(), snap.enc, snap.caps.line_folding_only);
    let folds = blocking(move || snap.docs.get(snap.index).map(ide::folding_ranges).unwrap_or_default()).await?;
    Ok(Some(folds.iter().filter_map(|f| to_proto::folding_range(&rope, f, enc, lines_only)).collect()))
}
