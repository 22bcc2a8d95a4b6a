//! The one dispatcher: every request and notification the server takes
//! runs through here (`impl LanguageServer for Backend` in `lib.rs` only
//! names the handler), under one panic guard, so
//! - a request whose handler panics is answered with one kind of error
//!   (`-32603`, naming the method and what went wrong) and logged; the
//!   server goes on;
//! - a notification whose handler panics is logged, and the server goes on.
//!
//! tower-lsp-server polls every handler's future inside its own serve loop
//! and does not catch panics: before this, one panicking handler (say
//! `formatting`, which ran on the loop) ended the session.
//!
//! Handlers come in two kinds (ruff's sync and background handlers):
//! - a [`SyncNotification`] changes the server's state. Its `apply` is a
//!   plain function of `&mut State` that the dispatcher runs to completion,
//!   under the state lock, when the message is taken up and before any later
//!   message is read; it cannot `.await` (it is not async, and the state
//!   guard is not `Send`, so no handler future can hold it across one).
//!   What it returns is the work that follows (analysis, publications),
//!   which gets no `&mut State`. Opening, changing, saving and closing a
//!   document are of this kind, so a text is always applied before the next
//!   message is looked at, whatever the follow-up awaits.
//! - every other handler is a background one: it reads a snapshot of the
//!   state (`Backend::snapshot`) and runs off the message loop.

use std::any::Any;
use std::future::Future;
use std::panic::AssertUnwindSafe;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

use analysis::sync::Locked;
use futures_util::FutureExt;
use project::settings::LogLevel;
use tower_lsp_server::jsonrpc::{Error, Result};
use tower_lsp_server::ls_types::{
    CodeActionParams, CodeLensParams, CompletionParams, DidChangeConfigurationParams, DidChangeTextDocumentParams,
    DidChangeWatchedFilesParams, DidCloseTextDocumentParams, DidOpenTextDocumentParams, DidSaveTextDocumentParams,
    DocumentDiagnosticParams, DocumentFormattingParams, DocumentHighlightParams, DocumentLinkParams,
    DocumentOnTypeFormattingParams, DocumentRangeFormattingParams, DocumentSymbolParams, ExecuteCommandParams,
    FoldingRangeParams, GotoDefinitionParams, HoverParams, InitializeParams, InitializedParams, InlayHintParams,
    ReferenceParams, RenameParams, SelectionRangeParams, SemanticTokensDeltaParams, SemanticTokensParams,
    SemanticTokensRangeParams, SignatureHelpParams, TextDocumentPositionParams, Uri, WorkspaceDiagnosticParams,
    WorkspaceSymbolParams,
};

use crate::{Backend, State};

/// What lets a [`SyncNotification`]'s `apply` change texts; made here
/// only, by [`Backend::sync`].
pub(crate) struct Applying(());

/// A notification whose first part changes the server's state; see the
/// module's documentation.
pub(crate) trait SyncNotification {
    const METHOD: &'static str;
    type Params: Target;
    /// What the follow-up needs.
    type Then: Send;

    /// Changes the state; runs to completion before anything else reads
    /// it. `None`: nothing follows. `applying` opens the texts
    /// ([`crate::docs::Docs::texts`]).
    fn apply(b: &Backend, st: &mut State, applying: &Applying, params: Self::Params) -> Option<Self::Then>;

    /// What follows, off the state: analysis and publications.
    fn then(b: &Backend, then: Self::Then) -> impl Future<Output = ()> + Send;
}

impl Backend {
    /// Runs a request's handler under the guard: a panic becomes an
    /// internal error answer ([`panicked`]) and a log line.
    pub(crate) async fn request<T>(
        &self,
        method: &'static str,
        fault: bool,
        handler: impl Future<Output = Result<T>>,
    ) -> Result<T> {
        let run = AssertUnwindSafe(async move {
            fire(fault, method);
            handler.await
        });
        match run.catch_unwind().await {
            Ok(answer) => answer,
            Err(payload) => {
                let e = panicked(Some(method), payload.as_ref());
                self.log(LogLevel::Error, e.message.to_string());
                Err(e)
            }
        }
    }

