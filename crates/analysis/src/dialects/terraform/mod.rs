//! Terraform: `.tf` and its JSON syntax, `.tfvars`, query files. Its
//! checks are the analysis core (src/module/, src/infer/), not here.

use super::{Carrier, FileRule, Handler};
use crate::{Family, FileKind};
use syntax::Dialect;

pub struct Terraform;

const fn file(suffix: &'static str, kind: FileKind) -> FileRule {
    FileRule::suffix(suffix, kind, Family::Terraform, Dialect::Terraform)
}

/// A Terraform query file (`.tfquery.hcl`, Terraform 1.14): part of its
/// directory's module, its variables and locals the module's
/// (`appendQueryFile` in internal/configs/module.go), read by `terraform
/// query`; its `list` blocks are typed from the providers' list resource
/// schemas.
pub const QUERY: FileRule = file(".tfquery.hcl", FileKind::Terraform);

const FILES: [FileRule; 4] =
    [file(".tf", FileKind::Terraform), file(".tf.json", FileKind::Terraform), file(".tfvars", FileKind::Tfvars), QUERY];

impl Handler for Terraform {
    fn name(&self) -> &'static str {
        "terraform"
    }
    fn files(&self) -> &'static [FileRule] {
        &FILES
    }
    fn carriers(&self) -> &'static [Carrier] {
        &[Carrier { from: "a `.tfvars` file's attributes", to: "the module's variables" }]
    }
}

/// Whether `path` is a Terraform query file ([`QUERY`]).
pub fn is_query_file(path: &std::path::Path) -> bool {
    QUERY.matches(path)
}
