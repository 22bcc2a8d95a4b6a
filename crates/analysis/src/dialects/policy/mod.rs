//! Terraform policy files (`*.policy.hcl`; Terraform policy, GA with
//! Terraform 1.17): `input`, `locals`, `policy` and `resource_policy` /
//! `provider_policy` / `module_policy` blocks (docs/spec/analysis.md §10).
//! Each file is a unit of its own, as Terraform policy "evaluates each
//! policy file in a given directory separately"
//! (developer.hashicorp.com/terraform/policy/reference/policy). Its
//! modules: `checks.rs`.

pub mod checks;

use std::path::Path;

use hcl_edit::structure::Block;

use super::{FileRule, Handler};
use crate::document::Document;
use crate::infer::Infer;
use crate::{Family, FileKind};
use syntax::Dialect;

pub struct Policy;

const FILE: FileRule = FileRule::suffix(".policy.hcl", FileKind::Hcl, Family::Policy, Dialect::Hcl);

impl Handler for Policy {
    fn name(&self) -> &'static str {
        "policy"
    }
    fn files(&self) -> &'static [FileRule] {
        &[FILE]
    }
    fn check_block(&self, inf: &mut Infer, doc: &Document, b: &Block) -> bool {
        doc.file.kind == FileKind::Hcl && FILE.matches(&doc.file.path) && crate::dialects::policy::checks::block(inf, b)
    }
}

/// Whether `path` is a Terraform policy file.
pub fn is_policy_file(path: &Path) -> bool {
    FILE.matches(path)
}
