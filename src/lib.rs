//! hcl-types: a checker and language server for HCL type annotations.
//!
//! Layers, each knowing only those below it: [`types`] (pure algebra) →
//! [`syntax`] (hcl-edit trees, type expressions with spans) → analysis →
//! server and [`cli`].

pub mod analysis;
pub mod cli;
pub mod diagnostic;
pub mod fsread;
pub mod functions;
pub mod schema;
pub mod server;
pub mod suggest;
pub mod syntax;
#[cfg(test)]
mod testing;
pub mod types;
