//! The `moved` block a rename of a resource or module call offers (lsp.md,
//! rename): appended to the file that declares it, from the old address
//! to the new. `$0` is the cursor (on the declaration or a reference).

use expect_test::{expect, Expect};
use fixture::Fixture;
use hcl_types_ide as ide;

fn check(text: &str, new_name: &str, expect: Expect) {
    let f = Fixture::parse(text);
    let (owned, m, doc, offset) = f.modules();
    let mods: Vec<ide::Module> =
        owned.iter().map(|(dir, docs)| ide::Module { dir: dir.clone(), docs, editable: true }).collect();
    let got = match ide::moved_block(&mods, m, doc, offset, new_name) {
        None => "none\n".to_string(),
        Some((path, range, text)) => {
            let (_, old) = f.files.iter().find(|(p, _)| p.file_name() == path.file_name()).unwrap();
            let mut new = old.clone();
            new.replace_range(range, &text);
            format!("//- {}\n{new}", path.file_name().unwrap().to_string_lossy())
        }
    };
    expect.assert_eq(&got);
}

#[test]
fn a_renamed_resource_gets_a_moved_block_in_its_file() {
    check(
        r#"
//- main.tf
resource "aws_s3_bucket" "lo$0gs" {}
//- outputs.tf
output "id" { value = aws_s3_bucket.logs.id }
"#,
        "audit",
        expect![[r#"
            //- main.tf
            resource "aws_s3_bucket" "logs" {}

            moved {
              from = aws_s3_bucket.logs
              to   = aws_s3_bucket.audit
            }
        "#]],
    );
}

#[test]
fn a_module_call_renamed_from_a_reference_gets_one_too() {
    check(
        r#"
//- main.tf
module "net" {
  source = "./net"
}
//- outputs.tf
output "id" { value = module.n$0et.id }
//- net/main.tf
output "id" { value = "x" }
"#,
        "network",
        expect![[r#"
            //- main.tf
            module "net" {
              source = "./net"
            }

            moved {
              from = module.net
              to   = module.network
            }
        "#]],
    );
}

#[test]
fn variables_data_sources_and_unchanged_names_get_none() {
    check("variable \"r$0\" {}\n", "s", expect!["none\n"]);
    check("data \"aws_ami\" \"u$0\" {}\n", "v", expect!["none\n"]);
    check("resource \"aws_vpc\" \"v$0\" {}\n", "v", expect!["none\n"]);
}
