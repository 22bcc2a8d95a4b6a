//! `workspace/symbol`, and the background indexing it answers from
//! (`project::index`), reported with `$/progress` to clients that show it.

use super::prelude::*;
use analysis::sync::Locked;

/// The most symbols one answer holds (VS Code shows a list; a prefix
/// narrows it).
const LIMIT: usize = 256;

/// How long the client is given to agree to show progress.
const ASK_FOR: std::time::Duration = std::time::Duration::from_secs(5);

pub(crate) async fn workspace_symbol(
    b: &Backend,
    params: WorkspaceSymbolParams,
) -> Result<Option<WorkspaceSymbolResponse>> {
    // The open documents' texts as they are now (versions say when their
    // symbols must be read again).
    let open: Vec<(PathBuf, i32, analysis::Text)> = {
        let st = b.state.locked();
        st.documents
            .open
            .iter()
            .filter(|(p, _)| !project::disk::is_virtual(p))
            .map(|(p, o)| {
                let text = match &o.doc {
                    Some((v, d)) if *v == o.version => d.file.text.clone(),
                    _ => Arc::new(o.rope.to_string().into()),
                };
                (p.clone(), o.version, text)
            })
            .collect()
    };
    let index = b.index.clone();
    let query = params.query;
    let found = blocking(move || {
        let texts: Vec<project::index::OpenText> = open
            .iter()
            .map(|(path, version, text)| project::index::OpenText { path, version: *version, text })
            .collect();
        index.search(&query, LIMIT, &texts)
    })
    .await?;
    let enc = b.state.locked().encoding;
    let symbols = found.iter().filter_map(|f| to_proto::workspace_symbol(f, enc)).collect();
    Ok(Some(WorkspaceSymbolResponse::Nested(symbols)))
}

impl Backend {
    /// Indexes the workspace folders in the background, with `$/progress`
    /// when the client shows it.
    pub(crate) fn index_workspace(&self) {
        let (roots, progress) = {
            let st = self.state.locked();
            (st.documents.settings.session.roots.clone(), st.caps.work_done_progress)
        };
        if roots.is_empty() {
            return;
        }
        let (client, index, me) = (self.client.clone(), self.index.clone(), self.clone());
        tokio::spawn(async move {
            let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel::<(usize, usize)>();
            // Indexing starts at once; the client is asked meanwhile (and
            // not waited for long: one that never answers sees no bar).
            let building = index.clone();
            let reading = tokio::task::spawn_blocking(move || {
                building.build(&roots, &|done, total| {
                    let _ = tx.send((done, total));
                })
            });
            let token = NumberOrString::String("hcl-types/index".into());
            let asked = client.create_work_done_progress(token.clone());
            let shown = progress && matches!(tokio::time::timeout(ASK_FOR, asked).await, Ok(Ok(())));
            if shown {
                let bar = client.progress(token, "hcl-types: indexing symbols").with_percentage(0).begin().await;
                while let Some((done, total)) = rx.recv().await {
                    let percent = (done * 100).checked_div(total).unwrap_or(100) as u32;
                    bar.report_with_message(format!("{done}/{total} files"), percent).await;
                }
                bar.finish().await;
            }
            let _ = reading.await;
            if index.cut() {
                me.log(
                    project::settings::LogLevel::Info,
                    format!(
                        "workspace symbols: the folder has over {} entries; only those walked first are indexed",
                        project::index::MAX_WALKED
                    ),
                );
            }
        });
    }
}
