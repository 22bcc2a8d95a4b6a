//! Pieces of hclsyntax's scanner (`scan_tokens.rl`) that both scanners
//! share: the formatter's (`hcl-types-fmt`, which stops at the first
//! invalid byte as `terraform fmt` does) and the colouring one
//! (`hcl-types-ide`'s semantic tokens, which never stops). Sharing the
//! string and template rules makes them read strings alike; one table of
//! tricky strings (`template_strings.tsv`) is checked against each.

/// The end of the identifier starting at `p` (its first character taken
/// as it is): then `-` and Unicode's identifier characters.
pub fn ident_end(src: &str, p: usize) -> usize {
    let b = src.as_bytes();
    let first = src[p..].chars().next().map_or(0, char::len_utf8);
    let mut e = p + first;
    // ASCII first: the common case decodes nothing.
    while e < b.len() && (b[e].is_ascii_alphanumeric() || b[e] == b'_' || b[e] == b'-') {
        e += 1;
    }
    if e < b.len() && b[e] >= 0x80 {
        for (i, ch) in src[e..].char_indices() {
            if !(ch == '-' || ch.is_ascii_alphanumeric() || ch == '_' || unicode_ident::is_xid_continue(ch)) {
                return e + i;
            }
        }
        return b.len();
    }
    e
}

/// `<<` `-`? identifier newline at `p`: the intro's end (past its newline)
/// and where the marker is.
pub fn heredoc_intro(src: &str, p: usize) -> Option<(usize, (usize, usize))> {
    let b = src.as_bytes();
    let s = p + 2 + usize::from(b.get(p + 2) == Some(&b'-'));
    let ch = src.get(s..)?.chars().next()?;
    if !(ch == '_' || unicode_ident::is_xid_start(ch)) {
        return None;
    }
    let e = ident_end(src, s);
    match (b.get(e), b.get(e + 1)) {
        (Some(b'\n'), _) => Some((e + 1, (s, e))),
        (Some(b'\r'), Some(b'\n')) => Some((e + 2, (s, e))),
        _ => None,
    }
}

/// The end of a single-line comment or heredoc line: past its `\n`, or
/// the end of the input.
pub fn line_end(b: &[u8], p: usize) -> usize {
    match memchr::memchr(b'\n', &b[p..]) {
        Some(i) => p + i + 1,
        None => b.len(),
    }
}

/// What follows a token of a quoted template's literal text
/// ([`quoted_literal_end`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum QuotedStop {
    /// More literal text: a `$` or `%` that starts no sequence.
    Literal,
    /// The closing `"`.
    Quote,
    /// A line break (`\r` or `\n`): a quoted string is one line.
    LineBreak,
    /// `${` or `%{`: a template sequence starts here.
    Sequence,
    /// A `\` with nothing after it on its line: hclsyntax has no token for it.
    BadEscape,
    /// The end of the input.
    End,
}

/// The end of the token of a quoted template's literal text at `p`, and
/// what follows it, as hclsyntax's `TemplateStringLiteral` reads it
/// (`hclsyntax/scan_tokens.rl`, <https://github.com/hashicorp/hcl>): a `$`
/// or `%` that starts no sequence is a token of its own, with the escape
/// it starts (`$${`, `%%{`, a `~` after them); the rest is one token up to
/// the next of them, where a `\` takes the character after it, so `\${`
/// is literal text. At a `${` or `%{`, an empty token and
/// [`QuotedStop::Sequence`].
pub fn quoted_literal_end(src: &str, p: usize) -> (usize, QuotedStop) {
    let b = src.as_bytes();
    let mut e = p;
    if matches!(b.get(p), Some(b'$' | b'%')) {
        e += template_intro(b, p).unwrap_or(1);
    } else {
        while e < b.len() {
            match b[e] {
                b'"' | b'\r' | b'\n' | b'$' | b'%' => break,
                b'\\' => match src.get(e + 1..).and_then(|r| r.chars().next()) {
                    None | Some('\r' | '\n') => return (e, QuotedStop::BadEscape),
                    Some(ch) => e += 1 + ch.len_utf8(),
                },
                _ => e += 1,
            }
        }
    }
    let stop = match b.get(e) {
        None => QuotedStop::End,
        Some(b'"') => QuotedStop::Quote,
        Some(b'\r' | b'\n') => QuotedStop::LineBreak,
        Some(b'$' | b'%') if template_intro(b, e) == Some(0) => QuotedStop::Sequence,
        _ => QuotedStop::Literal,
    };
    (e, stop)
}

/// The end of a heredoc's literal text from `p` up to `line_end` (the end
/// of its line), and the `$` or `%` of the template sequence it stops
/// before if any: as in a quoted template, but a `\` is itself.
pub fn heredoc_literal_end(b: &[u8], p: usize, line_end: usize) -> (usize, Option<u8>) {
    let mut e = p;
    while e < line_end {
        match b[e] {
            c @ (b'$' | b'%') => match template_intro(b, e) {
                Some(0) => return (e, Some(c)),
                Some(n) => e += n,
                None => e += 1,
            },
            _ => e += 1,
        }
    }
    (line_end, None)
}

/// At a `$` or `%` at `p`: `Some(0)` where a template sequence starts
/// (`${`, `%{`), `Some(n)` for an escaped one (`$${`, `%%{~`: `n` bytes of
/// literal text), `None` for a plain character.
fn template_intro(b: &[u8], p: usize) -> Option<usize> {
    let c = b[p];
    match (b.get(p + 1), b.get(p + 2)) {
        (Some(b'{'), _) => Some(0),
        (Some(&d), Some(b'{')) if d == c => Some(3 + usize::from(b.get(p + 3) == Some(&b'~'))),
        _ => None,
    }
}

/// Checks a scanner against `template_strings.tsv`: `tokens` gives a
/// text's tokens as [`render_template_tokens`] writes them; every row
/// that differs is listed in the panic.
#[doc(hidden)]
pub fn check_template_cases(tokens: impl Fn(&str) -> String) {
    let mut wrong = Vec::new();
    let rows = include_str!("template_strings.tsv").lines().filter(|l| !l.starts_with('#') && !l.is_empty());
    for (text, want) in rows.filter_map(|l| l.split_once('\t')) {
        let text = text.replace('⏎', "\n");
        let got = tokens(&text);
        if got != want {
            wrong.push(format!("{text:?}: {got} (want {want})"));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// How a row of `template_strings.tsv` writes the tokens of its text,
/// given as their texts and whether each is a string literal's part (one
/// scanner gives hclsyntax's literal tokens, the other joins them: a run
/// of them is written as one).
#[doc(hidden)]
pub fn render_template_tokens<'a>(tokens: impl Iterator<Item = (&'a str, bool)>) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut literal = false;
    for (text, lit) in tokens {
        match parts.last_mut() {
            Some(last) if lit && literal => last.push_str(text),
            _ => parts.push(text.to_string()),
        }
        literal = lit;
    }
    parts.iter().map(|t| t.trim()).filter(|t| !t.is_empty()).collect::<Vec<_>>().join("|")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identifiers_take_dashes_and_unicode() {
        assert_eq!(ident_end("ab-c_1 = 2", 0), 6);
        assert_eq!(ident_end("é1ü.x", 0), 5);
        assert_eq!(heredoc_intro("<<-EOT\nx\nEOT\n", 0), Some((7, (3, 6))));
        assert_eq!(heredoc_intro("<<EOT x", 0), None);
        assert_eq!(line_end(b"a\nb", 0), 2);
    }
}
