//! How the server's process uses glibc's allocator: what it keeps, and
//! when freed memory goes back to the system.

/// glibc's tunable for how many freed blocks of each small size a thread
/// keeps for itself (7 by default).
const SMALL_THREAD_CACHES: &str = "glibc.malloc.tcache_count=1";

/// Starts the server again, as the same process (`exec`), with glibc's
/// per-thread caches cut to one block per size; returns only when that
/// is already so or cannot be done. Each thread keeps freed blocks of each
/// small size for itself, and those blocks, left wherever an analysis
/// freed them, stay in use as far as the allocator knows: with hundreds of
/// them spread over a closed module's freed heap, `malloc_trim` could not
/// return the pages around them (40 modules of 1 MB opened and closed held
/// 8-9 MB of anonymous memory with 7 per size, 3-4 MB with 1 or 2,
/// 1-2.5 MB with none; none seemed to cost the 10 MB keystroke about a
/// millisecond, as every small allocation then takes its arena's lock,
/// while one keeps the common free-then-allocate-again pattern off it).
/// The caches can only be sized before the program starts (a tunable, no
/// `mallopt`).
pub fn small_thread_caches() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        use std::os::unix::process::CommandExt;
        let current = std::env::var_os("GLIBC_TUNABLES").unwrap_or_default();
        let current = current.to_string_lossy();
        // Already restarted, or the user chose the caches' size.
        if current.split(':').any(|t| t.starts_with("glibc.malloc.tcache_count=")) {
            return;
        }
        let tunables = if current.is_empty() {
            SMALL_THREAD_CACHES.to_owned()
        } else {
            format!("{current}:{SMALL_THREAD_CACHES}")
        };
        let mut args = std::env::args_os();
        let mut command = std::process::Command::new("/proc/self/exe");
        if let Some(name) = args.next() {
            command.arg0(name);
        }
        // Only returns when it failed: the server then runs as it is.
        let _ = command.args(args).env("GLIBC_TUNABLES", tunables).exec();
    }
}

/// Lets glibc keep two malloc arenas instead of eight per core: the
/// blocking pool's threads each took one, and what a closed module freed
/// stayed as unreturnable fragments in every one of them (40 modules of
/// 1 MB opened and closed left 24 MB; with two arenas 17 MB). Fewer
/// arenas are shared by more threads, so nothing that holds an arena
/// long (`malloc_trim`) may run while the user types.
pub fn few_arenas() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only sets an allocator parameter; called before any
    // thread of the server starts.
    unsafe {
        libc::mallopt(libc::M_ARENA_MAX, 2);
    }
}

/// Returns freed memory to the system: glibc keeps what large trees
/// freed in its arenas, so without this the process would stay as large
/// as the trees it dropped.
fn give_back_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only releases free heap pages; it has no
    // preconditions and is thread-safe.
    unsafe {
        libc::malloc_trim(0);
    }
}

/// What the server freed while the user typed, freed once they pause: a
/// thread freeing trees beside a keystroke's analysis takes the arena
/// locks the analysis needs (two arenas, few per-thread caches), and that
/// was the 10 MB keystroke's p99.
/// Batches [`Later`] keeps at most (a tree drop every ~32 keystrokes).
const MAX_LATER: usize = 8;

/// Garbage is freed this many things at a time, so a pause's freeing
/// stops soon after the user types again.
const PIECE: usize = 256;

use analysis::sync::Locked;

#[derive(Default)]
pub struct Later(std::sync::Mutex<Waiting>);

#[derive(Default)]
struct Waiting {
    /// Pieces of at most [`PIECE`] things each.
    pieces: Vec<Box<dyn Send>>,
    /// How many batches were added since the last free.
    batches: usize,
}

impl Later {
    fn waiting(&self) -> std::sync::MutexGuard<'_, Waiting> {
        self.0.locked()
    }

    /// Keeps `garbage` (trees, say) until the user pauses; when more than
    /// a few batches wait (a long stretch of typing), frees them at once on
    /// a thread of their own.
    pub fn add<T: Send + 'static>(&self, mut garbage: Vec<T>) {
        let mut waiting = self.waiting();
        while !garbage.is_empty() {
            let rest = garbage.split_off(garbage.len().saturating_sub(PIECE));
            waiting.pieces.push(Box::new(rest));
        }
        waiting.batches += 1;
        if waiting.batches > MAX_LATER {
            let all = std::mem::take(&mut *waiting);
            std::thread::spawn(move || drop(all));
        }
    }

    /// Frees what waits and hands freed memory back to the system.
    pub fn free_all(&self) {
        self.free_all_while(|| true);
    }

    /// Frees what waits, a piece at a time while `idle` holds, then hands
    /// freed memory back to the system: after a 10 MB file's open, freeing
    /// its trees takes some 200 ms and trimming 120 ms more, and a keystroke
    /// meanwhile waited for the allocator's locks. What is left when the
    /// user types again waits for the next pause.
    pub fn free_all_while(&self, idle: impl Fn() -> bool) {
        loop {
            if !idle() {
                return;
            }
            let piece = self.waiting().pieces.pop();
            match piece {
                Some(piece) => drop(piece),
                None => break,
            }
        }
        self.waiting().batches = 0;
        if idle() {
            give_back_memory();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    /// A pause's freeing stops a piece after the user types again, and the
    /// rest is freed at the next pause.
    #[test]
    fn freeing_stops_when_the_pause_ends_and_goes_on_at_the_next() {
        let counted = Arc::new(());
        let later = Later::default();
        later.add(vec![counted.clone(); 3 * PIECE + 7]);
        assert_eq!(Arc::strong_count(&counted), 3 * PIECE + 8);
        let checks = std::cell::Cell::new(0);
        later.free_all_while(|| {
            checks.set(checks.get() + 1);
            checks.get() <= 2
        });
        assert_eq!(Arc::strong_count(&counted), 2 * PIECE + 1, "two pieces freed (7 things, then 256)");
        later.free_all();
        assert_eq!(Arc::strong_count(&counted), 1);
    }

    #[test]
    fn a_long_stretch_of_typing_frees_on_a_thread_of_its_own() {
        let counted = Arc::new(());
        let later = Later::default();
        for _ in 0..=MAX_LATER {
            later.add(vec![counted.clone(); 2]);
        }
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
        while Arc::strong_count(&counted) > 1 && std::time::Instant::now() < deadline {
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
        assert_eq!(Arc::strong_count(&counted), 1);
        assert!(later.waiting().pieces.is_empty() && later.waiting().batches == 0);
    }
}
