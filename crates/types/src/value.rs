//! Constant values and how they convert (analysis.md §3 "Constant
//! conversions"): what go-cty would do at run time, decided statically.

use num_bigint::BigInt;
use num_traits::{Signed, Zero};

use super::elements::{contains_any, converted, element_type};
use super::{convert_with, ConvertOptions, Kind, Safety, Type};

/// A constant, as written in source. Numbers keep their decimal text so that
/// no precision is lost before we decide whether they are whole.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Null,
    Bool(bool),
    Int(BigInt),
    /// Decimal text (`1.5`, `1e3`, `-0.25`).
    Number(String),
    String(String),
    Tuple(Vec<Value>),
    Object(Vec<(String, Value)>),
}

impl Value {
    pub fn type_of(&self) -> Type {
        match self {
            Value::Null => Type::none(),
            Value::Bool(_) => Type::bool(),
            Value::Int(_) => Type::int(),
            Value::Number(_) => Type::number(),
            Value::String(_) => Type::string(),
            Value::Tuple(vs) => Type::tuple(vs.iter().map(Value::type_of).collect()),
            Value::Object(attrs) => Type::object(attrs.iter().map(|(k, v)| (k.clone(), v.type_of()))),
        }
    }

    /// The text a primitive converts to (`1.5`, `true`); `None` for others.
    pub fn as_text(&self) -> Option<String> {
        match self {
            Value::Bool(b) => Some(b.to_string()),
            Value::Int(i) => Some(i.to_string()),
            Value::Number(n) => Some(n.clone()),
            Value::String(s) => Some(s.clone()),
            _ => None,
        }
    }

    /// The whole number this value is or converts to (`3`, `3.0`, `"3"`).
    pub fn as_whole(&self) -> Option<BigInt> {
        match self {
            Value::Int(i) => Some(i.clone()),
            Value::Number(n) => decimal_whole(n),
            Value::String(s) if is_decimal(s) => decimal_whole(s),
            _ => None,
        }
    }

    /// A short rendering for messages: strings quoted, collections abridged.
    pub fn describe(&self) -> String {
        match self {
            Value::Null => "null".into(),
            Value::String(s) => {
                let shown: String = s.chars().take(40).collect();
                let shown = if shown.len() < s.len() { format!("{shown}…") } else { shown };
                super::quote_string(&shown)
            }
            Value::Int(i) => {
                let t = i.to_string();
                if t.len() > 40 {
                    format!("{}… ({} digits)", &t[..20], t.trim_start_matches('-').len())
                } else {
                    t
                }
            }
            Value::Tuple(vs) if vs.is_empty() => "[]".into(),
            Value::Tuple(_) => "[…]".into(),
            Value::Object(a) if a.is_empty() => "{}".into(),
            Value::Object(_) => "{…}".into(),
            other => other.as_text().unwrap_or_default(),
        }
    }
}

/// Text go-cty accepts as a number: optional `-`, digits, optional fraction
/// and exponent. No spaces, no leading `+`, no bare `.5`.
pub fn is_decimal(s: &str) -> bool {
    let b = s.as_bytes();
    let mut i = 0;
    if b.first() == Some(&b'-') {
        i += 1;
    }
    let digits = |i: &mut usize| {
        let start = *i;
        while *i < b.len() && b[*i].is_ascii_digit() {
            *i += 1;
        }
        *i > start
    };
    if !digits(&mut i) {
        return false;
    }
    if b.get(i) == Some(&b'.') {
        i += 1;
        if !digits(&mut i) {
            return false;
        }
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(b.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        if !digits(&mut i) {
            return false;
        }
    }
    i == b.len()
}

/// Exponents beyond this are not expanded into big integers (a `1e999999`
/// literal must not allocate a million digits).
const MAX_EXPANDED_EXPONENT: i64 = 2000;

/// The exact whole value of decimal text, or `None` when it has a fraction,
/// is not decimal, or is too large to expand.
pub fn decimal_whole(s: &str) -> Option<BigInt> {
    if !is_decimal(s) {
        return None;
    }
    let (neg, rest) = match s.strip_prefix('-') {
        Some(r) => (true, r),
        None => (false, s),
    };
    let (mantissa, exp) = match rest.find(['e', 'E']) {
        Some(i) => (&rest[..i], rest[i + 1..].parse::<i64>().ok()?),
        None => (rest, 0),
    };
    let (int_part, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let mut digits = format!("{int_part}{frac}");
    let mut scale = exp.checked_sub(frac.len() as i64)?;
    while scale < 0 && digits.ends_with('0') {
        digits.pop();
        scale += 1;
    }
    if digits.trim_start_matches('0').is_empty() {
        return Some(BigInt::zero());
    }
    if scale < 0 {
        return None;
    }
    if scale > MAX_EXPANDED_EXPONENT {
        return None;
    }
    digits.extend(std::iter::repeat_n('0', scale as usize));
    let v: BigInt = digits.parse().ok()?;
    Some(if neg { -v } else { v })
}

/// One step from a constant to one of its parts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PathStep {
    Index(usize),
    Attr(String),
}

/// A finding about one part of a constant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ValueIssue {
    /// Where inside the constant (empty: the constant itself).
    pub path: Vec<PathStep>,
    pub message: String,
}

