//! Terraform's JSON syntax (`*.tf.json`, `*.tofu.json`), read by lowering
//! it to native HCL text that the rest of the pipeline already analyses
//! (docs/spec/analysis.md, "JSON syntax").
//!
//! The judges are hashicorp/terraform's website/docs/language/syntax/json.mdx
//! and hashicorp/hcl's json/spec.md: a file is one object whose properties
//! are block types; labels are nested object keys; inside a body a property
//! is an attribute or a nested block (decided by the schema); strings in
//! attribute values are templates (`"${var.x}"` is an expression), except
//! where Terraform says otherwise (`type` is a type expression, `default` a
//! literal, `depends_on`/`provider`/`ignore_changes`/`providers` hold
//! references).
//!
//! The lowered text is kept at the byte offsets of the JSON where it can
//! be: every token is written at its JSON offset when the text written so
//! far is not past it, and every newline of the JSON is kept. Block
//! headers (`variable "a" {` where the JSON has `"a": {`) push the text a
//! few bytes ahead; the spaces of the next lines' indentation bring it back.
//! So diagnostics land on the JSON's own lines, and mostly on its columns,
//! without a second offset map through every layer.
//!
//! Why no JSON crate: serde_json keeps no spans, and the reader needs only
//! the spans of keys and values (~150 lines below).

use std::ops::Range;

mod map;
mod strings;

pub use map::SourceMap;
use strings::As;

/// A JSON value and where it is.
#[derive(Debug)]
struct Node {
    span: Range<usize>,
    val: Val,
}

#[derive(Debug)]
enum Val {
    Object(Vec<Prop>),
    Array(Vec<Node>),
    /// A string (its content is the span's).
    Str,
    /// A number, `true`, `false` or `null`.
    Other,
}

#[derive(Debug)]
struct Prop {
    key: String,
    key_span: Range<usize>,
    colon: usize,
    value: Node,
}

/// A JSON syntax error: where and what.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JsonError {
    pub offset: usize,
    pub message: String,
}

/// Deeper nesting is refused rather than risking the stack. It is not the
/// limit a user meets: the lowered text is parsed as any other, within
/// [`crate::deep::MAX_NESTING`] levels, and JSON takes more levels than
/// the native syntax for the same thing (the file's object, a block
/// type's, each label's, a block list's array). At 256 here, a value
/// nested as deep as a native file may was refused (issue 42: Terraform,
/// whose JSON parser has no limit, reads 300). The reader recurses on the
/// caller's stack, which may be a default 2 MiB one (a test's thread).
const MAX_DEPTH: usize = 2 * crate::deep::MAX_NESTING;

