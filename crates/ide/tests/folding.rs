//! Folding ranges: each fold is printed as its kind, first and last line
//! (1-based) and its first line's text.

use expect_test::{expect, Expect};
use fixture::Fixture;
use hcl_types_ide as ide;

fn check(text: &str, expect: Expect) {
    let a = Fixture::parse(text).analyse();
    let doc = &a.docs[a.doc];
    let text = &doc.file.text;
    let line = |o: usize| text[..o].matches('\n').count() + 1;
    let got: String = ide::folding_ranges(doc)
        .into_iter()
        .map(|f| {
            let first = text[f.range.clone()].lines().next().unwrap_or("");
            format!("{:?} {}-{} {}\n", f.kind, line(f.range.start), line(f.range.end), first)
        })
        .collect();
    expect.assert_eq(&got);
}

#[test]
fn blocks_nested_blocks_objects_tuples_calls_and_heredocs() {
    check(
        r#"
resource "aws_instance" "web" {
  tags = {
    Name = "web"
  }
  ports = [
    80,
  ]
  user_data = <<-EOT
    echo hi
    echo there
  EOT
  cidr = cidrsubnet(
    "10.0.0.0/16", 8, 1)
  lifecycle {
    ignore_changes = [tags]
  }
  one = { a = 1 }
}
"#,
        expect![[r#"
            Region 1-18 resource "aws_instance" "web" {
            Region 2-4 {
            Region 5-7 [
            Region 8-11 <<-EOT
            Region 12-13 cidrsubnet(
            Region 14-16 lifecycle {
        "#]],
    );
}

#[test]
fn comment_runs_but_not_single_comments_or_heredoc_lines() {
    check(
        r#"
# The network.
# Two lines.
variable "x" {}

// one line only
/*
  block
*/
locals {
  doc = <<EOT
# not a comment
# nor this
EOT
}
"#,
        expect![[r#"
            Comment 1-2 # The network.
            Comment 6-8 /*
            Region 9-14 locals {
            Region 10-13 <<EOT
        "#]],
    );
}

#[test]
fn a_broken_item_folds_nothing_but_the_others_fold() {
    check(
        r#"
locals {
  a = (
}
output "o" {
  value = 1
}
"#,
        expect![[r#"
            Region 4-6 output "o" {
        "#]],
    );
}
