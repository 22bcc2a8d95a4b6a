//! Reference counts (the code lens): each variable or output name with
//! its count. Variables count `var.NAME` reads anywhere in the module
//! (templates and nested blocks too); outputs count `module.CALL.NAME`
//! in the callers given.

use expect_test::{expect, Expect};
use fixture::Fixture;
use hcl_types_ide as ide;
use std::path::Path;

use analysis::workspace::Files;
use analysis::Family;

fn check(text: &str, caller_dir: Option<(&str, &[&str])>, expect: Expect) {
    let f = Fixture::parse(text);
    let a = f.analyse();
    let caller_docs = caller_dir.map(|(d, _)| f.module(Path::new(d), Family::Terraform)).unwrap_or_default();
    let callers: Vec<ide::Caller> = caller_dir
        .map(|(_, calls)| ide::Caller { docs: &caller_docs, calls: calls.iter().map(|c| c.to_string()).collect() })
        .into_iter()
        .collect();
    let t = &a.docs[a.doc].file.text;
    let got: String = ide::reference_counts(&a.analysis.symbols, &a.docs, a.doc, &callers)
        .into_iter()
        .map(|r| format!("{} {}\n", &t[r.range], r.count))
        .collect();
    expect.assert_eq(&got);
}

#[test]
fn variables_count_their_reads_in_the_module() {
    check(
        r#"
//- mod/variables.tf
variable "name" {}
variable "tags" {}
variable "unused" {}
//- mod/main.tf
resource "x" "y" {
  name = "${var.name}-x"
  tags = merge(var.tags, { n = var.name })
  dynamic "d" {
    for_each = var.tags
    content {}
  }
}
locals {
  name = "name"
  other = local.name
}
"#,
        None,
        expect![[r#"
            "name" 2
            "tags" 2
            "unused" 0
        "#]],
    );
}

#[test]
fn outputs_count_their_reads_in_known_callers() {
    check(
        r#"
//- mod/outputs.tf
output "id" { value = 1 }
output "arn" { value = 2 }
//- root/main.tf
module "a" { source = "../mod" }
module "b" { source = "../mod" }
module "c" { source = "../other" }
locals {
  x = [module.a.id, module.b.id, module.c.id, module.a.arn]
}
"#,
        Some(("root", &["a", "b"])),
        expect![[r#"
            "id" 2
            "arn" 1
        "#]],
    );
}

/// The callers lens: the calls of the known callers to this module (two
/// in `root`, one in `env`), on the document's first item.
#[test]
fn a_module_counts_the_calls_of_its_callers() {
    let f = Fixture::parse(
        r#"
//- mod/variables.tf

# The module's inputs.
variable "name" {}
//- root/main.tf
module "a" { source = "../mod" }
module "b" { source = "../mod" }
module "c" { source = "../other" }
//- env/main.tf
module "x" { source = "../mod" }
"#,
    );
    let a = f.analyse();
    let text = &a.docs[a.doc].file.text;
    let docs: Vec<_> = ["root", "env"].iter().map(|d| f.module(Path::new(d), Family::Terraform)).collect();
    let callers: Vec<ide::Caller> = docs
        .iter()
        .zip([vec!["a", "b"], vec!["x"]])
        .map(|(docs, calls)| ide::Caller { docs, calls: calls.into_iter().map(String::from).collect() })
        .collect();
    let lens = ide::caller_count(&a.docs, a.doc, &callers).expect("a lens");
    assert_eq!(lens.count, 3);
    // The first item, not the comment before it.
    assert!(text[lens.range.start..].starts_with("variable \"name\""), "{:?}", &text[lens.range.start..]);
    assert_eq!(ide::caller_count(&a.docs, a.doc, &[]), None, "no caller known, no lens");
}
