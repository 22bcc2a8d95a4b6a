//! Large pulled diagnostic lists kept out of tower-lsp-server's output.
//!
//! A handler's answer is a typed value that tower-lsp-server turns into a
//! `serde_json::Value` and then into bytes: for a 10 MB file's 18,000
//! diagnostics that costs more than the analysis. The list is already JSON
//! (the publication's, `publish.rs`), so over stdio the handler answers
//! with an empty list and leaves the JSON here under the report's result
//! id, and the transport puts it into the response as it passes. In
//! process (no transport) the list is decoded into the answer instead.

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
    lists: Mutex<Vec<(String, Body)>>,
}

const EMPTY: &[u8] = br#""items":[]"#;

impl Splices {
    /// Keeps the list (a JSON array) for the response with this result id.
    pub fn put(&self, result_id: String, list: Body) {
        let mut lists = self.lists.locked();
        lists.push((result_id, list));
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
        let found = lists.iter().position(|(id, ..)| {
            let key = format!(r#""resultId":"{id}""#);
            memchr::memmem::find(&frame, key.as_bytes()).is_some()
        });
        let Some(k) = found else { return frame.into() };
        let Some(at) = memchr::memmem::find(&frame, EMPTY) else { return frame.into() };
        let (_, list) = lists.remove(k);
        drop(lists);
        let mut chunks = Vec::with_capacity(list.chunks().len() + 3);
        chunks.push(Chunk::new(frame[..at].to_vec()));
        chunks.push(Chunk::Static(br#""items":"#));
        chunks.extend_from_slice(list.chunks());
        chunks.push(Chunk::new(frame[at + EMPTY.len()..].to_vec()));
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
        s.put("n-7".into(), Body::new(list.to_vec()));
        let other = br#"{"jsonrpc":"2.0","result":{"kind":"full","resultId":"n-8","items":[]},"id":1}"#.to_vec();
        assert_eq!(s.fill(other.clone()).to_vec(), other);
        let mine = br#"{"jsonrpc":"2.0","result":{"kind":"full","resultId":"n-7","items":[]},"id":2}"#.to_vec();
        let filled: serde_json::Value = serde_json::from_slice(&s.fill(mine.clone()).to_vec()).unwrap();
        assert_eq!(filled["result"]["items"], serde_json::json!([{"a": 1}, {"b": 2}]));
        assert_eq!(filled["id"], 2);
        // Taken once.
        assert_eq!(s.fill(mine.clone()).to_vec(), mine);
    }
}