/// What converting a constant found: `errors` make it invalid
/// (`invalid-value`), `implicit` are primitive kind changes that succeed
/// (`implicit-conversion`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ValueCheck {
    pub errors: Vec<ValueIssue>,
    pub implicit: Vec<ValueIssue>,
}

impl ValueCheck {
    pub fn ok(&self) -> bool {
        self.errors.is_empty()
    }
}

/// Converts a constant to a type as go-cty would. `terraform` turns on the
/// Terraform rules: nulls are typed (always convert) and `list(any)`-like
/// targets need elements of one kind.
pub fn check_value(value: &Value, to: &Type, terraform: bool) -> ValueCheck {
    let mut out = ValueCheck::default();
    let mut path = Vec::new();
    check(value, to, terraform, &mut path, &mut out);
    out
}

fn issue(path: &[PathStep], message: String) -> ValueIssue {
    ValueIssue { path: path.to_vec(), message }
}

fn check(v: &Value, to: &Type, tf: bool, path: &mut Vec<PathStep>, out: &mut ValueCheck) {
    let err = |out: &mut ValueCheck, path: &[PathStep], msg: String| out.errors.push(issue(path, msg));
    if let Value::Null = v {
        if tf || convert_with(&Type::none(), to, ConvertOptions::default()) != Safety::None {
            return;
        }
        return err(out, path, format!("null is not allowed here: {to} does not accept null"));
    }
    match to.kind() {
        Kind::Any => {}
        Kind::Promise(t) | Kind::Output(t) => check(v, t, tf, path, out),
        Kind::Union(members) => {
            // The first member taking the value without implicit conversion,
            // else the first taking it at all.
            let mut fallback: Option<ValueCheck> = None;
            for m in members {
                let mut sub = ValueCheck::default();
                check(v, m, tf, path, &mut sub);
                if sub.ok() && sub.implicit.is_empty() {
                    return;
                }
                if sub.ok() && fallback.is_none() {
                    fallback = Some(sub);
                }
            }
            if let Some(sub) = fallback {
                out.implicit.extend(sub.implicit);
                return;
            }
            // Nothing takes it. When one member has the value's shape (the
            // `T` of `optional(T)`, say), its findings point at the element
            // that is wrong; otherwise say so about the whole value.
            let shaped: Vec<&Type> = members.iter().filter(|m| same_shape(v, m)).collect();
            match shaped.as_slice() {
                [only] => check(v, only, tf, path, out),
                _ => err(out, path, format!("{} does not convert to any member of {to}", v.describe())),
            }
        }
        Kind::String | Kind::Id | Kind::Number | Kind::Int | Kind::Bool | Kind::None => primitive(v, to, path, out),
        Kind::List(t) | Kind::Set(t) => match v {
            Value::Tuple(items) => {
                elements(items.iter().map(|x| (x, t)), tf, path, out);
                if tf && out.ok() && contains_any(t) {
                    one_common_type(converted(items.iter(), t), to, path, out);
                }
            }
            _ => err(out, path, format!("{} is not a list: {to} needs a [ … ] value", v.describe())),
        },
        Kind::Map(t) => match v {
            Value::Object(attrs) => {
                for (name, x) in attrs {
                    path.push(PathStep::Attr(name.clone()));
                    check(x, t, tf, path, out);
                    path.pop();
                }
                if tf && out.ok() && contains_any(t) {
                    one_common_type(converted(attrs.iter().map(|(_, x)| x), t), to, path, out);
                }
            }
            _ => err(out, path, format!("{} is not an object: {to} needs a {{ … }} value", v.describe())),
        },
        Kind::Tuple(ts) => match v {
            Value::Tuple(items) if items.len() == ts.len() => elements(items.iter().zip(ts), tf, path, out),
            Value::Tuple(items) => {
                err(out, path, format!("{to} needs exactly {} elements, this value has {}", ts.len(), items.len()))
            }
            _ => err(out, path, format!("{} is not a tuple: {to} needs a [ … ] value", v.describe())),
        },
        Kind::Object(tattrs) => match v {
            Value::Object(attrs) => {
                for (name, t) in tattrs {
                    match attrs.iter().find(|(k, _)| k == name) {
                        Some((_, x)) => {
                            path.push(PathStep::Attr(name.clone()));
                            check(x, t, tf, path, out);
                            path.pop();
                        }
                        None if accepts_absence(t) => {}
                        None => err(out, path, format!("the required attribute `{name}` ({t}) is missing")),
                    }
                }
            }
            _ => err(out, path, format!("{} is not an object: {to} needs a {{ … }} value", v.describe())),
        },
    }
}

