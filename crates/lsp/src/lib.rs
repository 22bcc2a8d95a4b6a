//! `hcl-types lsp`: the language server (docs/spec/lsp.md). A thin
//! adapter: each handler converts positions, asks `analysis::ide`, and
//! converts back. Analysis runs off the message loop; text changes are
//! applied synchronously, before any `.await`, so edits are never reordered.
//! No handler waits for the client (what asks it something runs as a task
//! of its own), so the session ends at `exit` or end of input whatever the
//! client left unanswered; publications go through one outbox
//! (`outbox.rs`), disk reads through `disk.rs`, both off the state lock.
//! A change's analysis and its results are `refresh.rs`; clients that pull
//! diagnostics get them from `pull.rs` instead of publications.

mod background;
mod body;
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
use std::panic::AssertUnwindSafe;
use std::path::PathBuf;
use std::sync::atomic::AtomicU64;
use std::sync::{Arc, Mutex, MutexGuard};

use ropey::Rope;
use tower_lsp_server::jsonrpc::{Error, Result};
use tower_lsp_server::ls_types::*;
use tower_lsp_server::{Client, LanguageServer};

use analysis::{Document, Memo};
use outbox::Outbox;
use project::disk::Disk;
use project::documents::{Documents, Settings};
use project::graph::{Graph, OpenDocs, Sources};
use project::phases;
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
    documents: Documents,
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
    /// Module files that are not open.
    disk: Arc<Disk>,
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
    /// The modules open modules call, and who reads whom.
    graph: Arc<Graph>,
    /// What pull diagnostics wait on and report (`pull.rs`).
    pulls: Arc<pull::Pulls>,
    /// What each module's callers set, and what it was worked out from.
    passed: Arc<passed::Passed>,
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
        .custom_method("$/setTrace", Backend::set_trace)
        .custom_method("window/workDoneProgress/cancel", Backend::cancel_progress)
        .finish()
}

/// `textDocument/publishDiagnostics` with parameters already written as JSON.
enum RawPublish {}

impl notification::Notification for RawPublish {
    type Params = serde_json::Value;
    const METHOD: &'static str = "textDocument/publishDiagnostics";
}

/// Runs `f` on the blocking pool; a panic becomes an internal error.
async fn blocking<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> Result<T> {
    match tokio::task::spawn_blocking(move || std::panic::catch_unwind(AssertUnwindSafe(f))).await {
        Ok(Ok(v)) => Ok(v),
        _ => {
            let mut e = Error::internal_error();
            e.message = "hcl-types: internal error while answering this request".into();
            Err(e)
        }
    }
}

/// A document keeps the trees of this many items (the ones edited since
/// its trees were last dropped) before they are dropped again.
const TREES_KEPT: usize = 64;

/// The semantic tokens legend, and the encoding of ide tokens into LSP's (public
/// for the latency benchmark, which times it in process).
pub use handlers::semantic_tokens::json as semantic_tokens_json;
pub use to_proto::{semantic_tokens as encode_semantic_tokens, TOKEN_MODIFIERS, TOKEN_TYPES};

