//! Hover, one case per test: `$0` is the cursor; the expectation is the
//! hovered range's text, the type, then the prose. `UPDATE_EXPECT=1` rewrites
//! expectations (read the diff before keeping it).

use expect_test::{expect, Expect};
use fixture::Fixture;
use hcl_types_ide as ide;

fn check(text: &str, expect: Expect) {
    let f = Fixture::parse(text);
    let mut a = f.analyse();
    let got = match ide::hover_with(&a.docs, a.doc, a.offset, &mut a.memo) {
        Some(h) => {
            let source = &a.docs[a.doc].file.text[h.range.clone()];
            format!("`{source}`: {}\n{}\n", h.ty, h.prose.join("\n---\n"))
        }
        None => "no hover\n".to_string(),
    };
    expect.assert_eq(&got);
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
            Output `id` of module `net` (outputs.tf:1)
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
fn nothing_on_a_keyword() {
    check(
        r#"
varia$0ble "x" {}
"#,
        expect![[r#"
            no hover
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
