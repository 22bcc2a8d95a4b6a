//! Diagnostics, written where they point: each fixture is the source with
//! an annotation under every diagnostic (`#   ^^^ error[code]`, see the
//! `hcl-types-fixture` crate). A test fails when the analysis reports
//! something else; `UPDATE_EXPECT=1 cargo test -p hcl-types-analysis --test
//! diagnostics` rewrites the annotations (read the diff before keeping it).
//!
//! The recipe for a new diagnostic is in docs/architecture.md ("Adding a
//! diagnostic").

use expect_test::{expect, Expect};

fn check(fixture: Expect) {
    let text = fixture::trim_indent(fixture.data());
    fixture.assert_eq(&fixture::annotated(&text));
}

#[test]
fn a_default_that_does_not_convert() {
    check(expect![[r#"
        variable "n" {
          type    = number
          default = "three"
                   #^^^^^^^ error[invalid-value]
        }
    "#]]);
}

#[test]
fn a_default_that_converts_gets_a_hint() {
    check(expect![[r#"
        variable "n" {
          type    = number
          default = "3"
                   #^^^ hint[implicit-conversion]
        }
    "#]]);
}

#[test]
fn an_object_default_missing_a_required_attribute() {
    check(expect![[r#"
        variable "o" {
          type = object({ name = string, size = optional(number, 1) })
          default = { size = 2 }
                   #^^^^^^^^^^^^ error[invalid-value]
        }
    "#]]);
}

#[test]
fn a_type_expression_with_an_unknown_constructor() {
    check(expect![[r#"
        variable "l" {
          type = lists(string)
                #^^^^^ error[type-syntax]
        }
    "#]]);
}

#[test]
fn a_typed_output_whose_value_does_not_convert() {
    check(expect![[r#"
        variable "n" {
          type    = number
          default = 1
        }
        output "x" {
          type  = string
          value = [var.n]
                 #^^^^^^^ error[type-mismatch]
        }
    "#]]);
}

#[test]
fn convert_checks_its_value_against_its_type() {
    check(expect![[r#"
        locals {
          ok  = convert({ a = 1 }, map(string))
          bad = convert([1], bool)
                       #^^^ error[type-mismatch]
        }
    "#]]);
}

#[test]
fn a_traversal_into_a_missing_attribute() {
    check(expect![[r#"
        variable "o" {
          type = object({ name = string })
        }
        output "x" {
          value = var.o.nmae
                      #^^^^^ error[traversal]
        }
    "#]]);
}

#[test]
fn an_undeclared_variable_and_an_unknown_function() {
    check(expect![[r#"
        output "x" {
          value = upperr(var.missing)
                 #^^^^^^ error[unknown-function]
                        #^^^^^^^^^^^ error[undefined-reference]
        }
    "#]]);
}

#[test]
fn a_module_argument_checked_against_the_callee_variable() {
    check(expect![[r#"
        //- main.tf
        module "net" {
          source = "./modules/net"
          cidr   = ["10.0.0.0/16"]
                  #^^^^^^^^^^^^^^^ error[type-mismatch]
          extra  = 1
         #^^^^^ error[unsupported-argument]
        }
        //- modules/net/main.tf
        variable "cidr" {
          type = string
        }
    "#]]);
}

#[test]
fn a_deprecated_variable_set_by_a_caller() {
    check(expect![[r#"
        //- main.tf
        module "app" {
          source = "./app"
          old    = 1
         #^^^ warning[deprecated]
        }
        //- app/variables.tf
        variable "old" {
          type       = number
          default    = 0
          deprecated = "Use new instead."
        }
    "#]]);
}

#[test]
fn a_tfvars_value_checked_against_its_variable() {
    check(expect![[r#"
        //- variables.tf
        variable "replicas" {
          type = number
        }
        //- terraform.tfvars
        replicas = "three"
                  #^^^^^^^ error[invalid-value]
    "#]]);
}
