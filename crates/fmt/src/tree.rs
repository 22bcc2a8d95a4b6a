//! What `terraform fmt` changes besides spaces (internal/command/fmt.go),
//! found by walking the tokens of a valid file as hclwrite's tree sees
//! them: bodies of attributes and blocks.
//!
//! - every block's labels are written again in the quoted form
//!   (`block.SetLabels(block.Labels())`): a bare label is quoted, escapes
//!   are normalised, comments before or between labels are dropped, and a
//!   label hclwrite cannot read back as one literal (one with `$` or `%`)
//!   is dropped, as Terraform drops it;
//! - an attribute's value that is a lone interpolation, `"${x}"`, is
//!   unwrapped to `x` (in parentheses when it spans lines);
//! - the `type` of a top-level `variable` block written in the legacy
//!   forms (`"string"`, `"list"`, `"map"`, bare `list`, `map`, `set`) gets
//!   its modern form.
//!
//! The walk is a loop with a stack of open blocks: no recursion.

use std::borrow::Cow;
use std::ops::Range;

use crate::layout::bracket_change;
use crate::lex::{Tok, K};
use crate::Error;

/// The rewritten tokens, and for each whether a line may end after it for
/// a range edit (a line end outside any attribute value).
/// With `terraform` false, only the checks: hclwrite's plain `Format`.
pub(crate) fn rewrite<'a>(
    src: &'a str,
    toks: Vec<Tok<'a>>,
    terraform: bool,
) -> Result<(Vec<Tok<'a>>, Vec<bool>), Error> {
    check_for_heads(src, &toks)?;
    let mut edits: Vec<(Range<usize>, Vec<Tok<'a>>)> = Vec::new();
    let mut in_value = vec![false; toks.len()];
    // Each open body: its block type (None for the file) and attribute names.
    let mut stack: Vec<(Option<&'a str>, Vec<&'a str>)> = vec![(None, Vec::new())];
    let err = |t: &Tok<'_>, m: &str| Error::at(src, t.at.unwrap_or(src.len()), m);
    let mut i = 0;
    loop {
        while matches!(toks[i].kind, K::Newline | K::Comment) {
            i += 1;
        }
        match toks[i].kind {
            K::Eof => {
                if stack.len() > 1 {
                    return Err(err(&toks[i], "Unclosed configuration block"));
                }
                break;
            }
            K::CBrace if stack.len() > 1 => {
                stack.pop();
                i += 1;
            }
            K::Ident => {
                let name = borrowed(&toks[i]);
                let j = skip_inline_comments(&toks, i + 1);
                if toks[j].kind == K::Equal {
                    let start = skip_inline_comments(&toks, j + 1);
                    let mut depth = 0i64;
                    let mut k = start;
                    let mut last = None;
                    loop {
                        let t = &toks[k];
                        if t.kind == K::Eof || (depth <= 0 && (t.ends_line() || t.kind == K::CBrace)) {
                            break;
                        }
                        depth += bracket_change(t.kind);
                        if t.kind != K::Comment {
                            last = Some(k);
                        }
                        k += 1;
                    }
                    let Some(last) = last else {
                        return Err(err(&toks[k], "Missing expression"));
                    };
                    let frame = stack.last_mut().expect("the file's body is never popped");
                    if frame.1.contains(&name) {
                        return Err(err(
                            &toks[i],
                            &format!("Attribute redefined: the argument {name:?} was already set"),
                        ));
                    }
                    frame.1.push(name);
                    let value = &toks[start..=last];
                    in_value[start..=last].fill(true);
                    let is_type = name == "type" && stack.len() == 2 && stack[1].0 == Some("variable");
                    let new = if is_type { type_expr(value) } else { value_expr(value) };
                    if let Some(new) = new.filter(|_| terraform) {
                        edits.push((start..last + 1, new));
                    }
                    i = k;
                } else {
                    let mut k = j;
                    let mut labels = Vec::new();
                    let mut labels_end = i + 1;
                    loop {
                        match toks[k].kind {
                            K::Ident => {
                                labels.push(k..k + 1);
                                k += 1;
                                labels_end = k;
                            }
                            K::OQuote => {
                                let mut m = k + 1;
                                while toks[m].kind == K::QuotedLit {
                                    m += 1;
                                }
                                if toks[m].kind != K::CQuote {
                                    return Err(err(&toks[m], "Invalid block label: templates are not allowed here"));
                                }
                                labels.push(k..m + 1);
                                k = m + 1;
                                labels_end = k;
                            }
                            K::Comment if !toks[k].ends_line() => k += 1,
                            _ => break,
                        }
                    }
                    if toks[k].kind != K::OBrace {
                        return Err(err(
                            &toks[k],
                            "Invalid block definition: an equals sign or an opening brace is expected",
                        ));
                    }
                    if terraform && !labels.is_empty() {
                        let mut new = Vec::new();
                        for label in &labels {
                            if let Some(text) =
                                label_value(&toks[label.clone()]).map_err(|m| err(&toks[label.start], &m))?
                            {
                                new.push(Tok::new(K::OQuote, "\""));
                                new.push(Tok { text: Cow::Owned(escape(&text)), ..Tok::new(K::QuotedLit, "") });
                                new.push(Tok::new(K::CQuote, "\""));
                            }
                        }
                        edits.push((i + 1..labels_end, new));
                    }
                    stack.push((Some(name), Vec::new()));
                    i = k + 1;
                }
            }
            _ => return Err(err(&toks[i], "Argument or block definition required")),
        }
    }

    let mut out = Vec::with_capacity(toks.len() + 8);
    let mut boundary = Vec::with_capacity(toks.len() + 8);
    let mut edits = edits.into_iter().peekable();
    let mut toks = toks.into_iter().enumerate();
    while let Some((i, t)) = toks.next() {
        if edits.peek().is_some_and(|(r, _)| r.start == i) {
            let (r, new) = edits.next().expect("peeked");
            let n = new.len();
            out.extend(new);
            boundary.extend(std::iter::repeat_n(false, n));
            // Skip the rest of the replaced range.
            for _ in i + 1..r.end {
                toks.next();
            }
            if r.is_empty() {
                boundary.push(t.ends_line() && !in_value[i]);
                out.push(t);
            }
            continue;
        }
        boundary.push(t.ends_line() && !in_value[i]);
        out.push(t);
    }
    Ok((out, boundary))
}

/// hclsyntax reads `[for` and `{for` as the start of a `for` expression,
/// whose head is `for NAME [, NAME] in`; hcl-edit also takes `for k inx`
/// (an identifier `inx`), which Terraform rejects.
fn check_for_heads(src: &str, toks: &[Tok<'_>]) -> Result<(), Error> {
    let next = |mut i: usize| {
        i = i.min(toks.len() - 1);
        while matches!(toks[i].kind, K::Newline | K::Comment) {
            i += 1;
        }
        i
    };
    for (i, t) in toks.iter().enumerate() {
        if !matches!(t.kind, K::OBrack | K::OBrace) {
            continue;
        }
        let f = next(i + 1);
        if !(toks[f].kind == K::Ident && toks[f].text == "for") {
            continue;
        }
        let mut j = next(f + 1);
        let mut ok = toks[j].kind == K::Ident;
        j = next(j + 1);
        if ok && toks[j].kind == K::Comma {
            let k = next(j + 1);
            ok = toks[k].kind == K::Ident;
            j = next(k + 1);
        }
        if !(ok && toks[j].kind == K::Ident && toks[j].text == "in") {
            return Err(Error::at(src, toks[j].at.unwrap_or(src.len()), "Invalid 'for' expression"));
        }
    }
    Ok(())
}

fn borrowed<'a>(t: &Tok<'a>) -> &'a str {
    match t.text {
        Cow::Borrowed(s) => s,
        Cow::Owned(_) => "",
    }
}

