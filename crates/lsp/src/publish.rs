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

use ropey::Rope;
use tower_lsp_server::ls_types::Uri;

use super::body::{Body, Chunk};
use super::entries::{here, Entries, Entry, Pos, Span};
use super::ropes::Ropes;
use super::text::{self, Encoding};
use super::to_proto;
use analysis::document::common_ends;
use analysis::{Kept, Text};
use project::documents::Edit;
use syntax::diagnostic::{Code, Diagnostic, Severity};

/// What was last published for one document.
pub struct Published {
    /// The text's length and name ([`Edit::text`]; 0: none), not the
    /// text: held here, it could not be changed in place by the next edit.
    len: usize,
    text: u64,
    rope: Rope,
    enc: Encoding,
    severity: BTreeMap<Code, Option<Severity>>,
    /// The texts of other files that related locations point into, by
    /// [`analysis::TextBuf::id`] (not held: see there).
    others: Vec<(PathBuf, u64)>,
    entries: Entries,
    /// The analysis the entries are of ([`analysis::ModuleAnalysis::id`]; 0: none).
    analysis: u64,
    /// The last message (see [`Message`]).
    message: Message,
    /// Names the list's contents for pull diagnostics (`resultId`): kept
    /// while the list's bytes stay the same, else a number not used before
    /// in this process; 0 is the empty list.
    result: u64,
}

/// The next [`Published::result`].
static RESULTS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);

/// A publication as sent, in pieces: `head` (up to the list), `[`, the
/// chunks of the entries' blocks (the last one without its comma), `]`,
/// the version. The next one shares the head and the chunks of the blocks
/// it left as they were.
struct Message {
    body: Body,
    uri_json: Arc<str>,
    head: Chunk,
}

impl Message {
    fn empty() -> Message {
        Message { body: Body::default(), uri_json: Arc::from(""), head: Chunk::Static(b"") }
    }

