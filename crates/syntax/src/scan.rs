//! A byte scanner that splits a file into top-level items (blocks and
//! attributes) without parsing them.
//!
//! hcl-edit has no error recovery: one stray `{` fails the whole file. We
//! split first, so each item parses on its own and one broken block costs
//! only itself. The scanner knows just enough HCL lexing to find item ends:
//! brackets, quoted strings with `${…}`/`%{…}` templates, heredocs and every
//! comment style.
//!
//! It also finds number literals that hcl-edit cannot represent (it stores
//! numbers as f64, so a 400-digit integer fails the parse). Those are masked
//! with `0` and spaces before parsing; the exact value is read back from the
//! original text, which has the same byte offsets.

use std::borrow::Cow;
use std::ops::Range;

/// One top-level block or attribute.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Item {
    /// Byte range in the file, from the first token to the end of the item's
    /// last line (the newline excluded).
    pub range: Range<usize>,
    /// Number literals inside that hcl-edit cannot represent (file offsets).
    pub masks: Vec<Range<usize>>,
}

impl Item {
    /// The text to hand to the parser: the item with its masks applied.
    pub fn parse_text<'a>(&self, file: &'a str) -> Cow<'a, str> {
        mask(file, self.range.clone(), &self.masks)
    }
}

/// `file[range]` with every masked number replaced by `0` padded with spaces
/// (same length, so offsets stay valid).
pub fn mask<'a>(file: &'a str, range: Range<usize>, masks: &[Range<usize>]) -> Cow<'a, str> {
    let text = &file[range.clone()];
    if masks.is_empty() {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut at = range.start;
    for m in masks {
        out.push_str(&file[at..m.start]);
        out.push('0');
        out.extend(std::iter::repeat_n(' ', m.len() - 1));
        at = m.end;
    }
    out.push_str(&file[at..range.end]);
    Cow::Owned(out)
}

/// A same-length rewrite that hcl-edit can parse where Terraform's own
/// parser is more lenient: a line that starts with `?`, `:`, `&&` or `||`
/// continues the previous one (hcl-edit ends an object item at the
/// newline). Comments ending the previous line are blanked with it.
/// `None` when there is nothing to join.
pub fn join_continuation_lines(text: &str) -> Option<String> {
    let mut out = text.as_bytes().to_vec();
    let mut changed = false;
    let mut line_start = 0;
    let mut prev_line: Option<std::ops::Range<usize>> = None;
    for line in text.split_inclusive('\n') {
        let range = line_start..line_start + line.len();
        let trimmed = line.trim_start();
        let continues = (trimmed.starts_with('?') || (trimmed.starts_with(':') && !trimmed.starts_with("::")))
            || trimmed.starts_with("&&")
            || trimmed.starts_with("||");
        if continues {
            if let Some(prev) = &prev_line {
                if let Some(cut) = comment_start(&text[prev.clone()]) {
                    out[prev.start + cut..prev.end].fill(b' ');
                }
                out[prev.end - 1] = b' ';
                if prev.end >= 2 && out[prev.end - 2] == b'\r' {
                    out[prev.end - 2] = b' ';
                }
                changed = true;
            }
        }
        prev_line = Some(range.clone());
        line_start = range.end;
    }
    // Only ASCII bytes were replaced by ASCII spaces: still UTF-8.
    changed.then(|| String::from_utf8(out).ok()).flatten()
}

/// HCL1's dotted attribute names (`db.password = "x"`: hashicorp/hcl v1's
/// `scanIdentifier` takes `.` and `-` into an identifier; HCL2 does not)
/// with each dot as `_`, a same-length rewrite: `None` when no line starts
/// with such a name. Only for files read as HCL1 (Nomad's variable
/// specifications, docs/spec/analysis.md §8).
pub fn undot_hcl1_names(text: &str) -> Option<String> {
    let mut out = text.as_bytes().to_vec();
    let mut changed = false;
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        let lead = line.len() - line.trim_start().len();
        let name_len = line[lead..].find(|c: char| !(c.is_alphanumeric() || matches!(c, '_' | '-' | '.'))).unwrap_or(0);
        let name = &line[lead..lead + name_len];
        let rest = line[lead + name_len..].trim_start();
        let starts_ok = name.chars().next().is_some_and(|c| c.is_alphabetic() || c == '_');
        if starts_ok && name.contains('.') && rest.starts_with('=') && !rest.starts_with("==") {
            for (i, b) in name.bytes().enumerate() {
                if b == b'.' {
                    out[at + lead + i] = b'_';
                }
            }
            changed = true;
        }
        at += line.len();
    }
    // Only ASCII dots were replaced by ASCII underscores: still UTF-8.
    changed.then(|| String::from_utf8(out).ok()).flatten()
}

