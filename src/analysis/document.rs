//! A file as separately parsed top-level items: one syntax error costs one item.

use std::ops::Range;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use hcl_edit::structure::Body;

use super::SourceFile;
use crate::diagnostic::{Code, Diagnostic};
use crate::syntax::constant::Source;
use crate::syntax::scan;

/// Names one parse of one item. An item that an edit only moves keeps its
/// id, so analysis results remembered for it stay valid; a re-parsed item
/// gets a new one.
pub type ItemId = u64;

fn next_id() -> ItemId {
    static NEXT: AtomicU64 = AtomicU64::new(1);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

/// One top-level block or attribute and its parse. The tree's spans are
/// relative to the item's start, so moving the item costs nothing.
#[derive(Clone, Debug)]
pub struct Item {
    pub id: ItemId,
    pub range: Range<usize>,
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
                parse_tree(&parse_text).ok().map(Arc::new)
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
}

impl Document {
    pub fn parse(file: SourceFile) -> Document {
        let text = file.text.clone();
        // Items parse independently: spread them over the cores.
        use rayon::prelude::*;
        let found = scan::split(&text);
        let items: Vec<Item> = if found.len() > 64 {
            found.par_iter().with_min_len(32).map(|f| parse_item(&text, f)).collect()
        } else {
            found.iter().map(|f| parse_item(&text, f)).collect()
        };
        let diagnostics = items.iter().filter_map(|i| i.error.as_deref().cloned()).collect();
        let kept = items.iter().filter(|i| i.kept()).count();
        Document { file, items: Arc::new(items), diagnostics, kept }
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
        if self.file.kind != file.kind || self.file.dialect != file.dialect {
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
        let items = Arc::make_mut(&mut self.items);
        let resync = resync.unwrap_or(items.len());
        for i in &mut items[resync..] {
            i.range = shift(i.range.start)..shift(i.range.end);
            if let Some(d) = &mut i.error {
                d.range = shift(d.range.start)..shift(d.range.end);
            }
        }
        let fresh: Vec<Item> = found.iter().map(|f| parse_item(&text, f)).collect();
        // A file without syntax errors stays so unless a new item has one
        // (its tens of thousands of items are not visited again).
        let clean = self.diagnostics.is_empty() && fresh.iter().all(|i| i.error.is_none());
        let kept = self.kept - items[keep..resync].iter().filter(|i| i.kept()).count()
            + fresh.iter().filter(|i| i.kept()).count();
        items.splice(keep..resync, fresh);
        let diagnostics =
            if clean { Vec::new() } else { items.iter().filter_map(|i| i.error.as_deref().cloned()).collect() };
        Document { file, items: self.items, diagnostics, kept }
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

/// Parses an item's text, repairing what hcl-edit wrongly rejects.
fn parse_tree(parse_text: &str) -> Result<Body, hcl_edit::parser::Error> {
    hcl_edit::parser::parse_body(parse_text).or_else(|e| repair(parse_text).ok_or(e))
}

/// Parses one item.
fn parse_item(text: &str, found: &scan::Item) -> Item {
    let parse_text = found.parse_text(text);
    let masks: Arc<[Range<usize>]> = found
        .masks
        .iter()
        .map(|m| m.start.saturating_sub(found.range.start)..m.end.saturating_sub(found.range.start))
        .collect();
    let item = |tree, error| Item { id: next_id(), range: found.range.clone(), tree, masks, error };
    match parse_tree(&parse_text) {
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
            let message = format!("syntax error: {}", e.message());
            item(Tree::Broken, Some(Box::new(Diagnostic::new(Code::Syntax, at..end, message))))
        }
    }
}

/// A same-length rewrite for valid HCL that hcl-edit rejects, tried only
/// after a parse failure: operator continuation lines.
fn repair(text: &str) -> Option<Body> {
    hcl_edit::parser::parse_body(&scan::join_continuation_lines(text)?).ok()
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
}
