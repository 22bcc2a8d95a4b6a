//! `hcl-types lsp`: the language server (docs/spec/lsp.md). A thin
//! adapter: each handler converts positions, asks `analysis::ide`, and
//! converts back. Every message goes through one dispatcher (`dispatch.rs`:
//! one panic guard, one error answer); analysis runs off the message loop;
//! text changes are applied synchronously by construction (a sync handler's
//! `apply`, the only code that can change a text: `docs.rs`), so edits are
//! never reordered.
//! No handler waits for the client (what asks it something runs as a task
//! of its own), so the session ends at `exit` or end of input whatever the
//! client left unanswered; publications go through one outbox
//! (`outbox.rs`), disk reads through `disk.rs`, both off the state lock.
//! A change's analysis and its results are `refresh.rs`; clients that pull
//! diagnostics get them from `pull.rs` instead of publications.

mod background;
mod body;
mod dispatch;
mod docs;
mod encoded;
mod entries;
mod format;
mod from_proto;
mod handlers;
mod log;
mod memory;
mod outbox;
mod passed;
mod publish;
mod pull;
mod refresh;
mod ropes;
mod splice;
mod stash;
mod stdio;
pub mod text;
mod to_proto;
mod transport;

use analysis::sync::Locked;
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::AtomicU64;
use std::sync::{Arc, Mutex, MutexGuard};

use ropey::Rope;
use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types::*;
use tower_lsp_server::{Client, LanguageServer};

use analysis::{Document, Memo};
#[doc(hidden)]
pub use dispatch::inject_panic;
use outbox::Outbox;
use project::documents::Settings;
use project::graph::{OpenDocs, Sources};
use project::phases;
use project::service::Service;
use publish::Published;
pub use stdio::{run, runtime, serve};
pub use text::Encoding;

/// What was last published for an open document: the sequence number of
/// its analysis, so a slower, older analysis never overwrites a newer one,
/// and the list's id and document version, so the same publication is not
/// sent twice (a keystroke in `terraform.tfvars` would otherwise resend
/// the unchanged 5 MB of a large `main.tf` ahead of its own).
#[derive(Clone, Copy, Default)]
struct Sent {
    seq: u64,
    list: Option<(u64, i32)>,
}

/// What the client says it can show, read at `initialize`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Caps {
    /// Hovers in Markdown (else plain text: Emacs' eglot without markdown
    /// support showed the fences).
    pub markdown: bool,
    /// Snippets in completions (else plain insert texts).
    pub snippets: bool,
    /// `documentChanges` in workspace edits (versioned edits of open
    /// documents); else a rename answers with `changes`.
    pub document_changes: bool,
    /// `workspace.workspaceEdit.resourceOperations` has `create`: a code
    /// action may create a file (`variables.tf`).
    pub create_files: bool,
    /// `workspace.workspaceEdit.changeAnnotationSupport`: an edit may ask
    /// to be confirmed (a rename's `moved` block).
    pub change_annotations: bool,
    /// Folds of whole lines only (Neovim, VS Code): a fold then ends on
    /// the line before its closing bracket, which stays visible.
    pub line_folding_only: bool,
    /// Document symbols as a tree (else flat `SymbolInformation`s).
    pub hierarchical_symbols: bool,
    /// `window.workDoneProgress`: `$/progress` for work the server starts itself (schemas, indexing).
    pub work_done_progress: bool,
}

impl Default for Caps {
    /// Before `initialize` says otherwise: what VS Code and Neovim take.
    fn default() -> Self {
        Caps {
            markdown: true,
            snippets: true,
            document_changes: false,
            create_files: false,
            change_annotations: false,
            line_folding_only: false,
            hierarchical_symbols: true,
            work_done_progress: false,
        }
    }
}

struct State {
    /// Read by anyone; texts changed only by a sync handler (`docs.rs`).
    documents: docs::Docs,
    encoding: Encoding,
    caps: Caps,
    /// Per open document: what was last published (see [`Sent`]).
    published: HashMap<PathBuf, Sent>,
    /// Per module: the sequence number of the last analysis asked for. An
    /// analysis that gets the module's memo after a newer one was asked for
    /// is stale and does not run (the newer one publishes for it).
    asked: HashMap<(PathBuf, analysis::Family), Arc<std::sync::atomic::AtomicU64>>,
    /// Whether the client can watch files for the server.
    watch_dynamic: bool,
    /// Whether it agreed to: change events are then trusted instead of
    /// looking at the disk again.
    watching: bool,
    /// Whether the client takes `workspace/inlayHint/refresh`.
    hint_refresh: bool,
    /// Whether the client answers `workspace/configuration`.
    pull_config: bool,
    /// Whether the client pulls diagnostics and can be asked to pull
    /// again: then nothing is published (`pull.rs`).
    pull: bool,
}

