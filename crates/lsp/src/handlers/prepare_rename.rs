//! `textDocument/prepareRename`: the name a rename would replace, or an
//! error saying why there is none (a meta-argument, a built-in, a name of
//! a module `init` installed).

use super::prelude::*;
use super::references::ModuleSet;
use tower_lsp_server::jsonrpc::Error;

pub(crate) async fn prepare_rename(
    b: &Backend,
    params: TextDocumentPositionParams,
) -> Result<Option<PrepareRenameResponse>> {
    let Some(snap) = b.snapshot(&params.text_document.uri).await else { return Ok(None) };
    let enc = snap.enc;
    let offset = from_proto::offset(&snap.rope, params.position, enc);
    let found = blocking(move || {
        let set = ModuleSet::gather(&snap);
        ide::prepare_rename(&set.modules(), 0, set.doc, offset).map(|r| to_proto::range(&snap.rope, &r, enc))
    })
    .await?;
    match found {
        Ok(range) => Ok(Some(PrepareRenameResponse::Range(range))),
        Err(why) => Err(refusal(why)),
    }
}

/// A refused rename as the client shows it (VS Code shows the message).
pub(crate) fn refusal(why: String) -> Error {
    let mut e = Error::invalid_params(why.clone());
    e.message = why.into();
    e
}
