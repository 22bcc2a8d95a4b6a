//! `textDocument/definition`.

use super::prelude::*;

pub(crate) async fn goto_definition(
    b: &Backend,
    params: GotoDefinitionParams,
) -> Result<Option<GotoDefinitionResponse>> {
    let pp = params.text_document_position_params;
    let Some(snap) = b.snapshot(&pp.text_document.uri).await else { return Ok(None) };
    let enc = snap.enc;
    let offset = from_proto::offset(&snap.rope, pp.position, enc);
    let found = blocking(move || {
        let found = ide::definition_with(&snap.docs, snap.index, offset, &mut snap.memo());
        found.and_then(|(path, range)| {
            // A JSON file of another module (a callee's output) is not among
            // the module's documents: its range is in its lowering, mapped here.
            let outside = !snap.docs.iter().any(|d| d.file.path == path);
            if outside && syntax::json::is_json_path(&path) {
                let b = &snap.backend;
                let doc = b.with_sources(&snap.settings, false, |s| b.service.graph.document(s, &path))?;
                return Some((doc.shown_text().clone(), path, doc.shown_range(&range)));
            }
            Some((snap.text_of(&path)?, path, range))
        })
    })
    .await?;
    Ok(found.and_then(|(text, path, range)| {
        let uri = to_proto::uri_of(&b.state.locked().documents, &path)?;
        let r = to_proto::range(&Rope::from_str(&text), &range, enc);
        Some(GotoDefinitionResponse::Scalar(Location { uri, range: r }))
    }))
}
