//! OpenTofu's static evaluation (1.8): a module's `source` and `version`,
//! its backend and its state encryption are evaluated during `tofu init`,
//! before any state exists. They may refer to variables (not those declared
//! `const = false`), locals, `path.*` and `terraform.workspace`, nothing
//! else (`staticScopeData` in internal/configs/static_scope.go of
//! opentofu/opentofu; website/docs/language/modules/sources.mdx, "Support
//! for Variable and Local Evaluation";
//! website/docs/language/settings/backends/configuration.mdx, "Variables and
//! Locals"). Terraform refuses references in a backend altogether, so these
//! checks are the `opentofu` dialect's.

use super::*;

/// Reports each reference in `e` that OpenTofu cannot evaluate statically,
/// as `code` errors saying it is needed by `site` (`the module source`).
/// `own`: names the context binds itself (an encryption block's
/// `key_provider` and `method`). Returns whether `e` refers to something and
/// every reference is static: a value a variable or local gives at init.
pub(super) fn static_refs(inf: &mut Infer, e: &Expression, site: &str, code: Code, own: &[&str]) -> bool {
    let mut found = Vec::new();
    traversals(e, &mut found);
    let mut all_static = !found.is_empty();
    for t in found {
        let Expression::Variable(v) = &t.expr else { continue };
        let root = v.value().as_str();
        let attr = match t.operators.first().map(|o| o.value()) {
            Some(TraversalOperator::GetAttr(a)) => Some(a.value().as_str()),
            _ => None,
        };
        let msg = match (root, attr) {
            ("var", Some(name)) if inf.env().is_non_const(name) => format!(
                "Unable to use variable in static context: `var.{name}` is declared `const = false`, so OpenTofu cannot use it in {site}"
            ),
            ("var" | "local", _) => continue,
            ("path", _) | ("terraform", Some("workspace")) => {
                all_static = false;
                continue;
            }
            (r, _) if own.contains(&r) => {
                all_static = false;
                continue;
            }
            ("module", _) => format!(
                "Module output not supported in static context: OpenTofu evaluates {site} during `tofu init`, before any module output is known"
            ),
            _ => format!(
                "Dynamic value in static context: OpenTofu evaluates {site} during `tofu init`, before state, where only variables, locals, `path` and `terraform.workspace` are known"
            ),
        };
        all_static = false;
        let r = inf.range(t);
        inf.report(Diagnostic::new(code, r, msg).with_severity(Severity::Error));
    }
    all_static
}

/// Every argument of a `terraform` block's `backend` and `encryption`
/// blocks (and of the blocks within them) against [`static_refs`]. Only
/// these two: a `backend` block inside a resource (a load balancer's) is an
/// ordinary one.
pub(super) fn terraform_block(inf: &mut Infer, b: &Block) {
    for nested in b.body.blocks() {
        match nested.ident.value().as_str() {
            "backend" => static_body(inf, &nested.body, "a backend block", &[]),
            "encryption" => static_body(inf, &nested.body, "the state encryption", &["key_provider", "method"]),
            _ => {}
        }
    }
}

fn static_body(inf: &mut Infer, body: &Body, site: &str, own: &[&str]) {
    for a in body.attributes() {
        static_refs(inf, &a.value, site, Code::InvalidValue, own);
    }
    for nested in body.blocks() {
        static_body(inf, &nested.body, site, own);
    }
}
