//! Sensitive values reaching a root module's output (sensitive.rs):
//! Terraform 1.11 `validate` says "Output refers to sensitive values" on
//! the header of `o`, `s`, `via_local` and `cond` below, and nothing of the
//! others (checked with `terraform validate -json` and `plan` on these
//! outputs, 2026-12-07).

use expect_test::{expect, Expect};

fn check(fixture: Expect) {
    let text = fixture::trim_indent(fixture.data());
    fixture.assert_eq(&fixture::annotated(&text));
}

#[test]
fn a_sensitive_value_reaching_a_root_output_not_marked_so() {
    check(expect![[r#"
        variable "pw" {
          type      = string
          sensitive = true
          default   = "x"
        }
        output "o" { value = var.pw }
       #^^^^^^^^^^ error[sensitive-output]
        output "marked" {
          value     = var.pw
          sensitive = true
        }
        output "dropped" { value = nonsensitive(var.pw) }
        output "s" { value = sensitive("a") }
       #^^^^^^^^^^ error[sensitive-output]
        locals {
          l = "${var.pw}-x"
          m = local.l
        }
        output "via_local" { value = length(local.m) }
       #^^^^^^^^^^^^^^^^^^ error[sensitive-output]
        output "plain" { value = "a" }
        output "can" { value = can(var.pw) }
        output "try" { value = try(var.pw, "") }
        output "is" { value = issensitive(var.pw) }
        output "cond" { value = var.pw != "" ? "a" : "b" }
       #^^^^^^^^^^^^^ error[sensitive-output]
    "#]]);
}

/// A module a known caller calls is no root: its outputs pass the mark on.
#[test]
fn a_called_module_passes_the_mark_to_its_callers() {
    let f = fixture::Fixture::parse(
        "variable \"pw\" {\n  type      = string\n  sensitive = true\n}\noutput \"o\" { value = var.pw }\n",
    );
    let mut a = f.analyse();
    let count = |m: &mut hcl_types_analysis::Memo, docs: &[hcl_types_analysis::Document]| {
        m.analysis(docs).diagnostics[0].iter().filter(|d| d.code.as_str() == "sensitive-output").count()
    };
    assert_eq!(count(&mut a.memo, &a.docs), 1, "a root");
    let passed = Some(std::sync::Arc::new(std::collections::BTreeSet::from(["pw".to_string()])));
    let context = hcl_types_analysis::Context { passed, ..a.memo.context().clone() };
    a.memo.set_context(context);
    assert_eq!(count(&mut a.memo, &a.docs), 0, "called");
}
