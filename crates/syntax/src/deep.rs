//! Deeply nested HCL. Terraform (HashiCorp's Go parser) has no small
//! nesting limit: 1.11 validates 50,000 nested `[`, `(` or `{a = …}` and
//! 100,000 nested blocks, and crashes on 100,000 nested expressions (Go's
//! 1 GB stack). hcl-edit's parser rejects more than 64 levels by default,
//! because it recurses once per level and a level takes up to ~35 KB of
//! stack in a debug build (a `for` expression; ~20 KB for a list).
//!
//! We accept [`MAX_NESTING`] levels: an item is parsed on the caller's
//! thread with a limit of [`SHALLOW`] levels (no cost for real code, and
//! at most ~1.1 MB of a 2 MiB stack: hcl-edit's own 64 would take ~2.2 MB
//! of nested `for`s in a debug build), and only one too deep for that is
//! parsed again, with the higher limit, on a thread whose stack is sized
//! for it. The tree that comes back is at
//! most that deep; every later pass over it (analysis, hover, printing,
//! dropping) takes up to ~5 KB a level in a debug build, so the threads
//! that run them get [`THREAD_STACK`] (`project::threads`, the server's
//! runtime), not their default 2 MiB. Deeper input is one `syntax`
//! diagnostic, never a stack overflow.

use hcl_edit::parser::{self, ParseOptions};
use hcl_edit::structure::Body;

/// The deepest nesting of expressions, templates and blocks accepted:
/// past the 300 levels a `.tf.json` file Terraform reads may hold (issue
/// 42), within [`THREAD_STACK`] for every pass in a debug build.
pub const MAX_NESTING: usize = 512;

/// The stack of every thread that walks a parsed tree (the server's tokio
/// threads, rayon's pool: `project::threads`): ~5 KB a level in a debug
/// build is ~2.6 MB at [`MAX_NESTING`]; the rest is margin. Only touched
/// pages are committed.
pub const THREAD_STACK: usize = 16 << 20;

/// The nesting parsed on the caller's thread.
const SHALLOW: usize = 32;

/// The stack a parse at [`MAX_NESTING`] runs on: ~35 KB a level in a debug
/// build is ~9 MB; the rest is margin. Only touched pages are committed.
const DEEP_STACK: usize = 64 << 20;

/// `parser::parse_body`, accepting [`MAX_NESTING`] levels.
pub fn parse_body(text: &str) -> Result<Body, parser::Error> {
    match parser::parse_body_with(text, ParseOptions::default().max_nesting_depth(SHALLOW)) {
        Err(e) if too_deep(&e) => {
            on_deep_stack(|| parser::parse_body_with(text, ParseOptions::default().max_nesting_depth(MAX_NESTING)))
                .unwrap_or(Err(e))
        }
        parsed => parsed,
    }
}

/// Whether hcl-edit rejected the text for its nesting alone.
fn too_deep(e: &parser::Error) -> bool {
    e.message().starts_with("invalid nesting depth")
}

/// `f` on a thread with [`DEEP_STACK`]; `None` if no thread can be made
/// (the caller keeps its first answer). A panic in `f` goes on in the
/// caller.
fn on_deep_stack<T: Send>(f: impl FnOnce() -> T + Send) -> Option<T> {
    std::thread::scope(|s| {
        let handle = std::thread::Builder::new()
            .name("hcl-types-deep-parse".into())
            .stack_size(DEEP_STACK)
            .spawn_scoped(s, f)
            .ok()?;
        Some(handle.join().unwrap_or_else(|p| std::panic::resume_unwind(p)))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn nested(n: usize) -> String {
        format!("x = {}1{}\n", "[for v in ".repeat(n), " : v]".repeat(n))
    }

    /// The deepest accepted `for` nesting (the costliest level) parses
    /// from a thread with the default 2 MiB stack (the parse itself moves
    /// to a deep one); one level more is the parser's nesting error.
    #[test]
    fn nesting_to_the_limit_parses_on_a_small_stack() {
        let small = std::thread::Builder::new().stack_size(2 << 20);
        let (ok, err) = small
            .spawn(|| (parse_body(&nested(MAX_NESTING)).is_ok(), parse_body(&nested(MAX_NESTING + 1)).map(|_| ())))
            .unwrap()
            .join()
            .unwrap();
        assert!(ok);
        let e = err.unwrap_err();
        assert_eq!(e.message(), format!("invalid nesting depth; expected at most {MAX_NESTING} nested levels"));
    }
}
