//! Guarded branches (analysis.md §2.2, issue 43 item 4): what a `can(…)`
//! or `try(…, null) != null` guard vouches for is not checked as if it
//! failed, and a condition the types decide (`can(x)` where x always
//! fails, a number compared with `true`) is a `dead-condition` warning,
//! its never taken branch unchecked. Judged by Terraform 1.11.4: `validate`
//! accepts this module, and `plan` (with `var.n = 1`, `things` and `m` of
//! the types declared) fails nowhere, since HCL keeps only the chosen
//! result's diagnostics (`ConditionalExpr.Value` in hashicorp/hcl
//! `hclsyntax/expression.go`).

use super::check;
use expect_test::expect;

#[test]
fn guarded_branches_are_not_checked_as_if_they_failed() {
    check(expect![[r#"
        variable "m" {
          type = map(object({ a = optional(list(object({ b = string }))), c = optional(object({ d = string })) }))
        }
        variable "things" {
          type = list(object({ name = string }))
        }
        variable "n" {
          type    = number
          default = 1
        }
        locals {
          x = [for v in var.things : can(v.owner_id) ? v.owner_id : "x"]
                                    #^^^^^^^^^^^^^^^ warning[dead-condition]
          y = { for k, v in var.m : k => v.a[0].b if can(v.a[0].b) }
          z = try(var.n, false) == true ? var.n.value : true
             #^^^^^^^^^^^^^^^^^^^^^^^^^ warning[dead-condition]
          w = can(var.n.value) ? 1 : 2
             #^^^^^^^^^^^^^^^^ warning[dead-condition]
          p = [for v in var.m : v.c.d.e if can(v.c.d.e)]
                                          #^^^^^^^^^^^^ warning[dead-condition]
          q = [for v in var.m : v.c.region if try(v.c.region, null) != null]
                                             #^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ warning[dead-condition]
          r = [for v in var.m : v.c.d.e if v.c != null]
                                    #^^ error[traversal]
          s = "a" != 1 ? "yes" : var.n.value
             #^^^^^^^^ warning[dead-condition]
        }
    "#]]);
}
