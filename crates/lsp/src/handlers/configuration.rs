//! Settings pushed or pulled, and files changed on disk.

use super::prelude::*;
use crate::dispatch::{Applying, SyncNotification};
use crate::State;

pub(crate) async fn did_change_configuration(b: &Backend, params: DidChangeConfigurationParams) {
    let pull = b.state.locked().pull_config;
    // VS Code sends no settings (null) and expects to be asked;
    // Neovim sends them all, `hclTypes` among them.
    let pushed = &params.settings;
    if !pushed.is_null() && (pushed.get("hclTypes").is_some() || !pull) {
        b.apply_settings(pushed).await;
    } else if pull {
        b.pull_configuration();
    }
}

/// Files changed on disk: which of them are configuration files is noted
/// in the documents at once (a [`SyncNotification`]), the rest follows.
pub(crate) struct DidChangeWatchedFiles;

impl SyncNotification for DidChangeWatchedFiles {
    const METHOD: &'static str = "workspace/didChangeWatchedFiles";
    type Params = DidChangeWatchedFilesParams;
    /// The files, and whether a configuration file is among them.
    type Then = (Vec<PathBuf>, bool);

    fn apply(_: &Backend, st: &mut State, _: &Applying, params: Self::Params) -> Option<Self::Then> {
        let mut config = false;
        let mut paths = Vec::new();
        for change in &params.changes {
            if let Some(path) = from_proto::doc_path(&st.documents, &change.uri) {
                config |= st.documents.config_changed(&path);
                paths.push(path);
            }
        }
        Some((paths, config))
    }

    async fn then(b: &Backend, (paths, mut config): Self::Then) {
        let mut dirs = std::collections::HashSet::new();
        for path in paths {
            // A `Pulumi.yaml` may make the `.tf` files below it Pulumi HCL
            // or no longer (pulumi-hcl.md §1): every open document again.
            config |= project::pulumi::changed(&path);
            b.service.disk.changed(&path);
            b.index.changed(&path);
            dirs.extend(path.parent().map(PathBuf::from));
        }
        if config {
            // A configuration file may change any module's settings.
            b.service.graph.settings_changed();
            b.refresh_all().await;
        }
        b.files_changed(dirs, false).await;
    }
}

impl Backend {
    /// Takes new settings and publishes again with them.
    pub(crate) async fn apply_settings(&self, v: &serde_json::Value) {
        let loaded = self.schema_progress(v);
        let hint_refresh = {
            let mut st = self.state.locked();
            // What may run stays as `initialize` said (`Session`).
            let session = st.documents.settings.session.clone();
            st.documents.set_settings(Settings { session, ..Settings::from_json(v) });
            self.settings_logged(&st.documents.settings);
            drop(loaded);
            self.service.graph.settings_changed();
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
    pub(crate) fn pull_configuration(&self) {
        let me = self.clone();
        tokio::spawn(async move {
            let item = ConfigurationItem { scope_uri: None, section: Some("hclTypes".into()) };
            let Ok(values) = me.client.configuration(vec![item]).await else { return };
            if let Some(v) = values.into_iter().next().filter(|v| v.is_object()) {
                me.apply_settings(&v).await;
            }
        });
    }
}
