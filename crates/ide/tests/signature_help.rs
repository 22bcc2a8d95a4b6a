//! Signature help: `$0` is the cursor; the expectation is the signature
//! with the active parameter in brackets.

use expect_test::{expect, Expect};
use fixture::Fixture;
use hcl_types_ide as ide;

fn check(text: &str, expect: Expect) {
    let f = Fixture::parse(text);
    let a = f.analyse();
    let got = match ide::signature_help_with(&a.docs[a.doc], a.offset, &a.analysis.context.symbols) {
        Some(s) => {
            let mut label = s.label.clone();
            if let Some(r) = s.parameters.get(s.active) {
                label.insert(r.end, ']');
                label.insert(r.start, '[');
            }
            format!("{label}\n")
        }
        None => "no signature\n".to_string(),
    };
    expect.assert_eq(&got);
}

#[test]
fn the_first_parameter() {
    check(
        r#"
locals {
  x = join($0)
}
"#,
        expect![[r#"
            join([separator: string], lists: list(string)...) -> string
        "#]],
    );
}

#[test]
fn the_second_parameter_after_a_comma() {
    check(
        r#"
locals {
  x = join(",", $0)
}
"#,
        expect![[r#"
            join(separator: string, [lists: list(string)...]) -> string
        "#]],
    );
}

#[test]
fn a_nested_call_is_the_one_around_the_cursor() {
    check(
        r#"
locals {
  x = join(",", split("/", $0))
}
"#,
        expect![[r#"
            split(separator: string, [str: string]) -> list(string)
        "#]],
    );
}

#[test]
fn none_outside_a_call() {
    check(
        r#"
locals {
  x = $0
}
"#,
        expect![[r#"
            no signature
        "#]],
    );
}

/// A symbol library's function (docs/spec/opentofu-symbol-libraries.md
/// §3; the blog post's `hello`, https://github.com/opentofu/opentofu.org/pull/439):
/// its declared parameters and return type.
#[test]
fn a_symbol_library_function() {
    check(
        &fixture::with_symbol_library("output \"o\" {\n  value = symbols::lib::hello($0)\n}"),
        expect![[r#"
            symbols::lib::hello([name: string]) -> string
        "#]],
    );
}
