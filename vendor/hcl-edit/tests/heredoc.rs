//! Heredoc closing lines as HCL's scanner finds them: a line that holds the
//! delimiter and nothing else but whitespace.

use hcl_edit::expr::Expression;
use hcl_edit::parser::parse_body;
use hcl_edit::structure::Body;
use indoc::indoc;
use pretty_assertions::assert_eq;

fn attribute_names(body: &Body) -> Vec<&str> {
    body.attributes().map(|a| a.key.as_str()).collect()
}

fn heredoc_text(body: &Body, name: &str) -> String {
    match &body.get_attribute(name).unwrap().value {
        Expression::HeredocTemplate(h) => h.template.to_string(),
        other => panic!("{name} is not a heredoc: {other:?}"),
    }
}

#[test]
fn empty_heredoc_with_indented_closing_line() {
    let input = indoc! {r#"
        a = <<EOT
          EOT
        b = 1
        c = <<EOT
        y
        EOT
    "#};
    let body = parse_body(input).unwrap();
    assert_eq!(attribute_names(&body), ["a", "b", "c"]);
    assert_eq!(heredoc_text(&body, "a"), "");
    assert_eq!(heredoc_text(&body, "c"), "y\n");
    assert_eq!(body.to_string(), input);
}

#[test]
fn empty_indented_heredoc() {
    let body = parse_body("a = <<-EOT\n    EOT\nb = 2\n").unwrap();
    assert_eq!(attribute_names(&body), ["a", "b"]);
    assert_eq!(heredoc_text(&body, "a"), "");
}

#[test]
fn delimiter_followed_by_text_is_content() {
    let input = indoc! {r#"
        a = <<-EOT
          hello
          EOT is not the end
          EOT)
          EOT
        b = 1
    "#};
    let body = parse_body(input).unwrap();
    assert_eq!(attribute_names(&body), ["a", "b"]);
    assert_eq!(
        heredoc_text(&body, "a"),
        "hello\nEOT is not the end\nEOT)\n"
    );
}

#[test]
fn closing_line_with_trailing_whitespace() {
    let body = parse_body("a = <<EOT\nx\nEOT  \t\nb = 1\n").unwrap();
    assert_eq!(attribute_names(&body), ["a", "b"]);
    assert_eq!(heredoc_text(&body, "a"), "x\n");
    let body = parse_body("a = <<EOT\r\nx\r\n  EOT\r\nb = 1\r\n").unwrap();
    assert_eq!(attribute_names(&body), ["a", "b"]);
}

#[test]
fn closing_line_at_end_of_input() {
    let body = parse_body("a = <<EOT\nEOT").unwrap();
    assert_eq!(heredoc_text(&body, "a"), "");
    let body = parse_body("a = <<EOT\nx\n  EOT").unwrap();
    assert_eq!(heredoc_text(&body, "a"), "x\n");
}

#[test]
fn unterminated_heredoc_is_an_error() {
    assert!(parse_body("a = <<EOT\nx\nEOT2\n").is_err());
    assert!(parse_body("a = <<EOT\nx\nEOT)\n").is_err());
}
