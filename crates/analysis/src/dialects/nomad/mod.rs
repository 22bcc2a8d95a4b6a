//! Nomad's job files (`.nomad`, `.nomad.hcl`) and variable
//! specifications (`.nv.hcl`): each file a unit of its own, as Nomad reads
//! one such file at a time (analysis.md §8). Its modules:
//! `variables.rs` (a variable specification's checks).

pub mod variables;

use std::path::Path;

use super::{FileRule, Handler};
use crate::{Family, FileKind};
use syntax::Dialect;

pub struct Nomad;

const fn file(suffix: &'static str) -> FileRule {
    FileRule::suffix(suffix, FileKind::Hcl, Family::Nomad, Dialect::Hcl)
}

const JOB: [FileRule; 2] = [file(".nomad"), file(".nomad.hcl")];

/// A variable specification (`*.nv.hcl`, the name `nomad var init` gives
/// one): what `nomad var put @FILE` reads, one variable a file
/// (`command/var_put.go` of hashicorp/nomad).
const SPEC: FileRule = file(".nv.hcl");

const FILES: [FileRule; 3] = [JOB[0], JOB[1], SPEC];

impl Handler for Nomad {
    fn name(&self) -> &'static str {
        "nomad"
    }
    fn files(&self) -> &'static [FileRule] {
        &FILES
    }
}

/// Whether `path` names a Nomad job file.
pub fn is_nomad(path: &Path) -> bool {
    super::any_matches(&JOB, path)
}

/// Whether `path` names a Nomad variable specification ([`SPEC`]).
pub fn is_nomad_variable_spec(path: &Path) -> bool {
    SPEC.matches(path)
}
