//! `hcl-types lsp` as a process: the server on stdin and stdout, through
//! the checked transport and the one writer of the client's stream.

use std::sync::Arc;

use tower_lsp_server::Server;

use super::splice::Splices;
use super::stash::Stash;
use super::{memory, transport, Backend};

/// Runs the server on stdin/stdout until the client disconnects.
pub fn run() -> u8 {
    memory::small_thread_caches();
    memory::few_arenas();
    let runtime = match runtime() {
        Ok(r) => r,
        Err(e) => {
            eprintln!("hcl-types lsp: cannot start the runtime: {e}");
            return 2;
        }
    };
    let status = runtime.block_on(async {
        widen_stdout_pipe();
        serve(tokio::io::stdin(), raw_stdout()).await
    });
    // Blocked reads of stdin, and tasks still waiting for answers from the
    // client (they are abandoned), must not keep the process alive.
    runtime.shutdown_timeout(std::time::Duration::from_millis(100));
    // No `terraform` the server started outlives it.
    project::child::stop_all();
    status
}

/// The runtime the server runs on: its threads, and rayon's pool, get the
/// stack a tree nested to the limit needs (`project::threads`). The
/// in-process tests that go that deep run on it too.
pub fn runtime() -> std::io::Result<tokio::runtime::Runtime> {
    project::threads::configure();
    tokio::runtime::Builder::new_multi_thread().enable_all().thread_stack_size(syntax::deep::THREAD_STACK).build()
}

/// The server on a byte stream: frames read from `input`, frames written
/// to `output`, through the checked transport and the one writer of the
/// client's stream. What `hcl-types lsp` runs on stdin and stdout, and the
/// in-process tests on pipes (`tests/lsp_support`), so both take the same
/// path. Returns the exit status once the input ended (or `exit` came),
/// every handler finished and what the server wrote was passed on.
pub async fn serve(
    input: impl tokio::io::AsyncRead + Unpin + Send + 'static,
    output: impl std::io::Write + Send + 'static,
) -> u8 {
    let ending = Arc::new(transport::Ending::default());
    let (out, written) = transport::writer(output);
    let (outbox, stash) = (out.clone(), Arc::new(Stash::default()));
    let (texts, closing) = (stash.clone(), ending.1.clone());
    let splices = Arc::new(Splices::default());
    let lists = splices.clone();
    let (service, socket) = crate::service(move |client| Backend {
        outbox,
        stash: texts,
        direct: true,
        closing,
        splices: lists,
        ..Backend::new(client)
    });
    let (to_server, server_in) = tokio::io::duplex(1 << 16);
    let (server_out, from_server) = tokio::io::duplex(1 << 16);
    // The reader runs in the server's own task: a message it passes on
    // is taken up without waking another thread (~0.1 ms a keystroke).
    let reader = transport::client_to_server(input, to_server, out.clone(), ending.clone(), stash);
    let forward = tokio::spawn(transport::server_to_client(from_server, out.clone(), splices));
    // Returns once the input ended (or `exit` came) and every handler
    // finished; no handler waits for the client, so a client that
    // vanished with requests of ours unanswered does not keep it here.
    let serve = Server::new(server_in, server_out, socket).serve(service);
    tokio::pin!(serve);
    tokio::select! {
        _ = &mut serve => {}
        // The input ended: the server finishes what it has.
        _ = reader => serve.await,
    }
    // Everything the server wrote is passed on, then the stream ends.
    let _ = tokio::time::timeout(std::time::Duration::from_secs(2), forward).await;
    out.close();
    // (Waited for on a blocking thread: the writer may write to a pipe
    // this runtime's own tasks read.)
    let _ = tokio::task::spawn_blocking(move || written.recv_timeout(std::time::Duration::from_secs(2))).await;
    ending.status()
}

/// Lets a pipe to the editor hold a whole large publication at once
/// instead of 64 KB at a time (a megabyte is what Linux allows anyone).
/// Standard output without std's line buffering: `Stdout` looks for the
/// last line break of every write before passing it on, and a 5 MB
/// publication has none (~0.4 ms of the writer's time per message).
fn raw_stdout() -> Box<dyn std::io::Write + Send> {
    #[cfg(unix)]
    {
        use std::os::fd::AsFd;
        if let Ok(fd) = std::io::stdout().as_fd().try_clone_to_owned() {
            return Box::new(std::fs::File::from(fd));
        }
    }
    Box::new(std::io::stdout())
}

fn widen_stdout_pipe() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: F_SETPIPE_SZ only resizes the kernel buffer of descriptor 1
    // (it fails harmlessly when that is not a pipe).
    unsafe {
        libc::fcntl(1, libc::F_SETPIPE_SZ, 1 << 20);
    }
}
