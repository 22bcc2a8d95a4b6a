//! The lexical tokens of a document item by item: each top-level item
//! classified on its own from the top level (where the document's item
//! scan found it starts), the text between items (blank lines and
//! comments) on its own. So a broken item colours only itself, a range
//! costs its items, and an item's tokens can be remembered under its id
//! ([`TokenCache`]): an edit gives new ids only to the items it re-parsed,
//! so the whole document's tokens after a keystroke classify one item and
//! copy the rest.

use std::collections::HashMap;
use std::ops::Range;

use analysis::document::ItemId;
use analysis::module::ModuleAnalysis;
use analysis::{Document, FileKind};
use syntax::Dialect;

use super::classify::{classify_in, Scratch};
use super::{SemanticToken, TokenKind};

/// A token relative to its item's start: 12 bytes where a
/// [`SemanticToken`] takes 24 (a 10 MB file has a million of them).
#[derive(Clone, Copy)]
struct Rel {
    start: u32,
    len: u32,
    kind: TokenKind,
    modifiers: u8,
}

impl Rel {
    /// Token `t` of an item that starts at `base`.
    fn of(t: &SemanticToken, base: usize) -> Rel {
        Rel { start: (t.range.start - base) as u32, len: t.range.len() as u32, kind: t.kind, modifiers: t.modifiers }
    }
}

/// The items' tokens remembered by item id.
type Memo = HashMap<ItemId, (Box<[Rel]>, u64)>;

/// A document's tokens remembered between requests, item by item, and the
/// buffers they are put together in. One per open document; any document
/// may be given (ids are unique across documents, and a change of file
/// kind or dialect forgets everything).
#[derive(Default)]
pub struct TokenCache {
    key: Option<(FileKind, Dialect)>,
    items: Memo,
    /// Stamps the entries the last call used; the others are dropped.
    generation: u64,
    scratch: Scratch,
    tokens: Vec<SemanticToken>,
    classified: usize,
}

impl TokenCache {
    /// The tokens of document `doc`, as [`super::semantic_tokens`] gives
    /// them, classifying only the items this cache has not seen.
    pub fn tokens(&mut self, docs: &[Document], analysis: &ModuleAnalysis, doc: usize) -> &[SemanticToken] {
        self.classified = 0;
        let mut tokens = std::mem::take(&mut self.tokens);
        tokens.clear();
        let Some(d) = docs.get(doc).filter(|d| !syntax::json::is_json_path(&d.file.path)) else {
            self.tokens = super::semantic_tokens(docs, analysis, doc);
            return &self.tokens;
        };
        let key = (d.file.kind, d.file.dialect);
        if self.key != Some(key) {
            self.items.clear();
            self.key = Some(key);
        }
        self.generation += 1;
        let parallel = prefill(&mut self.items, d, self.generation);
        let mut w = Walk { d, scratch: &mut self.scratch, out: &mut tokens, classified: 0 };
        w.items(0..d.items.len(), 0..d.file.text.len(), Some((&mut self.items, self.generation)));
        self.classified = parallel + w.classified;
        let generation = self.generation;
        self.items.retain(|_, e| e.1 == generation);
        self.tokens = super::merge(tokens, super::type_tokens(analysis, doc));
        &self.tokens
    }

    /// The tokens the last [`TokenCache::tokens`] gave, taken (the next
    /// call puts its own in a new buffer).
    pub fn take_tokens(&mut self) -> Vec<SemanticToken> {
        std::mem::take(&mut self.tokens)
    }

    /// Gives the cache a buffer for its next tokens (the tokens it gave
    /// before, once used): a 10 MB file's 29 MB are not faulted in anew.
    pub fn give_back(&mut self, buffer: Vec<SemanticToken>) {
        if buffer.capacity() > self.tokens.capacity() {
            self.tokens = buffer;
        }
    }

    /// How many items the last [`TokenCache::tokens`] classified: the
    /// rest were remembered (the text between items, blank lines and
    /// comments, is scanned every time).
    pub fn classified(&self) -> usize {
        self.classified
    }
}

/// Below this many items to classify, the walk classifies them itself:
/// a keystroke's one item is not worth the pool's threads.
const PARALLEL_FROM: usize = 64;

