//! Formatting as the user types (`textDocument/onTypeFormatting`): the
//! indentation `terraform fmt` would give one line, and where the block a
//! `}` closes opens. Read from the tokens alone, so the text need not
//! parse (the user is typing).

use crate::layout;
use crate::lex::{lex, K};

/// The indentation, in spaces, that [`crate::format`] gives the line that
/// starts at `line_start`, from the lines before it and its own brackets;
/// a blank line gets what a token typed on it would. `None` inside a
/// string or heredoc (their lines are text), or where the text up to the
/// line does not lex.
pub fn line_indent(text: &str, line_start: usize) -> Option<usize> {
    let rest = text.get(line_start..)?;
    let line = &rest[..rest.find('\n').unwrap_or(rest.len())];
    let content = line.trim_start_matches([' ', '\t']).trim_end_matches('\r');
    // A blank line stands for what will be typed on it.
    let content = if content.trim().is_empty() { "x" } else { content };
    let probe = format!("{}{content}\n", &text[..line_start]);
    let mut toks = lex(&probe).ok()?;
    layout::indent_only(&mut toks);
    let t = toks.iter().find(|t| t.at == Some(line_start))?;
    match t.kind {
        K::QuotedLit | K::StringLit | K::CHeredoc | K::CQuote => None,
        _ => Some(t.spaces),
    }
}

/// Where the `{` that the `}` at `close` matches is, by the tokens before
/// it (`None` when it matches none).
pub fn block_start(text: &str, close: usize) -> Option<usize> {
    let toks = lex(text.get(..close)?).ok()?;
    let mut open = Vec::new();
    for t in &toks {
        match t.kind {
            K::OBrace | K::TemplateInterp | K::TemplateControl => open.push((t.kind, t.at)),
            K::CBrace | K::TemplateSeqEnd => {
                open.pop();
            }
            _ => {}
        }
    }
    match open.pop()? {
        (K::OBrace, at) => at,
        _ => None,
    }
}
