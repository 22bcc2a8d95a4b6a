//! A file as separately parsed top-level items: one syntax error costs one item.

use std::borrow::Cow;
use std::ops::Range;
use std::sync::Arc;

use hcl_edit::structure::Body;

use super::SourceFile;
use syntax::constant::Source;
use syntax::diagnostic::{Code, Diagnostic};
use syntax::{deep, scan};

/// Names one parse of one item. An item that an edit only moves keeps its
/// id, so analysis results remembered for it stay valid; a re-parsed item
/// gets a new one.
pub type ItemId = u64;

fn next_id() -> ItemId {
    crate::ids::fresh()
}

/// One top-level block or attribute and its parse. The tree's spans are
/// relative to the item's start, so moving the item costs nothing.
#[derive(Clone, Debug)]
pub struct Item {
    pub id: ItemId,
    pub range: Range<usize>,
    /// The line breaks before the item's start (its 0-based first line),
    /// kept up by edits as its range is: a line of a 10 MB file is counted
    /// from its item, not from the start ([`Document::line`]).
    pub line: usize,
    tree: Tree,
    /// Number literals hcl-edit cannot hold, masked before parsing
    /// (relative to the item's start; see `scan::mask`).
    masks: Arc<[Range<usize>]>,
    /// The syntax error of an item that does not parse (boxed: items are
    /// many and moved often, errors few).
    pub error: Option<Box<Diagnostic>>,
}

/// An item's tree: kept, or dropped to save memory once analysis has what
/// it needs from it (a tree costs ~44 bytes per source byte; re-parsing
/// one item costs microseconds).
#[derive(Clone, Debug)]
enum Tree {
    Kept(Arc<Body>),
    Dropped,
    Broken,
}

impl Item {
    fn kept(&self) -> bool {
        matches!(self.tree, Tree::Kept(_))
    }

    /// Whether the item parses (it has a tree, kept or not).
    pub fn parses(&self) -> bool {
        !matches!(self.tree, Tree::Broken)
    }

    /// The parsed item (a body holding one structure), parsed again from
    /// `text` (its document's) if the tree was dropped; `None` after a
    /// syntax error.
    pub fn body(&self, text: &str) -> Option<Arc<Body>> {
        match &self.tree {
            Tree::Kept(b) => Some(b.clone()),
            Tree::Broken => None,
            Tree::Dropped => {
                let masks: Vec<Range<usize>> =
                    self.masks.iter().map(|m| m.start + self.range.start..m.end + self.range.start).collect();
                let parse_text = scan::mask(text, self.range.clone(), &masks);
                // It parsed once, so as HCL1 if it had to (a dotted name).
                parse_tree(&parse_text, true).ok().map(Arc::new)
            }
        }
    }
}

/// A parsed file. Cloning is cheap: trees are shared.
#[derive(Clone, Debug)]
pub struct Document {
    pub file: SourceFile,
    /// Shared, so a snapshot of a large module costs no copy of its items.
    pub items: Arc<Vec<Item>>,
    /// Syntax diagnostics (one per broken item) and file-level problems.
    pub diagnostics: Vec<Diagnostic>,
    /// How many items hold their tree (kept up by edits, so the server
    /// need not count them after every keystroke).
    kept: usize,
    /// Names these items (their ids and places): a new one after every
    /// edit that changes them, so an analysis that remembers it can tell
    /// "unchanged" without comparing tens of thousands of items.
    revision: Revision,
    /// The last few edits that led here (oldest first), each saying which
    /// items it replaced: an analysis of an earlier revision finds the
    /// changed items from them instead of comparing every item.
    lineage: Arc<[Step]>,
    /// For a JSON file read through its lowering: the JSON itself and the
    /// map between the two (`syntax::json::SourceMap`). What a user is
    /// shown (a diagnostic's line, a hover's range) is in the JSON's
    /// offsets; the analysis works in the lowering's.
    shown: Option<Arc<Shown>>,
    /// Whether its items' syntax errors are one for the file (it does not
    /// read as HCL, [`syntax_diagnostics`]): then an analysis of it is a
    /// whole one, not a patch of the edited items' errors.
    collapsed: bool,
}

/// The text a user sees of a JSON file, and how its offsets map to the
/// lowering's.
#[derive(Debug)]
struct Shown {
    text: crate::Text,
    map: syntax::json::SourceMap,
}

/// Names one state of a document's items (see [`Document::revision`]).
pub type Revision = u64;

/// One edit of a document's items: from revision `from`, the first
/// `front` and the last `back` items stayed (the first ones in place, the
/// last ones moved), those between were replaced.
#[derive(Clone, Copy, Debug)]
struct Step {
    from: Revision,
    front: usize,
    back: usize,
}

/// How many edits a document remembers: an analysis is rarely more than
/// a few keystrokes behind, and an older one compares the items.
const LINEAGE: usize = 16;

