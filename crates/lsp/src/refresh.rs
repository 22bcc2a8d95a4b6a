//! Analysing a module after a change and handing its results to the
//! client: published, or kept for its pulls (`pull.rs`); then the open
//! modules that call it. Analysis runs off the message loop, and an older,
//! slower analysis never overwrites a newer one's results.

use analysis::sync::Locked;
use std::collections::HashSet;
use std::panic::AssertUnwindSafe;
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;

use super::publish::{self, Published};
use super::{blocking, Backend, RawPublish, Sent, TREES_KEPT};
use futures_util::FutureExt;
use project::documents::{module_key, Documents};
use project::graph::key_of;
use project::phases;
use project::settings::LogLevel;

/// How long the server's own watch lets events gather before what they
/// change is analysed again: an editor's save (a new file renamed over
/// the old one) or a `git checkout` is many events, analysed once.
const SETTLE_EVENTS: Duration = Duration::from_millis(75);

impl Backend {
    /// Without a transport (`tests/soak.rs` drives the handlers itself),
    /// passes the waiting publications to the client, in order; with one
    /// (`serve`) its writer takes them itself.
    pub(super) async fn deliver(&self) {
        if self.direct {
            return;
        }
        let _in_order = self.delivering.lock().await;
        while let Some(body) = self.outbox.next_publication() {
            if let Ok(mut message) = serde_json::from_slice::<serde_json::Value>(&body.to_vec()) {
                self.client.send_notification::<RawPublish>(message["params"].take()).await;
            }
        }
    }

    /// Analyses the module of `path` and publishes diagnostics for its open
    /// documents, then the same for the open modules that call it. After
    /// an `edit` of `path`, a sibling whose list and version stay the same
    /// is not published again (see [`Sent`]).
    pub(super) async fn refresh(&self, path: PathBuf, edit: bool) {
        let dir = path.parent().map(PathBuf::from);
        self.refresh_one(path, edit).await;
        self.when_schema_ready(dir.as_deref());
        if let Some(dir) = dir {
            let callers = self.service.graph.callers(&std::iter::once(dir.clone()).collect());
            self.refresh_modules(|_, p| key_of(p).is_some_and(|k| callers.contains(&k))).await;
            // The open modules it calls whose callers now set other
            // arguments (analysis.md §3.2).
            for callee in self.callees_to_refresh(&dir) {
                self.refresh_one(callee, true).await;
            }
        }
    }

    /// While the module's own provider schema is being printed, a task
    /// waits for it and then analyses the module's open documents again.
    pub(super) fn when_schema_ready(&self, dir: Option<&std::path::Path>) {
        let Some(dir) = dir.map(std::path::Path::to_path_buf) else { return };
        let settings = self.state.locked().documents.settings.clone();
        if !self.service.graph.wait_for_schema(&settings, &dir) {
            return;
        }
        let me = self.clone();
        tokio::spawn(async move {
            // Polled, at most ten minutes.
            for _ in 0..2400 {
                if !settings.own_schema_running(&dir) {
                    break;
                }
                tokio::time::sleep(Duration::from_millis(250)).await;
            }
            me.service.graph.schema_done(&dir);
            me.refresh_modules(|_, p| p.parent() == Some(dir.as_path())).await;
        });
    }