struct Reader<'a> {
    src: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn err<T>(&self, message: impl Into<String>) -> Result<T, JsonError> {
        Err(JsonError { offset: self.at.min(self.src.len()), message: message.into() })
    }

    fn ws(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.src.get(self.at) {
            self.at += 1;
        }
    }

    fn value(&mut self, depth: usize) -> Result<Node, JsonError> {
        if depth > MAX_DEPTH {
            return self.err("JSON nested too deeply");
        }
        self.ws();
        let start = self.at;
        let val = match self.src.get(self.at) {
            Some(b'{') => Val::Object(self.elements(b'}', "object", |r| {
                r.ws();
                let key_start = r.at;
                if r.src.get(r.at) != Some(&b'"') {
                    return r.err("expected a string (an object key) in JSON");
                }
                let key = r.string()?;
                let key_span = key_start..r.at;
                r.ws();
                if r.src.get(r.at) != Some(&b':') {
                    return r.err("expected `:` after an object key in JSON");
                }
                let colon = r.at;
                r.at += 1;
                let value = r.value(depth + 1)?;
                Ok(Prop { key, key_span, colon, value })
            })?),
            Some(b'[') => Val::Array(self.elements(b']', "array", |r| r.value(depth + 1))?),
            Some(b'"') => {
                self.string()?;
                Val::Str
            }
            Some(b'-' | b'0'..=b'9') => {
                let digits = |r: &mut Self| {
                    let from = r.at;
                    while r.src.get(r.at).is_some_and(u8::is_ascii_digit) {
                        r.at += 1;
                    }
                    r.at > from
                };
                if self.src.get(self.at) == Some(&b'-') {
                    self.at += 1;
                }
                if !digits(self) {
                    return self.err("expected digits in a JSON number");
                }
                if self.src.get(self.at) == Some(&b'.') {
                    self.at += 1;
                    if !digits(self) {
                        return self.err("expected digits after `.` in a JSON number");
                    }
                }
                if let Some(b'e' | b'E') = self.src.get(self.at) {
                    self.at += 1;
                    if let Some(b'+' | b'-') = self.src.get(self.at) {
                        self.at += 1;
                    }
                    if !digits(self) {
                        return self.err("expected digits in a JSON number's exponent");
                    }
                }
                Val::Other
            }
            _ => {
                let word =
                    ["true", "false", "null"].into_iter().find(|w| self.src[self.at..].starts_with(w.as_bytes()));
                match word {
                    Some(w) => {
                        self.at += w.len();
                        Val::Other
                    }
                    None if self.at >= self.src.len() => return self.err("unexpected end of JSON"),
                    None => return self.err("expected a JSON value"),
                }
            }
        };
        Ok(Node { span: start..self.at, val })
    }

    /// The elements of an object or array whose opening bracket is at
    /// `self.at`, separated by commas, up to `close`.
    fn elements<T>(
        &mut self,
        close: u8,
        what: &str,
        mut element: impl FnMut(&mut Self) -> Result<T, JsonError>,
    ) -> Result<Vec<T>, JsonError> {
        self.at += 1;
        let mut out = Vec::new();
        self.ws();
        if self.src.get(self.at) == Some(&close) {
            self.at += 1;
            return Ok(out);
        }
        loop {
            out.push(element(self)?);
            self.ws();
            match self.src.get(self.at) {
                Some(b',') => self.at += 1,
                Some(&b) if b == close => {
                    self.at += 1;
                    return Ok(out);
                }
                _ => return self.err(format!("expected `,` or `{}` in a JSON {what}", close as char)),
            }
        }
    }

    /// A string at `self.at` (its opening quote), decoded.
    fn string(&mut self) -> Result<String, JsonError> {
        self.at += 1;
        let mut out = Vec::new();
        loop {
            match self.src.get(self.at) {
                None => return self.err("unterminated JSON string"),
                Some(b'"') => {
                    self.at += 1;
                    return Ok(String::from_utf8_lossy(&out).into_owned());
                }
                Some(b'\\') => {
                    let c = match self.src.get(self.at + 1) {
                        Some(b'"') => '"',
                        Some(b'\\') => '\\',
                        Some(b'/') => '/',
                        Some(b'b') => '\u{8}',
                        Some(b'f') => '\u{c}',
                        Some(b'n') => '\n',
                        Some(b'r') => '\r',
                        Some(b't') => '\t',
                        Some(b'u') => {
                            let hex = self.src.get(self.at + 2..self.at + 6).and_then(|h| std::str::from_utf8(h).ok());
                            let code = hex.and_then(|h| u32::from_str_radix(h, 16).ok());
                            let Some(code) = code else { return self.err("invalid `\\u` escape in a JSON string") };
                            self.at += 4;
                            char::from_u32(code).unwrap_or('\u{fffd}')
                        }
                        _ => return self.err("invalid escape in a JSON string"),
                    };
                    self.at += 2;
                    let mut buf = [0; 4];
                    out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
                }
                Some(b) if *b < 0x20 => return self.err("control character in a JSON string"),
                Some(b) => {
                    out.push(*b);
                    self.at += 1;
                }
            }
        }
    }
}

/// Whether `path` names a file of Terraform's JSON syntax.
pub fn is_json_path(path: &std::path::Path) -> bool {
    path.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.ends_with(".tf.json") || n.ends_with(".tofu.json"))
}

/// The text of `path` as native syntax: lowered if it is a JSON file
/// (nothing if the JSON is invalid), else `text` itself. For readers of raw
/// text (the workspace symbol index) that do not go through a document.
pub fn native<'a>(path: &std::path::Path, text: &'a str) -> std::borrow::Cow<'a, str> {
    if is_json_path(path) {
        std::borrow::Cow::Owned(lower(text).unwrap_or_default())
    } else {
        std::borrow::Cow::Borrowed(text)
    }
}

/// The native-syntax text of a Terraform JSON file, aligned with it as the
/// module comment says; the JSON's syntax error otherwise.
pub fn lower(src: &str) -> Result<String, JsonError> {
    lower_mapped(src).map(|l| l.text)
}

/// A lowering and where its pieces came from.
#[derive(Debug, Clone)]
pub struct Lowered {
    pub text: String,
    pub map: SourceMap,
}

