//! Code actions (lsp.md, "Code actions"): each fixture's action applied,
//! every file it edits (or creates) printed after the edit. `$0` marks
//! the cursor; a selection is the text between `«` and `»`.

use std::collections::BTreeMap;
use std::path::PathBuf;

use expect_test::{expect, Expect};
use fixture::Fixture;
use hcl_types_ide as ide;
use ide::Action;

/// Each edited file of the fixture after `action`, with the title.
fn applied(f: &Fixture, action: Option<Action>) -> String {
    let Some(action) = action else { return "no action\n".into() };
    let mut per_file: BTreeMap<PathBuf, Vec<ide::FileEdit>> = BTreeMap::new();
    for e in action.edits {
        per_file.entry(e.path.clone()).or_default().push(e);
    }
    let mut out = format!("{} ({:?})\n", action.title, action.kind);
    for (path, mut edits) in per_file {
        let mut text =
            f.files.iter().find(|(p, _)| p.file_name() == path.file_name()).map(|(_, t)| t.clone()).unwrap_or_default();
        edits.sort_by_key(|e| std::cmp::Reverse(e.range.start));
        for e in edits {
            text.replace_range(e.range.clone(), &e.text);
        }
        out.push_str(&format!("//- {}\n{text}", path.file_name().unwrap().to_string_lossy()));
    }
    out
}

/// The quick fix of the diagnostic with `code` in the cursor's file.
fn fix(text: &str, code: &str, expect: Expect) {
    let f = Fixture::parse(text);
    let mut a = f.analyse();
    let d = a.analysis.diagnostics[a.doc].iter().find(|d| d.code.as_str() == code).cloned();
    let action = d.and_then(|d| match d.code.as_str() {
        "undefined-reference" => ide::declare_variable(&d, &a.docs, a.doc, &mut a.memo),
        _ => ide::remove_unused(&d, &a.docs, a.doc, &[]),
    });
    expect.assert_eq(&applied(&f, action));
}

