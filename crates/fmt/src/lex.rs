//! The tokens hclwrite formats: a port of hclsyntax's scanner
//! (`scan_tokens.rl`) as far as formatting can tell tokens apart. Every
//! byte of the input is in a token or in the spaces before one (`spaces`
//! counts bytes, tabs included, as hclwrite's `writerTokens` does), so the
//! tokens with their spaces give back the input. The scanner is a loop over
//! a stack of modes, never a recursion, so nesting costs no stack.

use syntax::lexical::{heredoc_intro, heredoc_literal_end, ident_end, line_end, quoted_literal_end, QuotedStop};

use crate::Error;

/// A token's type, as far as the formatter tells them apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum K {
    Newline,
    Comment,
    Ident,
    NumberLit,
    OBrace,
    CBrace,
    OBrack,
    CBrack,
    OParen,
    CParen,
    OQuote,
    CQuote,
    /// A literal part of a quoted template.
    QuotedLit,
    /// A literal part of a heredoc.
    StringLit,
    OHeredoc,
    CHeredoc,
    TemplateInterp,
    TemplateControl,
    TemplateSeqEnd,
    Dot,
    Comma,
    Ellipsis,
    DoubleColon,
    Equal,
    EqualOp,
    NotEqual,
    Lt,
    Gt,
    Lte,
    Gte,
    And,
    Or,
    Bang,
    Minus,
    Plus,
    Star,
    Slash,
    Percent,
    Colon,
    Question,
    /// `=>`, `&`, `|`, `~`, `^`, `;`, backquote, `'`: no rule of the
    /// formatter names them.
    Other,
    Eof,
}

/// A token: its text and the spaces written before it.
#[derive(Clone, Debug)]
pub(crate) struct Tok<'a> {
    pub kind: K,
    pub text: std::borrow::Cow<'a, str>,
    pub spaces: usize,
    /// Where the token starts in the input (`None` for a token made by a
    /// rewrite).
    pub at: Option<usize>,
}

