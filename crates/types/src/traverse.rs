//! Traversal (types.md §5): the type of `x.a` / `x[k]` given the type of `x`.

use super::value::{decimal_whole, is_decimal, Value};
use super::{convert, Brief, Kind, Safety, Type};
use crate::suggest;

/// One traversal step.
#[derive(Clone, Debug, PartialEq)]
pub enum Step {
    /// `.name`
    Attr(String),
    /// `[literal]`, and the legacy `.0` (an `Int`).
    Index(Value),
    /// An index whose value is unknown but whose type is known.
    Typed(Type),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    Error,
    Warning,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct TraverseDiag {
    pub severity: Severity,
    pub message: String,
}

/// The type after one step and what the step found.
#[derive(Clone, Debug, PartialEq)]
pub struct TraverseResult {
    pub ty: Type,
    pub diags: Vec<TraverseDiag>,
}

impl TraverseResult {
    fn ok(ty: Type) -> Self {
        TraverseResult { ty, diags: Vec::new() }
    }
    fn error(message: String) -> Self {
        TraverseResult { ty: Type::any(), diags: vec![TraverseDiag { severity: Severity::Error, message }] }
    }
    fn warn(mut self, message: String) -> Self {
        self.diags.push(TraverseDiag { severity: Severity::Warning, message });
        self
    }
    pub fn has_error(&self) -> bool {
        self.diags.iter().any(|d| d.severity == Severity::Error)
    }
}

/// `traverse(t, step)`.
pub fn traverse(t: &Type, step: &Step) -> TraverseResult {
    // An eventual key is checked as its element and wraps the result; a
    // promise key on an output stays an output (output wins when lifting).
    if let Step::Typed(k) = step {
        if let Kind::Promise(inner) | Kind::Output(inner) = k.kind() {
            let mut r = traverse(t, &Step::Typed(inner.clone()));
            r.ty = match (k.kind(), r.ty.kind()) {
                (Kind::Promise(_), Kind::Output(_)) => r.ty,
                (Kind::Promise(_), _) => Type::promise(r.ty),
                _ => Type::output(r.ty),
            };
            return r;
        }
    }
    step_on(t, step)
}

fn step_on(t: &Type, step: &Step) -> TraverseResult {
    let tb = Brief(t);
    match t.kind() {
        Kind::Any => TraverseResult::ok(Type::any()),
        Kind::Bool | Kind::Int | Kind::Number | Kind::String | Kind::Id => {
            TraverseResult::error(format!("cannot {} a `{tb}`: it is a primitive value", verb(step)))
        }
        Kind::None => {
            TraverseResult::ok(Type::none()).warn(format!("cannot {} null: the value is always null", verb(step)))
        }
        Kind::Promise(inner) | Kind::Output(inner) => {
            let mut r = step_on(inner, step);
            r.ty = t.rewrap(r.ty);
            r
        }
        Kind::Union(members) => union(t, members, step),
        Kind::List(elem) => sequence(t, step, |_| Some(elem.clone()), None),
        Kind::Tuple(elems) => sequence(t, step, |i| elems.get(i).cloned(), Some(elems)),
        Kind::Set(_) => TraverseResult::error(format!(
            "cannot {} a `{tb}`: set elements cannot be indexed; use a for expression or tolist()",
            verb(step)
        )),
        Kind::Map(elem) => match step {
            Step::Attr(_) => TraverseResult::ok(elem.clone()),
            Step::Index(v) => match v.as_text() {
                Some(_) => TraverseResult::ok(elem.clone()),
                None => TraverseResult::error(format!("a `{tb}` key must be a string, not {}", v.describe())),
            },
            Step::Typed(k) => typed_key(k, &Type::string(), elem.clone(), t),
        },
        Kind::Object(attrs) => match step {
            Step::Attr(name) => attribute(t, attrs, name),
            Step::Index(v) => match v.as_text() {
                Some(name) => attribute(t, attrs, &name),
                None => TraverseResult::error(format!("an attribute name must be a string, not {}", v.describe())),
            },
            Step::Typed(k) if attrs.is_empty() => {
                let _ = k;
                TraverseResult::error("cannot index `object({})`: it has no attributes".into())
            }
            Step::Typed(k) => {
                let all = Type::union(attrs.iter().map(|(_, a)| a.clone()).collect::<Vec<_>>());
                typed_key(k, &Type::string(), all, t)
            }
        },
    }
}

fn verb(step: &Step) -> &'static str {
    match step {
        Step::Attr(_) => "get an attribute of",
        _ => "index",
    }
}

/// A typed key checked against what the receiver's keys are (`number` for
/// lists, `string` for maps and objects).
fn typed_key(k: &Type, want: &Type, result: Type, receiver: &Type) -> TraverseResult {
    let (kb, rb) = (Brief(k), Brief(receiver));
    if k.is_any() {
        return TraverseResult::ok(result);
    }
    match convert(k, want) {
        Safety::Safe => TraverseResult::ok(result),
        Safety::Unsafe => TraverseResult::ok(result)
            .warn(format!("a key of type `{kb}` indexing `{rb}` converts to {want} implicitly and may fail")),
        Safety::None => {
            TraverseResult::error(format!("a key of type `{kb}` cannot index `{rb}`: keys must be {want}s"))
        }
    }
}

