//! `textDocument/references`, and the module set every cross-module
//! request (references, rename) looks through.

use super::prelude::*;
use crate::Snap;

use analysis::workspace::normalize;
use analysis::Document;
use std::collections::HashSet;

/// The modules a cross-module request looks through: the cursor's module
/// (first), the modules it calls, and every module the server knows to
/// call one of those (the graph's analysed callers and the workspace
/// folders' scan). Each with whether the user may edit it: inside the
/// workspace folders, and not under `.terraform`, which `init` rewrites,
/// however it is reached (`project::confine::Tree::editable`). The one place that gathers them,
/// so the pipeline's move into crates/project re-points only this.
pub(crate) struct ModuleSet {
    pub mods: Vec<(PathBuf, Vec<Document>, bool)>,
    /// The cursor's document in the first module.
    pub doc: usize,
}

impl ModuleSet {
    pub(crate) fn gather(snap: &Snap) -> ModuleSet {
        let b = &snap.backend;
        let path = &snap.docs[snap.index].file.path;
        let family = module_key(path).map_or(analysis::Family::Terraform, |k| k.1);
        let dir = normalize(path.parent().unwrap_or(std::path::Path::new("")));
        let mut dirs: Vec<PathBuf> = vec![dir.clone()];
        dirs.extend(ide::callees(&dir, &snap.docs));
        let keys: HashSet<(PathBuf, analysis::Family)> = dirs.iter().map(|d| (d.clone(), family)).collect();
        let read_by = b.service.graph.callers(&dirs.iter().cloned().collect());
        let mut callers: HashSet<PathBuf> = read_by.into_iter().filter(|k| k.1 == family).map(|k| k.0).collect();
        callers.extend(b.service.scan().callers(&keys).into_iter().filter(|k| k.1 == family).map(|k| k.0));
        let mut others: Vec<PathBuf> = dirs[1..].to_vec();
        let mut callers: Vec<PathBuf> = callers.into_iter().filter(|d| !dirs.contains(d)).collect();
        callers.sort();
        others.extend(callers);
        // Editable: inside the workspace folders and, however reached (a
        // `../` source, a link into `.terraform/modules`), not installed.
        let tree = &snap.settings.session.tree;
        let editable = |d: &std::path::Path| tree.editable(d);
        let mut mods = vec![(dir.clone(), snap.docs.clone(), editable(&dir))];
        for d in others {
            let docs = b.with_sources(&snap.settings, false, |s| analysis::workspace::Files::module(s, &d, family));
            if !docs.is_empty() {
                let e = editable(&d);
                mods.push((d, docs, e));
            }
        }
        ModuleSet { mods, doc: snap.index }
    }

    /// The set as the ide layer takes it.
    pub(crate) fn modules(&self) -> Vec<ide::Module<'_>> {
        self.mods
            .iter()
            .map(|(dir, docs, editable)| ide::Module { dir: dir.clone(), docs, editable: *editable })
            .collect()
    }

    /// The text of a file of the set, for position conversion.
    pub(crate) fn rope(&self, path: &std::path::Path) -> Option<Rope> {
        let d = self.mods.iter().flat_map(|(_, docs, _)| docs).find(|d| d.file.path == path)?;
        Some(Rope::from_str(&d.file.text))
    }
}

/// Byte ranges in files of the set as LSP locations (files without a URI,
/// virtual ones, left out).
pub(crate) fn locations(b: &Backend, found: Vec<(PathBuf, Range)>) -> Vec<Location> {
    let st = b.state.locked();
    found
        .into_iter()
        .filter_map(|(p, range)| Some(Location { uri: to_proto::uri_of(&st.documents, &p)?, range }))
        .collect()
}

pub(crate) async fn references(b: &Backend, params: ReferenceParams) -> Result<Option<Vec<Location>>> {
    let pp = params.text_document_position;
    let Some(snap) = b.snapshot(&pp.text_document.uri).await else { return Ok(None) };
    let enc = snap.enc;
    let offset = from_proto::offset(&snap.rope, pp.position, enc);
    let declaration = params.context.include_declaration;
    let found = blocking(move || {
        let set = ModuleSet::gather(&snap);
        let refs = ide::references(&set.modules(), 0, set.doc, offset, declaration)?;
        let ranges: Vec<(PathBuf, Range)> = refs
            .into_iter()
            .filter_map(|r| {
                let rope = set.rope(&r.path)?;
                Some((r.path, to_proto::range(&rope, &r.range, enc)))
            })
            .collect();
        Some(ranges)
    })
    .await?;
    Ok(found.map(|f| locations(b, f)))
}