/// [`lower`], with the map from the lowering's offsets to the JSON's: the
/// alignment is only near (exact nowhere in a one-line file), so whatever
/// shows a position to a user goes through the map.
pub fn lower_mapped(src: &str) -> Result<Lowered, JsonError> {
    let mut reader = Reader { src: src.as_bytes(), at: 0 };
    if src.starts_with('\u{feff}') {
        reader.at = 3;
    }
    let root = reader.value(0)?;
    reader.ws();
    if reader.at < src.len() {
        return reader.err("unexpected text after the JSON value");
    }
    let Val::Object(props) = &root.val else {
        return Err(JsonError {
            offset: root.span.start,
            message: "the root of a Terraform JSON file must be an object".into(),
        });
    };
    let mut w = Writer { src, out: String::with_capacity(src.len() + 64), pos: 0, map: SourceMap::default() };
    for p in props {
        let labels = match p.key.as_str() {
            "variable" | "output" | "module" | "provider" => 1,
            "resource" | "data" => 2,
            "locals" | "terraform" => 0,
            // `moved`, `import`, `check`, `removed` and comments (`//`)
            // are left out: they declare no name the analysis looks up.
            _ => continue,
        };
        w.blocks(&p.key, p.key_span.start + 1, &mut Vec::new(), p, labels);
    }
    w.pad(src.len());
    w.map.finish();
    Ok(Lowered { text: w.out, map: w.map })
}

/// Writes the lowered text; `pos` is how far the JSON has been consumed.
struct Writer<'a> {
    src: &'a str,
    out: String,
    pos: usize,
    map: SourceMap,
}

/// How a string in an attribute value is read (json.mdx: "Expression Mapping").
#[derive(Clone, Copy, PartialEq)]
enum Mode {
    /// A template: the JSON verbatim is the same HCL.
    Template,
    /// A type expression or a reference: the string's content unquoted.
    Bare,
    /// An array of references (`depends_on`, `ignore_changes`).
    BareList,
    /// An object whose values are references (a module's `providers`).
    BareValues,
    /// A value read without a context (a variable's `default`): its strings
    /// are text, never templates.
    Literal,
}

