//! Go to definition: `$0` is the cursor; the expectation is the target's
//! file and the text of its range.

use expect_test::{expect, Expect};
use fixture::Fixture;
use hcl_types_ide as ide;

fn check(text: &str, expect: Expect) {
    let f = Fixture::parse(text);
    let mut a = f.analyse();
    let got = match ide::definition_with(&a.docs, a.doc, a.offset, &mut a.memo) {
        Some((path, range)) => {
            let text = f.files.iter().find(|(p, _)| *p == path).map(|(_, t)| t.as_str()).unwrap_or("");
            let first = text.get(range).unwrap_or("?").lines().next().unwrap_or("").to_string();
            format!("{}: {first}\n", path.display())
        }
        None => "no definition\n".to_string(),
    };
    expect.assert_eq(&got);
}

#[test]
fn a_variable_reference() {
    check(
        r#"
variable "n" { type = number }
output "x" { value = var.$0n }
"#,
        expect![[r#"
            main.tf: "n"
        "#]],
    );
}

#[test]
fn a_local_in_another_file() {
    check(
        r#"
//- main.tf
output "x" { value = local.na$0me }
//- locals.tf
locals {
  name = "a"
}
"#,
        expect![[r#"
            locals.tf: name
        "#]],
    );
}

#[test]
fn a_module_output_leads_into_the_callee() {
    check(
        r#"
//- main.tf
module "net" {
  source = "./net"
}
output "id" { value = module.net.i$0d }
//- net/outputs.tf
output "id" {
  value = 1
}
"#,
        expect![[r#"
            net/outputs.tf: "id"
        "#]],
    );
}

#[test]
fn a_module_argument_leads_to_the_callee_variable() {
    check(
        r#"
//- main.tf
module "net" {
  source = "./net"
  ci$0dr = "10.0.0.0/16"
}
//- net/variables.tf
variable "cidr" {
  type = string
}
"#,
        expect![[r#"
            net/variables.tf: "cidr"
        "#]],
    );
}

#[test]
fn a_run_output_leads_into_the_module() {
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
            main.tf: "greeting"
        "#]],
    );
}

#[test]
fn a_variable_in_an_assertion_leads_into_the_module() {
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
    condition     = var.na$0me == "hi"
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
            main.tf: "name"
        "#]],
    );
}

#[test]
fn a_variable_set_in_a_run_leads_into_the_module() {
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
    na$0me = "x"
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
            main.tf: "name"
        "#]],
    );
}

/// A name in a stack component's `inputs` goes to the module's variable
/// (docs/spec/stacks.md §3).
#[test]
fn a_stack_components_input_goes_to_the_modules_variable() {
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
  type = number
}
"#,
        expect![[r#"
            stack/pet/main.tf: "length"
        "#]],
    );
}

/// OpenTofu's symbol libraries (docs/spec/opentofu-symbol-libraries.md):
/// a named type, a function and a value lead into the `.sym.hcl` file.
#[test]
fn a_symbol_library_type_function_and_value() {
    let main = fixture::with_symbol_library;
    check(
        &main("variable \"v\" {\n  type = symbols::lib::ve$0c3()\n}"),
        expect![[r#"
            lib/lib.sym.hcl: "vec3"
        "#]],
    );
    check(
        &main("output \"o\" {\n  value = symbols::lib::hel$0lo(\"x\")\n}"),
        expect![[r#"
            lib/lib.sym.hcl: "hello"
        "#]],
    );
    check(
        &main("output \"o\" {\n  value = symbols.lib.hello_$0world\n}"),
        expect![[r#"
            lib/lib.sym.hcl: hello_world
        "#]],
    );
}

/// A declaration in a one-line JSON file (json.mdx allows any layout) is
/// found at its own name, after multi-byte characters too; and a reference
/// inside that file leads out of it.
#[test]
fn into_and_out_of_one_line_json() {
    check(
        r#"
//- variables.tf.json
{"locals":{"x":"éé"},"variable":{"a":{"default":"ü"},"zone":{"type":"list(string)"}}}
//- main.tf
output "o" { value = var.zo$0ne }
"#,
        expect![[r#"
            variables.tf.json: "zone"
        "#]],
    );
    check(
        r#"
//- main.tf
variable "zone" {}
//- locals.tf.json
{"locals":{"x":"éé","first":"ö ${var.zo$0ne}"}}
"#,
        expect![[r#"
            main.tf: "zone"
        "#]],
    );
}
