//! The module files that are not open, read from disk off the server's
//! state lock. A directory is listed, and a file read and parsed, once per
//! change: when the client watches files for us, its events (and saves)
//! say which paths changed and nothing else is looked at again; without
//! them, each analysis checks sizes and times. Only regular files are
//! read, never blocking on a FIFO or a device, and what is kept for a
//! directory is forgotten once none of its documents is open.

use analysis::sync::Locked;
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::SystemTime;

use crate::confine::Tree;
use crate::documents::Settings;
use crate::walk::{entry, Entry};
use crate::watch::{Seen, Watch};
use analysis::{Document, Family, FileKind, SourceFile, Text};

/// A file's modification time and size.
type Stamp = (Option<SystemTime>, u64);

/// A file as last read, while its stamp stays the same.
struct OnDisk {
    stamp: Stamp,
    /// `None` when it is not UTF-8 text or over its cap.
    doc: Option<Document>,
    /// Why it was not read, when it was not (see [`Disk::unread`]).
    unread: Option<Arc<str>>,
    /// No change event arrived since it was read.
    current: bool,
}

#[derive(Default)]
struct Files {
    files: HashMap<PathBuf, OnDisk>,
    /// Per directory: its regular files of a known kind.
    listings: HashMap<PathBuf, Arc<[PathBuf]>>,
    /// Those of them that are symbolic links (their targets may change
    /// unseen by the watch).
    links: HashSet<PathBuf>,
}

/// Told the directories a change happened in.
pub type Announce = Box<dyn Fn(Vec<PathBuf>) + Send + Sync>;

#[derive(Default)]
pub struct Disk {
    files: Mutex<Files>,
    /// Counts change events and forgotten directories (see `Graph::prepare`).
    events: std::sync::atomic::AtomicU64,
    /// For a client that does not watch files: the directories looked at.
    watch: Watch,
    /// Where the directories that the watch's events changed are told, to
    /// be analysed again (whoever took the events in: a keystroke's
    /// analysis, or the thread waiting for them).
    announce: Mutex<Option<Announce>>,
    /// Files that were there but not read, with why (see [`Self::skipped`]).
    skipped: Mutex<Vec<(PathBuf, String)>>,
}

/// Whether `path` is one the disk is never asked about (a document
/// without a file, see `Documents::make_up`).
pub fn is_virtual(path: &Path) -> bool {
    path.as_os_str().as_encoded_bytes().first() == Some(&0)
}

/// The regular files of `dir` with a kind hcl-types reads (links to
/// regular files included, as Terraform reads them), named as `dir` spells
/// them: the empty directory (what [`normalize`](analysis::workspace::normalize)
/// makes of `.`) is the current one, and its files are bare names. A link
/// that leads out of `tree` is listed whatever it leads to (what is there
/// is not looked at: it is refused by name when read, [`crate::confine`]).
fn list(dir: &Path, tree: &Tree) -> Arc<[PathBuf]> {
    list_with_links(dir, tree).0
}

/// [`list`], and which of its files are symbolic links.
fn list_with_links(dir: &Path, tree: &Tree) -> (Arc<[PathBuf]>, Vec<PathBuf>) {
    look();
    #[cfg(test)]
    LISTINGS.with(|n| n.set(n.get() + 1));
    let here = if dir.as_os_str().is_empty() { Path::new(".") } else { dir };
    let Ok(entries) = std::fs::read_dir(here) else { return (Arc::from([]), Vec::new()) };
    let mut links = Vec::new();
    let mut paths: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|e| (dir.join(e.file_name()), e.file_type().ok()))
        // The one rule for links (`walk`): a link out is listed, to be
        // refused by name when read.
        .filter(|(p, t)| {
            FileKind::for_path(p).is_some() && matches!(entry(p, *t, Some(tree)), Entry::File | Entry::Outside)
        })
        .inspect(|(p, t)| links.extend(t.filter(std::fs::FileType::is_symlink).map(|_| p.clone())))
        .map(|(p, _)| p)
        .collect();
    paths.sort();
    (Arc::from(paths), links)
}