impl Writer<'_> {
    /// Consumes the JSON up to `to`: spaces where the text written is not
    /// past it, and every newline.
    fn pad(&mut self, to: usize) {
        let bytes = self.src.as_bytes();
        let end = to.min(bytes.len());
        for (j, &b) in bytes.iter().enumerate().take(end).skip(self.pos) {
            if b == b'\n' {
                self.out.push('\n');
            } else if self.out.len() <= j {
                self.out.push(' ');
            }
        }
        self.pos = self.pos.max(to);
    }

    /// `s` written now, standing for `len` JSON bytes at `src` (see
    /// [`SourceMap`]).
    fn emit(&mut self, s: &str, src: usize, len: usize) {
        self.map.push(self.out.len(), src, len);
        self.out.push_str(s);
    }

    /// `s` written at the JSON's offset `at` (the same bytes as the JSON's
    /// there, such as a bracket, or a piece standing for them).
    fn put(&mut self, at: usize, s: &str) {
        self.pad(at);
        let same = self.src.get(at..).is_some_and(|t| t.starts_with(s));
        self.emit(s, at, if same { s.len() } else { 0 });
    }

    /// The name `word` written for the JSON key at `span` (its quotes
    /// included), mapped onto the key's characters when they are the same.
    fn name(&mut self, span: &Range<usize>, word: &str) {
        self.pad(span.start);
        let same = self.src.get(span.start + 1..span.end.saturating_sub(1)) == Some(word);
        self.emit(word, span.start + 1, if same { word.len() } else { 0 });
    }

    /// The JSON's own text of `r`, verbatim (a number, `true`, `null`…).
    fn copy(&mut self, r: Range<usize>) {
        self.pad(r.start);
        let src = self.src;
        self.emit(src.get(r.clone()).unwrap_or(""), r.start, r.len());
        self.pos = r.end;
    }

    /// The JSON string literal at `r` written again `how` (decoded:
    /// `strings`).
    fn string(&mut self, r: Range<usize>, how: As) {
        // Unquoted, the content starts a byte later; shorter than the JSON
        // (decoded escapes), it is padded to the JSON's end again: the
        // text written is never behind the JSON.
        let first = if how == As::Bare { r.start + 1 } else { r.start };
        self.pad(first);
        self.string_here(r.clone(), how);
        self.pad(r.end);
    }

    /// [`Writer::string`] where the text written is now (a label in a
    /// block header, ahead of the JSON).
    fn string_here(&mut self, r: Range<usize>, how: As) {
        let src = self.src;
        strings::write(src.get(r.clone()).unwrap_or("\"\""), r.start, how, |s, at, len| self.emit(s, at, len));
    }

    /// A newline unless the current line holds nothing yet: HCL ends each
    /// attribute and block header with one.
    fn line(&mut self) {
        let start = self.out.rfind('\n').map_or(0, |i| i + 1);
        if !self.out[start..].trim().is_empty() {
            self.out.push('\n');
        }
    }

    /// The blocks of type `kind` under `p`, `left` labels still to read.
    fn blocks(&mut self, kind: &str, kind_at: usize, labels: &mut Vec<Range<usize>>, p: &Prop, left: usize) {
        if left == 0 {
            let at = labels.last().map_or(p.key_span.start, |l| l.start);
            for body in bodies(&p.value) {
                self.pad(at);
                self.line();
                // Each label stands for its own key, so a hover or a diagnostic
                // on a declaration's name lands on the JSON name; the block
                // type's name for the last label (a diagnostic on the header
                // is then on the declaration's name, not on the `"resource"`
                // key lines above), or for its key in a block without labels.
                match labels.last() {
                    Some(l) => self.emit(kind, l.start, 0),
                    None => self.emit(kind, kind_at, kind.len()),
                }
                for l in labels.iter() {
                    self.out.push(' ');
                    self.string_here(l.clone(), As::Literal);
                }
                self.body(kind, body);
            }
            return;
        }
        let Val::Object(props) = &p.value.val else { return };
        for q in props {
            if q.key == "//" {
                continue;
            }
            labels.push(q.key_span.clone());
            self.blocks(kind, kind_at, labels, q, left - 1);
            labels.pop();
        }
    }

    /// A block body of type `kind`: its `{`, properties and `}`.
    fn body(&mut self, kind: &str, node: &Node) {
        let Val::Object(props) = &node.val else { return };
        // The header and `{` must share a line: newlines between them in
        // the JSON (`"aws": [` then `{` below) follow the `{` instead.
        let gap = self.src.get(self.pos.min(node.span.start)..node.span.start).unwrap_or("");
        let newlines = gap.matches('\n').count();
        self.pos = self.pos.max(node.span.start + 1);
        self.out.push(' ');
        self.emit("{", node.span.start, 1);
        self.out.extend(std::iter::repeat_n('\n', newlines));
        for p in props {
            if p.key == "//" || !is_identifier(&p.key) {
                continue;
            }
            if let Some(nested) = nested_block(kind, &p.key) {
                for b in bodies(&p.value) {
                    self.pad(p.key_span.start);
                    self.line();
                    self.name(&p.key_span, nested);
                    self.body(nested, b);
                }
                continue;
            }
            let mode = mode(kind, &p.key);
            let is_object = |n: &Node| matches!(n.val, Val::Object(_));
            let holds_objects = match &p.value.val {
                Val::Object(_) => true,
                Val::Array(items) => items.first().is_some_and(is_object),
                _ => false,
            };
            // In a resource or data source, an object may be a nested block
            // the schema names (json.mdx: "the schema decides"): it is written
            // as a value, which the analysis reads as the block when the
            // schema has one of that name (`resources.rs`, `Infer::json`).
            // Provisioners (labelled) and `dynamic` blocks are not schema
            // blocks, and a provider's configuration is not checked so: left
            // unchecked rather than misread.
            let unread = match kind {
                "resource" | "data" => matches!(p.key.as_str(), "provisioner" | "dynamic"),
                "provider" => true,
                _ => false,
            };
            if holds_objects && mode == Mode::Template && unread {
                continue;
            }
            if matches!(kind, "terraform") && p.key != "required_version" {
                continue;
            }
            self.pad(p.key_span.start);
            self.line();
            self.name(&p.key_span, &p.key);
            let newlines = self.held(p.key_span.end, &p.value);
            if newlines == 0 {
                self.put(p.colon, "=");
            }
            self.value(&p.value, mode);
            self.out.extend(std::iter::repeat_n('\n', newlines));
        }
        let close = node.span.end.saturating_sub(1);
        self.pad(close);
        self.line();
        self.put(close, "}");
        self.pos = node.span.end;
    }

    /// An attribute's value. Arrays and objects are written element by
    /// element (JSON's own text would do, but a newline between an
    /// object's key and value does not parse in HCL).
    fn value(&mut self, v: &Node, mode: Mode) {
        match (mode, &v.val) {
            (Mode::Bare, Val::Str) => self.string(v.span.clone(), As::Bare),
            (Mode::Literal, Val::Str) => self.string(v.span.clone(), As::Text),
            (_, Val::Str) => self.string(v.span.clone(), As::Template),
            (Mode::BareList | Mode::Template | Mode::Literal, Val::Array(items)) => {
                let inner = match mode {
                    Mode::BareList => Mode::Bare,
                    Mode::Literal => Mode::Literal,
                    _ => Mode::Template,
                };
                self.put(v.span.start, "[");
                self.pos = v.span.start + 1;
                for (i, item) in items.iter().enumerate() {
                    self.value(item, inner);
                    self.comma(i + 1 < items.len());
                }
                self.put(v.span.end - 1, "]");
                self.pos = v.span.end;
            }
            (Mode::BareValues | Mode::Template | Mode::Literal, Val::Object(props)) => {
                let inner = match mode {
                    Mode::BareValues => Mode::Bare,
                    Mode::Literal => Mode::Literal,
                    _ => Mode::Template,
                };
                self.put(v.span.start, "{");
                self.pos = v.span.start + 1;
                for (i, p) in props.iter().enumerate() {
                    self.string(p.key_span.clone(), if mode == Mode::Literal { As::Text } else { As::Template });
                    let newlines = self.held(p.key_span.end, &p.value);
                    if newlines == 0 {
                        self.put(p.colon, "=");
                    }
                    self.value(&p.value, inner);
                    self.comma(i + 1 < props.len());
                    self.out.extend(std::iter::repeat_n('\n', newlines));
                }
                self.put(v.span.end - 1, "}");
                self.pos = v.span.end;
            }
            _ => self.copy(v.span.clone()),
        }
    }

    /// A separator right after an element that has a next one (where the
    /// JSON's comma is, or before it: HCL takes no newline before a comma).
    fn comma(&mut self, more: bool) {
        if more {
            self.out.push(',');
        }
    }

    /// The newlines between a name ending at `from` and its `value`: when
    /// there are any, `=` is written now and the newlines are the caller's
    /// to write after the value (a name, `=` and value share a line in HCL).
    fn held(&mut self, from: usize, value: &Node) -> usize {
        let gap = self.src.get(from..value.span.start).unwrap_or("");
        let newlines = gap.matches('\n').count();
        if newlines > 0 {
            self.out.push_str(" =");
            self.pos = value.span.start;
        }
        newlines
    }
}

