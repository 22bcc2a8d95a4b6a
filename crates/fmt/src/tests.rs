//! Cases checked against `terraform fmt`: each expected text is Terraform's
//! output for the input (written with Terraform 1.11's `fmt`; the
//! differential test in tests/terraform/test_fmt.py holds the formatter to
//! 1.15 on thousands more).

use super::*;

fn same(input: &str, want: &str) {
    let got = format(input).unwrap_or_else(|e| panic!("{e} in\n{input}"));
    assert_eq!(got, want, "input:\n{input}");
    assert_eq!(format(&got).unwrap(), got, "not idempotent");
}

fn refused(input: &str) -> Error {
    format(input).expect_err(input)
}

#[test]
fn syntax_errors_are_refused_with_their_place() {
    let e = refused("locals {\n  \"a\" = 1\n}\n");
    assert_eq!((e.line, e.column), (2, 3), "{e}");
    refused("a = \n");
    refused("a = 1\na = 2\n");
    refused("a = [for x inx : x]\n");
    refused("a = \"unterminated\n");
    refused("a = <<EOT\nno end\n");
    refused("block {\n");
    refused("a = 1 }\n");
    refused("x = \"\\q\"\n");
}

#[test]
fn deep_nesting_is_an_error_or_a_result_never_a_crash() {
    for depth in [10usize, 300, 100_000] {
        let text = format!("a = {}1{}\n", "[".repeat(depth), "]".repeat(depth));
        let _ = format(&text);
        let blocks = format!("{}{}", "b {\n".repeat(depth), "}\n".repeat(depth));
        let _ = format(&blocks);
    }
    let shallow = format!("a = {}1{}\n", "[".repeat(10), "]".repeat(10));
    assert_eq!(format(&shallow).unwrap(), shallow);
}

#[test]
fn a_range_is_formatted_in_whole_lines_outside_values() {
    let text = "a=1\nblock {\n  x=1\n  yy = [\n1,\n  ]\n}\n";
    // The `1,` line is inside a value: the whole attribute is formatted.
    let at = text.find("1,").unwrap();
    let e = format_range(text, at..at + 1, Style::Terraform).unwrap().unwrap();
    assert_eq!(&text[e.range.clone()], "  yy = [\n1,\n  ]\n");
    assert_eq!(e.text, "  yy = [\n    1,\n  ]\n");
    // A range in the first line touches only it.
    let e = format_range(text, 0..1, Style::Terraform).unwrap().unwrap();
    assert_eq!((e.range, e.text.as_str()), (0..4, "a = 1\n"));
    // Formatted lines: no edit.
    let done = "a = 1\n";
    assert_eq!(format_range(done, 0..done.len(), Style::Terraform).unwrap(), None);
}

#[test]
fn nested_lone_interpolations_unwrap_one_level_a_run_as_terraform_does() {
    // Terraform's own fmt is not idempotent here: each run unwraps one level.
    let once = format("f = \"${\"${var.x}\"}\"\n").unwrap();
    assert_eq!(once, "f = \"${var.x}\"\n");
    assert_eq!(format(&once).unwrap(), "f = var.x\n");
}

#[test]
fn hclwrite_style_keeps_labels_interpolations_and_types() {
    let text = "variable v {\n  type=\"string\"\n  default=\"${var.x}\"\n}\n";
    let want = "variable v {\n  type    = \"string\"\n  default = \"${var.x}\"\n}\n";
    assert_eq!(format_as(text, Style::Hclwrite).unwrap(), want);
    assert_eq!(Style::of_name("build.pkr.hcl"), Style::Hclwrite);
    assert_eq!(Style::of_name("main.tftest.hcl"), Style::Terraform);
    assert_eq!(Style::of_name("main.tofu"), Style::Terraform);
}

#[test]
fn a_byte_order_mark_is_dropped() {
    same("\u{feff}a=1\n", "a = 1\n");
}

#[test]
fn alignment_groups_broken_by_blank_lines_comments_and_multiline_values() {
    same(
        "a=1\nbbb=2\n\ncc = 3\nd = 4\n# note\neeeee = 5\nf = {\n  x=1\n  yyy=2\n}\ng = 6\n",
        "a   = 1\nbbb = 2\n\ncc = 3\nd  = 4\n# note\neeeee = 5\nf = {\n  x   = 1\n  yyy = 2\n}\ng = 6\n",
    );
}

