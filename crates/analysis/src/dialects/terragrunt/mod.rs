//! Terragrunt (docs/spec/terragrunt.md): a unit's `terragrunt.hcl`, whose
//! `inputs` go to the module `terraform { source }` names, the files it
//! includes (of any name), and 1.x stacks (`terragrunt.stack.hcl`).
//! Its modules: `unit.rs`, `dependency.rs`, `merge.rs`, `values.rs`,
//! `stack.rs`, `generate.rs` (module passes), `read_config.rs`
//! (`read_terragrunt_config`), `functions.rs` (Terragrunt's functions).

pub mod dependency;
pub mod functions;
pub mod generate;
pub mod merge;
pub mod read_config;
pub mod references;
pub mod stack;
pub mod unit;
pub mod values;

use std::ops::Range;
use std::path::Path;

use types::Type;

use super::{Carrier, FileRule, Handler, Step};
use crate::infer::{Infer, Note};

pub struct Terragrunt;

/// A unit's configuration file's name.
pub const UNIT_FILE: &str = "terragrunt.hcl";

/// A Terragrunt 1.x stack file's name.
pub const STACK_FILE: &str = "terragrunt.stack.hcl";

const UNIT: FileRule = FileRule::whole(UNIT_FILE);

/// A stack file, and the one `autoinclude` writes.
const STACK: [FileRule; 2] = [FileRule::whole(STACK_FILE), FileRule::whole("terragrunt.autoinclude.stack.hcl")];

const FILES: [FileRule; 3] = [UNIT, STACK[0], STACK[1]];

impl Handler for Terragrunt {
    fn name(&self) -> &'static str {
        "terragrunt"
    }
    fn files(&self) -> &'static [FileRule] {
        &FILES
    }
    fn roots(&self) -> &'static [&'static str] {
        &["dependency", "include", "values", "unit", "stack"]
    }
    fn carriers(&self) -> &'static [Carrier] {
        &[
            Carrier { from: "`inputs`", to: "the variables of the module `terraform { source }` names" },
            Carrier { from: "`unit { values }`", to: "the unit's `values`" },
        ]
    }
    fn reference(&self, inf: &mut Infer, name: &str, range: &Range<usize>, ops: &[Step]) -> Option<(Type, Note)> {
        let dialect = inf.env.dialect();
        match name {
            "unit" | "stack" if inf.terragrunt_stack => Some(inf.terragrunt_component(name, range.clone(), ops)),
            "include" => inf.included_inputs(dialect, name, range, ops),
            "dependency" => inf.dependency_outputs(dialect, name, range, ops),
            "values" => inf.stack_values(dialect, name, range, ops),
            _ => None,
        }
    }
}

/// Whether `path` is a Terragrunt unit's configuration (`terragrunt.hcl`).
pub fn is_terragrunt_unit(path: &Path) -> bool {
    UNIT.matches(path)
}

/// Whether `path` is a Terragrunt stack file: `terragrunt.stack.hcl`, or the
/// `terragrunt.autoinclude.stack.hcl` a stack-level `autoinclude` generates
/// (its body "may declare only `unit` and `stack` blocks").
pub fn is_stack_file(path: &Path) -> bool {
    super::any_matches(&STACK, path)
}
