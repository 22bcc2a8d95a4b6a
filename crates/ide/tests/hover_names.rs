//! Hover on the names of arguments and blocks (issue 48.1): the languages'
//! own (meta-arguments, `lifecycle`, a variable's `type`, tests' and
//! Stacks' blocks) from `crates/ide/src/hover/language.tsv`, and what is
//! said where a provider's schema or a module would type a name but is not
//! known. `$0` is the cursor; the expectation is the hovered range's text,
//! the type, then the prose.

use expect_test::{expect, Expect};
use fixture::Fixture;
use hcl_types_ide as ide;

const DEMO: &str = include_str!("../../../tests/schemas/demo.json");

fn hovered(text: &str, schemas: bool) -> String {
    let f = Fixture::parse(text);
    let mut a = f.analyse_with(schemas.then(|| fixture::schemas(DEMO)));
    match ide::hover_with(&a.docs, a.doc, a.offset, &mut a.memo) {
        Some(h) => {
            let source = &a.docs[a.doc].shown_text()[h.range.clone()];
            format!("`{source}`: {}\n{}\n", h.ty, h.prose.join("\n---\n"))
        }
        None => "no hover\n".to_string(),
    }
}

fn check(text: &str, expect: Expect) {
    expect.assert_eq(&hovered(text, false));
}

fn check_with_schema(text: &str, expect: Expect) {
    expect.assert_eq(&hovered(text, true));
}