impl Document {
    /// A file that is not analysed (over the size that bounds a file's
    /// memory, or invalid JSON): its text, for positions, no items, and why.
    pub fn unanalysed(file: SourceFile, why: Diagnostic) -> Document {
        Document {
            file,
            items: Arc::new(Vec::new()),
            diagnostics: vec![why],
            kept: 0,
            revision: next_id(),
            lineage: Arc::new([]),
            shown: None,
            collapsed: false,
        }
    }

    /// Whether its diagnostics are the whole file's, not its items'
    /// errors: they were made one, or it is not HCL at all.
    pub fn collapsed(&self) -> bool {
        self.collapsed || self.is_not_hcl()
    }

    /// A file with an HCL name that is not HCL (`syntax::foreign`: `what`
    /// it is instead): no items, so it declares and references nothing,
    /// and one `not-hcl` hint on its first line instead of a syntax error
    /// per line.
    fn not_hcl(file: SourceFile, what: &str) -> Document {
        let text = file.text.as_str();
        let start = if text.starts_with('\u{feff}') { 3 } else { 0 };
        let end = text[start..].find(['\n', '\r']).map_or(text.len(), |e| start + e);
        let message = format!("not HCL: {what}; this file is not read");
        Document::unanalysed(file, Diagnostic::new(Code::NotHcl, start..end, message))
    }

    /// Whether this is a [`Self::not_hcl`] file.
    fn is_not_hcl(&self) -> bool {
        self.items.is_empty() && self.diagnostics.iter().any(|d| d.code == Code::NotHcl)
    }

    /// Whether this is an [`Self::unanalysed`] file.
    pub fn is_unanalysed(&self) -> bool {
        self.items.is_empty() && self.diagnostics.iter().any(|d| d.code == Code::FileNotRead)
    }

    pub fn parse(file: SourceFile) -> Document {
        if syntax::json::is_json_path(&file.path) {
            return Document::parse_json(file);
        }
        if let Some(what) = syntax::foreign::sealed(&file.text) {
            return Document::not_hcl(file, what);
        }
        let text = file.text.clone();
        // Items parse independently: spread them over the cores.
        use rayon::prelude::*;
        let found = scan::split(&text);
        let hcl1 = crate::is_nomad_variable_spec(&file.path);
        let items: Vec<Item> = if found.len() > 64 {
            found.par_iter().with_min_len(32).map(|f| parse_item(&text, f, file.kind, hcl1)).collect()
        } else {
            found.iter().map(|f| parse_item(&text, f, file.kind, hcl1)).collect()
        };
        // (A `.tfvars` file is read by value: what does not parse there is
        // its syntax errors, as the server shows them.)
        let judged = unparsed(&items) && file.kind != crate::FileKind::Tfvars;
        if let Some(what) = judged.then(|| syntax::foreign::looks_like(&text)).flatten() {
            return Document::not_hcl(file, what);
        }
        let (diagnostics, collapsed) = syntax_diagnostics(&items);
        let kept = items.iter().filter(|i| i.kept()).count();
        let mut items = items;
        count_lines(&text, &mut items, (0, 0));
        Document {
            file,
            items: Arc::new(items),
            diagnostics,
            kept,
            revision: next_id(),
            lineage: Arc::new([]),
            shown: None,
            collapsed,
        }
    }

    /// A file of Terraform's JSON syntax: its native-syntax lowering
    /// (`syntax::json`) parsed as any other file, whose text then stands
    /// in for the JSON (aligned with it, so ranges stay near their JSON
    /// places); invalid JSON is one syntax error at its byte and no items.
    fn parse_json(file: SourceFile) -> Document {
        match syntax::json::lower_mapped(file.text.as_str()) {
            Ok(lowered) => {
                let text = std::sync::Arc::new(crate::TextBuf::from(lowered.text));
                let mut doc =
                    Document::parse(SourceFile { text, path: file.path.with_extension("json.tf"), ..file.clone() })
                        .with_file(file.path);
                doc.shown = Some(Arc::new(Shown { text: file.text, map: lowered.map }));
                doc
            }
            Err(e) => {
                let at =
                    (0..=e.offset.min(file.text.len())).rev().find(|&i| file.text.is_char_boundary(i)).unwrap_or(0);
                let end = file.text[at..].chars().next().map_or(at, |c| at + c.len_utf8());
                let d = Diagnostic::new(Code::Syntax, at..end, format!("syntax error: {}", e.message));
                Document::unanalysed(file, d)
            }
        }
    }

    /// The same document in `dialect`. A JSON file's text is its lowering,
    /// which is parsed again as native syntax, not lowered twice.
    pub fn in_dialect(&self, dialect: syntax::Dialect) -> Document {
        let file = SourceFile { dialect, ..self.file.clone() };
        if !syntax::json::is_json_path(&file.path) {
            return Document::parse(file);
        }
        let path = file.path.clone();
        let mut doc = Document::parse(SourceFile { path: path.with_extension("json.tf"), ..file }).with_file(path);
        doc.shown = self.shown.clone();
        doc
    }

    /// The text a user sees: a JSON file's own, else the document's.
    pub fn shown_text(&self) -> &crate::Text {
        self.shown.as_ref().map_or(&self.file.text, |s| &s.text)
    }

