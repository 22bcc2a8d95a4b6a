//! A forgiving scanner for colouring: the token kinds of hclsyntax's
//! scanner (`scan_tokens.rl`) that a colour depends on, never an error.
//! The formatter's scanner (`crates/fmt/src/lex.rs`) stops at the first
//! invalid byte, as `terraform fmt` must; an editor colours half-typed
//! text, so here an invalid character is skipped, a newline ends an
//! unclosed quoted string and an unclosed comment or heredoc runs to the
//! end. One loop over a stack of modes: nesting costs no stack. Offsets
//! are `u32` (files are capped far below 4 GiB) so a 10 MB file's two
//! million tokens take 24 MB, not 48.

use syntax::lexical::{heredoc_intro, heredoc_literal_end, ident_end, line_end, quoted_literal_end, QuotedStop};

/// What a scanned token is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum L {
    Ident,
    Number,
    Comment,
    Newline,
    OBrace,
    CBrace,
    OBrack,
    CBrack,
    OParen,
    CParen,
    OQuote,
    CQuote,
    /// A literal part of a quoted string or heredoc.
    Lit,
    /// `<<EOT` or `<<-EOT` (its newline not included).
    OHeredoc,
    /// The heredoc's closing marker.
    CHeredoc,
    /// `${` or `${~`.
    Interp,
    /// `%{` or `%{~`.
    Control,
    /// `}` or `~}` closing an interpolation or directive.
    TemplateEnd,
    Dot,
    Comma,
    Colon,
    DoubleColon,
    Question,
    Equal,
    /// Every other operator: `+ - * / % == != < > <= >= && || ! =>` and `...`.
    Op,
    /// What no rule names (`;`, a stray character).
    Other,
}

#[derive(Clone, Copy, Debug)]
pub(super) struct Lex {
    pub kind: L,
    pub start: u32,
    pub end: u32,
}

enum Mode {
    Main,
    Quoted,
    Heredoc { marker: (usize, usize), start_of_line: bool },
}

