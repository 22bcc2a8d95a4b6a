//! `textDocument/documentLink`.

use super::prelude::*;

pub(crate) async fn document_link(b: &Backend, params: DocumentLinkParams) -> Result<Option<Vec<DocumentLink>>> {
    let Some(snap) = b.snapshot(&params.text_document.uri).await else { return Ok(None) };
    let (rope, enc) = (snap.rope.clone(), snap.enc);
    let links = blocking(move || {
        ide::document_links(&snap.docs, snap.index)
            .into_iter()
            .filter_map(|l| {
                let target = match l.target {
                    // A module's directory opens at its `main.tf` when it has
                    // one (one stat, off the message loop), else the directory.
                    ide::LinkTarget::Dir(dir) => {
                        let main = dir.join("main.tf");
                        Uri::from_file_path(if main.is_file() { main } else { dir })?
                    }
                    ide::LinkTarget::Url(u) => u.parse().ok()?,
                };
                Some((l.range, target))
            })
            .collect::<Vec<_>>()
    })
    .await?;
    Ok(Some(
        links
            .into_iter()
            .map(|(r, target)| DocumentLink {
                range: to_proto::range(&rope, &r, enc),
                target: Some(target),
                tooltip: None,
                data: None,
            })
            .collect(),
    ))
}
