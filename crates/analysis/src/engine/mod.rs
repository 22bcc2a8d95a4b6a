//! The incremental engine: what a module's analysis keeps between
//! analyses ([`Memo`], memo.rs) and how an edit is brought into the last
//! analysis in place (patch.rs: the phases in order and where the edit
//! is; names.rs: what the edited items declare and which names change;
//! results.rs: the items checked and their results placed; with
//! changes.rs for a rename or a new type, readers.rs for who read which
//! name, settle.rs for the module-level passes, shifted.rs for results
//! moved lazily).
//!
//! The engine is the dialects' client, not their peer: it calls the
//! module's steps (declare, infer, check, the passes) and never judges HCL
//! itself. When an edit is one it cannot take in place, [`Memo::patch`]
//! says why with a [`GiveUp`], counted per reason ([`GiveUps`]) so tests
//! and benchmarks can tell a patched keystroke from a full run, and why.
//!
//! (In the module tree the engine is `module::engine`: it reads the
//! module's step functions, which are private to `module`. Its files live
//! here so the engine is one folder, apart from the dialects.)

mod changes;
mod give_up;
mod memo;
mod names;
mod patch;
mod readers;
mod results;
mod settle;
mod shifted;

pub(in crate::module) use changes::{infer_computed, readers_of, Change, Edited};
pub use give_up::{GiveUp, GiveUps};
pub use memo::Memo;
pub(in crate::module) use memo::{
    describes, reads_symbols, text_hash, CheckResult, ComputedResult, Deps, Last, Signature,
};
pub(in crate::module) use readers::{declared_keys, Readers};
pub use shifted::{NodeAt, TypeNodes};
