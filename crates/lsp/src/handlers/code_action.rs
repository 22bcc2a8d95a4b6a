//! `textDocument/codeAction`: quick fixes of the diagnostics in the range.

use super::prelude::*;

pub(crate) async fn code_action(b: &Backend, params: CodeActionParams) -> Result<Option<CodeActionResponse>> {
    let uri = params.text_document.uri.clone();
    let Some(snap) = b.snapshot(&uri).await else { return Ok(None) };
    // A JSON file's diagnostics are placed in its lowering (analysis.md
    // §7.1): near the JSON's bytes, not exact enough to edit them.
    if syntax::json::is_json_path(&snap.docs[snap.index].file.path) {
        return Ok(None);
    }
    let (rope, enc) = (snap.rope.clone(), snap.enc);
    let start = from_proto::offset(&rope, params.range.start, enc);
    let end = from_proto::offset(&rope, params.range.end, enc);
    let fixes = blocking(move || {
        let analysis = snap.analysis();
        let text = snap.docs[snap.index].file.text.clone();
        analysis.diagnostics[snap.index]
            .iter()
            .filter(|d| d.range.start <= end && start <= d.range.end)
            .filter_map(|d| ide::quick_fix(d, &text).map(|f| (d.clone(), f)))
            .collect::<Vec<_>>()
    })
    .await?;
    Ok(Some(fixes.into_iter().map(|(d, f)| to_proto::quick_fix(&uri, &rope, &d, f, enc)).collect()))
}
