//! One unary gRPC call over HTTP/2 without TLS (`h2`): all that reading a
//! schema needs. go-plugin serves plain text when the client does not ask
//! for AutoMTLS (`PLUGIN_CLIENT_CERT` unset: go-plugin's `server.go`), and
//! the connection is a Unix socket in our own scratch directory or a
//! loopback port, so no TLS stack is built for it.

use bytes::Bytes;
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite};

/// Where the plugin listens, from its handshake line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Addr {
    Unix(std::path::PathBuf),
    Tcp(std::net::SocketAddr),
}

/// Calls `path` (`/tfplugin6.Provider/GetProviderSchema`) with an empty
/// request message and returns the response message, at most `cap` bytes,
/// within `timeout`.
pub fn call(addr: &Addr, path: &str, timeout: Duration, cap: usize) -> Result<Vec<u8>, String> {
    let rt =
        tokio::runtime::Builder::new_current_thread().enable_io().enable_time().build().map_err(|e| e.to_string())?;
    rt.block_on(async {
        let work = async {
            match addr {
                Addr::Unix(p) => {
                    #[cfg(unix)]
                    {
                        unary(tokio::net::UnixStream::connect(p).await.map_err(|e| e.to_string())?, path, cap).await
                    }
                    #[cfg(not(unix))]
                    Err(format!("a Unix socket ({}) on a system without them", p.display()))
                }
                Addr::Tcp(a) => {
                    unary(tokio::net::TcpStream::connect(a).await.map_err(|e| e.to_string())?, path, cap).await
                }
            }
        };
        tokio::time::timeout(timeout, work)
            .await
            .map_err(|_| format!("no answer within {} s", timeout.as_secs_f32()))?
    })
}

async fn unary<S>(io: S, path: &str, cap: usize) -> Result<Vec<u8>, String>
where
    S: AsyncRead + AsyncWrite + Unpin + Send + 'static,
{
    let err = |e: h2::Error| e.to_string();
    // Large windows: a big provider's schema (tens of MB) comes in one go.
    let (client, conn) = h2::client::Builder::new()
        .initial_window_size(1 << 30)
        .initial_connection_window_size(1 << 30)
        .max_frame_size(1 << 20)
        .handshake::<_, Bytes>(io)
        .await
        .map_err(err)?;
    let conn = tokio::spawn(conn);
    let mut client = client.ready().await.map_err(err)?;
    let request = http::Request::builder()
        .method("POST")
        .uri(format!("http://localhost{path}"))
        .header("content-type", "application/grpc")
        .header("te", "trailers")
        .body(())
        .map_err(|e| e.to_string())?;
    let (response, mut send) = client.send_request(request, false).map_err(err)?;
    // The request: one uncompressed message of length 0.
    send.send_data(Bytes::from_static(&[0, 0, 0, 0, 0]), true).map_err(err)?;
    let response = response.await.map_err(err)?;
    if response.status() != 200 {
        return Err(format!("HTTP status {}", response.status()));
    }
    let status = |h: &http::HeaderMap| {
        let code = h.get("grpc-status")?.to_str().ok()?.to_string();
        let msg = h.get("grpc-message").and_then(|m| m.to_str().ok()).unwrap_or("").to_string();
        Some((code, msg))
    };
    let early = status(response.headers());
    let mut body = response.into_body();
    let mut buf = Vec::new();
    while let Some(chunk) = body.data().await {
        let chunk = chunk.map_err(err)?;
        let _ = body.flow_control().release_capacity(chunk.len());
        if buf.len() + chunk.len() > cap + 5 {
            return Err(format!("a schema of more than {} MiB", cap >> 20));
        }
        buf.extend_from_slice(&chunk);
    }
    let trailers = body.trailers().await.map_err(err)?;
    conn.abort();
    match early.or_else(|| trailers.as_ref().and_then(status)) {
        Some((code, _)) if code == "0" => {}
        Some((code, msg)) => return Err(format!("gRPC status {code}: {msg}")),
        None => return Err("no gRPC status".into()),
    }
    message(&buf)
}

/// The one message of a gRPC body: a compressed flag (0), a length, the bytes.
fn message(buf: &[u8]) -> Result<Vec<u8>, String> {
    let [0, a, b, c, d, rest @ ..] = buf else { return Err("not one uncompressed gRPC message".into()) };
    let len = u32::from_be_bytes([*a, *b, *c, *d]) as usize;
    if rest.len() != len {
        return Err(format!("a gRPC message of {} bytes announced as {len}", rest.len()));
    }
    Ok(rest.to_vec())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_message_is_unframed_and_anything_else_refused() {
        assert_eq!(message(&[0, 0, 0, 0, 2, 7, 8]), Ok(vec![7, 8]));
        assert!(message(&[1, 0, 0, 0, 0]).is_err(), "compressed");
        assert!(message(&[0, 0, 0, 0, 3, 7]).is_err(), "short");
        assert!(message(&[]).is_err());
    }
}
