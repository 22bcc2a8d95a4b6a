//! Semantic tokens of type expressions: the expectation lists each token's
//! text and kind.

use expect_test::{expect, Expect};
use fixture::Fixture;
use hcl_types_ide as ide;

fn check(text: &str, expect: Expect) {
    let f = Fixture::parse(text);
    let a = f.analyse();
    let text = &a.docs[a.doc].file.text;
    let got: String = ide::semantic_tokens(&a.analysis, a.doc)
        .into_iter()
        .map(|(r, kind)| format!("{kind:?} {}\n", &text[r]))
        .collect();
    expect.assert_eq(&got);
}

#[test]
fn constructors_and_attribute_names_of_a_variable_type() {
    check(
        r#"
variable "x" {
  type = map(object({ name = string, tags = optional(list(string), []) }))
}
"#,
        expect![[r#"
            Function map
            Function object
            Property name
            Type string
            Property tags
            Function optional
            Function list
            Type string
        "#]],
    );
}

#[test]
fn the_type_of_a_typed_output() {
    check(
        r#"
output "x" {
  type  = list(number)
  value = [1]
}
"#,
        expect![[r#"
            Function list
            Type number
        "#]],
    );
}

#[test]
fn the_type_argument_of_convert() {
    check(
        r#"
locals {
  c = convert({ a = 1 }, map(object({ a = string })))
}
"#,
        expect![[r#"
            Function map
            Function object
            Property a
            Type string
        "#]],
    );
}
