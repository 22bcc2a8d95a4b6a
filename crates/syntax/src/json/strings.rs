//! JSON strings as HCL strings with the same meaning.
//!
//! Terraform decodes a JSON string first (RFC 8259 §7: `\/`, `\b`, `\f`,
//! `\uXXXX` and surrogate pairs included) and only then reads the result
//! as a template (hashicorp/hcl json/spec.md, "Template Expressions").
//! Copying the JSON text verbatim into a native template is right for
//! most strings but not for the escapes HCL lacks (`\/`, `\b`, `\f`,
//! `\uD83D\uDE00`), nor for `\"` inside `${…}` (an escaped quote in JSON
//! is a plain quote of the expression). So a string is decoded, then
//! written again: literal text with HCL's escapes, `${…}` and `%{…}` as
//! the expression text they are.

/// One decoded character and the JSON bytes it was read from.
struct Decoded {
    src: usize,
    len: usize,
    c: char,
}

/// The characters of the JSON string literal `lit` (quotes included)
/// starting at JSON offset `at`. The reader has validated the literal;
/// anything unexpected ends the decoding rather than panicking.
fn decode(lit: &str, at: usize) -> Vec<Decoded> {
    let inner = lit.get(1..lit.len().saturating_sub(1)).unwrap_or("");
    let b = inner.as_bytes();
    let mut out = Vec::with_capacity(inner.len());
    let mut i = 0;
    let hex = |i: usize| inner.get(i..i + 4).and_then(|h| u32::from_str_radix(h, 16).ok());
    while i < b.len() {
        let src = at + 1 + i;
        if b[i] != b'\\' {
            let Some(c) = inner.get(i..).and_then(|s| s.chars().next()) else { break };
            out.push(Decoded { src, len: c.len_utf8(), c });
            i += c.len_utf8();
            continue;
        }
        let (c, len) = match b.get(i + 1) {
            Some(b'"') => ('"', 2),
            Some(b'\\') => ('\\', 2),
            Some(b'/') => ('/', 2),
            Some(b'b') => ('\u{8}', 2),
            Some(b'f') => ('\u{c}', 2),
            Some(b'n') => ('\n', 2),
            Some(b'r') => ('\r', 2),
            Some(b't') => ('\t', 2),
            Some(b'u') => match hex(i + 2) {
                // A high surrogate and a low one are one character.
                Some(hi @ 0xD800..=0xDBFF) => match (inner.get(i + 6..i + 8), hex(i + 8)) {
                    (Some("\\u"), Some(lo @ 0xDC00..=0xDFFF)) => {
                        (char::from_u32(0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00)).unwrap_or('\u{fffd}'), 12)
                    }
                    _ => ('\u{fffd}', 6),
                },
                // A lone surrogate is no character: Go's decoder (which
                // Terraform's is) reads it as U+FFFD.
                Some(code) => (char::from_u32(code).unwrap_or('\u{fffd}'), 6),
                None => break,
            },
            _ => break,
        };
        out.push(Decoded { src, len, c });
        i += len;
    }
    out
}

/// How a decoded string is written again.
#[derive(Clone, Copy, PartialEq)]
pub(super) enum As {
    /// A quoted template: literal text escaped, `${…}`/`%{…}` verbatim.
    Template,
    /// A quoted literal (a block label): everything escaped.
    Literal,
    /// A quoted template holding only text: a value Terraform reads
    /// without a context (a variable's `default`), where HCL's JSON reader
    /// takes strings literally (hashicorp/hcl json/structure.go, `Value`
    /// with a nil context), so `${` is written `$${`.
    Text,
    /// Expression text, unquoted (a type expression or a reference).
    Bare,
}

/// Writes the JSON string literal `lit` at JSON offset `at` as `how`
/// says, calling `piece(text, src, len)` for each piece: `len` is the
/// JSON bytes the piece copies (`0` for a piece standing for an escape).
pub(super) fn write(lit: &str, at: usize, how: As, mut piece: impl FnMut(&str, usize, usize)) {
    let chars = decode(lit, at);
    let quoted = how != As::Bare;
    if quoted {
        piece("\"", at, 1);
    }
    // Inside `${…}`: the depth of braces, and whether in a nested string.
    let mut depth = 0usize;
    let mut in_str = false;
    let mut k = 0;
    while k < chars.len() {
        let d = &chars[k];
        let next = chars.get(k + 1).map(|d| d.c);
        let mut buf = [0u8; 4];
        let raw = &*d.c.encode_utf8(&mut buf);
        let text: std::borrow::Cow<str> = if how == As::Bare {
            raw.into()
        } else if depth > 0 {
            match d.c {
                '"' if !in_str => in_str = true,
                '"' => in_str = false,
                '{' if !in_str => depth += 1,
                '}' if !in_str => depth -= 1,
                _ => {}
            }
            raw.into()
        } else if how == As::Template && matches!(d.c, '$' | '%') && next == Some('{') {
            // `$${` is a literal `${` in both syntaxes: copied as it is.
            if k > 0 && chars[k - 1].c == d.c {
                raw.into()
            } else {
                depth = 1;
                piece(raw, d.src, if d.len == 1 { 1 } else { 0 });
                let open = &chars[k + 1];
                piece("{", open.src, if open.len == 1 { 1 } else { 0 });
                k += 2;
                continue;
            }
        } else {
            match d.c {
                '"' => "\\\"".into(),
                '\\' => "\\\\".into(),
                '\n' => "\\n".into(),
                '\r' => "\\r".into(),
                '\t' => "\\t".into(),
                '$' | '%' if how == As::Text && next == Some('{') => format!("{raw}{raw}").into(),
                c if (c as u32) < 0x20 || c == '\u{7f}' => format!("\\u{:04x}", c as u32).into(),
                _ => raw.into(),
            }
        };
        // A piece equal to its JSON bytes is a run of them; one that is not
        // stands for its escape's first byte.
        let same = lit.get(d.src - at..d.src - at + d.len) == Some(&*text);
        piece(&text, d.src, if same { d.len } else { 0 });
        k += 1;
    }
    if quoted {
        piece("\"", at + lit.len().saturating_sub(1), 1);
    }
}