    /// Runs a notification's handler under the guard: a panic is logged.
    pub(crate) async fn notification(&self, method: &'static str, fault: bool, handler: impl Future<Output = ()>) {
        let run = AssertUnwindSafe(async move {
            fire(fault, method);
            handler.await
        });
        if let Err(payload) = run.catch_unwind().await {
            self.log(LogLevel::Error, panicked(Some(method), payload.as_ref()).message.to_string());
        }
    }

    /// Runs a [`SyncNotification`]: its `apply` at once under the state
    /// lock, then what follows, each under the guard. A panic in `apply`
    /// leaves the state as far as `apply` got (the lock is taken again
    /// poisoned or not) and skips the follow-up.
    pub(crate) async fn sync<H: SyncNotification>(&self, params: H::Params) {
        // (The URI is copied only while a test has a fault armed.)
        let target = ARMED.load(Ordering::Relaxed).then(|| params.target().cloned()).flatten();
        let applied = {
            let mut st = self.state.locked();
            std::panic::catch_unwind(AssertUnwindSafe(|| {
                let then = H::apply(self, &mut st, &Applying(()), params);
                // An armed fault not taken in the middle ([`fault_point`])
                // fires at the end of `apply`, with the state changed.
                fire(armed(H::METHOD, target.as_ref().map(|u| u.as_str())), H::METHOD);
                then
            }))
        };
        match applied {
            Ok(Some(then)) => self.notification(H::METHOD, false, H::then(self, then)).await,
            Ok(None) => {}
            Err(payload) => self.log(LogLevel::Error, panicked(Some(H::METHOD), payload.as_ref()).message.to_string()),
        }
    }
}

/// The one error a panicking handler answers with (its work on the
/// blocking pool included: [`crate::blocking`] resumes the panic in it):
/// an internal error that names the method, when known, and the panic's
/// message.
pub(crate) fn panicked(method: Option<&str>, payload: &(dyn Any + Send)) -> Error {
    let what = payload
        .downcast_ref::<&str>()
        .copied()
        .or_else(|| payload.downcast_ref::<String>().map(String::as_str))
        .unwrap_or("a panic");
    let mut e = Error::internal_error();
    e.message = match method {
        Some(m) => format!("hcl-types: internal error in {m}: {what} (the server goes on; please report this)"),
        None => format!("hcl-types: {what}"),
    }
    .into();
    e
}

/// The document a message is about, if it names one (for the fault hook).
pub(crate) trait Target {
    fn target(&self) -> Option<&Uri>;
}

macro_rules! target {
    ($($t:ty => $($field:ident).+;)*) => {
        $(impl Target for $t {
            fn target(&self) -> Option<&Uri> {
                Some(&self.$($field).+)
            }
        })*
    };
}

target! {
    DidOpenTextDocumentParams => text_document.uri;
    DidChangeTextDocumentParams => text_document.uri;
    DidSaveTextDocumentParams => text_document.uri;
    DidCloseTextDocumentParams => text_document.uri;
    DocumentDiagnosticParams => text_document.uri;
    HoverParams => text_document_position_params.text_document.uri;
    CompletionParams => text_document_position.text_document.uri;
    SignatureHelpParams => text_document_position_params.text_document.uri;
    InlayHintParams => text_document.uri;
    SemanticTokensParams => text_document.uri;
    SemanticTokensDeltaParams => text_document.uri;
    SemanticTokensRangeParams => text_document.uri;
    GotoDefinitionParams => text_document_position_params.text_document.uri;
    ReferenceParams => text_document_position.text_document.uri;
    DocumentHighlightParams => text_document_position_params.text_document.uri;
    TextDocumentPositionParams => text_document.uri;
    RenameParams => text_document_position.text_document.uri;
    DocumentSymbolParams => text_document.uri;
    CodeActionParams => text_document.uri;
    DocumentFormattingParams => text_document.uri;
    DocumentRangeFormattingParams => text_document.uri;
    DocumentOnTypeFormattingParams => text_document_position.text_document.uri;
    DocumentLinkParams => text_document.uri;
    FoldingRangeParams => text_document.uri;
    SelectionRangeParams => text_document.uri;
    CodeLensParams => text_document.uri;
}

