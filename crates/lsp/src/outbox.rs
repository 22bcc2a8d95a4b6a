//! Everything the server writes to the client passes through one outbox,
//! drained by one writer. Responses and server requests (frames) keep
//! their order; a document's diagnostics are a publication that a newer
//! one for the same document replaces while it waits. So a client that
//! stops reading holds the server to one pending publication per
//! document, and a document's publications reach it in the order they
//! were made (a close's empty list and the reopen's diagnostics included).

use analysis::sync::Locked;
use std::collections::{HashMap, VecDeque};
use std::sync::{Condvar, Mutex, MutexGuard};

pub use super::body::Body;

#[derive(Default)]
struct Queue {
    frames: VecDeque<Body>,
    /// The newest waiting publication per document (by URI).
    docs: HashMap<String, Body>,
    /// Documents with a waiting publication, in the order they first waited.
    order: VecDeque<String>,
    /// No more messages are taken (the stream ended or the writer stopped).
    closed: bool,
}

#[derive(Default)]
pub struct Outbox {
    queue: Mutex<Queue>,
    ready: Condvar,
}

impl Outbox {
    fn lock(&self) -> MutexGuard<'_, Queue> {
        self.queue.locked()
    }

    /// Queues one message body (a response, a request or an error).
    pub fn send(&self, body: impl Into<Body>) {
        let mut q = self.lock();
        if !q.closed {
            q.frames.push_back(body.into());
            self.ready.notify_one();
        }
    }

    /// Queues a document's publication, replacing one still waiting.
    pub fn publish(&self, uri: &str, body: Body) {
        let mut q = self.lock();
        if q.closed {
            return;
        }
        if q.docs.insert(uri.to_owned(), body).is_none() {
            q.order.push_back(uri.to_owned());
        }
        self.ready.notify_one();
    }

    /// Ends the stream once what is queued has been taken.
    pub fn close(&self) {
        self.lock().closed = true;
        self.ready.notify_all();
    }

    /// Ends the stream now, dropping what is queued (the writer failed).
    fn abandon(&self) {
        let mut q = self.lock();
        q.closed = true;
        q.frames.clear();
        q.docs.clear();
        q.order.clear();
    }

    fn pop(q: &mut Queue) -> Option<Body> {
        if let Some(f) = q.frames.pop_front() {
            return Some(f);
        }
        let uri = q.order.pop_front()?;
        q.docs.remove(&uri)
    }

    /// The next message, waiting for one; `None` once closed and empty.
    pub fn next(&self) -> Option<Body> {
        let mut q = self.lock();
        loop {
            if let Some(body) = Self::pop(&mut q) {
                return Some(body);
            }
            if q.closed {
                return None;
            }
            q = self.ready.wait(q).unwrap_or_else(|e| e.into_inner());
        }
    }

    /// The next waiting publication, without waiting.
    pub fn next_publication(&self) -> Option<Body> {
        let mut q = self.lock();
        let uri = q.order.pop_front()?;
        q.docs.remove(&uri)
    }

    /// How many publications wait.
    #[cfg(test)]
    fn waiting(&self) -> usize {
        self.lock().docs.len()
    }

    /// Writes every message to `output` as a frame, on this thread, until
    /// the outbox is closed or the output fails.
    pub fn write_all(&self, output: &mut impl std::io::Write) {
        while let Some(body) = self.next() {
            // The header in one write (the output may be unbuffered).
            let header = format!("Content-Length: {}\r\n\r\n", body.len());
            let written = (output.write_all(header.as_bytes()))
                .inspect(|_| {
                    super::phases::mark("header");
                    super::phases::line();
                })
                .and_then(|_| body.write_to(output))
                .and_then(|_| output.flush());
            if written.is_err() {
                self.abandon();
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_newer_publication_replaces_the_waiting_one_and_frames_go_first() {
        let out = Outbox::default();
        out.publish("a", Body::from(b"a1".to_vec()));
        out.publish("b", Body::from(b"b1".to_vec()));
        out.publish("a", Body::from(b"a2".to_vec()));
        out.send(b"response".to_vec());
        assert_eq!(out.waiting(), 2);
        out.close();
        let all: Vec<Vec<u8>> = std::iter::from_fn(|| out.next()).map(|b| b.to_vec()).collect();
        assert_eq!(all, [b"response".to_vec(), b"a2".to_vec(), b"b1".to_vec()]);
    }

    #[test]
    fn frames_and_publications_are_written_whole_and_in_order() {
        use super::super::body::Chunk;
        /// Takes at most 3 bytes a call.
        struct Slow(Vec<u8>);
        impl std::io::Write for Slow {
            fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
                let n = buf.len().min(3);
                self.0.extend_from_slice(&buf[..n]);
                Ok(n)
            }
            fn flush(&mut self) -> std::io::Result<()> {
                Ok(())
            }
        }
        let out = Outbox::default();
        out.send(br#"{"id":1}"#.to_vec());
        let list = Chunk::new(b"1,2,".to_vec()).trimmed();
        out.publish("a", Body::new(vec![Chunk::Static(br#"{"a":["#), list, Chunk::Static(b"]}")]));
        out.send(br#"{"id":2}"#.to_vec());
        out.close();
        let mut written = Slow(Vec::new());
        out.write_all(&mut written);
        let expected = "Content-Length: 8\r\n\r\n{\"id\":1}Content-Length: 8\r\n\r\n{\"id\":2}Content-Length: 11\r\n\r\n{\"a\":[1,2]}";
        assert_eq!(String::from_utf8(written.0).unwrap(), expected);
    }

    #[test]
    fn nothing_is_queued_after_the_writer_failed() {
        struct Broken;
        impl std::io::Write for Broken {
            fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
                Err(std::io::ErrorKind::BrokenPipe.into())
            }
            fn flush(&mut self) -> std::io::Result<()> {
                Ok(())
            }
        }
        let out = Outbox::default();
        out.send(b"x".to_vec());
        out.write_all(&mut Broken);
        out.publish("a", Body::from(b"a1".to_vec()));
        out.send(b"y".to_vec());
        assert_eq!(out.waiting(), 0);
        assert_eq!(out.next(), None);
    }
}
