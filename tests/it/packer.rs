//! Packer templates (`.pkr.hcl`) and variable files (`.pkrvars.hcl`): the
//! Terraform dialect, Packer's own blocks and functions, and variable files
//! checked against the variables of their directory, as `hcl-types check`
//! and `hcl-types types` report them.

use std::collections::BTreeMap;

use hcl_types::cli::check::{render_diagnostics, render_types, run_analysis, CommonArgs, Format};

const TEMPLATE: &str = r#"packer {
  required_plugins {
    amazon = {
      version = ">= 1.2.0"
      source  = "github.com/hashicorp/amazon"
    }
  }
}

variable "region" {
  type    = string
  default = "us-east-1"
}

variable "disk_size" {
  type    = number
  default = "big"
}

variable "tags" {
  type = map(string)
}

data "amazon-ami" "ubuntu" {
  owners = ["099720109477"]
}

locals {
  name    = "img-${var.region}"
  home    = env("HOME")
  secret  = vault("secret/data/x", "key")
  stamp   = legacy_isotime("2006-01-02")
  ami_id  = data.amazon-ami.ubuntu.id
  size_gb = var.disk_size * 2
}

source "amazon-ebs" "ubuntu" {
  ami_name      = local.name
  region        = var.regoin
  source_ami    = local.ami_id
  instance_type = "t3.micro"
  tags          = var.tags
}

build {
  name    = "images"
  sources = ["source.amazon-ebs.ubuntu"]
  provisioner "shell" {
    inline = ["echo ${local.home} ${source.name} ${build.name} ${path.root}"]
  }
}
"#;

const VARS: &str = r#"region    = "eu-west-1"
disk_size = "20"
tags      = ["a"]
zone      = "x"
"#;

/// Writes the files to a fresh directory and checks it: (diagnostic lines,
/// type lines), paths relative to the directory.
fn check(name: &str, files: &[(&str, &str)]) -> (Vec<String>, Vec<String>) {
    let dir = crate::scratch::named(name);
    for (file, text) in files {
        std::fs::write(dir.join(file), text).unwrap();
    }
    let args = CommonArgs {
        paths: vec![dir.to_path_buf()],
        format: Format::Text,
        dialect: None,
        var_files: Vec::new(),
        var_file_table: None,
        provider_schemas: Vec::new(),
        package_schemas: Vec::new(),
        // Hermetic: no `.hcl-types.hcl` above the checkout applies.
        source: hcl_types::cli::check::SourceArgs { no_config: true, ..Default::default() },
    };
    let (reports, failures) = run_analysis(&args, false);
    assert!(failures.is_empty());
    assert_eq!(reports.len(), files.len(), "every Packer file is picked up");
    let prefix = format!("{}/", dir.display());
    let strip = |lines: Vec<String>| -> Vec<String> { lines.into_iter().map(|l| l.replacen(&prefix, "", 1)).collect() };
    let (diags, _) = render_diagnostics(&reports, &BTreeMap::new(), Format::Text);
    (strip(diags), strip(render_types(&reports, Format::Text)))
}

#[test]
fn packer_template_is_checked_and_typed_as_terraform() {
    let (diags, types) = check("template", &[("build.pkr.hcl", TEMPLATE)]);
    // Packer's blocks (packer, source, build, data), functions (env, vault,
    // legacy_isotime) and names (source.name, build.name, path.root) are
    // known; what is wrong is reported.
    assert_eq!(
        diags,
        vec![
            "build.pkr.hcl:17:13: error[invalid-value]: invalid value for `number`: \"big\" is not a number",
            "build.pkr.hcl:39:19: error[undefined-reference]: `var.regoin` is not declared in this module; did you mean `var.region`?",
        ]
    );
    assert_eq!(
        types,
        vec![
            "build.pkr.hcl:10:10: var.region: string",
            "build.pkr.hcl:15:10: var.disk_size: number",
            "build.pkr.hcl:20:10: var.tags: map(string)",
            "build.pkr.hcl:29:3: local.name: string",
            "build.pkr.hcl:30:3: local.home: string",
            "build.pkr.hcl:31:3: local.secret: string",
            "build.pkr.hcl:32:3: local.stamp: string",
            "build.pkr.hcl:33:3: local.ami_id: any",
            "build.pkr.hcl:34:3: local.size_gb: number",
        ]
    );
}

#[test]
fn pkrvars_are_checked_against_the_templates_variables() {
    let (diags, types) = check("vars", &[("build.pkr.hcl", TEMPLATE), ("prod.pkrvars.hcl", VARS)]);
    let vars: Vec<&String> = diags.iter().filter(|l| l.starts_with("prod.pkrvars.hcl")).collect();
    assert_eq!(
        vars,
        vec![
            "prod.pkrvars.hcl:2:13: hint[implicit-conversion]: \"20\" converts implicitly to number",
            "prod.pkrvars.hcl:3:13: error[invalid-value]: invalid value for `map(string)`: […] is not an object: map(string) needs a { … } value",
            "prod.pkrvars.hcl:4:1: warning[undefined-reference]: `zone` is not a variable of this module; Packer ignores it with a warning",
        ]
    );
    assert!(types.iter().all(|l| l.starts_with("build.pkr.hcl")), "a variable file names no values: {types:?}");
    // Alone, a variable file has no variables to be checked against.
    let (diags, _) = check("vars-alone", &[("prod.pkrvars.hcl", VARS)]);
    assert_eq!(diags, Vec::<String>::new());
}

/// Packer's own functions, beyond Terraform's (`regex_replace`).
#[test]
fn packer_only_functions_are_known() {
    let text = "locals {\n  stamp = regex_replace(timestamp(), \"[- TZ:]\", \"\")\n}\n";
    let (diags, types) = check("functions", &[("build.pkr.hcl", text)]);
    assert_eq!(diags, Vec::<String>::new());
    assert_eq!(types, vec!["build.pkr.hcl:2:3: local.stamp: string"]);
}

/// Packer's single `local "NAME" { expression = … }` block (used for
/// sensitive locals) declares `local.NAME`.
#[test]
fn packer_single_local_blocks_declare_locals() {
    let text = "local \"secret\" {\n  expression = vault(\"secret/data/x\", \"key\")\n  sensitive  = true\n}\nlocals {\n  used = \"${local.secret}-x\"\n}\n";
    let (diags, types) = check("single-local", &[("build.pkr.hcl", text)]);
    assert_eq!(diags, Vec::<String>::new());
    assert!(types.contains(&"build.pkr.hcl:1:7: local.secret: string".to_string()), "{types:?}");
}
