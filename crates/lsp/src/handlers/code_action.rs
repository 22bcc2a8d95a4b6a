//! `textDocument/codeAction`: quick fixes of the diagnostics in the range.
//! A missing `type` (or `type = any`) is fixed with the type of every value
//! the variable receives, callers' arguments included, so only then is the
//! module set (the callers the server knows) gathered.

use super::prelude::*;
use super::references::ModuleSet;

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
        let in_range: Vec<_> =
            analysis.diagnostics[snap.index].iter().filter(|d| d.range.start <= end && start <= d.range.end).collect();
        let set =
            in_range.iter().any(|d| d.code == syntax::diagnostic::Code::MissingType).then(|| ModuleSet::gather(&snap));
        let callers: Vec<ide::Caller> = set
            .iter()
            .flat_map(|set| {
                let here = &set.mods[0].0;
                set.mods[1..]
                    .iter()
                    .map(move |(dir, docs, _)| ide::Caller { docs, calls: ide::calls_to(dir, docs, here) })
            })
            .filter(|c| !c.calls.is_empty())
            .collect();
        in_range
            .into_iter()
            .filter_map(|d| ide::type_fix(d, &snap.docs, snap.index, &callers).map(|f| (d.clone(), f)))
            .collect::<Vec<_>>()
    })
    .await?;
    Ok(Some(fixes.into_iter().map(|(d, f)| to_proto::quick_fix(&uri, &rope, &d, f, enc)).collect()))
}
