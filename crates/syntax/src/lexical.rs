//! Pieces of hclsyntax's scanner (`scan_tokens.rl`) that both scanners
//! here share: the formatter's (`hcl-types-fmt`, which stops at the first
//! invalid byte as `terraform fmt` does) and the colouring one
//! (`hcl-types-ide`'s semantic tokens, which never stops).

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
