//! Lowering of Terraform's JSON syntax, judged by hashicorp/terraform's
//! website/docs/language/syntax/json.mdx (its examples are the inputs).

use super::*;

fn lowered(src: &str) -> String {
    let out = lower(src).expect("valid JSON");
    crate::deep::parse_body(&out).unwrap_or_else(|e| panic!("lowered text does not parse: {e}\n{out}"));
    out
}

/// The lowered text without spaces (alignment pads it unevenly).
fn tight(src: &str) -> String {
    lowered(src).replace(' ', "")
}

/// json.mdx "variable blocks": `type` is a type expression, `default` a
/// literal; two labels under one key give two blocks.
#[test]
fn variables_lower_to_blocks_with_bare_types() {
    let src = r#"{
  "variable": {
    "example": {
      "type": "map(string)",
      "default": {"a": "b"}
    },
    "other": {"description": "x"}
  }
}"#;
    let out = lowered(src);
    let t = tight(src);
    assert!(t.contains("variable\"example\"{\ntype=map(string)\ndefault={\"a\"=\"b\"}\n}"), "{out}");
    assert!(t.contains("variable\"other\"{\ndescription=\"x\"\n}"), "{out}");
    // The header pushed the text ahead; the next lines' indentation
    // brought it back: `default` sits at its JSON offset.
    let at = src.find("\"default\"").unwrap();
    assert_eq!(&out[at..at + 7], "default");
}

/// json.mdx "resource and data blocks": two labels; `depends_on` and
/// `provider` hold references; strings elsewhere are templates; a
/// `lifecycle` is a nested block.
#[test]
fn resources_keep_references_and_meta_arguments() {
    let src = r#"{"resource": {"aws_instance": {"web": {
  "ami": "${var.ami}",
  "count": 2,
  "provider": "aws.west",
  "depends_on": ["aws_instance.db"],
  "lifecycle": {"ignore_changes": ["ami"]},
  "ebs_block_device": [{"device_name": "sda"}]
}, "db": {}}}}"#;
    let out = tight(src);
    assert!(
        out.contains("resource\"aws_instance\"\"web\"{\nami=\"${var.ami}\"\ncount=2\nprovider=aws.west\n"),
        "{out}"
    );
    assert!(out.contains("depends_on=[aws_instance.db]\nlifecycle{\nignore_changes=[ami]\n}"), "{out}");
    assert!(out.contains("resource\"aws_instance\"\"db\"{\n}"), "{out}");
    assert!(!out.contains("device_name"), "a possible nested block is left unchecked: {out}");
}

/// A compact, one-line file still lowers to HCL that parses (each
/// attribute on a line of its own).
#[test]
fn one_line_json_lowers_too() {
    let src = r#"{"locals":{"a":"${var.x}","b":[1,2]},"output":{"o":{"value":"${local.a}"}},"module":{"m":{"source":"./m","providers":{"aws":"aws.west"}}}}"#;
    let out = tight(src);
    assert!(out.contains("locals{\na=\"${var.x}\"\nb=[1,2]\n}"), "{out}");
    assert!(out.contains("output\"o\"{\nvalue=\"${local.a}\"\n}"), "{out}");
    assert!(out.contains("providers={\"aws\"=aws.west}"), "{out}");
}

/// json.mdx "Nested Block Mapping": an array of objects is repeated blocks
/// (a provider and its aliases), and its `{` may be on the line below.
#[test]
fn arrays_of_bodies_are_repeated_blocks() {
    let src = "{\"provider\": {\"aws\": [\n  {\"region\": \"a\"},\n  {\"alias\": \"w\"}\n]}}";
    let out = tight(src);
    assert!(out.contains("provider\"aws\"{\nregion=\"a\"\n}"), "{out}");
    assert!(out.contains("provider\"aws\"{\nalias=\"w\"\n}"), "{out}");
    // `region` stays on its JSON line (the second).
    assert_eq!(out.lines().position(|l| l.starts_with("region")), Some(1), "{out}");
}

/// Invalid JSON is one error at the offending byte, never a panic.
#[test]
fn invalid_json_is_an_error_at_its_offset() {
    for (src, at) in [
        ("{\"variable\": {\"a\": {}},}", 23),
        ("{\"a\": tru}", 6),
        ("{\"a\": \"x", 8),
        ("[1]", 0),
        ("", 0),
        ("{} x", 3),
    ] {
        let e = lower(src).expect_err(src);
        assert_eq!(e.offset, at, "{src}: {}", e.message);
    }
    let deep = "[".repeat(100_000);
    assert!(lower(&deep).is_err());
}

/// Every prefix of a file, and the file with any one byte replaced, is
/// read without a panic; what is valid JSON lowers to text that parses
/// unless the damage is inside a string (a type expression `"{ist(string)"`
/// is then a syntax error of the lowered text, at its place).
#[test]
fn damaged_files_never_panic() {
    let src = "{\"variable\": {\"é\": {\"type\": \"list(string)\", \"default\": [\"a\", 1.5e3, null, {\"k\": 1, \"j\": [2, 3]}]}},\n \"resource\": {\"t\": {\"n\": {\"depends_on\": [\"a.b\"], \"lifecycle\": [{\"ignore_changes\": [\"x\"]}]}}},\n \"module\": {\"m\": {\"providers\": {\"aws\": \"aws.w\"}}}}";
    // Whether byte `at` of `src` is inside a string (it has no escapes).
    let in_string = |at: usize| src[..at].matches('"').count() % 2 == 1 || src[at..].starts_with('"');
    let checked = |text: &str, must_parse: bool| {
        if let Ok(out) = lower(text) {
            assert!(!must_parse || crate::deep::parse_body(&out).is_ok(), "{text}\n---\n{out}");
        }
    };
    for end in (0..=src.len()).filter(|&i| src.is_char_boundary(i)) {
        checked(&src[..end], true);
    }
    for at in (0..src.len()).filter(|&i| src.is_char_boundary(i) && src.is_char_boundary(i + 1)) {
        for b in ["{", "}", "[", "]", "\"", ",", ":", "\n", "\\", "x"] {
            checked(&format!("{}{b}{}", &src[..at], &src[at + 1..]), !in_string(at) && b != "\"");
        }
    }
}