    fn new(head: Chunk, uri_json: Arc<str>, entries: &mut Entries, version: i32) -> Message {
        let mut chunks = vec![head.clone(), Chunk::Static(b"[")];
        entries.chunks(&mut chunks);
        if chunks.len() > 2 {
            let last = chunks.pop().map(Chunk::trimmed);
            chunks.extend(last);
        }
        chunks.push(Chunk::Static(b"]"));
        chunks.push(Chunk::new(format!(r#","version":{version}}}}}"#).into_bytes()));
        Message { body: Body::new(chunks), uri_json, head }
    }
}

/// What a publication needs besides the diagnostics.
pub struct Target<'a> {
    pub path: &'a Path,
    /// The document's URI as a JSON string.
    pub uri_json: Arc<str>,
    pub text: &'a Text,
    pub rope: &'a Rope,
    pub enc: Encoding,
    pub severity: &'a BTreeMap<Code, Option<Severity>>,
    /// The module's files, for related locations in other files.
    pub module: &'a Ropes<'a>,
    /// Which parsed text `text` is, and the change that made it.
    pub edit: Option<&'a Edit>,
    /// The analysis the diagnostics are of ([`analysis::ModuleAnalysis::id`]), and
    /// which of them it kept from an earlier one: those are not compared.
    pub analysis: u64,
    pub kept: Option<Kept>,
}

/// A string as a JSON string literal.
pub fn json_string(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_else(|_| "\"\"".into())
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
            r#","severity":{},"code":"{}","source":{},"message":{}"#,
            serde_json::to_string(&to_proto::severity(sev)).unwrap_or_else(|_| "null".into()),
            self.diag.code.as_str(),
            json_string(to_proto::SOURCE),
            json_string(&self.diag.message)
        );
        if let Some(tags) = to_proto::tags(&self.diag) {
            let _ = write!(out, r#","tags":{}"#, serde_json::to_string(&tags).unwrap_or_else(|_| "[]".into()));
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

/// A file related locations point into: its URI (as JSON) and its text.
type Other = (Arc<str>, Text);

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
    fn new(old: &Published, new_rope: &Rope, new: &str, edit: Option<&Edit>) -> Change {
        // The text published, or the edit that made the new text from it,
        // says where they differ; else both are compared (the old one
        // gathered from its rope: only a skipped publication leads here).
        let (prefix, suffix) = match edit {
            Some(e) if old.text != 0 && e.text == old.text => (old.len, 0),
            Some(e)
                if old.text != 0 && e.before == old.text && old.len - e.replaced.len() + e.inserted == new.len() =>
            {
                (e.replaced.start, old.len - e.replaced.end)
            }
            _ => common_ends(old.rope.to_string().as_bytes(), new.as_bytes()),
        };
        let (old_end, new_end) = (old.len - suffix, new.len() - suffix);
        let delta = new_end as isize - old_end as isize;
        // The first line break that ends after an unchanged byte: what
        // follows it is laid out as before, a whole number of lines down
        // (found in the new text: the bytes after the change are the same).
        let lines_from = new
            .as_bytes()
            .get(new_end + 1..)
            .and_then(|rest| rest.iter().position(|&b| b == b'\n'))
            .map(|i| old_end + 1 + i + 1);
        let (lines_from, lines) = match lines_from {
            Some(at) if at < old.len => {
                let moved = (at as isize + delta) as usize;
                (at, new_rope.byte_to_line(moved) as i64 - old.rope.byte_to_line(at) as i64)
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

/// How many of the first and of the last diagnostics the analysis kept as
/// `old` published them (the last ones moved with the text).
fn known(old: &Published, target: &Target, len: usize) -> (usize, usize) {
    let most = old.entries.len().min(len);
    match target.kept {
        _ if old.analysis == 0 => (0, 0),
        _ if old.analysis == target.analysis && old.entries.len() == len => (len, 0),
        Some(k) if k.from == old.analysis && k.front <= most && k.back <= most - k.front => (k.front, k.back),
        _ => (0, 0),
    }
}

fn shift((s, e): (Pos, Pos), lines: i64) -> (Pos, Pos) {
    let m = |p: Pos| ((p.0 as i64 + lines).max(0) as u32, p.1);
    (m(s), m(e))
}

impl Published {
    /// Brings the publication up to `diags` and returns the notification
    /// as JSON.
    pub fn update(last: Option<Published>, target: &Target, version: i32, diags: &[Diagnostic]) -> (Published, Body) {
        let mut next = Published {
            len: target.text.len(),
            text: target.edit.map_or(0, |e| e.text),
            rope: target.rope.clone(),
            enc: target.enc,
            severity: target.severity.clone(),
            others: Vec::new(),
            entries: Entries::default(),
            analysis: target.analysis,
            message: Message::empty(),
            result: 0,
        };
        let mut old = match last {
            Some(last) if last.enc == target.enc && last.severity == *target.severity => last,
            _ => Published {
                len: 0,
                text: 0,
                rope: Rope::new(),
                enc: target.enc,
                severity: BTreeMap::new(),
                others: Vec::new(),
                entries: Entries::default(),
                analysis: 0,
                message: Message::empty(),
                result: 0,
            },
        };
        // Related locations in other files keep their positions while
        // those files are the same.
        let others_same = old.others.iter().all(|(p, id)| target.module.text(p).is_some_and(|text| text.id() == *id));
        let change = Change::new(&old, target.rope, target.text, target.edit);
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
        // Unchanged diagnostics before the change, and after it; those the
        // analysis says it kept from the published one are not compared.
        let (known_front, known_back) = known(&old, target, diags.len());
        let old_len = old.entries.len();
        // Whole blocks pass by their spans: a block the analysis kept
        // whose entries all point before (after) the change.
        let front = old.entries.pass(
            false,
            old_len.min(diags.len()),
            path,
            |at, span| at.end <= known_front && span.hi < change.prefix && (others_same || !span.other),
            |i, e| (i < known_front || e.diag == diags[i]) && reusable_before(e),
        );
        let most = old_len.min(diags.len()) - front;
        let after = |span: Span| span.lo >= change.lines_from && (others_same || !span.other);
        let back = old.entries.pass(
            true,
            most,
            path,
            |at, span| at.end <= known_back && after(span),
            |i, e| (i < known_back || change.same(&e.diag, &diags[diags.len() - 1 - i], path)) && reusable_after(e),
        );
        // The entries are changed in place: only the middle is replaced.
        let mut entries = std::mem::take(&mut old.entries);
        let middle = front..old_len - back;
        let mut others: BTreeMap<PathBuf, Option<Other>> = BTreeMap::new();
        let effective = |d: &Diagnostic| project::service::effective_severity(d, target.severity);
        let mut fresh_entry = |d: &Diagnostic| {
            let mut related = Vec::with_capacity(d.related.len());
            for r in &d.related {
                match r.path.as_deref() {
                    Some(p) if p != path => {
                        let found = others.entry(p.to_path_buf()).or_insert_with(|| {
                            let text = target.module.text(p)?;
                            Some((Arc::from(json_string(Uri::from_file_path(p)?.as_str())), text))
                        });
                        let (Some((uri, _)), Some(rope)) = (found, target.module.rope(p)) else { continue };
                        related.push((uri.clone(), convert(&rope, &r.range, target.enc)));
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
            e
        };
        // An entry after the change whose diagnostic only moved with the
        // text keeps its positions (shifted by whole lines); whether its
        // JSON was made again.
        let follow = |e: &mut Entry, d: &Diagnostic| {
            if change.lines != 0 {
                e.range = shift(e.range, change.lines);
                for ((_, range), r) in e.related.iter_mut().zip(&e.diag.related) {
                    if here(r, path) && change.after(&r.range) {
                        *range = shift(*range, change.lines);
                    }
                }
                e.diag = d.clone();
                e.render(effective(d));
                true
            } else {
                e.diag.range = d.range.clone();
                for (mine, theirs) in e.diag.related.iter_mut().zip(&d.related) {
                    mine.range = theirs.range.clone();
                }
                false
            }
        };
        // The middle: the new diagnostics and the old entries walked in
        // step (both in text order), an old entry kept for a new diagnostic
        // it is, moved with the text. A rename changes the diagnostics of
        // the items that read the name, spread over the file (and often how
        // many there are); the thousands between keep their JSON.
        // The entries after the change moved with the text: those of a
        // whole block only get a pending shift while no line moved.
        let by = (change.lines == 0).then_some(change.delta);
        entries.follow_back(back, path, by, after, |k, e| follow(e, &diags[diags.len() - 1 - k]));
        let new_middle = &diags[front..diags.len() - back];
        let equal = middle.len() == new_middle.len();
        // The list is the same when no entry moved and each new one renders
        // as the old one at its place did.
        let mut same = equal && (change.lines == 0 || back == 0);
        entries.replace(middle, path, |old_middle| {
            let mut taken = vec![false; old_middle.len()];
            let mut j = 0;
            let mut fresh = Vec::with_capacity(new_middle.len());
            for (i, d) in new_middle.iter().enumerate() {
                while j < taken.len() && (taken[j] || change.moved(old_middle[j].diag.range.start) < d.range.start) {
                    j += 1;
                }
                // An old entry it is: as it was (before the change), or moved
                // with the text (after it).
                let reuse = old_middle.get(j).filter(|_| j < taken.len()).and_then(|o| {
                    if reusable_before(o) && o.diag == *d {
                        Some(false)
                    } else {
                        (reusable_after(o) && change.same(&o.diag, d, path)).then_some(true)
                    }
                });
                let e = if let Some(moved) = reuse {
                    taken[j] = true;
                    let mut e = std::mem::replace(&mut old_middle[j], Entry::placeholder());
                    let rendered = moved && follow(&mut e, d);
                    same &= !rendered && j == i;
                    (e, (!rendered).then_some(j))
                } else {
                    let n = fresh_entry(d);
                    same &= equal && !taken[i] && old_middle[i].json == n.json;
                    (n, None)
                };
                fresh.push(e);
            }
            fresh
        });
        next.result = if same { old.result } else { RESULTS.fetch_add(1, std::sync::atomic::Ordering::Relaxed) };
        next.entries = entries;
        next.others = others.into_iter().filter_map(|(p, found)| Some((p, found?.1.id()))).collect();
        if others_same {
            for (p, t) in old.others {
                if !next.others.iter().any(|(q, _)| *q == p) {
                    next.others.push((p, t));
                }
            }
        }

        // The head is the last one's while the document's URI is.
        let head = match old.message {
            m if m.uri_json == target.uri_json => m.head,
            _ => Chunk::new(
                format!(
                    r#"{{"jsonrpc":"2.0","method":"textDocument/publishDiagnostics","params":{{"uri":{},"diagnostics":"#,
                    target.uri_json
                )
                .into_bytes(),
            ),
        };
        next.message = Message::new(head, target.uri_json.clone(), &mut next.entries, version);
        let body = next.message.body.clone();
        (next, body)
    }

    /// The id of the published list (see [`Published::result`]).
    pub fn result(&self) -> u64 {
        self.result
    }

    /// The list of diagnostics last published, as a JSON array (the
    /// message's pieces but the first and the last).
    pub fn list(&self) -> Body {
        match self.message.body.chunks() {
            [_, list @ .., _] if !list.is_empty() => Body::new(list.to_vec()),
            _ => Body::from(b"[]".to_vec()),
        }
    }

    /// The rope of the text last published.
    pub fn rope(&self) -> Rope {
        self.rope.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::ops::Range;
    use syntax::diagnostic::Related;

    /// One diagnostic per `bad` in the text; every fifth one counts them
    /// (so it changes wherever one comes or goes).
    fn diags(text: &str) -> Vec<Diagnostic> {
        let code = Code::ALL[0];
        let n = text.matches("bad").count();
        // A rename: diagnostics spread over the file change, as many.
        let renamed = text.contains("RENAMED");
        let message = |k: usize| match k {
            _ if k.is_multiple_of(5) => format!("one of {n} bad words"),
            _ if renamed && k % 4 == 3 => "a renamed bad word".into(),
            _ => "a bad word".into(),
        };
        // With a `~`, some point at the first bad word, the next one or
        // another file.
        let at: Vec<usize> = text.match_indices("bad").map(|(i, _)| i).collect();
        let related = |k: usize| {
            let (path, to) = match k {
                _ if !text.contains('~') => return Vec::new(),
                _ if k % 7 == 3 => (None, at[0]),
                _ if k % 9 == 4 && k + 1 < at.len() => (None, at[k + 1]),
                _ if k % 13 == 6 => (Some(PathBuf::from("/m/other.tf")), 0),
                _ => return Vec::new(),
            };
            vec![Related { path, range: to..to + 3, message: "there".into() }]
        };
        (at.iter().enumerate())
            .map(|(k, &i)| Diagnostic { related: related(k), ..Diagnostic::new(code, i..i + 3, message(k)) })
            .collect()
    }

    fn list_of(p: &Published) -> Vec<u8> {
        p.list().to_vec()
    }

    /// Publishes each text after the last; every message must be what a
    /// first publication of the same text is. `hold` keeps a message as
    /// the writer would while it writes (the next one is then built anew).
    ///
    /// With `hints`, each text comes with the edit that made it (the
    /// smallest one, or one byte more) and its diagnostics as an analysis
    /// that says which it kept (as many as it can, or fewer: `hints` is how
    /// many fewer, taken in turn), so the publication compares only the others.
    fn publish_all(texts: &[&str], hold: &[usize], hints: Option<usize>) {
        let (path, uri_json): (PathBuf, Arc<str>) = (PathBuf::from("/m/main.tf"), Arc::from("\"file:///m/main.tf\""));
        let (severity, module) = (BTreeMap::new(), Ropes::new(&[]));
        let mut last = None;
        let mut held = Vec::new();
        let mut before: Option<(Text, Vec<Diagnostic>)> = None;
        let mut id = 0;
        for (k, text) in texts.iter().enumerate() {
            let (text, rope): (Text, Rope) = (Arc::new((*text).into()), Rope::from_str(text));
            let edit = before.as_ref().map(|(old, _)| {
                let (prefix, suffix) = common_ends(old.as_bytes(), text.as_bytes());
                let wider = k % 2 == 1 && prefix > 0 && old.is_char_boundary(prefix - 1);
                let start = if wider { prefix - 1 } else { prefix };
                let inserted = text.len() - suffix - start;
                let text = if **old == *text { id } else { id + 1 };
                Edit { text, before: id, replaced: start..old.len() - suffix, inserted }
            });
            id = edit.as_ref().map_or(1, |e| e.text);
            let edit = edit.filter(|_| hints.is_some());
            let target = Target {
                path: &path,
                uri_json: uri_json.clone(),
                text: &text,
                rope: &rope,
                enc: Encoding::Utf16,
                severity: &severity,
                module: &module,
                edit: edit.as_ref(),
                analysis: if hints.is_some() { k as u64 + 1 } else { 0 },
                kept: None,
            };
            let found = diags(&text);
            let previous = last.as_ref().map(|l: &Published| (l.result(), list_of(l)));
            let kept = match (&before, hints) {
                (Some((old_text, old)), Some(fewer)) => {
                    Some(Kept { from: k as u64, ..kept(old_text, old, &text, &found, k * fewer) })
                }
                _ => None,
            };
            let target = Target { kept, ..target };
            super::super::entries::VISITED.with(|v| v.set(0));
            let (next, body) = Published::update(last.take(), &target, k as i32, &found);
            // A keystroke that moves no line and keeps what the analysis
            // says visits the blocks around the change, not every entry.
            let visited = super::super::entries::VISITED.with(|v| v.get());
            if let (Some(0), Some(kept), Some((old_text, _))) = (hints, kept, &before) {
                let lines = |t: &str| t.matches('\n').count();
                if !text.contains('~') && lines(old_text) == lines(&text) && !hold.contains(&(k - 1)) {
                    let changed = found.len() - kept.front - kept.back;
                    assert!(
                        visited <= 8 * super::super::entries::BLOCK + 2 * changed,
                        "text {k}: {visited} visited, {changed} changed"
                    );
                }
            }
            let (_, fresh) = Published::update(None, &target, k as i32, &found);
            before = Some((text.clone(), found.clone()));
            assert_eq!(body, fresh, "text {k}");
            // The list is the message's diagnostics, and its id changes
            // exactly when they do.
            let message: serde_json::Value = serde_json::from_slice(&body.to_vec()).unwrap();
            let list: serde_json::Value = serde_json::from_slice(&list_of(&next)).unwrap();
            assert_eq!(list, message["params"]["diagnostics"], "text {k}");
            if let Some((result, bytes)) = previous {
                assert_eq!(result == next.result(), bytes == list_of(&next), "text {k}");
            }
            if hold.contains(&k) {
                held.push(body);
            }
            last = Some(next);
        }
    }

    /// What an analysis of `new` patched from one of `old` truly keeps:
    /// the diagnostics before the changed bytes, and those after them
    /// moved; `fewer` less of each (as a patch that re-checks more).
    fn kept(old_text: &str, old: &[Diagnostic], new_text: &str, new: &[Diagnostic], fewer: usize) -> Kept {
        let (prefix, suffix) = common_ends(old_text.as_bytes(), new_text.as_bytes());
        let delta = new_text.len() as isize - old_text.len() as isize;
        let old_end = old_text.len() - suffix;
        let most = old.len().min(new.len());
        let front = old.iter().zip(new).take_while(|(a, b)| a == b && a.range.end < prefix).count();
        let shifted = |r: &Range<usize>| match r.start >= old_end {
            true => r.start.saturating_add_signed(delta)..r.end.saturating_add_signed(delta),
            false => r.clone(),
        };
        let moved = |d: &Diagnostic| Diagnostic {
            range: shifted(&d.range),
            related: (d.related.iter())
                .map(|r| Related {
                    range: if r.path.is_none() { shifted(&r.range) } else { r.range.clone() },
                    ..r.clone()
                })
                .collect(),
            ..d.clone()
        };
        let back = (old.iter().rev().zip(new.iter().rev()).take(most - front))
            .take_while(|(a, b)| a.range.start >= old_end && moved(a) == **b)
            .count();
        Kept { from: 0, front: front.saturating_sub(fewer % 3), back: back.saturating_sub(fewer % 2) }
    }

    #[test]
    fn a_message_made_from_the_last_one_is_the_message_made_anew() {
        let lines: Vec<String> =
            (0..40).map(|i| if i % 3 == 0 { format!("bad {i}\n") } else { format!("ok {i}\n") }).collect();
        let base = lines.concat();
        let typed = base.replacen("ok 4", "ok 4x", 1);
        let same_line = typed.replacen("bad 6", "xbad 6", 1);
        let new_line = same_line.replacen("ok 10\n", "ok 10\n\n", 1);
        let removed = new_line.replacen("bad 21", "bed 21", 1);
        let added = removed.replacen("ok 22", "bad 22", 1);
        let appended = format!("{added}bad at the end\n");
        let none = added.replace("bad", "b_d");
        let again = base.clone();
        let typed_again = typed.replacen("ok 5", "ok 5y", 1);
        let renamed = typed_again.replacen("ok 5y", "ok 5y RENAMED", 1);
        let renamed_back = renamed.replacen(" RENAMED", "", 1);
        let renamed_below = renamed_back.replacen("ok 5y", "ok 5y\nRENAMED", 1);
        // A rename that adds a diagnostic too (one more in the list).
        let renamed_more = renamed_back.replacen("ok 5y", "ok 5y RENAMED bad", 1);
        let renamed_more_below = renamed_back.replacen("ok 5y", "ok 5y\nRENAMED bad\n", 1);
        let texts = [
            &base,
            &typed,
            &same_line,
            &new_line,
            &removed,
            &added,
            &appended,
            &none,
            &again,
            &typed,
            &typed,
            &typed_again,
            &renamed,
            &renamed_back,
            &renamed_below,
            &renamed_back,
            &renamed_more,
            &renamed_back,
            &renamed_more_below,
            &renamed,
        ];
        let texts: Vec<&str> = texts.iter().map(|t| t.as_str()).collect();
        for hints in [None, Some(0), Some(1)] {
            publish_all(&texts, &[], hints);
            publish_all(&texts, &[1, 4], hints);
        }
    }

    /// Random keystrokes over a longer text (many blocks of entries, see
    /// `entries.rs`): characters, line breaks and bad words typed and
    /// deleted anywhere, renames; each message made from the last one is
    /// the message made anew.
    #[test]
    fn random_keystrokes_publish_what_a_fresh_publication_does() {
        let mut rng = types::testing::Rng::new(17);
        let lines: Vec<String> =
            (0..120).map(|i| if i % 2 == 0 { format!("bad {i} bad\n") } else { format!("ok {i}\n") }).collect();
        let mut texts = vec![format!("~{}", lines.concat())];
        for _ in 0..160 {
            let mut t = texts.last().unwrap().clone();
            let at = rng.below(t.len() + 1);
            match rng.below(6) {
                0 | 1 => t.insert(at, 'x'),
                2 => t.insert(at, '\n'),
                3 => t.insert_str(at, "bad"),
                4 if at < t.len() => {
                    t.remove(at);
                }
                _ if t.contains("RENAMED") => t = t.replacen("RENAMED", "", 1),
                _ => t.insert_str(at, "RENAMED"),
            }
            texts.push(t);
        }
        let texts: Vec<&str> = texts.iter().map(String::as_str).collect();
        for hints in [None, Some(0), Some(1)] {
            publish_all(&texts, &[3, 50], hints);
            // Without related locations: few entries visited per keystroke.
            let plain: Vec<String> = texts.iter().map(|t| t.replacen('~', "", 1)).collect();
            publish_all(&plain.iter().map(String::as_str).collect::<Vec<_>>(), &[3, 50], hints);
        }
    }
}