    /// Where a range of this document's text is in [`Document::shown_text`].
    pub fn shown_range(&self, r: &Range<usize>) -> Range<usize> {
        self.shown.as_ref().map_or_else(|| r.clone(), |s| s.map.range_to_source(r))
    }

    /// Where an offset of [`Document::shown_text`] is in this document's text.
    pub fn offset_from_shown(&self, offset: usize) -> usize {
        self.shown.as_ref().map_or(offset, |s| s.map.to_lowered(offset))
    }

    /// The document under its own path (the lowering of a JSON file is
    /// parsed under a native name, so it is not lowered again).
    fn with_file(mut self, path: std::path::PathBuf) -> Document {
        self.file.path = path;
        self
    }

    /// This state of the items: equal revisions mean the same items (ids
    /// and places). Unique among all documents.
    pub fn revision(&self) -> Revision {
        self.revision
    }

    /// Since revision `rev` of this document, how many of its first and
    /// last items are the ones it had then: `(front, back)`, the first
    /// `front` at the same places, the last `back` the same items moved,
    /// not overlapping (in either). What lies between was replaced. Told
    /// from the edits that led here (conservatively: several edits make
    /// one that covers them all); `None` when they do not reach back to
    /// `rev` (then compare the items).
    pub fn unchanged_since(&self, rev: Revision) -> Option<(usize, usize)> {
        if rev == self.revision {
            return Some((self.items.len(), 0));
        }
        let first = self.lineage.iter().rposition(|s| s.from == rev)?;
        let mut steps = self.lineage[first..].iter();
        let s = steps.next()?;
        Some(steps.fold((s.front, s.back), |(front, back), s| (front.min(s.front), back.min(s.back))))
    }

    /// The revision after an edit from this one that kept the first
    /// `front` and the last `back` items.
    fn step(&self, front: usize, back: usize) -> (Revision, Arc<[Step]>) {
        let from = self.lineage.len().saturating_sub(LINEAGE - 1);
        let step = Step { from: self.revision, front, back };
        (next_id(), self.lineage[from..].iter().copied().chain([step]).collect())
    }

    /// This document with its text replaced by `file.text`: items before and
    /// after the changed bytes are kept (moved, not re-parsed); the scan
    /// restarts one item before the change and stops at the first item
    /// start that an unchanged item already has. The result is the same as
    /// [`Document::parse`] of the new text, item ids aside.
    pub fn edit(&self, file: SourceFile) -> Document {
        self.clone().edited(file)
    }

    /// [`Document::edit`], in place when nothing else shares the items:
    /// then only the changed items are touched and the rest moved, where
    /// a copy of every item would cost more than the edit itself in a
    /// large file.
    pub fn edited(self, file: SourceFile) -> Document {
        // The changed bytes: old[prefix..old.len()-suffix] became new[prefix..new.len()-suffix].
        let (prefix, suffix) = common_ends(self.file.text.as_bytes(), file.text.as_bytes());
        let (old_end, new_end) = (self.file.text.len() - suffix, file.text.len() - suffix);
        self.edited_at(file, prefix..old_end, new_end - prefix)
    }

