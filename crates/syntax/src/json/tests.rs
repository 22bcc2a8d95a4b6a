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
    // A possible nested block is a value; the analysis follows the schema.
    assert!(out.contains("ebs_block_device=[{\"device_name\"=\"sda\"}]"), "{out}");
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
        if let Ok(l) = lower_mapped(text) {
            let out = &l.text;
            assert!(!must_parse || crate::deep::parse_body(out).is_ok(), "{text}\n---\n{out}");
            // Every offset of either text maps inside the other.
            assert!((0..=out.len()).all(|o| l.map.to_source(o) <= text.len()), "{text}");
            assert!((0..=text.len()).all(|j| l.map.to_lowered(j) <= out.len()), "{text}");
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

/// RFC 8259 §7 escapes are decoded before the string is read as a
/// template (hashicorp/hcl json/spec.md, "Template Expressions"): `\/`,
/// `\b`, `\f`, `\uXXXX` and surrogate pairs, which native HCL lacks or
/// spells otherwise, and `\"` inside `${…}` (a plain quote there).
#[test]
fn json_escapes_are_decoded_before_the_template_is_read() {
    let src = r#"{"locals": {
  "a": "x\/y\b\f\u00e9\ud83d\ude00\ud800z",
  "b": "${jsonencode(\"q\")} \"lit\" \\",
  "c": "\u0024{var.v}$${not}",
  "d\/e": 1
}, "variable": {"n\/m": {"type": "list(string)"}}}"#;
    let out = lowered(src);
    assert!(out.contains(r#""x/y\u0008\u000cé😀�z""#), "{out}");
    assert!(out.contains(r#""${jsonencode("q")} \"lit\" \\""#), "{out}");
    assert!(out.contains(r#""${var.v}$${not}""#), "{out}");
    assert!(out.contains(r#"variable "n/m" {"#), "{out}");
}

/// A bad escape is one error at its backslash (or at the `\u` escape's
/// start), never a panic.
#[test]
fn bad_escapes_are_errors_at_their_place() {
    for (src, at) in [(r#"{"a": "x\q"}"#, 8), (r#"{"a": "\u12"}"#, 7), (r#"{"a\x": 1}"#, 3), (r#"{"a": "\"#, 7)] {
        let e = lower(src).expect_err(src);
        assert_eq!(e.offset, at, "{src}: {}", e.message);
    }
}

/// Deterministic pseudo-random numbers (no dependency for one test).
struct Lcg(u64);
impl Lcg {
    fn next(&mut self, n: u64) -> u64 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (self.0 >> 33) % n
    }
}

/// Generated modules, pretty and minified, with multi-byte characters
/// and escapes ahead of the names: every name (an attribute, a label, a
/// reference inside a template) maps to the same name in the lowering and
/// back to its JSON offset. One-line files were where lines drifted.
#[test]
fn every_name_maps_to_its_lowering_and_back() {
    let mut rng = Lcg(29);
    for case in 0..300 {
        let mut names = Vec::new();
        let mut name = |kind: &str| {
            let n = format!("{kind}{}x{case}", names.len());
            names.push(n.clone());
            n
        };
        let junk = ["\"é\"", "\"\\u00e9\\/\\b\"", "1.5e3", "[1, \"ü\"]", "{\"k\": \"\\ud83d\\ude00\"}", "null"];
        let mut blocks = Vec::new();
        for _ in 0..1 + rng.next(3) {
            let mut attrs = Vec::new();
            for _ in 0..1 + rng.next(4) {
                let value = match rng.next(3) {
                    0 => junk[rng.next(junk.len() as u64) as usize].to_string(),
                    1 => format!("\"é ${{var.{}}} \\\"q\\\"\"", name("ref")),
                    _ => format!("[\"${{local.{}}}\", {}]", name("ref"), junk[rng.next(6) as usize]),
                };
                attrs.push(format!("\"{}\": {value}", name("attr")));
            }
            let body = format!("{{{}}}", attrs.join(", "));
            blocks.push(match rng.next(3) {
                0 => format!("\"locals\": {body}"),
                1 => format!("\"output\": {{\"{}\": {body}}}", name("label")),
                _ => format!("\"resource\": {{\"{}\": {{\"{}\": {body}}}}}", name("label"), name("label")),
            });
        }
        let one_line = format!("{{{}}}", blocks.join(","));
        let pretty = one_line.replace(", \"", ",\n    \"").replace("{\"", "{\n  \"");
        for src in [one_line, pretty] {
            let l = lower_mapped(&src).unwrap_or_else(|e| panic!("{src}: {e:?}"));
            crate::deep::parse_body(&l.text).unwrap_or_else(|e| panic!("{e}\n{src}\n{}", l.text));
            for n in &names {
                let j = src.find(n.as_str()).unwrap();
                let o = l.map.to_lowered(j);
                assert_eq!(l.text.get(o..o + n.len()), Some(n.as_str()), "{n} in\n{src}\n{}", l.text);
                assert_eq!(l.map.to_source(o), j, "{n} in\n{src}\n{}", l.text);
                assert_eq!(l.map.to_source(o + n.len() - 1), j + n.len() - 1, "{n}");
            }
        }
    }
}

/// A variable's `default` is evaluated without a context (terraform's
/// configs/named_values.go, `attr.Expr.Value(nil)`), where HCL's JSON
/// reader takes strings literally (hcl json/structure.go): `"${x}"` there
/// is the text `${x}`, written `$${x}` in native syntax; elsewhere it is
/// a template.
#[test]
fn a_default_is_text_not_a_template() {
    let src = r#"{"variable": {"v": {"default": {"a": ["${x}", "%{y}", "$${z}"], "${k}": 1}, "description": "${d}"}}, "locals": {"l": "${var.v}"}}"#;
    let out = lowered(src);
    assert!(out.contains(r#""$${x}""#) && out.contains(r#""%%{y}""#) && out.contains(r#""$$${z}""#), "{out}");
    assert!(out.contains(r#""$${k}""#) && out.contains(r#""$${d}""#), "{out}");
    assert!(out.contains(r#""${var.v}""#), "{out}");
}
