//! What the workspace's callers of a module set, so that the server, like
//! `check`, uses an untyped variable's default only where some known
//! caller omits it (analysis.md §3.2; issue 43.3). The callers are the
//! workspace scan's (`pull.rs`, read from disk) and the open modules whose
//! analysis read the module's directory; their texts are the editor's over
//! the disk's. Worked out again only when the scan or a caller's text
//! changed, never for a keystroke in the module itself.

use std::collections::{BTreeSet, HashMap};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use analysis::callers::prescan;
use analysis::sync::Locked;
use analysis::workspace::Files;
use analysis::{Document, Family, SourceFile};
use project::graph::{key_of, Key, Sources};

use super::Backend;

/// What a module's set was last worked out from (the scan's address, each
/// caller's texts' ids) and the set (`None`: no caller, a root).
type Stamp = (usize, Vec<(Key, Vec<u64>)>);
type Worked = (Stamp, Option<BTreeSet<String>>);

#[derive(Default)]
pub(crate) struct Passed(Mutex<HashMap<Key, Worked>>);

impl Backend {
    /// The modules that call `key` directly, as far as the server knows.
    fn callers_of(&self, key: &Key) -> (usize, Vec<Key>) {
        let scan = self.pulls.scan();
        let mut callers = scan.calling(key);
        callers.extend(self.graph.callers(&std::iter::once(key.0.clone()).collect()));
        callers.retain(|c| c != key);
        callers.sort();
        callers.dedup();
        (Arc::as_ptr(&scan) as usize, callers)
    }

    /// Before the module of `docs` is analysed: tells the graph which
    /// variables its callers set. Says whether that changed.
    pub(crate) fn note_passed(&self, s: &Sources, docs: &[Document]) -> bool {
        let Some(key) = docs.first().and_then(|d| key_of(&d.file.path)) else { return false };
        let (scan, callers) = self.callers_of(&key);
        // Only a Terraform module's calls have arguments read here; any
        // other caller (a Terragrunt unit, a test, a component) sets none.
        let files: Vec<(Key, Vec<SourceFile>)> = callers
            .into_iter()
            .map(|c| {
                let files = match c.1 {
                    Family::Terraform => s.module(&c.0, c.1).into_iter().map(|d| d.file).collect(),
                    _ => Vec::new(),
                };
                (c, files)
            })
            .collect();
        let ids = files.iter().map(|(c, fs)| (c.clone(), fs.iter().map(|f| f.text.id()).collect()));
        let stamp: Stamp = (scan, ids.collect());
        if self.passed.0.locked().get(&key).is_some_and(|(was, _)| *was == stamp) {
            return false;
        }
        let set = if files.iter().any(|(c, _)| c.1 != Family::Terraform) {
            Some(BTreeSet::new())
        } else {
            let hints: Vec<_> = files
                .iter()
                .map(|(_, fs)| prescan(fs.iter().map(|f| (f.kind, f.path.as_path(), f.text.as_str()))))
                .collect();
            let callers = files.iter().zip(&hints).map(|((c, fs), h)| (c.0.as_path(), fs.as_slice(), h.as_slice()));
            project::passed::passed(&self.graph, s, callers).remove(&key)
        };
        match &set {
            Some(set) => self.graph.set_passed(key.clone(), set.clone()),
            None => self.graph.clear_passed(&key),
        }
        let before = self.passed.0.locked().insert(key, (stamp, set.clone()));
        before.is_none_or(|(_, was)| was != set)
    }

    /// After an edit of the module in `dir`: the open modules it calls
    /// whose callers' set changed (an argument added or taken away).
    pub(crate) fn callees_to_refresh(&self, dir: &std::path::Path) -> Vec<PathBuf> {
        let own = key_of(&dir.join("main.tf"));
        let open: Vec<PathBuf> = self.state.locked().documents.open.keys().cloned().collect();
        let mut seen = Vec::new();
        let mut out = Vec::new();
        for p in open {
            let Some(key) = key_of(&p).filter(|k| Some(k) != own.as_ref() && !seen.contains(k)) else { continue };
            seen.push(key.clone());
            if !own.as_ref().is_some_and(|o| self.callers_of(&key).1.contains(o)) {
                continue;
            }
            let settings = self.state.locked().documents.settings_for(&key.0);
            if self.with_sources(&settings, false, |s| self.note_passed(s, &s.module(&key.0, key.1))) {
                out.push(p);
            }
        }
        out
    }
}
