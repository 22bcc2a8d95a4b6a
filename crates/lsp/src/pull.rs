//! LSP 3.17 pull diagnostics, for clients that pull and can be asked to
//! pull again (`workspace/diagnostic/refresh`); the others get
//! publications. A document's pull is answered from its last analysis once
//! that analysis is of the document's current version (the client pulls
//! right after its change); a list whose bytes did not change since the
//! client's `previousResultId` is answered `unchanged`. When a document's
//! list changes without an edit of its own (a called module, the disk, the
//! settings), the client is asked to pull again.
//!
//! `workspace/diagnostic` reports the files nobody has open of the modules
//! an edit affects: the modules with an open document, and the closed
//! modules that call them (directly or not, found by scanning the
//! workspace folders' texts, `analysis::callers`). It is answered once
//! something differs from what the client has, and otherwise held until
//! an analysis changes something (or the session ends).

use analysis::sync::Locked;
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use ropey::Rope;
use tokio::sync::watch;
use tower_lsp_server::jsonrpc::{Error, ErrorCode, Result};
use tower_lsp_server::ls_types::*;

use super::outbox::Body;
use super::publish::{self, Published};
use super::splice::{Field, MIN_SPLICED};
use super::{blocking, Backend};
use analysis::{Document, Family, Stop, Text};
use project::disk::is_virtual;
use project::documents::module_key;

/// How long a document pull waits for the analysis of the document's
/// version before it runs one itself, and before it gives up.
const READY_WAIT: Duration = Duration::from_secs(5);
const GIVE_UP: Duration = Duration::from_secs(120);

/// How long a workspace pull is held when nothing changes (the client
/// then asks again), and how long it lets edits settle before it looks.
const HOLD: Duration = Duration::from_secs(300);
const SETTLE: Duration = Duration::from_millis(150);

pub struct Pulls {
    /// Per open document: the version its last analysis was of, and the id
    /// of the list it gave (the list itself is in `Backend::published`).
    ready: Mutex<HashMap<PathBuf, Ready>>,
    /// Advances whenever a list may have changed.
    generation: watch::Sender<u64>,
    /// Closed files a workspace pull reported, as last reported (and the
    /// text it was of).
    closed: Mutex<HashMap<PathBuf, (Text, Published)>>,
    /// Tells this process's result ids from another's.
    nonce: String,
}

impl Default for Pulls {
    fn default() -> Self {
        let since = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
        Pulls {
            ready: Mutex::default(),
            generation: watch::Sender::new(0),
            closed: Mutex::default(),
            nonce: format!("{:x}{:x}", std::process::id(), since.as_millis()),
        }
    }
}

/// A document's analysed version (when it was opened, its version) and
/// the id of the list that analysis gave.
type Ready = ((u64, i32), u64);

/// A closed file's report: its path, its list's id and the list (JSON).
type Report = (PathBuf, u64, Vec<u8>);

impl Pulls {
    fn id(&self, result: u64) -> String {
        format!("{}-{result}", self.nonce)
    }

    /// Notes a document's new analysis; whether its list changed although
    /// the document did not (so the client should pull again).
    pub fn ready(&self, path: &Path, analysed: (u64, i32), result: u64) -> bool {
        let before = self.ready.locked().insert(path.to_path_buf(), (analysed, result));
        self.changed();
        matches!(before, Some((version, last)) if version == analysed && last != result)
    }

    /// Something a pull reports may have changed.
    pub fn changed(&self) {
        self.generation.send_modify(|g| *g += 1);
    }

    /// A document closed: it is reported as a closed file from now on.
    pub fn closed(&self, path: &Path) {
        self.ready.locked().remove(path);
        self.changed();
    }
}

/// The workspace folders' directories (else the root's).
pub fn roots(params: &InitializeParams) -> Vec<PathBuf> {
    let mut uris: Vec<&Uri> = params.workspace_folders.iter().flatten().map(|f| &f.uri).collect();
    if uris.is_empty() {
        #[allow(deprecated)]
        uris.extend(params.root_uri.as_ref());
    }
    uris.into_iter().filter_map(|u| u.to_file_path().map(|p| p.into_owned())).filter(|p| p.is_absolute()).collect()
}

