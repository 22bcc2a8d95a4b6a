//! The directories the server watches itself (inotify) for a client that
//! does not watch files (Neovim, Helix): their events reach the cache of
//! disk files as a client's would, so a keystroke asks the kernel whether
//! anything happened (one read that finds nothing) instead of listing the
//! module's directories and looking at every file's size and time again
//! (~0.1–0.15 ms a keystroke at 10 MB). A directory that cannot be
//! watched (another system, the user's limit of watches reached) is
//! looked at on every analysis, as before; in one that holds symbolic
//! links (their targets change elsewhere, unseen) the links are (one
//! symlink beside 300,000 entries listed them all on every keystroke). A thread of the server waits
//! for the events (`Watch::wait`) and has them taken in and what they
//! change analysed and published again, as a client's would be, without
//! waiting for the next keystroke (`refresh::watch_disk`).

use std::path::PathBuf;

/// What happened since the last look: these files changed (made, gone,
/// written), and these directories may have changed in every way (their
/// own watch reported, or events were lost).
#[derive(Debug, Default, PartialEq)]
pub struct Happened {
    pub files: Vec<PathBuf>,
    pub dirs: Vec<PathBuf>,
}

/// What the watch knows of a directory.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Seen {
    /// Its events tell every change.
    Covered,
    /// Watched from now on: what was read of it before may be stale.
    New,
    /// Its events tell every entry made, gone or written, but not the
    /// changes of its links' targets (elsewhere): only the links are
    /// looked at again.
    Links,
    /// Not watched.
    No,
}

#[cfg(all(target_os = "linux", target_env = "gnu"))]
pub use inotify_watch::Watch;

#[cfg(all(target_os = "linux", target_env = "gnu"))]
mod inotify_watch {
    use std::collections::HashMap;
    use std::os::fd::AsRawFd;
    use std::path::{Path, PathBuf};
    use std::sync::{Condvar, Mutex, MutexGuard};
    use std::time::Duration;

    use inotify::{EventMask, Inotify, WatchDescriptor, WatchMask};

    use super::{Happened, Seen};
    use analysis::sync::Locked;

    /// The watch's state, and what tells [`Watch::wait`] that inotify
    /// was started.
    #[derive(Default)]
    pub struct Watch(Mutex<State>, Condvar);

    #[derive(Default)]
    struct State {
        /// `None` until first needed, and when inotify is refused.
        inotify: Option<Inotify>,
        tried: bool,
        dirs: HashMap<WatchDescriptor, PathBuf>,
        /// Watched directories, and whether their events can be trusted
        /// (they hold no link).
        watched: HashMap<PathBuf, (WatchDescriptor, bool)>,
        /// Directories that are not there (a call's missing source), each
        /// with its nearest watched ancestor: they stay missing while
        /// nothing is made or gone in it.
        missing: HashMap<PathBuf, PathBuf>,
    }

    impl Watch {
        fn lock(&self) -> MutexGuard<'_, State> {
            self.0.locked()
        }

        /// The events that came since the last call (without waiting).
        pub fn happened(&self) -> Happened {
            let mut out = Happened::default();
            let mut st = self.lock();
            let State { inotify, dirs, watched, missing, .. } = &mut *st;
            let Some(inotify) = inotify.as_mut() else { return out };
            let mut buffer = [0u8; 8192];
            let mut entries = Vec::new();
            // Entries made or gone (what may lead to a missing directory).
            let mut made: Vec<PathBuf> = Vec::new();
            let made_or_gone = EventMask::CREATE | EventMask::DELETE | EventMask::MOVED_FROM | EventMask::MOVED_TO;
            // Until a read finds nothing (`WouldBlock`, or any error); at
            // most 64 reads, so that a process writing beside the module
            // without pause cannot hold a keystroke here (the rest waits
            // for the next look).
            for _ in 0..64 {
                let Ok(events) = inotify.read_events(&mut buffer) else { break };
                for e in events {
                    if e.mask.contains(EventMask::Q_OVERFLOW) {
                        // Events were lost: everything watched may have
                        // changed, and a missing directory may be there.
                        out.dirs.extend(watched.keys().cloned());
                        out.dirs.extend(missing.drain().map(|(dir, _)| dir));
                        continue;
                    }
                    let Some(dir) = dirs.get(&e.wd) else { continue };
                    match e.name {
                        Some(name) => out.files.push(dir.join(name)),
                        None => out.dirs.push(dir.clone()),
                    }
                    if e.mask.intersects(made_or_gone) {
                        entries.push(dir.clone());
                        made.extend(e.name.map(|name| dir.join(name)));
                    }
                    if e.mask.contains(EventMask::IGNORED) {
                        // The directory went (or moved): watched anew when next needed.
                        if let Some(dir) = dirs.remove(&e.wd) {
                            watched.remove(&dir);
                        }
                    }
                }
            }
            // An entry made or gone may be a link: trusted while there is
            // none; and it may be (or lead to) a missing directory, which
            // is then looked for again, and said to have changed: what
            // calls it reads it anew (no event of its own would tell).
            entries.sort_unstable();
            entries.dedup();
            missing.retain(|dir, ancestor| {
                let keep = watched.contains_key(ancestor) && !entries.contains(ancestor);
                if !keep && made.iter().any(|m| dir.starts_with(m)) {
                    out.dirs.push(dir.clone());
                }
                keep
            });
            for dir in entries {
                if let Some(w) = watched.get_mut(&dir) {
                    w.1 = !has_links(&dir);
                }
            }
            out
        }

