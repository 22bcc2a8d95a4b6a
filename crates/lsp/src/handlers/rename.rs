//! `textDocument/rename`: every occurrence across the module set, as
//! `documentChanges` (versioned for open documents) when the client takes
//! them, else as `changes`. Only files the user may edit are edited
//! (inside the workspace folders, not installed by `init`); the files a
//! rename leaves alone are said in a `window/showMessage` warning. A
//! resource's or module call's rename also offers the `moved` block that
//! keeps its state, as an edit the user confirms (a change annotation),
//! to a client that takes them.

use std::collections::BTreeMap;

use super::prelude::*;
use super::prepare_rename::refusal;
use super::references::ModuleSet;

/// The change annotation of a rename's `moved` block.
const MOVED: &str = "moved";

pub(crate) async fn rename(b: &Backend, params: RenameParams) -> Result<Option<WorkspaceEdit>> {
    let pp = params.text_document_position;
    let Some(snap) = b.snapshot(&pp.text_document.uri).await else { return Ok(None) };
    let enc = snap.enc;
    let versioned = snap.caps.document_changes;
    let annotated = versioned && snap.caps.change_annotations;
    let offset = from_proto::offset(&snap.rope, pp.position, enc);
    let new_name = params.new_name;
    let found = blocking(move || {
        let set = ModuleSet::gather(&snap);
        let edits = ide::rename(&set.modules(), 0, set.doc, offset, &new_name)?;
        let left_out = ide::left_out(&set.modules(), 0, set.doc, offset);
        let moved = annotated.then(|| ide::moved_block(&set.modules(), 0, set.doc, offset, &new_name)).flatten();
        let mut per_file: BTreeMap<PathBuf, Vec<OneOf<TextEdit, AnnotatedTextEdit>>> = BTreeMap::new();
        for (path, range, text) in edits {
            let Some(rope) = set.rope(&path) else { continue };
            per_file
                .entry(path)
                .or_default()
                .push(OneOf::Left(TextEdit { range: to_proto::range(&rope, &range, enc), new_text: text }));
        }
        if let Some((path, range, text)) = moved {
            if let Some(rope) = set.rope(&path) {
                let text_edit = TextEdit { range: to_proto::range(&rope, &range, enc), new_text: text };
                per_file
                    .entry(path)
                    .or_default()
                    .push(OneOf::Right(AnnotatedTextEdit { text_edit, annotation_id: MOVED.to_string() }));
            }
        }
        Ok::<_, String>((per_file, left_out))
    })
    .await?;
    let (per_file, left_out) = found.map_err(refusal)?;
    if !left_out.is_empty() {
        let names: Vec<String> = left_out.iter().map(|p| p.display().to_string()).collect();
        let message = format!(
            "hcl-types: rename leaves {} file(s) unchanged, outside the workspace folders or installed by `terraform init`: {}",
            names.len(),
            names.join(", ")
        );
        let client = b.client.clone();
        tokio::spawn(async move { client.show_message(MessageType::WARNING, message).await });
    }
    let st = b.state.locked();
    let with_uri = per_file.into_iter().filter_map(|(p, e)| Some((to_proto::uri_of(&st.documents, &p)?, p, e)));
    let edit = if versioned {
        let edits = with_uri
            .map(|(uri, path, edits)| {
                let version = st.documents.open.get(&path).map(|o| o.version);
                TextDocumentEdit { text_document: OptionalVersionedTextDocumentIdentifier { uri, version }, edits }
            })
            .collect::<Vec<_>>();
        let moved = edits.iter().flat_map(|e| &e.edits).any(|e| matches!(e, OneOf::Right(_)));
        let annotation = ChangeAnnotation {
            label: "Add a `moved` block".to_string(),
            needs_confirmation: Some(true),
            description: Some("keeps the state of the renamed resource or module call".to_string()),
        };
        WorkspaceEdit {
            document_changes: Some(DocumentChanges::Edits(edits)),
            change_annotations: moved.then(|| [(MOVED.to_string(), annotation)].into_iter().collect()),
            ..Default::default()
        }
    } else {
        let plain = |edits: Vec<OneOf<TextEdit, AnnotatedTextEdit>>| {
            edits.into_iter().filter_map(|e| if let OneOf::Left(e) = e { Some(e) } else { None }).collect()
        };
        let changes = with_uri.map(|(uri, _, edits)| (uri, plain(edits))).collect();
        WorkspaceEdit { changes: Some(changes), ..Default::default() }
    };
    Ok(Some(edit))
}
