//! The repository's own tests, one binary (issue 46.5): each file below was
//! a test binary of its own, ~200 MB relinked after any change below it.
//! Run one file's tests with a filter on its module, e.g.
//! `cargo test --test it -- lsp_nav::` (or any part of a test's name).
//!
//! One process runs them all, so a test changes nothing process-wide: no
//! `std::env::set_var` or `set_current_dir` (a child process gets its own
//! environment, see `schema.rs`), and scratch directories are
//! `tempfile::TempDir`s, removed when dropped.

// Shared helpers.
mod counting;
mod lsp_support;
mod paths;
mod scratch;

mod amplification;
mod architecture;
mod cli;
mod cli_sources;
mod completions;
mod conformance;
mod corpus;
mod deep_nesting;
mod dialects;
mod fixtures;
mod hostile;
mod incremental;
mod limits;
mod lsp;
mod lsp_json;
mod lsp_nav;
mod lsp_protocol;
mod lsp_pulumi_hcl;
mod lsp_semantic_tokens;
mod lsp_terragrunt;
mod lsp_types;
mod memory;
mod nomad;
mod opentofu;
mod packer;
mod policy;
mod properties;
mod readme;
mod robustness;
mod schema;
mod soak;
mod special_files;
mod tidy;
mod tokens_parallel;

/// The name libtest knows the test `function` of `module` (a
/// `module_path!()`) by, for `--exact`: the path without the crate's name.
fn exact(module: &str, function: &str) -> String {
    let module = module.split_once("::").map_or("", |(_, m)| m);
    if module.is_empty() {
        function.to_string()
    } else {
        format!("{module}::{function}")
    }
}