#[test]
fn an_unused_variable_is_removed() {
    fix(
        r#"
variable "used" { type = string }

variable "unused" {
  type = string
}

output "o" { value = var.used }
"#,
        "unused-variable",
        expect![[r#"
            Remove `var.unused` (QuickFix)
            //- main.tf
            variable "used" { type = string }

            output "o" { value = var.used }
        "#]],
    );
}

#[test]
fn a_variable_a_tfvars_file_sets_is_not_removed() {
    fix(
        r#"
//- main.tf
variable "unused" { type = string }
//- terraform.tfvars
unused = "x"
"#,
        "unused-variable",
        expect![[r#"
            no action
        "#]],
    );
}

#[test]
fn an_unused_local_is_removed_and_its_block_with_the_last() {
    fix(
        r#"
locals {
  a = 1
  b = 2
}
output "o" { value = local.a }
"#,
        "unused-local",
        expect![[r#"
            Remove `local.b` (QuickFix)
            //- main.tf
            locals {
              a = 1
            }
            output "o" { value = local.a }
        "#]],
    );
    fix(
        r#"
locals {
  b = 2
}
output "o" { value = 1 }
"#,
        "unused-local",
        expect![[r#"
            Remove `local.b` (QuickFix)
            //- main.tf
            output "o" { value = 1 }
        "#]],
    );
}

#[test]
fn an_unused_data_source_and_provider_are_removed() {
    fix(
        r#"
data "aws_ami" "a" {}
output "o" { value = 1 }
"#,
        "unused-data",
        expect![[r#"
            Remove `data.aws_ami.a` (QuickFix)
            //- main.tf
            output "o" { value = 1 }
        "#]],
    );
    fix(
        r#"
terraform {
  required_providers {
    aws  = { source = "hashicorp/aws" }
    null = { source = "hashicorp/null" }
  }
}
resource "aws_vpc" "v" {}
"#,
        "unused-provider",
        expect![[r#"
            Remove the provider `null` (QuickFix)
            //- main.tf
            terraform {
              required_providers {
                aws  = { source = "hashicorp/aws" }
              }
            }
            resource "aws_vpc" "v" {}
        "#]],
    );
}

/// The declaration takes the type the use expects: `upper`'s parameter
/// is a string, `count` a number; it goes in `variables.tf` when the
/// module has one.
#[test]
fn a_missing_variable_is_declared_with_the_type_its_use_expects() {
    fix(
        r#"
output "o" { value = upper(var.name) }
"#,
        "undefined-reference",
        expect![[r#"
            Declare `variable "name"` (string) (QuickFix)
            //- main.tf
            output "o" { value = upper(var.name) }

            variable "name" {
              type = string
            }
        "#]],
    );
    fix(
        r#"
//- main.tf
resource "null_resource" "r" {
  count = var.n$0
}
//- variables.tf
variable "other" {
  type = string
}
"#,
        "undefined-reference",
        expect![[r#"
            Declare `variable "n"` (number) (QuickFix)
            //- variables.tf
            variable "other" {
              type = string
            }

            variable "n" {
              type = number
            }
        "#]],
    );
}

/// Extraction: the selected text (between `«` and `»`) becomes a local.
fn extract(text: &str, expect: Expect) {
    let (start, end) = (text.find('«').unwrap(), text.find('»').unwrap());
    let plain = text.replace(['«', '»'], "");
    let f = Fixture::parse(&plain);
    let mut a = f.analyse();
    // (Offsets in the fixture's file: its text starts after the leading newline.)
    let shift = plain.len() - a.docs[a.doc].file.text.len();
    let sel = start - shift..end - '«'.len_utf8() - shift;
    let action = ide::extract_local(&a.docs, a.doc, sel, &mut a.memo);
    expect.assert_eq(&applied(&f, action));
}

#[test]
fn an_expression_is_extracted_to_a_local() {
    extract(
        r#"
variable "names" { type = list(string) }
resource "null_resource" "r" {
  triggers = { joined = «join(",", var.names)» }
}
"#,
        expect![[r#"
            Extract to `local.join` (string) (RefactorExtract)
            //- main.tf
            variable "names" { type = list(string) }
            locals {
              join = join(",", var.names)
            }

            resource "null_resource" "r" {
              triggers = { joined = local.join }
            }
        "#]],
    );
    extract(
        r#"
locals {
  a = 1
}
output "o" {
  value = «local.a + 1»
}
"#,
        expect![[r#"
            Extract to `local.value` (int) (RefactorExtract)
            //- main.tf
            locals {
              a = 1
              value = local.a + 1
            }
            output "o" {
              value = local.value
            }
        "#]],
    );
}

#[test]
fn an_expression_reading_each_or_a_for_variable_is_not_extracted() {
    extract(
        r#"
resource "null_resource" "r" {
  for_each = toset(["a"])
  triggers = { k = «upper(each.key)» }
}
"#,
        expect![[r#"
            no action
        "#]],
    );
    extract(
        r#"
output "o" { value = [for s in ["a"] : «upper(s)»] }
"#,
        expect![[r#"
            no action
        "#]],
    );
}

fn convert(text: &str, expect: Expect) {
    let f = Fixture::parse(text);
    let mut a = f.analyse();
    let action = ide::count_to_for_each(&a.docs, a.doc, a.offset, &mut a.memo);
    expect.assert_eq(&applied(&f, action));
}

#[test]
fn count_over_a_list_of_strings_becomes_for_each() {
    convert(
        r#"
variable "names" { type = list(string) }
resource "null_resource" "r" {
  count$0 = length(var.names)
  triggers = { name = var.names[count.index] }
}
output "ids" { value = null_resource.r[*].id }
"#,
        expect![[r#"
            Convert `count` to `for_each` (instances get new addresses: add `moved` blocks to keep them) (RefactorRewrite)
            //- main.tf
            variable "names" { type = list(string) }
            resource "null_resource" "r" {
              for_each = toset(var.names)
              triggers = { name = each.value }
            }
            output "ids" { value = values(null_resource.r)[*].id }
        "#]],
    );
}

#[test]
fn count_with_other_uses_or_a_list_of_objects_is_left() {
    convert(
        r#"
variable "names" { type = list(string) }
resource "null_resource" "r" {
  count$0 = length(var.names)
  triggers = { i = count.index }
}
"#,
        expect![[r#"
            no action
        "#]],
    );
    convert(
        r#"
variable "objs" { type = list(object({ a = string })) }
resource "null_resource" "r" {
  count$0 = length(var.objs)
  triggers = { a = var.objs[count.index].a }
}
"#,
        expect![[r#"
            no action
        "#]],
    );
    convert(
        r#"
variable "names" { type = list(string) }
resource "null_resource" "r" {
  count$0 = length(var.names)
}
output "first" { value = null_resource.r[0].id }
"#,
        expect![[r#"
            no action
        "#]],
    );
}

#[test]
fn variables_and_outputs_move_to_their_files() {
    let f = Fixture::parse(
        r#"
//- main.tf
# The region.
variable "region" {
  type = string
}

resource "null_resource" "r" {}

output "id" { value = null_resource.r.id }
//- outputs.tf
output "other" { value = 1 }
"#,
    );
    let a = f.analyse();
    let got: String = ide::move_blocks(&a.docs, a.doc).into_iter().map(|m| applied(&f, Some(m))).collect();
    expect![[r#"
        Move the variables of this file to variables.tf (RefactorMove)
        //- main.tf
        resource "null_resource" "r" {}

        output "id" { value = null_resource.r.id }
        //- variables.tf
        # The region.
        variable "region" {
          type = string
        }
        Move the outputs of this file to outputs.tf (RefactorMove)
        //- main.tf
        # The region.
        variable "region" {
          type = string
        }

        resource "null_resource" "r" {}

        //- outputs.tf
        output "other" { value = 1 }

        output "id" { value = null_resource.r.id }
    "#]]
    .assert_eq(&got);
}

/// Every action adding a missing argument of the cursor's module's calls
/// (issue 44.4), each applied.
fn add_arguments(text: &str, expect: Expect) {
    let f = Fixture::parse(text);
    let a = f.analyse();
    let ds: Vec<_> = a.analysis.diagnostics[a.doc].iter().filter(|d| d.code.as_str() == "missing-argument").collect();
    let actions = ide::add_arguments(&ds, &a.docs, a.doc, a.memo.context());
    let out: String = actions.into_iter().map(|x| applied(&f, Some(x))).collect();
    expect.assert_eq(if out.is_empty() { "no action\n" } else { &out });
}

/// A placeholder of each variable's declared type, indented as the
/// block's arguments, before its closing brace; "add all" when several.
#[test]
fn a_missing_argument_of_a_module_call_is_added_with_a_placeholder() {
    add_arguments(
        r#"
//- main.tf
module "net" {
    source = "./net"
}
//- net/main.tf
variable "name" { type = string }
variable "n" { type = number }
variable "on" { type = bool }
variable "zones" { type = list(string) }
variable "tags" { type = map(string) }
variable "cfg" {
  type = object({ a = string, b = optional(number), c = tuple([number, bool]) })
}
variable "x" {}
variable "y" {
  nullable = false
}
variable "ok" {
  type    = string
  default = "set"
}
"#,
        expect![[r#"
            Add argument `name = ""` (QuickFix)
            //- main.tf
            module "net" {
                source = "./net"
                name = ""
            }
            Add argument `n = 0` (QuickFix)
            //- main.tf
            module "net" {
                source = "./net"
                n = 0
            }
            Add argument `on = false` (QuickFix)
            //- main.tf
            module "net" {
                source = "./net"
                on = false
            }
            Add argument `zones = []` (QuickFix)
            //- main.tf
            module "net" {
                source = "./net"
                zones = []
            }
            Add argument `tags = {}` (QuickFix)
            //- main.tf
            module "net" {
                source = "./net"
                tags = {}
            }
            Add argument `cfg = { a = "", c = [0, false] }` (QuickFix)
            //- main.tf
            module "net" {
                source = "./net"
                cfg = { a = "", c = [0, false] }
            }
            Add argument `x = null` (QuickFix)
            //- main.tf
            module "net" {
                source = "./net"
                x = null
            }
            Add argument `y = ""` (QuickFix)
            //- main.tf
            module "net" {
                source = "./net"
                y = ""
            }
            Add all 8 missing arguments (QuickFix)
            //- main.tf
            module "net" {
                source = "./net"
                name = ""
                n = 0
                on = false
                zones = []
                tags = {}
                cfg = { a = "", c = [0, false] }
                x = null
                y = ""
            }
        "#]],
    );
}

/// A one-line call is opened up; a nested call keeps its indentation.
#[test]
fn a_missing_argument_opens_a_one_line_call() {
    add_arguments(
        r#"
//- main.tf
module "net" { source = "./net" }
//- net/main.tf
variable "name" { type = string }
"#,
        expect![[r#"
            Add argument `name = ""` (QuickFix)
            //- main.tf
            module "net" {
              source = "./net"
              name = ""
            }
        "#]],
    );
    add_arguments(
        r#"
//- main.tf
module "net" {
  source = "./net"
  other  = 1 }
//- net/main.tf
variable "name" { type = string }
variable "other" { type = number }
"#,
        expect![[r#"
            no action
        "#]],
    );
}

/// The quick fix of a sensitive value reaching a root output: the output
/// is declared sensitive (a one-line block opened up).
#[test]
fn an_output_of_a_sensitive_value_is_marked_sensitive() {
    let f = Fixture::parse(
        "variable \"pw\" {\n  type      = string\n  sensitive = true\n}\noutput \"o\" { value = var.pw }\n",
    );
    let a = f.analyse();
    let d = a.analysis.diagnostics[a.doc].iter().find(|d| d.code.as_str() == "sensitive-output").cloned();
    let action = d.and_then(|d| ide::mark_sensitive(&d, &a.docs, a.doc));
    expect![[r#"
        Add `sensitive = true` (QuickFix)
        //- main.tf
        variable "pw" {
          type      = string
          sensitive = true
        }
        output "o" {
          value = var.pw
          sensitive = true
        }
    "#]]
    .assert_eq(&applied(&f, action));
}

/// Issue 44.3: an output of a called module that no known caller reads
/// (its callers read only `read`) is removed whole; the cursor is on it.
#[test]
fn an_output_no_caller_reads_is_removed() {
    let f = Fixture::parse(
        r#"
output "read" { value = 1 }

output "unread$0" {
  value = 2
}
"#,
    );
    let mut a = f.analyse();
    let set = |names: &[&str]| Some(std::sync::Arc::new(names.iter().map(|n| n.to_string()).collect()));
    let context = analysis::Context { passed: set(&[]), read_outputs: set(&["read"]), ..a.memo.context().clone() };
    a.memo.set_context(context);
    let analysis = a.memo.analysis(&a.docs);
    let at = |d: &&syntax::diagnostic::Diagnostic| d.range.contains(&a.offset) && d.code.as_str() == "unused-output";
    let action = analysis.diagnostics[a.doc].iter().find(at).and_then(|d| ide::remove_unused(d, &a.docs, a.doc, &[]));
    expect![[r#"
        Remove the output `unread` (QuickFix)
        //- main.tf
        output "read" { value = 1 }

    "#]]
    .assert_eq(&applied(&f, action));
}
