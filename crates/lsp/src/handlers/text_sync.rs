//! Document synchronisation: open, change (applied before any `.await`), save, close.

use super::prelude::*;
use analysis::sync::Locked;

pub(crate) async fn did_open(b: &Backend, params: DidOpenTextDocumentParams) {
    let opened = b.seq.fetch_add(1, Ordering::SeqCst) + 1;
    let doc = params.text_document;
    let text = b.stash.take(doc.text);
    let path = {
        let mut st = b.state.locked();
        let path = from_proto::open_path(&mut st.documents, &doc.uri, &doc.language_id);
        // Without a workspace folder, what the server reads is confined to
        // the repositories of the documents opened (`project::confine`).
        if let Some(dir) = path.parent() {
            st.documents.settings.session.tree.admit(dir);
        }
        st.documents.open.insert(path.clone(), Open::new(doc.uri.as_str().to_owned(), &text, doc.version, opened));
        path
    };
    b.graph.edited(&path);
    b.refresh(path, false).await;
}

pub(crate) async fn did_change(b: &Backend, mut params: DidChangeTextDocumentParams) {
    phases::mark("did_change");
    for change in &mut params.content_changes {
        change.text = b.stash.take(std::mem::take(&mut change.text));
    }
    let path = {
        let mut st = b.state.locked();
        let Some(path) = from_proto::doc_path(&st.documents, &params.text_document.uri) else { return };
        let enc = st.encoding;
        let ws = &mut st.documents;
        let Some(open) = ws.open.get_mut(&path) else { return };
        // Versions only grow: an out-of-order change is never applied
        // on top of newer text.
        if params.text_document.version <= open.version {
            return;
        }
        for change in &params.content_changes {
            from_proto::apply(open, change, enc);
        }
        open.version = params.text_document.version;
        open.reparse(&path, &ws.settings);
        phases::mark("reparsed");
        path
    };
    b.graph.edited(&path);
    b.refresh(path, true).await;
}

pub(crate) async fn did_save(b: &Backend, params: DidSaveTextDocumentParams) {
    let Some(path) = from_proto::doc_path(&b.state.locked().documents, &params.text_document.uri) else { return };
    // Only this file changed on disk (its disk copy counts once closed).
    b.disk.changed(&path);
    b.index.changed(&path);
    b.pulls.files_changed(path.parent());
    if b.state.locked().documents.config_changed(&path) {
        // A configuration file may change any module's settings.
        b.graph.settings_changed();
        b.refresh_all().await;
    }
    b.refresh(path, false).await;
}

pub(crate) async fn did_close(b: &Backend, params: DidCloseTextDocumentParams) {
    let uri = params.text_document.uri;
    let closed = {
        let mut st = b.state.locked();
        let Some(path) = from_proto::doc_path(&st.documents, &uri) else { return };
        let closed = st.documents.close(&path);
        if closed.open.is_none() {
            return;
        }
        st.published.remove(&path);
        if closed.memo.is_some() {
            // (Nothing of the module is open any more.)
            module_key(&path).map(|k| st.asked.remove(&k));
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
        b.disk.changed(&path);
        (path, closed)
    };
    b.deliver().await;
    let (path, closed) = closed;
    let key = module_key(&path);
    if let (Some(_), Some(key)) = (&closed.memo, &key) {
        b.graph.forget(key);
    }
    // What the module held goes once its last document is closed.
    let forgotten = closed.dir.as_deref().map(|d| b.disk.forget(d)).unwrap_or_default();
    let (seq, later) = (b.seq.load(Ordering::SeqCst), b.later.clone());
    // Nobody types into a closed document: what waited goes too.
    std::thread::spawn(move || {
        drop((closed.open, closed.memo, forgotten));
        later.free_all();
    });
    // Siblings, and the modules that call this one, see the disk copy now.
    let callers = match &key {
        Some((dir, _)) => b.graph.callers(&std::iter::once(dir.clone()).collect()),
        None => Default::default(),
    };
    b.refresh_modules(|_, p| module_key(p) == key || graph::key_of(p).is_some_and(|k| callers.contains(&k))).await;
    // Its file's list as the workspace sees it, for a client published to.
    if let Some(key) = key {
        b.check_in_background(crate::background::Scope::Module(key));
    }
    b.trim_when_idle(seq, false);
}
