//! Diagnostics for the whole workspace in clients that take only published
//! ones (Neovim, Helix, Emacs; a pulling client asks `workspace/diagnostic`
//! instead, `pull.rs`). After `initialized`, every module of the workspace
//! folders is checked in the background, one at a time, and the lists of
//! its files nobody has open are published, with `$/progress`
//! (`hcl-types/check`) when the client shows it. A module is checked again
//! when its last open document closes and when its files change on disk;
//! a newer check, the end of the session or the user's cancelling the
//! progress stops an older one between modules. Setting
//! `diagnostics.workspace = false` turns it off.

use analysis::sync::Locked;
use std::collections::HashSet;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use tower_lsp_server::ls_types::*;

use super::{publish, Backend};
use analysis::Family;
use project::disk::is_virtual;
use project::documents::module_key;

/// How long the client is given to agree to show progress.
const ASK_FOR: Duration = Duration::from_secs(2);

/// How long a workspace's check waits after `initialized`: the documents
/// an editor opens at start are analysed first (their diagnostics are the
/// ones the user waits for), and are then known to be open.
const START_AFTER: Duration = Duration::from_secs(1);

/// A module's check waits while edits keep coming: each analysis the
/// user's typing starts is served first.
const QUIET: Duration = Duration::from_millis(250);

/// At most this many directory entries are walked for modules (a folder
/// opened at `$HOME` must not walk a whole disk); the index's bound.
const MAX_WALKED: usize = project::index::MAX_WALKED;

/// What the background check keeps between runs.
#[derive(Default)]
pub struct Background {
    /// Advances with each check started: an older one stops when it sees a newer.
    latest: AtomicU64,
    /// The closed files it published a non-empty list for (to clear them
    /// when a later check finds nothing, or their module went).
    shown: std::sync::Mutex<HashSet<PathBuf>>,
}

/// Which modules a check looks at.
pub(crate) enum Scope {
    /// Every module under the workspace folders.
    Workspace,
    /// A closed document's module.
    Module((PathBuf, Family)),
    /// The modules of directories whose files changed on disk, and the
    /// workspace's modules that call them.
    Dirs(HashSet<PathBuf>),
}

impl Backend {
    /// Whether this session checks the workspace in the background: a
    /// client that is published to, with workspace folders (and, unless
    /// `anyway`, the setting on).
    fn checks_in_background(&self, anyway: bool) -> bool {
        let st = self.state.locked();
        !st.pull
            && (anyway || st.documents.settings.workspace_diagnostics)
            && !st.documents.settings.session.roots.is_empty()
    }

    /// Starts a background check of `scope` (see the module's comment).
    pub(crate) fn check_in_background(&self, scope: Scope) {
        if self.checks_in_background(false) {
            self.start_check(scope);
        }
    }

    /// The same, whatever the setting says (the user asked: `hcl-types.checkWorkspace`).
    pub(crate) fn check_in_background_anyway(&self, scope: Scope) {
        if self.checks_in_background(true) {
            self.start_check(scope);
        }
    }