/// The bodies a block type's value holds: an object, or an array of
/// objects for repeated blocks (json.mdx: "Nested Block Mapping").
fn bodies(v: &Node) -> Vec<&Node> {
    match &v.val {
        Val::Object(_) => vec![v],
        Val::Array(items) => items.iter().filter(|n| matches!(n.val, Val::Object(_))).collect(),
        _ => Vec::new(),
    }
}

/// The nested block a property of a `kind` body is, when Terraform's own
/// schema makes it one (no provider schema is consulted).
fn nested_block(kind: &str, key: &str) -> Option<&'static str> {
    Some(match (kind, key) {
        ("variable", "validation") => "validation",
        ("resource" | "data", "lifecycle") => "lifecycle",
        ("output" | "lifecycle" | "data", "precondition") => "precondition",
        ("output" | "lifecycle" | "data", "postcondition") => "postcondition",
        ("resource", "connection") => "connection",
        ("terraform", "required_providers") => "required_providers",
        _ => return None,
    })
}

/// How strings in the value of attribute `key` of a `kind` body are read
/// (json.mdx: each block type's section).
fn mode(kind: &str, key: &str) -> Mode {
    match (kind, key) {
        ("variable", "type") => Mode::Bare,
        // Decoded without a context by Terraform (configs/named_values.go:
        // `attr.Expr.Value(nil)`): literal strings.
        ("variable", "default") => Mode::Literal,
        // Likewise decoded into a string without a context (configs/named_values.go).
        ("variable" | "output", "description") => Mode::Literal,
        ("resource" | "data", "provider") => Mode::Bare,
        ("resource" | "data" | "module" | "output", "depends_on") => Mode::BareList,
        ("lifecycle", "ignore_changes" | "replace_triggered_by") => Mode::BareList,
        ("module", "providers") => Mode::BareValues,
        _ => Mode::Template,
    }
}

/// Whether `s` is an HCL identifier (a JSON key that is not cannot be an
/// argument name, and is left out).
fn is_identifier(s: &str) -> bool {
    let mut chars = s.chars();
    chars.next().is_some_and(|c| c.is_alphabetic() || c == '_')
        && chars.all(|c| c.is_alphanumeric() || c == '_' || c == '-')
}

#[cfg(test)]
mod tests;
