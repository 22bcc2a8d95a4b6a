//! The byte stream between the editor and tower-lsp-server, checked frame
//! by frame. tower-lsp-server stops reading at the first message it cannot
//! decode, so one malformed frame would end the session; here such a frame
//! gets its JSON-RPC error response (-32700 or -32600) and is dropped, and
//! everything else passes through untouched. It also notes whether `exit`
//! came after `shutdown`, for the exit status LSP asks for.

use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::Arc;

use serde_json::{json, Value};
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, BufReader};

use super::outbox::Outbox;
use super::splice::Splices;
use super::stash::Stash;

/// Frames larger than this are read and discarded, never held in memory.
const MAX_FRAME: usize = 256 << 20;

/// A body is read this many bytes at a time (the readers' buffer size).
const READ_PIECE: usize = 1 << 16;

/// Header lines longer than this are read and discarded as they arrive
/// (real headers are a few dozen bytes).
const MAX_HEADER_LINE: usize = 8 << 10;

/// What the session's end means for the exit status; `closing` becomes
/// true at `exit` or the end of input, so requests the server holds
/// (`workspace/diagnostic`) answer and the session can end.
#[derive(Default)]
pub struct Ending(AtomicU8, pub Arc<tokio::sync::watch::Sender<bool>>);

impl Ending {
    const SHUTDOWN: u8 = 1;
    const EXIT_WITHOUT_SHUTDOWN: u8 = 2;

    /// 1 when the client sent `exit` without `shutdown` first, else 0.
    pub fn status(&self) -> u8 {
        u8::from(self.0.load(Ordering::SeqCst) & Self::EXIT_WITHOUT_SHUTDOWN != 0)
    }

    fn saw(&self, method: &str) {
        match method {
            "shutdown" => {
                self.0.fetch_or(Self::SHUTDOWN, Ordering::SeqCst);
            }
            "exit" => {
                if self.0.load(Ordering::SeqCst) & Self::SHUTDOWN == 0 {
                    self.0.fetch_or(Self::EXIT_WITHOUT_SHUTDOWN, Ordering::SeqCst);
                }
                self.1.send_replace(true);
            }
            _ => {}
        }
    }
}

/// Writes one frame: header, then body (not copied into one buffer: a
/// body can be megabytes).
async fn write_frame(out: &mut (impl AsyncWrite + Unpin), body: &[u8]) -> std::io::Result<()> {
    out.write_all(format!("Content-Length: {}\r\n\r\n", body.len()).as_bytes()).await?;
    out.write_all(body).await?;
    out.flush().await
}

/// An error response's body.
fn error(code: i64, message: &str) -> Vec<u8> {
    json!({"jsonrpc": "2.0", "id": null, "error": {"code": code, "message": message}}).to_string().into_bytes()
}

/// Reads one line into `line`, keeping at most [`MAX_HEADER_LINE`] bytes
/// of it: (bytes read, whether some were discarded).
async fn read_line(input: &mut (impl AsyncBufReadExt + Unpin), line: &mut Vec<u8>) -> std::io::Result<(usize, bool)> {
    let (mut read, mut long) = (0, false);
    loop {
        let buf = input.fill_buf().await?;
        if buf.is_empty() {
            return Ok((read, long));
        }
        let (n, done) = match memchr::memchr(b'\n', buf) {
            Some(i) => (i + 1, true),
            None => (buf.len(), false),
        };
        let keep = n.min(MAX_HEADER_LINE.saturating_sub(line.len()));
        long |= keep < n;
        line.extend_from_slice(&buf[..keep]);
        input.consume(n);
        read += n;
        if done {
            return Ok((read, long));
        }
    }
}

