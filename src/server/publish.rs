//! `textDocument/publishDiagnostics` for one open document, written as
//! JSON directly and kept from one publication to the next.
//!
//! A large generated file can carry tens of thousands of diagnostics, and
//! LSP republishes all of them after every keystroke. Converting each to
//! line and column and serialising it through `serde_json::Value` then
//! costs far more than the analysis of the keystroke itself. So each
//! diagnostic is converted and written once; a later publication compares
//! the new diagnostics with the last ones around the changed bytes and
//! keeps the JSON of those before the change and, moved by whole lines,
//! of those after it.

use std::collections::BTreeMap;
use std::fmt::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use std::sync::OnceLock;

use ropey::Rope;
use tower_lsp_server::ls_types::Uri;

use super::text::{self, Encoding};
use crate::analysis::document::common_ends;
use crate::analysis::Document;
use crate::diagnostic::{Code, Diagnostic, Related, Severity};

/// A position as LSP counts it: (line, character).
type Pos = (u32, u32);

/// One diagnostic as last published.
struct Entry {
    /// As analysis gave it (byte ranges in the text it was converted for).
    diag: Diagnostic,
    range: (Pos, Pos),
    /// Per related location: its document's URI (as JSON) and its range.
    related: Vec<(Arc<str>, (Pos, Pos))>,
    /// The LSP diagnostic as JSON; empty when its code is switched off.
    json: String,
}

/// What was last published for one document.
pub struct Published {
    text: Arc<str>,
    rope: Rope,
    enc: Encoding,
    severity: BTreeMap<Code, Option<Severity>>,
    /// The texts of other files that related locations point into.
    others: Vec<(PathBuf, Arc<str>)>,
    entries: Vec<Entry>,
}

/// What a publication needs besides the diagnostics.
pub struct Target<'a> {
    pub path: &'a Path,
    /// The document's URI as a JSON string.
    pub uri_json: Arc<str>,
    pub text: &'a Arc<str>,
    pub rope: &'a Rope,
    pub enc: Encoding,
    pub severity: &'a BTreeMap<Code, Option<Severity>>,
    /// The module's files, for related locations in other files.
    pub module: &'a Ropes,
}

/// The ropes of a module's documents (and of files of the modules it
/// calls), made when first needed (for related locations in other files).
pub struct Ropes {
    files: Vec<(std::path::PathBuf, Arc<str>, OnceLock<Rope>)>,
}

impl Ropes {
    pub fn new(docs: &[Document]) -> Self {
        Ropes { files: docs.iter().map(|d| (d.file.path.clone(), d.file.text.clone(), OnceLock::new())).collect() }
    }

    /// Adds files outside the module.
    pub fn with(mut self, others: impl IntoIterator<Item = (std::path::PathBuf, Arc<str>)>) -> Self {
        self.files.extend(others.into_iter().map(|(p, t)| (p, t, OnceLock::new())));
        self
    }

    fn text(&self, path: &Path) -> Option<&Arc<str>> {
        self.files.iter().find(|f| f.0 == path).map(|f| &f.1)
    }

    fn rope(&self, path: &Path) -> Option<&Rope> {
        let f = self.files.iter().find(|f| f.0 == path)?;
        Some(f.2.get_or_init(|| Rope::from_str(&f.1)))
    }
}

/// A string as a JSON string literal.
pub fn json_string(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_else(|_| "\"\"".into())
}

fn severity_number(s: Severity) -> u8 {
    match s {
        Severity::Error => 1,
        Severity::Warning => 2,
        Severity::Hint => 4,
    }
}

fn write_range(out: &mut String, (s, e): (Pos, Pos)) {
    let _ = write!(
        out,
        r#"{{"start":{{"line":{},"character":{}}},"end":{{"line":{},"character":{}}}}}"#,
        s.0, s.1, e.0, e.1
    );
}