    /// Analyses the module of `path` and publishes diagnostics for its open
    /// documents, unless newer results were published meanwhile (or, after
    /// an `edit` of `path`, the same ones).
    pub(super) async fn refresh_one(&self, path: PathBuf, edit: bool) {
        let (seq, asked, partial, encoding, recheck, config_errors) = {
            let mut st = self.state.locked();
            // Numbered under the lock that the texts are taken under: a
            // later number is always of later texts, from whichever task
            // (the message loop, the watch, a pull that waited).
            let seq = self.seq.fetch_add(1, Ordering::SeqCst) + 1;
            let Some(key) = module_key(&path) else { return };
            let asked = st.asked.entry(key).or_default().clone();
            asked.fetch_max(seq, Ordering::SeqCst);
            let Some(partial) = st.documents.module(&path, &self.service) else { return };
            // (After the module's settings: they take in a file just read.)
            (seq, asked, partial, st.encoding, !st.watching, st.documents.config_errors())
        };
        let me = self.clone();
        // One module's analysis panicking costs that module's publication:
        // logged, and the other modules of the refresh go on.
        let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
        let analysed = blocking(move || {
            phases::mark("off_loop");
            crate::dispatch::fault_point_at("analysis", &path);
            let (published, disk) = (&me.published, &me.service.disk);
            let settings = partial.settings.clone();
            if let Some(config) = settings.config_file.as_deref().filter(|_| recheck) {
                disk.watch_config(config);
            }
            let (snapshot, _) = partial.complete(disk, recheck)?;
            phases::mark("completed");
            let analysis = {
                let mut memo = snapshot.memo.locked();
                // Analyses of one module wait for each other here: one
                // overtaken meanwhile (the user typed on) is cancelled, and
                // so is a full one running when a newer one is asked for.
                let overtaken = || asked.load(Ordering::SeqCst) > seq;
                let stop = analysis::Stop(Some(&overtaken));
                let analysis =
                    me.with_sources(&settings, recheck, |s| me.service.analyse(s, &snapshot.docs, &mut memo, stop));
                let Some(analysis) = analysis else {
                    phases::mark("cancelled");
                    return None;
                };
                phases::mark("analysed");
                analysis
            };
            // Each document's diagnostics are held only while they are
            // rendered: a keystroke that comes meanwhile patches the
            // analysis, and would copy what is still held.
            let (id, kept) = (analysis.id, analysis.kept.clone());
            let mut diagnostics = analysis.diagnostics.clone();
            drop(analysis);
            let mut pull_again = false;
            // Related locations may point into called modules.
            let ropes = super::related_ropes(&me, &settings, &snapshot.docs);
            phases::mark("ropes");
            for (i, _, _, rope, ..) in &snapshot.open {
                ropes.set_rope(&snapshot.docs[*i].file.path, rope);
            }
            // The edited document's publication first: the client waits
            // for it, not for its siblings' (often unchanged, see `Sent`).
            let mut open: Vec<_> = snapshot.open.iter().collect();
            open.sort_by_key(|o| snapshot.docs[o.0].file.path != path);
            for (i, uri, version, rope, opened, change) in open {
                let doc = &snapshot.docs[*i];
                let path = &doc.file.path;
                let target = publish::Target {
                    path,
                    uri_json: Arc::from(publish::json_string(uri.as_str())),
                    text: doc.shown_text(),
                    rope,
                    enc: encoding,
                    severity: &settings.severity,
                    module: &ropes,
                    edit: change.as_ref(),
                    analysis: id,
                    kept: kept.get(*i).copied().flatten(),
                };
                let slot = published.locked().entry(path.clone()).or_default().clone();
                let mut slot = slot.locked();
                if slot.seq > seq {
                    // A newer analysis ended first: its list stays.
                    continue;
                }
                let mut diags = diagnostics.get_mut(*i).map(std::mem::take).unwrap_or_default();
                // Through the service's one exclusion rule, in the file's own offsets.
                let more = not_read(disk, path).into_iter().chain(not_used(&config_errors, path));
                let diags = project::service::shown(&snapshot.docs, *i, &mut diags, more, &settings);
                let (next, params) = Published::update(slot.published.take(), &target, *version, &diags);
                drop(diags);
                phases::mark("rendered");
                let result = next.result();
                *slot = super::Last { seq, published: Some(next) };
                drop(slot);
                // Queued from here, each as soon as it is made: handing
                // them back to the message loop first cost a thread's wake-up.
                pull_again |= me.queue(seq, edit, path, uri, (*opened, *version), params, result);
            }
            // The memo now holds what analysis needs of every item: the
            // trees can go (they are parsed again if ever needed), once
            // the snapshot no longer shares them.
            let compact: Vec<PathBuf> =
                snapshot.docs.iter().filter(|d| d.kept_trees() > TREES_KEPT).map(|d| d.file.path.clone()).collect();
            Some((compact, pull_again))
        });
        let result = match AssertUnwindSafe(analysed).catch_unwind().await {
            Ok(result) => result,
            Err(payload) => {
                let e = crate::dispatch::panicked(Some("the analysis of a module"), payload.as_ref());
                self.log(LogLevel::Error, format!("{} ({})", e.message, dir.display()));
                return;
            }
        };
        self.say_refused();
        let Ok(Some((compact, pull_again))) = result else { return };
        if !compact.is_empty() {
            // After the publication, in place (not a copy of every item).
            let trees = self.state.locked().documents.drop_trees(&compact, &self.service.disk);
            // Freed once the user pauses (`trim_when_idle`), not beside
            // the next keystroke (see `memory::Later`).
            self.later.add(trees);
        }
        if pull_again {
            // Not awaited: the client answers when it likes (or never).
            let client = self.client.clone();
            tokio::spawn(async move { client.workspace_diagnostic_refresh().await });
        }
        self.deliver().await;
        self.trim_when_idle(seq, edit);
    }