/// Reads one frame: `Ok(None)` at the end of the input, `Err(response)`
/// for a frame to answer with an error (its body) and skip.
async fn read_frame(input: &mut (impl AsyncBufReadExt + Unpin)) -> std::io::Result<Option<Result<Vec<u8>, Vec<u8>>>> {
    let mut length: Option<Option<usize>> = None;
    let mut any = false;
    let mut too_long = false;
    loop {
        let mut line = Vec::new();
        let (read, long) = read_line(input, &mut line).await?;
        if read == 0 {
            return Ok(None);
        }
        too_long |= long;
        let text = String::from_utf8_lossy(&line);
        let text = text.trim_end_matches(['\r', '\n']);
        if text.is_empty() {
            if any {
                break;
            }
            continue;
        }
        any = true;
        // After a frame without a length, its body runs into the next
        // header: find the header anywhere on the line.
        if let Some(at) = text.to_ascii_lowercase().find("content-length:") {
            length = Some(text[at + "content-length:".len()..].trim().parse().ok());
        }
    }
    if too_long {
        if let Some(Some(len)) = length {
            tokio::io::copy(&mut input.take(len as u64), &mut tokio::io::sink()).await?;
        }
        return Ok(Some(Err(error(-32700, "a message with a header line longer than 8 KiB"))));
    }
    let Some(Some(len)) = length else {
        return Ok(Some(Err(error(-32700, "a message without a valid Content-Length header"))));
    };
    if len > MAX_FRAME {
        tokio::io::copy(&mut input.take(len as u64), &mut tokio::io::sink()).await?;
        return Ok(Some(Err(error(-32600, "a message larger than 256 MiB"))));
    }
    let mut body = vec![0; len];
    // In pieces: a read larger than the reader's buffer goes straight to
    // the input, and tokio's stdin keeps a buffer as large as the largest
    // read it was asked for (up to 2 MB) for the rest of the session.
    for piece in body.chunks_mut(READ_PIECE) {
        if input.read_exact(piece).await.is_err() {
            return Ok(None);
        }
    }
    Ok(Some(Ok(body)))
}

/// Copies frames from `input` to `server`, answering undecodable ones on
/// `replies` (message bodies); large document texts go to `stash`.
pub async fn client_to_server(
    input: impl AsyncRead + Unpin,
    mut server: impl AsyncWrite + Unpin,
    replies: Out,
    ending: Arc<Ending>,
    stash: Arc<Stash>,
) {
    let mut input = BufReader::with_capacity(READ_PIECE, input);
    while let Ok(Some(next)) = read_frame(&mut input).await {
        super::phases::mark("read");
        let mut body = match next {
            Ok(body) => body,
            Err(reply) => {
                replies.send(reply);
                continue;
            }
        };
        let mut message = match std::str::from_utf8(&body).ok().map(serde_json::from_str::<Value>) {
            Some(Ok(v)) => v,
            _ => {
                replies.send(error(-32700, "parse error: the message is not valid JSON in UTF-8"));
                continue;
            }
        };
        let is_message = message.get("jsonrpc").is_some()
            && (message.get("method").is_some_and(Value::is_string)
                || message.get("result").is_some()
                || message.get("error").is_some());
        if !is_message {
            replies.send(error(-32600, "invalid request: not a JSON-RPC 2.0 message"));
            continue;
        }
        if let Some(method) = message.get("method").and_then(Value::as_str) {
            ending.saw(method);
        }
        if stash.take_out(&mut message) {
            body = message.to_string().into_bytes();
        }
        if write_frame(&mut server, &body).await.is_err() {
            break;
        }
    }
    ending.1.send_replace(true);
    let _ = server.shutdown().await;
}

/// Messages for the client, framed by [`writer`].
pub type Out = Arc<Outbox>;

/// The one writer of the client's stream: a thread that frames what the
/// outbox gives it and writes it straight to `output`; the receiver hears
/// once it has stopped. A thread, because a publication can be megabytes
/// and tokio's stdout would move it through its blocking pool in pieces.
pub fn writer(mut output: impl std::io::Write + Send + 'static) -> (Out, std::sync::mpsc::Receiver<()>) {
    let out = Arc::new(Outbox::default());
    let (stopped, done) = std::sync::mpsc::channel();
    let outbox = out.clone();
    std::thread::spawn(move || {
        outbox.write_all(&mut output);
        let _ = stopped.send(());
    });
    (out, done)
}

/// Passes tower-lsp-server's frames on to the writer, with the large
/// pulled lists put in (`splice.rs`).
pub async fn server_to_client(server: impl AsyncRead + Unpin, out: Out, splices: Arc<Splices>) {
    let mut server = BufReader::with_capacity(READ_PIECE, server);
    loop {
        match read_frame(&mut server).await {
            Ok(Some(Ok(body))) => out.send(splices.fill(body)),
            Ok(Some(Err(_))) => {}
            _ => return,
        }
    }
}