#[test]
fn count_in_a_resource_is_a_meta_argument() {
    check(
        r#"
resource "aws_instance" "web" {
  cou$0nt = 2
}
"#,
        expect![[r#"
            `count`: number
            Meta-argument `count` of a `resource` block: optional (the language's own, not the provider's or the module's).
            ---
            How many instances to create, indexed by `count.index`. Not with `for_each`.
        "#]],
    );
}

#[test]
fn count_beside_a_schemas_arguments() {
    check_with_schema(
        r#"
resource "demo_instance" "t" {
  for_e$0ach = toset(["a"])
}
"#,
        expect![[r#"
            `for_each`: any
            Meta-argument `for_each` of a `resource` block: optional (the language's own, not the provider's or the module's).
            ---
            A map, or a set of strings: one instance per element, read as `each.key` and `each.value`. Not with `count`.
        "#]],
    );
}

#[test]
fn a_lifecycle_block_name() {
    check(
        r#"
resource "aws_instance" "web" {
  life$0cycle {
    create_before_destroy = true
  }
}
"#,
        expect![[r#"
            `lifecycle`: object({create_before_destroy = bool, ignore_changes = list(any), prevent_destroy = bool, replace_triggered_by = list(any)})
            Meta-argument block `lifecycle` of a `resource` block: optional (the language's own, not the provider's or the module's).
            ---
            How Terraform creates, replaces and destroys the object.
        "#]],
    );
}

#[test]
fn an_argument_of_lifecycle() {
    check(
        r#"
resource "aws_instance" "web" {
  lifecycle {
    create_before_destr$0oy = true
  }
}
"#,
        expect![[r#"
            `create_before_destroy`: bool
            Argument `create_before_destroy` of `resource › lifecycle`: optional.
            ---
            On a replacement, create the new object before destroying the old one.
        "#]],
    );
}

#[test]
fn a_preconditions_condition() {
    check(
        r#"
data "aws_ami" "a" {
  lifecycle {
    precondition {
      cond$0ition     = true
      error_message = "x"
    }
  }
}
"#,
        expect![[r#"
            `condition`: bool
            Argument `condition` of `data › lifecycle › precondition`: required.
            ---
            Must be true, else the run fails with the error message.
        "#]],
    );
}

#[test]
fn a_module_calls_source() {
    check(
        r#"
module "net" {
  sour$0ce = "./net"
}
"#,
        expect![[r#"
            `source`: string
            Meta-argument `source` of a `module` block: required (the language's own, not the provider's or the module's).
            ---
            Where the module's code is: a local path (`./net`), a registry address (`NS/NAME/PROVIDER`) or a remote address (git, S3, HTTP…).
        "#]],
    );
}

#[test]
fn an_argument_of_a_module_not_read() {
    check(
        r#"
module "vpc" {
  source = "terraform-aws-modules/vpc/aws"
  ci$0dr   = "10.0.0.0/16"
}
"#,
        expect![[r#"
            `cidr`: any
            `cidr` of module `vpc`: the module's variables are unknown. Its source is not read: a registry or remote source is read once `terraform init` has installed it (`.terraform/modules`).
        "#]],
    );
}

/// `dynamic` and its arguments are the language's; what is inside its
/// `content` is the provider's.
#[test]
fn a_dynamic_blocks_for_each() {
    check(
        r#"
resource "aws_security_group" "sg" {
  dynamic "ingress" {
    for_ea$0ch = var.ports
    content {
      from_port = ingress.value
    }
  }
}
"#,
        expect![[r#"
            `for_each`: any
            Argument `for_each` of `resource › dynamic`: required.
            ---
            The collection: one block per element, read as `LABEL.key` and `LABEL.value` (or the iterator's name).
        "#]],
    );
    check(
        r#"
resource "aws_security_group" "sg" {
  dynamic "ingress" {
    for_each = var.ports
    content {
      from_p$0ort = ingress.value
    }
  }
}
"#,
        expect![[r#"
            no hover
        "#]],
    );
}

/// A called module's variable: its type, description, default and (Terraform
/// 1.15) deprecation.
#[test]
fn a_module_argument_shows_its_variable_and_deprecation() {
    check(
        r#"
//- main.tf
module "net" {
  source = "./net"
  old_ci$0dr = "10.0.0.0/16"
}
//- net/main.tf
variable "old_cidr" {
  type        = string
  description = "The network's range."
  default     = null
  deprecated  = "Use `cidr` instead."
}
"#,
        expect![[r#"
            `old_cidr`: string
            Variable `old_cidr` of module `net` (main.tf)
            ---
            The network's range.
            ---
            **Deprecated**: Use `cidr` instead.
            ---
            Default: `null`
        "#]],
    );
}

/// A module that is read, and has no such variable: the diagnostics say so,
/// hover nothing.
#[test]
fn a_name_a_read_module_lacks() {
    check(
        r#"
//- main.tf
module "net" {
  source = "./net"
  cid$0r   = "10.0.0.0/16"
}
//- net/main.tf
variable "cidr_block" {}
"#,
        expect![[r#"
            no hover
        "#]],
    );
}

#[test]
fn a_variables_type_argument() {
    check(
        r#"
variable "x" {
  ty$0pe = string
}
"#,
        expect![[r#"
            `type`: any
            Argument `type` of a `variable` block: optional.
            ---
            The type constraint values are converted to (a type expression: `string`, `list(object({…}))`).
        "#]],
    );
}

#[test]
fn a_variables_validation_block() {
    check(
        r#"
variable "x" {
  type = string
  valid$0ation {
    condition     = length(var.x) > 0
    error_message = "empty"
  }
}
"#,
        expect![[r#"
            `validation`: object({condition = bool, error_message = string})
            Block `validation` of a `variable` block: optional.
            ---
            A rule the value must follow, checked when it is set.
        "#]],
    );
}

#[test]
fn an_outputs_value() {
    check(
        r#"
output "o" {
  val$0ue = 1
}
"#,
        expect![[r#"
            `value`: any
            Argument `value` of an `output` block: required.
            ---
            The value the output returns.
        "#]],
    );
}

#[test]
fn a_top_level_block_type() {
    check(
        r#"
loc$0als {
  a = 1
}
"#,
        expect![[r#"
            `locals`: any
            Block `locals` of a module file.
            ---
            Declares local values, each named by its key and read as `local.NAME`.
        "#]],
    );
}

#[test]
fn terraforms_required_version() {
    check(
        r#"
terraform {
  required_vers$0ion = ">= 1.5"
}
"#,
        expect![[r#"
            `required_version`: string
            Argument `required_version` of a `terraform` block: optional.
            ---
            The Terraform versions this configuration works with (`>= 1.5`).
        "#]],
    );
}

#[test]
fn a_providers_alias_and_its_own_arguments() {
    check(
        r#"
provider "aws" {
  ali$0as = "west"
}
"#,
        expect![[r#"
            `alias`: string
            Meta-argument `alias` of a `provider` block: optional (the language's own, not the provider's or the module's).
            ---
            A second name for another configuration of the same provider, referred to as `PROVIDER.ALIAS`.
        "#]],
    );
    check(
        r#"
provider "aws" {
  regi$0on = "us-west-2"
}
"#,
        expect![[r#"
            `region`: any
            `region` of provider `aws`: no provider schema is known, so its arguments are not typed.
            ---
            Name a `terraform providers schema -json` file in the editor setting `hclTypes.providerSchemas` (or `provider_schemas` in `.hcl-types.hcl`), or let the server run Terraform for it after `terraform init` (`terraform.runForSchemas`).
        "#]],
    );
}

#[test]
fn a_resource_argument_without_a_schema_says_what_would_type_it() {
    check(
        r#"
resource "aws_instance" "web" {
  a$0mi = "ami-123"
}
"#,
        expect![[r#"
            `ami`: any
            `ami` of resource `aws_instance`: no provider schema is known, so its arguments are not typed.
            ---
            Name a `terraform providers schema -json` file in the editor setting `hclTypes.providerSchemas` (or `provider_schemas` in `.hcl-types.hcl`), or let the server run Terraform for it after `terraform init` (`terraform.runForSchemas`).
        "#]],
    );
}

#[test]
fn a_resource_type_no_loaded_schema_has() {
    check_with_schema(
        r#"
resource "aws_instance" "web" {
  a$0mi = "ami-123"
}
"#,
        expect![[r#"
            `ami`: any
            `ami` of resource `aws_instance`: no provider schema loaded has this type, so its arguments are not typed.
            ---
            Name a `terraform providers schema -json` file in the editor setting `hclTypes.providerSchemas` (or `provider_schemas` in `.hcl-types.hcl`), or let the server run Terraform for it after `terraform init` (`terraform.runForSchemas`).
        "#]],
    );
}

#[test]
fn a_test_files_run_command() {
    check(
        r#"
//- main.tftest.hcl
run "plan" {
  comm$0and = plan
}
"#,
        expect![[r#"
            `command`: any
            Argument `command` of a `run` block: optional.
            ---
            `apply` (the default) or `plan`.
        "#]],
    );
}

#[test]
fn a_test_assertions_condition() {
    check(
        r#"
//- main.tftest.hcl
run "plan" {
  assert {
    conditi$0on     = true
    error_message = "no"
  }
}
"#,
        expect![[r#"
            `condition`: bool
            Argument `condition` of `run › assert`: required.
            ---
            Must be true for the run to pass.
        "#]],
    );
}

#[test]
fn a_mock_provider_block() {
    check(
        r#"
//- main.tftest.hcl
mock_prov$0ider "aws" {}
"#,
        expect![[r#"
            `mock_provider`: object({alias = string, source = string})
            Block `mock_provider` of a test file.
            ---
            A provider whose resources and data sources are faked: nothing is created (Terraform 1.7).
        "#]],
    );
}

#[test]
fn a_stack_components_source() {
    check(
        r#"
//- stack/main.tfcomponent.hcl
component "pet" {
  sour$0ce = "./pet"
}
"#,
        expect![[r#"
            `source`: string
            Meta-argument `source` of a `component` block: required (the language's own, not the provider's or the module's).
            ---
            Where the component's module is: a local path or a registry address.
        "#]],
    );
}

#[test]
fn a_deployments_inputs() {
    check(
        r#"
//- stack/main.tfdeploy.hcl
deployment "prod" {
  inpu$0ts = {}
}
"#,
        expect![[r#"
            `inputs`: map(any)
            Argument `inputs` of a `deployment` block: optional.
            ---
            The stack's variables for this deployment.
        "#]],
    );
}

#[test]
fn a_value_is_not_a_name() {
    check(
        r#"
resource "aws_instance" "web" {
  count = cou$0nt
}
"#,
        expect![[r#"
            `count`: any
            Expected `number` here: this value converts safely.
        "#]],
    );
}

/// Every row of the table hovers, in a file of its kind, inside the blocks
/// it names (read from the TSV itself).
#[test]
fn every_row_of_the_language_table_hovers() {
    let table = include_str!("../src/hover/language.tsv");
    let mut failed = Vec::new();
    let mut count = 0;
    for line in table.lines().filter(|l| !l.starts_with('#')).skip(1) {
        let cols: Vec<&str> = line.split('\t').collect();
        let [files, block, name, _kind, ty, _, _] = cols[..] else { panic!("bad row {line}") };
        let file = match files {
            "tf" => "main.tf",
            "test" => "main.tftest.hcl",
            "stack" => "main.tfcomponent.hcl",
            "deploy" => "main.tfdeploy.hcl",
            _ => panic!("bad files {files}"),
        };
        let path: Vec<&str> = block.split('.').filter(|b| !b.is_empty()).collect();
        let mut text = format!("//- {file}\n");
        for (i, b) in path.iter().enumerate() {
            text.push_str(&if i == 0 { format!("{b} \"l\" {{\n") } else { format!("{b} {{\n") });
        }
        let cursor = format!("{}$0{}", &name[..1], &name[1..]);
        text.push_str(&if ty.is_empty() { format!("{cursor} \"l\" {{\n}}\n") } else { format!("{cursor} = 1\n") });
        text.push_str(&"}\n".repeat(path.len()));
        count += 1;
        let got = hovered(&text, false);
        if !got.starts_with(&format!("`{name}`")) || !got.contains(&format!(" `{name}` of ")) {
            failed.push(format!("{files} {block} {name}: {got}"));
        }
    }
    assert!(count > 150, "{count} rows");
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}

/// terraform-ls#1512: `type = any` with an object default: the declared
/// constraint and the value's type, side by side.
#[test]
fn a_reference_shows_the_declared_constraint_beside_the_value_type() {
    check(
        r#"
variable "settings" {
  type    = any
  default = { name = "a", size = 2 }
}
output "s" { value = var.sett$0ings }
"#,
        expect![[r#"
            `var.settings`: any
            Variable `settings` is declared here (main.tf:1)
            ---
            Declared `any`; its default's type is `object({name = string, size = number})`.
        "#]],
    );
}

/// An optional attribute without a default: declared `optional(string)`,
/// null when not set.
#[test]
fn an_optional_attribute_shows_its_declaration() {
    check(
        r#"
variable "o" {
  type = object({ name = string, note = optional(string) })
}
output "n" { value = var.o.no$0te }
"#,
        expect![[r#"
            `var.o.note`: union(none, string)
            Variable `o` is declared here (main.tf:1)
            ---
            Declared `optional(string)` (in variable `o`'s type): `null` when the value leaves it out.
        "#]],
    );
}

/// Where the declared type is the value's, nothing more is said.
#[test]
fn a_reference_whose_value_is_its_declared_type() {
    check(
        r#"
variable "n" {
  type = number
}
output "n" { value = var.$0n }
"#,
        expect![[r#"
            `var.n`: number
            Variable `n` is declared here (main.tf:1)
        "#]],
    );
}

/// A character of several bytes before a name (found by
/// tests/it/robustness.rs): no panic.
#[test]
fn a_multibyte_character_before_a_name() {
    check(
        r#"
resource "a" "b" {
  ¥cou$0nt = 2
}
"#,
        expect![[r#"
            no hover
        "#]],
    );
}
