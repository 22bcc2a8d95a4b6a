//! Canonical text (types.md §2): the one way a type is ever printed.

use std::fmt::{self, Write};

use super::{Kind, Type};

impl fmt::Display for Type {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind() {
            Kind::Bool => f.write_str("bool"),
            Kind::Int => f.write_str("int"),
            Kind::Number => f.write_str("number"),
            Kind::String => f.write_str("string"),
            Kind::Id => f.write_str("id"),
            Kind::Any => f.write_str("any"),
            Kind::None => f.write_str("none"),
            Kind::List(t) => write!(f, "list({t})"),
            Kind::Set(t) => write!(f, "set({t})"),
            Kind::Map(t) => write!(f, "map({t})"),
            Kind::Promise(t) => write!(f, "promise({t})"),
            Kind::Output(t) => write!(f, "output({t})"),
            Kind::Tuple(ts) => {
                f.write_str("tuple([")?;
                separated(f, ts.iter(), |f, t| write!(f, "{t}"))?;
                f.write_str("])")
            }
            Kind::Union(ts) => {
                f.write_str("union(")?;
                separated(f, ts.iter(), |f, t| write!(f, "{t}"))?;
                f.write_str(")")
            }
            Kind::Object(attrs) => {
                f.write_str("object({")?;
                separated(f, attrs.iter(), |f, (name, t)| {
                    if is_identifier(name) {
                        f.write_str(name)?;
                    } else {
                        f.write_str(&quote_string(name))?;
                    }
                    write!(f, " = {t}")
                })?;
                f.write_str("})")
            }
        }
    }
}

fn separated<I: Iterator>(
    f: &mut fmt::Formatter<'_>,
    items: I,
    mut each: impl FnMut(&mut fmt::Formatter<'_>, I::Item) -> fmt::Result,
) -> fmt::Result {
    for (i, item) in items.enumerate() {
        if i > 0 {
            f.write_str(", ")?;
        }
        each(f, item)?;
    }
    Ok(())
}

/// An HCL identifier: an ID_Start letter or `_`, then ID_Continue or `-`.
pub fn is_identifier(s: &str) -> bool {
    let mut chars = s.chars();
    match chars.next() {
        Some(c) if unicode_ident::is_xid_start(c) || c == '_' => {}
        _ => return false,
    }
    chars.all(|c| unicode_ident::is_xid_continue(c) || c == '-')
}

/// An HCL quoted string literal whose value is exactly `s`: template
/// introducers are escaped (`$${`, `%%{`) so the text parses back to `s`.
pub fn quote_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '$' | '%' if chars.peek() == Some(&'{') => {
                out.push(c);
                out.push(c);
            }
            c if c.is_control() => {
                let _ = write!(out, "\\u{:04X}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Canonical text short enough for a message: types past `limit`
/// characters print their outer shape with the insides elided
/// (`object({…17 attributes})`). Hover and `types` print in full.
pub fn brief(t: &Type, limit: usize) -> String {
    let full = t.to_string();
    if full.chars().count() <= limit {
        return full;
    }
    let inner = |t: &Type| -> String {
        match t.kind() {
            Kind::List(_) => "list(…)".into(),
            Kind::Set(_) => "set(…)".into(),
            Kind::Map(_) => "map(…)".into(),
            Kind::Promise(_) => "promise(…)".into(),
            Kind::Output(_) => "output(…)".into(),
            Kind::Tuple(ts) => format!("tuple([…{} elements])", ts.len()),
            Kind::Object(a) => format!("object({{…{} attributes}})", a.len()),
            Kind::Union(ms) => format!("union(…{} members)", ms.len()),
            _ => t.to_string(),
        }
    };
    let text = match t.kind() {
        Kind::List(e) => format!("list({})", inner(e)),
        Kind::Set(e) => format!("set({})", inner(e)),
        Kind::Map(e) => format!("map({})", inner(e)),
        Kind::Promise(e) => format!("promise({})", inner(e)),
        Kind::Output(e) => format!("output({})", inner(e)),
        _ => inner(t),
    };
    if text.chars().count() <= limit + 20 {
        text
    } else {
        inner(t)
    }
}

/// Displays a type as [`brief`] does, computed only when printed.
pub struct Brief<'a>(pub &'a Type);

impl fmt::Display for Brief<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&brief(self.0, 80))
    }
}
