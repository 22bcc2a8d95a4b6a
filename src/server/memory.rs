//! How the server's process uses glibc's allocator: what it keeps, and
//! when freed memory goes back to the system.

/// Lets glibc keep two malloc arenas instead of eight per core: the
/// blocking pool's threads each took one, and what a closed module freed
/// stayed as unreturnable fragments in every one of them (40 modules of
/// 1 MB opened and closed left 24 MB; with two arenas 17 MB).
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
pub fn give_back_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only releases free heap pages; it has no
    // preconditions and is thread-safe.
    unsafe {
        libc::malloc_trim(0);
    }
}