    /// [`Document::edited`] when the change is known: the old text's
    /// `replaced` bytes gave way to the `inserted` bytes of `file.text` at
    /// `replaced.start` (the rest is the old text). The two texts are not
    /// compared again (10 MB twice per keystroke), and the old one is not
    /// read at all, so it may already have been changed in place.
    pub fn edited_at(mut self, file: SourceFile, replaced: Range<usize>, inserted: usize) -> Document {
        // A JSON file's lowering is not local to the edit: parse it whole.
        if self.file.kind != file.kind || self.file.dialect != file.dialect || syntax::json::is_json_path(&file.path) {
            return Document::parse(file);
        }
        // Whether a file is HCL at all is the whole file's question (and a
        // file that may not be, by its first bytes, is parsed whole, so it
        // is judged as a fresh parse judges it: fuzz lsp_session).
        if self.is_not_hcl()
            || syntax::foreign::sealed(&file.text).is_some()
            || (file.kind != crate::FileKind::Tfvars && syntax::foreign::looks_like(&file.text).is_some())
        {
            return Document::parse(file);
        }
        let (prefix, old_end, new_end) = (replaced.start, replaced.end, replaced.start + inserted);
        if replaced.is_empty() && inserted == 0 {
            return Document { file, ..self };
        }
        let delta = new_end as isize - old_end as isize;
        // The first item the change can touch, and one before it: a change
        // in a block header can merge the header's item into the previous one.
        let first = self.items.partition_point(|i| i.range.end < prefix);
        let keep = first.saturating_sub(1);
        // A change before the first item (a comment opened there, say) rescans from the top.
        let from = match first {
            0 if file.text.starts_with('\u{feff}') => 3,
            0 => 0,
            _ => self.items[keep].range.start,
        };
        // Old items entirely after the change, by their new start.
        let after = self.items.partition_point(|i| i.range.start < old_end);
        let moved = |i: &Item| (i.range.start as isize + delta) as usize;
        let mut resync = None;
        let mut next = after;
        let found = scan::split_from(&file.text, from, |start| {
            if start < new_end {
                return false;
            }
            while next < self.items.len() && moved(&self.items[next]) < start {
                next += 1;
            }
            let hit = next < self.items.len() && moved(&self.items[next]) == start;
            if hit {
                resync = Some(next);
            }
            hit
        });
        let shift = |x: usize| (x as isize + delta) as usize;
        let text = file.text.clone();
        let resync = resync.unwrap_or(self.items.len());
        // The item before the change, scanned again to the same bytes (the
        // change did not merge it with the next), is the same item: kept,
        // not parsed again (its text lies before the change).
        let mut found = &found[..];
        let mut keep = keep;
        if keep < first && found.first().is_some_and(|f| same_item(&self.items[keep], f)) {
            found = &found[1..];
            keep += 1;
        }
        let (revision, lineage) = self.step(keep, self.items.len() - resync);
        // Lines are counted from the last item kept in place (its start lies
        // before the change): to the new items, and to the first moved one,
        // whose difference moves the rest.
        let anchor = keep.checked_sub(1).map_or((0, 0), |k| (self.items[k].range.start, self.items[k].line));
        let lines_moved = self.items.get(resync).map_or(0, |i| {
            let now = anchor.1 + syntax::lines::line_breaks(&file.text, anchor.0, moved(i));
            now as isize - i.line as isize
        });
        let items = Arc::make_mut(&mut self.items);
        for i in &mut items[resync..] {
            i.range = shift(i.range.start)..shift(i.range.end);
            i.line = (i.line as isize + lines_moved) as usize;
            if let Some(d) = &mut i.error {
                d.range = shift(d.range.start)..shift(d.range.end);
            }
        }
        let hcl1 = crate::is_nomad_variable_spec(&file.path);
        let mut fresh: Vec<Item> = found.iter().map(|f| parse_item(&text, f, file.kind, hcl1)).collect();
        count_lines(&text, &mut fresh, anchor);
        // A file without syntax errors stays so unless a new item has one
        // (its tens of thousands of items are not visited again).
        let clean = self.diagnostics.is_empty() && fresh.iter().all(|i| i.error.is_none());
        let kept = self.kept - items[keep..resync].iter().filter(|i| i.kept()).count()
            + fresh.iter().filter(|i| i.kept()).count();
        items.splice(keep..resync, fresh);
        if !clean
            && unparsed(items)
            && file.kind != crate::FileKind::Tfvars
            && syntax::foreign::looks_like(&file.text).is_some()
        {
            return Document::parse(file);
        }
        let (diagnostics, collapsed) = if clean { (Vec::new(), false) } else { syntax_diagnostics(items) };
        Document { file, items: self.items, diagnostics, kept, revision, lineage, shown: None, collapsed }
    }

    /// The 1-based line of an offset of this document's text, counted from
    /// the item before it (which knows its own): a hover's `file:line` of a
    /// declaration near the end of a 10 MB file no longer counts 10 MB.
    pub fn line(&self, offset: usize) -> usize {
        let text = self.file.text.as_str();
        let offset = offset.min(text.len());
        let i = self.items.partition_point(|i| i.range.start <= offset);
        let (from, line) = i.checked_sub(1).map_or((0, 0), |i| (self.items[i].range.start, self.items[i].line));
        line + syntax::lines::line_breaks(text, from, offset) + 1
    }

    /// [`Document::line`] as the user sees it: of a JSON file, the line in
    /// the JSON itself ([`Document::shown_text`]) of where `offset` of the
    /// lowering came from.
    pub fn shown_line(&self, offset: usize) -> usize {
        match &self.shown {
            None => self.line(offset),
            Some(s) => syntax::lines::line_col(&s.text, s.map.range_to_source(&(offset..offset)).start).0,
        }
    }

    /// How many items still hold their tree.
    pub fn kept_trees(&self) -> usize {
        self.kept
    }

    /// Drops the items' trees in place, as [`Self::without_trees`] does
    /// without copying every item (a large file's tens of thousands),
    /// when no other document shares them (else `None`). Returns the
    /// trees, to be freed when it suits the caller.
    pub fn drop_trees(&mut self) -> Option<Vec<Arc<Body>>> {
        let items = Arc::get_mut(&mut self.items)?;
        let mut trees = Vec::with_capacity(self.kept);
        for i in items.iter_mut().filter(|i| i.kept()) {
            if let Tree::Kept(body) = std::mem::replace(&mut i.tree, Tree::Dropped) {
                trees.push(body);
            }
        }
        self.kept = 0;
        Some(trees)
    }

    /// This document without its items' trees: what a large file keeps
    /// once analysed. Items keep their ids, so remembered analysis results
    /// stay valid; a tree is parsed again only if it is needed again.
    pub fn without_trees(&self) -> Document {
        let items = self.items.iter().map(|i| {
            let tree = if i.parses() { Tree::Dropped } else { Tree::Broken };
            Item { tree, ..i.clone() }
        });
        Document { items: Arc::new(items.collect()), kept: 0, ..self.clone() }
    }

