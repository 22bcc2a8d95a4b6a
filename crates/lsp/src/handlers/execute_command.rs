//! `workspace/executeCommand`: `hcl-types.checkWorkspace` analyses the
//! open modules and those that call them again and publishes (or has a
//! pulling client pull) their diagnostics, closed files included, and a
//! client published to gets every module of the workspace checked in the
//! background (`background.rs`);
//! `hcl-types.reloadSchemas` drops the schemas read and analyses again with
//! them read anew (docs/spec/lsp.md).

use super::prelude::*;
use tower_lsp_server::jsonrpc::Error;

pub(crate) const CHECK_WORKSPACE: &str = "hcl-types.checkWorkspace";
pub(crate) const RELOAD_SCHEMAS: &str = "hcl-types.reloadSchemas";

/// The commands the server runs (its `executeCommandProvider`).
pub(crate) fn commands() -> Vec<String> {
    vec![CHECK_WORKSPACE.to_string(), RELOAD_SCHEMAS.to_string()]
}

pub(crate) async fn execute_command(b: &Backend, params: ExecuteCommandParams) -> Result<Option<LSPAny>> {
    match params.command.as_str() {
        CHECK_WORKSPACE => {
            let files = b.check_workspace().await?;
            Ok(Some(serde_json::json!({ "closedFiles": files })))
        }
        RELOAD_SCHEMAS => {
            let loaded = {
                let mut st = b.state.locked();
                let s = st.documents.settings.schemas_reloaded();
                let n = s.provider_files.len() + s.package_files.len();
                st.documents.set_settings(s);
                b.settings_logged(&st.documents.settings);
                n
            };
            b.service.graph.settings_changed();
            b.refresh_all().await;
            b.pulls.changed();
            Ok(Some(serde_json::json!({ "schemaFiles": loaded })))
        }
        other => Err(Error::invalid_params(format!("no command `{other}`: the server runs {}", commands().join(", ")))),
    }
}

impl Backend {
    /// Every open module analysed again and published; then the closed
    /// files of those modules and of the modules that call them: a pulling
    /// client is asked to pull again, another gets them published. The
    /// number of closed files.
    async fn check_workspace(&self) -> Result<usize> {
        self.service.graph.settings_changed();
        self.refresh_all().await;
        let pull = self.state.locked().pull;
        let me = self.clone();
        let reports = blocking(move || me.closed_reports(None)).await?;
        if pull {
            self.pulls.changed();
            let client = self.client.clone();
            tokio::spawn(async move { client.workspace_diagnostic_refresh().await });
            return Ok(reports.len());
        }
        for (path, _, list) in &reports {
            self.publish_closed(path, list);
        }
        // And every module of the workspace folders, in the background
        // (asked for: whatever `diagnostics.workspace` says).
        self.check_in_background_anyway(crate::background::Scope::Workspace);
        Ok(reports.len())
    }
}
