//! A formatter byte-identical to `terraform fmt` (issue 32), with no
//! Terraform binary: a port of hclwrite's token formatter
//! (hashicorp/hcl `hclwrite/format.go`) over a port of hclsyntax's scanner,
//! plus the rewrites of Terraform's `fmt` command
//! (`internal/command/fmt.go`): labels quoted, `"${x}"` unwrapped, legacy
//! variable types modernised. See `docs/spec/cli.md` (`hcl-types fmt`).
//!
//! A file with a syntax error is not formatted (an [`Error`]), as
//! Terraform refuses it; the check is hcl-edit's parse with the project's
//! nesting guard (`syntax::deep`). Everything after it is a loop over
//! tokens, so nesting costs no stack.

mod layout;
mod lex;
mod on_type;
mod tree;

pub use on_type::{block_start, line_indent};

use std::fmt;
use std::ops::Range;

/// Why a text was not formatted: its first syntax error.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    pub message: String,
    /// 1-based line and column (in characters) of the error.
    pub line: usize,
    pub column: usize,
}

impl Error {
    pub(crate) fn at(src: &str, offset: usize, message: &str) -> Error {
        let mut offset = offset.min(src.len());
        while !src.is_char_boundary(offset) {
            offset -= 1;
        }
        let before = &src[..offset];
        let line = before.matches('\n').count() + 1;
        let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
        Error { message: message.to_string(), line, column }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.line, self.column, self.message)
    }
}

impl std::error::Error for Error {}

/// One replacement: the bytes `range` of the input become `text`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Edit {
    pub range: Range<usize>,
    pub text: String,
}

/// Whose rules: Terraform's `fmt` command (hclwrite's layout and its own
/// rewrites), or hclwrite's `Format` alone, as `packer fmt` and other HCL
/// tools (Terragrunt's `hclfmt`) write files.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    Terraform,
    Hclwrite,
}

impl Style {
    /// The style for a file name: Terraform's for its files (`.tf`,
    /// `.tfvars`, `.tftest.hcl`, `.tfmock.hcl`, `.tfquery.hcl`, Stacks'
    /// `.tfstack.hcl` and `.tfdeploy.hcl`) and OpenTofu's (`.tofu`,
    /// `.tofutest.hcl`); hclwrite's for any other (`.pkr.hcl`, `.hcl`,
    /// Pulumi's `.pp`, which has no formatter of its own).
    pub fn of_name(name: &str) -> Style {
        const TERRAFORM: &[&str] = &[
            ".tf",
            ".tfvars",
            ".tftest.hcl",
            ".tfmock.hcl",
            ".tfquery.hcl",
            ".tfstack.hcl",
            ".tfdeploy.hcl",
            ".tofu",
            ".tofutest.hcl",
        ];
        if TERRAFORM.iter().any(|e| name.ends_with(e)) {
            Style::Terraform
        } else {
            Style::Hclwrite
        }
    }
}

/// `text` as `terraform fmt` writes it.
pub fn format(text: &str) -> Result<String, Error> {
    format_as(text, Style::Terraform)
}

/// `text` formatted in `style`.
pub fn format_as(text: &str, style: Style) -> Result<String, Error> {
    formatted(text, style).map(|(out, _)| out)
}

/// The edit that formats the part of `text` in `range` (bytes): the range
/// grows to whole lines outside any attribute value (a multi-line value
/// is formatted whole), and the replacement is those lines as [`format`]
/// writes them in the whole file. `None` when they are formatted already.
pub fn format_range(text: &str, range: Range<usize>, style: Style) -> Result<Option<Edit>, Error> {
    let (out, bounds) = formatted(text, style)?;
    let start = bounds.iter().rev().find(|b| b.0 <= range.start).copied().unwrap_or((0, 0));
    let end = bounds.iter().find(|b| b.0 >= range.end.max(range.start)).copied().unwrap_or((text.len(), out.len()));
    let new = &out[start.1..end.1];
    if &text[start.0..end.0] == new {
        return Ok(None);
    }
    Ok(Some(Edit { range: start.0..end.0, text: new.to_string() }))
}

/// The formatted text and the pairs (input offset, output offset) of the
/// line ends a range edit may stop at, from (0, 0) to both ends.
fn formatted(text: &str, style: Style) -> Result<(String, Vec<(usize, usize)>), Error> {
    // hcl-edit takes no byte order mark; hclsyntax skips one.
    if let Err(e) = syntax::deep::parse_body(text.strip_prefix('\u{feff}').unwrap_or(text)) {
        let loc = e.location();
        return Err(Error { message: e.message().to_string(), line: loc.line(), column: loc.column() });
    }
    let toks = lex::lex(text)?;
    let (mut toks, boundary) = tree::rewrite(text, toks, style == Style::Terraform)?;
    layout::format(&mut toks);
    let mut out = String::with_capacity(text.len() + text.len() / 8);
    let mut bounds = vec![(0, 0)];
    for (t, b) in toks.iter().zip(boundary) {
        out.extend(std::iter::repeat_n(' ', t.spaces));
        out.push_str(&t.text);
        if b {
            if let Some(at) = t.at {
                bounds.push((at + t.text.len(), out.len()));
            }
        }
    }
    bounds.push((text.len(), out.len()));
    Ok((out, bounds))
}

#[cfg(test)]
mod tests;
