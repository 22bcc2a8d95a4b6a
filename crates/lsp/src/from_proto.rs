//! From LSP to the layers below: positions of the client's encoding to
//! byte offsets (through [`crate::text`]).

use ropey::Rope;
use tower_lsp_server::ls_types::Position;

use crate::text;
use crate::Encoding;

/// The byte offset of `pos` in `rope`'s text (clamped to the text).
pub(crate) fn offset(rope: &Rope, pos: Position, enc: Encoding) -> usize {
    text::offset(rope, pos, enc)
}