/// What was last published for a document, held while the next
/// publication is made from it: a publication made meanwhile (a sibling's
/// after the next keystroke) waits for it instead of starting anew (a 10 MB
/// document's list: ~20 ms).
type Slot = Arc<Mutex<Last>>;

/// A document's last list and the sequence number of the analysis it is
/// of: an older analysis that ends after a newer one (a save's, overtaken
/// by the next keystroke's) leaves it as it is. A pull answers from it, and
/// answered with the text before the edit.
#[derive(Default)]
struct Last {
    seq: u64,
    published: Option<Published>,
}

/// The server. Every field is shared, so a task the server starts (one
/// that waits for the client) can hold its own handle.
#[derive(Clone)]
pub struct Backend {
    client: Client,
    state: Arc<Mutex<State>>,
    seq: Arc<AtomicU64>,
    /// What was last published per open document.
    published: Arc<Mutex<HashMap<PathBuf, Slot>>>,
    /// The module service (`project::service`): the graph, the disk's
    /// module files, closed modules' memos, who calls whom.
    service: Arc<Service>,
    /// Every publication goes here, under the state lock, in order.
    outbox: Arc<Outbox>,
    /// Large texts the transport took out of messages (`stash.rs`).
    stash: Arc<stash::Stash>,
    /// What to free once the user pauses.
    later: Arc<memory::Later>,
    /// Whether the transport's writer drains `outbox` straight to the
    /// client's stream ([`serve`]: stdio, and the in-process tests' pipes);
    /// else [`Backend::deliver`] passes publications to `client`: only for
    /// `tests/soak.rs`, which polls the handlers' futures itself to
    /// interleave them.
    direct: bool,
    delivering: Arc<tokio::sync::Mutex<()>>,
    /// What pull diagnostics wait on and report (`pull.rs`).
    pulls: Arc<pull::Pulls>,
    /// Large pulled lists the transport puts into their answers.
    splices: Arc<splice::Splices>,
    /// Every symbol of the workspace folders (`workspace/symbol`).
    index: Arc<project::index::Index>,
    /// Becomes true when the session ends (`shutdown`, `exit` or the end
    /// of input): held requests then answer at once.
    closing: Arc<tokio::sync::watch::Sender<bool>>,
    /// Which `window/logMessage`s are sent (`log.rs`).
    log_level: Arc<std::sync::atomic::AtomicU8>,
    /// The workspace's diagnostics for clients that are published to (`background.rs`).
    background: Arc<background::Background>,
    /// The last semantic tokens sent per document (for deltas).
    tokens: Arc<Mutex<handlers::semantic_tokens::Previous>>,
}

/// The service over a backend `make` builds, with the methods
/// tower-lsp-server's trait lacks (`$/setTrace`, which it would drop).
pub fn service(
    make: impl FnOnce(Client) -> Backend,
) -> (tower_lsp_server::LspService<Backend>, tower_lsp_server::ClientSocket) {
    tower_lsp_server::LspService::build(make)
        .custom_method("$/setTrace", Backend::dispatch_set_trace)
        .custom_method("window/workDoneProgress/cancel", Backend::dispatch_cancel_progress)
        .finish()
}

impl Backend {
    /// `$/setTrace` through the dispatcher.
    async fn dispatch_set_trace(&self, params: SetTraceParams) {
        self.notification("$/setTrace", false, self.set_trace(params)).await
    }

    /// `window/workDoneProgress/cancel` through the dispatcher.
    async fn dispatch_cancel_progress(&self, params: WorkDoneProgressCancelParams) {
        self.notification("window/workDoneProgress/cancel", false, self.cancel_progress(params)).await
    }
}

/// `textDocument/publishDiagnostics` with parameters already written as JSON.
enum RawPublish {}

impl notification::Notification for RawPublish {
    type Params = serde_json::Value;
    const METHOD: &'static str = "textDocument/publishDiagnostics";
}

/// Runs `f` on the blocking pool. A panic there goes on in the caller,
/// so the dispatcher's guard (`dispatch.rs`) answers it as it answers a
/// panic of the handler itself: one error naming the method, and a log
/// line. `Err` only when the runtime is shutting down.
async fn blocking<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> Result<T> {
    match tokio::task::spawn_blocking(f).await {
        Ok(v) => Ok(v),
        Err(e) => match e.try_into_panic() {
            Ok(payload) => std::panic::resume_unwind(payload),
            Err(_) => Err(dispatch::panicked(None, &"the server is stopping")),
        },
    }
}