#[test]
fn nested_blocks_and_indentation() {
    same(
        "resource \"a\" \"b\" {\nname=\"x\"\n    nested {\n  inner {\n  deep = true\n        }\n }\n}\n",
        "resource \"a\" \"b\" {\n  name = \"x\"\n  nested {\n    inner {\n      deep = true\n    }\n  }\n}\n",
    );
}

#[test]
fn heredocs_keep_their_text() {
    same(
        "locals {\n  s = <<EOT\n  keep   this   ${ var.x }\n    as is\nEOT\n  t = <<-EOT\n      indented\n    EOT\n  long_name = 1\n}\n",
        "locals {\n  s         = <<EOT\n  keep   this   ${var.x}\n    as is\nEOT\n  t         = <<-EOT\n      indented\n    EOT\n  long_name = 1\n}\n",
    );
}

#[test]
fn comments_aligned_after_values() {
    same(
        "a = 1 # one\nbbbb = 2 // two\n/* block */\nc = \"x\"   # three\n",
        "a    = 1 # one\nbbbb = 2 // two\n/* block */\nc = \"x\" # three\n",
    );
}

#[test]
fn one_line_blocks() {
    same("a {}\nb {   }\nc { x = 1 }\nd \"l\" {  y  =  \"z\"  }\n", "a {}\nb {}\nc { x = 1 }\nd \"l\" { y = \"z\" }\n");
}

#[test]
fn object_and_tuple_constructors() {
    same(
        "x = {a=1,b=[1,2,3],\"c\"=  {d = -1}}\ny = [ 1 ,2, -3 ,a-1, (b) - 2 ]\nz = {\n  k1 = \"v\"\n  longer_key = [\n    1,\n  2,\n  ]\n}\n",
        "x = { a = 1, b = [1, 2, 3], \"c\" = { d = -1 } }\ny = [1, 2, -3, a-1, (b) - 2]\nz = {\n  k1 = \"v\"\n  longer_key = [\n    1,\n    2,\n  ]\n}\n",
    );
}

#[test]
fn for_expressions_and_splats() {
    same(
        "a = [for x in var.l: x if x!=null]\nb = {for k,v in var.m: k=>v...}\nc = var.l[*].id\nd = var.l.*.id\ne = [for x in [1,2]: x]\n",
        "a = [for x in var.l : x if x != null]\nb = { for k, v in var.m : k => v... }\nc = var.l[*].id\nd = var.l.*.id\ne = [for x in [1, 2] : x]\n",
    );
}

#[test]
fn templates_and_interpolations() {
    same(
        "a = \"${var.x}\"\nb = \"pre-${var.x}\"\nc = \"${ var.a }-${var.b}\"\nd = \"%{ if var.x }yes%{ else }no%{ endif }\"\ne = \"${ {a = 1} }\"\n",
        "a = var.x\nb = \"pre-${var.x}\"\nc = \"${var.a}-${var.b}\"\nd = \"%{if var.x}yes%{else}no%{endif}\"\ne = { a = 1 }\n",
    );
}

#[test]
fn operators_and_unary_minus() {
    same(
        "a = 1+2*3-4/5%6\nb = !var.x&&var.y||var.z\nc = var.x ? -1 : - 2\nd = -var.x\ne = a==b\nf = a>=-1\ng = upper( \"x\" )\nh = provider::aws::arn_parse( \"x\" )\n",
        "a = 1 + 2 * 3 - 4 / 5 % 6\nb = !var.x && var.y || var.z\nc = var.x ? -1 : -2\nd = -var.x\ne = a == b\nf = a >= -1\ng = upper(\"x\")\nh = provider::aws::arn_parse(\"x\")\n",
    );
}

