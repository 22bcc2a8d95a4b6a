//! Selection ranges: each step of the expansion from `$0`, innermost
//! first, as its text (newlines shown as `⏎`).

use expect_test::{expect, Expect};
use fixture::Fixture;
use hcl_types_ide as ide;

fn check(text: &str, expect: Expect) {
    let a = Fixture::parse(text).analyse();
    let doc = &a.docs[a.doc];
    let text = &doc.file.text;
    let got: String =
        ide::selection_ranges(doc, a.offset).into_iter().map(|r| format!("{}\n", text[r].replace('\n', "⏎"))).collect();
    expect.assert_eq(&got);
}

#[test]
fn from_a_word_out_to_the_file() {
    check(
        r#"
resource "aws_instance" "web" {
  tags = merge(var.tags, { Name = upper(var.na$0me) })
}
"#,
        expect![[r#"
            name
            var.name
            upper(var.name)
            Name = upper(var.name)
            { Name = upper(var.name) }
            merge(var.tags, { Name = upper(var.name) })
            tags = merge(var.tags, { Name = upper(var.name) })
            resource "aws_instance" "web" {⏎  tags = merge(var.tags, { Name = upper(var.name) })⏎}
            resource "aws_instance" "web" {⏎  tags = merge(var.tags, { Name = upper(var.name) })⏎}⏎
        "#]],
    );
}

#[test]
fn nested_blocks_and_their_bodies() {
    check(
        r#"
resource "x" "y" {
  lifecycle {
    create_before_destroy = tr$0ue
    prevent_destroy       = false
  }
}
"#,
        expect![[r#"
            true
            create_before_destroy = true
            create_before_destroy = true⏎    prevent_destroy       = false
            lifecycle {⏎    create_before_destroy = true⏎    prevent_destroy       = false⏎  }
            resource "x" "y" {⏎  lifecycle {⏎    create_before_destroy = true⏎    prevent_destroy       = false⏎  }⏎}
            resource "x" "y" {⏎  lifecycle {⏎    create_before_destroy = true⏎    prevent_destroy       = false⏎  }⏎}⏎
        "#]],
    );
}
