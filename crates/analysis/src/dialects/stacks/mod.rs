//! Terraform Stacks (docs/spec/stacks.md): component files
//! (`.tfcomponent.hcl`; hashicorp/terraform's
//! `internal/stacks/stackconfig/file.go`, its JSON form is not read here)
//! whose `component` blocks call modules, and deployment files
//! (`.tfdeploy.hcl`). Its modules: `components.rs`.

pub mod components;

use std::ops::Range;
use std::path::Path;

use hcl_edit::expr::TraversalOperator;
use hcl_edit::structure::Block;
use syntax::Dialect;
use types::Type;

use super::{Carrier, FileRule, Handler, Step};
use crate::document::Document;
use crate::infer::{Infer, Note, Space};
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
    /// `component.NAME…` (stacks.md §3): in a plain HCL file whose unit
    /// declares `component "NAME"` with a source (a `.tfcomponent.hcl`
    /// file's), its outputs are the module's, as `module.NAME`'s are
    /// (Terraform's stackeval: a component's result is the object of its
    /// root module's outputs).
    fn reference(&self, inf: &mut Infer, _name: &str, range: &Range<usize>, ops: &[Step]) -> Option<(Type, Note)> {
        if inf.env.dialect() != Dialect::Hcl {
            return None;
        }
        let TraversalOperator::GetAttr(attr) = ops.first()?.value() else { return None };
        let call = crate::calls::component_call(attr.value().as_str());
        inf.env.lookup(Space::Module, &call)?;
        Some(inf.module_reference_of(&call, "component", range.clone(), ops))
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