#[test]
fn labels_are_quoted_and_legacy_types_modernised() {
    same(
        "resource aws_instance web {\n}\nvariable \"a\" {\n  type = \"string\"\n}\nvariable \"b\" {\n  type = list\n}\nvariable \"c\" {\n  type = \"map\"\n}\nvariable \"d\" {\n  type = \"list\"\n}\noutput \"o\" {\n  value = \"${var.a}\"\n}\n",
        "resource \"aws_instance\" \"web\" {\n}\nvariable \"a\" {\n  type = string\n}\nvariable \"b\" {\n  type = list(any)\n}\nvariable \"c\" {\n  type = map(string)\n}\nvariable \"d\" {\n  type = list(string)\n}\noutput \"o\" {\n  value = var.a\n}\n",
    );
}

#[test]
fn multiline_interpolation_unwrapped_in_parens() {
    same("a = \"${\n  var.x\n}\"\nb = \"${var.x ? 1 :\n  2}\"\n", "a = var.x\nb = (var.x ? 1 :\n2)\n");
}

#[test]
fn crlf_line_ends_are_kept() {
    same(
        "a=1\r\nbb = 2\r\n# c\r\nblock {\r\n  x = 1\r\n}\r\n",
        "a  = 1\r\nbb = 2\r\n# c\r\nblock {\r\n  x = 1\r\n}\r\n",
    );
}

#[test]
fn no_final_newline_and_trailing_spaces() {
    same("a = 1\nb  =  2   ", "a = 1\nb = 2   ");
}

#[test]
fn tabs_become_spaces() {
    same("block {\n\ta\t=\t1\n\tbb = 2\n}\n", "block {\n  a  = 1\n  bb = 2\n}\n");
}

#[test]
fn unicode_names_align_by_graphemes() {
    same("locals {\n  é = 1\n  ab = 2\n  日本 = 3\n}\n", "locals {\n  é  = 1\n  ab = 2\n  日本 = 3\n}\n");
}

#[test]
fn empty_file() {
    same("", "");
}

#[test]
fn comment_only_lines_are_indented() {
    same(
        "block {\n# top\n      // mid\n  a = 1\n/* end */\n}\n",
        "block {\n  # top\n  // mid\n  a = 1\n  /* end */\n}\n",
    );
}

#[test]
fn brackets_closing_on_the_same_line() {
    same(
        "a = merge({\n  x = 1\n  }, {\n  y = 2\n})\nb = [\n  for x in y : x\n]\n",
        "a = merge({\n  x = 1\n  }, {\n  y = 2\n})\nb = [\n  for x in y : x\n]\n",
    );
}

#[test]
fn labels_with_escapes_and_comments_between() {
    same(
        "x /* c */ \"a\\u00e9\" /* d */ \"b\" {\n}\ny \"p$${q}\" \"ok\" {\n}\n",
        "x \"aé\" \"b\" {\n}\ny \"ok\" {\n}\n",
    );
}

/// Mutations of a tricky text (every deletion of a byte, and seeded
/// insertions of syntax characters): an answer each time, never a panic.
#[test]
fn mutated_inputs_never_panic() {
    let base = "resource a \"b\" {\n  x = \"${var.y}\" # c\n  h = <<-EOT\n    ${z} %{if a}b%{endif}\n  EOT\n  o = { for k, v in m : k => v... }\n  n = [1, -2, a.b[*].c]\n}\nvariable \"v\" { type = list }\n";
    for i in 0..base.len() {
        if base.is_char_boundary(i) && base.is_char_boundary(i + 1) {
            let _ = format(&format!("{}{}", &base[..i], &base[i + 1..]));
        }
    }
    let inserts = [
        "{", "}", "[", "]", "(", ")", "\"", "${", "%{", "~}", "<<EOT\n", "\n", "\r", "#", "/*", "\u{feff}", "é", "$$",
        "\\",
    ];
    let mut seed = 32u64;
    for _ in 0..3000 {
        seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        let mut at = (seed >> 33) as usize % (base.len() + 1);
        while !base.is_char_boundary(at) {
            at -= 1;
        }
        let ins = inserts[(seed >> 20) as usize % inserts.len()];
        let text = format!("{}{}{}", &base[..at], ins, &base[at..]);
        if let Ok(out) = format(&text) {
            let _ = format_range(&text, at..at + 1, Style::Terraform);
            assert!(format(&out).is_ok(), "formatted text refused:\n{out}");
        }
    }
}
