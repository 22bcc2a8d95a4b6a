//! The stacks of the threads that analyse. A tree as deep as
//! [`syntax::deep::MAX_NESTING`] allows is walked by recursive passes
//! (inference, checks, hover, printing, dropping) at up to ~5 KB a level in
//! a debug build, on whichever thread runs them: the language server's
//! tokio workers and blocking threads, and rayon's pool (`check`'s modules,
//! a long file's items). Their default 2 MiB would cap the nesting near 300
//! levels, below what Terraform reads (its JSON parser has no limit), so
//! both front ends give those threads [`syntax::deep::THREAD_STACK`]
//! instead. Only touched pages are committed: a shallow module costs what
//! it did.

/// Gives rayon's global pool threads of [`syntax::deep::THREAD_STACK`].
/// Call it before anything runs on the pool; later calls (a second server
/// in one test process) change nothing.
pub fn configure() {
    let _ = rayon::ThreadPoolBuilder::new()
        .thread_name(|i| format!("hcl-types-rayon-{i}"))
        .stack_size(syntax::deep::THREAD_STACK)
        .build_global();
}
