//! A Terragrunt unit (`terragrunt.hcl`, docs/spec/terragrunt.md §2): its
//! `inputs` are handed to the module that `terraform { source }` names, as
//! `TF_VAR_` values (gruntwork-io/terragrunt `pkg/config/config.go`,
//! `TerraformConfig.Source`; inputs in `internal/runner/run/run.go`
//! `ToTerraformEnvVars`), so Terraform converts each to its variable's type
//! at plan and rejects what does not convert.

use super::*;

/// The call of the unit's module (not a name any reference can reach).
use crate::calls::TERRAGRUNT as CALL;

/// The call of the unit's own directory: without `terraform { source }`
/// Terragrunt runs Terraform in the unit's directory, on the `.tf` files
/// beside `terragrunt.hcl` (terragrunt's `test/fixtures/inputs`).
use crate::calls::TERRAGRUNT_DIR as OWN_DIR;

/// What a unit's `inputs` declare: a call of its own directory, used when
/// no `terraform { source }` is declared (see [`inputs`]).
pub(super) fn own_dir_decl(name_range: std::ops::Range<usize>) -> CallDecl {
    CallDecl {
        name: OWN_DIR.to_string(),
        name_range,
        source: Some("./".to_string()),
        template: None,
        repeat: Repeat::One,
        component: false,
    }
}

/// `terraform { source = "…" }` as a call: a local path relative to the
/// unit's directory, with Terragrunt's `//` (the module's subdirectory
/// within what is copied) read as one `/`. A source that is not a constant
/// string (`"${get_repo_root()}/modules/app"`) is not followed.
pub(super) fn terraform_decl(b: &Block, src: Source<'_>) -> Option<CallDecl> {
    let a = b.body.get_attribute("source")?;
    let Ok(Value::String(s)) = eval(&a.value, src) else { return None };
    let source = crate::calls::is_local(&s).then(|| s.replace("//", "/"));
    Some(CallDecl {
        name: CALL.to_string(),
        name_range: src.range(&a.value),
        source,
        template: None,
        repeat: Repeat::One,
        component: false,
    })
}

/// The unit's top-level `inputs = { … }`: each attribute against the
/// module's variable of the same name. Unknown names are not errors
/// (Terraform ignores a `TF_VAR_` value no variable declares) and missing
/// ones are not either (an `include`d file or the environment may give them).
pub(super) fn inputs(inf: &mut Infer, a: &Attribute) {
    // A declared `terraform { source }` wins, even one not followed (a
    // remote source); else the unit's own directory is the module.
    // (Every declared call has a callee, `Opaque` for a source not followed.)
    let callee = inf.env().callee(CALL).or_else(|| inf.env().callee(OWN_DIR));
    let (Expression::Object(obj), Some(Callee::Module(i))) = (&a.value, callee) else { return };
    let source = i.dir.display().to_string();
    let site = super::stacks::Site::Terragrunt;
    super::stacks::inputs(inf, obj, &i, "the unit's module", &source, &source, site);
}