/// The tokens of `src`, in order, never overlapping, into `out`
/// (cleared first: one buffer serves every item of a document).
pub(super) fn lex_into(src: &str, out: &mut Vec<Lex>) {
    let b = src.as_bytes();
    out.clear();
    out.reserve(src.len() / 4 + 1);
    let mut p = if src.starts_with('\u{feff}') { 3 } else { 0 };
    let mut modes = vec![Mode::Main];
    let mut braces = 0usize;
    let mut ret_braces: Vec<usize> = Vec::new();
    let mut tok = |kind: L, s: usize, e: usize| out.push(Lex { kind, start: s as u32, end: e as u32 });
    // `${` or `%{` (`c`) at `p`: the main mode until its `}`.
    macro_rules! open_sequence {
        ($c:expr) => {{
            let e = p + 2 + usize::from(b.get(p + 2) == Some(&b'~'));
            tok(if $c == b'$' { L::Interp } else { L::Control }, p, e);
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
                        tok(L::Number, p, e);
                        p = e;
                    }
                    // A line comment leaves its line break to end the statement.
                    b'#' | b'/' if c == b'#' || next == Some(b'/') => {
                        let e = content_end(b, p, line_end(b, p));
                        tok(L::Comment, p, e);
                        p = e;
                    }
                    b'/' if next == Some(b'*') => {
                        let e = src[p + 2..].find("*/").map_or(content_end(b, p, b.len()), |i| p + 2 + i + 2);
                        tok(L::Comment, p, e);
                        p = e;
                    }
                    b'\n' | b'\r' => {
                        let e = if c == b'\r' && next == Some(b'\n') { p + 2 } else { p + 1 };
                        tok(L::Newline, p, e);
                        p = e;
                    }
                    b'{' => {
                        tok(L::OBrace, p, p + 1);
                        braces += 1;
                        p += 1;
                    }
                    b'}' | b'~' if c == b'}' || next == Some(b'}') => {
                        let e = if c == b'}' { p + 1 } else { p + 2 };
                        if ret_braces.last() == Some(&braces) {
                            tok(L::TemplateEnd, p, e);
                            ret_braces.pop();
                            modes.pop();
                        } else {
                            tok(L::CBrace, p, e);
                        }
                        braces = braces.saturating_sub(1);
                        p = e;
                    }
                    b'"' => {
                        tok(L::OQuote, p, p + 1);
                        modes.push(Mode::Quoted);
                        p += 1;
                    }
                    b'<' if next == Some(b'<') && heredoc_intro(src, p).is_some() => {
                        let (e, marker) = heredoc_intro(src, p).expect("just checked");
                        tok(L::OHeredoc, p, marker.1);
                        // The intro's newline is the heredoc's first line break.
                        tok(L::Newline, marker.1, e);
                        modes.push(Mode::Heredoc { marker, start_of_line: true });
                        p = e;
                    }
                    _ => {
                        let (kind, len) = operator(&b[p..]);
                        if len > 0 {
                            tok(kind, p, p + len);
                            p += len;
                            continue;
                        }
                        let ch = src[p..].chars().next().expect("p is on a char boundary");
                        if ch == '_' || unicode_ident::is_xid_start(ch) {
                            let e = ident_end(src, p);
                            tok(L::Ident, p, e);
                            p = e;
                        } else {
                            tok(L::Other, p, p + ch.len_utf8());
                            p += ch.len_utf8();
                        }
                    }
                }
            }
            Mode::Quoted => match b[p] {
                b'"' => {
                    tok(L::CQuote, p, p + 1);
                    modes.pop();
                    p += 1;
                }
                // An unclosed string ends at its line.
                b'\r' | b'\n' => {
                    modes.pop();
                }
                c @ (b'$' | b'%') if b.get(p + 1) == Some(&b'{') => {
                    open_sequence!(c);
                }
                _ => {
                    let e = quoted_run_end(src, p);
                    tok(L::Lit, p, e);
                    p = e;
                }
            },
            Mode::Heredoc { marker, start_of_line } => {
                let end_of_line = line_end(b, p);
                if *start_of_line {
                    let line = src[p..end_of_line].trim_end_matches(['\n', '\r']);
                    let (ms, me) = *marker;
                    if line.trim() == &src[ms..me] {
                        let at = p + (line.len() - line.trim_start().len());
                        tok(L::CHeredoc, at, p + line.len());
                        modes.pop();
                        p += line.len();
                        continue;
                    }
                }
                // A literal up to the end of the line or to the next
                // interpolation or directive.
                let (e, interp) = heredoc_literal_end(b, p, end_of_line);
                if e > p {
                    let shown = content_end(b, p, e);
                    if shown > p {
                        tok(L::Lit, p, shown);
                    }
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
}

/// The end of a quoted string's literal text from `p`: hclsyntax's
/// literal tokens as one (`syntax::lexical`); a `\` at the end of a line
/// is literal text here.
fn quoted_run_end(src: &str, p: usize) -> usize {
    let mut e = p;
    loop {
        match quoted_literal_end(src, e) {
            (end, QuotedStop::Literal) => e = end,
            (end, QuotedStop::BadEscape) => return end + 1,
            (end, _) => return end,
        }
    }
}

/// The operator or punctuation at the start of `b`, and its length (0:
/// none).
fn operator(b: &[u8]) -> (L, usize) {
    let two = match b {
        [b'=', b'=', ..] | [b'!', b'=', ..] | [b'>', b'=', ..] | [b'<', b'=', ..] => Some(L::Op),
        [b'&', b'&', ..] | [b'|', b'|', ..] | [b'=', b'>', ..] => Some(L::Op),
        [b':', b':', ..] => Some(L::DoubleColon),
        _ => None,
    };
    if let Some(k) = two {
        return (k, 2);
    }
    if b.starts_with(b"...") {
        return (L::Op, 3);
    }
    let kind = match b[0] {
        b'[' => L::OBrack,
        b']' => L::CBrack,
        b'(' => L::OParen,
        b')' => L::CParen,
        b'.' => L::Dot,
        b',' => L::Comma,
        b':' => L::Colon,
        b'?' => L::Question,
        b'=' => L::Equal,
        b'*' | b'/' | b'%' | b'+' | b'-' | b'<' | b'>' | b'!' => L::Op,
        b'&' | b'|' | b'~' | b'^' | b';' | b'`' | b'\'' => L::Other,
        _ => return (L::Other, 0),
    };
    (kind, 1)
}

/// The end of `b[p..e]` without the line break it ends with.
fn content_end(b: &[u8], p: usize, e: usize) -> usize {
    let mut e = e;
    if e > p && b[e - 1] == b'\n' {
        e -= 1;
    }
    if e > p && b[e - 1] == b'\r' {
        e -= 1;
    }
    e
}

/// `digit (digit | '.' digit | [eE] [+-]? digit)*`.
fn number_end(b: &[u8], p: usize) -> usize {
    let mut e = p + 1;
    loop {
        match b.get(e) {
            Some(c) if c.is_ascii_digit() => e += 1,
            Some(b'.') if b.get(e + 1).is_some_and(u8::is_ascii_digit) => e += 2,
            Some(b'e' | b'E') => {
                let f = e + 1 + usize::from(matches!(b.get(e + 1), Some(b'+' | b'-')));
                if b.get(f).is_some_and(u8::is_ascii_digit) {
                    e = f + 1;
                } else {
                    break;
                }
            }
            _ => break,
        }
    }
    e
}

#[cfg(test)]
mod tests {
    /// The strings and templates both scanners must split alike
    /// (`syntax/src/template_strings.tsv`).
    #[test]
    fn tricky_strings_split_as_hclsyntax_splits_them() {
        syntax::lexical::check_template_cases(|text| {
            let mut toks = Vec::new();
            super::lex_into(text, &mut toks);
            let texts = toks.iter().map(|t| (&text[t.start as usize..t.end as usize], t.kind == super::L::Lit));
            syntax::lexical::render_template_tokens(texts)
        });
    }
}
