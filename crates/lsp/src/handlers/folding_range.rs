//! `textDocument/foldingRange`.

use super::prelude::*;

pub(crate) async fn folding_range(b: &Backend, params: FoldingRangeParams) -> Result<Option<Vec<FoldingRange>>> {
    let Some(snap) = b.snapshot(&params.text_document.uri).await else { return Ok(None) };
    let (rope, enc, lines_only) = (snap.rope.clone(), snap.enc, snap.caps.line_folding_only);
    let folds = blocking(move || {
        let Some(d) = snap.docs.get(snap.index) else { return Vec::new() };
        // In the text the user sees (a JSON file's own, not its lowering).
        ide::folding_ranges(d).into_iter().map(|f| ide::Fold { range: d.shown_range(&f.range), ..f }).collect()
    })
    .await?;
    Ok(Some(folds.iter().filter_map(|f| to_proto::folding_range(&rope, f, enc, lines_only)).collect()))
}
