//! `terraform { required_providers { NAME = { source, version, … } } }`:
//! what a provider requirement's `source` and `version` may refer to.
//!
//! Terraform 1.17 evaluates them at init as it does a module's source
//! (hashicorp/terraform#39153, "Implement dynamic provider sources"):
//! const variables and locals built of them, nothing known only at plan.
//! Before 1.17, and in OpenTofu (`decodeRequiredProvidersBlock` in
//! internal/configs/provider_requirements.go of opentofu/opentofu, which
//! evaluates them with no variables: opentofu/opentofu#1850 is open),
//! they are literal strings: any reference is an error there.

use super::*;

/// The checks of a `required_providers` block. Its entries are a bare
/// version string (the legacy form) or an object; `configuration_aliases`
/// names provider configurations, not values.
/// Only Terraform's and OpenTofu's: a Stack's or a Pulumi HCL program's
/// are read by other code.
pub(super) fn block(inf: &mut Infer, b: &Block, dialect: Dialect) {
    if !matches!(dialect, Dialect::Terraform | Dialect::OpenTofu) {
        return;
    }
    for a in b.body.attributes() {
        // (The legacy form is read as a literal string in every version.)
        let Expression::Object(o) = &a.value else { continue };
        for (key, value) in o.iter() {
            let Some(key) = literal_key(key) else { continue };
            if matches!(key.as_str(), "source" | "version") {
                requirement(inf, value.expr(), &key, dialect);
            }
        }
    }
}

/// One `source` or `version` (`key`): a string; in Terraform (1.17) made of
/// const variables and locals, elsewhere a literal.
fn requirement(inf: &mut Infer, e: &Expression, key: &str, dialect: Dialect) {
    if eval(e, inf.source()).is_ok() {
        return;
    }
    if dialect != Dialect::Terraform {
        let r = inf.range(e);
        let (summary, what) =
            if key == "source" { ("Invalid source", "Source") } else { ("Invalid version constraint", "Version") };
        let msg = format!(
            "{summary}: {what} must be specified as a string; OpenTofu does not evaluate references in provider requirements"
        );
        inf.report(Diagnostic::new(Code::InvalidValue, r, msg).with_severity(Severity::Error));
        return;
    }
    let t = inf.expr(e);
    inf.check(e, &t, &Type::string(), None);
    init_time_refs(inf, e, key, "provider", Code::InvalidValue);
}