/// A list as LSP items.
fn decode(list: &[u8]) -> Vec<Diagnostic> {
    serde_json::from_slice(list).unwrap_or_default()
}

fn full(result_id: String, items: Vec<Diagnostic>) -> FullDocumentDiagnosticReport {
    FullDocumentDiagnosticReport { result_id: Some(result_id), items }
}

fn document_report(report: DocumentDiagnosticReport) -> DocumentDiagnosticReportResult {
    DocumentDiagnosticReportResult::Report(report)
}

/// `ServerCancelled` with `retriggerRequest`: the client asks again.
fn cancelled() -> Error {
    Error {
        code: ErrorCode::ServerError(-32802),
        message: "hcl-types: the document's analysis did not finish; ask again".into(),
        data: Some(serde_json::json!({"retriggerRequest": true})),
    }
}

impl Backend {
    /// `textDocument/diagnostic`.
    pub(super) async fn pull_document(
        &self,
        params: DocumentDiagnosticParams,
    ) -> Result<DocumentDiagnosticReportResult> {
        let uri = params.text_document.uri;
        let previous = params.previous_result_id;
        let Some(path) = crate::from_proto::doc_path(&self.state.locked().documents, &uri) else {
            return Ok(document_report(DocumentDiagnosticReport::Full(RelatedFullDocumentDiagnosticReport::default())));
        };
        let pulls = self.pulls.clone();
        let mut generation = pulls.generation.subscribe();
        let started = tokio::time::Instant::now();
        let mut analysed_here = false;
        loop {
            let current = self.state.locked().documents.open.get(&path).map(|o| (o.opened, o.version));
            let Some(current) = current else {
                // Closed (the client pulls once more after a close).
                let me = self.clone();
                let wanted = path.clone();
                let reports = blocking(move || me.closed_reports(Some(&wanted))).await?;
                let (result, list) =
                    reports.into_iter().find(|r| r.0 == path).map(|r| (r.1, r.2)).unwrap_or((0, b"[]".to_vec()));
                return Ok(self.answer(previous.as_deref(), result, list.into()));
            };
            let ready = pulls.ready.locked().get(&path).copied();
            if ready.is_some_and(|(analysed, _)| analysed == current) {
                let published = self.published.clone();
                let slot = published.locked().get(&path).cloned();
                let found = slot.and_then(|slot| {
                    let p = slot.locked();
                    p.published.as_ref().map(|p| (p.result(), p.list()))
                });
                if let Some((result, list)) = found {
                    return Ok(self.answer(previous.as_deref(), result, list));
                }
            }
            let waited = started.elapsed();
            let wait = if analysed_here { GIVE_UP.saturating_sub(waited) } else { READY_WAIT.saturating_sub(waited) };
            match tokio::time::timeout(wait, generation.changed()).await {
                Ok(Ok(())) => {
                    generation.borrow_and_update();
                }
                Ok(Err(_)) => return Err(cancelled()),
                // The analysis that should have come did not (it failed,
                // or another one was published instead): run one.
                Err(_) if !analysed_here => {
                    analysed_here = true;
                    self.refresh_one(path.clone(), false).await;
                }
                Err(_) => return Err(cancelled()),
            }
        }
    }

    /// A document report: `unchanged` when the client has this list
    /// (`list`, a JSON array); a large one is put in by the transport.
    fn answer(&self, previous: Option<&str>, result: u64, list: Body) -> DocumentDiagnosticReportResult {
        let id = self.pulls.id(result);
        if previous == Some(id.as_str()) {
            return document_report(DocumentDiagnosticReport::Unchanged(RelatedUnchangedDocumentDiagnosticReport {
                related_documents: None,
                unchanged_document_diagnostic_report: UnchangedDocumentDiagnosticReport { result_id: id },
            }));
        }
        document_report(DocumentDiagnosticReport::Full(RelatedFullDocumentDiagnosticReport {
            related_documents: None,
            full_document_diagnostic_report: if self.direct && list.len() >= MIN_SPLICED {
                self.splices.put(id.clone(), Field::Items, list);
                full(id, Vec::new())
            } else {
                full(id, decode(&list.to_vec()))
            },
        }))
    }

