//! Inlay hints: the expectation is the file with each hint written where
//! the editor shows it, as `⟨: type⟩`.

use expect_test::{expect, Expect};
use fixture::Fixture;
use hcl_types_ide as ide;

fn check(text: &str, expect: Expect) {
    let f = Fixture::parse(text);
    let a = f.analyse();
    let mut hints = ide::inlay_hints(&a.analysis, a.doc);
    hints.sort();
    let mut out = a.docs[a.doc].file.text.to_string();
    for (at, label) in hints.iter().rev() {
        out.insert_str(*at, &format!("⟨{label}⟩"));
    }
    expect.assert_eq(&out);
}

#[test]
fn locals_get_their_inferred_types() {
    check(
        r#"
locals {
  n     = 1
  names = ["a", "b"]
  o     = { a = 1, b = true }
}
"#,
        expect![[r#"
            locals {
              n⟨: int⟩     = 1
              names⟨: tuple([string, string])⟩ = ["a", "b"]
              o⟨: object({a = int, b = bool})⟩     = { a = 1, b = true }
            }
        "#]],
    );
}

#[test]
fn an_untyped_output_gets_its_value_type_a_typed_one_does_not() {
    check(
        r#"
output "a" {
  value = [1, 2]
}
output "b" {
  type  = list(number)
  value = [1, 2]
}
"#,
        expect![[r#"
            output "a"⟨: tuple([int, int])⟩ {
              value = [1, 2]
            }
            output "b" {
              type  = list(number)
              value = [1, 2]
            }
        "#]],
    );
}