    /// Queues a document's publication unless newer results were published
    /// meanwhile (or, after an `edit` of another document, the same ones);
    /// a pulling client gets it when it pulls. Whether such a client must
    /// be asked to pull again.
    #[allow(clippy::too_many_arguments)]
    fn queue(
        &self,
        seq: u64,
        edit: bool,
        path: &std::path::Path,
        uri: &str,
        analysed: (u64, i32),
        params: super::outbox::Body,
        result: u64,
    ) -> bool {
        // Checked and queued under the lock, so a publication is never
        // overtaken by an older one (nor by a close's empty one).
        let mut st = self.state.locked();
        let current = st.documents.open.get(path).map(|o| (o.opened, o.version));
        let last = st.published.get(path).copied().unwrap_or_default();
        if current.is_none() {
            // Closed meanwhile: what was kept for it goes too.
            self.published.locked().remove(path);
        }
        if current != Some(analysed) || last.seq > seq {
            return false;
        }
        let list = Some((result, analysed.1));
        st.published.insert(path.to_path_buf(), Sent { seq, list });
        if st.pull {
            return self.pulls.ready(path, analysed, result);
        }
        if !(edit && last.list == list) {
            phases::mark("queued");
            self.outbox.publish(uri, params);
        }
        false
    }

    /// Once the user pauses, frees what waits for it and hands freed
    /// memory back to the system. Not after every keystroke: trimming
    /// holds the allocator's locks. After anything but an `edit` (an open,
    /// a close, a save) at once: the user is reading what it showed, not
    /// typing yet, and the open of a 10 MB file leaves 400 MB of trees
    /// (~200 ms to free, ~120 ms to trim) that a keystroke 1 s later
    /// waited for when they were freed only after a pause of its own.
    pub(super) fn trim_when_idle(&self, seq: u64, edit: bool) {
        let (latest, later) = (self.seq.clone(), self.later.clone());
        let pause = std::time::Duration::from_millis(if edit { 750 } else { 0 });
        tokio::spawn(async move {
            tokio::time::sleep(pause).await;
            if latest.load(Ordering::SeqCst) == seq {
                let idle = move || latest.load(Ordering::SeqCst) == seq;
                let _ = tokio::task::spawn_blocking(move || later.free_all_while(idle)).await;
            }
        });
    }

    /// Refreshes every module with an open document, each once (it
    /// publishes for all its open documents), or those `only` accepts.
    pub(super) async fn refresh_modules(&self, only: impl Fn(&Documents, &std::path::Path) -> bool) {
        self.refresh_modules_with(only, false).await;
    }

    /// [`Self::refresh_modules`]; `quiet`: a list that did not change is
    /// not published again (see [`Sent`]).
    async fn refresh_modules_with(&self, only: impl Fn(&Documents, &std::path::Path) -> bool, quiet: bool) {
        let paths: Vec<PathBuf> = {
            let st = self.state.locked();
            let mut seen = std::collections::HashSet::new();
            let ws = &st.documents;
            let mut paths: Vec<PathBuf> = ws.open.keys().filter(|p| only(ws, p)).cloned().collect();
            paths.sort();
            paths.retain(|p| seen.insert(module_key(p)));
            paths
        };
        for p in paths {
            self.refresh_one(p, quiet).await;
        }
    }

    /// Files changed on disk in `dirs` (a client's events, or the server's
    /// own watch's): the modules that read them, and those that call
    /// those, are analysed again; `quiet` as in [`Self::refresh_modules_with`].
    pub(super) async fn files_changed(&self, dirs: HashSet<PathBuf>, quiet: bool) {
        self.service.files_changed(dirs.iter().map(PathBuf::as_path));
        self.pulls.changed();
        self.check_in_background(crate::background::Scope::Dirs(dirs.clone()));
        let callers = self.service.graph.callers(&dirs);
        let only = |ws: &Documents, p: &std::path::Path| {
            ws.reads(p).is_some_and(|d| dirs.contains(d)) || key_of(p).is_some_and(|k| callers.contains(&k))
        };
        self.refresh_modules_with(only, quiet).await;
    }

