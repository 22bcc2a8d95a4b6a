//! The texts and ropes of a module's files as a publication needs them
//! for related locations: ropes made when first needed, files outside the
//! module read when a location first points into one.

use analysis::sync::Locked;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use ropey::Rope;

use analysis::{Document, Text};

/// Reads a file outside a module (see [`Ropes::outside`]).
type Read<'a> = Box<dyn Fn(&Path) -> Option<Text> + 'a>;

/// A file outside the module as read (`None`: not there).
type Found = (PathBuf, Option<(Text, Rope)>);

/// The ropes of a module's documents (and of files of the modules it
/// calls), made when first needed (for related locations in other files).
pub struct Ropes<'a> {
    files: Vec<(PathBuf, Text, OnceLock<Rope>)>,
    /// Reads a file outside the module, the first time a related location
    /// points into it (not found by scanning every diagnostic first).
    outside: Option<Read<'a>>,
    found: std::sync::Mutex<Vec<Found>>,
}

impl<'a> Ropes<'a> {
    pub fn new(docs: &[Document]) -> Self {
        Ropes {
            // The texts the client sees (a JSON file's own, not its lowering).
            files: docs.iter().map(|d| (d.file.path.clone(), d.shown_text().clone(), OnceLock::new())).collect(),
            outside: None,
            found: Default::default(),
        }
    }

    /// Reads files outside the module with `read`.
    pub fn outside(self, read: impl Fn(&Path) -> Option<Text> + 'a) -> Self {
        Ropes { outside: Some(Box::new(read)), ..self }
    }

    /// Gives the rope of a file that has one at hand (an open document),
    /// instead of one made again from its text (10 MB: milliseconds).
    pub fn set_rope(&self, path: &Path, rope: &Rope) {
        if let Some(f) = self.files.iter().find(|f| f.0 == path) {
            let _ = f.2.set(rope.clone());
        }
    }

    /// A file outside the module, read once.
    fn other(&self, path: &Path) -> Option<(Text, Rope)> {
        let mut found = self.found.locked();
        if let Some((_, f)) = found.iter().find(|f| f.0 == path) {
            return f.clone();
        }
        let read = self.outside.as_ref().and_then(|read| read(path)).map(|t| (t.clone(), Rope::from_str(&t)));
        found.push((path.to_path_buf(), read.clone()));
        read
    }

    pub fn text(&self, path: &Path) -> Option<Text> {
        match self.files.iter().find(|f| f.0 == path) {
            Some(f) => Some(f.1.clone()),
            None => self.other(path).map(|f| f.0),
        }
    }

    pub fn rope(&self, path: &Path) -> Option<Rope> {
        match self.files.iter().find(|f| f.0 == path) {
            Some(f) => Some(f.2.get_or_init(|| Rope::from_str(&f.1)).clone()),
            None => self.other(path).map(|f| f.1),
        }
    }
}