impl<'a> Tok<'a> {
    pub fn new(kind: K, text: &'static str) -> Tok<'a> {
        Tok { kind, text: std::borrow::Cow::Borrowed(text), spaces: 0, at: None }
    }

    /// A single-line comment (`#`, `//`) takes its line's newline.
    pub fn ends_line(&self) -> bool {
        match self.kind {
            K::Newline => true,
            K::Comment => self.text.ends_with('\n'),
            _ => false,
        }
    }
}

enum Mode {
    Main,
    Quoted,
    Heredoc { marker: (usize, usize), start_of_line: bool },
}

/// The tokens of `src`, ending with [`K::Eof`]; an error where
/// hclsyntax's scanner finds no token (an invalid character, a newline in
/// a quoted string, an unterminated string, heredoc or comment).
pub(crate) fn lex<'a>(src: &'a str) -> Result<Vec<Tok<'a>>, Error> {
    let b = src.as_bytes();
    let mut out: Vec<Tok<'a>> = Vec::with_capacity(src.len() / 3 + 1);
    let mut last_end = 0usize;
    let mut p = if src.starts_with('\u{feff}') { 3 } else { 0 };
    let mut modes = vec![Mode::Main];
    let mut braces = 0usize;
    let mut ret_braces: Vec<usize> = Vec::new();

    let push = |out: &mut Vec<Tok<'a>>, kind: K, s: usize, e: usize, last_end: &mut usize| {
        out.push(Tok { kind, text: std::borrow::Cow::Borrowed(&src[s..e]), spaces: s - *last_end, at: Some(s) });
        *last_end = e;
    };
    macro_rules! tok {
        ($kind:expr, $s:expr, $e:expr) => {
            push(&mut out, $kind, $s, $e, &mut last_end)
        };
    }
    let err = |at: usize, message: &str| Err(Error::at(src, at, message));
    // `${` or `%{` (`c`) at `p`: the main mode until its `}`.
    macro_rules! open_sequence {
        ($c:expr) => {{
            let e = p + 2 + usize::from(b.get(p + 2) == Some(&b'~'));
            tok!(if $c == b'$' { K::TemplateInterp } else { K::TemplateControl }, p, e);
            braces += 1;
            ret_braces.push(braces);
            modes.push(Mode::Main);
            p = e;
        }};
    }

    while p < b.len() {
        let mode = modes.last_mut().expect("the main mode is never popped");
        match mode {
            Mode::Main => {
                let c = b[p];
                let next = b.get(p + 1).copied();
                match c {
                    b' ' | b'\t' => p += 1,
                    b'0'..=b'9' => {
                        let e = number_end(b, p);
                        tok!(K::NumberLit, p, e);
                        p = e;
                    }
                    b'#' => {
                        let e = line_end(b, p);
                        tok!(K::Comment, p, e);
                        p = e;
                    }
                    b'/' if next == Some(b'/') => {
                        let e = line_end(b, p);
                        tok!(K::Comment, p, e);
                        p = e;
                    }
                    b'/' if next == Some(b'*') => match src[p + 2..].find("*/") {
                        Some(i) => {
                            let e = p + 2 + i + 2;
                            tok!(K::Comment, p, e);
                            p = e;
                        }
                        None => return err(p, "Unterminated comment"),
                    },
                    b'\n' => {
                        tok!(K::Newline, p, p + 1);
                        p += 1;
                    }
                    b'\r' if next == Some(b'\n') => {
                        tok!(K::Newline, p, p + 2);
                        p += 2;
                    }
                    b'{' => {
                        tok!(K::OBrace, p, p + 1);
                        braces += 1;
                        p += 1;
                    }
                    b'}' | b'~' if c == b'}' || next == Some(b'}') => {
                        let e = if c == b'}' { p + 1 } else { p + 2 };
                        if ret_braces.last() == Some(&braces) {
                            tok!(K::TemplateSeqEnd, p, e);
                            ret_braces.pop();
                            modes.pop();
                        } else {
                            // `~}` closing a plain brace: hclsyntax's parser rejects it.
                            if c == b'~' {
                                return err(p, "Extra characters after interpolation expression");
                            }
                            tok!(K::CBrace, p, e);
                        }
                        braces = braces.saturating_sub(1);
                        p = e;
                    }
                    b'"' => {
                        tok!(K::OQuote, p, p + 1);
                        modes.push(Mode::Quoted);
                        p += 1;
                    }
                    b'<' if next == Some(b'<') => {
                        if let Some((e, marker)) = heredoc_intro(src, p) {
                            tok!(K::OHeredoc, p, e);
                            modes.push(Mode::Heredoc { marker, start_of_line: true });
                            p = e;
                        } else {
                            tok!(K::Lt, p, p + 1);
                            p += 1;
                        }
                    }
                    _ => {
                        let two = next.map(|n| [c, n]);
                        let op2 = match two.as_ref().map(|t| &t[..]) {
                            Some(b"==") => Some(K::EqualOp),
                            Some(b"!=") => Some(K::NotEqual),
                            Some(b">=") => Some(K::Gte),
                            Some(b"<=") => Some(K::Lte),
                            Some(b"&&") => Some(K::And),
                            Some(b"||") => Some(K::Or),
                            Some(b"::") => Some(K::DoubleColon),
                            Some(b"=>") => Some(K::Other),
                            _ => None,
                        };
                        if let Some(k) = op2 {
                            tok!(k, p, p + 2);
                            p += 2;
                            continue;
                        }
                        if b[p..].starts_with(b"...") {
                            tok!(K::Ellipsis, p, p + 3);
                            p += 3;
                            continue;
                        }
                        let one = match c {
                            b'[' => Some(K::OBrack),
                            b']' => Some(K::CBrack),
                            b'(' => Some(K::OParen),
                            b')' => Some(K::CParen),
                            b'.' => Some(K::Dot),
                            b',' => Some(K::Comma),
                            b'*' => Some(K::Star),
                            b'/' => Some(K::Slash),
                            b'%' => Some(K::Percent),
                            b'+' => Some(K::Plus),
                            b'-' => Some(K::Minus),
                            b'=' => Some(K::Equal),
                            b'<' => Some(K::Lt),
                            b'>' => Some(K::Gt),
                            b'!' => Some(K::Bang),
                            b'?' => Some(K::Question),
                            b':' => Some(K::Colon),
                            b'&' | b'|' | b'~' | b'^' | b';' | b'`' | b'\'' => Some(K::Other),
                            _ => None,
                        };
                        if let Some(k) = one {
                            tok!(k, p, p + 1);
                            p += 1;
                            continue;
                        }
                        let ch = src[p..].chars().next().expect("p is on a char boundary");
                        if ch == '_' || unicode_ident::is_xid_start(ch) {
                            let e = ident_end(src, p);
                            tok!(K::Ident, p, e);
                            p = e;
                        } else {
                            return err(p, &format!("Invalid character {ch:?}"));
                        }
                    }
                }
            }
            Mode::Quoted => {
                let c = b[p];
                match c {
                    b'"' => {
                        tok!(K::CQuote, p, p + 1);
                        modes.pop();
                        p += 1;
                    }
                    b'\r' | b'\n' => return err(p, "Invalid multi-line string"),
                    b'$' | b'%' if b.get(p + 1) == Some(&b'{') => open_sequence!(c),
                    _ => match quoted_literal_end(src, p) {
                        (e, QuotedStop::BadEscape) => return err(e, "Invalid escape sequence"),
                        (e, _) => {
                            tok!(K::QuotedLit, p, e);
                            p = e;
                        }
                    },
                }
            }
            Mode::Heredoc { marker, start_of_line } => {
                let end_of_line = line_end(b, p);
                if *start_of_line && b[end_of_line - 1] == b'\n' {
                    let line = &src[p..end_of_line];
                    let (ms, me) = *marker;
                    if !line.contains(['$', '%']) && line.trim() == &src[ms..me] {
                        let nl = if line.ends_with("\r\n") { end_of_line - 2 } else { end_of_line - 1 };
                        tok!(K::CHeredoc, p, nl);
                        tok!(K::Newline, nl, end_of_line);
                        modes.pop();
                        p = end_of_line;
                        continue;
                    }
                }
                // A literal up to the end of the line (newline included)
                // or to the next interpolation or directive.
                let (e, interp) = heredoc_literal_end(b, p, end_of_line);
                if let Some(cr) = (p..e).find(|&i| b[i] == b'\r' && b.get(i + 1) != Some(&b'\n')) {
                    return err(cr, "Invalid character in heredoc");
                }
                if e > p {
                    tok!(K::StringLit, p, e);
                    *start_of_line = b[e - 1] == b'\n';
                    p = e;
                }
                if let Some(c) = interp {
                    *start_of_line = false;
                    open_sequence!(c);
                }
            }
        }
    }
    match modes.last() {
        Some(Mode::Main) if modes.len() == 1 => {}
        Some(Mode::Quoted) => return err(p, "Unterminated template string"),
        Some(Mode::Heredoc { .. }) => return err(p, "Unterminated template string"),
        _ => return err(p, "Unclosed template interpolation"),
    }
    tok!(K::Eof, b.len(), b.len());
    Ok(out)
}

