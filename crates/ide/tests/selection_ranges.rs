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

#[test]
fn an_offset_inside_a_character_or_past_the_end_does_not_panic() {
    let a = Fixture::parse("locals {\n  s = \"é\"\n}\n").analyse();
    let doc = &a.docs[a.doc];
    let inside = doc.file.text.find('é').map_or(0, |i| i + 1);
    let chain = ide::selection_ranges(doc, inside);
    assert_eq!(chain.last(), Some(&(0..doc.file.text.len())));
    assert_eq!(ide::selection_ranges(doc, 10_000).last(), Some(&(0..doc.file.text.len())));
}