/// Lists and tuples: whole-number keys.
fn sequence(t: &Type, step: &Step, elem: impl Fn(usize) -> Option<Type>, tuple: Option<&Vec<Type>>) -> TraverseResult {
    let tb = Brief(t);
    let (index, warning) = match step {
        Step::Attr(name) => {
            return TraverseResult::error(format!("`{tb}` has no attribute `{name}`: use a numeric index"));
        }
        Step::Typed(k) => {
            return match tuple {
                None => typed_key(k, &Type::number(), elem(0).unwrap_or_else(Type::any), t),
                Some(elems) if elems.is_empty() => {
                    TraverseResult::error("cannot index `tuple([])`: it has no elements".into())
                }
                Some(elems) => {
                    let numeric =
                        k.is_any() || k.members().iter().all(|m| matches!(m.kind(), Kind::Int | Kind::Number));
                    if numeric {
                        TraverseResult::ok(Type::union(elems.clone()))
                    } else {
                        TraverseResult::error(format!(
                            "a key of type `{}` cannot index `{tb}`: tuple indices are numbers",
                            Brief(k)
                        ))
                    }
                }
            };
        }
        Step::Index(v @ Value::String(s)) => match (is_decimal(s), decimal_whole(s)) {
            (true, Some(n)) => {
                let w = format!("the key {} converts implicitly to the number {n}", v.describe());
                (n, Some(w))
            }
            _ => {
                return TraverseResult::error(format!(
                    "{} is not a valid index of `{tb}`: indices are whole numbers",
                    v.describe()
                ))
            }
        },
        Step::Index(v) => match v.as_whole() {
            Some(n) if !matches!(v, Value::Bool(_)) => (n, None),
            _ => {
                return TraverseResult::error(format!(
                    "{} is not a valid index of `{tb}`: indices are whole numbers",
                    v.describe()
                ))
            }
        },
    };
    let found = usize::try_from(&index).ok().and_then(elem);
    let r = match (found, tuple) {
        (Some(ty), _) => TraverseResult::ok(ty),
        (None, Some(elems)) => {
            return TraverseResult::error(format!(
                "index {index} is out of range: `{tb}` has {} element{}",
                elems.len(),
                if elems.len() == 1 { "" } else { "s" }
            ));
        }
        (None, None) => return TraverseResult::error(format!("index {index} is negative: `{tb}` indices start at 0")),
    };
    match warning {
        Some(w) => r.warn(w),
        None => r,
    }
}

fn attribute(t: &Type, attrs: &[(String, Type)], name: &str) -> TraverseResult {
    let tb = Brief(t);
    if let Some(ty) = t.attribute(name) {
        return TraverseResult::ok(ty.clone());
    }
    let names: Vec<&str> = attrs.iter().map(|(k, _)| k.as_str()).collect();
    let mut msg = if names.is_empty() {
        format!("`{tb}` has no attribute `{name}`: it has no attributes")
    } else {
        format!(
            "`{tb}` has no attribute `{name}`; it has {}",
            names.iter().map(|n| format!("`{n}`")).collect::<Vec<_>>().join(", ")
        )
    };
    if let Some(s) = suggest::closest(name, names.iter().copied()) {
        msg.push_str(&format!(" (did you mean `{s}`?)"));
    }
    TraverseResult::error(msg)
}

/// How the warning of a union of which only `none` can be traversed
/// begins; what follows says why the other members cannot.
pub const ALWAYS_NULL: &str = "the result is always null: ";

fn union(t: &Type, members: &[Type], step: &Step) -> TraverseResult {
    let tb = Brief(t);
    let mut successes = Vec::new();
    let mut warnings: Vec<TraverseDiag> = Vec::new();
    let mut errors: Vec<TraverseDiag> = Vec::new();
    let mut only_none = true;
    for m in members {
        if m.is_none() {
            successes.push(Type::none());
            continue;
        }
        let r = step_on(m, step);
        if r.has_error() {
            errors.extend(r.diags.into_iter().filter(|d| d.severity == Severity::Error));
            continue;
        }
        only_none = false;
        successes.push(r.ty);
        for d in r.diags {
            if !warnings.contains(&d) {
                warnings.push(d);
            }
        }
    }
    if successes.is_empty() {
        let detail: Vec<String> = errors.into_iter().map(|d| d.message).collect();
        return TraverseResult::error(format!("no member of `{tb}` can be traversed: {}", detail.join("; ")));
    }
    if only_none {
        // Name what is wrong with the non-null members: that is the bug to fix.
        let detail: Vec<String> = errors.into_iter().map(|d| d.message).collect();
        return TraverseResult::ok(Type::none()).warn(format!("{ALWAYS_NULL}{}", detail.join("; ")));
    }
    TraverseResult { ty: Type::union(successes), diags: warnings }
}