    /// The source of an item, for span arithmetic.
    pub fn source(&self, item: &Item) -> Source<'_> {
        Source::new(&self.file.text[item.range.clone()], item.range.start)
    }
}

/// The lengths of the longest common prefix and suffix of two texts, not
/// overlapping: `old[prefix..old.len() - suffix]` became
/// `new[prefix..new.len() - suffix]`. Compared a page at a time (a
/// vectorised `memcmp`), since the texts can be megabytes long.
pub fn common_ends(old: &[u8], new: &[u8]) -> (usize, usize) {
    const PAGE: usize = 4096;
    let n = old.len().min(new.len());
    let mut prefix = 0;
    while prefix + PAGE <= n && old[prefix..prefix + PAGE] == new[prefix..prefix + PAGE] {
        prefix += PAGE;
    }
    prefix += old[prefix..n].iter().zip(&new[prefix..n]).take_while(|(a, b)| a == b).count();
    let most = n - prefix;
    let (ol, nl) = (old.len(), new.len());
    let mut suffix = 0;
    while suffix + PAGE <= most && old[ol - suffix - PAGE..ol - suffix] == new[nl - suffix - PAGE..nl - suffix] {
        suffix += PAGE;
    }
    suffix += old[..ol - suffix]
        .iter()
        .rev()
        .zip(new[..nl - suffix].iter().rev())
        .take(most - suffix)
        .take_while(|(a, b)| a == b)
        .count();
    (prefix, suffix)
}

/// Whether a scanned item is `old` (which lies before the edit, so its
/// bytes did not change): the same range and masks.
fn same_item(old: &Item, found: &scan::Item) -> bool {
    let at = old.range.start;
    old.range == found.range
        && old.masks.len() == found.masks.len()
        && old.masks.iter().zip(&found.masks).all(|(a, b)| a.start + at == b.start && a.end + at == b.end)
}

/// Parses an item's text, repairing what hcl-edit wrongly rejects, and in
/// an HCL1 file (`hcl1`: a Nomad variable specification) HCL1's dotted
/// attribute names.
fn parse_tree(parse_text: &str, hcl1: bool) -> Result<Body, hcl_edit::parser::Error> {
    deep::parse_body(parse_text).or_else(|e| {
        let undotted = || scan::undot_hcl1_names(parse_text).and_then(|t| deep::parse_body(&t).ok());
        repair(parse_text).or_else(|| hcl1.then(undotted).flatten()).ok_or(e)
    })
}

/// Whether the line holding `at` starts with a quoted attribute name
/// (`"rack" = "r1"`): HCL1, which Consul's and Nomad's agent configuration
/// files (and Nomad's `-hcl1` job files) are written in, accepts it; HCL2
/// does not.
fn hcl1_quoted_name(text: &str, at: usize) -> bool {
    let start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let line = text[start..].split('\n').next().unwrap_or("").trim_start();
    let Some(rest) = line.strip_prefix('"') else { return false };
    let Some(close) = rest.find('"') else { return false };
    let after = rest[close + 1..].trim_start();
    after.starts_with('=') && !after.starts_with("==")
}

/// Parses one item. A plain HCL file's item that fails on an HCL1 quoted
/// attribute name is said to be HCL1 (a hint), not a syntax error
/// (analysis.md: plain HCL). `hcl1`: the file is read as HCL1 (a Nomad
/// variable specification), whose names may hold dots.
/// Gives `items` (in order) their first lines, counted from `anchor`
/// (an offset before the first of them and the line breaks before it).
fn count_lines(text: &str, items: &mut [Item], anchor: (usize, usize)) {
    let (mut at, mut line) = anchor;
    for i in items {
        line += syntax::lines::line_breaks(text, at, i.range.start);
        at = i.range.start;
        i.line = line;
    }
}

fn parse_item(text: &str, found: &scan::Item, kind: super::FileKind, hcl1: bool) -> Item {
    let parse_text = found.parse_text(text);
    let masks: Arc<[Range<usize>]> = found
        .masks
        .iter()
        .map(|m| m.start.saturating_sub(found.range.start)..m.end.saturating_sub(found.range.start))
        .collect();
    let item = |tree, error| Item { id: next_id(), range: found.range.clone(), line: 0, tree, masks, error };
    match parse_tree(&parse_text, hcl1) {
        Ok(body) => item(Tree::Kept(Arc::new(body)), None),
        Err(e) => {
            let local = e.location().offset().min(parse_text.len());
            let mut at = found.range.start + local;
            while !text.is_char_boundary(at) {
                at -= 1;
            }
            // Underline to the end of the offending line (at least one char).
            let line_end = text.get(at..found.range.end).unwrap_or("").find('\n').map_or(found.range.end, |p| at + p);
            let end = if line_end > at { line_end } else { (at + 1).min(text.len()) };
            let end = (at..=end).rev().find(|&i| text.is_char_boundary(i)).unwrap_or(at);
            if kind == super::FileKind::Hcl && hcl1_quoted_name(text, at) {
                let message = "HCL1 syntax: a quoted attribute name, which HCL1 (Consul's and Nomad's agent configuration) accepts and HCL2 does not; this block is not analysed";
                let d =
                    Diagnostic::new(Code::Syntax, at..end, message).with_severity(syntax::diagnostic::Severity::Hint);
                return item(Tree::Broken, Some(Box::new(d)));
            }
            let message = format!("syntax error: {}", e.message());
            item(Tree::Broken, Some(Box::new(Diagnostic::new(Code::Syntax, at..end, message))))
        }
    }
}

