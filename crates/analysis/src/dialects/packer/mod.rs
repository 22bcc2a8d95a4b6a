//! Packer's HCL templates (`.pkr.hcl`) and variable files (`.pkrvars.hcl`):
//! read with Terraform's rules (type-expressions.md §1).

use super::{Carrier, FileRule, Handler};
use crate::{Family, FileKind};
use syntax::Dialect;

pub struct Packer;

/// A Packer template.
pub const TEMPLATE: FileRule = FileRule::suffix(".pkr.hcl", FileKind::Terraform, Family::Terraform, Dialect::Terraform);

/// A Packer variable file.
pub const VARS: FileRule = FileRule::suffix(".pkrvars.hcl", FileKind::Tfvars, Family::Terraform, Dialect::Terraform);

const FILES: [FileRule; 2] = [TEMPLATE, VARS];

impl Handler for Packer {
    fn name(&self) -> &'static str {
        "packer"
    }
    fn files(&self) -> &'static [FileRule] {
        &FILES
    }
    fn carriers(&self) -> &'static [Carrier] {
        &[Carrier { from: "a `.pkrvars.hcl` file's attributes", to: "the template's variables" }]
    }
}
