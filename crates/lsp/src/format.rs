//! `textDocument/formatting` and `textDocument/rangeFormatting`
//! (docs/spec/lsp.md): the document, or the lines a range touches, as
//! `terraform fmt` writes them (the `fmt` crate). A document with a
//! syntax error is not formatted: the request fails with the error's
//! place and message (RequestFailed), as `terraform fmt` refuses it.

use std::path::Path;

use ropey::Rope;
use tower_lsp_server::jsonrpc::{Error, ErrorCode, Result};
use tower_lsp_server::ls_types::{Position, Range, TextEdit};

use crate::text::{self, Encoding};

/// Whether documents at `path` are formatted: JSON is not (the rules are
/// for the native syntax). Pulumi PCL (`.pp`) is, by hclwrite's layout:
/// Pulumi has no PCL formatter of its own. Its printer
/// (pulumi/pulumi pkg/codegen/hcl2/model/block.go, attribute.go) writes
/// each token back with the spacing it was read with, and
/// `pulumi convert --language pcl` writes the files' bytes as they are
/// (pkg/codegen/pcl/program.go `writeSourceFiles`).
pub(crate) fn formats(path: &Path) -> bool {
    let name = path.file_name().map(|n| n.to_string_lossy()).unwrap_or_default();
    !name.ends_with(".json")
}

/// Terraform's rules for its files, hclwrite's for other HCL (Packer, PCL).
fn style(path: &Path) -> fmt::Style {
    fmt::Style::of_name(&path.file_name().map(|n| n.to_string_lossy()).unwrap_or_default())
}

/// The edits that format the whole document: one, covering what changed.
pub(crate) fn document(rope: &Rope, path: &Path, enc: Encoding) -> Result<Option<Vec<TextEdit>>> {
    let src = rope.to_string();
    let out = fmt::format_as(&src, style(path)).map_err(refused)?;
    Ok(edit(rope, &src, 0..src.len(), &out, enc))
}

/// The edits that format the lines `range` touches.
pub(crate) fn range(rope: &Rope, path: &Path, range: Range, enc: Encoding) -> Result<Option<Vec<TextEdit>>> {
    let src = rope.to_string();
    let (start, end) = (text::offset(rope, range.start, enc), text::offset(rope, range.end, enc));
    let found = fmt::format_range(&src, start.min(end)..start.max(end), style(path)).map_err(refused)?;
    Ok(found.and_then(|e| edit(rope, &src, e.range, &e.text, enc)))
}

/// One edit replacing `src[within]` by `new`, narrowed to the part that
/// differs (so the editor keeps the cursor and marks elsewhere).
fn edit(rope: &Rope, src: &str, within: std::ops::Range<usize>, new: &str, enc: Encoding) -> Option<Vec<TextEdit>> {
    let old = &src[within.clone()];
    if old == new {
        return Some(vec![]);
    }
    let mut pre = old.bytes().zip(new.bytes()).take_while(|(a, b)| a == b).count();
    while !(old.is_char_boundary(pre) && new.is_char_boundary(pre)) {
        pre -= 1;
    }
    // Never between the `\r` and `\n` of a line break.
    if pre > 0 && old.as_bytes()[pre - 1] == b'\r' {
        pre -= 1;
    }
    let max_suf = (old.len() - pre).min(new.len() - pre);
    let mut suf = old.bytes().rev().zip(new.bytes().rev()).take(max_suf).take_while(|(a, b)| a == b).count();
    while !(old.is_char_boundary(old.len() - suf) && new.is_char_boundary(new.len() - suf)) {
        suf -= 1;
    }
    if suf > 0
        && old.len() - suf > 0
        && old.as_bytes()[old.len() - suf] == b'\n'
        && old.as_bytes()[old.len() - suf - 1] == b'\r'
    {
        suf -= 1;
    }
    let r = within.start + pre..within.end - suf;
    Some(vec![TextEdit { range: text::range(rope, &r, enc), new_text: new[pre..new.len() - suf].to_string() }])
}

fn refused(e: fmt::Error) -> Error {
    Error {
        code: ErrorCode::ServerError(-32803), // RequestFailed
        message: format!("not formatted: a syntax error at line {}, column {}: {}", e.line, e.column, e.message).into(),
        data: None,
    }
}

/// `textDocument/onTypeFormatting` after `ch` was typed at `pos`: for `}`,
/// the block it closes as [`range`] formats it (when the document parses),
/// else the `}` line's indentation; for a newline, the new line's
/// indentation. Indentation is `terraform fmt`'s (`fmt::line_indent`), read
/// from the text as it is: the rest of a document being typed need not
/// parse. Minimal edits; none when nothing changes.
pub(crate) fn on_type(rope: &Rope, path: &Path, pos: Position, ch: &str, enc: Encoding) -> Option<Vec<TextEdit>> {
    let src = rope.to_string();
    let at = text::offset(rope, pos, enc).min(src.len());
    let line_start = src[..at].rfind('\n').map_or(0, |p| p + 1);
    if ch == "}" {
        let close = src[..at].rfind('}')?;
        if let Some(open) = fmt::block_start(&src, close) {
            if let Ok(found) = fmt::format_range(&src, open..close + 1, style(path)) {
                return Some(found.and_then(|e| edit(rope, &src, e.range, &e.text, enc)).unwrap_or_default());
            }
        }
    } else if ch != "\n" {
        return None;
    }
    let indent = fmt::line_indent(&src, line_start)?;
    let lead = src[line_start..].len() - src[line_start..].trim_start_matches([' ', '\t']).len();
    edit(rope, &src, line_start..line_start + lead, &" ".repeat(indent), enc)
}