/// The files of the module of `family` in `dir`, sorted: those of its
/// family, of a `.tf` file and its `.tofu` alternative the one OpenTofu
/// reads; a Nomad job file is its own module (`dir` is the file). The one
/// listing of a module, for `check` and the server alike.
pub fn listing(dir: &Path, family: Family, tree: &Tree) -> Vec<PathBuf> {
    if family.file_is_unit() {
        return std::fs::metadata(dir).is_ok_and(|m| m.is_file()).then(|| dir.to_path_buf()).into_iter().collect();
    }
    let (skip, settings) = (HashSet::new(), Settings::default());
    let all = list(dir, tree);
    let w = Wanted { dir, family, skip: &skip, also: None, settings: &settings };
    w.members(&all).map(Path::to_path_buf).collect()
}

/// What a module needs from disk: the files of `family` in `dir` other
/// than those in `skip` (open ones), and `also` when it is neither.
pub struct Wanted<'a> {
    pub dir: &'a Path,
    pub family: Family,
    pub skip: &'a HashSet<PathBuf>,
    pub also: Option<&'a Path>,
    pub settings: &'a Settings,
}

impl Wanted<'_> {
    fn members<'b>(&'b self, listing: &'b [PathBuf]) -> impl Iterator<Item = &'b Path> {
        let extra = self.also.filter(|p| !self.skip.contains(*p) && !listing.iter().any(|l| l == p));
        // Of a `.tf` file and its `.tofu` alternative, the one OpenTofu
        // reads, or the open one (as `check` takes a named one).
        let mut read: Vec<PathBuf> = listing.to_vec();
        analysis::tofu_files(&mut read, &|p| self.skip.contains(p));
        let left_out = read.len() < listing.len();
        listing
            .iter()
            .filter(move |p| !left_out || read.contains(p))
            .filter(|p| !self.skip.contains(*p) && analysis::family_of(p) == Some(self.family))
            .map(PathBuf::as_path)
            .chain(extra)
    }
}

/// A regular file's text, or why it is not text we analyse (not UTF-8);
/// never waits on a FIFO or device ([`crate::fsread`]). One over
/// [`SOURCE_CAP`](crate::fsread::SOURCE_CAP) is an error: skipped, but
/// its stamp kept, so it is not opened again until it changes.
fn read_text(path: &Path) -> Result<(Stamp, Result<String, String>), crate::fsread::ReadError> {
    let opened = crate::fsread::open_regular(path)?;
    let stamp = (opened.meta.modified().ok(), opened.meta.len());
    let bytes = opened.read(crate::fsread::SOURCE_CAP)?;
    Ok((stamp, crate::fsread::decode(bytes).map_err(|e| e.to_string())))
}

