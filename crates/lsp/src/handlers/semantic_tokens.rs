//! `textDocument/semanticTokens/full`, `…/full/delta` and `…/range`.
//!
//! A full answer is remembered per document under a result id, so the next
//! `full/delta` sends only the run of tokens that changed (one edit: the
//! tokens between the common head and tail). What is remembered is
//! bounded ([`Previous`]): a forgotten id gets full tokens again, as LSP
//! allows. Each document's tokens are also remembered item by item
//! (`ide::TokenCache`), so a full answer after a keystroke classifies the
//! edited item only.

use std::collections::VecDeque;

use super::prelude::*;
use crate::body::{Body, Chunk};
use crate::splice;

/// At most this many documents' tokens are remembered…
const DOCUMENTS: usize = 16;
/// …and at most this many tokens in all (2 M is a 10 MB file's; 40 MB).
const TOKENS: usize = 2_000_000;

/// The last full tokens sent per document, newest last, and the
/// documents' item caches and encodings (bounded alike).
#[derive(Default)]
pub(crate) struct Previous {
    entries: VecDeque<(Uri, String, Arc<Vec<SemanticToken>>)>,
    next_id: u64,
    caches: VecDeque<(Uri, Cache)>,
}

/// A document's tokens item by item, and as last encoded.
#[derive(Default)]
struct Cache {
    items: ide::TokenCache,
    encoded: Option<crate::encoded::Encoded>,
}

impl Previous {
    /// Remembers `data` as `uri`'s latest tokens; returns its result id.
    fn remember(&mut self, uri: &Uri, data: Arc<Vec<SemanticToken>>) -> String {
        self.next_id += 1;
        let id = self.next_id.to_string();
        self.entries.retain(|(u, _, _)| u != uri);
        self.entries.push_back((uri.clone(), id.clone(), data));
        while self.entries.len() > DOCUMENTS
            || self.entries.len() > 1 && self.entries.iter().map(|e| e.2.len()).sum::<usize>() > TOKENS
        {
            self.entries.pop_front();
        }
        id
    }

    fn get(&self, uri: &Uri, id: &str) -> Option<Arc<Vec<SemanticToken>>> {
        self.entries.iter().find(|(u, i, _)| u == uri && i == id).map(|e| e.2.clone())
    }

    /// `uri`'s item cache, taken out while a request uses it (another
    /// request at the same time starts an empty one).
    fn take_cache(&mut self, uri: &Uri) -> Cache {
        let at = self.caches.iter().position(|(u, _)| u == uri);
        at.and_then(|k| self.caches.remove(k)).map(|(_, c)| c).unwrap_or_default()
    }

    fn put_cache(&mut self, uri: Uri, cache: Cache) {
        self.caches.retain(|(u, _)| *u != uri);
        self.caches.push_back((uri, cache));
        let size = |c: &Cache| c.encoded.as_ref().map_or(0, |e| e.data.len());
        while self.caches.len() > DOCUMENTS
            || self.caches.len() > 1 && self.caches.iter().map(|c| size(&c.1)).sum::<usize>() > TOKENS
        {
            self.caches.pop_front();
        }
    }
}

/// The document's tokens, encoded; `within` a range of its text.
async fn encoded(b: &Backend, uri: &Uri, within: Option<Range>) -> Result<Option<Arc<Vec<SemanticToken>>>> {
    let Some(snap) = b.snapshot(uri).await else { return Ok(None) };
    let (previous, uri) = (b.tokens.clone(), uri.clone());
    let data = blocking(move || {
        let within = within.map(|r| {
            from_proto::offset(&snap.rope, r.start, snap.enc)..from_proto::offset(&snap.rope, r.end, snap.enc)
        });
        let d = &snap.docs[snap.index];
        if within.is_none() && !syntax::json::is_json_path(&d.file.path) {
            let mut cache = previous.locked().take_cache(&uri);
            cache.items.tokens(&snap.docs, &snap.analysis(), snap.index);
            let tokens = cache.items.take_tokens();
            let (encoded, spare) = crate::encoded::encode(cache.encoded.take(), d, tokens, snap.enc);
            cache.items.give_back(spare.unwrap_or_default());
            let data = encoded.data.clone();
            cache.encoded = Some(encoded);
            previous.locked().put_cache(uri, cache);
            return data;
        }
        // In the text the user sees (a JSON file's own: a type expression
        // in a JSON string is coloured where it is).
        let mut tokens = match &within {
            // (A JSON file's range is in its own offsets, not the lowering's.)
            Some(r) if !syntax::json::is_json_path(&d.file.path) => {
                ide::semantic_tokens_in(&snap.docs, &snap.analysis(), snap.index, r.clone())
            }
            _ => ide::semantic_tokens(&snap.docs, &snap.analysis(), snap.index),
        };
        if syntax::json::is_json_path(&d.file.path) {
            for t in &mut tokens {
                t.range = d.shown_range(&t.range);
            }
            tokens.retain(|t| !t.range.is_empty());
            tokens.sort_by_key(|t| (t.range.start, t.range.end));
            tokens.dedup_by(|a, b| a.range.start < b.range.end);
        }
        Arc::new(to_proto::semantic_tokens(d.shown_text().as_str(), &tokens, snap.enc, within))
    })
    .await?;
    Ok(Some(data))
}

pub(crate) async fn semantic_tokens_full(
    b: &Backend,
    params: SemanticTokensParams,
) -> Result<Option<SemanticTokensResult>> {
    let uri = params.text_document.uri;
    let Some(data) = encoded(b, &uri, None).await? else { return Ok(None) };
    let id = b.tokens.locked().remember(&uri, data.clone());
    Ok(Some(SemanticTokensResult::Tokens(answer(b, id, &data))))
}

