//! Plain HCL: any other `.hcl` file, typed by what its expressions are.

use super::{FileRule, Handler};

pub struct Hcl;

const FILES: [FileRule; 1] = [FileRule::hcl(".hcl")];

impl Handler for Hcl {
    fn name(&self) -> &'static str {
        "hcl"
    }
    fn files(&self) -> &'static [FileRule] {
        &FILES
    }
}
