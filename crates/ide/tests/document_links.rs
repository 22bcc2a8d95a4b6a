//! Document links: each link as the text it covers and its target. The
//! URL shapes are terraform-ls's (links it opened, quoted in public
//! configurations: `registry.terraform.io/modules/terraform-aws-modules/vpc/aws/5.1.1`,
//! `registry.terraform.io/providers/hashicorp/aws/5.65.0/docs`), and the
//! registry's docs pages (`/providers/linode/linode/latest/docs/resources/instance`).

use expect_test::{expect, Expect};
use fixture::Fixture;
use hcl_types_ide as ide;

fn check(text: &str, expect: Expect) {
    let a = Fixture::parse(text).analyse();
    let t = &a.docs[a.doc].file.text;
    let got: String = ide::document_links(&a.docs, a.doc)
        .into_iter()
        .map(|l| format!("{} -> {:?}\n", &t[l.range], l.target))
        .collect();
    expect.assert_eq(&got);
}

#[test]
fn module_sources_local_and_registry() {
    check(
        r#"
//- envs/prod/main.tf
module "net" {
  source = "../../modules/net"
}
module "vpc" {
  source  = "terraform-aws-modules/vpc/aws"
  version = "5.1.1"
}
module "eks" {
  source  = "registry.terraform.io/terraform-aws-modules/eks/aws//modules/node"
  version = "~> 20.0"
}
module "git" {
  source = "git::https://example.com/x.git"
}
"#,
        expect![[r#"
            ../../modules/net -> Dir("modules/net")
            terraform-aws-modules/vpc/aws -> Url("https://registry.terraform.io/modules/terraform-aws-modules/vpc/aws/5.1.1")
            registry.terraform.io/terraform-aws-modules/eks/aws//modules/node -> Url("https://registry.terraform.io/modules/terraform-aws-modules/eks/aws/latest")
        "#]],
    );
}

#[test]
fn resource_and_data_types_with_required_providers() {
    check(
        r#"
//- main.tf
resource "aws_instance" "web" {}
data "google_project" "p" {
  provider = google-beta.west
}
resource "linode_instance" "l" {}
resource "random_id" "r" {}
//- versions.tf
terraform {
  required_providers {
    linode      = { source = "linode/linode" }
    google-beta = { source = "hashicorp/google-beta" }
  }
}
"#,
        expect![[r#"
            aws_instance -> Url("https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/instance")
            google_project -> Url("https://registry.terraform.io/providers/hashicorp/google-beta/latest/docs/data-sources/project")
            linode_instance -> Url("https://registry.terraform.io/providers/linode/linode/latest/docs/resources/instance")
            random_id -> Url("https://registry.terraform.io/providers/hashicorp/random/latest/docs/resources/id")
        "#]],
    );
}

#[test]
fn no_links_outside_terraform_files() {
    check(
        r#"
//- x.tfvars
source = "./x"
"#,
        expect![[r#""#]],
    );
}

#[test]
fn no_links_in_packer_templates() {
    check(
        r#"
//- build.pkr.hcl
data "amazon-ami" "ubuntu" {}
# A type with an underscore would otherwise look like a provider's.
data "git_commit" "c" {}
"#,
        expect![[r#""#]],
    );
}
