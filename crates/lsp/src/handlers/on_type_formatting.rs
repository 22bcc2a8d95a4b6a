//! `textDocument/onTypeFormatting` on `}` and newline: indentation as
//! `terraform fmt` writes it (`crate::format::on_type`).

use super::prelude::*;

pub(crate) async fn on_type_formatting(
    b: &Backend,
    params: DocumentOnTypeFormattingParams,
) -> Result<Option<Vec<TextEdit>>> {
    let pp = params.text_document_position;
    Ok(match b.open_text(&pp.text_document.uri) {
        Some((rope, path, enc)) => crate::format::on_type(&rope, &path, pp.position, &params.ch, enc),
        None => None,
    })
}