/// Whether a file's items do not parse as HCL: nine in ten of them (at
/// least one) fail with an error. A file of another language is so: the
/// scanner finds an "item" per line or so, or one for a whole JSON object.
fn unparsed(items: &[Item]) -> bool {
    let failed = items.iter().filter(|i| failed(i)).count();
    failed >= 1 && failed * 10 >= items.len() * 9
}

fn failed(item: &Item) -> bool {
    item.error.as_deref().is_some_and(|d| d.severity == syntax::diagnostic::Severity::Error)
}

/// How many broken items a file that does not parse as HCL has before
/// they cost one diagnostic: a few are told one by one (a block being
/// typed breaks itself and the next), a cascade is not.
const COLLAPSED: usize = 8;

/// The syntax diagnostics of a file's items: one per broken item, or, for
/// a file that does not parse as HCL ([`unparsed`]) with [`COLLAPSED`]
/// broken items or more, one for the file (the first error, saying how many more items
/// fail), never a cascade; and whether they were made one.
fn syntax_diagnostics(items: &[Item]) -> (Vec<Diagnostic>, bool) {
    let all = items.iter().filter_map(|i| i.error.as_deref());
    let more = items.iter().filter(|i| failed(i)).count().saturating_sub(1);
    if more + 1 < COLLAPSED || !unparsed(items) {
        return (all.cloned().collect(), false);
    }
    let mut first = true;
    let one = all
        .filter(|d| d.severity != syntax::diagnostic::Severity::Error || std::mem::take(&mut first))
        .map(|d| {
            let mut d = d.clone();
            if d.severity == syntax::diagnostic::Severity::Error {
                d.message = format!(
                    "{} (and {more} more of the file's {} items do not parse: it does not read as HCL)",
                    d.message,
                    items.len()
                );
            }
            d
        })
        .collect();
    (one, true)
}

/// A same-length rewrite for valid HCL that hcl-edit rejects, tried only
/// after a parse failure: operator continuation lines.
fn repair(text: &str) -> Option<Body> {
    deep::parse_body(&scan::join_continuation_lines(text)?).ok()
}

