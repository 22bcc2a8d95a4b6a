//! A message body as shared pieces written one after another. A 10 MB
//! file's publication is 5.6 MB of JSON, and a rename changes entries
//! spread over all of it: as one buffer, each keystroke copied it whole
//! (twice). In pieces (one per block of entries, `entries.rs`), a keystroke
//! makes again only the pieces of the blocks it changed and shares the
//! others with the last publication.

use std::io::{IoSlice, Write};
use std::sync::Arc;

/// One piece of a body.
#[derive(Clone)]
pub enum Chunk {
    Static(&'static [u8]),
    /// The first `len` bytes of shared ones (a block's entries without
    /// the comma after the list's last one).
    Shared(Arc<Vec<u8>>, usize),
}

impl Chunk {
    pub fn new(bytes: Vec<u8>) -> Chunk {
        Chunk::shared(Arc::new(bytes))
    }

    pub fn shared(bytes: Arc<Vec<u8>>) -> Chunk {
        let len = bytes.len();
        Chunk::Shared(bytes, len)
    }

    pub fn bytes(&self) -> &[u8] {
        match self {
            Chunk::Static(b) => b,
            Chunk::Shared(b, len) => &b[..*len],
        }
    }

    pub fn len(&self) -> usize {
        match self {
            Chunk::Static(b) => b.len(),
            Chunk::Shared(_, len) => *len,
        }
    }

    /// The same piece without its last byte.
    pub fn trimmed(self) -> Chunk {
        match self {
            Chunk::Static(b) => Chunk::Static(&b[..b.len().saturating_sub(1)]),
            Chunk::Shared(b, len) => Chunk::Shared(b, len.saturating_sub(1)),
        }
    }
}

/// A message body. Shared: the publisher keeps its last publication to
/// make the next one from its pieces, while the writer writes it.
#[derive(Clone, Default)]
pub struct Body {
    chunks: Arc<[Chunk]>,
    len: usize,
}

impl Body {
    pub fn new(chunks: Vec<Chunk>) -> Body {
        let len = chunks.iter().map(Chunk::len).sum();
        Body { chunks: chunks.into(), len }
    }

    /// Its length in bytes.
    pub fn len(&self) -> usize {
        self.len
    }

    pub fn chunks(&self) -> &[Chunk] {
        &self.chunks
    }

    /// Its bytes in one buffer (for those who read it: rarely).
    pub fn to_vec(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.len);
        self.chunks.iter().for_each(|c| out.extend_from_slice(c.bytes()));
        out
    }

    /// Writes it to `out`, many pieces a call (`out` may be unbuffered:
    /// not one call per piece).
    pub fn write_to(&self, out: &mut impl Write) -> std::io::Result<()> {
        // Linux takes at most 1024 slices a call (IOV_MAX).
        for group in self.chunks.chunks(1024) {
            let mut slices: Vec<IoSlice> =
                group.iter().map(Chunk::bytes).filter(|b| !b.is_empty()).map(IoSlice::new).collect();
            let mut slices = &mut slices[..];
            while !slices.is_empty() {
                match out.write_vectored(slices) {
                    Ok(0) => return Err(std::io::ErrorKind::WriteZero.into()),
                    Ok(n) => IoSlice::advance_slices(&mut slices, n),
                    Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                    Err(e) => return Err(e),
                }
            }
        }
        Ok(())
    }
}

impl From<Vec<u8>> for Body {
    fn from(bytes: Vec<u8>) -> Body {
        Body::new(vec![Chunk::new(bytes)])
    }
}

impl PartialEq for Body {
    fn eq(&self, other: &Body) -> bool {
        self.len == other.len && self.to_vec() == other.to_vec()
    }
}

impl std::fmt::Debug for Body {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:?}", String::from_utf8_lossy(&self.to_vec()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Takes at most `most` bytes a call, and of one slice only when told.
    struct Slow {
        out: Vec<u8>,
        most: usize,
        vectored: bool,
        calls: usize,
    }

    impl Write for Slow {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.calls += 1;
            let n = buf.len().min(self.most);
            self.out.extend_from_slice(&buf[..n]);
            Ok(n)
        }
        fn write_vectored(&mut self, bufs: &[IoSlice<'_>]) -> std::io::Result<usize> {
            if !self.vectored {
                let first = bufs.iter().find(|b| !b.is_empty()).map_or(&[][..], |b| &b[..]);
                return self.write(first);
            }
            self.calls += 1;
            let mut n = 0;
            for b in bufs {
                let take = b.len().min(self.most - n);
                self.out.extend_from_slice(&b[..take]);
                n += take;
            }
            Ok(n)
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn a_body_in_pieces_is_written_whole_in_few_calls() {
        let pieces: Vec<Vec<u8>> = (0..3000).map(|k| format!("{k},").into_bytes()).collect();
        let mut chunks: Vec<Chunk> = pieces.iter().cloned().map(Chunk::new).collect();
        chunks.insert(0, Chunk::Static(b"["));
        let last = chunks.pop().unwrap().trimmed();
        chunks.extend([last, Chunk::Static(b""), Chunk::Static(b"]")]);
        let body = Body::new(chunks);
        let whole = format!("[{}]", (0..3000).map(|k| k.to_string()).collect::<Vec<_>>().join(","));
        assert_eq!(body.len(), whole.len());
        assert_eq!(body.to_vec(), whole.as_bytes());
        for (most, vectored) in [(usize::MAX, true), (7, true), (5, false)] {
            let mut out = Slow { out: Vec::new(), most, vectored, calls: 0 };
            body.write_to(&mut out).unwrap();
            assert_eq!(String::from_utf8(out.out).unwrap(), whole);
            if most == usize::MAX {
                // 3002 pieces, 1024 a call.
                assert_eq!(out.calls, 3);
            }
        }
    }
}