/// A document keeps the trees of this many items (the ones edited since
/// its trees were last dropped) before they are dropped again.
const TREES_KEPT: usize = 64;

/// The server's encoding of whole-document tokens after an edit (public
/// for the same benchmark).
pub use encoded::{encode as encode_semantic_tokens_since, Encoded as EncodedSemanticTokens};
/// The semantic tokens legend, and the encoding of ide tokens into LSP's (public
/// for the latency benchmark, which times it in process).
pub use handlers::semantic_tokens::json as semantic_tokens_json;
pub use to_proto::{semantic_tokens as encode_semantic_tokens, TOKEN_MODIFIERS, TOKEN_TYPES};

impl Backend {
    pub fn new(client: Client) -> Self {
        Backend {
            client,
            state: Arc::new(Mutex::new(State {
                documents: Default::default(),
                encoding: Encoding::Utf16,
                caps: Caps::default(),
                published: Default::default(),
                asked: Default::default(),
                watch_dynamic: false,
                watching: false,
                hint_refresh: false,
                pull_config: false,
                pull: false,
            })),
            seq: Arc::new(AtomicU64::new(0)),
            published: Arc::default(),
            service: Arc::default(),
            outbox: Arc::default(),
            stash: Arc::default(),
            later: Arc::default(),
            direct: false,
            delivering: Arc::default(),
            pulls: Arc::default(),
            splices: Arc::default(),
            index: Arc::default(),
            closing: Arc::new(tokio::sync::watch::Sender::new(false)),
            log_level: Arc::new(log::initial()),
            background: Arc::default(),
            tokens: Arc::default(),
        }
    }

    /// An open document's text and the position encoding, if it is one
    /// the formatter takes (crates/lsp/src/format.rs).
    fn open_text(&self, uri: &Uri) -> Option<(Rope, PathBuf, text::Encoding)> {
        let st = self.state.locked();
        let path = from_proto::doc_path(&st.documents, uri)?;
        let rope = st.documents.open.get(&path).filter(|_| format::formats(&path))?.rope.clone();
        Some((rope, path, st.encoding))
    }

    /// The module of a document and what is needed to convert positions.
    async fn snapshot(&self, uri: &Uri) -> Option<Snap> {
        let (partial, rope, enc, caps) = {
            let mut st = self.state.locked();
            let path = from_proto::doc_path(&st.documents, uri)?;
            let rope = st.documents.open.get(&path).map(|o| o.rope.clone());
            (st.documents.module(&path, &self.service)?, rope, st.encoding, st.caps)
        };
        let settings = partial.settings.clone();
        // At once when nothing must be read; else off the message loop.
        let (snap, index) = match partial.known(&self.service.disk) {
            Some(from_disk) => partial.with(from_disk)?,
            None => {
                let disk = self.service.disk.clone();
                blocking(move || partial.complete(&disk, false)).await.ok()??
            }
        };
        let rope = rope.unwrap_or_else(|| Rope::from_str(snap.docs[index].shown_text()));
        Some(Snap { docs: snap.docs, index, rope, enc, caps, settings, memo: snap.memo, backend: self.clone() })
    }
}

/// The open documents as the module graph reads them: through the state
/// lock, taken for that alone.
struct Opened<'a>(&'a Mutex<State>);

impl Backend {
    /// Runs `f` with the server's sources: its open documents over its
    /// disk, read with `settings` (`recheck`: see [`Sources::recheck`]).
    fn with_sources<R>(&self, settings: &Settings, recheck: bool, f: impl FnOnce(&Sources) -> R) -> R {
        f(&Sources { open: &Opened(&self.state), disk: &self.service.disk, settings, recheck })
    }
}

impl OpenDocs for Opened<'_> {
    fn open_docs(&self, dir: &std::path::Path, family: analysis::Family) -> Vec<Document> {
        self.0.locked().documents.open_docs(dir, family)
    }

    fn home(&self, dir: &std::path::Path) -> Option<PathBuf> {
        self.0.locked().documents.home(dir)
    }
}

/// The module's files and those of modules it calls, as a publication
/// converts related locations into them (read when first pointed into).
fn related_ropes<'a>(b: &'a Backend, settings: &'a Settings, docs: &[Document]) -> ropes::Ropes<'a> {
    ropes::Ropes::new(docs).outside(move |p| b.with_sources(settings, false, |s| b.service.graph.text(s, p)))
}

/// A document's module, ready for a request off the message loop.
struct Snap {
    docs: Vec<Document>,
    index: usize,
    rope: Rope,
    enc: Encoding,
    caps: Caps,
    settings: Settings,
    memo: Arc<Mutex<Memo>>,
    backend: Backend,
}

