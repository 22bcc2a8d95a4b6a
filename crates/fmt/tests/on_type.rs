//! The indentation `terraform fmt` gives a line, read while the text is
//! being typed (it need not parse): what `textDocument/onTypeFormatting`
//! answers. `$0` marks the start of the line asked about.

use hcl_types_fmt as fmt;

fn indent(text: &str) -> Option<usize> {
    let at = text.find("$0").expect("cursor");
    fmt::line_indent(&text.replace("$0", ""), at)
}

#[test]
fn a_new_line_in_a_block_is_indented_one_level() {
    assert_eq!(indent("resource \"a\" \"b\" {\n  x = 1\n$0\n}\n"), Some(2));
}

#[test]
fn a_new_line_in_a_nested_block_that_is_not_closed_yet() {
    // (No closing braces: the user is typing.)
    assert_eq!(indent("resource \"a\" \"b\" {\n  lifecycle {\n$0"), Some(4));
}

#[test]
fn a_closing_brace_goes_back_to_its_blocks_level() {
    assert_eq!(indent("resource \"a\" \"b\" {\n  lifecycle {\n$0        }"), Some(2));
    assert_eq!(indent("resource \"a\" \"b\" {\n  lifecycle {\n  }\n$0}"), Some(0));
}

#[test]
fn the_brackets_of_an_argument_indent_as_fmt_does() {
    assert_eq!(indent("locals {\n  a = [\n$0 1,\n  ]\n}\n"), Some(4));
    assert_eq!(indent("locals {\n  a = [\n    1,\n$0]\n}\n"), Some(2));
}

#[test]
fn a_line_inside_a_heredoc_is_text() {
    assert_eq!(indent("locals {\n  a = <<EOT\n$0  text\nEOT\n}\n"), None);
}

#[test]
fn the_opening_brace_of_the_block_a_brace_closes() {
    let text = "resource \"a\" \"b\" {\n  tags = { a = \"${x}\" }\n  lifecycle {\n  }\n}\n";
    let close = text.find("  }\n}").expect("brace") + 2;
    assert_eq!(fmt::block_start(text, close), text.find("lifecycle {").map(|i| i + 10));
    assert_eq!(fmt::block_start(text, text.len() - 2), Some(text.find('{').expect("brace")));
    assert_eq!(fmt::block_start("}", 0), None);
}
