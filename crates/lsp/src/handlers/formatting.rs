//! `textDocument/formatting` and `rangeFormatting`: the open text through
//! the formatter (`crates/fmt`, via `crate::format`).

use super::prelude::*;

pub(crate) async fn formatting(b: &Backend, params: DocumentFormattingParams) -> Result<Option<Vec<TextEdit>>> {
    match b.open_text(&params.text_document.uri) {
        Some((rope, path, enc)) => crate::format::document(&rope, &path, enc),
        None => Ok(None),
    }
}

pub(crate) async fn range_formatting(
    b: &Backend,
    params: DocumentRangeFormattingParams,
) -> Result<Option<Vec<TextEdit>>> {
    match b.open_text(&params.text_document.uri) {
        Some((rope, path, enc)) => crate::format::range(&rope, &path, params.range, enc),
        None => Ok(None),
    }
}