    fn start_check(&self, scope: Scope) {
        let generation = self.background.latest.fetch_add(1, Ordering::SeqCst) + 1;
        let (roots, progress) = {
            let st = self.state.locked();
            (st.documents.settings.session.roots.clone(), st.caps.work_done_progress)
        };
        let me = self.clone();
        let wait = if matches!(scope, Scope::Workspace) { START_AFTER } else { Duration::ZERO };
        tokio::spawn(async move {
            tokio::time::sleep(wait).await;
            let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel::<(usize, usize)>();
            let checking = me.clone();
            let workspace = matches!(scope, Scope::Workspace);
            let run = tokio::task::spawn_blocking(move || {
                let stopped =
                    || checking.background.latest.load(Ordering::SeqCst) != generation || *checking.closing.borrow();
                std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    checking.check_modules(scope, &roots, &stopped, &|done, total| {
                        let _ = tx.send((done, total));
                    })
                }))
                .unwrap_or_default()
            });
            // Shown only for the whole workspace (a module's check is quick).
            let token = NumberOrString::String(format!("hcl-types/check/{generation}"));
            let shown = workspace
                && progress
                && matches!(
                    tokio::time::timeout(ASK_FOR, me.client.create_work_done_progress(token.clone())).await,
                    Ok(Ok(()))
                );
            if shown {
                let bar = me
                    .client
                    .progress(token, "hcl-types: checking the workspace")
                    .with_percentage(0)
                    .with_cancel_button()
                    .begin()
                    .await;
                while let Some((done, total)) = rx.recv().await {
                    let percent = (done * 100).checked_div(total).unwrap_or(100) as u32;
                    bar.report_with_message(format!("{done}/{total} modules"), percent, None).await;
                }
                bar.finish().await;
            }
            if let Ok(cut) = run.await {
                if cut {
                    me.log(
                        project::settings::LogLevel::Info,
                        format!(
                            "workspace diagnostics: the folders have over {MAX_WALKED} entries; only the modules walked first are checked"
                        ),
                    );
                }
            }
        });
    }

    /// Checks the modules of `scope` one by one, publishing their closed
    /// files' lists, until `stopped`; whether the walk was cut short.
    fn check_modules(
        &self,
        scope: Scope,
        roots: &[PathBuf],
        stopped: &dyn Fn() -> bool,
        progress: &dyn Fn(usize, usize),
    ) -> bool {
        let settings = self.state.locked().documents.settings.clone();
        let full = matches!(scope, Scope::Workspace);
        let mut gone_dirs = HashSet::new();
        let (modules, cut) = match scope {
            Scope::Workspace => {
                let exclude = settings.exclude.as_deref().cloned().unwrap_or_default();
                let (found, _, cut) =
                    project::check::discover_within(roots, &exclude, MAX_WALKED, &settings.session.tree);
                (found.into_keys().collect::<Vec<_>>(), cut)
            }
            Scope::Module(key) => (vec![key], false),
            Scope::Dirs(dirs) => {
                let tree = &settings.session.tree;
                let mut keys: HashSet<(PathBuf, Family)> = HashSet::new();
                for dir in &dirs {
                    for family in [Family::Terraform, Family::Pcl, Family::TfTest, Family::Hcl] {
                        if !project::disk::listing(dir, family, tree).is_empty() {
                            keys.insert((dir.clone(), family));
                        }
                    }
                }
                let callers = if keys.is_empty() { HashSet::new() } else { self.service.scan().callers(&keys) };
                keys.extend(callers);
                // (A directory whose files all went still has its lists cleared below.)
                let mut keys: Vec<_> = keys.into_iter().collect();
                keys.sort();
                gone_dirs = dirs;
                (keys, false)
            }
        };
        let total = modules.len();
        let mut reported: HashSet<PathBuf> = HashSet::new();
        let mut seen = self.seq.load(Ordering::SeqCst);
        for (done, (dir, family)) in modules.iter().enumerate() {
            // (A keystroke's analysis goes first: after an edit, wait
            // until the user pauses.)
            loop {
                if stopped() {
                    return cut;
                }
                let now = self.seq.load(Ordering::SeqCst);
                if now == seen {
                    break;
                }
                seen = now;
                std::thread::sleep(QUIET);
            }
            progress(done, total);
            reported.extend(self.check_one(dir, *family));
        }
        progress(total, total);
        // What a check no longer finds is cleared: in the modules it
        // checked, and, after a whole workspace's, wherever it was.
        let full = full && !cut;
        let checked: HashSet<(PathBuf, Family)> = modules.into_iter().collect();
        let gone: Vec<PathBuf> = {
            let mut shown = self.background.shown.locked();
            let gone: Vec<PathBuf> = shown
                .iter()
                .filter(|p| !reported.contains(*p))
                .filter(|p| {
                    full || module_key(p).is_some_and(|k| checked.contains(&k))
                        || p.parent().is_some_and(|d| gone_dirs.contains(d))
                })
                .cloned()
                .collect();
            gone.iter().for_each(|p| {
                shown.remove(p);
            });
            gone
        };
        for path in gone {
            self.publish_closed(&path, b"[]");
        }
        cut
    }

    /// Checks one module and publishes the lists of its closed files; the
    /// files given a non-empty list.
    fn check_one(&self, dir: &std::path::Path, family: Family) -> Vec<PathBuf> {
        let (open, enc, recheck) = {
            let st = self.state.locked();
            let open: HashSet<PathBuf> = st.documents.open.keys().cloned().collect();
            (open, st.encoding, !st.watching)
        };
        let key = (dir.to_path_buf(), family);
        // (Its open documents are published by their own analyses.)
        let opened = open.iter().any(|p| module_key(p).as_ref() == Some(&key));
        let settings = self.state.locked().documents.settings_for(dir);
        let wanted = |p: &std::path::Path| !open.contains(p) && !is_virtual(p);
        // Read from the sources with a memo of its own, open or not.
        let Some((docs, analysis)) = self.for_lists(&key, &settings, recheck, None, Default::default, wanted) else {
            return Vec::new();
        };
        let ropes = crate::related_ropes(self, &settings, &docs);
        let mut shown = Vec::new();
        for i in (0..docs.len()).filter(|&i| wanted(&docs[i].file.path)) {
            let path = &docs[i].file.path;
            let Some(list) = super::pull::closed_list(&docs, i, &analysis, &settings, &ropes, enc, None) else {
                continue;
            };
            let list = list.list().to_vec();
            let had = self.background.shown.locked().contains(path);
            if list != b"[]" {
                self.background.shown.locked().insert(path.clone());
                shown.push(path.clone());
            }
            if list != b"[]" || had {
                self.publish_closed(path, &list);
            }
        }
        self.service.done_with(&key, opened);
        shown
    }

    /// `window/workDoneProgress/cancel`: the user stopped the workspace's check.
    pub async fn cancel_progress(&self, params: WorkDoneProgressCancelParams) {
        let ours = matches!(&params.token, NumberOrString::String(t) if t.starts_with("hcl-types/check/"));
        if ours {
            self.background.latest.fetch_add(1, Ordering::SeqCst);
        }
    }

    /// Publishes a closed file's list, unless it was opened meanwhile (its
    /// own analyses publish it then): checked under the state lock, as
    /// every publication is queued, so it never overtakes an open document's.
    pub(crate) fn publish_closed(&self, path: &std::path::Path, list: &[u8]) {
        let Some(uri) = Uri::from_file_path(path) else { return };
        let st = self.state.locked();
        if st.documents.open.contains_key(path) {
            return;
        }
        let mut body = format!(
            r#"{{"jsonrpc":"2.0","method":"textDocument/publishDiagnostics","params":{{"uri":{},"diagnostics":"#,
            publish::json_string(uri.as_str())
        )
        .into_bytes();
        body.extend_from_slice(list);
        body.extend_from_slice(b"}}");
        self.outbox.publish(uri.as_str(), body.into());
        drop(st);
    }
}