/// Where a `#` or `//` comment starts on a line, outside quotes.
fn comment_start(line: &str) -> Option<usize> {
    let b = line.as_bytes();
    let mut in_str = false;
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'\\' if in_str => i += 1,
            b'"' => in_str = !in_str,
            b'#' if !in_str => return Some(i),
            b'/' if !in_str && b.get(i + 1) == Some(&b'/') => return Some(i),
            _ => {}
        }
        i += 1;
    }
    None
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Frame {
    /// `(`, `[` or `{`.
    Bracket,
    /// `${` or `%{` inside a string or heredoc; its `}` returns there.
    Interp,
    Str,
    /// A heredoc, by its delimiter.
    Heredoc(Range<usize>),
}

/// Block types that stand at the top level of Terraform, Packer and PCL
/// files and never (or hardly ever) nested: where an unbalanced bracket's
/// item is cut. `data` also nests in a `check`, `source` in a `build`.
const TOP_LEVEL_BLOCKS: &[&str] = &[
    "resource",
    "data",
    "variable",
    "output",
    "locals",
    "module",
    "provider",
    "terraform",
    "moved",
    "import",
    "check",
    "removed",
    "ephemeral",
    "run",
    "mock_provider",
    "override_resource",
    "override_data",
    "override_module",
    "packer",
    "source",
    "build",
    "local",
    "config",
    "component",
    "package",
];

/// Integer literals longer than this are beyond f64's range or precision
/// games; anything with more digits is masked.
const MAX_PLAIN_DIGITS: usize = 300;

/// Splits a file into its top-level items.
pub fn split(text: &str) -> Vec<Item> {
    // A byte order mark is not part of the first item.
    let i = if text.starts_with('\u{feff}') { 3 } else { 0 };
    split_from(text, i, |_| false)
}

/// The items of `text` from byte `from`, which must be where a [`split`]
/// of the whole text starts an item (or the start of the text). Scanning
/// stops before an item that would start at a byte where `stop` says yes:
/// from an item start on, the scan depends only on the text that follows,
/// so an editor re-scans from the item before an edit until it meets an
/// item it already has.
pub fn split_from(text: &str, from: usize, stop: impl FnMut(usize) -> bool) -> Vec<Item> {
    let mut s = Scanner {
        b: text.as_bytes(),
        text,
        i: from.min(text.len()),
        stack: Vec::new(),
        items: Vec::new(),
        start: None,
        masks: Vec::new(),
        stop: Box::new(stop),
        lines: None,
        indented: false,
    };
    s.run();
    s.items
}

/// The start of every line of `text` that begins outside strings and
/// heredocs, with how many brackets (or template interpolations) are open
/// there: the shape a tolerant reader of a broken item needs.
pub fn code_lines(text: &str) -> Vec<(usize, usize)> {
    let mut s = Scanner {
        b: text.as_bytes(),
        text,
        i: 0,
        stack: Vec::new(),
        items: Vec::new(),
        start: None,
        masks: Vec::new(),
        stop: Box::new(|_| false),
        lines: Some(Vec::new()),
        indented: false,
    };
    s.run();
    s.lines.unwrap_or_default()
}

/// Number masks for a standalone expression (the calculator's input).
pub fn expression_masks(text: &str) -> Vec<Range<usize>> {
    split(text).into_iter().flat_map(|i| i.masks).collect()
}

struct Scanner<'a> {
    b: &'a [u8],
    text: &'a str,
    i: usize,
    stack: Vec<Frame>,
    items: Vec<Item>,
    /// Start of the item being scanned.
    start: Option<usize>,
    masks: Vec<Range<usize>>,
    stop: Box<dyn FnMut(usize) -> bool + 'a>,
    /// With [`code_lines`]: each line start in code and its depth.
    lines: Option<Vec<(usize, usize)>>,
    /// Whether a line of the current item's body starts indented (or the
    /// item is an attribute): only then may a block header cut it.
    indented: bool,
}

