//! Terraform Stacks (docs/spec/stacks.md): component files
//! (`.tfcomponent.hcl`; hashicorp/terraform's
//! `internal/stacks/stackconfig/file.go`, its JSON form is not read here)
//! whose `component` blocks call modules, and deployment files
//! (`.tfdeploy.hcl`). Its modules: `components.rs`.

pub mod components;

use std::path::Path;

use hcl_edit::structure::Block;

use super::{Carrier, FileRule, Handler};
use crate::document::Document;
use crate::infer::Infer;
use crate::FileKind;

pub struct Stacks;

const COMPONENT: FileRule = FileRule::hcl(".tfcomponent.hcl");
const DEPLOYMENT: FileRule = FileRule::hcl(".tfdeploy.hcl");

impl Handler for Stacks {
    fn name(&self) -> &'static str {
        "stacks"
    }
    fn files(&self) -> &'static [FileRule] {
        &[COMPONENT, DEPLOYMENT]
    }
    fn roots(&self) -> &'static [&'static str] {
        &["component"]
    }
    fn carriers(&self) -> &'static [Carrier] {
        &[
            Carrier { from: "`component { inputs }`", to: "the component's module's variables" },
            Carrier { from: "`deployment { inputs }`", to: "the stack's variables" },
        ]
    }
    fn check_block(&self, inf: &mut Infer, doc: &Document, b: &Block) -> bool {
        if doc.file.kind == FileKind::Hcl && COMPONENT.matches(&doc.file.path) {
            crate::dialects::stacks::components::block(inf, b);
        }
        false
    }
}

/// Whether `path` is a Stacks component file.
pub fn is_stack_component(path: &Path) -> bool {
    COMPONENT.matches(path)
}

/// Whether `path` is a Stacks deployment file.
pub fn is_deployment_file(path: &Path) -> bool {
    DEPLOYMENT.matches(path)
}
