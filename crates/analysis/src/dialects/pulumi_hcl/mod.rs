//! Pulumi HCL (docs/spec/pulumi-hcl.md): `.tf` files run by Pulumi's
//! engine. No file name implies it: a `Pulumi.yaml` (`project.rs`, read by
//! the project layer) or a setting does. Its modules: `checks.rs`
//! (`pulumi {}` options, `call` blocks), `functions.rs`, `project.rs`.

pub mod checks;
pub mod functions;
pub mod project;

use super::Handler;

pub struct PulumiHcl;

impl Handler for PulumiHcl {
    fn name(&self) -> &'static str {
        "pulumi_hcl"
    }
    /// `call.RESOURCE.METHOD.ATTR`, a method's results.
    fn roots(&self) -> &'static [&'static str] {
        &["call"]
    }
}
