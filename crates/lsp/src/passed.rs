//! After an edit, the open modules it calls whose callers now set other
//! variables (analysis.md §3.2; issue 43.3): what callers pass is the
//! module service's (`project::service::Service::note_passed`).

use analysis::sync::Locked;
use analysis::workspace::Files;
use std::path::PathBuf;

use project::graph::key_of;

use super::Backend;

impl Backend {
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
            if !own.as_ref().is_some_and(|o| self.service.callers_of(&key).1.contains(o)) {
                continue;
            }
            let settings = self.state.locked().documents.settings_for(&key.0);
            if self.with_sources(&settings, false, |s| self.service.note_passed(s, &s.module(&key.0, key.1))) {
                out.push(p);
            }
        }
        out
    }
}
