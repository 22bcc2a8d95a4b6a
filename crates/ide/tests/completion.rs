//! Completion, one case per test: `$0` is the cursor; the expectation lists
//! the labels offered (kind, then detail), at most the first 12, and says
//! when the list is incomplete.

use expect_test::{expect, Expect};
use fixture::Fixture;
use hcl_types_ide as ide;

fn check(text: &str, expect: Expect) {
    let f = Fixture::parse(text);
    let a = f.analyse();
    let list = ide::completion(&a.docs, a.doc, a.offset, &a.analysis);
    let mut got = String::new();
    for c in list.items.iter().take(12) {
        let detail = c.detail.as_deref().map(|d| format!(" — {d}")).unwrap_or_default();
        let snippet = c.snippet.as_deref().map(|s| format!(" [{s}]")).unwrap_or_default();
        got.push_str(&format!("{:?} {}{snippet}{detail}\n", c.kind, c.label));
    }
    if list.items.len() > 12 {
        got.push_str(&format!("… {} more\n", list.items.len() - 12));
    }
    if list.incomplete {
        got.push_str("(incomplete)\n");
    }
    expect.assert_eq(&got);
}

#[test]
fn type_constructors_in_a_variable_type() {
    check(
        r#"
variable "x" {
  type = li$0
}
"#,
        expect![[r#"
            Keyword string — type
            Keyword number — type
            Keyword bool — type
            Keyword any — type
            Constructor list [list(${1})] — type constructor
            Constructor set [set(${1})] — type constructor
            Constructor map [map(${1})] — type constructor
            Constructor tuple [tuple([${1}])] — type constructor
            Constructor object [object({${1}})] — type constructor
        "#]],
    );
}

#[test]
fn type_constructors_inside_a_constructor() {
    check(
        r#"
variable "x" {
  type = map($0)
}
"#,
        expect![[r#"
            Keyword string — type
            Keyword number — type
            Keyword bool — type
            Keyword any — type
            Constructor list [list(${1})] — type constructor
            Constructor set [set(${1})] — type constructor
            Constructor map [map(${1})] — type constructor
            Constructor tuple [tuple([${1}])] — type constructor
            Constructor object [object({${1}})] — type constructor
        "#]],
    );
}

#[test]
fn optional_only_inside_an_object_attribute() {
    check(
        r#"
variable "x" {
  type = object({ a = opt$0 })
}
"#,
        expect![[r#"
            Keyword string — type
            Keyword number — type
            Keyword bool — type
            Keyword any — type
            Constructor list [list(${1})] — type constructor
            Constructor set [set(${1})] — type constructor
            Constructor map [map(${1})] — type constructor
            Constructor tuple [tuple([${1}])] — type constructor
            Constructor object [object({${1}})] — type constructor
            Constructor optional [optional(${1})] — type constructor
        "#]],
    );
}

#[test]
fn variables_after_var_dot() {
    check(
        r#"
variable "region" { type = string }
variable "replicas" { type = number }
output "x" { value = var.$0 }
"#,
        expect![[r#"
            Variable region — string
            Variable replicas — number
        "#]],
    );
}

#[test]
fn attributes_of_an_object_variable() {
    check(
        r#"
variable "o" {
  type = object({ name = string, size = number })
}
output "x" { value = var.o.$0 }
"#,
        expect![[r#"
            Attribute name — string
            Attribute size — number
        "#]],
    );
}

#[test]
fn a_called_module_variables_not_set_yet_required_first() {
    check(
        r#"
//- main.tf
module "net" {
  source = "./net"
  cidr   = "10.0.0.0/16"
  $0
}
//- net/variables.tf
variable "cidr" { type = string }
variable "zones" {
  type    = list(string)
  default = []
}
variable "name" { type = string }
"#,
        expect![[r#"
            Attribute name [name = ${1}] — string (required)
            Attribute zones [zones = ${1}] — list(string)
        "#]],
    );
}

#[test]
fn missing_attributes_of_an_object_default() {
    check(
        r#"
variable "o" {
  type    = object({ name = string, size = number })
  default = {
    name = "a"
    $0
  }
}
"#,
        expect![[r#"
            Attribute size [size = ${1}] — number
        "#]],
    );
}

#[test]
fn the_type_argument_of_convert() {
    check(
        r#"
locals {
  c = convert(1, str$0)
}
"#,
        expect![[r#"
            Keyword string — type
            Keyword number — type
            Keyword bool — type
            Keyword any — type
            Constructor list [list(${1})] — type constructor
            Constructor set [set(${1})] — type constructor
            Constructor map [map(${1})] — type constructor
            Constructor tuple [tuple([${1}])] — type constructor
            Constructor object [object({${1}})] — type constructor
        "#]],
    );
}

#[test]
fn a_runs_variables_offer_the_module_under_tests_variables() {
    check(
        r#"
//- tests/main.tftest.hcl
run "first" {
  variables {
    replicas = 2
  }
}
run "second" {
  variables {
    n$0
  }
  assert {
    condition     = output.greeting == "hi"
    error_message = "no"
  }
}
//- main.tf
variable "replicas" {
  type        = number
  description = "How many."
}
variable "name" {
  type    = string
  default = "app"
}
output "greeting" {
  type        = string
  description = "A greeting."
  value       = "hi ${var.name}"
}
"#,
        expect![[r#"
            Attribute replicas [replicas = ${1}] — number (required)
            Attribute name [name = ${1}] — string
        "#]],
    );
}

#[test]
fn the_files_variables_offer_the_module_under_tests_variables() {
    check(
        r#"
//- tests/main.tftest.hcl
variables {
  name = "x"
  $0
}
//- main.tf
variable "replicas" {
  type = number
}
variable "name" {
  type    = string
  default = "app"
}
variable "zone" {
  type    = string
  default = "a"
}
"#,
        expect![[r#"
            Attribute replicas [replicas = ${1}] — number (required)
            Attribute zone [zone = ${1}] — string
        "#]],
    );
}

#[test]
fn after_run_a_runs_outputs() {
    check(
        r#"
//- tests/main.tftest.hcl
run "first" {
  variables {
    replicas = 2
  }
}
run "second" {
  variables {
    name = run.first.$0
  }
  assert {
    condition     = output.greeting == "hi"
    error_message = "no"
  }
}
//- main.tf
variable "replicas" {
  type        = number
  description = "How many."
}
variable "name" {
  type    = string
  default = "app"
}
output "greeting" {
  type        = string
  description = "A greeting."
  value       = "hi ${var.name}"
}
"#,
        expect![[r#"
            Attribute greeting — string
        "#]],
    );
}

#[test]
fn after_output_in_an_assertion_the_modules_outputs() {
    check(
        r#"
//- tests/main.tftest.hcl
run "first" {
  variables {
    replicas = 2
  }
}
run "second" {
  variables {
    name = "x"
  }
  assert {
    condition     = output.$0 "hi"
    error_message = "no"
  }
}
//- main.tf
variable "replicas" {
  type        = number
  description = "How many."
}
variable "name" {
  type    = string
  default = "app"
}
output "greeting" {
  type        = string
  description = "A greeting."
  value       = "hi ${var.name}"
}
"#,
        expect![[r#"
            Attribute greeting — string
        "#]],
    );
}

/// A stack component's `inputs` are its module's variables (docs/spec/stacks.md
/// §3): those not given yet, required first, with their types.
#[test]
fn a_stack_components_inputs_offer_the_modules_variables() {
    check(
        r#"
//- stack/main.tfcomponent.hcl
component "pet" {
  source = "./pet"
  inputs = {
    prefix = "x"
    $0
  }
}
//- stack/pet/main.tf
variable "prefix" {
  type = string
}
variable "length" {
  type    = number
  default = 2
}
variable "separator" {
  type = string
}
"#,
        expect![[r#"
            Attribute separator [separator = ${1}] — string (required)
            Attribute length [length = ${1}] — number
        "#]],
    );
}

/// A Terragrunt unit's `inputs` are the variables of the module that
/// `terraform { source }` names (docs/spec/terragrunt.md §2).
#[test]
fn a_terragrunt_units_inputs_offer_the_modules_variables() {
    check(
        r#"
//- live/app/terragrunt.hcl
terraform {
  source = "../../modules//app"
}
inputs = {
  re$0
}
//- modules/app/main.tf
variable "replicas" {
  type = number
}
variable "region" {
  type    = string
  default = "eu"
}
"#,
        expect![[r#"
            Attribute replicas [replicas = ${1}] — number (required)
            Attribute region [region = ${1}] — string
        "#]],
    );
}

/// Without `terraform { source }` a Terragrunt unit's module is its own
/// directory (terragrunt's `test/fixtures/inputs`).
#[test]
fn a_terragrunt_unit_without_source_offers_its_directorys_variables() {
    check(
        r#"
//- app/terragrunt.hcl
inputs = {
  $0
}
//- app/main.tf
variable "replicas" {
  type = number
}
"#,
        expect![[r#"
            Attribute replicas [replicas = ${1}] — number (required)
        "#]],
    );
}

/// A unit without a `terraform` block of its own runs the module its
/// include names (the `_envcommon` layout; Terragrunt's `Merge` takes the
/// included `terraform.source` when the child sets none, pkg/config/include.go),
/// not its own directory: its `inputs` offer that module's variables.
#[test]
fn a_terragrunt_unit_offers_the_variables_of_the_module_its_include_names() {
    check(
        r#"
//- live/app/terragrunt.hcl
include "envcommon" {
  path = "${dirname(find_in_parent_folders("root.hcl"))}/_envcommon/app.hcl"
}

inputs = {
  $0
}
//- live/app/main.tf
variable "own" {
  type = string
}
//- root.hcl
//- _envcommon/app.hcl
terraform {
  source = "${dirname(find_in_parent_folders("root.hcl"))}/modules//app"
}
//- modules/app/main.tf
variable "replicas" {
  type = number
}
"#,
        expect![[r#"
            Attribute replicas [replicas = ${1}] — number (required)
        "#]],
    );
}

/// Pulumi HCL offers Pulumi's functions beside Terraform's
/// (docs/spec/pulumi-hcl.md §4).
#[test]
fn pulumi_functions_in_a_pulumi_hcl_program() {
    check(
        r#"
//- Pulumi.yaml
name: site
runtime: hcl
//- main.tf
locals {
  index = fileas$0
}
"#,
        expect![[r#"
            Keyword var
            Keyword local
            Keyword each
            Keyword count
            Keyword path
            Keyword terraform
            Function abs [abs(${1})] — abs(num: number) -> number
            Function abspath [abspath(${1})] — abspath(path: string) -> string
            Function alltrue [alltrue(${1})] — alltrue(list: list(bool)) -> bool
            Function anytrue [anytrue(${1})] — anytrue(list: list(bool)) -> bool
            Function assetarchive [assetarchive(${1})] — assetarchive(assets: any) -> any
            Function aws_secretsmanager [aws_secretsmanager(${1})] — aws_secretsmanager(name: string, key: string) -> string
            … 137 more
        "#]],
    );
}

/// After a stack's `component.NAME.`, the component module's outputs
/// (docs/spec/stacks.md §3).
#[test]
fn after_component_name_the_modules_outputs() {
    check(
        r#"
//- stack/main.tfcomponent.hcl
component "pet" {
  source = "./pet"
}
output "ids" {
  type  = list(string)
  value = component.pet.$0
}
//- stack/pet/main.tf
output "ids" {
  value = ["a", "b"]
}
output "name" {
  value = "x"
}
"#,
        expect![[r#"
            Attribute ids — tuple([string, string])
            Attribute name — string
        "#]],
    );
}

/// Inside a resource's `pulumi { … }` block in a Pulumi HCL program, the
/// options pulumi-hcl's `pulumiResourceOptionsSchema` takes, those already
/// set left out (docs/spec/pulumi-hcl.md §2).
#[test]
fn pulumi_options_inside_a_resources_pulumi_block() {
    check(
        r#"
//- Pulumi.yaml
name: site
runtime: hcl
//- main.tf
resource "aws_s3_bucket" "site" {
  bucket = "site"
  pulumi {
    protect = true
    $0
  }
  name = "not an option"
}
"#,
        expect![[r#"
            Attribute name [name = ${1}] — string
            Attribute additional_secret_outputs [additional_secret_outputs = ${1}] — list of attribute names
            Attribute parent [parent = ${1}] — address
            Attribute retain_on_delete [retain_on_delete = ${1}] — bool
            Attribute deleted_with [deleted_with = ${1}] — address
            Attribute replace_with [replace_with = ${1}] — address
            Attribute hide_diffs [hide_diffs = ${1}] — list of attribute names
            Attribute replace_on_changes [replace_on_changes = ${1}] — list of attribute names
            Attribute import_id [import_id = ${1}] — string
            Attribute env_var_mappings [env_var_mappings = ${1}] — any
            Attribute version [version = ${1}] — string
            Attribute plugin_download_url [plugin_download_url = ${1}] — string
            … 1 more
        "#]],
    );
}

/// OpenTofu's symbol libraries (docs/spec/opentofu-symbol-libraries.md
/// §2–3): after `symbols::lib::` a type expression is offered the
/// library's types, an expression its functions; after `symbols.lib.` its
/// values; after `symbols::` the libraries.
#[test]
fn symbol_library_members_after_their_namespace() {
    let main = fixture::with_symbol_library;
    check(
        &main("variable \"v\" {\n  type = symbols::lib::$0\n}"),
        expect![[r#"
        Constructor vec3 [vec3()] — object({x = number, y = number, z = number})
    "#]],
    );
    check(
        &main("output \"o\" {\n  value = symbols::lib::h$0\n}"),
        expect![[r#"
        Function hello [hello(${1})] — (name string) string
    "#]],
    );
    check(
        &main("output \"o\" {\n  value = symbols.lib.$0\n}"),
        expect![[r#"
        Attribute hello_world — string
    "#]],
    );
    check(
        &main("output \"o\" {\n  value = symbols::$0\n}"),
        expect![[r#"
        Variable lib — symbol library `./lib`
    "#]],
    );
}

/// In a symbol library's own file, OpenTofu's library scope
/// (docs/spec/opentofu-symbol-libraries.md §4; `symbolScope` and
/// `functionScope` in internal/configs/symlib/scope.go of
/// opentofu/opentofu): after `value.` the library's values (its `values`
/// blocks, in any of its files), after `param.` and `local.` the enclosing
/// function's parameters and locals, after `symbols::` its own types in a
/// type expression and its functions elsewhere.
#[test]
fn a_symbol_library_scope_in_its_own_file() {
    let lib = |body: &str| {
        format!(
            "//- lib/types.sym.hcl\ntypedef \"size\" {{\n  type = number\n}}\nvalues {{\n  base = 2\n}}\n//- lib/lib.sym.hcl\n{body}\n"
        )
    };
    let function = |ret: &str| {
        lib(&format!(
            "function \"scale\" {{\n  parameter \"n\" {{\n    type = number\n  }}\n  parameter \"rest\" {{\n    type     = string\n    variadic = true\n  }}\n  locals {{\n    twice = param.n * 2\n  }}\n  return = {ret}\n}}"
        ))
    };
    check(
        &function("value.$0"),
        expect![[r#"
            Attribute base — int
        "#]],
    );
    check(
        &function("param.$0"),
        expect![[r#"
            Variable n — parameter
            Variable rest — parameter
        "#]],
    );
    check(
        &function("param.$0n"),
        expect![[r#"
            Variable n — number
            Variable rest — string
        "#]],
    );
    check(
        &function("local.$0"),
        expect![[r#"
            Variable twice — local
        "#]],
    );
    check(
        &lib("typedef \"pair\" {\n  type = list(symbols::$0)\n}"),
        expect![[r#"
            Constructor size [size(${1})] — number
        "#]],
    );
}

/// A Terragrunt stack file (docs/spec/terragrunt.md §5): after `unit.` the
/// file's units, after `stack.` its stacks, after `unit.NAME.` the `path`
/// that `BuildComponentRefMap` (internal/hclparse/stack.go of
/// gruntwork-io/terragrunt) gives each.
#[test]
fn terragrunt_stack_components_after_unit_and_stack() {
    let stack = |at: &str| {
        format!(
            "//- live/terragrunt.stack.hcl\nunit \"vpc\" {{\n  source = \"../u/vpc\"\n  path   = \"vpc\"\n}}\nstack \"net\" {{\n  source = \"../s/net\"\n  path   = \"net\"\n}}\nunit \"app\" {{\n  source = \"../u/app\"\n  path   = \"app\"\n  autoinclude {{\n    dependency \"vpc\" {{\n      config_path = {at}\n    }}\n  }}\n}}\n"
        )
    };
    check(
        &stack("unit.$0"),
        expect![[r#"
            Variable vpc — object({path = string})
        "#]],
    );
    check(
        &stack("stack.$0"),
        expect![[r#"
            Variable net — object({path = string})
        "#]],
    );
    check(
        &stack("unit.vpc.$0"),
        expect![[r#"
            Attribute path — string
        "#]],
    );
}

/// In a minified JSON file (json.mdx: strings are templates), `var.` inside
/// a template completes the module's variables at the JSON's own offset,
/// after multi-byte characters and block headers longer than their JSON.
#[test]
fn variables_inside_a_one_line_json_template() {
    check(
        r#"
//- variables.tf
variable "zone" { type = string }
variable "size" { type = number }
//- locals.tf.json
{"output":{"é":{"value":"ü"},"a":{"value":1},"b":{"value":"${var.$0}"}}}
"#,
        expect![[r#"
            Variable zone — string
            Variable size — number
        "#]],
    );
}

/// A Nomad variable specification (analysis.md §8.1) offers at a top-level
/// name the keys `nomad var put` takes (command/var_put.go of
/// hashicorp/nomad) that the file does not set yet, with their types.
#[test]
fn nomad_variable_specification_keys() {
    check(
        r#"
//- spec.nv.hcl
path = "nomad/jobs/web"
cr$0
items {
  user = "web"
}
"#,
        expect![[r#"
            Attribute namespace [namespace = ${1}] — string
            Attribute create_index [create_index = ${1}] — int
            Attribute modify_index [modify_index = ${1}] — int
            Attribute create_time [create_time = ${1}] — int
            Attribute modify_time [modify_time = ${1}] — int
        "#]],
    );
}