/// The next token from `i` that is not a comment within a line.
fn skip_inline_comments(toks: &[Tok<'_>], mut i: usize) -> usize {
    while toks[i].kind == K::Comment && !toks[i].ends_line() {
        i += 1;
    }
    i
}

/// A label's value as hclwrite reads it back (`blockLabels.Current`): an
/// identifier, `""`, or one quoted literal; `None` for any other (dropped).
fn label_value(t: &[Tok<'_>]) -> Result<Option<String>, String> {
    match t {
        [one] => Ok(Some(one.text.to_string())),
        [_, _] => Ok(Some(String::new())),
        [_, lit, _] => unescape(&lit.text).map(Some),
        _ => Ok(None),
    }
}

/// hclsyntax's `ParseStringLiteralToken` for a quoted literal.
fn unescape(s: &str) -> Result<String, String> {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        match c {
            '\\' => {
                let Some((_, sel)) = chars.next() else {
                    return Err("Invalid escape sequence".into());
                };
                match sel {
                    'n' => out.push('\n'),
                    'r' => out.push('\r'),
                    't' => out.push('\t'),
                    '"' => out.push('"'),
                    '\\' => out.push('\\'),
                    'u' | 'U' => {
                        let want = if sel == 'u' { 4 } else { 8 };
                        let mut hex = String::new();
                        while hex.len() < want {
                            match chars.peek() {
                                Some(&(_, h)) if h.is_ascii_hexdigit() => {
                                    hex.push(h);
                                    chars.next();
                                }
                                _ => break,
                            }
                        }
                        let ch = (hex.len() == want)
                            .then(|| u32::from_str_radix(&hex, 16).ok().and_then(char::from_u32))
                            .flatten()
                            .ok_or_else(|| "Invalid escape sequence".to_string())?;
                        out.push(ch);
                    }
                    _ => {
                        return Err(format!("Invalid escape sequence: {sel:?} is not a valid escape sequence selector"))
                    }
                }
            }
            '$' | '%' if s[i + 1..].starts_with(c) && s[i + 2..].starts_with('{') => {
                out.push(c);
                out.push('{');
                chars.next();
                chars.next();
            }
            _ => out.push(c),
        }
    }
    Ok(out)
}

/// hclwrite's `escapeQuotedStringLit`.
fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    for (i, c) in s.char_indices() {
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '$' | '%' => {
                out.push(c);
                if s[i + 1..].starts_with('{') {
                    out.push(c);
                }
            }
            c if !is_print(c) => {
                if (c as u32) < 0x10000 {
                    out.push_str(&format!("\\u{:04x}", c as u32));
                } else {
                    out.push_str(&format!("\\U{:08x}", c as u32));
                }
            }
            c => out.push(c),
        }
    }
    out
}