/// `digit (digit | '.' | [eE] [+-]? digit)*`, not ending in `.`.
fn number_end(b: &[u8], p: usize) -> usize {
    let mut e = p + 1;
    let mut last_good = e;
    loop {
        match b.get(e) {
            Some(c) if c.is_ascii_digit() => {
                e += 1;
                last_good = e;
            }
            Some(b'.') => e += 1,
            Some(b'e' | b'E') => {
                let mut f = e + 1;
                if matches!(b.get(f), Some(b'+' | b'-')) {
                    f += 1;
                }
                if b.get(f).is_some_and(u8::is_ascii_digit) {
                    e = f + 1;
                    last_good = e;
                } else {
                    break;
                }
            }
            _ => break,
        }
    }
    last_good
}

#[cfg(test)]
mod tests {
    /// The strings and templates both scanners must split alike
    /// (`syntax/src/template_strings.tsv`).
    #[test]
    fn tricky_strings_split_as_hclsyntax_splits_them() {
        syntax::lexical::check_template_cases(|text| match super::lex(text) {
            Ok(toks) => syntax::lexical::render_template_tokens(
                toks.iter().map(|t| (&*t.text, matches!(t.kind, super::K::QuotedLit | super::K::StringLit))),
            ),
            Err(e) => format!("error: {e:?}"),
        });
    }
}
