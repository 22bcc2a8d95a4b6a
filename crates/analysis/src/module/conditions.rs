//! Terraform's rules for conditions (validate.md §4): a precondition,
//! postcondition or `check` assertion must refer to something, a
//! variable's validation must refer to the variable itself, and a `check`
//! block needs an assertion.
//!
//! Sources: `decodeCheckRuleBlock` and `decodeCheckBlock`
//! (internal/configs/checks.go), `checkVariableValidationBlock`
//! (internal/configs/named_values.go).

use hcl_edit::structure::{Block, Body};

use super::decls::label_text;
use crate::infer::Infer;
use syntax::diagnostic::{Code, Diagnostic};

/// The rules of the conditions of one top-level block.
pub(super) fn block(inf: &mut Infer, b: &Block, ident: &str) {
    match ident {
        "variable" => {
            let name = b.labels.first().map(label_text).unwrap_or("");
            for v in b.body.get_blocks("validation") {
                validation(inf, &v.body, name);
            }
        }
        "check" => {
            let mut asserts = 0;
            for a in b.body.get_blocks("assert") {
                asserts += usize::from(rule(inf, &a.body, "assert"));
            }
            if asserts == 0 {
                let r = inf.range(&b.ident);
                let msg =
                    "Zero assert blocks: a check block needs at least one assert block (one that refers to something)";
                inf.report(Diagnostic::new(Code::CheckRule, r, msg));
            }
        }
        // (An output's postcondition is not decoded: "Postconditions are
        // not allowed", meta_arguments.rs.)
        "output" => {
            for c in b.body.get_blocks("precondition") {
                rule(inf, &c.body, "precondition");
            }
        }
        "resource" | "data" | "ephemeral" => {
            for l in b.body.get_blocks("lifecycle") {
                rules(inf, &l.body);
            }
        }
        _ => {}
    }
}

fn rules(inf: &mut Infer, body: &Body) {
    for kind in ["precondition", "postcondition"] {
        for c in body.get_blocks(kind) {
            rule(inf, &c.body, kind);
        }
    }
}

/// A condition that refers to nothing is "Invalid KIND expression": its
/// result is a constant. Whether the rule stands.
fn rule(inf: &mut Infer, body: &Body, kind: &str) -> bool {
    let Some(c) = body.get_attribute("condition") else { return true };
    if super::roots::of_expr(&c.value, &[]).is_empty() {
        let r = inf.range(&c.value);
        let msg = format!(
            "Invalid {kind} expression: the condition must refer to at least one object from elsewhere in the configuration, or its result checks nothing"
        );
        inf.report(Diagnostic::new(Code::CheckRule, r, msg));
        return false;
    }
    true
}

/// "Invalid variable validation condition": it must refer to `var.NAME`
/// of its own variable.
fn validation(inf: &mut Infer, body: &Body, name: &str) {
    let Some(c) = body.get_attribute("condition") else { return };
    let roots = super::roots::of_expr(&c.value, &[]);
    if !roots.iter().any(|r| r.name == "var" && r.attr.as_deref() == Some(name)) {
        let r = inf.range(&c.value);
        let msg = format!("Invalid variable validation condition: the condition for variable `{name}` must refer to `var.{name}` to test the values it is given");
        inf.report(Diagnostic::new(Code::CheckRule, r, msg));
    }
}