/// Classifies on rayon's pool the items `memo` lacks, when there are at
/// least [`PARALLEL_FROM`] of them (a document's first answer: all of its
/// items), and remembers them as the walk would: the same items (those
/// the walk would remember, in place and whole), each classified alone
/// from its own start, so the walk then copies them in order as it
/// copies remembered ones and the tokens are the one-thread walk's.
/// Returns how many it classified.
fn prefill(memo: &mut Memo, d: &Document, generation: u64) -> usize {
    use rayon::prelude::*;
    let text = d.file.text.as_str();
    let mut at = 0;
    let mut todo = Vec::new();
    for item in d.items.iter() {
        // The walk's clamping: an item it would not remember is left to it.
        let start = item.range.start.max(at);
        let r = start..item.range.end.max(start);
        at = r.end;
        if r == item.range && !memo.contains_key(&item.id) {
            if let Some(src) = text.get(r) {
                todo.push((item.id, src));
            }
        }
    }
    if todo.len() < PARALLEL_FROM {
        return 0;
    }
    let (kind, dialect) = (d.file.kind, d.file.dialect);
    let done: Vec<(ItemId, Box<[Rel]>)> = todo
        .par_iter()
        .map_init(Scratch::default, |scratch, &(id, src)| {
            classify_in(src, kind, dialect, scratch);
            (id, scratch.out.iter().map(|t| Rel::of(t, 0)).collect())
        })
        .collect();
    memo.extend(done.into_iter().map(|(id, rel)| (id, (rel, generation))));
    todo.len()
}

/// The lexical tokens of `d`'s items `items` and of the text between
/// them within `span` (from its start to the first item, from the last
/// item to its end), in order.
pub(super) fn lexical(d: &Document, items: Range<usize>, span: Range<usize>) -> Vec<SemanticToken> {
    let mut out = Vec::new();
    Walk { d, scratch: &mut Scratch::default(), out: &mut out, classified: 0 }.items(items, span, None);
    out
}

struct Walk<'a> {
    d: &'a Document,
    scratch: &'a mut Scratch,
    out: &'a mut Vec<SemanticToken>,
    classified: usize,
}

impl Walk<'_> {
    fn items(&mut self, items: Range<usize>, span: Range<usize>, mut memo: Option<(&mut Memo, u64)>) {
        let text = self.d.file.text.as_str();
        let mut at = span.start;
        for item in &self.d.items[items] {
            // (Items are in order and apart; were they not, no byte is read twice.)
            let start = item.range.start.max(at);
            let r = start..item.range.end.max(start);
            self.between(at..r.start);
            at = r.end;
            self.classified += 1;
            let Some((memo, generation)) = memo.as_mut() else {
                self.classify(r);
                continue;
            };
            if let Some(e) = memo.get_mut(&item.id).filter(|_| r == item.range) {
                self.classified -= 1;
                e.1 = *generation;
                self.out.extend(e.0.iter().map(|t| {
                    let start = r.start + t.start as usize;
                    SemanticToken { range: start..start + t.len as usize, kind: t.kind, modifiers: t.modifiers }
                }));
                continue;
            }
            let from = self.out.len();
            self.classify(r.clone());
            let rel = self.out[from..].iter().map(|t| Rel::of(t, r.start)).collect();
            if r == item.range && text.get(r).is_some() {
                memo.insert(item.id, (rel, *generation));
            }
        }
        self.between(at..span.end.max(at));
    }

    /// The text between items: blank lines cost nothing, comments are
    /// scanned.
    fn between(&mut self, r: Range<usize>) {
        let text = self.d.file.text.as_bytes();
        if text.get(r.clone()).is_some_and(|b| b.iter().any(|c| !c.is_ascii_whitespace())) {
            self.classify(r);
        }
    }

    fn classify(&mut self, r: Range<usize>) {
        let Some(src) = self.d.file.text.get(r.clone()) else { return };
        classify_in(src, self.d.file.kind, self.d.file.dialect, self.scratch);
        self.out.extend(self.scratch.out.iter().map(|t| SemanticToken {
            range: t.range.start + r.start..t.range.end + r.start,
            kind: t.kind,
            modifiers: t.modifiers,
        }));
    }
}
