//! The quick fix of a missing `type` (and of `type = any`) from every value
//! the variable receives (issue 32 item 4, terraform-ls#1476): its default,
//! the module's `.tfvars` values and the arguments of the callers given.
//! The code action at `$0` (on the variable's label, or on `any`), with the
//! fix's title and the variable's file after applying it.

use expect_test::{expect, Expect};
use fixture::Fixture;
use hcl_types_ide as ide;
use std::path::Path;

use analysis::workspace::Files;
use analysis::Family;

fn check(text: &str, callers: &[(&str, &[&str])], expect: Expect) {
    let f = Fixture::parse(text);
    let a = f.analyse();
    let caller_docs: Vec<_> = callers.iter().map(|(d, _)| f.module(Path::new(d), Family::Terraform)).collect();
    let callers: Vec<ide::Caller> = callers
        .iter()
        .zip(&caller_docs)
        .map(|((_, calls), docs)| ide::Caller { docs, calls: calls.iter().map(|c| c.to_string()).collect() })
        .collect();
    let text = &a.docs[a.doc].file.text;
    let got = a.analysis.diagnostics[a.doc]
        .iter()
        .filter(|d| d.range.start <= a.offset && a.offset <= d.range.end)
        .find_map(|d| ide::type_fix(d, &a.docs, a.doc, &callers))
        .map_or("no fix\n".to_string(), |fix| {
            let mut fixed = text.to_string();
            fixed.replace_range(fix.range.clone(), &fix.replacement);
            format!("{}:\n{fixed}", fix.title)
        });
    expect.assert_eq(&got);
}

#[test]
fn the_default_alone_gives_its_type() {
    check(
        r#"
variable "n$0" {
  default = 3
}
"#,
        &[],
        expect![[r#"
            Declare type = number:
            variable "n" {
              type = number
              default = 3
            }
        "#]],
    );
}

/// A tfvars value of another type: the type both convert to (go-cty's
/// `unify`: a number converts to a string, so `string`).
#[test]
fn tfvars_values_join_the_default() {
    check(
        r#"
//- mod/variables.tf
variable "zone$0" {
  default = 3
}
//- mod/terraform.tfvars
zone = "eu-west-1a"
"#,
        &[],
        expect![[r#"
            Declare type = string:
            variable "zone" {
              type = string
              default = 3
            }
        "#]],
    );
}

/// No default, but the callers say what they pass: a list of strings from
/// one call, and from another an empty list (which says nothing more).
#[test]
fn callers_arguments_give_the_type_of_a_variable_without_default() {
    check(
        r#"
//- mod/variables.tf
variable "names$0" {
}
//- root/main.tf
module "a" {
  source = "../mod"
  names  = ["x", "y"]
}
module "b" {
  source = "../mod"
  names  = []
}
module "c" {
  source = "../other"
  names  = 3
}
"#,
        &[("root", &["a", "b"])],
        expect![[r#"
            Declare type = list(string):
            variable "names" {
              type = list(string)
            }
        "#]],
    );
}

/// A caller's object with more attributes than the default's: go-cty's
/// `unify` makes objects whose attributes all convert to one type a map of
/// it (the `80` converts to `"80"`), which takes both.
#[test]
fn objects_of_different_attributes_unify_to_a_map() {
    check(
        r#"
//- mod/variables.tf
variable "o$0" {
  default = { name = "a" }
}
//- root/main.tf
module "a" {
  source = "../mod"
  o      = { name = "b", port = 80 }
}
"#,
        &[("root", &["a"])],
        expect![[r#"
            Declare type = map(string):
            variable "o" {
              type = map(string)
              default = { name = "a" }
            }
        "#]],
    );
}

/// An object from the default, a list from a caller: no type takes both,
/// so no fix (declaring the default's would refuse the call).
#[test]
fn values_with_no_common_type_get_no_fix() {
    check(
        r#"
//- mod/variables.tf
variable "o$0" {
  default = { name = "a" }
}
//- root/main.tf
module "a" {
  source = "../mod"
  o      = ["b"]
}
"#,
        &[("root", &["a"])],
        expect![[r#"
            no fix
        "#]],
    );
}

/// An argument that reads a name has no type here: left out (the caller's
/// own analysis checks it against what is declared).
#[test]
fn an_argument_read_from_a_name_is_left_out() {
    check(
        r#"
//- mod/variables.tf
variable "n$0" {
}
//- root/main.tf
variable "count_in" { type = number }
module "a" {
  source = "../mod"
  n      = var.count_in
}
module "b" {
  source = "../mod"
  n      = 2
}
"#,
        &[("root", &["a", "b"])],
        expect![[r#"
            Declare type = number:
            variable "n" {
              type = number
            }
        "#]],
    );
}

/// `type = any`: the caller's map of numbers joins the default's.
#[test]
fn type_any_is_narrowed_by_the_callers_arguments() {
    check(
        r#"
//- mod/variables.tf
variable "sizes" {
  type    = an$0y
  default = { a = 1 }
}
//- root/main.tf
module "a" {
  source = "../mod"
  sizes  = { b = "2" }
}
"#,
        &[("root", &["a"])],
        expect![[r#"
            Declare type = map(string):
            variable "sizes" {
              type    = map(string)
              default = { a = 1 }
            }
        "#]],
    );
}

/// Issue 43.3: a placeholder default (`""`, `{}`, `[]`, `null`) says
/// nothing of what the variable holds: the callers' objects give the
/// type, not the default's `string`.
#[test]
fn a_placeholder_default_gives_way_to_the_callers_arguments() {
    check(
        r#"
//- mod/variables.tf
variable "vaults$0" {
  default = ""
}
//- root/main.tf
module "a" {
  source = "../mod"
  vaults = { v1 = { name = "kv-1" } }
}
"#,
        &[("root", &["a"])],
        expect![[r#"
            Declare type = object({v1 = object({name = string})}):
            variable "vaults" {
              type = object({v1 = object({name = string})})
              default = ""
            }
        "#]],
    );
}

/// A placeholder default, and a caller whose argument reads a name: no
/// value says what the variable holds, so there is no fix (not `string`).
#[test]
fn a_placeholder_default_alone_gives_no_type() {
    check(
        r#"
//- mod/variables.tf
variable "vaults$0" {
  default = ""
}
//- root/main.tf
module "a" {
  source = "../mod"
  vaults = var.vaults
}
"#,
        &[("root", &["a"])],
        expect![[r#"
            no fix
        "#]],
    );
}
