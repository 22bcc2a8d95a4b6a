//! Workspace symbols: what a file declares (from item headers alone, so a
//! broken block still shows its names), and how a query ranks them.

use analysis::FileKind;
use expect_test::{expect, Expect};
use hcl_types_ide::workspace_symbols::{file_symbols, rank, search};

fn check(kind: FileKind, text: &str, expect: Expect) {
    let got: String = file_symbols(kind, text)
        .iter()
        .map(|s| format!("{:?} {} {:?}\n", s.kind, s.name, &text[s.range.clone()]))
        .collect();
    expect.assert_eq(&got);
}

#[test]
fn a_terraform_module_declares() {
    check(
        FileKind::Terraform,
        r#"
variable "region" {}
locals {
  a = 1
  b = [
    1,
  ]
}
resource "aws_s3_bucket" "logs" {}
data "aws_ami" "ubuntu" {}
module "net" {
  source = "./net"
}
output "id" { value = 1 }
check "health" {}
provider "aws" {}
# A block that does not parse still names what it declares.
resource "aws_vpc" "main" {
  cidr = [
}
"#,
        expect![[r#"
            Variable var.region "\"region\""
            Local local.a "a"
            Local local.b "b"
            Resource aws_s3_bucket.logs "\"logs\""
            DataSource data.aws_ami.ubuntu "\"ubuntu\""
            Module module.net "\"net\""
            Output output.id "\"id\""
            Other check.health "\"health\""
            Resource aws_vpc.main "\"main\""
        "#]],
    );
}

#[test]
fn a_pcl_program_declares() {
    check(
        FileKind::Pcl,
        r#"
config "region" "string" {}
resource "bucket" "aws:s3:Bucket" {}
component "net" "./net" {}
output "url" { value = 1 }
"#,
        expect![[r#"
            Variable region "\"region\""
            Resource bucket "\"bucket\""
            Module net "\"net\""
            Output url "\"url\""
        "#]],
    );
}

#[test]
fn tfvars_and_plain_hcl_declare_nothing() {
    check(FileKind::Tfvars, "region = \"x\"\n", expect![""]);
    check(FileKind::Hcl, "variable \"x\" {}\n", expect![""]);
}

#[test]
fn a_query_ranks_exact_then_prefixes_then_anywhere_then_in_order() {
    let names = ["var.region", "var.regions", "var.logs_region", "local.reg", "aws_s3_bucket.logs", "var.rxexgion"];
    let found =
        |q: &str, limit| -> Vec<&str> { search(names.iter().enumerate().map(|(k, n)| (*n, k as u64, *n)), q, limit) };
    assert_eq!(found("REGION", 10), ["var.region", "var.regions", "var.logs_region", "var.rxexgion"]);
    assert_eq!(found("reg", 10), ["local.reg", "var.region", "var.regions", "var.logs_region", "var.rxexgion"]);
    assert_eq!(found("var.reg", 2), ["var.region", "var.regions"]);
    assert_eq!(found("", 3), ["aws_s3_bucket.logs", "local.reg", "var.logs_region"], "by name");
    assert_eq!(found("xyz", 10), Vec::<&str>::new());
    assert_eq!(rank("var.region", "vrgn"), Some(5));
    assert_eq!(rank("var.region", "nr"), None, "in order only");
}

/// The letter sets rule out only names that cannot match: every name a
/// query ranks holds all of the query's characters.
#[test]
fn letter_sets_never_rule_out_a_match() {
    use hcl_types_ide::workspace_symbols::letters;
    let names = ["var.region", "aws_s3_bucket.logs-1", "local.Zone_9", "data.x.ÿ", "module.net"];
    let queries = ["", "REG", "s3", "zone_9", "-1", "ÿ", "mnet", "x.y", "9z", "logs-"];
    for n in names {
        for q in queries {
            let holds = letters(n) & letters(q) == letters(q);
            if rank(n, q).is_some() {
                assert!(holds, "{n} matches {q} but its letters do not hold the query's");
            }
        }
    }
    assert_ne!(letters("abc") & letters("z"), letters("z"));
}