impl Backend {
    pub fn new(client: Client) -> Self {
        Backend {
            client,
            state: Arc::new(Mutex::new(State {
                documents: Documents::default(),
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
            disk: Arc::default(),
            outbox: Arc::default(),
            stash: Arc::default(),
            later: Arc::default(),
            direct: false,
            delivering: Arc::default(),
            graph: Arc::default(),
            pulls: Arc::default(),
            passed: Arc::default(),
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
            (st.documents.module(&path)?, rope, st.encoding, st.caps)
        };
        let settings = partial.settings.clone();
        // At once when nothing must be read; else off the message loop.
        let (snap, index) = match partial.known(&self.disk) {
            Some(from_disk) => partial.with(from_disk)?,
            None => {
                let disk = self.disk.clone();
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
        f(&Sources { open: &Opened(&self.state), disk: &self.disk, settings, recheck })
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
    ropes::Ropes::new(docs).outside(move |p| b.with_sources(settings, false, |s| b.graph.text(s, p)))
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
        b.with_sources(&self.settings, false, |s| {
            b.note_passed(s, &self.docs);
            b.graph.analyse(s, &self.docs, &mut memo)
        })
    }

    /// The module's memo, brought up to what its calls lead to.
    fn memo(&self) -> MutexGuard<'_, Memo> {
        let mut memo = self.memo.locked();
        let b = &self.backend;
        b.with_sources(&self.settings, false, |s| {
            b.note_passed(s, &self.docs);
            b.graph.prepare(s, &self.docs, &mut memo)
        });
        memo
    }

    /// The text of a file of the module, or of a module it calls.
    fn text_of(&self, path: &std::path::Path) -> Option<analysis::Text> {
        if let Some(d) = self.docs.iter().find(|d| d.file.path == path) {
            return Some(d.shown_text().clone());
        }
        let b = &self.backend;
        b.with_sources(&self.settings, false, |s| b.graph.text(s, path))
    }
}

impl LanguageServer for Backend {
    async fn initialize(&self, params: InitializeParams) -> Result<InitializeResult> {
        handlers::lifecycle::initialize(self, params).await
    }

    async fn initialized(&self, params: InitializedParams) {
        handlers::lifecycle::initialized(self, params).await
    }

    async fn shutdown(&self) -> Result<()> {
        handlers::lifecycle::shutdown(self).await
    }

    async fn did_open(&self, params: DidOpenTextDocumentParams) {
        handlers::text_sync::did_open(self, params).await
    }

    async fn did_change(&self, params: DidChangeTextDocumentParams) {
        handlers::text_sync::did_change(self, params).await
    }

    async fn did_save(&self, params: DidSaveTextDocumentParams) {
        handlers::text_sync::did_save(self, params).await
    }

    async fn did_close(&self, params: DidCloseTextDocumentParams) {
        handlers::text_sync::did_close(self, params).await
    }

    async fn did_change_configuration(&self, params: DidChangeConfigurationParams) {
        handlers::configuration::did_change_configuration(self, params).await
    }

    async fn did_change_watched_files(&self, params: DidChangeWatchedFilesParams) {
        handlers::configuration::did_change_watched_files(self, params).await
    }

    async fn diagnostic(&self, params: DocumentDiagnosticParams) -> Result<DocumentDiagnosticReportResult> {
        handlers::diagnostic::diagnostic(self, params).await
    }

    async fn workspace_diagnostic(&self, params: WorkspaceDiagnosticParams) -> Result<WorkspaceDiagnosticReportResult> {
        handlers::diagnostic::workspace_diagnostic(self, params).await
    }

    async fn hover(&self, params: HoverParams) -> Result<Option<Hover>> {
        handlers::hover::hover(self, params).await
    }

    async fn completion(&self, params: CompletionParams) -> Result<Option<CompletionResponse>> {
        handlers::completion::completion(self, params).await
    }

    async fn signature_help(&self, params: SignatureHelpParams) -> Result<Option<SignatureHelp>> {
        handlers::signature_help::signature_help(self, params).await
    }

    async fn inlay_hint(&self, params: InlayHintParams) -> Result<Option<Vec<InlayHint>>> {
        handlers::inlay_hint::inlay_hint(self, params).await
    }

    async fn semantic_tokens_full(&self, params: SemanticTokensParams) -> Result<Option<SemanticTokensResult>> {
        handlers::semantic_tokens::semantic_tokens_full(self, params).await
    }

    async fn semantic_tokens_full_delta(
        &self,
        params: SemanticTokensDeltaParams,
    ) -> Result<Option<SemanticTokensFullDeltaResult>> {
        handlers::semantic_tokens::semantic_tokens_full_delta(self, params).await
    }

    async fn semantic_tokens_range(
        &self,
        params: SemanticTokensRangeParams,
    ) -> Result<Option<SemanticTokensRangeResult>> {
        handlers::semantic_tokens::semantic_tokens_range(self, params).await
    }

    async fn goto_definition(&self, params: GotoDefinitionParams) -> Result<Option<GotoDefinitionResponse>> {
        handlers::definition::goto_definition(self, params).await
    }

    async fn goto_declaration(&self, params: GotoDefinitionParams) -> Result<Option<GotoDefinitionResponse>> {
        // HCL declares each name once: its declaration is its definition.
        handlers::definition::goto_definition(self, params).await
    }

    async fn references(&self, params: ReferenceParams) -> Result<Option<Vec<Location>>> {
        handlers::references::references(self, params).await
    }

    async fn document_highlight(&self, params: DocumentHighlightParams) -> Result<Option<Vec<DocumentHighlight>>> {
        handlers::document_highlight::document_highlight(self, params).await
    }

    async fn prepare_rename(&self, params: TextDocumentPositionParams) -> Result<Option<PrepareRenameResponse>> {
        handlers::prepare_rename::prepare_rename(self, params).await
    }

    async fn rename(&self, params: RenameParams) -> Result<Option<WorkspaceEdit>> {
        handlers::rename::rename(self, params).await
    }

    async fn document_symbol(&self, params: DocumentSymbolParams) -> Result<Option<DocumentSymbolResponse>> {
        handlers::document_symbol::document_symbol(self, params).await
    }

    async fn code_action(&self, params: CodeActionParams) -> Result<Option<CodeActionResponse>> {
        handlers::code_action::code_action(self, params).await
    }

    async fn symbol(&self, params: WorkspaceSymbolParams) -> Result<Option<WorkspaceSymbolResponse>> {
        handlers::workspace_symbol::workspace_symbol(self, params).await
    }

    async fn formatting(&self, params: DocumentFormattingParams) -> Result<Option<Vec<TextEdit>>> {
        handlers::formatting::formatting(self, params).await
    }

    async fn document_link(&self, params: DocumentLinkParams) -> Result<Option<Vec<DocumentLink>>> {
        handlers::document_link::document_link(self, params).await
    }

    async fn folding_range(&self, params: FoldingRangeParams) -> Result<Option<Vec<FoldingRange>>> {
        handlers::folding_range::folding_range(self, params).await
    }

    async fn selection_range(&self, params: SelectionRangeParams) -> Result<Option<Vec<SelectionRange>>> {
        handlers::selection_range::selection_range(self, params).await
    }

    async fn code_lens(&self, params: CodeLensParams) -> Result<Option<Vec<CodeLens>>> {
        handlers::code_lens::code_lens(self, params).await
    }

    async fn on_type_formatting(&self, params: DocumentOnTypeFormattingParams) -> Result<Option<Vec<TextEdit>>> {
        handlers::on_type_formatting::on_type_formatting(self, params).await
    }

    async fn execute_command(&self, params: ExecuteCommandParams) -> Result<Option<LSPAny>> {
        handlers::execute_command::execute_command(self, params).await
    }

    async fn range_formatting(&self, params: DocumentRangeFormattingParams) -> Result<Option<Vec<TextEdit>>> {
        handlers::formatting::range_formatting(self, params).await
    }
}
