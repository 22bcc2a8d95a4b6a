//! Quick fixes: each diagnostic of the fixture that has a certain fix, with
//! the fix's title and the text after applying it to the diagnostic's range.

use expect_test::{expect, Expect};
use fixture::Fixture;
use hcl_types_ide as ide;

fn check(text: &str, expect: Expect) {
    let f = Fixture::parse(text);
    let a = f.analyse();
    let text = &a.docs[a.doc].file.text;
    let mut got = String::new();
    for d in a.analysis.diagnostics[a.doc].iter() {
        if let Some(fix) = ide::quick_fix(d, text) {
            let mut fixed = text.to_string();
            fixed.replace_range(fix.range.clone(), &fix.replacement);
            got.push_str(&format!("{} ({}):\n{fixed}", fix.title, d.code));
        }
    }
    expect.assert_eq(&got);
}

#[test]
fn a_misspelt_attribute_gets_the_suggested_name() {
    check(
        r#"
variable "o" {
  type = object({ name = string })
}
output "x" { value = var.o.nmae }
"#,
        expect![[r#"
            Change to `name` (traversal):
            variable "o" {
              type = object({ name = string })
            }
            output "x" { value = var.o.name }
        "#]],
    );
}

#[test]
fn a_legacy_quoted_type_loses_its_quotes() {
    check(
        r#"
variable "x" {
  type = "string"
}
"#,
        expect![[r#"
            Remove the quotes: string (type-syntax):
            variable "x" {
              type = string
            }
        "#]],
    );
}

#[test]
fn a_removed_list_call_becomes_tolist() {
    check(
        r#"
locals {
  l = list("a", "b")
}
"#,
        expect![[r#"
            Write tolist(["a", "b"]) (unknown-function):
            locals {
              l = tolist(["a", "b"])
            }
        "#]],
    );
}

#[test]
fn a_variable_without_type_gets_the_type_its_default_suggests() {
    check(
        r#"
variable "zones" {
    default = ["a", "b"]
}
variable "port" {
  description = "The port."
  default     = 8080
}
variable "o" { default = { a = 1, b = [true] } }
variable "free" {}
"#,
        expect![[r#"
            Declare type = list(string) (missing-type):
            variable "zones" {
                type = list(string)
                default = ["a", "b"]
            }
            variable "port" {
              description = "The port."
              default     = 8080
            }
            variable "o" { default = { a = 1, b = [true] } }
            variable "free" {}
            Declare type = number (missing-type):
            variable "zones" {
                default = ["a", "b"]
            }
            variable "port" {
              type = number
              description = "The port."
              default     = 8080
            }
            variable "o" { default = { a = 1, b = [true] } }
            variable "free" {}
        "#]],
    );
}

#[test]
fn type_any_is_narrowed_to_what_its_default_suggests() {
    check(
        r#"
variable "cm" {
  type    = any
  default = { name = "a", ports = [80, 443] }
}
variable "deliberate" {
  type = any
}
variable "empty" {
  type    = any
  default = {}
}
"#,
        expect![[r#"
            Declare type = object({name = string, ports = list(number)}) (missing-type):
            variable "cm" {
              type    = object({name = string, ports = list(number)})
              default = { name = "a", ports = [80, 443] }
            }
            variable "deliberate" {
              type = any
            }
            variable "empty" {
              type    = any
              default = {}
            }
        "#]],
    );
}

#[test]
fn type_any_with_a_default_that_holds_any_is_left_alone() {
    check(
        r#"
variable "defaults" {
  type    = any
  default = { a = {} }
}
"#,
        expect![[r#""#]],
    );
}

/// pulumi-hcl lowercased its asset, archive and URN functions with no alias
/// (pulumi/pulumi-hcl#504, e92a3d40 of 2026-08-03, `pkg/hcl/eval/functions.go`):
/// the old name is an error whose fix is the new name, arguments kept.
#[test]
fn a_pulumi_hcl_function_of_the_old_name_is_renamed() {
    check(
        r#"
//- Pulumi.yaml
name: site
runtime: hcl
//- main.tf
locals {
  page = fileAsset("index.html")
}
"#,
        expect![[r#"
            Rename to `fileasset` (unknown-function):
            locals {
              page = fileasset("index.html")
            }
        "#]],
    );
}
