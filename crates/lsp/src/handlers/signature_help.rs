//! `textDocument/signatureHelp`.

use super::prelude::*;

pub(crate) async fn signature_help(b: &Backend, params: SignatureHelpParams) -> Result<Option<SignatureHelp>> {
    let pp = params.text_document_position_params;
    let Some(snap) = b.snapshot(&pp.text_document.uri).await else { return Ok(None) };
    let offset = from_proto::offset(&snap.rope, pp.position, snap.enc);
    let sig = blocking(move || {
        // The module's symbol libraries, for `symbols::LIB::FN(` calls.
        let symbols = snap.memo().context().symbols.clone();
        ide::signature_help_with(&snap.docs[snap.index], offset, &symbols)
    })
    .await?;
    Ok(sig.map(to_proto::signature_help))
}