        /// Waits at most `timeout` for events to read (not reading them),
        /// so that they refresh what they change without waiting for a
        /// keystroke; whether some are there. Before anything is watched,
        /// waits for that (and finds none).
        pub fn wait(&self, timeout: Duration) -> bool {
            let st = self.lock();
            let fd = match st.inotify.as_ref() {
                Some(inotify) => inotify.as_raw_fd(),
                None => {
                    drop(self.1.wait_timeout(st, timeout).unwrap_or_else(|e| e.into_inner()));
                    return false;
                }
            };
            // Not under the lock: a keystroke reads events meanwhile.
            drop(st);
            let mut poll = libc::pollfd { fd, events: libc::POLLIN, revents: 0 };
            let ms = i32::try_from(timeout.as_millis()).unwrap_or(i32::MAX);
            // SAFETY: one pollfd, for the descriptor of the inotify this
            // watch owns (never closed while the watch lives).
            let ready = unsafe { libc::poll(&mut poll, 1, ms) };
            ready > 0 && poll.revents & libc::POLLIN != 0
        }

        /// Whether the events of `dir` tell its changes; a directory not
        /// watched yet is from now on.
        pub fn covers(&self, dir: &Path) -> Seen {
            let mut st = self.lock();
            if let Some((_, trusted)) = st.watched.get(dir) {
                return if *trusted { Seen::Covered } else { Seen::Links };
            }
            if st.missing.get(dir).is_some_and(|ancestor| st.watched.contains_key(ancestor)) {
                return Seen::Covered;
            }
            if !st.tried {
                st.tried = true;
                st.inotify = Inotify::init().ok();
                self.1.notify_all();
            }
            let State { inotify, dirs, watched, missing, .. } = &mut *st;
            let Some(inotify) = inotify.as_mut() else { return Seen::No };
            let mask = WatchMask::CREATE
                | WatchMask::DELETE
                | WatchMask::MODIFY
                | WatchMask::ATTRIB
                | WatchMask::CLOSE_WRITE
                | WatchMask::MOVED_FROM
                | WatchMask::MOVED_TO
                | WatchMask::DELETE_SELF
                | WatchMask::MOVE_SELF
                | WatchMask::ONLYDIR;
            let mut add = |at: &Path| -> Result<(), std::io::ErrorKind> {
                if watched.contains_key(at) {
                    return Ok(());
                }
                let wd = inotify.watches().add(at, mask).map_err(|e| e.kind())?;
                // (Links are looked for once the watch is on: one made
                // later is an event, and they are looked for again then.)
                dirs.insert(wd.clone(), at.to_path_buf());
                watched.insert(at.to_path_buf(), (wd, !has_links(at)));
                Ok(())
            };
            match add(dir) {
                Ok(()) => Seen::New,
                Err(std::io::ErrorKind::NotFound) => {
                    // Not there: what would make it is an event in the
                    // nearest ancestor that is.
                    let ancestor = dir.ancestors().skip(1).find(|a| add(a).is_ok());
                    match ancestor {
                        Some(a) => {
                            missing.insert(dir.to_path_buf(), a.to_path_buf());
                            Seen::New
                        }
                        None => Seen::No,
                    }
                }
                Err(_) => Seen::No,
            }
        }

        /// Stops watching `dir` (none of its documents is open any more).
        pub fn forget(&self, dir: &Path) {
            let mut st = self.lock();
            let State { inotify, dirs, watched, missing, .. } = &mut *st;
            missing.remove(dir);
            let Some((wd, _)) = watched.remove(dir) else { return };
            dirs.remove(&wd);
            if let Some(inotify) = inotify.as_mut() {
                let _ = inotify.watches().remove(wd);
            }
        }
    }

    /// Whether `dir` holds a symbolic link (or cannot be read).
    fn has_links(dir: &Path) -> bool {
        let Ok(entries) = std::fs::read_dir(dir) else { return true };
        entries.into_iter().any(|e| e.and_then(|e| e.file_type()).map_or(true, |t| t.is_symlink()))
    }
}

/// Elsewhere, nothing is watched: every analysis looks at the disk.
#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
#[derive(Default)]
pub struct Watch;

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
impl Watch {
    pub fn happened(&self) -> Happened {
        Happened::default()
    }
    pub fn covers(&self, _: &std::path::Path) -> Seen {
        Seen::No
    }
    pub fn forget(&self, _: &std::path::Path) {}
    pub fn wait(&self, timeout: std::time::Duration) -> bool {
        std::thread::sleep(timeout);
        false
    }
}
