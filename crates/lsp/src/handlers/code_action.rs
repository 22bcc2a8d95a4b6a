//! `textDocument/codeAction`: quick fixes of the diagnostics in the range
//! (`ide::type_fix`'s certain fixes, the removal of an unused declaration,
//! the declaration of a missing variable, the missing arguments of a
//! module call) and the refactorings at the
//! range (lsp.md, "Code actions"). A missing `type` (or `type = any`) is
//! fixed with the type of every value the variable receives, callers'
//! arguments included, and an unused variable a caller sets is not
//! removed, so only then is the module set (the callers the server knows)
//! gathered.

use std::collections::BTreeMap;

use super::prelude::*;
use super::references::ModuleSet;
use syntax::diagnostic::Code;

pub(crate) async fn code_action(b: &Backend, params: CodeActionParams) -> Result<Option<CodeActionResponse>> {
    let uri = params.text_document.uri.clone();
    let Some(snap) = b.snapshot(&uri).await else { return Ok(None) };
    // A JSON file's diagnostics are placed in its lowering (analysis.md
    // §7.1): near the JSON's bytes, not exact enough to edit them.
    if syntax::json::is_json_path(&snap.docs[snap.index].file.path) {
        return Ok(None);
    }
    let (rope, enc, caps) = (snap.rope.clone(), snap.enc, snap.caps);
    let start = from_proto::offset(&rope, params.range.start, enc);
    let end = from_proto::offset(&rope, params.range.end, enc);
    let (fixes, actions, texts) = blocking(move || {
        let analysis = snap.analysis();
        // Only what the client is shown (a setting may turn a code off).
        let shown = |d: &&syntax::diagnostic::Diagnostic| match snap.settings.severity.get(&d.code) {
            Some(s) => s.is_some(),
            None => d.code.on_by_default(),
        };
        let in_range: Vec<_> = analysis.diagnostics[snap.index]
            .iter()
            .filter(|d| d.range.start <= end && start <= d.range.end)
            .filter(shown)
            .collect();
        let callers_matter =
            |d: &&syntax::diagnostic::Diagnostic| matches!(d.code, Code::MissingType | Code::UnusedVariable);
        let set = in_range.iter().any(callers_matter).then(|| ModuleSet::gather(&snap));
        let callers: Vec<ide::Caller> = set
            .iter()
            .flat_map(|set| {
                let here = &set.mods[0].0;
                set.mods[1..]
                    .iter()
                    .map(move |(dir, docs, _)| ide::Caller { docs, calls: ide::calls_to(dir, docs, here) })
            })
            .filter(|c| !c.calls.is_empty())
            .collect();
        let (docs, doc) = (&snap.docs, snap.index);
        let fixes: Vec<_> =
            in_range.iter().filter_map(|d| ide::type_fix(d, docs, doc, &callers).map(|f| ((*d).clone(), f))).collect();
        let mut actions: Vec<ide::Action> =
            in_range.iter().filter_map(|d| ide::remove_unused(d, docs, doc, &callers)).collect();
        let mut memo = snap.memo();
        actions.extend(in_range.iter().filter_map(|d| ide::declare_variable(d, docs, doc, &mut memo)));
        actions.extend(ide::add_arguments(&in_range, docs, doc, memo.context()));
        actions.extend(in_range.iter().filter_map(|d| ide::mark_sensitive(d, docs, doc)));
        actions.extend(ide::extract_local(docs, doc, start..end, &mut memo));
        actions.extend(ide::count_to_for_each(docs, doc, start, &mut memo));
        drop(memo);
        actions.extend(ide::move_blocks(docs, doc));
        // The texts of the files the actions edit, for their positions.
        let texts: BTreeMap<PathBuf, Rope> = docs
            .iter()
            .filter(|d| actions.iter().any(|a| a.edits.iter().any(|e| e.path == d.file.path)))
            .map(|d| (d.file.path.clone(), Rope::from_str(&d.file.text)))
            .collect();
        (fixes, actions, texts)
    })
    .await?;
    let mut out: Vec<CodeActionOrCommand> =
        fixes.into_iter().map(|(d, f)| to_proto::quick_fix(&uri, &rope, &d, f, enc)).collect();
    let st = b.state.locked();
    let version = |p: &std::path::Path| st.documents.open.get(p).map(|o| o.version);
    for a in actions {
        // A new file needs a client that creates files.
        if a.edits.iter().any(|e| !texts.contains_key(&e.path)) && !caps.create_files {
            continue;
        }
        out.extend(to_proto::action(a, &texts, &rope, enc, caps.document_changes, &version));
    }
    Ok(Some(out))
}
