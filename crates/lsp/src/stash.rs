//! Large document texts kept out of tower-lsp-server's input.
//!
//! tower-lsp-server reads messages into one buffer that grows to the
//! largest message it has seen and never shrinks: opening a 10 MB file
//! left 16 MB held for the rest of the session, after the file was closed.
//! So the transport, which parses every message anyway, takes a large
//! text out of `didOpen` and `didChange` and leaves a token in its place;
//! the handler takes the text back by the token. In process (no
//! transport) nothing is stashed and texts pass through as they are.

use analysis::sync::Locked;
use std::collections::BTreeMap;
use std::sync::Mutex;

use serde_json::Value;

/// Texts shorter than this stay in the message.
const MIN_STASHED: usize = 64 << 10;

/// A token starts with this (a NUL, which no text an editor opens has).
const TOKEN: &str = "\0hcl-types-stashed-text:";

/// How many texts wait at most: one whose message never reached a
/// handler (sent before `initialize`, say) is dropped, not kept.
const MAX_WAITING: usize = 8;

#[derive(Default)]
pub struct Stash {
    texts: Mutex<(u64, BTreeMap<u64, String>)>,
}

impl Stash {
    fn put(&self, text: String) -> String {
        let mut guard = self.texts.locked();
        let (next, texts) = &mut *guard;
        *next += 1;
        texts.insert(*next, text);
        while texts.len() > MAX_WAITING {
            texts.pop_first();
        }
        format!("{TOKEN}{next}")
    }

    /// The text a message carried: taken back when it is a token.
    pub fn take(&self, text: String) -> String {
        let Some(id) = text.strip_prefix(TOKEN).and_then(|n| n.parse::<u64>().ok()) else { return text };
        let taken = self.texts.locked().1.remove(&id);
        taken.unwrap_or(text)
    }

    /// Takes the large texts out of a `didOpen` or `didChange` message;
    /// whether it took any.
    pub fn take_out(&self, message: &mut Value) -> bool {
        let method = message.get("method").and_then(Value::as_str).unwrap_or("").to_owned();
        let Some(params) = message.get_mut("params") else { return false };
        let texts: Vec<&mut Value> = match method.as_str() {
            "textDocument/didOpen" => params.pointer_mut("/textDocument/text").into_iter().collect(),
            "textDocument/didChange" => match params.get_mut("contentChanges") {
                Some(Value::Array(changes)) => changes.iter_mut().filter_map(|c| c.get_mut("text")).collect(),
                _ => Vec::new(),
            },
            _ => Vec::new(),
        };
        let mut any = false;
        for v in texts {
            if let Value::String(s) = v {
                if s.len() >= MIN_STASHED {
                    *v = Value::String(self.put(std::mem::take(s)));
                    any = true;
                }
            }
        }
        any
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_large_text_is_taken_out_and_back_and_small_ones_stay() {
        let stash = Stash::default();
        let big = "x".repeat(MIN_STASHED);
        let mut open = json!({"jsonrpc": "2.0", "method": "textDocument/didOpen",
            "params": {"textDocument": {"uri": "file:///a.tf", "languageId": "terraform", "version": 1, "text": big}}});
        assert!(stash.take_out(&mut open));
        let token = open["params"]["textDocument"]["text"].as_str().unwrap().to_owned();
        assert!(token.len() < 64);
        assert_eq!(stash.take(token.clone()), big);
        // Taken once: the token is then only a string.
        assert_eq!(stash.take(token.clone()), token);
        let mut change = json!({"jsonrpc": "2.0", "method": "textDocument/didChange",
            "params": {"textDocument": {"uri": "file:///a.tf", "version": 2},
                "contentChanges": [{"text": "small"}, {"text": big}]}});
        assert!(stash.take_out(&mut change));
        assert_eq!(change["params"]["contentChanges"][0]["text"], "small");
        let token = change["params"]["contentChanges"][1]["text"].as_str().unwrap().to_owned();
        assert_eq!(stash.take(token), big);
        let mut hover = json!({"jsonrpc": "2.0", "id": 1, "method": "textDocument/hover", "params": {"text": big}});
        assert!(!stash.take_out(&mut hover));
    }

    #[test]
    fn texts_never_taken_back_are_not_kept() {
        let stash = Stash::default();
        let tokens: Vec<String> = (0..MAX_WAITING + 3).map(|k| stash.put(format!("text {k}"))).collect();
        assert_eq!(stash.texts.lock().unwrap().1.len(), MAX_WAITING);
        assert_eq!(stash.take(tokens[0].clone()), tokens[0]);
        assert_eq!(stash.take(tokens[MAX_WAITING + 2].clone()), format!("text {}", MAX_WAITING + 2));
    }
}
