//! Large pulled diagnostic lists kept out of tower-lsp-server's output.
//!
//! A handler's answer is a typed value that tower-lsp-server turns into a
//! `serde_json::Value` and then into bytes: for a 10 MB file's 18,000
//! diagnostics that costs more than the analysis. The list is already JSON
//! (the publication's, `publish.rs`), so over stdio the handler answers
//! with an empty list and leaves the JSON here under the report's result
//! id, and the transport puts it into the response as it passes. In
//! process (no transport) the list is decoded into the answer instead.

use std::ops::Range;
use std::sync::Mutex;

use super::outbox::Body;

/// Lists shorter than this are decoded into the answer.
pub const MIN_SPLICED: usize = 64 << 10;

/// How many lists wait at most: one whose answer never came (a cancelled
/// request) is dropped, not kept.
const MAX_WAITING: usize = 8;

#[derive(Default)]
pub struct Splices {
    lists: Mutex<Vec<(String, Body, Range<usize>)>>,
}

const EMPTY: &[u8] = br#""items":[]"#;

impl Splices {
    /// Keeps the list `body[range]` for the response with this result id.
    pub fn put(&self, result_id: String, body: Body, range: Range<usize>) {
        let mut lists = self.lists.lock().unwrap_or_else(|e| e.into_inner());
        lists.push((result_id, body, range));
        if lists.len() > MAX_WAITING {
            lists.remove(0);
        }
    }

    /// A frame for the client, with its list put in when it is the answer
    /// one waits for.
    pub fn fill(&self, frame: Vec<u8>) -> Vec<u8> {
        let mut lists = self.lists.lock().unwrap_or_else(|e| e.into_inner());
        if lists.is_empty() || frame.len() > 4096 {
            return frame;
        }
        let found = lists.iter().position(|(id, ..)| {
            let key = format!(r#""resultId":"{id}""#);
            memchr::memmem::find(&frame, key.as_bytes()).is_some()
        });
        let Some(k) = found else { return frame };
        let Some(at) = memchr::memmem::find(&frame, EMPTY) else { return frame };
        let (_, body, range) = lists.remove(k);
        drop(lists);
        let list = &body[range];
        let mut out = Vec::with_capacity(frame.len() + list.len());
        out.extend_from_slice(&frame[..at]);
        out.extend_from_slice(br#""items":"#);
        out.extend_from_slice(list);
        out.extend_from_slice(&frame[at + EMPTY.len()..]);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    #[test]
    fn a_waiting_list_goes_into_its_answer_only() {
        let s = Splices::default();
        let body: Body = Arc::new(br#"{"params":{"diagnostics":[{"a":1},{"b":2}]}}"#.to_vec());
        let start = body.iter().position(|&b| b == b'[').unwrap();
        s.put("n-7".into(), body.clone(), start..body.len() - 2);
        let other = br#"{"jsonrpc":"2.0","result":{"kind":"full","resultId":"n-8","items":[]},"id":1}"#.to_vec();
        assert_eq!(s.fill(other.clone()), other);
        let mine = br#"{"jsonrpc":"2.0","result":{"kind":"full","resultId":"n-7","items":[]},"id":2}"#.to_vec();
        let filled: serde_json::Value = serde_json::from_slice(&s.fill(mine.clone())).unwrap();
        assert_eq!(filled["result"]["items"], serde_json::json!([{"a": 1}, {"b": 2}]));
        assert_eq!(filled["id"], 2);
        // Taken once.
        assert_eq!(s.fill(mine.clone()), mine);
    }
}