// Looks at the disk (listings and stamps), per thread: tests check that
// a watched directory is not looked at while nothing happens in it.
#[cfg(test)]
thread_local! {
    static LOOKS: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
    static LISTINGS: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

fn look() {
    #[cfg(test)]
    LOOKS.with(|n| n.set(n.get() + 1));
}

fn stamp(path: &Path) -> Option<Stamp> {
    look();
    let meta = std::fs::metadata(path).ok().filter(|m| m.is_file())?;
    Some((meta.modified().ok(), meta.len()))
}

fn parse(path: &Path, text: Text, settings: &Settings) -> Document {
    let kind = FileKind::for_path(path).unwrap_or(FileKind::Hcl);
    Document::parse(SourceFile { path: path.to_path_buf(), text, kind, dialect: settings.dialect_for(path) })
}

impl Disk {
    fn lock(&self) -> MutexGuard<'_, Files> {
        self.files.locked()
    }

    /// The module's files on disk ([`Wanted`]); `recheck` looks at the
    /// disk again instead of trusting change events. Runs off the message
    /// loop: the lock is never held across I/O or parsing.
    pub fn module(&self, w: &Wanted, recheck: bool) -> Vec<Document> {
        if is_virtual(w.dir) {
            return Vec::new();
        }
        if w.family.file_is_unit() {
            // A job file (a policy file) is its own unit: its `dir` is the file.
            return if w.skip.contains(w.dir) {
                Vec::new()
            } else {
                self.file(w.dir, w.settings, recheck).into_iter().collect()
            };
        }
        let all = recheck;
        let seen = if recheck {
            self.take_events();
            self.seen(w.dir)
        } else {
            Seen::Covered
        };
        let recheck = matches!(seen, Seen::New | Seen::No);
        let known = if recheck { None } else { self.lock().listings.get(w.dir).cloned() };
        let listing = known.unwrap_or_else(|| {
            // A directory outside the tree (a call's or symbol library's
            // `../../..`, a link) is not listed ([`crate::confine`]).
            let tree = &w.settings.session.tree;
            match tree.allows(w.dir) {
                true => self.listed(w.dir, tree),
                false => {
                    let none: Arc<[PathBuf]> = Arc::from([]);
                    self.lock().listings.insert(w.dir.to_path_buf(), none.clone());
                    none
                }
            }
        });
        // (`also` may lie in another directory, not watched; a link's
        // target changes unseen.)
        let link = |p: &Path| seen == Seen::Links && self.lock().links.contains(p);
        let again = |p: &Path| recheck || (all && (p.parent() != Some(w.dir) || link(p)));
        w.members(&listing).filter_map(|p| self.file(p, w.settings, again(p))).collect()
    }

    /// `dir` listed, and the listing kept.
    fn listed(&self, dir: &Path, tree: &Tree) -> Arc<[PathBuf]> {
        let (fresh, links) = list_with_links(dir, tree);
        let mut files = self.lock();
        files.listings.insert(dir.to_path_buf(), fresh.clone());
        files.links.retain(|l| l.parent() != Some(dir));
        files.links.extend(links);
        fresh
    }

    /// For a client that does not watch files: what the server's own
    /// watch tells of `dir` (after its events were taken in). Newly
    /// watched, what was read of it is dropped (it may be stale): whoever
    /// looks at it first, later readers that trust the watch find it read
    /// anew.
    fn seen(&self, dir: &Path) -> Seen {
        let seen = self.watch.covers(dir);
        if seen == Seen::New {
            self.stale(dir);
        }
        seen
    }

    /// Everything read of `dir` is to be looked at again.
    fn stale(&self, dir: &Path) {
        self.events.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        let mut files = self.lock();
        files.listings.remove(dir);
        for (_, f) in files.files.iter_mut().filter(|(p, _)| p.parent() == Some(dir)) {
            f.current = false;
        }
    }

    /// What the server's own watch saw, taken in as a client's events
    /// (which name only the files a client is told to watch): a file of
    /// a kind this server reads, or one it read. An editor's swap and
    /// backup files beside the module are not changes of it. The
    /// directories changed are announced (see [`Self::announce_to`]), and
    /// a configuration file that changed as itself.
    pub fn take_events(&self) {
        let happened = self.watch.happened();
        let mut dirs = Vec::new();
        for path in &happened.files {
            if path.file_name().is_some_and(|n| n == crate::config::FILE_NAME) {
                dirs.push(path.clone());
            }
            if FileKind::for_path(path).is_some() || self.lock().files.contains_key(path) {
                self.changed(path);
                dirs.extend(path.parent().map(Path::to_path_buf));
            }
        }
        for dir in &happened.dirs {
            self.stale(dir);
            dirs.push(dir.clone());
        }
        if dirs.is_empty() {
            return;
        }
        dirs.sort_unstable();
        dirs.dedup();
        if let Some(announce) = self.announce.locked().as_ref() {
            announce(dirs);
        }
    }

    /// For a client that does not watch files: the directory of the
    /// configuration file `path` is watched, so that a change of it is
    /// announced (as the file itself, see [`Self::take_events`]).
    pub fn watch_config(&self, path: &Path) {
        if let Some(dir) = path.parent() {
            self.watch.covers(dir);
        }
    }

    /// From now on, the directories the watch's events change are sent
    /// to `to`.
    pub fn announce_to(&self, to: Announce) {
        *self.announce.locked() = Some(to);
    }

    /// Waits at most `timeout` for the watch's events (see [`Watch::wait`]).
    pub fn wait_for_events(&self, timeout: std::time::Duration) -> bool {
        self.watch.wait(timeout)
    }

    /// [`Self::module`] when it needs neither the disk nor much work (the
    /// listing and every file known and current, and few of them), so a
    /// request can have it at once; `None` otherwise.
    pub fn known(&self, w: &Wanted) -> Option<Vec<Document>> {
        if is_virtual(w.dir) {
            return Some(Vec::new());
        }
        let files = self.lock();
        let listing = files.listings.get(w.dir).filter(|l| l.len() <= 64)?;
        let mut docs = Vec::new();
        for p in w.members(listing) {
            let f = files.files.get(p).filter(|f| f.current)?;
            match &f.doc {
                Some(d) if d.file.dialect == w.settings.dialect_for(p) => docs.push(d.clone()),
                Some(_) => return None,
                None => {}
            }
        }
        Some(docs)
    }

    /// One file, parsed; read again only when it changed: after a change
    /// event (which a change that keeps its size and time may be), or,
    /// when `recheck` looks at the disk, when its size or time differ.
    fn file(&self, path: &Path, settings: &Settings, recheck: bool) -> Option<Document> {
        let known = self.lock().files.get(path).filter(|f| f.current).map(|f| (f.stamp, f.doc.clone()));
        if let Some((known, doc)) = known {
            if !recheck {
                return self.in_dialect(path, known, doc?, settings);
            }
            let Some(now) = stamp(path) else {
                self.lock().files.remove(path);
                return None;
            };
            if now == known {
                return self.in_dialect(path, now, doc?, settings);
            }
        }
        // A file that leads outside the tree (a link) is not read, and
        // not looked at again until it changes ([`crate::confine`]).
        if !settings.session.tree.allows(path) {
            // (Its stamp kept, so a client that watches nothing does not
            // find the module changed at every look.)
            let stamp = stamp(path).unwrap_or((None, 0));
            self.lock().files.insert(path.to_path_buf(), OnDisk { stamp, doc: None, unread: None, current: true });
            return None;
        }
        let (stamp, text) = match read_text(path) {
            Ok(read) => read,
            Err(e) => {
                // A file that is there but not read (over its cap, not
                // readable) is said, not left out in silence; one over its
                // cap keeps its stamp, so it is not opened again until it
                // changes.
                let why = (path.to_path_buf(), e.to_string());
                let mut skipped = self.skipped.locked();
                if !e.is_not_found() && !skipped.contains(&why) {
                    skipped.push(why);
                }
                drop(skipped);
                let meta = std::fs::metadata(path).ok().filter(|m| m.is_file());
                let stamp = meta.filter(|_| matches!(e, crate::fsread::ReadError::TooLarge(_)));
                (stamp.map(|m| (m.modified().ok(), m.len()))?, Err(e.to_string()))
            }
        };
        let (doc, unread) = match text {
            Ok(t) => (Some(parse(path, Arc::new(t.into()), settings)), None),
            Err(why) => (None, Some(Arc::from(why))),
        };
        self.lock().files.insert(path.to_path_buf(), OnDisk { stamp, doc: doc.clone(), unread, current: true });
        doc
    }

    /// `doc` parsed in the dialect the settings now give its path.
    fn in_dialect(&self, path: &Path, stamp: Stamp, doc: Document, settings: &Settings) -> Option<Document> {
        if doc.file.dialect == settings.dialect_for(path) {
            return Some(doc);
        }
        let doc = if syntax::json::is_json_path(path) {
            doc.in_dialect(settings.dialect_for(path))
        } else {
            parse(path, doc.file.text.clone(), settings)
        };
        let on_disk = OnDisk { stamp, doc: Some(doc.clone()), unread: None, current: true };
        self.lock().files.insert(path.to_path_buf(), on_disk);
        Some(doc)
    }

    /// A change event for `path`: it is looked at again when next needed,
    /// and so is its directory's listing (it may be new or gone); for a
    /// directory, its listing and files.
    pub fn changed(&self, path: &Path) {
        self.events.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        let mut files = self.lock();
        if let Some(f) = files.files.get_mut(path) {
            f.current = false;
        } else if files.listings.remove(path).is_some() {
            // A directory: everything read in it.
            for (_, f) in files.files.iter_mut().filter(|(p, _)| p.starts_with(path)) {
                f.current = false;
            }
        }
        if let Some(dir) = path.parent() {
            files.listings.remove(dir);
        }
    }

    /// Forgets everything read in `dir` (none of its documents is open);
    /// returns it, to be freed off the message loop.
    pub fn forget(&self, dir: &Path) -> Vec<Document> {
        self.watch.forget(dir);
        self.events.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        let mut files = self.lock();
        files.listings.remove(dir);
        files.links.retain(|l| l.parent() != Some(dir));
        // (`dir` is the file itself for a Nomad job file.)
        let gone: Vec<PathBuf> = files.files.keys().filter(|p| p.parent() == Some(dir) || *p == dir).cloned().collect();
        gone.iter().filter_map(|p| files.files.remove(p)?.doc).collect()
    }

    /// The files that were there but could not be read, each once, with
    /// why (`check` reports them; a module is not analysed without them in
    /// silence).
    pub fn skipped(&self) -> Vec<(PathBuf, String)> {
        let mut out = self.skipped.locked().clone();
        out.sort();
        out.dedup();
        out
    }

    /// The files of `dir` that a module wanted but that were not read, as
    /// last looked at, with why (over the source cap, not UTF-8): the
    /// server says so on the module's open documents, where `check` says
    /// it as an I/O failure.
    pub fn unread(&self, dir: &Path) -> Vec<(PathBuf, Arc<str>)> {
        let files = self.lock();
        let mut out: Vec<(PathBuf, Arc<str>)> = files
            .files
            .iter()
            .filter(|(p, f)| p.parent() == Some(dir) && f.current)
            .filter_map(|(p, f)| Some((p.clone(), f.unread.clone()?)))
            .collect();
        out.sort();
        out
    }

    /// A file that was there but not read elsewhere (a manifest).
    pub fn skip(&self, path: &Path, why: String) {
        let why = (path.to_path_buf(), why);
        let mut skipped = self.skipped.locked();
        if !skipped.contains(&why) {
            skipped.push(why);
        }
    }

    /// How many change events (and forgotten directories) there were.
    pub fn events(&self) -> u64 {
        self.events.load(std::sync::atomic::Ordering::SeqCst)
    }

    /// Whether what was read of `dirs` is what the disk has: the same
    /// listings, and every file read with the same size and time (a check
    /// without reading, for a client that does not watch files; one the
    /// watch covers is the same while no event came and its listing is
    /// still known).
    pub fn unchanged(&self, dirs: &HashSet<PathBuf>, tree: &Tree) -> bool {
        let before = self.events();
        self.take_events();
        if self.events() != before {
            return false;
        }
        // (Whether the watch spares looking at it, or at all but its links.)
        let links_unchanged = |dir: &Path| {
            let links: Vec<PathBuf> = self.lock().links.iter().filter(|l| l.parent() == Some(dir)).cloned().collect();
            let stamps: Vec<Option<Stamp>> = links.iter().map(|l| stamp(l)).collect();
            let files = self.lock();
            (links.iter().zip(stamps))
                .all(|(l, now)| files.files.get(l).is_none_or(|f| f.current && Some(f.stamp) == now))
        };
        let spared = |dir: &Path| {
            is_virtual(dir)
                || match self.seen(dir) {
                    Seen::Covered => self.lock().listings.contains_key(dir),
                    Seen::Links => self.lock().listings.contains_key(dir) && links_unchanged(dir),
                    Seen::New | Seen::No => false,
                }
        };
        dirs.iter().filter(|d| !spared(d)).all(|dir| {
            let fresh = list(dir, tree);
            let stamps: Vec<Option<Stamp>> = fresh.iter().map(|p| stamp(p)).collect();
            let files = self.lock();
            files.listings.get(dir).is_some_and(|known| *known == fresh)
                && (fresh.iter().zip(stamps))
                    .all(|(p, now)| files.files.get(p).is_none_or(|f| f.current && Some(f.stamp) == now))
        })
    }

    /// Drops the trees of the cached parse of `path` in place (see
    /// [`Document::drop_trees`]); returns them.
    pub fn drop_trees(&self, path: &Path) -> Option<Vec<Arc<hcl_edit::structure::Body>>> {
        self.lock().files.get_mut(path)?.doc.as_mut()?.drop_trees()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> crate::scratch::Scratch {
        crate::scratch::Scratch::new(&format!("disk-{name}")).unwrap()
    }

    fn texts(disk: &Disk, dir: &Path, recheck: bool) -> Vec<String> {
        let (skip, settings) = (HashSet::new(), Settings::default());
        let w = Wanted { dir, family: Family::Terraform, skip: &skip, also: None, settings: &settings };
        let docs = disk.module(&w, recheck);
        docs.iter().map(|d| d.file.text.to_string()).collect()
    }

    #[test]
    fn a_file_is_read_again_after_an_event_for_it_or_a_recheck() {
        let dir = scratch("events");
        let a = dir.join("a.tf");
        std::fs::write(&a, "locals {}\n").unwrap();
        let disk = Disk::default();
        assert_eq!(texts(&disk, &dir, false), ["locals {}\n"]);
        std::fs::write(&a, "locals { x = 1 }\n").unwrap();
        std::fs::write(dir.join("b.tf"), "output \"o\" {}\n").unwrap();
        // Without an event, what was read stands.
        assert_eq!(texts(&disk, &dir, false), ["locals {}\n"]);
        disk.changed(&a);
        assert_eq!(texts(&disk, &dir, false), ["locals { x = 1 }\n", "output \"o\" {}\n"]);
        std::fs::write(&a, "locals { y = 22 }\n").unwrap();
        assert_eq!(texts(&disk, &dir, true), ["locals { y = 22 }\n", "output \"o\" {}\n"]);
        disk.changed(&dir);
        std::fs::remove_file(&a).unwrap();
        assert_eq!(texts(&disk, &dir, false), ["output \"o\" {}\n"]);
        // b, and the last copy of a (gone from the listing).
        assert_eq!(disk.forget(&dir).len(), 2);
        assert!(disk.lock().files.is_empty() && disk.lock().listings.is_empty());
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// For a client that does not watch files, the server's own watch
    /// tells what changed: nothing is looked at while nothing happens, and
    /// every change is seen, even one that keeps a file's size and time.
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    #[test]
    fn a_watched_directory_is_looked_at_only_after_events() {
        let dir = scratch("watch");
        let a = dir.join("a.tf");
        std::fs::write(&a, "locals { x = 1 }\n").unwrap();
        let disk = Disk::default();
        let looks = || LOOKS.with(|n| n.get());
        assert_eq!(texts(&disk, &dir, true), ["locals { x = 1 }\n"]);
        // (The first time it is looked at and watched from then on.)
        assert_eq!(texts(&disk, &dir, true), ["locals { x = 1 }\n"]);
        let before = looks();
        for _ in 0..5 {
            assert_eq!(texts(&disk, &dir, true), ["locals { x = 1 }\n"]);
        }
        assert_eq!(looks(), before, "nothing happened, nothing looked at");
        // An editor's swap and backup files are not changes of the module.
        let events = disk.events();
        std::fs::write(dir.join(".a.tf.swp"), "swap").unwrap();
        std::fs::write(dir.join("4913"), "").unwrap();
        std::fs::remove_file(dir.join("4913")).unwrap();
        assert_eq!(texts(&disk, &dir, true), ["locals { x = 1 }\n"]);
        assert_eq!(disk.events(), events, "no change of the module");
        // Same size, same time: only an event tells.
        let time = std::fs::metadata(&a).unwrap().modified().unwrap();
        std::fs::write(&a, "locals { x = 2 }\n").unwrap();
        std::fs::File::options().write(true).open(&a).unwrap().set_modified(time).unwrap();
        assert_eq!(texts(&disk, &dir, true), ["locals { x = 2 }\n"]);
        std::fs::write(dir.join("b.tf"), "output \"o\" {}\n").unwrap();
        assert_eq!(texts(&disk, &dir, true), ["locals { x = 2 }\n", "output \"o\" {}\n"]);
        std::fs::remove_file(&a).unwrap();
        assert_eq!(texts(&disk, &dir, true), ["output \"o\" {}\n"]);
        // A link's target changes elsewhere, unseen by the watch: a
        // directory with links is looked at every time.
        let elsewhere = scratch("watch-target");
        std::fs::write(elsewhere.join("t.tf"), "locals {}\n").unwrap();
        std::os::unix::fs::symlink(elsewhere.join("t.tf"), dir.join("l.tf")).unwrap();
        assert_eq!(texts(&disk, &dir, true), ["output \"o\" {}\n", "locals {}\n"]);
        std::fs::write(elsewhere.join("t.tf"), "locals { y = 33 }\n").unwrap();
        assert_eq!(texts(&disk, &dir, true), ["output \"o\" {}\n", "locals { y = 33 }\n"]);
        // A directory that is not there (a call's missing source) is
        // looked for again only once something is made in its parent.
        let missing = dir.join("modules/x");
        let unchanged = |disk: &Disk| disk.unchanged(&HashSet::from([missing.clone()]), &Tree::default());
        assert!(texts(&disk, &missing, true).is_empty());
        unchanged(&disk);
        assert!(unchanged(&disk));
        let before = looks();
        assert!(unchanged(&disk) && unchanged(&disk));
        assert_eq!(looks(), before, "a missing directory is not looked for while nothing is made");
        std::fs::create_dir_all(&missing).unwrap();
        std::fs::write(missing.join("m.tf"), "locals {}\n").unwrap();
        assert!(!unchanged(&disk), "made where it was missing");
        assert!(!unchanged(&disk), "and then looked at: it has a file no listing had");
        // Forgotten, and watched anew when needed.
        disk.forget(&dir);
        std::fs::remove_file(dir.join("l.tf")).unwrap();
        assert_eq!(texts(&disk, &dir, true), ["output \"o\" {}\n"]);
        let _ = std::fs::remove_dir_all(&dir);
        let _ = std::fs::remove_dir_all(&elsewhere);
    }

    /// One link in a directory of many entries: the watch still tells
    /// when entries come and go, so the directory is not listed again on
    /// every analysis; only the link is looked at (issue 42, item 9: one
    /// symlink beside 300,000 entries cost 210 ms a keystroke).
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    #[test]
    fn a_directory_with_a_link_is_not_listed_on_every_analysis() {
        let dir = scratch("one-link");
        let elsewhere = scratch("one-link-target");
        for i in 0..200 {
            std::fs::write(dir.join(format!("f{i}.txt")), "").unwrap();
        }
        std::fs::write(dir.join("a.tf"), "locals {}\n").unwrap();
        std::fs::write(elsewhere.join("t.tf"), "output \"o\" {}\n").unwrap();
        std::os::unix::fs::symlink(elsewhere.join("t.tf"), dir.join("l.tf")).unwrap();
        let disk = Disk::default();
        let (listings, looks) = (|| LISTINGS.with(|n| n.get()), || LOOKS.with(|n| n.get()));
        let both = ["locals {}\n", "output \"o\" {}\n"];
        assert_eq!(texts(&disk, &dir, true), both);
        assert_eq!(texts(&disk, &dir, true), both);
        let (before, looked) = (listings(), looks());
        for _ in 0..10 {
            assert_eq!(texts(&disk, &dir, true), both);
        }
        assert_eq!(listings(), before, "not listed again while no entry came or went");
        assert_eq!(looks() - looked, 10, "the link looked at, once an analysis");
        // The link's target changed elsewhere: seen.
        std::fs::write(elsewhere.join("t.tf"), "output \"p\" {}\n").unwrap();
        assert_eq!(texts(&disk, &dir, true), ["locals {}\n", "output \"p\" {}\n"]);
        // An entry made: listed again.
        std::fs::write(dir.join("b.tf"), "locals {}\n").unwrap();
        assert_eq!(texts(&disk, &dir, true).len(), 3);
        assert!(disk.unchanged(&HashSet::from([dir.to_path_buf()]), &Tree::default()));
        let before = listings();
        assert!(disk.unchanged(&HashSet::from([dir.to_path_buf()]), &Tree::default()));
        assert_eq!(listings(), before, "nor to tell whether it changed");
        let _ = std::fs::remove_dir_all(&dir);
        let _ = std::fs::remove_dir_all(&elsewhere);
    }

    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    #[test]
    fn fifos_and_directories_are_never_read() {
        let dir = scratch("fifo");
        let fifo = std::ffi::CString::new(dir.join("x.tf").into_os_string().into_encoded_bytes()).unwrap();
        // SAFETY: a valid NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o600) }, 0);
        std::fs::create_dir(dir.join("d.tf")).unwrap();
        std::fs::write(dir.join("m.tf"), "locals {}\n").unwrap();
        let disk = Disk::default();
        let also = dir.join("x.tf");
        let (skip, settings) = (HashSet::new(), Settings::default());
        let w = Wanted { dir: &dir, family: Family::Terraform, skip: &skip, also: Some(&also), settings: &settings };
        let docs = disk.module(&w, true);
        assert_eq!(docs.len(), 1);
        assert_eq!(&*docs[0].file.text, "locals {}\n");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
