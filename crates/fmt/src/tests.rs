//! Cases checked against `terraform fmt` (the expected texts are its output).

use super::*;

fn same(input: &str, want: &str) {
    let got = format(input).unwrap_or_else(|e| panic!("{e} in\n{input}"));
    assert_eq!(got, want, "input:\n{input}");
    assert_eq!(format(&got).unwrap(), got, "not idempotent");
}

#[test]
fn smoke() {
    same("a=1\nbb = 2\n", "a  = 1\nbb = 2\n");
}
