use hcl_edit::parser::parse_body;
use indoc::indoc;
use pretty_assertions::assert_eq;

macro_rules! assert_error {
    ($hcl:expr, $msg:expr) => {
        match parse_body($hcl) {
            Ok(s) => panic!("parsed to: {:#?}", s),
            Err(e) => assert_eq!($msg, e.to_string()),
        }
    };
}

#[test]
fn invalid_structures() {
    assert_error!(
        "foo = 1\nbar [",
        indoc! {r#"
             --> HCL parse error in line 2, column 5
              |
            2 | bar [
              |     ^---
              |
              = invalid structure; expected `{`, `=`, `"` or identifier"#}
    );

    assert_error!(
        "foo = 1\nfoo = 2",
        indoc! {r#"
             --> HCL parse error in line 2, column 1
              |
            2 | foo = 2
              | ^---
              |
              = invalid attribute; expected unique attribute key; found redefined attribute"#}
    );
}

#[test]
fn invalid_blocks() {
    assert_error!(
        "ident {",
        indoc! {r#"
             --> HCL parse error in line 1, column 8
              |
            1 | ident {
              |        ^---
              |
              = invalid block body; expected `}`, newline or identifier"#}
    );

    assert_error!(
        "ident \"label\" {",
        indoc! {r#"
             --> HCL parse error in line 1, column 16
              |
            1 | ident "label" {
              |                ^---
              |
              = invalid block body; expected `}`, newline or identifier"#}
    );

    assert_error!(
        "ident { foo }",
        indoc! {r#"
             --> HCL parse error in line 1, column 13
              |
            1 | ident { foo }
              |             ^---
              |
              = invalid attribute; expected `=`"#}
    );

    assert_error!(
        "ident { [ }",
        indoc! {r#"
             --> HCL parse error in line 1, column 9
              |
            1 | ident { [ }
              |         ^---
              |
              = invalid block body; expected `}`, newline or identifier"#}
    );
}

#[test]
fn invalid_exprs() {
    assert_error!(
        "ident = ''",
        indoc! {r#"
             --> HCL parse error in line 1, column 9
              |
            1 | ident = ''
              |         ^---
              |
              = invalid expression; expected `"`, `[`, `{`, `-`, `!`, `(`, `_`, `<`, letter or digit"#}
    );

    assert_error!(
        "ident = var.%",
        indoc! {r#"
             --> HCL parse error in line 1, column 13
              |
            1 | ident = var.%
              |             ^---
              |
              = invalid traversal operator; expected `*`, identifier or unsigned integer"#}
    );

    assert_error!(
        "ident = { foo = \"\"\" }",
        indoc! {r#"
             --> HCL parse error in line 1, column 19
              |
            1 | ident = { foo = """ }
              |                   ^---
              |
              = invalid object item; expected `}`, `,` or newline"#}
    );

    assert_error!(
        "ident = foo::",
        indoc! {r#"
             --> HCL parse error in line 1, column 14
              |
            1 | ident = foo::
              |              ^---
              |
              = expected identifier"#}
    );

    assert_error!(
        "ident = foo::bar",
        indoc! {r#"
             --> HCL parse error in line 1, column 17
              |
            1 | ident = foo::bar
              |                 ^---
              |
              = expected `(`"#}
    );

    assert_error!(
        "ident = foo( ",
        indoc! {r#"
             --> HCL parse error in line 1, column 14
              |
            1 | ident = foo( 
              |              ^---
              |
              = expected `)` or expression"#}
    );

    assert_error!(
        "unicodé_ident = '4",
        indoc! {r#"
             --> HCL parse error in line 1, column 17
              |
            1 | unicodé_ident = '4
              |                 ^---
              |
              = invalid expression; expected `"`, `[`, `{`, `-`, `!`, `(`, `_`, `<`, letter or digit"#}
    );
}

#[test]
fn redefined_object_keys() {
    // HCL evaluates object items in order and the last value of a repeated key wins.
    let body = parse_body("ident = { foo = 1, bar = 2, foo = 3 }").unwrap();
    let object = body
        .get_attribute("ident")
        .unwrap()
        .value
        .as_object()
        .unwrap();
    let items: Vec<String> = object
        .iter()
        .map(|(k, v)| {
            format!(
                "{}={}",
                k.as_ident().unwrap().as_str(),
                v.expr().to_string().trim()
            )
        })
        .collect();
    assert_eq!(items, ["bar=2", "foo=3"]);
    let superseded: Vec<String> = object
        .superseded()
        .map(|(k, v)| {
            format!(
                "{}={}",
                k.as_ident().unwrap().as_str(),
                v.expr().to_string().trim()
            )
        })
        .collect();
    assert_eq!(superseded, ["foo=1"]);

    // Quoted keys, three repeats among other keys, newline-separated items.
    let body = parse_body(indoc! {r#"
        values = {
          "extraArgs.balancing-ignore-label" = "a"
          "extraArgs.skip-nodes" = "false"
          "extraArgs.balancing-ignore-label" = "b"
          "extraArgs.balancing-ignore-label" = "c"
        }
    "#})
    .unwrap();
    let object = body
        .get_attribute("values")
        .unwrap()
        .value
        .as_object()
        .unwrap();
    assert_eq!(object.len(), 2);
    assert_eq!(object.superseded().count(), 2);
}

#[test]
fn redefined_object_keys_of_every_kind_in_a_large_object() {
    // Keys are found by hash (hcl-types patch 3): an identifier and a string of the same text
    // stay different keys, other keys are compared one by one, and the order is the one
    // repeated removal and insertion gave.
    let mut text = String::from("o = {\n");
    for i in 0..300 {
        text.push_str(&format!("  k{i} = {i}\n"));
    }
    text.push_str(
        "  k7 = \"again\"\n  \"k7\" = 1\n  (k8) = 2\n  (k8) = 3\n  \"k7\" = 4\n  k0 = 5\n}\n",
    );
    let body = parse_body(&text).unwrap();
    let object = body.get_attribute("o").unwrap().value.as_object().unwrap();
    let key = |k: &hcl_edit::expr::ObjectKey| match k {
        hcl_edit::expr::ObjectKey::Ident(ident) => ident.as_str().to_owned(),
        hcl_edit::expr::ObjectKey::Expression(e) => e.to_string().trim().to_owned(),
    };
    let items: Vec<String> = object
        .iter()
        .map(|(k, v)| format!("{}={}", key(k), v.expr().to_string().trim()))
        .collect();
    assert_eq!(items.len(), 300 + 2);
    assert_eq!(items[..3], ["k1=1", "k2=2", "k3=3"]);
    assert_eq!(items[298..], ["k7=\"again\"", "(k8)=3", "\"k7\"=4", "k0=5"]);
    let superseded: Vec<String> = object
        .superseded()
        .map(|(k, v)| format!("{}={}", key(k), v.expr().to_string().trim()))
        .collect();
    assert_eq!(superseded, ["k7=7", "(k8)=2", "\"k7\"=1", "k0=0"]);
}

#[test]
fn whitespace_and_comments_of_every_length_encode_back() {
    // Raw strings up to 14 bytes are held inline, longer ones boxed (hcl-types patch 3).
    let text = indoc! {r#"
        # a comment longer than fourteen bytes
        a = [1,  2,   3,              4, 0 # short
        ]
        b = { x = 1.50e+3 /* a longer inline comment */, "y" = "z" }
        c = "${a}  ${b}"
    "#};
    assert_eq!(parse_body(text).unwrap().to_string(), text);
}

// Builds the expected error with `message` at `column` of `line`.
fn expected_error(line: usize, column: usize, line_content: &str, message: &str) -> String {
    let s = " ".repeat(line.to_string().len());
    let caret = " ".repeat(column - 1);
    format!(
        "{s}--> HCL parse error in line {line}, column {column}\n\
         {s} |\n\
         {line} | {line_content}\n\
         {s} | {caret}^---\n\
         {s} |\n\
         {s} = {message}"
    )
}

#[test]
fn max_nesting_depth_exceeded() {
    fn expected(line: usize, column: usize, line_content: &str) -> String {
        let message = "invalid nesting depth; expected at most 64 nested levels";
        expected_error(line, column, line_content, message)
    }

    // The attribute value itself does not count towards the nesting depth, but each array element
    // takes one level. After 65 `[` the limit is reached, so the element starting at the 66th `[`
    // is one level too deep. `x = ` takes 4 columns.
    let input = format!("x = {}1{}", "[".repeat(200), "]".repeat(200));
    assert_error!(&input, expected(1, 4 + 65 + 1, &input));

    // Same with leading content on the line and a preceding line. `foo = [1, {a = ` takes 15
    // columns and 2 levels (array element, object value), so the limit is reached after 63 `[`
    // and the error is reported at the 64th.
    let line = format!("foo = [1, {{a = {}1{}}}]", "[".repeat(200), "]".repeat(200));
    let input = format!("bar = 1\n{line}");
    assert_error!(&input, expected(2, 15 + 63 + 1, &line));

    // Block bodies take one level, so within a block the limit is reached after 64 `[` and the
    // error is reported at the 65th. `  x = ` takes 6 columns.
    let line = format!("  x = {}1{}", "[".repeat(200), "]".repeat(200));
    let input = format!("a {{\n{line}\n}}");
    assert_error!(&input, expected(2, 6 + 64 + 1, &line));

    // Blocks: the 65th block body is one level too deep. The error is reported at its `{`.
    let input = format!("{}{}", "a {\n".repeat(200), "}\n".repeat(200));
    assert_error!(&input, expected(65, 3, "a {"));
}

#[test]
fn max_nesting_depth_can_be_raised() {
    use hcl_edit::parser::{parse_body_with, parse_expr_with, ParseOptions};

    // HCL has no small limit (Terraform 1.11 validates 50,000 nested `[`), but each level takes
    // stack: up to ~35 KB in a debug build. Parse deep input on a stack made for it.
    let deep = std::thread::Builder::new().stack_size(64 << 20);
    deep.spawn(|| {
        let options = ParseOptions::default().max_nesting_depth(256);
        let nest = |open: &str, close: &str, n: usize| {
            format!("x = {}1{}", open.repeat(n), close.repeat(n))
        };
        for n in [65, 200, 255] {
            let inputs = [
                nest("[", "]", n),
                nest("(", ")", n),
                nest("{a = ", "}", n),
                nest("[for v in ", " : v]", n),
                nest("\"${", "}\"", n),
                nest("f(", ")", n),
                nest("true ? ", " : 0", n),
                format!("{}{}", "a {\n".repeat(n), "}\n".repeat(n)),
            ];
            for input in inputs {
                let body =
                    parse_body_with(&input, options).unwrap_or_else(|e| panic!("{n} levels: {e}"));
                assert_eq!(body.to_string(), input);
                // The default still rejects it.
                assert!(
                    parse_body(&input).is_err(),
                    "{n} levels with the default limit"
                );
            }
        }
        let expr = format!("{}1{}", "[".repeat(256), "]".repeat(256));
        assert!(parse_expr_with(&expr, options).is_ok());

        // One level too deep: the same error as the default limit's, with this limit.
        let input = nest("[", "]", 300);
        let err = parse_body_with(&input, options).unwrap_err();
        assert_eq!(
            err.message(),
            "invalid nesting depth; expected at most 256 nested levels"
        );
        assert_eq!(err.location().column(), 4 + 257 + 1);
        let err =
            parse_body_with(&input, ParseOptions::default().max_nesting_depth(100)).unwrap_err();
        assert_eq!(
            err.message(),
            "invalid nesting depth; expected at most 100 nested levels"
        );
    })
    .unwrap()
    .join()
    .unwrap();
}

#[test]
fn max_operator_depth_exceeded() {
    fn expected(line: usize, column: usize, line_content: &str) -> String {
        let message = "invalid binary operation; expected at most 128 chained binary operators";
        expected_error(line, column, line_content, message)
    }

    // The error is reported at the 129th operator. `x = 1` takes 5 columns, followed by
    // ` + 1` repeated, with the `+` in the second column of each repetition.
    let input = format!("x = 1{}", " + 1".repeat(200));
    assert_error!(&input, expected(1, 5 + 128 * 4 + 2, &input));

    // Operators of a chain within the first operand of another chain add up. The parenthesis
    // contains 100 operators, so the error is reported at the 29th operator after it. `x = (1`
    // takes 6 columns, followed by 100 ` + 1` and the closing parenthesis.
    let input = format!("x = (1{}){}", " + 1".repeat(100), " + 1".repeat(100));
    assert_error!(&input, expected(1, 6 + 100 * 4 + 1 + 28 * 4 + 2, &input));

    // Operators of sibling chains do not add up: both array elements are within the limit, so
    // the error is only reported at the 129th operator of the second element.
    let line = format!("x = [1{}, 1{}]", " + 1".repeat(128), " + 1".repeat(200));
    let input = format!("y = 1\n{line}");
    assert_error!(&input, expected(2, 6 + 128 * 4 + 3 + 128 * 4 + 2, &line));
}

#[test]
fn object_for_expressions_ignore_newlines() {
    // HCL reads a whole `for` expression with newlines ignored (hclsyntax's
    // parseForExpr), inside `{ … }` as inside `[ … ]`: Terraform 1.11
    // validates each of these. (A line break inside a binary operation is
    // not kept when encoding, in a list as in an object: not checked here.)
    for hcl in [
        "m = [for x in [\"a\"] : x == \"a\" ||\n  false]\n",
        "m = { for x in [\"a\"] : x => true &&\n  false\n}\n",
        "m = { for x in [\"a\"] :\n  x\n  =>\n  x\n}\n",
        "m = { for x in [\"a\"] : x => x\n  if x != null &&\n  true\n}\n",
    ] {
        let body = parse_body(hcl).unwrap_or_else(|e| panic!("{hcl:?}: {e}"));
        let value = &body.get_attribute("m").unwrap().value;
        assert!(
            matches!(value, hcl_edit::expr::Expression::ForExpr(_)),
            "{hcl:?}"
        );
    }
}
