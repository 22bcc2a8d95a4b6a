//! What a top-level item that does not parse still declares.
//!
//! A syntax error must cost one diagnostic, not a cascade: when a 50 KB
//! `locals` block is lost, every `local.*` it declared would otherwise be
//! "not declared" across the module. This reads the block's header and the
//! attribute names directly inside its body, tolerating anything else.

use std::ops::Range;

use super::scan;

/// The names a broken item shows, with ranges relative to its text.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Outline {
    /// The block type, or `None` for a top-level attribute.
    pub block: Option<Name>,
    /// Quoted or bare labels before the block's `{`.
    pub labels: Vec<Name>,
    /// A top-level attribute's own name, or the attributes of the block's body.
    pub attributes: Vec<Name>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Name {
    pub text: String,
    pub range: Range<usize>,
}

/// Reads an item's header and body attribute names. Body attributes are
/// the `NAME =` lines inside the block's braces; when a bracket was left
/// open they sit deeper than they should, so a deeper line also counts when
/// it is indented like the body's own attributes.
pub fn outline(text: &str) -> Outline {
    let mut out = Outline::default();
    let Some(first) = ident_at(text, 0) else { return out };
    let after = skip_spaces(text, first.range.end);
    if is_assignment(text, after) {
        out.attributes.push(first);
        return out;
    }
    let mut at = after;
    loop {
        at = skip_spaces(text, at);
        if text[at..].starts_with('"') {
            let Some(end) = text[at + 1..].find(['"', '\n']).map(|p| at + 1 + p) else { break };
            if !text[end..].starts_with('"') {
                break;
            }
            out.labels.push(Name { text: text[at + 1..end].to_string(), range: at..end + 1 });
            at = end + 1;
        } else if let Some(label) = ident_at(text, at) {
            at = label.range.end;
            out.labels.push(label);
        } else {
            break;
        }
    }
    out.block = Some(first);
    if !text[at..].starts_with('{') {
        return out;
    }
    let lines = scan::code_lines(text);
    let mut indents: Vec<usize> = Vec::new();
    let mut deeper = Vec::new();
    for (start, depth) in lines.into_iter().filter(|&(start, depth)| start > at && depth >= 1) {
        let indent = skip_spaces(text, start) - start;
        let Some(name) = ident_at(text, start + indent) else { continue };
        if !is_assignment(text, skip_spaces(text, name.range.end)) {
            continue;
        }
        if depth == 1 {
            if !indents.contains(&indent) {
                indents.push(indent);
            }
            out.attributes.push(name);
        } else {
            deeper.push((indent, name));
        }
    }
    out.attributes.extend(deeper.into_iter().filter(|(i, _)| indents.contains(i)).map(|(_, n)| n));
    out.attributes.sort_by_key(|n| n.range.start);
    out
}

fn skip_spaces(text: &str, at: usize) -> usize {
    at + text[at..].bytes().take_while(|&c| c == b' ' || c == b'\t').count()
}

/// An HCL identifier at `at` (letters, digits, `_` and `-`, not starting
/// with a digit or `-`).
fn ident_at(text: &str, at: usize) -> Option<Name> {
    let rest = text.get(at..)?;
    let first = rest.chars().next()?;
    if !(first.is_alphabetic() || first == '_') {
        return None;
    }
    let len = rest.find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '-')).unwrap_or(rest.len());
    Some(Name { text: rest[..len].to_string(), range: at..at + len })
}

/// `=` but not `==` (nor `=>`).
fn is_assignment(text: &str, at: usize) -> bool {
    let rest = &text.as_bytes()[at..];
    rest.first() == Some(&b'=') && !matches!(rest.get(1), Some(b'=' | b'>'))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(o: &Outline) -> Vec<&str> {
        o.attributes.iter().map(|n| n.text.as_str()).collect()
    }

    #[test]
    fn broken_locals_keep_their_names() {
        let text = "locals {\n  a = {\n    x = 1\n  b = \"oops\n  c = [for v in x : v]\n  # d = 1\n  e = <<EOT\n  f = 2\nEOT\n}";
        let o = outline(text);
        assert_eq!(o.block.as_ref().map(|b| b.text.as_str()), Some("locals"));
        assert_eq!(names(&o), ["a", "b", "c", "e"]);
        assert_eq!(&text[o.attributes[1].range.clone()], "b");
    }

    #[test]
    fn headers_and_attributes() {
        let o = outline("variable \"region\" {\n  type = string(\n}");
        assert_eq!(o.block.unwrap().text, "variable");
        assert_eq!(o.labels[0].text, "region");
        assert_eq!(o.labels[0].range, 9..17);
        let o = outline("resource vpc \"aws:ec2:Vpc\" {\n  cidrBlock = \n}");
        assert_eq!(o.labels.iter().map(|l| l.text.as_str()).collect::<Vec<_>>(), ["vpc", "aws:ec2:Vpc"]);
        let o = outline("name = foo(");
        assert_eq!(o.block, None);
        assert_eq!(names(&o), ["name"]);
        assert_eq!(outline("a == b"), Outline::default().with_block("a"));
        assert_eq!(outline(""), Outline::default());
        assert_eq!(outline("{{{"), Outline::default());
    }

    impl Outline {
        fn with_block(mut self, name: &str) -> Outline {
            self.block = Some(Name { text: name.to_string(), range: 0..name.len() });
            self
        }
    }
}
