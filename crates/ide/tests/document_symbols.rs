//! Hierarchical document symbols: each symbol as its name, detail and
//! the text its name range covers, children indented.

use expect_test::{expect, Expect};
use fixture::Fixture;
use hcl_types_ide as ide;

fn render(out: &mut String, text: &str, syms: &[ide::OutlineSymbol], depth: usize) {
    for s in syms {
        let detail = s.detail.as_deref().unwrap_or("-");
        out.push_str(&format!(
            "{}{} ({detail}) {:?} [{}]\n",
            "  ".repeat(depth),
            s.name,
            s.kind,
            &text[s.name_range.clone()]
        ));
        render(out, text, &s.children, depth + 1);
    }
}

fn check(text: &str, expect: Expect) {
    let a = Fixture::parse(text).analyse();
    let t = &a.docs[a.doc].file.text;
    let mut got = String::new();
    render(&mut got, t, &ide::document_symbols(&a.analysis, &a.docs, a.doc), 0);
    expect.assert_eq(&got);
}

#[test]
fn declarations_with_nested_blocks_and_arguments() {
    check(
        r#"
variable "n" {
  type = number
  validation {
    condition     = var.n > 0
    error_message = "positive"
  }
}
locals {
  a = 1
}
resource "aws_security_group" "sg" {
  name = "x"
  ingress {
    from_port = 80
  }
  dynamic "egress" {
    content {}
  }
}
output "o" { value = local.a }
"#,
        expect![[r#"
            var.n (number) Declaration(Variable) ["n"]
              type (-) Argument [type]
              validation (-) Block [validation]
                condition (-) Argument [condition]
                error_message (-) Argument [error_message]
            local.a (int) Declaration(Local) [a]
            aws_security_group.sg (any) Declaration(Resource) ["sg"]
              name (-) Argument [name]
              ingress (-) Block [ingress]
                from_port (-) Argument [from_port]
              dynamic (egress) Block [dynamic]
                content (-) Block [content]
            output.o (int) Declaration(Output) ["o"]
              value (-) Argument [value]
        "#]],
    );
}
