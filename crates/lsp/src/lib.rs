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

mod body;
mod disk;
mod entries;
mod format;
mod graph;
mod memory;
mod outbox;
mod phases;
mod publish;
mod pull;
mod refresh;
mod ropes;
mod splice;
mod stash;
mod stdio;
pub mod text;
mod transport;
mod watch;
mod workspace;

use std::collections::HashMap;
use std::panic::AssertUnwindSafe;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use ropey::Rope;
use tower_lsp_server::jsonrpc::{Error, Result};
use tower_lsp_server::ls_types::*;
use tower_lsp_server::{Client, LanguageServer};

use analysis::{Document, Memo};
use disk::Disk;
use outbox::Outbox;
use publish::Published;
pub use stdio::run;
use syntax::diagnostic::Severity as Sev;
pub use text::Encoding;
use workspace::{module_key, Open, Session, Settings, Workspace};

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

struct State {
    workspace: Workspace,
    encoding: Encoding,
    /// Per open document: what was last published (see [`Sent`]).
    published: HashMap<PathBuf, Sent>,
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
    /// client's stream (stdio); else [`Backend::deliver`] passes
    /// publications to `client` (the server in process).
    direct: bool,
    delivering: Arc<tokio::sync::Mutex<()>>,
    /// The modules open modules call, and who reads whom.
    graph: Arc<graph::Graph>,
    /// What pull diagnostics wait on and report (`pull.rs`).
    pulls: Arc<pull::Pulls>,
    /// Large pulled lists the transport puts into their answers.
    splices: Arc<splice::Splices>,
    /// Becomes true when the session ends (`shutdown`, `exit` or the end
    /// of input): held requests then answer at once.
    closing: Arc<tokio::sync::watch::Sender<bool>>,
}

/// `textDocument/publishDiagnostics` with parameters already written as JSON.
enum RawPublish {}

impl notification::Notification for RawPublish {
    type Params = serde_json::Value;
    const METHOD: &'static str = "textDocument/publishDiagnostics";
}

fn lock(state: &Mutex<State>) -> MutexGuard<'_, State> {
    // A panic while holding the lock must not take the server down with it.
    state.lock().unwrap_or_else(|e| e.into_inner())
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

fn severity(s: Sev) -> DiagnosticSeverity {
    match s {
        Sev::Error => DiagnosticSeverity::ERROR,
        Sev::Warning => DiagnosticSeverity::WARNING,
        Sev::Hint => DiagnosticSeverity::HINT,
    }
}

/// A document keeps the trees of this many items (the ones edited since
/// its trees were last dropped) before they are dropped again.
const TREES_KEPT: usize = 64;

pub const TOKEN_TYPES: [SemanticTokenType; 3] =
    [SemanticTokenType::TYPE, SemanticTokenType::FUNCTION, SemanticTokenType::PROPERTY];

