//! Pull diagnostics: a document's and the workspace's.

use super::prelude::*;

pub(crate) async fn diagnostic(
    b: &Backend,
    params: DocumentDiagnosticParams,
) -> Result<DocumentDiagnosticReportResult> {
    b.pull_document(params).await
}

pub(crate) async fn workspace_diagnostic(
    b: &Backend,
    params: WorkspaceDiagnosticParams,
) -> Result<WorkspaceDiagnosticReportResult> {
    b.pull_workspace(params).await
}
