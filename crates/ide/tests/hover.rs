//! Hover, one case per test: `$0` is the cursor; the expectation is the
//! hovered range's text, the type, then the prose. `UPDATE_EXPECT=1` rewrites
//! expectations (read the diff before keeping it).

use expect_test::{expect, Expect};
use fixture::Fixture;
use hcl_types_ide as ide;

fn check(text: &str, expect: Expect) {
    expect.assert_eq(&hovered(text));
}

/// The hovered range's text, the type and the prose.
fn hovered(text: &str) -> String {
    let f = Fixture::parse(text);
    let mut a = f.analyse();
    match ide::hover_with(&a.docs, a.doc, a.offset, &mut a.memo) {
        Some(h) => {
            let source = &a.docs[a.doc].shown_text()[h.range.clone()];
            format!("`{source}`: {}\n{}\n", h.ty, h.prose.join("\n---\n"))
        }
        None => "no hover\n".to_string(),
    }
}

#[test]
fn a_variable_reference_shows_its_declared_type() {
    check(
        r#"
variable "tags" {
  type        = map(string)
  description = "Tags for everything."
}
output "t" { value = var.ta$0gs }
"#,
        expect![[r#"
            `var.tags`: map(string)
            Variable `tags` is declared here (main.tf:1)
        "#]],
    );
}

#[test]
fn a_local_shows_its_inferred_type() {
    check(
        r#"
locals {
  ports = [80, 443]
}
output "p" { value = local.po$0rts }
"#,
        expect![[r#"
            `local.ports`: tuple([int, int])
            Local `ports` is declared here (main.tf:2)
        "#]],
    );
}

#[test]
fn an_attribute_of_an_object_variable() {
    check(
        r#"
variable "o" {
  type = object({ name = string, size = optional(number, 1) })
}
output "s" { value = var.o.si$0ze }
"#,
        expect![[r#"
            `var.o.size`: number
            Variable `o` is declared here (main.tf:1)
            ---
            Declared `optional(number, 1)` (in variable `o`'s type): the default it names when the value leaves it out.
        "#]],
    );
}

#[test]
fn a_type_constructor_in_a_type_expression() {
    check(
        r#"
variable "x" {
  type = lis$0t(string)
}
"#,
        expect![[r#"
            `list(string)`: list(string)
            The declared type of this type constructor.
        "#]],
    );
}

#[test]
fn a_function_call_shows_its_result_type() {
    check(
        r#"
output "u" { value = upp$0er("a") }
"#,
        expect![[r#"
            `upper("a")`: string

        "#]],
    );
}

#[test]
fn a_typed_output_read_through_a_module_call() {
    check(
        r#"
//- main.tf
module "net" {
  source = "./net"
}
output "id" { value = module.net.i$0d }
//- net/outputs.tf
output "id" {
  type  = number
  value = 1
}
"#,
        expect![[r#"
            `module.net.id`: number
            Output `id` of module `net` (outputs.tf)
        "#]],
    );
}

#[test]
fn convert_has_the_type_it_names() {
    check(
        r#"
locals {
  c = convert(1, string)
}
output "c" { value = local.$0c }
"#,
        expect![[r#"
            `local.c`: string
            Local `c` is declared here (main.tf:2)
        "#]],
    );
}

#[test]
fn a_top_level_keyword_describes_its_block() {
    check(
        r#"
varia$0ble "x" {}
"#,
        expect![[r#"
            `variable`: object({default = any, description = string, ephemeral = bool, nullable = bool, sensitive = bool, type = any})
            Block `variable` of a module file.
            ---
            Declares an input variable of the module: a value the caller (or the root module's user) sets, read as `var.NAME`.
        "#]],
    );
}

#[test]
fn a_constructor_in_the_type_argument_of_convert() {
    check(
        r#"
locals {
  c = convert({ a = 1 }, ma$0p(string))
}
"#,
        expect![[r#"
            `map(string)`: map(string)
            The declared type of this type constructor.
        "#]],
    );
}

#[test]
fn a_run_output_in_a_later_run() {
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
    name = run.first.gree$0ting
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
            `run.first.greeting`: string
            A greeting.
            ---
            Output `greeting` of the module of run `first` (main.tf)
            ---
            Expected `string` here: this value converts safely.
        "#]],
    );
}

#[test]
fn an_output_in_an_assertion() {
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
    condition     = output.gr$0eeting == "hi"
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
            `output.greeting`: string
            A greeting.
            ---
            Output `greeting` of the module under test (main.tf)
        "#]],
    );
}

#[test]
fn a_variable_set_in_a_runs_variables_block() {
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
    repl$0icas = 2
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
            `replicas`: number
            Variable `replicas` of run `second` (main.tf)
            ---
            How many.
            ---
            Required: the variable has no default.
        "#]],
    );
}

/// A name in a stack component's `inputs` is the module's variable it sets
/// (docs/spec/stacks.md §3).
#[test]
fn a_stack_components_input_shows_the_modules_variable() {
    check(
        r#"
//- stack/main.tfcomponent.hcl
component "pet" {
  source = "./pet"
  inputs = {
    len$0gth = 3
  }
}
//- stack/pet/main.tf
variable "length" {
  type        = number
  description = "How many words."
}
"#,
        expect![[r#"
            `length`: number
            Variable `length` of component `pet` (main.tf)
            ---
            How many words.
            ---
            Required: the variable has no default.
        "#]],
    );
}

/// A name in a Terragrunt unit's `inputs` is the variable of the module
/// `terraform { source }` names (docs/spec/terragrunt.md §2).
#[test]
fn a_terragrunt_units_input_shows_the_modules_variable() {
    check(
        r#"
//- live/app/terragrunt.hcl
terraform {
  source = "../../modules//app"
}
inputs = {
  repl$0icas = 2
}
//- modules/app/main.tf
variable "replicas" {
  type    = number
  default = 1
}
"#,
        expect![[r#"
            `replicas`: number
            Variable `replicas` of module `modules/app` (main.tf)
            ---
            Default: `1`
        "#]],
    );
}

/// A variable declared in Terraform's JSON syntax (hashicorp/terraform's
/// website/docs/language/syntax/json.mdx: `type` is a type expression in a
/// string) is hovered from a native file beside it, at its JSON line.
#[test]
fn a_variable_declared_in_json_syntax() {
    check(
        r#"
//- variables.tf.json
{
  "variable": {
    "region": {
      "type": "map(string)"
    }
  }
}
//- main.tf
output "r" { value = var.reg$0ion }
"#,
        expect![[r#"
            `var.region`: map(string)
            Variable `region` is declared here (variables.tf.json:3)
        "#]],
    );
}

/// In a Pulumi HCL program (`Pulumi.yaml` with `runtime: hcl`) Pulumi's
/// functions are known, with the signature pulumi-hcl's
/// `pkg/hcl/eval/functions.go` declares (docs/spec/pulumi-hcl.md §4).
#[test]
fn a_pulumi_function_in_a_pulumi_hcl_program() {
    check(
        r#"
//- Pulumi.yaml
name: site
runtime: hcl
//- main.tf
resource "aws_s3_bucket" "site" {
  bucket = "site"
}
output "urn" {
  value = pulumiresource$0urn(aws_s3_bucket.site)
}
"#,
        expect![[r#"
            `pulumiresourceurn(aws_s3_bucket.site)`: string

        "#]],
    );
}

/// A reference inside a JSON template string (json.mdx: strings are
/// templates, `"${var.x}"` is an expression) hovers as in native syntax.
#[test]
fn a_reference_inside_a_json_template() {
    check(
        r#"
//- variables.tf
variable "zone" {
  type = list(string)
}
//- locals.tf.json
{
  "locals": {
    "first": "${var.zo$0ne[0]}"
  }
}
"#,
        expect![[r#"
            `var.zone`: list(string)
            Variable `zone` is declared here (variables.tf:1)
        "#]],
    );
}

/// A stack's `component.NAME.OUT` shows the component module's output
/// (docs/spec/stacks.md §3).
#[test]
fn a_stack_components_output_shows_the_modules_output() {
    check(
        r#"
//- stack/main.tfcomponent.hcl
component "pet" {
  source = "./pet"
}
output "ids" {
  type  = list(string)
  value = component.pet.i$0ds
}
//- stack/pet/main.tf
output "ids" {
  value       = ["a", "b"]
  description = "The pets' ids."
}
"#,
        expect![[r#"
            `component.pet.ids`: tuple([string, string])
            The pets' ids.
            ---
            Output `ids` of component `pet` (main.tf)
            ---
            Expected `list(string)` here: this value converts safely.
        "#]],
    );
}

/// Terraform 1.10's ephemeral mark (internal/terraform/eval_variable.go
/// marks an `ephemeral = true` variable's value) shows on a reference and
/// on what is built of it.
#[test]
fn an_ephemeral_variable_reference_says_it_is_ephemeral() {
    check(
        r#"
variable "token" {
  type      = string
  ephemeral = true
}
locals {
  header = "Bearer ${var.to$0ken}"
}
"#,
        expect![[r#"
            `var.token`: string
            Variable `token` is declared here (main.tf:1)
            ---
            Expected `string` here: this value converts safely.
            ---
            **Ephemeral**: Terraform keeps this value out of plans and state. Only an output or a module variable declared `ephemeral = true`, a write-only resource argument, a local value, or a provider or provisioner block may take it (`ephemeralasnull(…)` drops the mark).
        "#]],
    );
}

/// A local built of an ephemeral value is ephemeral too; `ephemeralasnull`
/// drops the mark (Terraform's lang/funcs ephemeralasnull).
#[test]
fn a_local_built_of_an_ephemeral_value_is_ephemeral_at_its_name() {
    check(
        r#"
variable "token" {
  type      = string
  ephemeral = true
}
locals {
  hea$0der = "Bearer ${var.token}"
  plain  = ephemeralasnull(var.token)
}
"#,
        expect![[r#"
            `header`: string
            `local.header`: the value type of this local value.
            ---
            **Ephemeral**: Terraform keeps this value out of plans and state. Only an output or a module variable declared `ephemeral = true`, a write-only resource argument, a local value, or a provider or provisioner block may take it (`ephemeralasnull(…)` drops the mark).
        "#]],
    );
    check(
        r#"
variable "token" {
  type      = string
  ephemeral = true
}
locals {
  header = "Bearer ${var.token}"
  pla$0in  = ephemeralasnull(var.token)
}
"#,
        expect![[r#"
            `plain`: string
            `local.plain`: the value type of this local value.
        "#]],
    );
}

/// A called module's output declared `ephemeral = true` is ephemeral in
/// the caller (internal/terraform/node_output.go marks it).
#[test]
fn a_callees_ephemeral_output_is_ephemeral_in_the_caller() {
    check(
        r#"
//- main.tf
module "vault" {
  source = "./vault"
}
locals {
  t = module.vault.to$0ken
}
//- vault/main.tf
variable "seed" {
  type      = string
  ephemeral = true
  default   = "s"
}
output "token" {
  value     = var.seed
  ephemeral = true
}
"#,
        expect![[r#"
            `module.vault.token`: string
            Output `token` of module `vault` (main.tf)
            ---
            **Ephemeral**: Terraform keeps this value out of plans and state. Only an output or a module variable declared `ephemeral = true`, a write-only resource argument, a local value, or a provider or provisioner block may take it (`ephemeralasnull(…)` drops the mark).
        "#]],
    );
}

/// OpenTofu's symbol libraries (docs/spec/opentofu-symbol-libraries.md
/// §2; the blog post's `type = symbols::lib::vec3()`,
/// https://github.com/opentofu/opentofu.org/pull/439): hover on the named
/// type shows the library's type expanded and where it is defined.
#[test]
fn a_symbol_library_type_shows_its_expansion_and_definition() {
    check(
        r#"
//- main.tofu
language { experiments = [symbol_libraries] }
symbols "lib" {
  source = "./example-lib"
}
variable "location" {
  type = symbols::lib::ve$0c3()
}
//- example-lib/example.sym.hcl
# Points in space.
typedef "vec3" {
  type = object({ x = number, y = number, z = optional(number, 0) })
}
"#,
        expect![[r#"
            `symbols::lib::vec3()`: object({x = number, y = number, z = union(none, number)})
            `symbols::lib::vec3()`: a type of symbol library `lib` (`./example-lib`).
            ---
            Defined by `typedef "vec3"` (example.sym.hcl:2).
        "#]],
    );
}

/// A library function's call: its declared return type, and where the
/// function is defined (S5, S8 of the spec page); a library value's type.
#[test]
fn a_symbol_library_function_call_and_value_show_their_types() {
    check(
        &fixture::with_symbol_library("output \"o\" {\n  value = symbols::lib::he$0llo(\"world\")\n}"),
        expect![[r#"
            `symbols::lib::hello`: string
            `symbols::lib::hello` is a function of symbol library `lib`, line 4 (lib.sym.hcl)
        "#]],
    );
    check(
        &fixture::with_symbol_library("output \"o\" {\n  value = symbols.lib.hello_w$0orld\n}"),
        expect![[r#"
            `symbols.lib.hello_world`: string
            `symbols.lib.hello_world` is a value of symbol library `lib`, line 12 (lib.sym.hcl)
        "#]],
    );
}

/// In a symbol library's own file (docs/spec/opentofu-symbol-libraries.md
/// §4, after website/docs/language/symbol-libraries/index.mdx of
/// opentofu/opentofu): `param.NAME` is the parameter's type (the variadic
/// one a list), `local.NAME` the function's local, `value.NAME` a value of
/// the library's `values` blocks, each with where it is declared.
#[test]
fn a_symbol_library_reference_in_its_own_file() {
    let lib = |ret: &str| {
        format!(
            "//- lib/lib.sym.hcl\nvalues {{\n  prefix = \"vm\"\n}}\nfunction \"names\" {{\n  parameter \"name\" {{\n    type     = string\n    variadic = true\n  }}\n  locals {{\n    count = length(param.name)\n  }}\n  return = {ret}\n}}\n"
        )
    };
    check(
        &lib("param.na$0me"),
        expect![[r#"
            `param.name`: list(string)
            `param.name` is a parameter of this function (lib.sym.hcl:5)
        "#]],
    );
    check(
        &lib("local.cou$0nt"),
        expect![[r#"
            `local.count`: number
            `local.count` is a local of this function (its `locals` block) (lib.sym.hcl:10)
        "#]],
    );
    check(
        &lib("value.pre$0fix"),
        expect![[r#"
            `value.prefix`: string
            `value.prefix` is a value of this symbol library (its `values` blocks) (lib.sym.hcl:2)
        "#]],
    );
}

/// A Terragrunt stack file's `unit.NAME.path` (docs/spec/terragrunt.md §5;
/// `BuildComponentRefMap` in internal/hclparse/stack.go of
/// gruntwork-io/terragrunt): the component's generated directory, a
/// string, and where the unit is declared.
#[test]
fn a_terragrunt_stack_component_reference() {
    check(
        "//- live/terragrunt.stack.hcl\nunit \"vpc\" {\n  source = \"../u/vpc\"\n  path   = \"vpc\"\n}\nunit \"app\" {\n  source = \"../u/app\"\n  path   = \"app\"\n  autoinclude {\n    dependency \"vpc\" {\n      config_path = unit.v$0pc.path\n    }\n  }\n}\n",
        expect![[r#"
            `unit.vpc`: object({path = string})
            Unit `unit.vpc` is declared here (terragrunt.stack.hcl:1)
        "#]],
    );
}

/// The label of a `symbols "lib"` block: what the library defines
/// (docs/spec/opentofu-symbol-libraries.md; the blog post's library,
/// https://github.com/opentofu/opentofu.org/pull/439).
#[test]
fn a_symbols_block_label_shows_what_its_library_defines() {
    check(
        &fixture::with_symbol_library("").replacen("symbols \"lib\"", "symbols \"l$0ib\"", 1),
        expect![[r#"
        `"lib"`: object({hello_world = string})
        Symbol library `lib` from `./lib` (OpenTofu's `symbols` block).
        ---
        Types: `vec3`.
        ---
        Functions: `hello(name string) string`.
        ---
        Values: `hello_world`.
    "#]],
    );
}
/// Hover on a declaration's own name in JSON syntax (the `"region"` key
/// under `"variable"`, json.mdx "variable blocks") shows the declaration,
/// as hover on the label of `variable "region"` does in native syntax.
#[test]
fn a_json_declarations_own_name_shows_the_declaration() {
    let json = r#"
//- variables.tf.json
{
  "variable": {
    "zone": {"type": "string"},
    "reg$0ion": {
      "type": "map(string)",
      "description": "Where it runs."
    }
  }
}
"#;
    let native = r#"
//- variables.tf
variable "zone" { type = string }
variable "reg$0ion" {
  type        = map(string)
  description = "Where it runs."
}
"#;
    check(
        json,
        expect![[r#"
            `"region"`: map(string)
            `var.region`: the value type of this variable.
        "#]],
    );
    assert_eq!(hovered(json), hovered(native));
}

/// In a one-line (minified) JSON file, with multi-byte characters ahead,
/// a reference in a template hovers at its own place, and a declaration's
/// line is the JSON's (line 1), not the lowering's.
#[test]
fn one_line_json_hovers_at_its_own_places() {
    check(
        r#"
//- variables.tf.json
{"variable":{"a":{"default":"ééé"},"zone":{"type":"list(string)"}},"locals":{"x":"üü","first":"ö ${var.zo$0ne[0]}"}}
"#,
        expect![[r#"
            `var.zone`: list(string)
            Variable `zone` is declared here (variables.tf.json:1)
        "#]],
    );
    check(
        r#"
//- variables.tf.json
{"locals":{"y":"ééé"},"variable":{"b":{"default":"ü"},"zone":{"type":"list(string)"}}}
//- outputs.tf
output "p" { value = var.zo$0ne }
"#,
        expect![[r#"
            `var.zone`: list(string)
            Variable `zone` is declared here (variables.tf.json:1)
        "#]],
    );
}
