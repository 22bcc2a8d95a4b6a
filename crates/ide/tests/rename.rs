//! Prepare rename and rename: `$0` is the cursor; a rename's expectation
//! is each edited line after the edit, an error its message.

use expect_test::{expect, Expect};
use fixture::Fixture;
use hcl_types_ide as ide;

fn check(text: &str, new_name: &str, expect: Expect) {
    let f = Fixture::parse(text);
    let (owned, m, doc, offset) = f.modules();
    let mods: Vec<ide::Module> = owned
        .iter()
        .map(|(dir, docs)| ide::Module { dir: dir.clone(), docs, editable: !dir.starts_with(".terraform") })
        .collect();
    let got = match ide::rename(&mods, m, doc, offset, new_name) {
        Err(e) => format!("error: {e}\n"),
        Ok(edits) => {
            let mut out = String::new();
            for (path, text) in &f.files {
                let mut mine: Vec<_> = edits.iter().filter(|(p, _, _)| p == path).collect();
                if mine.is_empty() {
                    continue;
                }
                mine.sort_by_key(|(_, r, _)| std::cmp::Reverse(r.start));
                let mut text = text.clone();
                let mut lines = Vec::new();
                for (_, r, new) in &mine {
                    lines.push(text[..r.start].matches('\n').count());
                    text.replace_range(r.clone(), new);
                }
                lines.sort();
                lines.dedup();
                let all: Vec<&str> = text.lines().collect();
                for l in lines {
                    out.push_str(&format!("{}:{}: {}\n", path.display(), l + 1, all[l]));
                }
            }
            out
        }
    };
    expect.assert_eq(&got);
}

#[test]
fn a_module_variable_renames_declaration_uses_tfvars_and_caller_arguments() {
    check(
        r#"
//- net/main.tf
variable "ci$0dr" {}
output "o" { value = var.cidr }
//- net/net.auto.tfvars
cidr = "a"
//- main.tf
module "net" {
  source = "./net"
  cidr   = "b"
}
"#,
        "block",
        expect![[r#"
            net/main.tf:1: variable "block" {}
            net/main.tf:2: output "o" { value = var.block }
            net/net.auto.tfvars:1: block = "a"
            main.tf:3:   block   = "b"
        "#]],
    );
}

#[test]
fn an_output_renames_module_uses_in_the_caller() {
    check(
        r#"
//- main.tf
module "net" {
  source = "./net"
}
output "x" { value = module.net.i$0d }
//- net/main.tf
output "id" { value = 1 }
"#,
        "vpc_id",
        expect![[r#"
            main.tf:4: output "x" { value = module.net.vpc_id }
            net/main.tf:1: output "vpc_id" { value = 1 }
        "#]],
    );
}

#[test]
fn a_resource_renames_its_name_not_its_type() {
    check(
        r#"
resource "aws_vpc" "main" {}
output "x" { value = aws_vpc.ma$0in.id }
"#,
        "primary",
        expect![[r#"
            main.tf:1: resource "aws_vpc" "primary" {}
            main.tf:2: output "x" { value = aws_vpc.primary.id }
        "#]],
    );
}

#[test]
fn refused() {
    let meta = "resource \"aws_vpc\" \"a\" {\n  cou$0nt = 1\n}\n";
    check(meta, "n", expect!["error: `count` is a meta-argument\n"]);
    let module_meta = "module \"m\" {\n  sou$0rce = \"./m\"\n}\n";
    check(module_meta, "n", expect!["error: `source` is a meta-argument\n"]);
    let function = "output \"x\" { value = up$0per(\"a\") }\n";
    check(function, "n", expect!["error: a built-in function cannot be renamed\n"]);
    let type_keyword = "variable \"x\" {\n  type = list(str$0ing)\n}\n";
    check(type_keyword, "n", expect!["error: a type keyword cannot be renamed\n"]);
    let built_in = "output \"x\" { value = path.mod$0ule }\n";
    check(built_in, "n", expect!["error: `path` is built in\n"]);
    let alias = "resource \"aws_vpc\" \"a\" {\n  provider = aws.ea$0st\n}\n";
    check(alias, "n", expect!["error: the name has no declaration in the workspace\n"]);
    let nothing = "variable \"x\" {}\n$0\n";
    check(nothing, "n", expect!["error: there is no symbol to rename here\n"]);
    let bad_name = "variable \"x$0\" {}\n";
    check(bad_name, "1st", expect!["error: `1st` is not a valid identifier\n"]);
    check(bad_name, "a b", expect!["error: `a b` is not a valid identifier\n"]);
}

#[test]
fn refused_inside_a_module_init_installed() {
    // A registry module's copy under .terraform/modules is rewritten by
    // the next `terraform init`: its names are not the user's to rename.
    check(
        r#"
//- main.tf
module "vpc" {
  source = "./.terraform/modules/vpc"
  ci$0dr = "x"
}
//- .terraform/modules/vpc/main.tf
variable "cidr" {}
"#,
        "block",
        expect!["error: the name is declared in a module outside the workspace folders or installed by `init`\n"],
    );
}

#[test]
fn prepare_rename_gives_the_name_range() {
    let f = Fixture::parse("variable \"n\" {}\noutput \"o\" { value = var.n$0 }\n");
    let (owned, m, doc, offset) = f.modules();
    let mods = [ide::Module { dir: owned[m].0.clone(), docs: &owned[m].1, editable: true }];
    let r = ide::prepare_rename(&mods, 0, doc, offset).expect("a symbol");
    assert_eq!(&f.files[0].1[r], "n");
}

/// A name used in a file of Terraform's JSON syntax is not renamed: that
/// file's places come from its lowering and are not exact (analysis.md §7.1).
#[test]
fn a_name_in_a_json_file_is_refused() {
    check(
        r#"
//- variables.tf.json
{"variable": {"region": {"type": "string"}}}
//- main.tf
output "r" { value = var.reg$0ion }
"#,
        "zone",
        expect![[r#"
            error: the name is in a file of Terraform's JSON syntax (`variables.tf.json`), which rename does not edit
        "#]],
    );
}