pub(crate) async fn semantic_tokens_full_delta(
    b: &Backend,
    params: SemanticTokensDeltaParams,
) -> Result<Option<SemanticTokensFullDeltaResult>> {
    let uri = params.text_document.uri;
    let Some(data) = encoded(b, &uri, None).await? else { return Ok(None) };
    let (before, id) = {
        let mut previous = b.tokens.locked();
        (previous.get(&uri, &params.previous_result_id), previous.remember(&uri, data.clone()))
    };
    let Some(before) = before else {
        return Ok(Some(SemanticTokensFullDeltaResult::Tokens(answer(b, id, &data))));
    };
    let edits = delta(&before, &data).into_iter().collect();
    Ok(Some(SemanticTokensFullDeltaResult::TokensDelta(SemanticTokensDelta { result_id: Some(id), edits })))
}

pub(crate) async fn semantic_tokens_range(
    b: &Backend,
    params: SemanticTokensRangeParams,
) -> Result<Option<SemanticTokensRangeResult>> {
    let Some(data) = encoded(b, &params.text_document.uri, Some(params.range)).await? else { return Ok(None) };
    // (A range's answer has no use for a result id: one is given only to
    // find a large answer's spliced data.)
    let id = (b.direct && data.len() >= SPLICED_TOKENS).then(|| {
        let mut previous = b.tokens.locked();
        previous.next_id += 1;
        format!("range-{}", previous.next_id)
    });
    let tokens = match id {
        Some(id) => answer(b, id, &data),
        None => SemanticTokens { result_id: None, data: Arc::unwrap_or_clone(data) },
    };
    Ok(Some(SemanticTokensRangeResult::Tokens(tokens)))
}

/// Answers with more tokens than this are spliced in as JSON (`splice.rs`).
const SPLICED_TOKENS: usize = splice::MIN_SPLICED / 16;

/// The answer of `data` under result id `id`. Over stdio a large one's
/// integers are written as JSON here and put in by the transport
/// (`splice.rs`): tower-lsp-server would make a `serde_json::Value` of
/// each (ten million at 10 MB) and copy the kept tokens first.
fn answer(b: &Backend, id: String, data: &[SemanticToken]) -> SemanticTokens {
    if b.direct && data.len() >= SPLICED_TOKENS {
        b.splices.put(id.clone(), splice::Field::Data, Body::new(vec![Chunk::new(json(data))]));
        return SemanticTokens { result_id: Some(id), data: Vec::new() };
    }
    SemanticTokens { result_id: Some(id), data: data.to_vec() }
}

/// The tokens' integers as a JSON array, as serde_json writes them
/// (public for the latency benchmark, which times it in process).
pub fn json(data: &[SemanticToken]) -> Vec<u8> {
    // Most integers are below 100 (deltas, lengths, kinds): ~3 bytes each.
    let mut out = Vec::with_capacity(data.len() * 16 + 2);
    out.push(b'[');
    let mut digits = itoa::Buffer::new();
    for t in data {
        for n in [t.delta_line, t.delta_start, t.length, t.token_type, t.token_modifiers_bitset] {
            match n {
                0..=9 => out.extend_from_slice(&[b'0' + n as u8, b',']),
                10..=99 => out.extend_from_slice(&[b'0' + (n / 10) as u8, b'0' + (n % 10) as u8, b',']),
                _ => {
                    out.extend_from_slice(digits.format(n).as_bytes());
                    out.push(b',');
                }
            }
        }
    }
    if out.len() > 1 {
        out.pop();
    }
    out.push(b']');
    out
}

/// The one edit that turns `old` into `new`: what lies between their
/// common head and tail (`start` and `deleteCount` count integers, five
/// a token); none when they are equal.
fn delta(old: &[SemanticToken], new: &[SemanticToken]) -> Option<SemanticTokensEdit> {
    let head = old.iter().zip(new).take_while(|(a, b)| a == b).count();
    let tail = old[head..].iter().rev().zip(new[head..].iter().rev()).take_while(|(a, b)| a == b).count();
    let (removed, added) = (old.len() - head - tail, &new[head..new.len() - tail]);
    (removed > 0 || !added.is_empty()).then(|| SemanticTokensEdit {
        start: (head * 5) as u32,
        delete_count: (removed * 5) as u32,
        data: Some(added.to_vec()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(line: u32, len: u32) -> SemanticToken {
        SemanticToken { delta_line: line, delta_start: 0, length: len, token_type: 0, token_modifiers_bitset: 0 }
    }

    #[test]
    fn a_delta_is_the_run_between_the_common_ends() {
        let old = [t(0, 1), t(1, 2), t(1, 3), t(1, 4)];
        let new = [t(0, 1), t(1, 9), t(1, 8), t(1, 3), t(1, 4)];
        let e = delta(&old, &new).unwrap();
        assert_eq!((e.start, e.delete_count), (5, 5));
        assert_eq!(e.data.unwrap(), [t(1, 9), t(1, 8)]);
        assert!(delta(&old, &old).is_none());
        // The tail is not counted twice when one list is the other's head.
        let e = delta(&old[..2], &old).unwrap();
        assert_eq!((e.start, e.delete_count, e.data.unwrap().len()), (10, 0, 2));
    }

    #[test]
    fn tokens_are_written_as_serde_json_writes_them() {
        let data = [t(0, 1), t(12, 345), t(1_000_000, 99), t(u32::MAX, 10)];
        let typed = serde_json::to_value(SemanticTokens { result_id: None, data: data.to_vec() }).unwrap();
        assert_eq!(serde_json::from_slice::<serde_json::Value>(&json(&data)).unwrap(), typed["data"]);
        assert_eq!(json(&[]), b"[]");
    }
}