impl Snap {
    /// Analyses the module, reusing what earlier analyses found.
    fn analysis(&self) -> Arc<analysis::ModuleAnalysis> {
        let mut memo = self.memo.locked();
        let b = &self.backend;
        b.with_sources(&self.settings, false, |s| b.service.analyse(s, &self.docs, &mut memo, analysis::Stop::NEVER))
            .unwrap_or_default()
    }

    /// The module's memo, brought up to what its calls lead to.
    fn memo(&self) -> MutexGuard<'_, Memo> {
        let mut memo = self.memo.locked();
        let b = &self.backend;
        b.with_sources(&self.settings, false, |s| b.service.prepare(s, &self.docs, &mut memo));
        memo
    }

    /// The text of a file of the module, or of a module it calls.
    fn text_of(&self, path: &std::path::Path) -> Option<analysis::Text> {
        if let Some(d) = self.docs.iter().find(|d| d.file.path == path) {
            return Some(d.shown_text().clone());
        }
        let b = &self.backend;
        b.with_sources(&self.settings, false, |s| b.service.graph.text(s, path))
    }
}

/// A request through the dispatcher (`dispatch.rs`): its handler under
/// the panic guard.
macro_rules! request {
    ($b:ident, $method:literal, $handler:path, $params:ident) => {{
        let fault = dispatch::armed_for($method, &$params);
        $b.request($method, fault, $handler($b, $params)).await
    }};
    ($b:ident, $method:literal, $handler:path) => {
        $b.request($method, false, $handler($b)).await
    };
}

/// A notification that changes no document, through the dispatcher.
macro_rules! notification {
    ($b:ident, $method:literal, $handler:path, $params:ident) => {{
        let fault = dispatch::armed_for($method, &$params);
        $b.notification($method, fault, $handler($b, $params)).await
    }};
}

/// Every method names its handler and nothing else: the dispatcher runs it.
impl LanguageServer for Backend {
    async fn initialize(&self, params: InitializeParams) -> Result<InitializeResult> {
        request!(self, "initialize", handlers::lifecycle::initialize, params)
    }

    async fn initialized(&self, params: InitializedParams) {
        notification!(self, "initialized", handlers::lifecycle::initialized, params)
    }

    async fn shutdown(&self) -> Result<()> {
        request!(self, "shutdown", handlers::lifecycle::shutdown)
    }

    async fn did_open(&self, params: DidOpenTextDocumentParams) {
        self.sync::<handlers::text_sync::DidOpen>(params).await
    }

    async fn did_change(&self, params: DidChangeTextDocumentParams) {
        self.sync::<handlers::text_sync::DidChange>(params).await
    }

    async fn did_save(&self, params: DidSaveTextDocumentParams) {
        self.sync::<handlers::text_sync::DidSave>(params).await
    }

    async fn did_close(&self, params: DidCloseTextDocumentParams) {
        self.sync::<handlers::text_sync::DidClose>(params).await
    }

    async fn did_change_configuration(&self, params: DidChangeConfigurationParams) {
        notification!(
            self,
            "workspace/didChangeConfiguration",
            handlers::configuration::did_change_configuration,
            params
        )
    }

    async fn did_change_watched_files(&self, params: DidChangeWatchedFilesParams) {
        self.sync::<handlers::configuration::DidChangeWatchedFiles>(params).await
    }

    async fn diagnostic(&self, params: DocumentDiagnosticParams) -> Result<DocumentDiagnosticReportResult> {
        request!(self, "textDocument/diagnostic", handlers::diagnostic::diagnostic, params)
    }

    async fn workspace_diagnostic(&self, params: WorkspaceDiagnosticParams) -> Result<WorkspaceDiagnosticReportResult> {
        request!(self, "workspace/diagnostic", handlers::diagnostic::workspace_diagnostic, params)
    }

    async fn hover(&self, params: HoverParams) -> Result<Option<Hover>> {
        request!(self, "textDocument/hover", handlers::hover::hover, params)
    }

    async fn completion(&self, params: CompletionParams) -> Result<Option<CompletionResponse>> {
        request!(self, "textDocument/completion", handlers::completion::completion, params)
    }

    async fn signature_help(&self, params: SignatureHelpParams) -> Result<Option<SignatureHelp>> {
        request!(self, "textDocument/signatureHelp", handlers::signature_help::signature_help, params)
    }

    async fn inlay_hint(&self, params: InlayHintParams) -> Result<Option<Vec<InlayHint>>> {
        request!(self, "textDocument/inlayHint", handlers::inlay_hint::inlay_hint, params)
    }