impl Target for DidChangeWatchedFilesParams {
    fn target(&self) -> Option<&Uri> {
        self.changes.first().map(|c| &c.uri)
    }
}

/// Messages about no one document.
macro_rules! no_target {
    ($($t:ty),* $(,)?) => {
        $(impl Target for $t {
            fn target(&self) -> Option<&Uri> {
                None
            }
        })*
    };
}

no_target!(
    InitializeParams,
    InitializedParams,
    DidChangeConfigurationParams,
    WorkspaceDiagnosticParams,
    WorkspaceSymbolParams,
    ExecuteCommandParams,
);

// ---------------------------------------------------------------------
// The test hook: a panic injected into the next message of one method
// about a document whose URI contains a marker. Process-wide (the
// in-process tests share it), so it is keyed by a marker no other test's
// URIs contain, and fires once. Off, it costs one atomic load a message.

static ARMED: AtomicBool = AtomicBool::new(false);
static FAULTS: Mutex<Vec<(&'static str, String)>> = Mutex::new(Vec::new());

/// Makes the next `method` message about a URI containing `marker` panic
/// inside its handler (for the tests of the guard, `tests/lsp_protocol.rs`).
#[doc(hidden)]
pub fn inject_panic(method: &'static str, marker: &str) {
    FAULTS.locked().push((method, marker.to_owned()));
    ARMED.store(true, Ordering::SeqCst);
}

/// Whether a fault is armed for this message (and disarms it).
pub(crate) fn armed_for(method: &str, params: &impl Target) -> bool {
    ARMED.load(Ordering::Relaxed) && armed(method, params.target().map(|u| u.as_str()))
}

fn armed(method: &str, target: Option<&str>) -> bool {
    if !ARMED.load(Ordering::Relaxed) {
        return false;
    }
    let Some(uri) = target else { return false };
    let mut faults = FAULTS.locked();
    let Some(k) = faults.iter().position(|(m, marker)| *m == method && uri.contains(marker.as_str())) else {
        return false;
    };
    faults.remove(k);
    ARMED.store(!faults.is_empty(), Ordering::SeqCst);
    true
}

fn fire(fault: bool, method: &str) {
    if fault {
        panic!("a panic injected into {method}");
    }
}

/// A point in the middle of a handler where an armed fault for `method`
/// fires (a sync handler's, between its text and its parse).
pub(crate) fn fault_point(method: &str, target: &Uri) {
    fire(armed(method, Some(target.as_str())), method);
}

/// [`fault_point`] for work about a file (a module's analysis, on the
/// blocking pool: method `analysis`).
pub(crate) fn fault_point_at(method: &str, path: &std::path::Path) {
    if ARMED.load(Ordering::Relaxed) {
        fire(armed(method, path.to_str()), method);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A panic on the blocking pool reaches the guard around the handler
    /// that waited for it, with its message (before, `blocking` answered a
    /// nameless error of its own and nothing was logged).
    #[test]
    fn a_panic_on_the_blocking_pool_goes_on_in_the_handler() {
        let rt = tokio::runtime::Builder::new_current_thread().build().unwrap();
        let handler = async { crate::blocking(|| -> u8 { panic!("deep in the ide layer") }).await };
        let caught = rt.block_on(AssertUnwindSafe(handler).catch_unwind()).unwrap_err();
        let e = panicked(Some("textDocument/hover"), caught.as_ref());
        assert!(e.message.contains("textDocument/hover") && e.message.contains("deep in the ide layer"), "{e:?}");
    }
}
