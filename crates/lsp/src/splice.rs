//! Large lists kept out of tower-lsp-server's output: pulled diagnostics
//! and whole-document semantic tokens.
//!
//! A handler's answer is a typed value that tower-lsp-server turns into a
//! `serde_json::Value` and then into bytes: for a 10 MB file's 18,000
//! diagnostics that costs more than the analysis, and its two million
//! semantic tokens become ten million `Value`s (320 MB). The list is
//! written as JSON once (the publication's, `publish.rs`; the tokens',
//! `handlers/semantic_tokens.rs`), so over stdio the handler answers with
//! an empty list and leaves the JSON here under the answer's result id
//! and field, and the transport puts it into the response as it passes.
//! In process (no transport) the list is in the answer instead.

use analysis::sync::Locked;
use std::sync::Mutex;

use super::body::{Body, Chunk};

/// Lists shorter than this are decoded into the answer.
pub const MIN_SPLICED: usize = 64 << 10;

/// How many lists wait at most: one whose answer never came (a cancelled
/// request) is dropped, not kept.
const MAX_WAITING: usize = 8;

#[derive(Default)]
pub struct Splices {
    lists: Mutex<Vec<Waiting>>,
}

/// A list waiting for its answer: the answer's result id, the field the
/// list is put in (`items`, `data`), the list.
struct Waiting {
    result_id: String,
    field: Field,
    list: Body,
}

/// A field of an answer that holds a list, empty in the answer as the
/// handler wrote it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Field {
    /// A pulled diagnostic report's `items`.
    Items,
    /// Semantic tokens' `data`.
    Data,
}

impl Field {
    fn empty(self) -> &'static [u8] {
        match self {
            Field::Items => br#""items":[]"#,
            Field::Data => br#""data":[]"#,
        }
    }

    fn key(self) -> &'static [u8] {
        let empty = self.empty();
        &empty[..empty.len() - 2]
    }
}

impl Splices {
    /// Keeps the list (a JSON array) for the response with this result id,
    /// to be put in as its `field`.
    pub fn put(&self, result_id: String, field: Field, list: Body) {
        let mut lists = self.lists.locked();
        lists.push(Waiting { result_id, field, list });
        if lists.len() > MAX_WAITING {
            lists.remove(0);
        }
    }

    /// A frame for the client, with its list put in when it is the answer
    /// one waits for (its pieces, not copied).
    pub fn fill(&self, frame: Vec<u8>) -> Body {
        let mut lists = self.lists.locked();
        if lists.is_empty() || frame.len() > 4096 {
            return frame.into();
        }
        let found = lists.iter().enumerate().find_map(|(k, w)| {
            let key = format!(r#""resultId":"{}""#, w.result_id);
            memchr::memmem::find(&frame, key.as_bytes())?;
            Some((k, memchr::memmem::find(&frame, w.field.empty())?))
        });
        let Some((k, at)) = found else { return frame.into() };
        let Waiting { field, list, .. } = lists.remove(k);
        drop(lists);
        let mut chunks = Vec::with_capacity(list.chunks().len() + 3);
        chunks.push(Chunk::new(frame[..at].to_vec()));
        chunks.push(Chunk::Static(field.key()));
        chunks.extend_from_slice(list.chunks());
        chunks.push(Chunk::new(frame[at + field.empty().len()..].to_vec()));
        Body::new(chunks)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_waiting_list_goes_into_its_answer_only() {
        let s = Splices::default();
        let list = [Chunk::Static(b"["), Chunk::new(br#"{"a":1},{"b":2},"#.to_vec()).trimmed(), Chunk::Static(b"]")];
        s.put("n-7".into(), Field::Items, Body::new(list.to_vec()));
        let other = br#"{"jsonrpc":"2.0","result":{"kind":"full","resultId":"n-8","items":[]},"id":1}"#.to_vec();
        assert_eq!(s.fill(other.clone()).to_vec(), other);
        let mine = br#"{"jsonrpc":"2.0","result":{"kind":"full","resultId":"n-7","items":[]},"id":2}"#.to_vec();
        let filled: serde_json::Value = serde_json::from_slice(&s.fill(mine.clone()).to_vec()).unwrap();
        assert_eq!(filled["result"]["items"], serde_json::json!([{"a": 1}, {"b": 2}]));
        assert_eq!(filled["id"], 2);
        // Taken once.
        assert_eq!(s.fill(mine.clone()).to_vec(), mine);
    }

    #[test]
    fn a_list_goes_into_its_own_field_only() {
        let s = Splices::default();
        s.put("7".into(), Field::Data, Body::new(vec![Chunk::Static(b"[1,2,3,4,5]")]));
        // An answer with the same result id but another field is not it.
        let report = br#"{"jsonrpc":"2.0","result":{"kind":"full","resultId":"7","items":[]},"id":1}"#.to_vec();
        assert_eq!(s.fill(report.clone()).to_vec(), report);
        let tokens = br#"{"jsonrpc":"2.0","result":{"resultId":"7","data":[]},"id":2}"#.to_vec();
        let filled: serde_json::Value = serde_json::from_slice(&s.fill(tokens).to_vec()).unwrap();
        assert_eq!(filled["result"]["data"], serde_json::json!([1, 2, 3, 4, 5]));
    }
}
