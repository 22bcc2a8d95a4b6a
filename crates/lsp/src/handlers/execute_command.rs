//! `workspace/executeCommand`: `hcl-types.checkWorkspace` analyses the
//! open modules and those that call them again and publishes (or has a
//! pulling client pull) their diagnostics, closed files included;
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
                st.documents.settings = s;
                b.settings_logged(&st.documents.settings);
                n
            };
            b.graph.settings_changed();
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
        self.graph.settings_changed();
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
            let Some(uri) = Uri::from_file_path(path) else { continue };
            let uri_json = crate::publish::json_string(uri.as_str());
            let mut msg = format!(
                r#"{{"jsonrpc":"2.0","method":"textDocument/publishDiagnostics","params":{{"uri":{uri_json},"diagnostics":"#
            )
            .into_bytes();
            msg.extend_from_slice(list);
            msg.extend_from_slice(b"}}");
            self.outbox.publish(uri.as_str(), crate::outbox::Body::from(msg));
        }
        Ok(reports.len())
    }
}