/// The diagnostics of `docs[doc]` with their ranges, and those of their
/// related locations, in the offsets a user sees
/// ([`Document::shown_text`]: a JSON file's own); borrowed when no file
/// of the module is JSON.
pub fn shown_diagnostics<'a>(docs: &[Document], doc: usize, diagnostics: &'a [Diagnostic]) -> Cow<'a, [Diagnostic]> {
    let Some(own) = docs.get(doc) else { return Cow::Borrowed(diagnostics) };
    if docs.iter().all(|d| d.shown.is_none()) {
        return Cow::Borrowed(diagnostics);
    }
    let of = |p: &Option<std::path::PathBuf>| match p {
        None => Some(own),
        Some(p) => docs.iter().find(|d| &d.file.path == p),
    };
    let moved = diagnostics.iter().map(|d| {
        let mut d = d.clone();
        d.range = own.shown_range(&d.range);
        for r in &mut d.related {
            if let Some(at) = of(&r.path) {
                r.range = at.shown_range(&r.range);
            }
        }
        d
    });
    Cow::Owned(moved.collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn counted(d: &Document) -> usize {
        d.items.iter().filter(|i| i.kept()).count()
    }

    /// The count of items holding a tree follows edits, and dropping the
    /// trees in place leaves items that parse again to the same trees.
    #[test]
    fn kept_trees_are_counted_through_edits_and_dropped_in_place() {
        let path = std::path::PathBuf::from("/m/main.tf");
        let text: String = (0..50).map(|i| format!("locals {{\n  a{i} = {i}\n}}\n")).collect();
        let mut doc = Document::parse(SourceFile::new(path.clone(), text.as_str()).unwrap());
        assert_eq!((doc.kept_trees(), counted(&doc)), (50, 50));
        let shared = doc.clone();
        assert!(doc.drop_trees().is_none(), "items shared with another document stay");
        drop(shared);
        let trees = doc.drop_trees().expect("not shared");
        assert_eq!((trees.len(), doc.kept_trees(), counted(&doc)), (50, 0, 0));
        let mut text = text;
        for (k, at) in [5usize, 300, 301, 0, 700].into_iter().enumerate() {
            let new = if k % 2 == 0 { "}\nlocals {\n" } else { "# x\n" };
            text.insert_str(at, new);
            let file = SourceFile::new(path.clone(), text.as_str()).unwrap();
            doc = doc.edited_at(file, at..at, new.len());
            assert_eq!(doc.kept_trees(), counted(&doc), "after edit {k}");
        }
        let fresh = Document::parse(doc.file.clone());
        doc.drop_trees().expect("not shared");
        assert_eq!(doc.kept_trees(), 0);
        for (a, b) in doc.items.iter().zip(fresh.items.iter()) {
            assert_eq!(a.range, b.range);
            let tree = |i: &Item, d: &Document| i.body(&d.file.text).map(|t| t.to_string());
            assert_eq!(tree(a, &doc), tree(b, &fresh));
        }
    }

    const TEXT: &str = "variable \"a\" {\n  type = string\n}\n# note\nlocals {\n  x = [1,\n    2]\n  h = <<EOT\nbody }\nEOT\n}\n\
        resource \"r\" \"n\" {\n  v = 123456789012345678901234567890\n}\n/* c */ output \"o\" { value = 1 }\nz = 1 +\n  2\n";
    const SNIPPETS: &[&str] = &[
        "x",
        "}",
        "{",
        "\n",
        "#",
        "/*",
        "*/",
        "\"",
        "[",
        "(",
        "<<EOT\n",
        "\nEOT\n",
        "locals {\n",
        "\n}\n",
        " ",
        "= 1",
        "9999999999999999999999",
    ];

    /// What a parse is, ids aside: items' ranges, trees and errors.
    fn parsed(d: &Document) -> Vec<(Range<usize>, Option<String>, Option<String>)> {
        let tree = |i: &Item| i.body(&d.file.text).map(|t| t.to_string());
        d.items.iter().map(|i| (i.range.clone(), tree(i), i.error.as_ref().map(|e| format!("{e:?}")))).collect()
    }

    /// Random edits (at random bytes and at item boundaries; in comments,
    /// heredocs and brackets; opening and closing them) give the items a
    /// fresh parse gives, and each revision's lineage tells the truth.
    #[test]
    fn random_edits_equal_a_fresh_parse_and_their_lineage_holds() {
        let path = std::path::PathBuf::from("/m/main.tf");
        for seed in 1..=40 {
            let mut rng = types::testing::Rng::new(seed);
            let mut doc = Document::parse(SourceFile::new(path.clone(), TEXT).unwrap());
            let mut history: Vec<Document> = vec![doc.clone()];
            for step in 0..60 {
                let text = doc.file.text.to_string();
                let bounds: Vec<usize> = doc.items.iter().flat_map(|i| [i.range.start, i.range.end]).collect();
                let mut at = match rng.below(3) {
                    0 if !bounds.is_empty() => {
                        (bounds[rng.below(bounds.len())] + rng.below(3)).saturating_sub(1).min(text.len())
                    }
                    _ => rng.below(text.len() + 1),
                };
                while !text.is_char_boundary(at) {
                    at -= 1;
                }
                let mut end = if rng.below(3) == 0 { (at + rng.below(8)).min(text.len()) } else { at };
                while !text.is_char_boundary(end) {
                    end -= 1;
                }
                let insert = if rng.below(4) == 0 { "" } else { SNIPPETS[rng.below(SNIPPETS.len())] };
                let new = format!("{}{insert}{}", &text[..at], &text[end..]);
                let file = SourceFile::new(path.clone(), new.as_str()).unwrap();
                doc = doc.edited_at(file.clone(), at..end, insert.len());
                let fresh = Document::parse(file);
                let what = format!("seed {seed} step {step}: {insert:?} at {at}..{end} of {text:?}");
                assert_eq!(parsed(&doc), parsed(&fresh), "{what}");
                assert_eq!(doc.diagnostics, fresh.diagnostics, "{what}");
                assert_eq!(doc.kept_trees(), counted(&doc), "{what}");
                // Each item's first line, kept up by the edit, is counted afresh.
                for i in doc.items.iter() {
                    assert_eq!(i.line + 1, syntax::lines::line_col(&new, i.range.start).0, "{what}");
                }
                let o = rng.below(new.len() + 2);
                assert_eq!(doc.line(o), syntax::lines::line_col(&new, o).0, "{what} line of {o}");
                for old in &history {
                    let Some((front, back)) = doc.unchanged_since(old.revision()) else { continue };
                    let (o, n) = (&old.items, &doc.items);
                    assert!(front + back <= o.len().min(n.len()), "{what}");
                    let same = |a: &Item, b: &Item| a.id == b.id && a.range.len() == b.range.len();
                    assert!(
                        o[..front].iter().zip(&n[..front]).all(|(a, b)| same(a, b) && a.range == b.range),
                        "{what}"
                    );
                    assert!(o[o.len() - back..].iter().zip(&n[n.len() - back..]).all(|(a, b)| same(a, b)), "{what}");
                }
                history.push(doc.clone());
                if history.len() > 20 {
                    history.remove(0);
                }
                if rng.below(8) == 0 {
                    doc.drop_trees();
                }
            }
        }
    }

    /// An edit in an item keeps the item before it (not parsed again: its
    /// id stays), and tells the analysis which one item it replaced.
    /// Issue 43.2: a file of another language costs one diagnostic, and
    /// an edit into or out of one gives what parsing the new text gives.
    #[test]
    fn a_file_that_is_not_hcl_costs_one_diagnostic_through_edits() {
        let path = std::path::PathBuf::from("/m/secrets.tf");
        let vault = "$ANSIBLE_VAULT;1.1;AES256\n6338376338653965\n3138356163646232\n3964\n";
        let summary = |d: &Document| {
            let codes: Vec<_> = d.diagnostics.iter().map(|d| (d.code, d.range.clone())).collect();
            (d.items.len(), codes)
        };
        let doc = Document::parse(SourceFile::new(path.clone(), vault).unwrap());
        assert_eq!(summary(&doc), (0, vec![(Code::NotHcl, 0..25)]));
        // Typing into it, and out of it: as parsed afresh.
        let hcl = "a = 1\nb = 2\n";
        for (from, to) in [(vault, hcl), (hcl, vault), (vault, "$ANSIBLE_VAULT;1.1;AES256\n63\n")] {
            let before = Document::parse(SourceFile::new(path.clone(), from).unwrap());
            let edited = before.edit(SourceFile::new(path.clone(), to).unwrap());
            let fresh = Document::parse(SourceFile::new(path.clone(), to).unwrap());
            assert_eq!(summary(&edited), summary(&fresh), "{from:?} -> {to:?}");
        }
        // Lines of no language: one syntax error, saying how many more fail.
        let script = "set -eu\necho \"deploying\"\nterraform init\nterraform plan\nterraform apply\nrm -f x\necho done\nexit 0\n";
        let doc = Document::parse(SourceFile::new(path.clone(), script).unwrap());
        assert_eq!(doc.diagnostics.len(), 1, "{:?}", doc.diagnostics);
        assert!(doc.diagnostics[0].message.contains("and 7 more of the file's 8 items do not parse"));
        let yaml = "region: eu-west-1\nzones:\n  - a\n";
        let typed = doc.edit(SourceFile::new(path.clone(), yaml).unwrap());
        assert_eq!(summary(&typed).1[0].0, Code::NotHcl);
        // Broken HCL keeps an error per broken block.
        let broken = "a = 1\nb = = 2\nc = 3\nd = [\n";
        let doc = Document::parse(SourceFile::new(path.clone(), broken).unwrap());
        assert_eq!(doc.diagnostics.iter().filter(|d| d.code == Code::Syntax).count(), 2, "{:?}", doc.diagnostics);
    }

    #[test]
    fn an_edit_replaces_only_the_items_it_touches() {
        let path = std::path::PathBuf::from("/m/main.tf");
        let text = "a = 1\nb = 2\nc = 3\n";
        let doc = Document::parse(SourceFile::new(path.clone(), text).unwrap());
        let edited = doc.edit(SourceFile::new(path.clone(), "a = 1\nb = 22\nc = 3\n").unwrap());
        let ids = |d: &Document| d.items.iter().map(|i| i.id).collect::<Vec<_>>();
        let (was, is) = (ids(&doc), ids(&edited));
        assert_eq!((was[0], was[2]), (is[0], is[2]));
        assert_ne!(was[1], is[1]);
        assert_eq!(edited.unchanged_since(doc.revision()), Some((1, 1)));
        // An open bracket joins the next item to the edited one: both replaced.
        let joined = edited.edit(SourceFile::new(path, "a = 1\nb = [22\nc = 3]\n").unwrap());
        assert_eq!(joined.items.len(), 2);
        assert_eq!(joined.unchanged_since(doc.revision()), Some((1, 0)));
        assert_eq!(joined.unchanged_since(joined.revision()), Some((2, 0)));
        assert_eq!(doc.unchanged_since(joined.revision()), None);
    }

    /// A JSON file's document holds its lowering (syntax::json); read in
    /// another dialect (the server's settings changed) it is not lowered
    /// twice, and an edit re-reads the JSON whole.
    #[test]
    fn json_documents_change_dialect_and_edits_without_lowering_twice() {
        let path = std::path::PathBuf::from("/m/variables.tf.json");
        let json = "{\"variable\": {\"a\": {\"type\": \"string\"}}}\n";
        let doc = Document::parse(SourceFile::new(path.clone(), json).unwrap());
        assert!(doc.diagnostics.is_empty(), "{:?}", doc.diagnostics);
        assert_eq!((doc.items.len(), doc.file.path.as_path()), (1, path.as_path()));
        let tofu = doc.in_dialect(syntax::Dialect::OpenTofu);
        assert!(tofu.diagnostics.is_empty(), "{:?}", tofu.diagnostics);
        assert_eq!((tofu.items.len(), tofu.file.dialect), (1, syntax::Dialect::OpenTofu));
        let two = "{\"variable\": {\"a\": {}, \"b\": {}}}\n";
        let edited = doc.edit(SourceFile::new(path.clone(), two).unwrap());
        assert_eq!((edited.items.len(), edited.diagnostics.len()), (2, 0));
        let broken = edited.edit(SourceFile::new(path, "{\"variable\": }").unwrap());
        assert_eq!((broken.items.len(), broken.diagnostics[0].range.clone()), (0, 13..14));
    }
}
