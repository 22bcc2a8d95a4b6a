//! Document synchronisation: open, change, save, close. Each is a
//! [`SyncNotification`]: what it does to the documents happens in `apply`,
//! which the dispatcher runs to completion under the state lock before any
//! later message is read; analysis and publications follow in `then`.

use super::prelude::*;
use crate::dispatch::{fault_point, Applying, SyncNotification};
use crate::State;

pub(crate) struct DidOpen;

impl SyncNotification for DidOpen {
    const METHOD: &'static str = "textDocument/didOpen";
    type Params = DidOpenTextDocumentParams;
    type Then = PathBuf;

    fn apply(b: &Backend, st: &mut State, applying: &Applying, params: Self::Params) -> Option<PathBuf> {
        let opened = b.seq.fetch_add(1, Ordering::SeqCst) + 1;
        let doc = params.text_document;
        let text = b.stash.take(doc.text);
        let docs = st.documents.texts(applying);
        let path = from_proto::open_path(docs, &doc.uri, &doc.language_id);
        // Without a workspace folder, what the server reads is confined to
        // the repositories of the documents opened (`project::confine`).
        if let Some(dir) = path.parent() {
            docs.settings.session.tree.admit(dir);
        }
        docs.open.insert(path.clone(), Open::new(doc.uri.as_str().to_owned(), &text, doc.version, opened));
        Some(path)
    }

    async fn then(b: &Backend, path: PathBuf) {
        b.service.graph.edited(&path);
        b.refresh(path, false).await;
    }
}

pub(crate) struct DidChange;

impl SyncNotification for DidChange {
    const METHOD: &'static str = "textDocument/didChange";
    type Params = DidChangeTextDocumentParams;
    type Then = PathBuf;

    fn apply(b: &Backend, st: &mut State, applying: &Applying, mut params: Self::Params) -> Option<PathBuf> {
        phases::mark("did_change");
        for change in &mut params.content_changes {
            change.text = b.stash.take(std::mem::take(&mut change.text));
        }
        let uri = &params.text_document.uri;
        let path = from_proto::doc_path(&st.documents, uri)?;
        let enc = st.encoding;
        let ws = st.documents.texts(applying);
        let open = ws.open.get_mut(&path)?;
        // Versions only grow: an out-of-order change is never applied
        // on top of newer text.
        if params.text_document.version <= open.version {
            return None;
        }
        for change in &params.content_changes {
            from_proto::apply(open, change, enc);
        }
        open.version = params.text_document.version;
        // The text is the client's now; a panic in the parse leaves a
        // parse of an older version, which the next read brings up to it.
        fault_point(Self::METHOD, uri);
        open.reparse(&path, &ws.settings);
        phases::mark("reparsed");
        Some(path)
    }

    async fn then(b: &Backend, path: PathBuf) {
        b.service.graph.edited(&path);
        b.refresh(path, true).await;
    }
}

pub(crate) struct DidSave;

impl SyncNotification for DidSave {
    const METHOD: &'static str = "textDocument/didSave";
    type Params = DidSaveTextDocumentParams;
    /// The file, and whether it is a configuration file.
    type Then = (PathBuf, bool);

    fn apply(_: &Backend, st: &mut State, _: &Applying, params: Self::Params) -> Option<(PathBuf, bool)> {
        let path = from_proto::doc_path(&st.documents, &params.text_document.uri)?;
        let config = st.documents.config_changed(&path);
        Some((path, config))
    }

    async fn then(b: &Backend, (path, config): (PathBuf, bool)) {
        // Only this file changed on disk (its disk copy counts once closed).
        b.service.disk.changed(&path);
        b.index.changed(&path);
        b.service.files_changed(path.parent());
        b.pulls.changed();
        if config {
            // A configuration file may change any module's settings.
            b.service.graph.settings_changed();
            b.refresh_all().await;
        }
        b.refresh(path, false).await;
    }
}

pub(crate) struct DidClose;

impl SyncNotification for DidClose {
    const METHOD: &'static str = "textDocument/didClose";
    type Params = DidCloseTextDocumentParams;
    type Then = (PathBuf, project::documents::Closed);

    fn apply(b: &Backend, st: &mut State, applying: &Applying, params: Self::Params) -> Option<Self::Then> {
        let uri = params.text_document.uri;
        let path = from_proto::doc_path(&st.documents, &uri)?;
        let closed = st.documents.texts(applying).close(&path, &b.service);
        closed.open.as_ref()?;
        st.published.remove(&path);
        if let Some(key) = &closed.module {
            // (Nothing of the module is open any more.)
            st.asked.remove(key);
        }
        if st.pull {
            b.pulls.closed(&path);
        } else {
            // Queued like every publication, so the diagnostics of a
            // quick reopen always come after it.
            let empty = format!(
                r#"{{"jsonrpc":"2.0","method":"textDocument/publishDiagnostics","params":{{"uri":{},"diagnostics":[]}}}}"#,
                publish::json_string(uri.as_str())
            );
            b.outbox.publish(uri.as_str(), empty.into_bytes().into());
        }
        b.published.locked().remove(&path);
        b.service.disk.changed(&path);
        Some((path, closed))
    }

    async fn then(b: &Backend, (path, closed): Self::Then) {
        b.deliver().await;
        let key = module_key(&path);
        if let Some(key) = &closed.module {
            b.service.graph.forget(key);
        }
        // What the module held goes once its last document is closed.
        let forgotten = closed.dir.as_deref().map(|d| b.service.disk.forget(d)).unwrap_or_default();
        let (seq, later) = (b.seq.load(Ordering::SeqCst), b.later.clone());
        // Nobody types into a closed document: what waited goes too.
        std::thread::spawn(move || {
            drop((closed.open, closed.memo, forgotten));
            later.free_all();
        });
        // Siblings, and the modules that call this one, see the disk copy now.
        let callers = match &key {
            Some((dir, _)) => b.service.graph.callers(&std::iter::once(dir.clone()).collect()),
            None => Default::default(),
        };
        b.refresh_modules(|_, p| module_key(p) == key || graph::key_of(p).is_some_and(|k| callers.contains(&k))).await;
        // Its file's list as the workspace sees it, for a client published to.
        if let Some(key) = key {
            b.check_in_background(crate::background::Scope::Module(key));
        }
        b.trim_when_idle(seq, false);
    }
}