/// Go's `unicode.IsPrint`, near enough: no controls, no spaces but U+0020,
/// no format characters, no private use.
fn is_print(c: char) -> bool {
    if c == ' ' {
        return true;
    }
    let u = c as u32;
    !(c.is_control()
        || c.is_whitespace()
        || matches!(u, 0xAD | 0x600..=0x605 | 0x61C | 0x6DD | 0x70F | 0x180E | 0x200B..=0x200F | 0x202A..=0x202E
            | 0x2060..=0x2064 | 0x2066..=0x206F | 0xFEFF | 0xFFF9..=0xFFFB | 0x110BD | 0x1D173..=0x1D17A
            | 0xE0001 | 0xE0020..=0xE007F | 0xE000..=0xF8FF | 0xF0000..)
        || (0xFFFE..=0xFFFF).contains(&(u & 0xFFFF)))
}

/// Terraform's `formatValueExpr`: `"${x}"` → `x`.
fn value_expr<'a>(t: &[Tok<'a>]) -> Option<Vec<Tok<'a>>> {
    let n = t.len();
    if n < 5
        || t[0].kind != K::OQuote
        || t[1].kind != K::TemplateInterp
        || t[n - 2].kind != K::TemplateSeqEnd
        || t[n - 1].kind != K::CQuote
    {
        return None;
    }
    let inside = &t[2..n - 2];
    let mut quotes = 0i64;
    for tok in inside {
        match tok.kind {
            K::OQuote => quotes += 1,
            K::CQuote => quotes -= 1,
            _ if quotes > 0 => {}
            K::TemplateInterp | K::TemplateSeqEnd | K::QuotedLit => return None,
            _ => {}
        }
    }
    let start = inside.iter().position(|t| t.kind != K::Newline).unwrap_or(inside.len());
    let end = inside.iter().rposition(|t| t.kind != K::Newline).map_or(0, |e| e + 1);
    let trimmed = if start < end { &inside[start..end] } else { &[][..] };
    let last = trimmed.len().wrapping_sub(1);
    let mut multi = false;
    let (mut lead, mut trail) = (false, false);
    for (i, tok) in trimmed.iter().enumerate() {
        if i == 0 && tok.kind == K::OParen {
            lead = true;
        } else if tok.kind == K::Newline {
            multi = true;
        } else if i == last && tok.kind == K::CParen {
            trail = true;
        }
    }
    let mut out = Vec::with_capacity(trimmed.len() + 2);
    let wrap = multi && !(lead && trail);
    if wrap {
        out.push(Tok::new(K::OParen, "("));
    }
    out.extend(trimmed.iter().cloned());
    if wrap {
        out.push(Tok::new(K::CParen, ")"));
    }
    Some(out)
}

/// Terraform's `formatTypeExpr` for a top-level variable's `type`.
fn type_expr<'a>(t: &[Tok<'a>]) -> Option<Vec<Tok<'a>>> {
    let call = |kw: Tok<'a>, arg: &'static str| {
        Some(vec![kw, Tok::new(K::OParen, "("), Tok::new(K::Ident, arg), Tok::new(K::CParen, ")")])
    };
    match t {
        [kw] if kw.kind == K::Ident && matches!(&*kw.text, "list" | "map" | "set") => call(kw.clone(), "any"),
        [o, s, c] if o.kind == K::OQuote && s.kind == K::QuotedLit && c.kind == K::CQuote => match &*s.text {
            "string" => Some(vec![Tok::new(K::Ident, "string")]),
            "list" => call(Tok::new(K::Ident, "list"), "string"),
            "map" => call(Tok::new(K::Ident, "map"), "string"),
            _ => None,
        },
        _ => None,
    }
}