fn is_ident_byte(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c == b'-' || c >= 0x80
}

impl Scanner<'_> {
    fn run(&mut self) {
        while self.i < self.b.len() {
            let at_line_start = self.i == 0 || self.b[self.i - 1] == b'\n';
            match self.stack.last() {
                Some(Frame::Str) => self.string(),
                Some(Frame::Heredoc(delim)) => {
                    let delim = delim.clone();
                    self.heredoc(delim, at_line_start);
                }
                _ => {
                    if let (true, Some(lines)) = (at_line_start, &mut self.lines) {
                        lines.push((self.i, self.stack.len()));
                    }
                    if at_line_start && !self.stack.is_empty() && matches!(self.b[self.i], b' ' | b'\t') {
                        self.indented = true;
                    }
                    if at_line_start && !self.stack.is_empty() && self.indented && self.looks_like_block_header() {
                        // Resync: an unbalanced bracket must not swallow the
                        // rest of the file. A top-level block header at
                        // column 0 inside brackets ends the broken item here,
                        // if the item indents its body: unformatted code
                        // (nothing indented) may nest blocks at column 0.
                        self.finish(self.i);
                    }
                    self.code();
                }
            }
        }
        self.finish(self.b.len());
    }

    fn finish(&mut self, end: usize) {
        self.stack.clear();
        if let Some(start) = self.start.take() {
            let mut end = end.max(start);
            while end > start && matches!(self.b[end - 1], b' ' | b'\t' | b'\r' | b'\n') {
                end -= 1;
            }
            self.items.push(Item { range: start..end, masks: std::mem::take(&mut self.masks) });
        }
    }

    /// `ident ( ident | "label" )* {` at the start of a line, then the end
    /// of the line, where `ident` is a block type that only stands at the
    /// top level. Valid but unformatted code has nested blocks at column 0
    /// too (`lifecycle {`, `ingress {`): cutting there would break it.
    fn looks_like_block_header(&self) -> bool {
        let line_end = self.b[self.i..].iter().position(|&c| c == b'\n').map_or(self.b.len(), |p| self.i + p);
        let line = self.text[self.i..line_end].trim_end();
        if !line.ends_with('{')
            || !TOP_LEVEL_BLOCKS.iter().any(|k| {
                line.starts_with(k)
                    && !line[k.len()..].starts_with(|c: char| c.is_alphanumeric() || c == '_' || c == '-')
            })
        {
            return false;
        }
        let head = line[..line.len() - 1].trim_end();
        let mut rest = head;
        while !rest.is_empty() {
            rest = rest.trim_start();
            if let Some(r) = rest.strip_prefix('"') {
                match r.find('"') {
                    Some(q) if !r[..q].contains(['$', '%', '\\']) => rest = &r[q + 1..],
                    _ => return false,
                }
            } else {
                let n = rest.bytes().take_while(|&c| is_ident_byte(c)).count();
                if n == 0 {
                    return false;
                }
                rest = &rest[n..];
            }
        }
        true
    }

    fn string(&mut self) {
        let b = self.b;
        match b[self.i] {
            b'\\' => self.i += 2,
            b'"' => {
                self.stack.pop();
                self.i += 1;
            }
            b'$' | b'%' if b.get(self.i + 1) == Some(&b[self.i]) && b.get(self.i + 2) == Some(&b'{') => self.i += 3,
            b'$' | b'%' if b.get(self.i + 1) == Some(&b'{') => {
                self.stack.push(Frame::Interp);
                self.i += 2;
            }
            // Quoted strings end at the line: an unterminated one is an error
            // of this item, not a reason to swallow the next lines.
            b'\n' => {
                self.stack.pop();
            }
            _ => self.i += 1,
        }
        self.i = self.i.min(b.len());
    }

    fn heredoc(&mut self, delim: Range<usize>, at_line_start: bool) {
        let b = self.b;
        if at_line_start {
            let line_end = b[self.i..].iter().position(|&c| c == b'\n').map_or(b.len(), |p| self.i + p);
            if self.text[self.i..line_end].trim() == &self.text[delim] {
                self.stack.pop();
                self.i = line_end;
                return;
            }
        }
        match b[self.i] {
            b'$' | b'%' if b.get(self.i + 1) == Some(&b[self.i]) && b.get(self.i + 2) == Some(&b'{') => self.i += 3,
            b'$' | b'%' if b.get(self.i + 1) == Some(&b'{') => {
                self.stack.push(Frame::Interp);
                self.i += 2;
            }
            _ => self.i += 1,
        }
        self.i = self.i.min(b.len());
    }

    fn code(&mut self) {
        let b = self.b;
        let c = b[self.i];
        if self.start.is_none() && !matches!(c, b' ' | b'\t' | b'\r' | b'\n' | b'#' | b'/') && !self.begin() {
            return;
        }
        match c {
            b'#' => self.skip_line(),
            b'/' if b.get(self.i + 1) == Some(&b'/') => self.skip_line(),
            b'/' if b.get(self.i + 1) == Some(&b'*') => {
                self.i = match self.text[self.i + 2..].find("*/") {
                    Some(p) => self.i + 2 + p + 2,
                    None => b.len(),
                };
            }
            b'/' => {
                if self.start.is_none() && !self.begin() {
                    return;
                }
                self.i += 1;
            }
            b'"' => {
                self.stack.push(Frame::Str);
                self.i += 1;
            }
            b'<' if b.get(self.i + 1) == Some(&b'<') => self.heredoc_start(),
            b'(' | b'[' | b'{' => {
                self.stack.push(Frame::Bracket);
                self.i += 1;
            }
            b')' | b']' | b'}' => {
                // A closer pops its frame; `}` of a template returns to the string.
                if matches!(self.stack.last(), Some(Frame::Bracket | Frame::Interp)) {
                    self.stack.pop();
                }
                self.i += 1;
            }
            b'\n' => {
                if self.stack.is_empty() && self.start.is_some() {
                    self.finish(self.i);
                }
                self.i += 1;
            }
            b'0'..=b'9' if self.i == 0 || !(is_ident_byte(b[self.i - 1]) || b[self.i - 1] == b'.') => self.number(),
            _ if is_ident_byte(c) => {
                // Skip the whole word so digits inside names are not numbers.
                while self.i < b.len() && is_ident_byte(b[self.i]) {
                    self.i += 1;
                }
            }
            _ => self.i += 1,
        }
    }

    /// Starts an item here, or ends the scan where the caller said to stop.
    fn begin(&mut self) -> bool {
        if (self.stop)(self.i) {
            self.i = self.b.len();
            return false;
        }
        self.start = Some(self.i);
        // Block headers never stand inside an attribute's expression, so an
        // attribute item is cut at one whatever its indentation, and so is
        // an item that starts with neither (a stray `{` typed between blocks).
        let rest = &self.b[self.i..];
        let word = rest.iter().take_while(|&&c| is_ident_byte(c)).count();
        let after = rest[word..].iter().position(|&c| c != b' ' && c != b'\t').map_or(rest.len(), |p| word + p);
        self.indented = word == 0 || (rest.get(after) == Some(&b'=') && rest.get(after + 1) != Some(&b'='));
        true
    }

    fn skip_line(&mut self) {
        self.i = self.b[self.i..].iter().position(|&c| c == b'\n').map_or(self.b.len(), |p| self.i + p);
    }

    fn heredoc_start(&mut self) {
        let b = self.b;
        let mut j = self.i + 2;
        if b.get(j) == Some(&b'-') {
            j += 1;
        }
        let name_start = j;
        while j < b.len() && is_ident_byte(b[j]) {
            j += 1;
        }
        let mut k = j;
        while k < b.len() && matches!(b[k], b' ' | b'\t' | b'\r') {
            k += 1;
        }
        if j > name_start && (k == b.len() || b[k] == b'\n') {
            self.stack.push(Frame::Heredoc(name_start..j));
            self.i = (k + 1).min(b.len());
        } else {
            self.i += 2;
        }
    }

    fn number(&mut self) {
        let b = self.b;
        let start = self.i;
        let digits = |i: &mut usize| {
            while *i < b.len() && b[*i].is_ascii_digit() {
                *i += 1;
            }
        };
        digits(&mut self.i);
        let int_digits = self.i - start;
        let mut exponent_big = false;
        if b.get(self.i) == Some(&b'.') && b.get(self.i + 1).is_some_and(u8::is_ascii_digit) {
            self.i += 1;
            digits(&mut self.i);
        }
        if matches!(b.get(self.i), Some(b'e' | b'E')) {
            let mut j = self.i + 1;
            if matches!(b.get(j), Some(b'+' | b'-')) {
                j += 1;
            }
            let exp_start = j;
            digits(&mut j);
            if j > exp_start {
                exponent_big = self.text[exp_start..j].parse::<u32>().map_or(true, |e| e > 300);
                self.i = j;
            }
        }
        if int_digits > MAX_PLAIN_DIGITS || exponent_big {
            self.masks.push(start..self.i);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// HCL1 names with dots (a Nomad variable's items) become HCL2 names
    /// of the same length; values, comparisons and plain names are left.
    #[test]
    fn hcl1_dotted_names_are_undotted_in_place() {
        let src = "items {\n  db.password = \"a.b\"\n  x = y.z\n  a.b == c\n}\n";
        let out = undot_hcl1_names(src).expect("a dotted name");
        assert_eq!(out, "items {\n  db_password = \"a.b\"\n  x = y.z\n  a.b == c\n}\n");
        assert_eq!(undot_hcl1_names("items {\n  key = \"v\"\n}\n"), None);
    }

    fn texts(src: &str) -> Vec<&str> {
        split(src).into_iter().map(|i| &src[i.range]).collect()
    }

    #[test]
    fn blocks_and_attributes() {
        let src =
            "# head\nvariable \"a\" {\n  type = string # }\n}\n\nb = \"}\" // x\nc = <<EOF\n}\n{\nEOF\nd = [\n1,\n]\n";
        assert_eq!(
            texts(src),
            vec!["variable \"a\" {\n  type = string # }\n}", "b = \"}\" // x", "c = <<EOF\n}\n{\nEOF", "d = [\n1,\n]"]
        );
    }

    #[test]
    fn templates_nest() {
        let src = "a = \"${ {x = \"}\"}.x }\"\nb = 1\n";
        assert_eq!(texts(src), vec!["a = \"${ {x = \"}\"}.x }\"", "b = 1"]);
    }

    #[test]
    fn unbalanced_brace_costs_only_its_block() {
        let src = "locals {\n  a = {\n}\n\nvariable \"x\" {\n  type = string\n}\n";
        assert_eq!(texts(src), vec!["locals {\n  a = {\n}", "variable \"x\" {\n  type = string\n}"]);
    }

    #[test]
    fn nested_blocks_at_column_zero_stay_in_their_item() {
        let src = "resource \"a\" \"b\" {\nlifecycle {\nignore_changes = [x]\n}\n}\nlocals {\na = 1\n}\n";
        assert_eq!(texts(src).len(), 2);
        // An attribute's unbalanced bracket is cut at a block header anyway.
        let src = "name = concat(\n\noutput \"u\" {\nvalue = 1\n}\n";
        assert_eq!(texts(src), vec!["name = concat(", "output \"u\" {\nvalue = 1\n}"]);
        // A stray `{` typed between blocks costs only itself.
        let src = "{\nresource \"a\" \"b\" {\n  x = 1\n}\n";
        assert_eq!(texts(src), vec!["{", "resource \"a\" \"b\" {\n  x = 1\n}"]);
        // Even a block type that is top-level elsewhere, in an unindented item.
        let src = "check \"c\" {\ndata \"http\" \"h\" {\nurl = \"u\"\n}\n}\n";
        assert_eq!(texts(src).len(), 1);
        // A top-level block type still cuts an unbalanced item.
        let src = "resource \"a\" \"b\" {\n  tags = {\n}\nvariable \"x\" {\n}\n";
        assert_eq!(texts(src), vec!["resource \"a\" \"b\" {\n  tags = {\n}", "variable \"x\" {\n}"]);
    }

    #[test]
    fn unterminated_string_ends_at_line() {
        let src = "a = \"oops\nb = 2\n";
        assert_eq!(texts(src), vec!["a = \"oops", "b = 2"]);
    }

    #[test]
    fn huge_numbers_are_masked() {
        let digits = "9".repeat(400);
        let src = format!("a = {digits}\nb = 1e999\nc = x9{digits}\n");
        let items = split(&src);
        assert_eq!(items[0].masks, vec![4..404]);
        assert_eq!(items[0].parse_text(&src).trim_end(), "a = 0");
        assert_eq!(items[1].masks.len(), 1);
        assert!(items[2].masks.is_empty());
    }
}
