//! The lints of unused declarations (analysis.md §5.1): a variable, local
//! or data source no expression of the module reads, a `required_providers`
//! entry no block uses (tflint's `terraform_unused_declarations` and
//! `terraform_unused_required_providers`). These fixtures show the lints
//! (`fixture::annotated_with`), the others do not.

use expect_test::{expect, Expect};

fn check(fixture: Expect) {
    let text = fixture::trim_indent(fixture.data());
    fixture.assert_eq(&fixture::annotated_with(&text, true));
}

/// What is read (in a template, a `for`, `depends_on`, another local of
/// the same block, another file) is used; the rest is reported, each
/// with its own code.
#[test]
fn declarations_nothing_reads_are_reported() {
    check(expect![[r#"
        //- main.tf
        terraform {
          required_providers {
            aws    = { source = "hashicorp/aws" }
            random = { source = "hashicorp/random" }
           #^^^^^^ hint[unused-provider]
          }
        }
        variable "name" { type = string }
        variable "tags" { type = map(string) }
        variable "unused" { type = string }
                #^^^^^^^^ hint[unused-variable]
        locals {
          prefix = "${var.name}-x"
          all    = [for k, v in var.tags : "${local.prefix}${k}"]
          spare  = 1
         #^^^^^ hint[unused-local]
        }
        data "aws_ami" "ubuntu" {}
        data "aws_region" "current" {}
        resource "aws_instance" "a" {
          ami        = data.aws_ami.ubuntu.id
          depends_on = [data.aws_region.current]
        }
        data "aws_caller_identity" "me" {}
                                  #^^^^ hint[unused-data]
        //- outputs.tf
        output "all" { value = local.all }
    "#]]);
}

/// A variable read only by its own `validation` is not used; one read by
/// another variable's validation (Terraform 1.9) is.
#[test]
fn a_variable_read_only_by_its_own_validation_is_unused() {
    check(expect![[r#"
        variable "a" {
                #^^^ hint[unused-variable]
          type = number
          validation {
            condition     = var.a > 0 && var.b > 0
            error_message = "positive"
          }
        }
        variable "b" { type = number }
    "#]]);
}

/// A provider is used by a `provider` block, a resource's `provider`
/// argument, a module call's `providers`, a provider function, or a
/// nested data source of a `check` block.
#[test]
fn providers_used_in_every_way_are_not_reported() {
    check(expect![[r#"
        terraform {
          required_providers {
            google = { source = "hashicorp/google" }
            beta   = { source = "hashicorp/google-beta" }
            fns    = { source = "example/fns" }
            http   = { source = "hashicorp/http" }
            tls    = { source = "hashicorp/tls" }
            null   = { source = "hashicorp/null" }
           #^^^^ hint[unused-provider]
          }
        }
        provider "google" {}
        resource "google_compute_network" "n" {
          provider = beta.west
                    #^^^^^^^^^ error[undefined-reference]
          name     = provider::fns::upper("n")
        }
        module "m" {
          source    = "./m"
                     #^^^^^ warning[module-source]
          providers = { tls = tls }
        }
        check "up" {
          data "http" "h" { url = "https://example.com" }
          assert {
            condition     = data.http.h.status_code == 200
            error_message = "down"
          }
        }
    "#]]);
}

/// A module call without `providers` inherits the default providers, so
/// none is reported.
#[test]
fn a_call_that_inherits_providers_uses_them_all() {
    check(expect![[r#"
        terraform {
          required_providers {
            aws = { source = "hashicorp/aws" }
          }
        }
        variable "v" {}
                #^^^ hint[missing-type]
                #^^^ hint[unused-variable]
        module "m" {
          source = "./m"
                  #^^^^^ warning[module-source]
        }
    "#]]);
}

/// A block that does not parse may read anything: nothing is reported.
/// Declarations of override files are not judged (they merge into a base
/// block); what they read counts.
#[test]
fn a_broken_block_silences_and_override_files_read() {
    check(expect![[r#"
        variable "v" { type = string }
        locals {
          x = var.v
                 #^ error[syntax]
        output "o" {
                  #^ error[syntax]
    "#]]);
    check(expect![[r#"
        //- main.tf
        variable "v" { type = string }
        variable "w" { type = string }
                #^^^ hint[unused-variable]
        output "o" { value = 1 }
        //- override.tf
        variable "w" { default = "x" }
        output "o" { value = var.v }
    "#]]);
}

/// Deliberately unread (analysis.md §5.1): a name starting with `_` (a
/// local kept for the check its evaluation makes, as in fabric's
/// `modules/project-factory/projects-defaults.tf`), a data source read for
/// its side effect (`archive_file` writes its archive), and a provider
/// named by `provider_meta` (fabric's `versions.tf` files).
#[test]
fn deliberate_declarations_are_not_reported() {
    check(expect![[r#"
        terraform {
          required_providers {
            google-beta = { source = "hashicorp/google-beta" }
          }
          provider_meta "google-beta" {
            module_name = "m"
          }
        }
        variable "_spare" { type = string }
        locals {
          _uniqueness = { for k in ["a"] : k => k }
        }
        data "archive_file" "bundle" {
          type        = "zip"
          source_dir  = "src"
          output_path = "bundle.zip"
        }
    "#]]);
}

/// Off (no severity turns one on: the project layer says so with
/// `Memo::set_lints`), the lints are not computed; turned on again, the
/// same memo computes them (the facts it did not gather are gathered then).
#[test]
fn lints_off_are_not_computed_and_come_back_when_turned_on() {
    let f = fixture::Fixture::parse("locals {\n  spare = 1\n}\nvariable \"v\" {}\n");
    let mut a = f.analyse();
    let unused = |m: &mut hcl_types_analysis::Memo| {
        let analysis = m.analysis(&a.docs);
        analysis.diagnostics[0].iter().filter(|d| fixture::is_unused_lint(d)).count()
    };
    assert_eq!(unused(&mut a.memo), 2, "on without settings");
    a.memo.set_lints(false);
    assert_eq!(unused(&mut a.memo), 0, "off");
    a.memo.set_lints(true);
    assert_eq!(unused(&mut a.memo), 2, "on again");
}

/// Issue 44.3: the outputs of a module known callers call that none of
/// them reads are hints; a root module's (no known caller) never, nor
/// any output where a caller reads the module whole (`read_outputs` none).
#[test]
fn outputs_no_known_caller_reads() {
    let f = fixture::Fixture::parse(
        "output \"a\" { value = 1 }\noutput \"b\" { value = 2 }\noutput \"_c\" { value = 3 }\n",
    );
    let mut a = f.analyse();
    let unread = |m: &mut hcl_types_analysis::Memo, docs: &[hcl_types_analysis::Document]| -> Vec<String> {
        let analysis = m.analysis(docs);
        let hints = analysis.diagnostics[0].iter().filter(|d| d.code.as_str() == "unused-output");
        hints.map(|d| docs[0].file.text[d.range.clone()].to_string()).collect()
    };
    assert!(unread(&mut a.memo, &a.docs).is_empty(), "a root");
    let set = |names: &[&str]| Some(std::sync::Arc::new(names.iter().map(|n| n.to_string()).collect()));
    let called = |read| hcl_types_analysis::Context { passed: set(&[]), read_outputs: read, ..Default::default() };
    a.memo.set_context(called(set(&["a"])));
    assert_eq!(unread(&mut a.memo, &a.docs), ["\"b\""], "callers read `a` only");
    a.memo.set_context(called(set(&["a", "b"])));
    assert!(unread(&mut a.memo, &a.docs).is_empty(), "callers read both");
    a.memo.set_context(called(None));
    assert!(unread(&mut a.memo, &a.docs).is_empty(), "a caller reads the module whole");
    let root = hcl_types_analysis::Context { read_outputs: set(&[]), ..Default::default() };
    a.memo.set_context(root);
    assert!(unread(&mut a.memo, &a.docs).is_empty(), "no known caller: a root");
}