    /// `workspace/diagnostic`: held until something differs from what the
    /// client has.
    pub(super) async fn pull_workspace(
        &self,
        params: WorkspaceDiagnosticParams,
    ) -> Result<WorkspaceDiagnosticReportResult> {
        let previous: HashMap<String, String> =
            params.previous_result_ids.into_iter().map(|p| (p.uri.as_str().to_owned(), p.value)).collect();
        let mut generation = self.pulls.generation.subscribe();
        let mut closing = self.closing.subscribe();
        let started = tokio::time::Instant::now();
        let empty = || Ok(WorkspaceDiagnosticReportResult::Report(WorkspaceDiagnosticReport { items: Vec::new() }));
        loop {
            generation.borrow_and_update();
            let me = self.clone();
            let reports = blocking(move || me.closed_reports(None)).await?;
            let open: HashSet<String> =
                self.state.locked().documents.open.values().map(|o| o.uri.as_str().to_owned()).collect();
            let mut items = Vec::new();
            let mut reported = HashSet::new();
            for (path, result, list) in &reports {
                let Some(uri) = Uri::from_file_path(path) else { continue };
                let id = self.pulls.id(*result);
                reported.insert(uri.as_str().to_owned());
                if previous.get(uri.as_str()) != Some(&id) {
                    items.push((uri, id, decode(list)));
                }
            }
            // Files the client has a list for that are no longer reported
            // (their modules closed) are cleared, once.
            let cleared = self.pulls.id(0);
            for (uri, value) in &previous {
                if !reported.contains(uri) && !open.contains(uri) && *value != cleared {
                    if let Ok(uri) = uri.parse::<Uri>() {
                        items.push((uri, cleared.clone(), Vec::new()));
                    }
                }
            }
            if !items.is_empty() {
                let items = items
                    .into_iter()
                    .map(|(uri, id, list)| {
                        WorkspaceDocumentDiagnosticReport::Full(WorkspaceFullDocumentDiagnosticReport {
                            uri,
                            version: None,
                            full_document_diagnostic_report: full(id, list),
                        })
                    })
                    .collect();
                return Ok(WorkspaceDiagnosticReportResult::Report(WorkspaceDiagnosticReport { items }));
            }
            if *closing.borrow() {
                return empty();
            }
            let left = HOLD.saturating_sub(started.elapsed());
            tokio::select! {
                changed = generation.changed() => if changed.is_err() { return empty() },
                _ = closing.changed() => return empty(),
                _ = tokio::time::sleep(left) => return empty(),
            }
            tokio::time::sleep(SETTLE).await;
        }
    }

    /// The reports of the closed files of the modules an edit affects (or
    /// of the module of `only`, for that file). Runs off the message loop.
    pub(crate) fn closed_reports(&self, only: Option<&Path>) -> Vec<Report> {
        let (open, enc, recheck) = {
            let st = self.state.locked();
            let open: HashSet<PathBuf> = st.documents.open.keys().cloned().collect();
            (open, st.encoding, !st.watching)
        };
        let mut modules: Vec<(PathBuf, Family)> = match only {
            Some(p) => module_key(p).into_iter().collect(),
            None => {
                let mut keys: Vec<(PathBuf, Family)> =
                    open.iter().filter(|p| !is_virtual(p)).filter_map(|p| module_key(p)).collect();
                let open: HashSet<(PathBuf, Family)> = keys.iter().cloned().collect();
                let callers = if open.is_empty() { HashSet::new() } else { self.service.scan().callers(&open) };
                keys.extend(callers);
                keys
            }
        };
        modules.sort();
        modules.dedup();
        if only.is_none() {
            // Closed callers no longer affected are forgotten.
            for key in self.service.keep_closed(|k| modules.contains(k)) {
                self.service.done_with(&key, open.iter().any(|p| module_key(p).as_ref() == Some(&key)));
            }
        }
        let mut out = Vec::new();
        for (dir, family) in modules {
            // With the module's configuration file under the editor's.
            let settings = self.state.locked().documents.settings_for(&dir);
            let key = (dir, family);
            let opened = open.iter().find(|p| module_key(p).as_ref() == Some(&key));
            // One file's pull keeps nothing a workspace pull would
            // not (it forgets what is no longer affected).
            let memo = || self.service.closed_memo(&key, only.is_none());
            let wanted = |p: &Path| !open.contains(p) && !is_virtual(p) && only.is_none_or(|o| o == p);
            let Some((docs, analysis)) = self.for_lists(&key, &settings, recheck, opened, memo, wanted) else {
                continue;
            };
            let closed: Vec<usize> = (0..docs.len()).filter(|&i| wanted(&docs[i].file.path)).collect();
            let ropes = crate::related_ropes(self, &settings, &docs);
            for i in closed {
                let path = &docs[i].file.path;
                let last = self.pulls.closed.locked().remove(path);
                let had = last.is_some();
                let Some(next) = closed_list(&docs, i, &analysis, &settings, &ropes, enc, last) else { continue };
                out.push((path.clone(), next.result(), next.list().to_vec()));
                if only.is_none() || had {
                    self.pulls.closed.locked().insert(path.clone(), (docs[i].shown_text().clone(), next));
                }
            }
            self.service.done_with(&key, opened.is_some());
        }
        if only.is_none() {
            let reported: HashSet<&PathBuf> = out.iter().map(|r| &r.0).collect();
            self.pulls.closed.locked().retain(|p, _| reported.contains(p));
        }
        out
    }