    async fn semantic_tokens_full(&self, params: SemanticTokensParams) -> Result<Option<SemanticTokensResult>> {
        request!(self, "textDocument/semanticTokens/full", handlers::semantic_tokens::semantic_tokens_full, params)
    }

    async fn semantic_tokens_full_delta(
        &self,
        params: SemanticTokensDeltaParams,
    ) -> Result<Option<SemanticTokensFullDeltaResult>> {
        request!(
            self,
            "textDocument/semanticTokens/full/delta",
            handlers::semantic_tokens::semantic_tokens_full_delta,
            params
        )
    }

    async fn semantic_tokens_range(
        &self,
        params: SemanticTokensRangeParams,
    ) -> Result<Option<SemanticTokensRangeResult>> {
        request!(self, "textDocument/semanticTokens/range", handlers::semantic_tokens::semantic_tokens_range, params)
    }

    async fn goto_definition(&self, params: GotoDefinitionParams) -> Result<Option<GotoDefinitionResponse>> {
        request!(self, "textDocument/definition", handlers::definition::goto_definition, params)
    }

    async fn goto_declaration(&self, params: GotoDefinitionParams) -> Result<Option<GotoDefinitionResponse>> {
        // HCL declares each name once: its declaration is its definition.
        request!(self, "textDocument/declaration", handlers::definition::goto_definition, params)
    }

    async fn references(&self, params: ReferenceParams) -> Result<Option<Vec<Location>>> {
        request!(self, "textDocument/references", handlers::references::references, params)
    }

    async fn document_highlight(&self, params: DocumentHighlightParams) -> Result<Option<Vec<DocumentHighlight>>> {
        request!(self, "textDocument/documentHighlight", handlers::document_highlight::document_highlight, params)
    }

    async fn prepare_rename(&self, params: TextDocumentPositionParams) -> Result<Option<PrepareRenameResponse>> {
        request!(self, "textDocument/prepareRename", handlers::prepare_rename::prepare_rename, params)
    }

    async fn rename(&self, params: RenameParams) -> Result<Option<WorkspaceEdit>> {
        request!(self, "textDocument/rename", handlers::rename::rename, params)
    }

    async fn document_symbol(&self, params: DocumentSymbolParams) -> Result<Option<DocumentSymbolResponse>> {
        request!(self, "textDocument/documentSymbol", handlers::document_symbol::document_symbol, params)
    }

    async fn code_action(&self, params: CodeActionParams) -> Result<Option<CodeActionResponse>> {
        request!(self, "textDocument/codeAction", handlers::code_action::code_action, params)
    }

    async fn symbol(&self, params: WorkspaceSymbolParams) -> Result<Option<WorkspaceSymbolResponse>> {
        request!(self, "workspace/symbol", handlers::workspace_symbol::workspace_symbol, params)
    }

    async fn formatting(&self, params: DocumentFormattingParams) -> Result<Option<Vec<TextEdit>>> {
        request!(self, "textDocument/formatting", handlers::formatting::formatting, params)
    }

    async fn document_link(&self, params: DocumentLinkParams) -> Result<Option<Vec<DocumentLink>>> {
        request!(self, "textDocument/documentLink", handlers::document_link::document_link, params)
    }

    async fn folding_range(&self, params: FoldingRangeParams) -> Result<Option<Vec<FoldingRange>>> {
        request!(self, "textDocument/foldingRange", handlers::folding_range::folding_range, params)
    }

    async fn selection_range(&self, params: SelectionRangeParams) -> Result<Option<Vec<SelectionRange>>> {
        request!(self, "textDocument/selectionRange", handlers::selection_range::selection_range, params)
    }

    async fn code_lens(&self, params: CodeLensParams) -> Result<Option<Vec<CodeLens>>> {
        request!(self, "textDocument/codeLens", handlers::code_lens::code_lens, params)
    }

    async fn on_type_formatting(&self, params: DocumentOnTypeFormattingParams) -> Result<Option<Vec<TextEdit>>> {
        request!(self, "textDocument/onTypeFormatting", handlers::on_type_formatting::on_type_formatting, params)
    }

    async fn execute_command(&self, params: ExecuteCommandParams) -> Result<Option<LSPAny>> {
        request!(self, "workspace/executeCommand", handlers::execute_command::execute_command, params)
    }

    async fn range_formatting(&self, params: DocumentRangeFormattingParams) -> Result<Option<Vec<TextEdit>>> {
        request!(self, "textDocument/rangeFormatting", handlers::formatting::range_formatting, params)
    }
}