impl Backend {
    pub fn new(client: Client) -> Self {
        Backend {
            client,
            state: Arc::new(Mutex::new(State {
                workspace: Workspace::default(),
                encoding: Encoding::Utf16,
                published: Default::default(),
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
            splices: Arc::default(),
            closing: Arc::new(tokio::sync::watch::Sender::new(false)),
        }
    }

    /// Takes new settings and publishes again with them.
    async fn apply_settings(&self, v: &serde_json::Value) {
        let hint_refresh = {
            let mut st = lock(&self.state);
            // What may run stays as `initialize` said (`Session`).
            let session = st.workspace.settings.session.clone();
            st.workspace.settings = Settings { session, ..Settings::from_json(v) };
            self.graph.settings_changed();
            st.hint_refresh
        };
        // Hints may have been switched on or off: the editor asks again
        // (without waiting for its answer).
        if hint_refresh {
            let client = self.client.clone();
            tokio::spawn(async move { client.inlay_hint_refresh().await });
        }
        self.refresh_all().await;
    }

    /// Asks the client for the `hclTypes` settings and takes them when it
    /// answers. Nobody waits for the answer: a client that never gives it
    /// holds nothing up, and the task is abandoned when the session ends.
    fn pull_configuration(&self) {
        let me = self.clone();
        tokio::spawn(async move {
            let item = ConfigurationItem { scope_uri: None, section: Some("hclTypes".into()) };
            let Ok(values) = me.client.configuration(vec![item]).await else { return };
            if let Some(v) = values.into_iter().next().filter(|v| v.is_object()) {
                me.apply_settings(&v).await;
            }
        });
    }

    /// An open document's text and the position encoding, if it is one
    /// the formatter takes (crates/lsp/src/format.rs).
    fn open_text(&self, uri: &Uri) -> Option<(Rope, PathBuf, text::Encoding)> {
        let st = lock(&self.state);
        let path = st.workspace.doc_path(uri)?;
        let rope = st.workspace.open.get(&path).filter(|_| format::formats(&path))?.rope.clone();
        Some((rope, path, st.encoding))
    }

    /// The module of a document and what is needed to convert positions.
    async fn snapshot(&self, uri: &Uri) -> Option<Snap> {
        let (partial, rope, enc) = {
            let mut st = lock(&self.state);
            let path = st.workspace.doc_path(uri)?;
            let rope = st.workspace.open.get(&path).map(|o| o.rope.clone());
            (st.workspace.module(&path)?, rope, st.encoding)
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
        let rope = rope.unwrap_or_else(|| Rope::from_str(&snap.docs[index].file.text));
        Some(Snap { docs: snap.docs, index, rope, enc, settings, memo: snap.memo, backend: self.clone() })
    }
}

/// A document's module, ready for a request off the message loop.
struct Snap {
    docs: Vec<Document>,
    index: usize,
    rope: Rope,
    enc: Encoding,
    settings: Settings,
    memo: Arc<Mutex<Memo>>,
    backend: Backend,
}

impl Snap {
    /// Analyses the module, reusing what earlier analyses found.
    fn analysis(&self) -> Arc<analysis::ModuleAnalysis> {
        self.memo().analysis(&self.docs)
    }

    /// The module's memo, brought up to what its calls lead to.
    fn memo(&self) -> MutexGuard<'_, Memo> {
        let mut memo = memo_lock(&self.memo);
        let b = &self.backend;
        b.graph.prepare(&b.state, &b.disk, &self.settings, false, &self.docs, &mut memo);
        memo
    }

    /// The text of a file of the module, or of a module it calls.
    fn text_of(&self, path: &std::path::Path) -> Option<analysis::Text> {
        if let Some(d) = self.docs.iter().find(|d| d.file.path == path) {
            return Some(d.file.text.clone());
        }
        let b = &self.backend;
        b.graph.text(&b.state, &b.disk, &self.settings, path)
    }
}

fn memo_lock(memo: &Mutex<Memo>) -> MutexGuard<'_, Memo> {
    memo.lock().unwrap_or_else(|e| e.into_inner())
}

impl LanguageServer for Backend {
    async fn initialize(&self, params: InitializeParams) -> Result<InitializeResult> {
        let offered =
            params.capabilities.general.as_ref().and_then(|g| g.position_encodings.clone()).unwrap_or_default();
        let encoding = if offered.contains(&PositionEncodingKind::UTF8) { Encoding::Utf8 } else { Encoding::Utf16 };
        let pull;
        let watch_dynamic = params
            .capabilities
            .workspace
            .as_ref()
            .and_then(|w| w.did_change_watched_files.as_ref())
            .and_then(|d| d.dynamic_registration)
            .unwrap_or(false);
        {
            let mut st = lock(&self.state);
            st.encoding = encoding;
            st.watch_dynamic = watch_dynamic;
            st.hint_refresh = params
                .capabilities
                .workspace
                .as_ref()
                .and_then(|w| w.inlay_hint.as_ref())
                .and_then(|h| h.refresh_support)
                .unwrap_or(false);
            st.pull_config = params.capabilities.workspace.as_ref().and_then(|w| w.configuration).unwrap_or(false);
            // Pulled only by a client that can be told to pull again when
            // a document's diagnostics change without an edit of its own
            // (VS Code; Neovim 0.11 pulls but cannot, so it is pushed to).
            st.pull = params.capabilities.text_document.as_ref().is_some_and(|t| t.diagnostic.is_some())
                && params
                    .capabilities
                    .workspace
                    .as_ref()
                    .and_then(|w| w.diagnostics.as_ref())
                    .and_then(|d| d.refresh_support)
                    .unwrap_or(false);
            pull = st.pull;
            let roots = pull::roots(&params);
            let opts = params.initialization_options.clone().unwrap_or_default();
            let session = Arc::new(Session::from_init(&opts, roots.clone()));
            st.workspace.settings = Settings { session, ..Settings::from_json(&opts) };
            *self.pulls.roots.lock().unwrap_or_else(|e| e.into_inner()) = roots;
        }
        let snippet_triggers = [".", "(", "\"", " ", "{", ",", "["].map(String::from).to_vec();
        Ok(InitializeResult {
            offset_encoding: None,
            server_info: Some(ServerInfo { name: "hcl-types".into(), version: Some(env!("CARGO_PKG_VERSION").into()) }),
            capabilities: ServerCapabilities {
                position_encoding: Some(if encoding == Encoding::Utf8 {
                    PositionEncodingKind::UTF8
                } else {
                    PositionEncodingKind::UTF16
                }),
                text_document_sync: Some(TextDocumentSyncCapability::Options(TextDocumentSyncOptions {
                    open_close: Some(true),
                    change: Some(TextDocumentSyncKind::INCREMENTAL),
                    save: Some(TextDocumentSyncSaveOptions::Supported(true)),
                    ..Default::default()
                })),
                hover_provider: Some(HoverProviderCapability::Simple(true)),
                completion_provider: Some(CompletionOptions {
                    trigger_characters: Some(snippet_triggers),
                    ..Default::default()
                }),
                signature_help_provider: Some(SignatureHelpOptions {
                    trigger_characters: Some(vec!["(".into(), ",".into()]),
                    ..Default::default()
                }),
                inlay_hint_provider: Some(OneOf::Left(true)),
                semantic_tokens_provider: Some(SemanticTokensServerCapabilities::SemanticTokensOptions(
                    SemanticTokensOptions {
                        legend: SemanticTokensLegend { token_types: TOKEN_TYPES.to_vec(), token_modifiers: vec![] },
                        full: Some(SemanticTokensFullOptions::Bool(true)),
                        ..Default::default()
                    },
                )),
                definition_provider: Some(OneOf::Left(true)),
                document_symbol_provider: Some(OneOf::Left(true)),
                code_action_provider: Some(CodeActionProviderCapability::Simple(true)),
                document_formatting_provider: Some(OneOf::Left(true)),
                document_range_formatting_provider: Some(OneOf::Left(true)),
                diagnostic_provider: pull.then(|| {
                    DiagnosticServerCapabilities::Options(DiagnosticOptions {
                        identifier: Some("hcl-types".into()),
                        inter_file_dependencies: true,
                        workspace_diagnostics: true,
                        work_done_progress_options: Default::default(),
                    })
                }),
                ..Default::default()
            },
        })
    }

    async fn initialized(&self, _: InitializedParams) {
        let (watch, pull) = {
            let st = lock(&self.state);
            (st.watch_dynamic, st.pull_config)
        };
        if watch {
            let options = DidChangeWatchedFilesRegistrationOptions {
                watchers: ["**/*.tf", "**/*.tfvars", "**/*.hcl", "**/*.pp"]
                    .iter()
                    .map(|g| FileSystemWatcher { glob_pattern: GlobPattern::String((*g).into()), kind: None })
                    .collect(),
            };
            let registration = Registration {
                id: "hcl-types-watch".into(),
                method: "workspace/didChangeWatchedFiles".into(),
                register_options: serde_json::to_value(options).ok(),
            };
            // Not awaited here: tower-lsp-server waits for every handler
            // before it ends the session, so a client that never answers
            // would keep the server alive after `exit` or end of input.
            let (client, state) = (self.client.clone(), self.state.clone());
            tokio::spawn(async move {
                if client.register_capability(vec![registration]).await.is_ok() {
                    lock(&state).watching = true;
                }
            });
        }
        if pull {
            self.pull_configuration();
        }
        self.watch_disk();
    }

    async fn shutdown(&self) -> Result<()> {
        self.closing.send_replace(true);
        Ok(())
    }

    async fn diagnostic(&self, params: DocumentDiagnosticParams) -> Result<DocumentDiagnosticReportResult> {
        self.pull_document(params).await
    }

    async fn workspace_diagnostic(&self, params: WorkspaceDiagnosticParams) -> Result<WorkspaceDiagnosticReportResult> {
        self.pull_workspace(params).await
    }

    async fn did_open(&self, params: DidOpenTextDocumentParams) {
        let opened = self.seq.fetch_add(1, Ordering::SeqCst) + 1;
        let doc = params.text_document;
        let text = self.stash.take(doc.text);
        let path = {
            let mut st = lock(&self.state);
            let path = st.workspace.open_path(&doc.uri, &doc.language_id);
            st.workspace.open.insert(path.clone(), Open::new(doc.uri, &text, doc.version, opened));
            path
        };
        self.graph.edited(&path);
        self.refresh(path, false).await;
    }

    async fn did_change(&self, mut params: DidChangeTextDocumentParams) {
        phases::mark("did_change");
        for change in &mut params.content_changes {
            change.text = self.stash.take(std::mem::take(&mut change.text));
        }
        let path = {
            let mut st = lock(&self.state);
            let Some(path) = st.workspace.doc_path(&params.text_document.uri) else { return };
            let enc = st.encoding;
            let ws = &mut st.workspace;
            let Some(open) = ws.open.get_mut(&path) else { return };
            // Versions only grow: an out-of-order change is never applied
            // on top of newer text.
            if params.text_document.version <= open.version {
                return;
            }
            for change in &params.content_changes {
                open.apply(change, enc);
            }
            open.version = params.text_document.version;
            open.reparse(&path, &ws.settings);
            phases::mark("reparsed");
            path
        };
        self.graph.edited(&path);
        self.refresh(path, true).await;
    }

    async fn did_save(&self, params: DidSaveTextDocumentParams) {
        let Some(path) = lock(&self.state).workspace.doc_path(&params.text_document.uri) else { return };
        // Only this file changed on disk (its disk copy counts once closed).
        self.disk.changed(&path);
        self.pulls.files_changed(path.parent());
        self.refresh(path, false).await;
    }

    async fn did_close(&self, params: DidCloseTextDocumentParams) {
        let uri = params.text_document.uri;
        let closed = {
            let mut st = lock(&self.state);
            let Some(path) = st.workspace.doc_path(&uri) else { return };
            let closed = st.workspace.close(&path);
            if closed.open.is_none() {
                return;
            }
            st.published.remove(&path);
            if st.pull {
                self.pulls.closed(&path);
            } else {
                // Queued like every publication, so the diagnostics of a
                // quick reopen always come after it.
                let empty = format!(
                    r#"{{"jsonrpc":"2.0","method":"textDocument/publishDiagnostics","params":{{"uri":{},"diagnostics":[]}}}}"#,
                    publish::json_string(uri.as_str())
                );
                self.outbox.publish(uri.as_str(), empty.into_bytes().into());
            }
            self.published.lock().unwrap_or_else(|e| e.into_inner()).remove(&path);
            self.disk.changed(&path);
            (path, closed)
        };
        self.deliver().await;
        let (path, closed) = closed;
        let key = module_key(&path);
        if let (Some(_), Some(key)) = (&closed.memo, &key) {
            self.graph.forget(key);
        }
        // What the module held goes once its last document is closed.
        let forgotten = closed.dir.as_deref().map(|d| self.disk.forget(d)).unwrap_or_default();
        let (seq, later) = (self.seq.load(Ordering::SeqCst), self.later.clone());
        // Nobody types into a closed document: what waited goes too.
        std::thread::spawn(move || {
            drop((closed.open, closed.memo, forgotten));
            later.free_all();
        });
        // Siblings, and the modules that call this one, see the disk copy now.
        let callers = match &key {
            Some((dir, _)) => self.graph.callers(&std::iter::once(dir.clone()).collect()),
            None => Default::default(),
        };
        self.refresh_modules(|_, p| module_key(p) == key || graph::key_of(p).is_some_and(|k| callers.contains(&k)))
            .await;
        self.trim_when_idle(seq, false);
    }

    async fn did_change_configuration(&self, params: DidChangeConfigurationParams) {
        let pull = lock(&self.state).pull_config;
        // VS Code sends no settings (null) and expects to be asked;
        // Neovim sends them all, `hclTypes` among them.
        let pushed = &params.settings;
        if !pushed.is_null() && (pushed.get("hclTypes").is_some() || !pull) {
            self.apply_settings(pushed).await;
        } else if pull {
            self.pull_configuration();
        }
    }

    async fn did_change_watched_files(&self, params: DidChangeWatchedFilesParams) {
        let mut dirs = std::collections::HashSet::new();
        for change in &params.changes {
            if let Some(path) = lock(&self.state).workspace.doc_path(&change.uri) {
                self.disk.changed(&path);
                dirs.extend(path.parent().map(PathBuf::from));
            }
        }
        self.files_changed(dirs, false).await;
    }

    async fn hover(&self, params: HoverParams) -> Result<Option<Hover>> {
        let pp = params.text_document_position_params;
        let Some(snap) = self.snapshot(&pp.text_document.uri).await else { return Ok(None) };
        let (rope, enc) = (snap.rope.clone(), snap.enc);
        let offset = text::offset(&rope, pp.position, enc);
        let info = blocking(move || ide::hover_with(&snap.docs, snap.index, offset, &mut snap.memo())).await?;
        Ok(info.map(|h| Hover {
            contents: HoverContents::Markup(MarkupContent { kind: MarkupKind::Markdown, value: h.markdown() }),
            range: Some(text::range(&rope, &h.range, enc)),
        }))
    }

    async fn completion(&self, params: CompletionParams) -> Result<Option<CompletionResponse>> {
        let pp = params.text_document_position;
        let Some(snap) = self.snapshot(&pp.text_document.uri).await else { return Ok(None) };
        let offset = text::offset(&snap.rope, pp.position, snap.enc);
        let list = blocking(move || {
            let analysis = snap.analysis();
            ide::completion(&snap.docs, snap.index, offset, &analysis)
        })
        .await?;
        let items = list
            .items
            .into_iter()
            .map(|c| CompletionItem {
                kind: Some(match c.kind {
                    ide::CompletionKind::Keyword => CompletionItemKind::KEYWORD,
                    ide::CompletionKind::Constructor => CompletionItemKind::CONSTRUCTOR,
                    ide::CompletionKind::Variable => CompletionItemKind::VARIABLE,
                    ide::CompletionKind::Attribute => CompletionItemKind::FIELD,
                    ide::CompletionKind::Function => CompletionItemKind::FUNCTION,
                }),
                detail: c.detail,
                insert_text_format: c.snippet.as_ref().map(|_| InsertTextFormat::SNIPPET),
                insert_text: c.snippet,
                label: c.label,
                ..Default::default()
            })
            .collect();
        if list.incomplete {
            return Ok(Some(CompletionResponse::List(CompletionList { is_incomplete: true, items })));
        }
        Ok(Some(CompletionResponse::Array(items)))
    }

    async fn signature_help(&self, params: SignatureHelpParams) -> Result<Option<SignatureHelp>> {
        let pp = params.text_document_position_params;
        let Some(snap) = self.snapshot(&pp.text_document.uri).await else { return Ok(None) };
        let offset = text::offset(&snap.rope, pp.position, snap.enc);
        let sig = blocking(move || ide::signature_help(&snap.docs[snap.index], offset)).await?;
        Ok(sig.map(|s| {
            let utf16 = |byte: usize| s.label[..byte.min(s.label.len())].encode_utf16().count() as u32;
            SignatureHelp {
                signatures: vec![SignatureInformation {
                    label: s.label.clone(),
                    documentation: s.documentation.clone().map(Documentation::String),
                    parameters: Some(
                        s.parameters
                            .iter()
                            .map(|r| ParameterInformation {
                                label: ParameterLabel::LabelOffsets([utf16(r.start), utf16(r.end)]),
                                documentation: None,
                            })
                            .collect(),
                    ),
                    active_parameter: Some(s.active as u32),
                }],
                active_signature: Some(0),
                active_parameter: Some(s.active as u32),
            }
        }))
    }

    async fn inlay_hint(&self, params: InlayHintParams) -> Result<Option<Vec<InlayHint>>> {
        let Some(snap) = self.snapshot(&params.text_document.uri).await else {
            return Ok(None);
        };
        if !snap.settings.inlay_hints {
            return Ok(Some(Vec::new()));
        }
        let (rope, enc) = (snap.rope.clone(), snap.enc);
        let hints = blocking(move || {
            let analysis = snap.analysis();
            ide::inlay_hints(&analysis, snap.index, &snap.docs)
        })
        .await?;
        let range = params.range;
        Ok(Some(
            hints
                .into_iter()
                .map(|(offset, label)| InlayHint {
                    position: text::position(&rope, offset, enc),
                    label: InlayHintLabel::String(label),
                    kind: Some(InlayHintKind::TYPE),
                    text_edits: None,
                    tooltip: None,
                    padding_left: None,
                    padding_right: None,
                    data: None,
                })
                .filter(|h| h.position >= range.start && h.position <= range.end)
                .collect(),
        ))
    }

    async fn semantic_tokens_full(&self, params: SemanticTokensParams) -> Result<Option<SemanticTokensResult>> {
        let Some(snap) = self.snapshot(&params.text_document.uri).await else { return Ok(None) };
        let (rope, enc) = (snap.rope.clone(), snap.enc);
        let tokens = blocking(move || ide::semantic_tokens(&snap.analysis(), snap.index)).await?;
        let mut data = Vec::new();
        let (mut prev_line, mut prev_start) = (0u32, 0u32);
        for (range, kind) in tokens {
            let r = text::range(&rope, &range, enc);
            if r.start.line != r.end.line {
                continue;
            }
            let delta_line = r.start.line - prev_line;
            let delta_start = if delta_line == 0 { r.start.character - prev_start } else { r.start.character };
            data.push(SemanticToken {
                delta_line,
                delta_start,
                length: r.end.character - r.start.character,
                token_type: match kind {
                    ide::TokenKind::Type => 0,
                    ide::TokenKind::Function => 1,
                    ide::TokenKind::Property => 2,
                },
                token_modifiers_bitset: 0,
            });
            prev_line = r.start.line;
            prev_start = r.start.character;
        }
        Ok(Some(SemanticTokensResult::Tokens(SemanticTokens { result_id: None, data })))
    }

    async fn goto_definition(&self, params: GotoDefinitionParams) -> Result<Option<GotoDefinitionResponse>> {
        let pp = params.text_document_position_params;
        let Some(snap) = self.snapshot(&pp.text_document.uri).await else { return Ok(None) };
        let enc = snap.enc;
        let offset = text::offset(&snap.rope, pp.position, enc);
        let found = blocking(move || {
            let found = ide::definition_with(&snap.docs, snap.index, offset, &mut snap.memo());
            found.and_then(|(path, range)| Some((snap.text_of(&path)?, path, range)))
        })
        .await?;
        Ok(found.and_then(|(text, path, range)| {
            let uri = lock(&self.state).workspace.uri_of(&path)?;
            let r = text::range(&Rope::from_str(&text), &range, enc);
            Some(GotoDefinitionResponse::Scalar(Location { uri, range: r }))
        }))
    }

    async fn document_symbol(&self, params: DocumentSymbolParams) -> Result<Option<DocumentSymbolResponse>> {
        let Some(snap) = self.snapshot(&params.text_document.uri).await else { return Ok(None) };
        let (rope, enc, index) = (snap.rope.clone(), snap.enc, snap.index);
        let symbols = blocking(move || {
            let analysis = snap.analysis();
            let mut all: Vec<_> =
                analysis.symbols.iter().chain(&analysis.resources).filter(|s| s.doc == index).cloned().collect();
            all.sort_by_key(|s| s.range.start);
            all
        })
        .await?;
        #[allow(deprecated)]
        let out = symbols
            .into_iter()
            .map(|s| DocumentSymbol {
                name: s.address.clone(),
                detail: Some(s.ty.brief()),
                kind: match s.kind {
                    analysis::SymbolKind::Variable => SymbolKind::VARIABLE,
                    analysis::SymbolKind::Local => SymbolKind::CONSTANT,
                    analysis::SymbolKind::Output => SymbolKind::PROPERTY,
                    analysis::SymbolKind::Config => SymbolKind::VARIABLE,
                    analysis::SymbolKind::Attribute => SymbolKind::CONSTANT,
                    analysis::SymbolKind::Resource => SymbolKind::OBJECT,
                },
                tags: None,
                deprecated: None,
                range: text::range(&rope, &s.range, enc),
                selection_range: text::range(&rope, &s.name_range, enc),
                children: None,
            })
            .collect();
        Ok(Some(DocumentSymbolResponse::Nested(out)))
    }

    async fn formatting(&self, params: DocumentFormattingParams) -> Result<Option<Vec<TextEdit>>> {
        match self.open_text(&params.text_document.uri) {
            Some((rope, path, enc)) => format::document(&rope, &path, enc),
            None => Ok(None),
        }
    }

    async fn range_formatting(&self, params: DocumentRangeFormattingParams) -> Result<Option<Vec<TextEdit>>> {
        match self.open_text(&params.text_document.uri) {
            Some((rope, path, enc)) => format::range(&rope, &path, params.range, enc),
            None => Ok(None),
        }
    }

    async fn code_action(&self, params: CodeActionParams) -> Result<Option<CodeActionResponse>> {
        let uri = params.text_document.uri.clone();
        let Some(snap) = self.snapshot(&uri).await else { return Ok(None) };
        let (rope, enc) = (snap.rope.clone(), snap.enc);
        let start = text::offset(&rope, params.range.start, enc);
        let end = text::offset(&rope, params.range.end, enc);
        let fixes = blocking(move || {
            let analysis = snap.analysis();
            let text = snap.docs[snap.index].file.text.clone();
            analysis.diagnostics[snap.index]
                .iter()
                .filter(|d| d.range.start <= end && start <= d.range.end)
                .filter_map(|d| ide::quick_fix(d, &text).map(|f| (d.clone(), f)))
                .collect::<Vec<_>>()
        })
        .await?;
        let actions = fixes
            .into_iter()
            .map(|(d, f)| {
                let edit = TextEdit { range: text::range(&rope, &f.range, enc), new_text: f.replacement };
                let mut changes = std::collections::HashMap::new();
                changes.insert(uri.clone(), vec![edit]);
                CodeActionOrCommand::CodeAction(CodeAction {
                    title: f.title,
                    kind: Some(CodeActionKind::QUICKFIX),
                    diagnostics: Some(vec![Diagnostic {
                        range: text::range(&rope, &d.range, enc),
                        severity: Some(severity(d.severity)),
                        code: Some(NumberOrString::String(d.code.as_str().into())),
                        source: Some("hcl-types".into()),
                        message: d.message,
                        ..Default::default()
                    }]),
                    edit: Some(WorkspaceEdit { changes: Some(changes), ..Default::default() }),
                    is_preferred: Some(true),
                    ..Default::default()
                })
            })
            .collect();
        Ok(Some(actions))
    }
}
