//! An HCL parser which keeps track of whitespace, comments and span information.

mod error;
mod expr;
mod nesting;
mod number;
mod pratt;
mod repr;
mod state;
mod string;
mod structure;
mod template;
// Upstream's parser unit tests read its unpublished `testdata` crate: built only
// with `RUSTFLAGS=--cfg upstream_testdata` inside upstream's repository.
#[cfg(all(test, upstream_testdata))]
mod tests;
mod trivia;

pub use self::error::{Error, Location};
use self::expr::root_expr;
use self::structure::body;
use self::template::template;
use crate::expr::Expression;
use crate::structure::Body;
use crate::template::Template;

mod prelude {
    pub(super) use winnow::error::{ContextError, StrContext, StrContextValue};
    pub(super) use winnow::stream::Stream;
    pub(super) use winnow::{dispatch, ModalParser, ModalResult, Parser};

    pub(super) type Input<'a> =
        winnow::stream::Stateful<winnow::stream::LocatingSlice<&'a str>, NestingState>;

    use super::nesting::NestingState;

    /// Creates a new parser input from `s`.
    #[cfg(test)]
    pub(super) fn new_input(s: &str) -> Input<'_> {
        new_input_with(s, super::ParseOptions::default())
    }

    /// Creates a new parser input from `s`, parsed as `options` say.
    pub(super) fn new_input_with(s: &str, options: super::ParseOptions) -> Input<'_> {
        Input {
            input: winnow::stream::LocatingSlice::new(s),
            state: NestingState::new(options.max_nesting_depth),
        }
    }
}

/// How the parser treats its input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct ParseOptions {
    max_nesting_depth: usize,
}

impl Default for ParseOptions {
    fn default() -> Self {
        ParseOptions {
            max_nesting_depth: nesting::DEFAULT_MAX_NESTING_DEPTH,
        }
    }
}

impl ParseOptions {
    /// Sets the maximum nesting depth of expressions, templates and blocks (default 64); deeper
    /// input is a parse error.
    ///
    /// HCL itself has no such limit (Terraform accepts tens of thousands of levels), but the
    /// parser recurses once per level: the default fits a 2 MiB thread stack even in a debug build
    /// (up to ~35 KB a level there, a few KB in a release build). A caller that parses on a larger
    /// stack can accept deeper input; the parsed tree is as deep, and dropping, encoding or
    /// walking it recurses too.
    #[must_use]
    pub fn max_nesting_depth(mut self, depth: usize) -> Self {
        self.max_nesting_depth = depth;
        self
    }
}

use self::prelude::*;

/// Parse an input into a [`Body`].
///
/// # Errors
///
/// Returns an error if the input does not resemble a valid HCL body.
pub fn parse_body(input: &str) -> Result<Body, Error> {
    parse_body_with(input, ParseOptions::default())
}

/// Parse an input into a [`Body`], as `options` say.
///
/// # Errors
///
/// Returns an error if the input does not resemble a valid HCL body.
pub fn parse_body_with(input: &str, options: ParseOptions) -> Result<Body, Error> {
    let mut body = parse_complete_with(input, options, body)?;
    body.despan(input);
    Ok(body)
}

/// Parse an input into an [`Expression`].
///
/// # Errors
///
/// Returns an error if the input does not resemble a valid HCL expression.
pub fn parse_expr(input: &str) -> Result<Expression, Error> {
    parse_expr_with(input, ParseOptions::default())
}

/// Parse an input into an [`Expression`], as `options` say.
///
/// # Errors
///
/// Returns an error if the input does not resemble a valid HCL expression.
pub fn parse_expr_with(input: &str, options: ParseOptions) -> Result<Expression, Error> {
    let mut expr = parse_complete_with(input, options, root_expr)?;
    expr.despan(input);
    Ok(expr)
}

/// Parse an input into a [`Template`].
///
/// # Errors
///
/// Returns an error if the input does not resemble a valid HCL template.
pub fn parse_template(input: &str) -> Result<Template, Error> {
    let mut template = parse_complete(input, template)?;
    template.despan(input);
    Ok(template)
}

fn parse_complete<'a, P, O>(input: &'a str, parser: P) -> Result<O, Error>
where
    P: ModalParser<Input<'a>, O, ContextError>,
{
    parse_complete_with(input, ParseOptions::default(), parser)
}

fn parse_complete_with<'a, P, O>(
    input: &'a str,
    options: ParseOptions,
    mut parser: P,
) -> Result<O, Error>
where
    P: ModalParser<Input<'a>, O, ContextError>,
{
    let input = new_input_with(input, options);

    parser
        .parse(input)
        .map_err(|err| Error::from_parse_error(&err))
}
