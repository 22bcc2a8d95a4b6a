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

/// The checks of a `required_providers` block (Terraform's and OpenTofu's:
/// a Stack's or a Pulumi HCL program's are read by other code). Its entries
/// are a bare version string (the legacy form) or an object;
/// `configuration_aliases` names provider configurations, not values.
/// `required_version` is the enclosing `terraform` block's: one that allows
/// only versions before 1.17 holds them to literals too.
pub(super) fn block(inf: &mut Infer, b: &Block, dialect: Dialect, required_version: Option<&Expression>) {
    if !matches!(dialect, Dialect::Terraform | Dialect::OpenTofu) {
        return;
    }
    let literal_only = dialect == Dialect::OpenTofu
        || required_version
            .and_then(|e| match eval(e, inf.source()) {
                Ok(Value::String(s)) => super::versions::upper_bound(&s),
                _ => None,
            })
            .is_some_and(|bound| bound <= (1, 17, 0));
    for a in b.body.attributes() {
        // (The legacy form is read as a literal string in every version.)
        let Expression::Object(o) = &a.value else { continue };
        // ("Invalid provider local name", at the entry's value.)
        let r = inf.range(&a.value);
        if super::meta_arguments::local_name(inf, a.key.value().as_str(), r) {
            continue;
        }
        for (key, value) in o.iter() {
            let Some(key) = literal_key(key) else { continue };
            if matches!(key.as_str(), "source" | "version") {
                requirement(inf, value.expr(), &key, literal_only);
            }
        }
    }
}

/// One `source` or `version` (`key`): a string; in Terraform (1.17) made of
/// const variables and locals, before 1.17 and in OpenTofu a literal.
fn requirement(inf: &mut Infer, e: &Expression, key: &str, literal_only: bool) {
    if eval(e, inf.source()).is_ok() {
        return;
    }
    if literal_only {
        let r = inf.range(e);
        let (summary, what) =
            if key == "source" { ("Invalid source", "Source") } else { ("Invalid version constraint", "Version") };
        let msg = format!(
            "{summary}: {what} must be specified as a string; Terraform before 1.17 and OpenTofu do not evaluate references in provider requirements"
        );
        inf.report(Diagnostic::new(Code::InvalidValue, r, msg).with_severity(Severity::Error));
        return;
    }
    let t = inf.expr(e);
    inf.check(e, &t, &Type::string(), None);
    init_time_refs(inf, e, key, "provider", Code::InvalidValue);
}