    /// A module's documents and analysis, for the lists of its files
    /// nobody has open (`None` when `wanted` takes none of them): an open
    /// module's (`opened`, one of its documents) from its snapshot and
    /// memo, a closed one's from the sources with `memo`.
    pub(crate) fn for_lists(
        &self,
        (dir, family): &(PathBuf, Family),
        settings: &project::settings::Settings,
        recheck: bool,
        opened: Option<&PathBuf>,
        memo: impl FnOnce() -> project::service::SharedMemo,
        wanted: impl Fn(&Path) -> bool,
    ) -> Option<(Vec<Document>, Arc<analysis::ModuleAnalysis>)> {
        let (docs, memo) = match opened {
            Some(p) => {
                let partial = self.state.locked().documents.module(p, &self.service)?;
                let (snap, _) = partial.complete(&self.service.disk, recheck)?;
                (snap.docs, snap.memo)
            }
            None => {
                (self.with_sources(settings, recheck, |s| analysis::workspace::Files::module(s, dir, *family)), memo())
            }
        };
        if !docs.iter().any(|d| wanted(&d.file.path)) {
            return None;
        }
        let mut memo = memo.locked();
        let analysis = self.with_sources(settings, recheck, |s| self.service.analyse(s, &docs, &mut memo, Stop::NEVER));
        drop(memo);
        Some((docs, analysis.unwrap_or_default()))
    }
}

/// The list of a file nobody has open (`docs[i]`) from its module's
/// analysis; `last`, what was last reported for it, lends its rope when the
/// text is the same. `None` for a file with no URI.
pub(crate) fn closed_list(
    docs: &[Document],
    i: usize,
    analysis: &analysis::ModuleAnalysis,
    settings: &project::settings::Settings,
    ropes: &crate::ropes::Ropes,
    enc: crate::Encoding,
    last: Option<(Text, Published)>,
) -> Option<Published> {
    let doc = &docs[i];
    let path = &doc.file.path;
    let uri = Uri::from_file_path(path)?;
    let rope = match &last {
        Some((text, p)) if Arc::ptr_eq(text, doc.shown_text()) => p.rope(),
        _ => Rope::from_str(doc.shown_text()),
    };
    let target = publish::Target {
        path,
        uri_json: Arc::from(publish::json_string(uri.as_str())),
        text: doc.shown_text(),
        rope: &rope,
        enc,
        severity: &settings.severity,
        module: ropes,
        edit: None,
        analysis: analysis.id,
        kept: analysis.kept.get(i).copied().flatten(),
    };
    let diagnostics = project::service::diagnostics(docs, i, analysis, settings);
    Some(Published::update(last.map(|(_, p)| p), &target, 0, &diagnostics).0)
}
