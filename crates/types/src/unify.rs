//! Unification (types.md §4).

use super::{Kind, Safety, Type};

/// `unify(a, b)`: the merged type and how safe merging is.
pub fn unify(a: &Type, b: &Type) -> (Type, Safety) {
    use Safety::{Safe, Unsafe};
    // Rule 1.
    if a == b {
        return (a.clone(), Safe);
    }
    // Rule 2.
    if a.is_any() {
        return (b.clone(), Unsafe);
    }
    if b.is_any() {
        return (a.clone(), Unsafe);
    }
    match (a.kind(), b.kind()) {
        // Rule 3.
        (Kind::Union(xs), Kind::Union(ys)) => (Type::union(xs.iter().chain(ys).cloned().collect::<Vec<_>>()), Safe),
        // Rule 4.
        (Kind::Union(ms), _) => unify_with_members(b, ms),
        (_, Kind::Union(ms)) => unify_with_members(a, ms),
        // Rule 5.
        (Kind::Promise(x), Kind::Promise(y)) => wrap(unify(x, y), Type::promise),
        (Kind::Output(x), Kind::Output(y))
        | (Kind::Promise(x), Kind::Output(y))
        | (Kind::Output(x), Kind::Promise(y)) => wrap(unify(x, y), Type::output),
        (Kind::Promise(x), _) => wrap(unify(x, b), Type::promise),
        (_, Kind::Promise(y)) => wrap(unify(a, y), Type::promise),
        (Kind::Output(x), _) => wrap(unify(x, b), Type::output),
        (_, Kind::Output(y)) => wrap(unify(a, y), Type::output),
        // Rule 6.
        (Kind::None, _) | (_, Kind::None) => (Type::union([a.clone(), b.clone()]), Safe),
        // Rule 7.
        (Kind::Int, Kind::Number) | (Kind::Number, Kind::Int) => (Type::number(), Safe),
        (Kind::Int | Kind::Number | Kind::Bool, Kind::String)
        | (Kind::String, Kind::Int | Kind::Number | Kind::Bool) => (Type::string(), Safe),
        (Kind::Bool, Kind::Number) | (Kind::Number, Kind::Bool) => (Type::number(), Unsafe),
        // PCL's `id` (pulumi/pulumi #22702, `opaquePrecedence`): `string`
        // before it, then `number`, `int`, `bool`, each converted to unsafely.
        (Kind::Id, Kind::String) | (Kind::String, Kind::Id) => (Type::string(), Safe),
        (Kind::Id, Kind::Number) | (Kind::Number, Kind::Id) => (Type::number(), Unsafe),
        (Kind::Id, Kind::Int) | (Kind::Int, Kind::Id) => (Type::int(), Unsafe),
        (Kind::Id, Kind::Bool) | (Kind::Bool, Kind::Id) => (Type::bool(), Unsafe),
        (Kind::Bool, Kind::Int) | (Kind::Int, Kind::Bool) => (Type::int(), Unsafe),
        // Rule 8.
        (Kind::List(x), Kind::List(y)) | (Kind::List(x), Kind::Set(y)) | (Kind::Set(x), Kind::List(y)) => {
            wrap(unify(x, y), Type::list)
        }
        (Kind::Set(x), Kind::Set(y)) => wrap(unify(x, y), Type::set),
        (Kind::Map(x), Kind::Map(y)) => wrap(unify(x, y), Type::map),
        (Kind::List(x), Kind::Tuple(ts)) | (Kind::Tuple(ts), Kind::List(x)) => {
            wrap(fold_onto(x, ts.iter()), Type::list)
        }
        (Kind::Set(x), Kind::Tuple(ts)) | (Kind::Tuple(ts), Kind::Set(x)) => {
            let (t, k) = fold_onto(x, ts.iter());
            (Type::set(t), k.min(Unsafe))
        }
        (Kind::Map(x), Kind::Object(attrs)) | (Kind::Object(attrs), Kind::Map(x)) => {
            wrap(fold_onto(x, attrs.iter().map(|(_, t)| t)), Type::map)
        }
        // Rule 9.
        (Kind::Tuple(xs), Kind::Tuple(ys)) => {
            let mut kind = Safe;
            let mut elems: Vec<Type> = xs
                .iter()
                .zip(ys)
                .map(|(x, y)| {
                    let (t, k) = unify(x, y);
                    kind = kind.min(k);
                    t
                })
                .collect();
            if xs.len() == ys.len() {
                return (Type::tuple(elems), kind);
            }
            let longer = if xs.len() > ys.len() { xs } else { ys };
            elems.extend(longer[elems.len()..].iter().cloned());
            let (t, k) = unify_fold(&elems);
            (Type::list(t), kind.min(k))
        }
        (Kind::Object(xs), Kind::Object(ys)) => {
            let mut kind = Safe;
            let mut attrs = Vec::new();
            for (name, x) in xs {
                match b.attribute(name) {
                    Some(y) => {
                        let (t, k) = unify(x, y);
                        kind = kind.min(k);
                        attrs.push((name.clone(), t));
                    }
                    None => attrs.push((name.clone(), Type::optional(x.clone()))),
                }
            }
            for (name, y) in ys {
                if a.attribute(name).is_none() {
                    attrs.push((name.clone(), Type::optional(y.clone())));
                }
            }
            (Type::object(attrs), kind)
        }
        // Rule 10.
        _ => (Type::union([a.clone(), b.clone()]), Safe),
    }
}

fn wrap((t, k): (Type, Safety), f: impl FnOnce(Type) -> Type) -> (Type, Safety) {
    (f(t), k)
}

/// Rule 4: unify `t` with every member of a union.
fn unify_with_members(t: &Type, members: &[Type]) -> (Type, Safety) {
    let mut kind = Safety::Safe;
    let parts: Vec<Type> = members
        .iter()
        .map(|m| {
            let (u, k) = unify(t, m);
            kind = kind.min(k);
            u
        })
        .collect();
    (Type::union(parts), kind)
}

/// Unifies `start` in turn with each of `rest`.
fn fold_onto<'a>(start: &Type, rest: impl Iterator<Item = &'a Type>) -> (Type, Safety) {
    let mut acc = start.clone();
    let mut kind = Safety::Safe;
    for t in rest {
        let (u, k) = unify(&acc, t);
        acc = u;
        kind = kind.min(k);
    }
    (acc, kind)
}

/// The plain fold: from the first type, left to right; zero types → `none`.
pub fn unify_fold(types: &[Type]) -> (Type, Safety) {
    match types.split_first() {
        None => (Type::none(), Safety::Safe),
        Some((first, rest)) => fold_onto(first, rest.iter()),
    }
}

/// `unify_safe(a, b)`: the unified type when unification is safe, else the union.
pub fn unify_safe(a: &Type, b: &Type) -> Type {
    match unify(a, b) {
        (t, Safety::Safe) => t,
        _ => Type::union([a.clone(), b.clone()]),
    }
}

/// The safe fold used by conditionals and literal merges; zero types → `none`.
pub fn unify_safe_fold(types: &[Type]) -> Type {
    match types.split_first() {
        None => Type::none(),
        Some((first, rest)) => rest.iter().fold(first.clone(), |acc, t| unify_safe(&acc, t)),
    }
}