impl Entry {
    fn render(&mut self, severity: Option<Severity>) {
        self.json.clear();
        let Some(sev) = severity else { return };
        let out = &mut self.json;
        out.push_str(r#"{"range":"#);
        write_range(out, self.range);
        let _ = write!(
            out,
            r#","severity":{},"code":"{}","source":"hcl-types","message":{}"#,
            severity_number(sev),
            self.diag.code.as_str(),
            json_string(&self.diag.message)
        );
        // Editors strike deprecated provider attributes through (DiagnosticTag.Deprecated).
        if self.diag.code == crate::diagnostic::Code::Deprecated {
            out.push_str(r#","tags":[2]"#);
        }
        if !self.related.is_empty() {
            out.push_str(r#","relatedInformation":["#);
            for (k, ((uri, range), r)) in self.related.iter().zip(&self.diag.related).enumerate() {
                if k > 0 {
                    out.push(',');
                }
                let _ = write!(out, r#"{{"location":{{"uri":{uri},"range":"#);
                write_range(out, *range);
                let _ = write!(out, r#"}},"message":{}}}"#, json_string(&r.message));
            }
            out.push(']');
        }
        out.push('}');
    }
}

fn pos(p: tower_lsp_server::ls_types::Position) -> Pos {
    (p.line, p.character)
}

fn convert(rope: &Rope, r: &std::ops::Range<usize>, enc: Encoding) -> (Pos, Pos) {
    let r = text::range(rope, r, enc);
    (pos(r.start), pos(r.end))
}

/// Whether a related location lies in the document itself.
fn here(r: &Related, path: &Path) -> bool {
    r.path.as_deref().is_none_or(|p| p == path)
}

/// A file related locations point into: its URI (as JSON) and its text.
type Other = (Arc<str>, Arc<str>);

/// The change between the last published text and this one, and how it
/// moves what follows it.
struct Change {
    /// Bytes before `prefix` are unchanged, and so are their positions.
    prefix: usize,
    /// Old bytes from `old_end` on moved by `delta` bytes.
    old_end: usize,
    delta: isize,
    /// Old bytes from `lines_from` on moved by `lines` whole lines, their
    /// columns unchanged (`usize::MAX` when no such line is known).
    lines_from: usize,
    lines: i64,
}

impl Change {
    fn new(old: &str, old_rope: &Rope, new_rope: &Rope, new: &str) -> Change {
        let (prefix, suffix) = common_ends(old.as_bytes(), new.as_bytes());
        let (old_end, new_end) = (old.len() - suffix, new.len() - suffix);
        let delta = new_end as isize - old_end as isize;
        // The first line break that ends after an unchanged byte: what
        // follows it is laid out as before, a whole number of lines down.
        let lines_from = old
            .as_bytes()
            .get(old_end + 1..)
            .and_then(|rest| rest.iter().position(|&b| b == b'\n'))
            .map(|i| old_end + 1 + i + 1);
        let (lines_from, lines) = match lines_from {
            Some(at) if at < old.len() => {
                let moved = (at as isize + delta) as usize;
                (at, new_rope.byte_to_line(moved) as i64 - old_rope.byte_to_line(at) as i64)
            }
            _ => (usize::MAX, 0),
        };
        Change { prefix, old_end, delta, lines_from, lines }
    }

    fn moved(&self, at: usize) -> usize {
        if at >= self.old_end {
            at.saturating_add_signed(self.delta)
        } else {
            at
        }
    }

    /// Whether `old`, its bytes moved by the change, is `new`.
    fn same(&self, old: &Diagnostic, new: &Diagnostic, path: &Path) -> bool {
        old.code == new.code
            && old.severity == new.severity
            && self.moved(old.range.start) == new.range.start
            && self.moved(old.range.end) == new.range.end
            && old.message == new.message
            && old.related.len() == new.related.len()
            && old.related.iter().zip(&new.related).all(|(a, b)| {
                a.path == b.path
                    && a.message == b.message
                    && if here(a, path) {
                        self.moved(a.range.start) == b.range.start && self.moved(a.range.end) == b.range.end
                    } else {
                        a.range == b.range
                    }
            })
    }

    /// Whether a range of the old text keeps its positions.
    fn before(&self, r: &std::ops::Range<usize>) -> bool {
        r.end < self.prefix
    }

    /// Whether a range of the old text only moves down whole lines.
    fn after(&self, r: &std::ops::Range<usize>) -> bool {
        r.start >= self.lines_from
    }
}

fn shift((s, e): (Pos, Pos), lines: i64) -> (Pos, Pos) {
    let m = |p: Pos| ((p.0 as i64 + lines).max(0) as u32, p.1);
    (m(s), m(e))
}

impl Published {
    /// Brings the publication up to `diags` and returns the notification
    /// as JSON.
    pub fn update(last: Option<Published>, target: &Target, version: i32, diags: &[Diagnostic]) -> (Published, String) {
        let mut next = Published {
            text: target.text.clone(),
            rope: target.rope.clone(),
            enc: target.enc,
            severity: target.severity.clone(),
            others: Vec::new(),
            entries: Vec::new(),
        };
        let mut old = match last {
            Some(last) if last.enc == target.enc && last.severity == *target.severity => last,
            _ => Published {
                text: Arc::from(""),
                rope: Rope::new(),
                enc: target.enc,
                severity: BTreeMap::new(),
                others: Vec::new(),
                entries: Vec::new(),
            },
        };
        // Related locations in other files keep their positions while
        // those files are the same.
        let others_same =
            old.others.iter().all(|(p, t)| target.module.text(p).is_some_and(|text| Arc::ptr_eq(text, t)));
        let change = Change::new(&old.text, &old.rope, target.rope, target.text);
        let path = target.path;
        let reusable_before = |e: &Entry| {
            change.before(&e.diag.range)
                && e.diag.related.iter().all(|r| if here(r, path) { change.before(&r.range) } else { others_same })
        };
        let reusable_after = |e: &Entry| {
            change.after(&e.diag.range)
                && e.diag.related.iter().all(|r| {
                    if here(r, path) {
                        change.before(&r.range) || change.after(&r.range)
                    } else {
                        others_same
                    }
                })
        };
        // Unchanged diagnostics before the change, and after it.
        let front = old.entries.iter().zip(diags).take_while(|(e, d)| e.diag == **d && reusable_before(e)).count();
        let most = old.entries.len().min(diags.len()) - front;
        let back = old
            .entries
            .iter()
            .rev()
            .zip(diags.iter().rev())
            .take(most)
            .take_while(|(e, d)| change.same(&e.diag, d, path) && reusable_after(e))
            .count();
        // The entries are changed in place: only the middle is replaced.
        let mut entries = std::mem::take(&mut old.entries);
        let middle = front..entries.len() - back;
        let mut fresh = Vec::with_capacity(diags.len() - front - back);
        let mut others: BTreeMap<PathBuf, Option<Other>> = BTreeMap::new();
        let effective = |d: &Diagnostic| match target.severity.get(&d.code) {
            Some(s) => *s,
            None => Some(d.severity),
        };
        for d in &diags[front..diags.len() - back] {
            let mut related = Vec::with_capacity(d.related.len());
            for r in &d.related {
                match r.path.as_deref() {
                    Some(p) if p != path => {
                        let found = others.entry(p.to_path_buf()).or_insert_with(|| {
                            let text = target.module.text(p)?.clone();
                            Some((Arc::from(json_string(Uri::from_file_path(p)?.as_str())), text))
                        });
                        let (Some((uri, _)), Some(rope)) = (found, target.module.rope(p)) else { continue };
                        related.push((uri.clone(), convert(rope, &r.range, target.enc)));
                    }
                    _ => related.push((target.uri_json.clone(), convert(target.rope, &r.range, target.enc))),
                }
            }
            // A related location in a file that is not there is left out.
            let diag = Diagnostic {
                related: d
                    .related
                    .iter()
                    .filter(|r| r.path.as_deref().is_none_or(|p| p == path || matches!(others.get(p), Some(Some(_)))))
                    .cloned()
                    .collect(),
                ..d.clone()
            };
            let mut e = Entry { diag, range: convert(target.rope, &d.range, target.enc), related, json: String::new() };
            e.render(effective(d));
            fresh.push(e);
        }
        for (e, d) in entries[middle.end..].iter_mut().zip(&diags[diags.len() - back..]) {
            if change.lines != 0 {
                e.range = shift(e.range, change.lines);
                for ((_, range), r) in e.related.iter_mut().zip(&e.diag.related) {
                    if here(r, path) && change.after(&r.range) {
                        *range = shift(*range, change.lines);
                    }
                }
                e.diag = d.clone();
                e.render(effective(d));
            } else {
                e.diag.range = d.range.clone();
                for (mine, theirs) in e.diag.related.iter_mut().zip(&d.related) {
                    mine.range = theirs.range.clone();
                }
            }
        }
        entries.splice(middle, fresh);
        next.entries = entries;
        next.others = others.into_iter().filter_map(|(p, found)| Some((p, found?.1))).collect();
        if others_same {
            for (p, t) in old.others {
                if !next.others.iter().any(|(q, _)| *q == p) {
                    next.others.push((p, t));
                }
            }
        }

        let size: usize = next.entries.iter().map(|e| e.json.len() + 1).sum();
        let mut params = String::with_capacity(size + target.uri_json.len() + 128);
        let _ = write!(
            params,
            r#"{{"jsonrpc":"2.0","method":"textDocument/publishDiagnostics","params":{{"uri":{},"diagnostics":["#,
            target.uri_json
        );
        let mut first = true;
        for e in next.entries.iter().filter(|e| !e.json.is_empty()) {
            if !first {
                params.push(',');
            }
            first = false;
            params.push_str(&e.json);
        }
        let _ = write!(params, r#"],"version":{version}}}}}"#);
        (next, params)
    }
}
