//! Hostile inputs to the type layer and the calculator: each must end in
//! bounded time with an error, never a panic or a stack overflow.

use std::os::unix::ffi::OsStrExt;
use std::process::Command;

use hcl_types::syntax::diagnostic::Code;
use hcl_types::syntax::typeexpr::{parse_type_str, TypeContext};
use hcl_types::syntax::Dialect;
use hcl_types::types::{convert, unify, Type, MAX_DEPTH};

fn hcl() -> TypeContext {
    TypeContext::new(Dialect::Hcl)
}

#[test]
fn type_nested_100000_deep_is_an_error() {
    for ctor in ["list(", "object({a = ", "tuple([", "union(int, "] {
        let close = match ctor {
            "object({a = " => "})",
            "tuple([" => "])",
            _ => ")",
        };
        let text = format!("{}string{}", ctor.repeat(100_000), close.repeat(100_000));
        let parsed = parse_type_str(&text, hcl());
        assert!(parsed.has_errors(), "{ctor}: nesting should be rejected");
        assert!(parsed.declared.is_any());
        assert!(parsed.diagnostics[0].message.contains("nesting"), "{:?}", parsed.diagnostics[0].message);
    }
}

/// `t` inside `n` lists.
fn lists(t: Type, n: usize) -> Type {
    (0..n).fold(t, |t, _| Type::list(t))
}

#[test]
fn types_built_deeper_than_the_limit_collapse_to_any() {
    // Inference can build types by composition (chains of locals), not only
    // by parsing: constructors must stop at MAX_DEPTH.
    let limit = MAX_DEPTH as usize;
    let mut t = Type::string();
    for i in 1..=10_000 {
        t = Type::list(t);
        assert!(t.depth() <= MAX_DEPTH, "after {i} lists");
        // The wrapping that would pass the limit gives `any`, which the
        // next ones wrap again.
        assert_eq!(t.is_any(), i % limit == 0, "after {i} lists: depth {}", t.depth());
    }
    // The deepest type there is: MAX_DEPTH - 1 lists around a leaf.
    let deepest = lists(Type::string(), limit - 1);
    assert_eq!(deepest.depth(), MAX_DEPTH);
    assert!(Type::list(deepest.clone()).is_any());
    assert_eq!(convert(&deepest, &deepest), hcl_types::types::Safety::Safe);
    let text = format!("{}string{}", "list(".repeat(limit - 1), ")".repeat(limit - 1));
    assert_eq!(deepest.to_string(), text);

    // Unification within the limit keeps the structure: the lists pair up
    // until a list meets `number`, which makes a union (one level deeper).
    let (u, safety) = unify(&lists(Type::string(), limit - 2), &Type::list(Type::number()));
    let inner = lists(Type::string(), limit - 3);
    assert_eq!(u, Type::list(Type::union([inner.clone(), Type::number()])));
    assert_eq!(u.depth(), MAX_DEPTH);
    assert_eq!(safety, hcl_types::types::Safety::Safe);
    assert_eq!(u.to_string(), format!("list(union({inner}, number))"));
    // The same from the deepest type would pass the limit: `any`.
    let (u, _) = unify(&deepest, &Type::list(Type::number()));
    assert!(u.is_any(), "{u}");
}

#[test]
fn ten_thousand_digit_default_is_an_int_precision_error() {
    let digits = "7".repeat(10_000);
    let text = format!("object({{a = optional(number, {digits})}})");
    let parsed = parse_type_str(&text, hcl());
    let d = parsed.diagnostics.iter().find(|d| d.code == Code::IntPrecision).expect("int-precision diagnostic");
    assert_eq!(&text[d.range.clone()], digits, "the diagnostic covers exactly the literal");
    assert_eq!(parsed.declared.to_string(), "object({a = union(none, number)})");
}

#[test]
fn largest_supported_int_is_exact() {
    // 2^4096 - 1 has 1234 digits and fits; 2^4096 does not.
    let max = (num_bigint::BigInt::from(1) << 4096u32) - 1;
    let fits = format!("object({{a = optional(int, {max})}})");
    assert!(!parse_type_str(&fits, hcl()).has_errors());
    let over = format!("object({{a = optional(int, {})}})", max + 1);
    assert!(parse_type_str(&over, hcl()).diagnostics.iter().any(|d| d.code == Code::IntPrecision));
}

#[test]
fn empty_and_blank_types_are_errors() {
    for text in ["", "   ", "\n", "\u{feff}"] {
        let parsed = parse_type_str(text, hcl());
        assert!(parsed.has_errors(), "{text:?}");
    }
}

fn calculator(args: &[&std::ffi::OsStr]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_hcl-types")).args(args).output().expect("run hcl-types")
}

#[test]
fn non_utf8_argument_is_a_usage_error() {
    let bad = std::ffi::OsStr::from_bytes(b"list(\xff\xfe)");
    let out = calculator(&["type".as_ref(), "normalize".as_ref(), bad]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("UTF-8"));
}

#[test]
fn invalid_type_exits_1_with_error_lines() {
    let out = calculator(&["type".as_ref(), "normalize".as_ref(), "list(strin)".as_ref()]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.starts_with("error: ") && err.contains("did you mean `string`"), "{err}");
    assert!(out.stdout.is_empty());
}

#[test]
fn options_may_follow_positionals() {
    let out = calculator(&[
        "type".as_ref(),
        "normalize".as_ref(),
        "int".as_ref(),
        "--dialect".as_ref(),
        "terraform".as_ref(),
    ]);
    assert_eq!(out.status.code(), Some(1), "int is not terraform");
    let out = calculator(&["type".as_ref(), "unify".as_ref(), "bool".as_ref(), "number".as_ref(), "--raw".as_ref()]);
    assert_eq!(String::from_utf8_lossy(&out.stdout), "number\tunsafe\n");
}
