//! hcl-types: a checker and language server for HCL type annotations.
//!
//! This package is the command line ([`cli`]); the layers below are crates
//! of their own, each knowing only those below it (docs/architecture.md):
//! [`types`] (pure algebra) → [`syntax`] (hcl-edit trees, type expressions
//! with spans) → [`schema`] (from bytes) → [`analysis`] (modules, plain
//! data) → [`ide`] (editor features) → [`project`] (disk and processes) →
//! [`lsp`] (the language server). They are re-exported here so tests and
//! benchmarks name them by layer.

pub mod cli;

pub use analysis;
pub use ide;
pub use lsp;
pub use project;
pub use schema;
pub use syntax;
pub use types;
