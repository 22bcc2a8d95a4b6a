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
