//! What the text around the cursor says, read without parsing: the user is
//! typing, so the item under the cursor often does not parse.

use analysis::Document;
use syntax::Dialect;

/// The text of the current top-level item up to `offset`, even when the
/// item does not parse (the user is typing).
pub(crate) fn item_prefix(doc: &Document, offset: usize) -> &str {
    let text = &doc.file.text;
    let offset = offset.min(text.len());
    // (Items are in order: a binary search, not a walk over a large file's 30,000.)
    let start = doc.items[..doc.items.partition_point(|i| i.range.start <= offset)].last().map_or(0, |i| i.range.start);
    // Items end at their last line; text typed after the last item still
    // belongs to it when it is inside its brackets, else starts a new one.
    text.get(start..offset).unwrap_or("")
}

/// The whole text of the top-level item at `offset`.
pub(crate) fn item_text(doc: &Document, offset: usize) -> &str {
    let text = &doc.file.text;
    let item = doc.items[..doc.items.partition_point(|i| i.range.start <= offset)].last();
    item.and_then(|i| text.get(i.range.start..i.range.end.max(offset).min(text.len()))).unwrap_or("")
}

/// Open brackets of `s` (quotes and comments are not tracked: this reads
/// half-typed text).
pub(crate) fn open_brackets(s: &str) -> Vec<(usize, char)> {
    let mut stack = Vec::new();
    let mut in_str = false;
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'\\' if in_str => i += 1,
            b'"' => in_str = !in_str,
            b'(' | b'[' | b'{' if !in_str => stack.push((i, b[i] as char)),
            b')' | b']' | b'}' if !in_str => {
                stack.pop();
            }
            _ => {}
        }
        i += 1;
    }
    stack
}

/// Where a type expression being typed starts (offset into `prefix`), when
/// the cursor is in one.
pub(crate) fn type_position(prefix: &str, dialect: Dialect) -> Option<usize> {
    if dialect.is_terraform() {
        if let Some(at) = convert_type_argument(prefix) {
            return Some(at);
        }
    }
    let head = prefix.trim_start();
    // A variable's `type`, and (Terraform 1.15) an output's.
    let typed_block = head.starts_with("variable") || dialect.is_terraform() && head.starts_with("output");
    if dialect != Dialect::Pcl && typed_block {
        // The last `type =` at a line start whose expression is still open
        // or on the cursor's line.
        let mut found = None;
        let mut at = 0;
        for line in prefix.split_inclusive('\n') {
            let t = line.trim_start();
            if let Some(rest) = t.strip_prefix("type") {
                if rest.trim_start().starts_with('=') && !rest.trim_start().starts_with("==") {
                    let eq = at + (line.len() - t.len()) + 4 + (rest.len() - rest.trim_start().len()) + 1;
                    found = Some(eq);
                }
            }
            at += line.len();
        }
        let start = found?;
        // The type expression ends at the first newline outside brackets.
        let mut depth = 0i32;
        for c in prefix[start..].chars() {
            match c {
                '(' | '[' | '{' => depth += 1,
                ')' | ']' | '}' => depth -= 1,
                '\n' if depth <= 0 => return None,
                _ => {}
            }
        }
        return Some(start);
    }
    if !dialect.is_terraform() {
        // `config NAME "…` or `output NAME "…`: inside the quoted label.
        let line_start = prefix.rfind('\n').map_or(0, |i| i + 1);
        let line = &prefix[line_start..];
        let t = line.trim_start();
        if (t.starts_with("config ") || t.starts_with("output ")) && line.matches('"').count() % 2 == 1 {
            return line.find('"').map(|q| line_start + q + 1);
        }
    }
    None
}

/// Inside the second argument of Terraform 1.15's `convert(value, type)`:
/// where that argument starts.
fn convert_type_argument(prefix: &str) -> Option<usize> {
    let b = prefix.as_bytes();
    for &(open, _) in open_brackets(prefix).iter().rev().filter(|(_, c)| *c == '(') {
        let name = prefix[..open].trim_end();
        let start = name.char_indices().rev().find(|(_, c)| !(c.is_alphanumeric() || *c == '_'));
        let word = start.map_or(name, |(i, c)| &name[i + c.len_utf8()..]);
        if word != "convert" {
            continue;
        }
        // The comma that ends the value, at the call's own depth.
        let (mut depth, mut in_str, mut i) = (0i32, false, open + 1);
        while i < b.len() {
            match b[i] {
                b'\\' if in_str => i += 1,
                b'"' => in_str = !in_str,
                b'(' | b'[' | b'{' if !in_str => depth += 1,
                b')' | b']' | b'}' if !in_str => depth -= 1,
                b',' if !in_str && depth == 0 => return Some(i + 1),
                _ => {}
            }
            i += 1;
        }
        return None;
    }
    None
}

/// The identifier (and dotted path) that ends at the cursor.
pub(crate) fn trailing_path(prefix: &str) -> &str {
    let start = prefix
        .char_indices()
        .rev()
        .take_while(|(_, c)| c.is_alphanumeric() || matches!(c, '_' | '-' | '.'))
        .last()
        .map_or(prefix.len(), |(i, _)| i);
    &prefix[start..]
}