/// Whether a value is of the type's family: collections for `[…]`/`{…}`,
/// the same primitive otherwise.
fn same_shape(v: &Value, t: &Type) -> bool {
    matches!(
        (v, t.eventual_element().kind()),
        (Value::Tuple(_), Kind::List(_) | Kind::Set(_) | Kind::Tuple(_))
            | (Value::Object(_), Kind::Map(_) | Kind::Object(_))
            | (Value::String(_), Kind::String | Kind::Id)
            | (Value::Bool(_), Kind::Bool)
            | (Value::Int(_) | Value::Number(_), Kind::Int | Kind::Number)
    )
}

/// An attribute may be left out when it is optional (its type accepts null).
/// `optional(any)` normalises to `any`, so `any` counts too.
fn accepts_absence(t: &Type) -> bool {
    t.is_any() || t.is_none() || t.members().iter().any(Type::is_none)
}

fn elements<'a>(
    pairs: impl Iterator<Item = (&'a Value, &'a Type)>,
    tf: bool,
    path: &mut Vec<PathStep>,
    out: &mut ValueCheck,
) {
    for (i, (x, t)) in pairs.enumerate() {
        path.push(PathStep::Index(i));
        check(x, t, tf, path, out);
        path.pop();
    }
}

/// Terraform infers one element type for a collection whose element type
/// contains `any` (`list(any)`, `list(object({x = any}))`): the converted
/// elements must have one common type (`[1, true]` fails, `[1, "a"]` is
/// strings; see [`super::elements`]).
fn one_common_type(types: Vec<Type>, to: &Type, path: &[PathStep], out: &mut ValueCheck) {
    if element_type(to, &types).is_none() {
        let shown: Vec<String> = types.iter().map(Type::to_string).collect();
        out.errors.push(issue(
            path,
            format!("the elements of {to} must all have one type, but these are {}", shown.join(", ")),
        ));
    }
}

fn primitive(v: &Value, to: &Type, path: &[PathStep], out: &mut ValueCheck) {
    let d = v.describe();
    let implicit = |out: &mut ValueCheck, what: &str| {
        out.implicit.push(issue(path, format!("{d} converts implicitly to {what}")));
    };
    let bad = |out: &mut ValueCheck, why: String| out.errors.push(issue(path, why));
    match (to.kind(), v) {
        (Kind::String | Kind::Id, Value::String(_)) => {}
        (Kind::String, Value::Bool(_) | Value::Int(_) | Value::Number(_)) => implicit(out, "string"),
        (Kind::Id, Value::Bool(_) | Value::Int(_) | Value::Number(_)) => implicit(out, "id"),
        (Kind::Number, Value::Int(_) | Value::Number(_)) => {}
        (Kind::Number, Value::String(s)) if is_decimal(s) => implicit(out, "number"),
        (Kind::Number, Value::String(_)) => bad(out, format!("{d} is not a number")),
        (Kind::Int, Value::Int(_)) => {}
        (Kind::Int, Value::Number(n)) if decimal_whole(n).is_some() => {}
        (Kind::Int, Value::Number(_)) => bad(out, format!("{d} is not a whole number, so it cannot be an int")),
        (Kind::Int, Value::String(s)) if decimal_whole(s).is_some() => implicit(out, "int"),
        (Kind::Int, Value::String(_)) => bad(out, format!("{d} is not a whole number, so it cannot be an int")),
        (Kind::Number | Kind::Int, Value::Bool(_)) => {
            bad(out, format!("{d} is a bool; a bool never converts to a number"))
        }
        (Kind::Bool, Value::Bool(_)) => {}
        (Kind::Bool, Value::String(s)) if matches!(s.as_str(), "true" | "false" | "1" | "0") => implicit(out, "bool"),
        (Kind::Bool, Value::String(s)) if matches!(s.to_ascii_lowercase().as_str(), "true" | "false") => {
            bad(out, format!("{d} is not a bool: write it in lowercase, \"{}\"", s.to_ascii_lowercase()))
        }
        (Kind::Bool, Value::String(_)) => {
            bad(out, format!("{d} is not a bool: only \"true\", \"false\", \"1\" and \"0\" convert"))
        }
        (Kind::Bool, Value::Int(_) | Value::Number(_)) => {
            bad(out, format!("{d} is a number; a number never converts to a bool"))
        }
        (Kind::None, _) => bad(out, format!("{d} is not null")),
        (_, Value::Tuple(_) | Value::Object(_)) => bad(out, format!("{d} is a collection and cannot become a {to}")),
        _ => bad(out, format!("{d} does not convert to {to}")),
    }
}

/// `true` when `v` is a whole number ≥ 0 (a valid list index or count).
pub fn is_index(v: &BigInt) -> bool {
    !v.is_negative()
}
