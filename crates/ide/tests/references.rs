//! Find references and document highlight: `$0` is the cursor; the
//! expectation lists each place as `file:line: text of the line` with the
//! name in brackets, `(decl)` for the declaration.

use std::path::PathBuf;

use expect_test::{expect, Expect};
use fixture::Fixture;
use hcl_types_ide as ide;

fn line_of(f: &Fixture, path: &std::path::Path, range: &std::ops::Range<usize>) -> String {
    let text = f.files.iter().find(|(p, _)| p == path).map(|(_, t)| t.as_str()).unwrap_or("");
    let start = text[..range.start].rfind('\n').map_or(0, |i| i + 1);
    let end = text[range.end..].find('\n').map_or(text.len(), |i| range.end + i);
    let line = text[..range.start].matches('\n').count() + 1;
    format!(
        "{}:{line}: {}[{}]{}",
        path.display(),
        &text[start..range.start],
        &text[range.clone()],
        &text[range.end..end]
    )
}

fn check(text: &str, expect: Expect) {
    let f = Fixture::parse(text);
    let (owned, m, doc, offset) = f.modules();
    let mods: Vec<ide::Module> =
        owned.iter().map(|(dir, docs)| ide::Module { dir: dir.clone(), docs, editable: true }).collect();
    let got = match ide::references(&mods, m, doc, offset, true) {
        None => "no symbol\n".to_string(),
        Some(refs) => refs
            .iter()
            .map(|r| {
                let decl = if r.declaration { " (decl)" } else { "" };
                format!("{}{decl}\n", line_of(&f, &r.path, &r.range))
            })
            .collect(),
    };
    expect.assert_eq(&got);
}

#[test]
fn a_variable_from_a_use_finds_declaration_uses_tfvars_and_caller_arguments() {
    check(
        r#"
//- net/variables.tf
variable "cidr" {
  type = string
}
//- net/main.tf
output "block" { value = "${var.cidr}/x" }
locals { c = upper(var.ci$0dr) }
//- net/terraform.tfvars
cidr = "10.0.0.0/16"
//- main.tf
module "net" {
  source = "./net"
  cidr   = "10.1.0.0/16"
}
module "other" {
  source = "./other"
  cidr   = "x"
}
"#,
        expect![[r#"
            main.tf:3:   [cidr]   = "10.1.0.0/16"
            net/main.tf:1: output "block" { value = "${var.[cidr]}/x" }
            net/main.tf:2: locals { c = upper(var.[cidr]) }
            net/terraform.tfvars:1: [cidr] = "10.0.0.0/16"
            net/variables.tf:1: variable "[cidr]" { (decl)
        "#]],
    );
}

#[test]
fn a_variable_from_the_caller_argument() {
    check(
        r#"
//- main.tf
module "net" {
  source = "./net"
  ci$0dr = "10.1.0.0/16"
}
//- net/main.tf
variable "cidr" {}
output "o" { value = var.cidr }
"#,
        expect![[r#"
            main.tf:3:   [cidr] = "10.1.0.0/16"
            net/main.tf:1: variable "[cidr]" {} (decl)
            net/main.tf:2: output "o" { value = var.[cidr] }
        "#]],
    );
}

#[test]
fn an_output_from_its_declaration_finds_module_uses_in_callers() {
    check(
        r#"
//- net/outputs.tf
output "i$0d" {
  value = 1
}
//- main.tf
module "net" {
  source = "./net"
}
output "a" { value = module.net.id }
output "b" { value = module.net[0].id + module.other.id }
"#,
        expect![[r#"
            main.tf:4: output "a" { value = module.net.[id] }
            main.tf:5: output "b" { value = module.net[0].[id] + module.other.id }
            net/outputs.tf:1: output "[id]" { (decl)
        "#]],
    );
}

#[test]
fn a_local_module_call_resource_and_data_source() {
    check(
        r#"
locals {
  na$0me = "a"
}
output "x" { value = [local.name, local.other] }
"#,
        expect![[r#"
            main.tf:2:   [name] = "a" (decl)
            main.tf:4: output "x" { value = [local.[name], local.other] }
        "#]],
    );
    check(
        r#"
module "net" {
  source = "./net"
}
output "x" { value = mod$0ule.net.id }
"#,
        expect![[r#"
            main.tf:1: module "[net]" { (decl)
            main.tf:4: output "x" { value = module.[net].id }
        "#]],
    );
    check(
        r#"
resource "aws_s3_bucket" "b$0" {}
data "aws_s3_bucket" "b" {}
output "x" { value = [aws_s3_bucket.b.arn, data.aws_s3_bucket.b.arn, aws_s3_bucket.c] }
"#,
        expect![[r#"
            main.tf:1: resource "aws_s3_bucket" "[b]" {} (decl)
            main.tf:3: output "x" { value = [aws_s3_bucket.[b].arn, data.aws_s3_bucket.b.arn, aws_s3_bucket.c] }
        "#]],
    );
    check(
        r#"
data "aws_s3_bucket" "b" {}
output "x" { value = data.aws_s3_bucket.$0b.arn }
"#,
        expect![[r#"
            main.tf:1: data "aws_s3_bucket" "[b]" {} (decl)
            main.tf:2: output "x" { value = data.aws_s3_bucket.[b].arn }
        "#]],
    );
}

#[test]
fn pcl_names() {
    // Pulumi PCL: resources, config and outputs are named by a bare
    // identifier label and referred to by that name alone.
    check(
        r#"
//- main.pp
config region "string" {}
resource bucket "aws:s3:Bucket" {
  tags = { region = reg$0ion }
}
output name {
  value = bucket.id
}
"#,
        expect![[r#"
            main.pp:1: config [region] "string" {} (decl)
            main.pp:3:   tags = { region = [region] }
        "#]],
    );
}

#[test]
fn nothing_at_a_keyword_or_whitespace() {
    check("variable \"x\" {}\n$0\n", expect!["no symbol\n"]);
}

#[test]
fn highlight_stays_in_the_document() {
    let f = Fixture::parse(
        r#"
//- main.tf
variable "n" {}
output "a" { value = var.$0n }
//- other.tf
output "b" { value = var.n }
"#,
    );
    let (owned, m, doc, offset) = f.modules();
    let got = ide::document_highlight(&owned[m].1, doc, offset);
    let lines: Vec<String> =
        got.iter().map(|(r, write)| format!("{} {write}", line_of(&f, &PathBuf::from("main.tf"), r))).collect();
    expect![[r#"
        [
            "main.tf:1: variable \"[n]\" {} true",
            "main.tf:2: output \"a\" { value = var.[n] } false",
        ]
    "#]]
    .assert_debug_eq(&lines);
}