    /// For a client that does not watch files: a thread waits for the
    /// events of the server's own watch (`watch.rs`) and has them taken
    /// in; the directories they change (taken in there, or by an
    /// analysis that came first) are analysed again and published, as a
    /// client's events would be, not only at the next keystroke. Events
    /// are let gather for [`SETTLE_EVENTS`] first. The thread ends with
    /// the session (or once the server is gone).
    pub(super) fn watch_disk(&self) {
        let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel::<Vec<PathBuf>>();
        let announce = tx.clone();
        self.service.disk.announce_to(Box::new(move |dirs| {
            let _ = announce.send(dirs);
        }));
        let (disk, closing) = (Arc::downgrade(&self.service.disk), self.closing.subscribe());
        let waiting = std::thread::Builder::new().name("hcl-types-watch".into()).spawn(move || loop {
            let Some(disk) = disk.upgrade() else { return };
            if *closing.borrow() || tx.is_closed() {
                return;
            }
            if disk.wait_for_events(Duration::from_secs(1)) {
                std::thread::sleep(SETTLE_EVENTS);
                disk.take_events();
            }
        });
        if waiting.is_err() {
            // Then the next analysis takes the events in, as it always does.
            return;
        }
        let me = self.clone();
        tokio::spawn(async move {
            while let Some(mut dirs) = rx.recv().await {
                while let Ok(more) = rx.try_recv() {
                    dirs.extend(more);
                }
                // A configuration file (announced as itself) may change
                // any module's settings: read again, off the lock.
                let config = |p: &PathBuf| p.file_name().is_some_and(|n| n == project::config::FILE_NAME);
                if dirs.iter().any(config) {
                    me.state.locked().documents.config_changed(Path::new(project::config::FILE_NAME));
                    me.service.graph.settings_changed();
                    me.refresh_all().await;
                    dirs.retain(|p| !config(p));
                }
                // The symbol index hears of them too (a client that watches
                // nothing tells it nothing), off the message loop.
                let (index, changed) = (me.index.clone(), dirs.clone());
                tokio::task::spawn_blocking(move || changed.iter().for_each(|d| index.changed(d)));
                // Quiet: an analysis that took the events in first may
                // have published the same lists already.
                me.files_changed(dirs.into_iter().collect(), true).await;
            }
        });
    }

    /// A configuration file read off the state lock (`project::nearest`)
    /// is ready: every open module is analysed again with it.
    pub(super) fn config_loads(&self) {
        let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel::<()>();
        self.state.locked().documents.on_config_loaded(Arc::new(move || {
            let _ = tx.send(());
        }));
        let me = self.clone();
        tokio::spawn(async move {
            while rx.recv().await.is_some() {
                while rx.try_recv().is_ok() {}
                me.service.graph.settings_changed();
                me.refresh_all().await;
            }
        });
    }

    pub(super) async fn refresh_all(&self) {
        self.refresh_modules(|_, _| true).await;
    }
}

/// On an open configuration file that is not used (a mistake, or more
/// than its limits), a `file-not-read` warning at its start that says why:
/// `check` exits 2 with the same message.
fn not_used(errors: &[(PathBuf, String)], path: &std::path::Path) -> Option<syntax::diagnostic::Diagnostic> {
    use syntax::diagnostic::{Code, Diagnostic};
    let (_, why) = errors.iter().find(|(p, _)| p == path)?;
    Some(Diagnostic::new(Code::FileNotRead, 0..0, format!("this configuration file is not used: {why}")))
}

/// A `file-not-read` warning, at the start of an open document, for each
/// file of its module that was not read (over the source cap, which bounds
/// a file's memory, or not text): its declarations are missing, and the
/// user is told why.
fn not_read(disk: &project::disk::Disk, path: &std::path::Path) -> Vec<syntax::diagnostic::Diagnostic> {
    use syntax::diagnostic::{Code, Diagnostic};
    let (Some(dir), family) = (path.parent(), analysis::family_of(path)) else { return Vec::new() };
    disk.unread(dir)
        .into_iter()
        .filter(|(p, _)| analysis::family_of(p) == family)
        .map(|(p, why)| {
            let name = p.file_name().unwrap_or(p.as_os_str()).to_string_lossy();
            Diagnostic::new(Code::FileNotRead, 0..0, format!("`{name}` of this module was not read: {why}"))
        })
        .collect()
}
