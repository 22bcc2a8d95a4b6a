//! The open documents in the server's state. Anyone holding the state
//! reads them, and may bring caches up to date (parses, memos, the
//! configuration files read, settings); opening, changing and closing a
//! document — what changes a text or which texts there are — takes an
//! [`Applying`], which only the dispatcher makes, for a
//! [`SyncNotification`](crate::dispatch::SyncNotification)'s `apply`. So
//! no handler can change a text after an `.await`: it does not compile.

use std::ops::Deref;
use std::path::{Path, PathBuf};

use analysis::{Document, Family};
use project::disk::Disk;
use project::documents::{Documents, Partial, Settings};

use crate::dispatch::Applying;

#[derive(Default)]
pub(crate) struct Docs(Documents);

impl Deref for Docs {
    type Target = Documents;

    fn deref(&self) -> &Documents {
        &self.0
    }
}

impl Docs {
    /// Everything, texts included: only inside a sync handler's `apply`.
    pub(crate) fn texts(&mut self, _: &Applying) -> &mut Documents {
        &mut self.0
    }

    /// Takes new settings (what may run stays as `initialize` said).
    pub(crate) fn set_settings(&mut self, settings: Settings) {
        self.0.settings = settings;
    }

    /// The open documents of a module, parsed up to their versions.
    pub(crate) fn open_docs(&mut self, dir: &Path, family: Family) -> Vec<Document> {
        self.0.open_docs(dir, family)
    }

    /// The open part of a module, with its memo from the service's store.
    pub(crate) fn module(&mut self, path: &Path, service: &project::service::Service) -> Option<Partial> {
        self.0.module(path, service)
    }

    pub(crate) fn settings_for(&mut self, unit: &Path) -> Settings {
        self.0.settings_for(unit)
    }

    pub(crate) fn config_changed(&mut self, path: &Path) -> bool {
        self.0.config_changed(path)
    }

    pub(crate) fn on_config_loaded(&mut self, loaded: project::nearest::Loaded) {
        self.0.on_config_loaded(loaded)
    }

    /// Drops parse trees kept for speed (the texts stay).
    pub(crate) fn drop_trees(&mut self, paths: &[PathBuf], disk: &Disk) -> Vec<impl Send + 'static> {
        self.0.drop_trees(paths, disk)
    }
}
