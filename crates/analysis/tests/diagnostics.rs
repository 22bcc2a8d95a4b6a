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
                       #^^^ error[invalid-value]
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
                  #^^^^^^^^^^^^^^^ error[invalid-value]
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

#[test]
fn a_variable_without_type_is_a_hint_naming_the_type_of_its_default() {
    check(expect![[r#"
        variable "zones" {
                #^^^^^^^ hint[missing-type]
          default = ["a", "b"]
        }
        variable "free" {}
                #^^^^^^ hint[missing-type]
        variable "typed" {
          type = number
        }
    "#]]);
}

#[test]
fn a_test_files_variables_checked_against_the_module_under_test() {
    check(expect![[r#"
        //- tests/main.tftest.hcl
        variables {
          replicas = "three"
                    #^^^^^^^ error[invalid-value]
          only_in_tests = 1
        }
        run "first" {
          variables {
            replicas = [1]
                      #^^^ error[invalid-value]
            name     = "web"
            nmae     = "x"
           #^^^^ warning[unsupported-argument]
            used     = true
          }
          assert {
            condition     = output.replicas
                           #^^^^^^^^^^^^^^^ error[type-mismatch]
            error_message = ["not a string"]
                           #^^^^^^^^^^^^^^^^ error[invalid-value]
          }
          assert {
            condition     = var.used && output.nope == 1
                                       #^^^^^^^^^^^ error[undefined-reference]
            error_message = "count is ${output.replicas}"
          }
          expect_failures = [var.replicas, local.x, output.missing, run.first]
                                          #^^^^^^^ error[invalid-value]
                                                   #^^^^^^^^^^^^^^ warning[undefined-reference]
                                                                   #^^^^^^^^^ error[invalid-value]
        }
        run "second" {
          variables {
            name = run.first.greeting
            replicas = run.first.replicas
          }
          assert {
            condition     = run.first.greeting == "hi" && run.zeroth.x
                                                         #^^^^^^^^^^ error[undefined-reference]
            error_message = "no"
          }
        }
        //- main.tf
        variable "replicas" {
          type = number
        }
        variable "name" {
          type    = string
          default = "app"
        }
        output "replicas" {
          value = var.replicas
        }
        output "greeting" {
          type  = string
          value = "hi ${var.name}"
        }
    "#]]);
}

#[test]
fn a_test_file_beside_its_module_and_a_run_with_its_own_module() {
    check(expect![[r#"
        //- main.tftest.hcl
        run "setup" {
          module {
            source = "./setup"
          }
          variables {
            size = "big"
                  #^^^^^ error[invalid-value]
          }
        }
        run "main" {
          variables {
            enabled = run.setup.size
                     #^^^^^^^^^^^^^^ error[type-mismatch]
          }
          assert {
            condition     = var.enabled
            error_message = "off"
          }
        }
        //- main.tf
        variable "enabled" {
          type = bool
        }
        //- setup/main.tf
        variable "size" {
          type = number
        }
        output "size" {
          value = var.size
        }
    "#]]);
}

/// `override_module` against the outputs of the module that the run's
/// module (the module under test at file level) calls by that name
/// (docs/spec/tests.md §6): an unknown key is never read, a value that can
/// never be of a declared output `type` a warning (Terraform does not convert
/// it, internal/terraform/node_output.go).
#[test]
fn an_override_module_checked_against_the_called_modules_outputs() {
    check(expect![[r#"
        //- tests/main.tftest.hcl
        override_module {
          target = module.child
          outputs = {
            id   = 1
            idd  = "x"
           #^^^ warning[unsupported-argument]
            tags = "untyped: not held to its inferred type"
          }
        }
        run "setup" {
          module {
            source = "./setup"
          }
          override_module {
            target = module.other[0]
            outputs = {
              size = [1]
                    #^^^ warning[invalid-value]
              id   = "the setup module's `other` has none"
             #^^ warning[unsupported-argument]
            }
          }
        }
        run "main" {
          override_module {
            target = module.child
            outputs = {
              id = {}
                  #^^ warning[invalid-value]
            }
          }
          override_module {
            target = module.absent
            outputs = {
              anything = 1
            }
          }
        }
        //- main.tf
        module "child" {
          source = "./child"
        }
        //- child/main.tf
        output "id" {
          type  = string
          value = "c"
        }
        output "tags" {
          value = ["a"]
        }
        //- setup/main.tf
        module "other" {
          count  = 1
          source = "../other"
        }
        //- other/main.tf
        output "size" {
          type  = number
          value = 1
        }
    "#]]);
}

#[test]
fn a_test_files_references_as_terraform_resolves_them() {
    check(expect![[r#"
        //- main.tftest.hcl
        variables {
          suffix = "-test"
        }
        run "early" {
          variables {
            n = run.late.n
               #^^^^^^^^ error[undefined-reference]
          }
          assert {
            condition     = run.early.n == 1 && var.suffix != "" && var.nope == 1
                           #^^^^^^^^^ error[undefined-reference]
                                                                   #^^^^^^^^ error[undefined-reference]
            error_message = "x"
          }
          assert {
            condition     = null
                           #^^^^ error[invalid-value]
            error_message = "y"
          }
        }
        run "late" {
          assert {
            condition     = run.early.n == var.n
            error_message = "z"
          }
        }
        //- main.tf
        variable "n" {
          type    = number
          default = 1
        }
        output "n" {
          value = var.n
        }
    "#]]);
}

#[test]
fn run_names_belong_to_their_test_file() {
    check(expect![[r#"
        //- tests/a.tftest.hcl
        variables {
          label = "a"
        }
        run "setup" {
          module {
            source = "./setup"
          }
        }
        run "main" {
          variables {
            n = run.setup.size
               #^^^^^^^^^^^^^^ warning[unsafe-conversion]
          }
          assert {
            condition     = var.label == "a"
            error_message = "x"
          }
        }
        //- tests/b.tftest.hcl
        run "setup" {}
        run "main" {
          variables {
            n = run.setup.n
          }
          assert {
            condition     = var.label == "b"
                           #^^^^^^^^^ error[undefined-reference]
            error_message = "y"
          }
        }
        //- main.tf
        variable "n" {
          type = number
        }
        output "n" {
          value = var.n
        }
        //- setup/main.tf
        output "size" {
          value = "big"
        }
    "#]]);
}

#[test]
fn a_const_variable_cannot_be_sensitive_or_ephemeral() {
    check(expect![[r#"
        variable "a" {
        ^^^^^^^^^^^^ error[invalid-value]
          type      = string
          default   = "x"
          const     = true
          sensitive = true
        }
        variable "b" {
        ^^^^^^^^^^^^ error[invalid-value]
                #^^^ hint[missing-type]
          const     = true
          ephemeral = true
        }
        variable "c" {
                #^^^ hint[missing-type]
          const     = true
          default   = "x"
        }
    "#]]);
}

#[test]
fn a_module_source_may_reference_only_const_variables_and_locals() {
    check(expect![[r#"
        variable "env" {
                #^^^^^ hint[missing-type]
          default = "dev"
          const   = true
        }
        variable "plain" {
                #^^^^^^^ hint[missing-type]
          default = "dev"
        }
        locals {
          base = "./modules"
        }
        module "a" {
          source = "${local.base}/${var.env}"
                  #^^^^^^^^^^^^^^^^^^^^^^^^^^ warning[module-source]
        }
        module "b" {
          source = "./modules/${var.plain}"
                               #^^^^^^^^^ error[module-source]
        }
        module "c" {
          source = "./modules/${terraform_data.x.id}"
                               #^^^^^^^^^^^^^^^^^^^ error[module-source]
        }
        module "d" {
          source  = "app.terraform.io/x/y/aws"
                   #^^^^^^^^^^^^^^^^^^^^^^^^^^ hint[module-source]
          version = var.plain
                   #^^^^^^^^^ error[module-source]
        }
        resource "terraform_data" "x" {}
    "#]]);
}

/// Terragrunt's functions are known in plain HCL, with the signatures of
/// terragrunt's `pkg/config/config_helpers.go` (`get_terragrunt_dir` takes no
/// argument: a `wrapVoidToString…` function); a misspelt one is still an error.
#[test]
fn terragrunt_functions_in_a_terragrunt_file() {
    check(expect![[r#"
        //- live/dev/terragrunt.hcl
        include "root" {
          path = find_in_parent_folders("root.hcl")
        }
        locals {
          env    = read_terragrunt_config(find_in_parent_folders("env.hcl"))
          region = get_env("AWS_REGION", "us-east-1")
          dir    = get_terragrunt_dir("x")
                  #^^^^^^^^^^^^^^^^^^^^^^^ error[argument-count]
          key    = path_relative_to_incude()
                  #^^^^^^^^^^^^^^^^^^^^^^^ error[unknown-function]
        }
        terraform {
          source = "${get_repo_root()}/modules/app"
        }
    "#]]);
}

/// Terraform Stacks: `providerconfig(NAME)` is a type constructor whose one
/// argument is a provider's local name as an identifier
/// (`internal/stacks/stackconfig/typeexpr/typeexpr.go` in hashicorp/terraform).
#[test]
fn providerconfig_in_a_stack_file() {
    check(expect![[r#"
        //- main.tfcomponent.hcl
        variable "random" {
          type = providerconfig(random)
        }
        variable "quoted" {
          type = providerconfig("random")
                               #^^^^^^^^ error[type-syntax]
        }
        variable "none" {
          type = providerconfig()
                #^^^^^^^^^^^^^^^^ error[type-syntax]
        }
    "#]]);
}

/// A stack's `variable` and `output` must have `type` (`Required: true` in
/// `internal/stacks/stackconfig/input_variable.go` and `output_value.go`); a
/// module's variable may leave it out. A deployment's `inputs` are values of
/// the stack's variables, checked against their types (`typed` is a set).
#[test]
fn a_stack_variable_or_output_without_type() {
    check(expect![[r#"
        //- stack/main.tfcomponent.hcl
        variable "regions" {
        ^^^^^^^^^^^^^^^^^^ error[missing-argument]
          default = ["eu-west-1"]
        }
        variable "typed" {
          type = set(string)
        }
        output "ids" {
        ^^^^^^^^^^^^ error[missing-argument]
          value = var.regions
        }
        output "typed" {
          type  = set(string)
          value = var.typed
        }
        output "wrong" {
          type  = number
          value = var.typed
                 #^^^^^^^^^ error[type-mismatch]
        }
        //- stack/dev.tfdeploy.hcl
        deployment "dev" {
          inputs = {
            regions = ["eu-west-1"]
            typed   = "eu-west-1"
                     #^^^^^^^^^^^ error[invalid-value]
          }
        }
    "#]]);
}

/// A stack component's `inputs` are its module's variables: Terraform's
/// stackeval converts the object to an object type of the module's variables
/// (`EvalComponentInputVariables`, hashicorp/terraform
/// `internal/stacks/stackruntime/internal/stackeval/expressions.go`), so a
/// wrong value and a missing required variable are "Invalid inputs for
/// component"; an unknown name is dropped by cty's object conversion
/// (`conversionObjectToObject`), so only a warning (hashicorp-guides'
/// lambda-api-gateway-stack in the corpus passes `region` to modules without
/// it). The example is the shape of hashicorp's Stacks docs, `component
/// "pet"` over a `random_pet` module.
#[test]
fn a_stack_component_inputs_checked_against_its_module() {
    check(expect![[r#"
        //- stack/main.tfcomponent.hcl
        required_providers {
          random = {
            source  = "hashicorp/random"
            version = "~> 3.5.0"
          }
        }
        provider "random" "this" {}
        component "pet" {
          source = "./pet"
          inputs = {
            prefix = var.prefix
            length = "three"
                    #^^^^^^^ error[invalid-value]
            lenght = 3
           #^^^^^^ warning[unsupported-argument]
          }
          providers = {
            random = provider.random.this
          }
        }
        component "partial" {
        ^^^^^^^^^^^^^^^^^^^ error[missing-argument]
          source = "./pet"
          inputs = {
            length = 2
          }
        }
        variable "prefix" {
          type = string
        }
        output "name" {
          type  = string
          value = component.pet.name
        }
        //- stack/pet/main.tf
        variable "prefix" {
          type = string
        }
        variable "length" {
          type = number
        }
        output "name" {
          value = "x"
        }
    "#]]);
}

/// `&&` and `||` short-circuit since Terraform 1.12 (HCL 2.24,
/// `OpLogicalAnd.ShortCircuit` in hashicorp/hcl `hclsyntax/expression_ops.go`):
/// the right operand's diagnostics are dropped where the left one decides,
/// and in `validate`, where both are unknown. Terraform 1.15 validate (the
/// oracle) reports exactly `local.n.a` of `g` and the three errors kept
/// below: references, and operands that are not `bool`.
#[test]
fn short_circuit_guards_and_narrowing() {
    check(expect![[r#"
        variable "c" {
          type = bool
        }
        variable "o" {
          type = object({ a = optional(object({ b = string })) })
        }
        locals {
          n = null
          s = var.c ? null : "x"
          a = local.n != null && local.n.a == ""
          b = local.n == null || local.n.a == ""
          c = !(local.n == null) && local.n.a == ""
          d = local.n != null ? local.n.a : ""
          e = local.n == null ? "" : local.n.a
          f = local.s != null && startswith(local.s, "x")
          g = local.n.a
                    #^^ warning[traversal]
          h = var.o.a != null && var.o.a.b != ""
          i = var.o.a != null && var.o.a.z != ""
                                       #^^ warning[traversal]
          j = var.c && var.o.a.z != ""
                             #^^ warning[traversal]
          k = false && var.o.a.z != ""
          m = true || var.o.a.z != ""
          p = var.c && local.nope
                      #^^^^^^^^^^ error[undefined-reference]
          q = var.c && [var.o.a.z]
                      #^^^^^^^^^^^ error[type-mismatch]
                              #^^ error[traversal]
        }
    "#]]);
}

/// A conditional at a check site is one of its results, so each is checked
/// (issue 34 item 6). Terraform 1.15 `validate` (`var.c` unknown) accepts
/// all of these, so they are warnings; `plan -var c=false` fails exactly at
/// outputs `m`, `n` and `q` ("Invalid output value"), `plan -var c=true`
/// nowhere.
#[test]
fn each_result_of_a_conditional_is_checked() {
    check(expect![[r#"
        variable "c" {
          type = bool
        }
        output "m" {
          type  = object({ arn = string, id = string, key = string })
          value = var.c ? { arn = "a", id = "b", key = "c" } : {}
                                                              #^^ warning[invalid-value]
                                                              #^^ warning[invalid-value]
                                                              #^^ warning[invalid-value]
        }
        output "n" {
          type  = object({ arn = string, id = number })
          value = var.c ? { arn = "a", id = 1 } : { arn = "a", id = "b" }
                                                                   #^^^ warning[invalid-value]
        }
        output "p" {
          type  = object({ arn = string, id = string })
          value = var.c ? { arn = "a", id = "b" } : null
        }
        output "q" {
          type  = number
          value = (var.c ? 1 : "x")
                              #^^^ warning[invalid-value]
        }
        output "t" {
          type  = number
          value = true ? 1 : "x"
        }
        output "u" {
          type  = number
          value = false ? 1 : "x"
                             #^^^ error[invalid-value]
        }
        output "r" {
          type  = string
          value = var.c ? 1 : "x"
        }
    "#]]);
}

/// Pulumi HCL (`runtime: hcl`): a resource's `pulumi {}` options as
/// pulumi-hcl's `pulumiResourceOptionsSchema` takes them (pkg/hcl/parser/
/// schema.go; types from the "Resource Options" table of
/// docs/language-reference.md), `call` blocks and `call.R.M.ATTR`, and
/// Pulumi's functions (pkg/hcl/eval/functions.go) beside Terraform's.
#[test]
fn pulumi_hcl_options_calls_and_functions() {
    check(expect![[r#"
        //- Pulumi.yaml
        name: demo
        runtime: hcl
        //- main.tf
        resource "aws_s3_bucket" "site" {
          bucket = "site"
          pulumi {
            name               = "site-primary"
            protect            = "yes"
                                #^^^^^ error[invalid-value]
            retain_on_delete   = true
            replace_on_changes = [bucket]
            hide_diffs         = [tags]
            import_id          = 42
            aliases            = [{ name = "old-site" }]
            parent             = aws_s3_bucket.logs
            protected          = true
           #^^^^^^^^^ error[unsupported-argument]
          }
        }
        resource "aws_s3_bucket" "logs" {
          bucket = "logs"
        }
        resource "aws_s3_object" "index" {
          source = fileasset("index.html")
          content = stringasset(42)
          archive = filearchive()
                   #^^^^^^^^^^^^^ error[argument-count]
        }
        call "site" "get_policy" {
          format = "json"
        }
        output "urn" {
          value = pulumiresourceurn(aws_s3_bucket.site)
        }
        output "policy" {
          value = call.site.get_policy.result
        }
        output "upper" {
          value = upper(pulumiresourcename(aws_s3_bucket.site))
        }
    "#]]);
}

/// The same file outside a Pulumi HCL program is Terraform: `pulumi {}` is
/// a nested block like any other, and Pulumi's functions are unknown.
#[test]
fn pulumi_functions_outside_pulumi_hcl() {
    check(expect![[r#"
        resource "aws_s3_object" "index" {
          source = fileasset("index.html")
                  #^^^^^^^^^ error[unknown-function]
        }
        output "policy" {
          value = call.site.get_policy.result
                 #^^^^^^^^^ error[undefined-reference]
        }
    "#]]);
}

/// A stack's `component.NAME.OUT` is the component module's output, typed
/// as `module.NAME.OUT` is (Terraform's `internal/stacks/stackruntime/
/// internal/stackeval/component.go`: a component's result is the object of
/// its root module's output values): a missing output is an error, and so
/// is a value that does not convert to where it goes.
#[test]
fn a_stack_components_outputs_typed_from_its_module() {
    check(expect![[r#"
        //- stack/main.tfcomponent.hcl
        component "pet" {
          source = "./pet"
          inputs = {
            length = 2
          }
        }
        output "name" {
          type  = number
          value = component.pet.name
                 #^^^^^^^^^^^^^^^^^^ warning[unsafe-conversion]
        }
        output "ids" {
          type  = list(string)
          value = component.pet.ids
        }
        output "count" {
          type  = number
          value = component.pet.ids
                 #^^^^^^^^^^^^^^^^^ error[type-mismatch]
        }
        output "missing" {
          type  = string
          value = component.pet.nmae
                              #^^^^^ error[traversal]
        }
        component "pets" {
          source   = "./pet"
          for_each = toset(["a", "b"])
          inputs = {
            length = 2
          }
        }
        output "all" {
          type  = list(list(string))
          value = [for p in component.pets : p.ids]
        }
        output "one" {
          type  = list(string)
          value = component.pets["a"].ids
        }
        //- stack/pet/main.tf
        variable "length" {
          type = number
        }
        output "name" {
          value = "x"
        }
        output "ids" {
          value = ["a", "b"]
        }
    "#]]);
}

/// A Terragrunt `dependency "x" { config_path }` block: `dependency.x.outputs`
/// is the other unit's outputs, `any` here (that unit's module is not read),
/// so handing them to `inputs` is no error, and `mock_outputs` with its
/// options are accepted (terragrunt docs, "dependency" block:
/// `config_path`, `mock_outputs`, `mock_outputs_allowed_terraform_commands`,
/// `mock_outputs_merge_strategy_with_state`, `skip_outputs`). Exposed
/// includes (`include.root.locals.x`) are `any` too. A constant input is
/// still checked against the module.
#[test]
fn terragrunt_dependency_outputs_and_mock_outputs() {
    check(expect![[r#"
        //- live/app/terragrunt.hcl
        include "root" {
          path   = find_in_parent_folders("root.hcl")
          expose = true
        }
        terraform {
          source = "../../modules//app"
        }
        dependency "vpc" {
          config_path = "../vpc"
          mock_outputs = {
            vpc_id = "vpc-mock"
          }
          mock_outputs_allowed_terraform_commands = ["validate", "plan"]
          mock_outputs_merge_strategy_with_state  = "shallow"
        }
        dependencies {
          paths = ["../vpc"]
        }
        inputs = {
          vpc_id   = dependency.vpc.outputs.vpc_id
          region   = include.root.locals.region
          replicas = "three"
                    #^^^^^^^ error[invalid-value]
        }
        //- modules/app/main.tf
        variable "vpc_id" {
          type = string
        }
        variable "region" {
          type = string
        }
        variable "replicas" {
          type = number
        }
    "#]]);
}

/// Terraform merges `main_override.tf`'s `module "m"` into `main.tf`'s
/// (internal/configs/module_merge.go). The override block is a fragment:
/// it misses nothing. The base block is decoded with the full schema
/// (module_merge_body.go `mergeBody.Content`), so its missing `b` is
/// still "Missing required argument" to `terraform validate`, though the
/// override sets it (tests/terraform/test_overrides.py). The callee's
/// `override.tf` gives `c` a default: no call needs it.
#[test]
fn an_override_file_sets_what_its_base_block_misses() {
    check(expect![[r#"
        //- main.tf
        module "m" {
        ^^^^^^^^^^ error[missing-argument]
          source = "./m"
          a      = "x"
        }
        module "n" {
        ^^^^^^^^^^ error[missing-argument]
          source = "./m"
          a      = "x"
        }
        //- main_override.tf
        module "m" {
          source = "./m"
          b      = "z"
        }
        //- m/main.tf
        variable "a" {
          type = string
        }
        variable "b" {
          type = string
        }
        variable "c" {
          type = string
        }
        //- m/override.tf
        variable "c" {
          default = "given"
        }
    "#]]);
}

/// `[]` is an empty tuple and `{}` an empty object: go-cty finds no common
/// type, and Terraform's "Inconsistent conditional result types" follows
/// wherever the conditional is, even with a constant condition (hclsyntax
/// unifies the results' types before it looks at the condition).
#[test]
fn an_empty_tuple_and_an_empty_object_have_no_common_type() {
    check(expect![[r#"
        //- main.tf
        variable "c" {
          type = bool
        }
        output "o" {
          value = var.c ? [] : {}
                         #^^^^^^^ error[type-mismatch]
        }
        resource "x" "y" {
          for_each = var.c ? [] : {}
                            #^^^^^^^ error[type-mismatch]
        }
        module "m" {
          source = "./m"
          a      = var.c ? [] : {}
                          #^^^^^^^ error[type-mismatch]
        }
        locals {
          k = true ? [] : {}
                    #^^^^^^^ error[type-mismatch]
          l = [for x in [true] : x ? {} : []]
                                    #^^^^^^^ error[type-mismatch]
        }
        //- m/main.tf
        variable "a" {}
    "#]]);
}

/// A function younger than every Terraform the module's `required_version`
/// allows is "Call to unknown function" to that Terraform: the error names
/// the version that added it (hashicorp/terraform CHANGELOG.md at v1.9.0:
/// `templatestring`; v1.5.0: `strcontains`; v1.8.0: provider functions).
/// `startswith` (1.3.0) is older than 1.5 and stays; `try` catches the
/// failure (§4).
#[test]
fn a_function_the_required_version_excludes() {
    check(expect![[r#"
        //- versions.tf
        terraform {
          required_version = "~> 1.4.0"
        }
        //- main.tf
        locals {
          a = templatestring("x", {})
             #^^^^^^^^^^^^^^ error[unknown-function]
          b = strcontains("ab", "a")
             #^^^^^^^^^^^ error[unknown-function]
          c = startswith("ab", "a")
          d = provider::terraform::encode_expr(1)
             #^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[unknown-function]
          e = try(strcontains("ab", "a"), false)
        }
    "#]]);
}

/// Without an upper bound any later Terraform may run the module.
#[test]
fn a_required_version_without_upper_bound_excludes_no_function() {
    check(expect![[r#"
        //- main.tf
        terraform {
          required_version = ">= 1.0"
        }
        locals {
          a = templatestring("x", {})
        }
    "#]]);
}

/// Terraform 1.10's ephemeral mark flows from an `ephemeral = true`
/// variable, an `ephemeral` resource and `terraform.applying` through
/// locals into outputs, except through `ephemeralasnull`; an output that
/// is not `ephemeral = true` must not receive it ("Ephemeral value not
/// allowed", internal/terraform/node_output.go, reported by validate).
#[test]
fn an_ephemeral_value_reaching_an_output_that_is_not_ephemeral() {
    check(expect![[r#"
        //- main.tf
        variable "token" {
          type      = string
          ephemeral = true
        }
        variable "plain" {
          type = string
        }
        ephemeral "random_password" "p" {
          length = 8
        }
        locals {
          header = "Bearer ${var.token}"
          nested = [local.header]
          safe   = ephemeralasnull(var.token)
        }
        output "a" {
          value = local.nested
                 #^^^^^^^^^^^^ error[type-mismatch]
        }
        output "b" {
          value = upper(ephemeral.random_password.p.result)
                 #^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[type-mismatch]
        }
        output "c" {
          value = terraform.applying
                 #^^^^^^^^^^^^^^^^^^ error[type-mismatch]
        }
        output "d" {
          value     = var.token
          ephemeral = true
        }
        output "e" {
          value = local.safe
        }
        output "f" {
          value = var.plain
        }
    "#]]);
}

/// An override file's `variable` merges into the base's (Terraform's
/// `Variable.merge`, internal/configs/module_merge.go): its type replaces
/// the base's within the module too, so `var.cfg.name` reads the
/// override's object, and a base-only variable keeps its own type.
#[test]
fn an_override_files_variable_type_holds_in_its_module() {
    check(expect![[r#"
        //- main.tf
        variable "cfg" {
          type = string
        }
        variable "plain" {
          type = string
        }
        output "name" {
          value = var.cfg.name
        }
        output "bad" {
          value = var.plain.name
                          #^^^^^ error[traversal]
        }
        //- override.tf
        variable "cfg" {
          type = object({ name = string })
        }
    "#]]);
}

/// A called module's ephemeral output carries the mark into the caller
/// (so does the whole `module.NAME` object), and a module variable not
/// declared `ephemeral = true` refuses an ephemeral value. Terraform 1.11's
/// `plan` reports each ("Ephemeral value not allowed",
/// internal/terraform/node_output.go and eval_variable.go; the variable's
/// at `validate` already).
#[test]
fn ephemeral_values_across_a_module_call() {
    check(expect![[r#"
        //- main.tf
        variable "p" {
          type      = string
          ephemeral = true
        }
        module "m" {
          source = "./m"
          a      = var.p
                  #^^^^^ error[type-mismatch]
          b      = var.p
        }
        output "x" {
          value = module.m.o
                 #^^^^^^^^^^ error[type-mismatch]
        }
        locals {
          l = module.m
        }
        output "y" {
          value = local.l
                 #^^^^^^^ error[type-mismatch]
        }
        output "z" {
          value     = module.m.o
          ephemeral = true
        }
        output "w" {
          value = module.m.plain
        }
        //- m/main.tf
        variable "a" {
          type = string
        }
        variable "b" {
          type      = string
          ephemeral = true
        }
        output "o" {
          value     = var.b
          ephemeral = true
        }
        output "plain" {
          value = var.a
        }
    "#]]);
}

/// OpenTofu's symbol libraries (docs/spec/opentofu-symbol-libraries.md).
#[path = "diagnostics/symbol_libraries.rs"]
mod symbol_libraries;

/// A root module may not declare ephemeral outputs ("Ephemeral output not
/// allowed", internal/terraform/node_output.go, at the block's header: what
/// Terraform 1.11.4's `validate` printed for this module). A module that
/// configures a backend is a root module; without one, whether it is one is
/// the caller's to say, and nothing is reported.
#[test]
fn an_ephemeral_output_of_a_module_with_a_backend() {
    check(expect![[r#"
        terraform {
          backend "local" {}
        }
        variable "p" {
          type      = string
          ephemeral = true
        }
        output "x" {
        ^^^^^^^^^^ error[type-mismatch]
          value     = var.p
          ephemeral = true
        }
    "#]]);
    check(expect![[r#"
        variable "p" {
          type      = string
          ephemeral = true
        }
        output "x" {
          value     = var.p
          ephemeral = true
        }
    "#]]);
}

#[path = "diagnostics/guards.rs"]
mod guards;
/// The lints of unused declarations (analysis.md §5.1).
#[path = "diagnostics/unused.rs"]
mod unused;

#[path = "diagnostics/sensitive.rs"]
mod sensitive;
