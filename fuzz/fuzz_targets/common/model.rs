//! An independent model of the server's text store: LSP positions over a
//! plain `String`, written from the spec (lines end at `\n`, `\r\n` or `\r`;
//! columns in UTF-8 bytes or UTF-16 units; everything clamps; a reversed
//! range is ordered). tests/it/soak.rs has a copy of the same model.

#![allow(dead_code)]

/// (start, content end) byte offsets of every line.
pub fn lines(text: &str) -> Vec<(usize, usize)> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut start = 0;
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'\n' => {
                out.push((start, i));
                start = i + 1;
            }
            b'\r' => {
                out.push((start, i));
                if b.get(i + 1) == Some(&b'\n') {
                    i += 1;
                }
                start = i + 1;
            }
            _ => {}
        }
        i += 1;
    }
    out.push((start, b.len()));
    out
}

/// The byte offset of (line, character), clamped.
pub fn offset(text: &str, line: u32, character: u32, utf8: bool) -> usize {
    let ls = lines(text);
    let Some(&(start, end)) = ls.get(line as usize) else { return text.len() };
    let want = character as usize;
    if utf8 {
        let mut at = start + want.min(end - start);
        while !text.is_char_boundary(at) {
            at -= 1;
        }
        at
    } else {
        let mut units = 0;
        let mut at = start;
        for c in text[start..end].chars() {
            if units + c.len_utf16() > want {
                break;
            }
            units += c.len_utf16();
            at += c.len_utf8();
        }
        at
    }
}

/// The (line, character) of a byte offset, clamped and moved back to a
/// character boundary.
pub fn position(text: &str, offset: usize, utf8: bool) -> (u32, u32) {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let ls = lines(text);
    // The last line starting at or before the offset.
    let line = ls.iter().rposition(|&(s, _)| s <= offset).unwrap_or(0);
    let start = ls[line].0;
    let character = if utf8 { offset - start } else { text[start..offset].encode_utf16().count() };
    (line as u32, character as u32)
}

/// Applies one change: `None` replaces everything.
pub fn apply(text: &mut String, range: Option<((u32, u32), (u32, u32))>, new: &str, utf8: bool) {
    match range {
        None => *text = new.to_string(),
        Some((s, e)) => {
            let a = offset(text, s.0, s.1, utf8);
            let b = offset(text, e.0, e.1, utf8);
            text.replace_range(a.min(b)..a.max(b), new);
        }
    }
}

/// Length of a line's content in the negotiated units.
pub fn line_len(text: &str, line: u32, utf8: bool) -> Option<u32> {
    let &(s, e) = lines(text).get(line as usize)?;
    Some(if utf8 { (e - s) as u32 } else { text[s..e].encode_utf16().count() as u32 })
}
