//! The return types of the built-ins whose result depends on their
//! arguments' types (`concat`, `merge`, `flatten`, …), as the function
//! table names them.

use std::collections::BTreeMap;
use types::{unify_safe, unify_safe_fold, Kind, Type};

// Return-type rules. Each returns `None` when the arguments do not say more
// than the declared type.

/// A nullable argument (`optional(list(T))`) is treated as its non-null member:
/// the functions skip or reject null, and the common case is a value.
pub(super) fn non_null(t: &Type) -> Type {
    if let Kind::Union(ms) = t.kind() {
        let rest: Vec<&Type> = ms.iter().filter(|m| !m.is_none()).collect();
        if let [only] = rest.as_slice() {
            return (*only).clone();
        }
    }
    t.clone()
}

/// The element types of a list, set or tuple; `None` for anything else.
pub(super) fn seq_elems(t: &Type) -> Option<Vec<Type>> {
    match non_null(t).kind() {
        Kind::List(e) | Kind::Set(e) => Some(vec![e.clone()]),
        Kind::Tuple(ts) => Some(ts.clone()),
        _ => None,
    }
}

/// The one element type of a list, set or tuple (a tuple's elements folded; an
/// empty one has no known element, so `any`).
pub(super) fn seq_elem(t: &Type) -> Option<Type> {
    let es = seq_elems(t)?;
    Some(if es.is_empty() { Type::any() } else { unify_safe_fold(&es) })
}

/// A type without its `none` members: the type of a value known not to be null.
pub(super) fn without_none(t: &Type) -> Type {
    match t.kind() {
        Kind::Union(ms) => Type::union(ms.iter().filter(|m| !m.is_none()).cloned().collect::<Vec<_>>()),
        _ => t.clone(),
    }
}

pub(super) fn fold(args: &[Type]) -> Option<Type> {
    (!args.is_empty()).then(|| unify_safe_fold(args))
}

pub(super) fn same(args: &[Type]) -> Option<Type> {
    args.first().cloned()
}

pub(super) fn wrap_output(args: &[Type]) -> Option<Type> {
    args.first().map(|t| Type::output(t.clone()))
}

/// `coalesce` and `coalescelist` never return null: they skip null arguments.
pub(super) fn coalesce(args: &[Type]) -> Option<Type> {
    let vals: Vec<Type> = args.iter().filter(|t| !t.is_none()).map(without_none).collect();
    fold(&vals)
}

pub(super) fn list_of(args: &[Type]) -> Option<Type> {
    fold(args).map(Type::list)
}

/// Tuples only concatenate to a tuple, as in Terraform; any list makes the
/// result a list of the folded element types.
pub(super) fn concat(args: &[Type]) -> Option<Type> {
    let mut elems = Vec::new();
    let mut all_tuples = true;
    for t in args {
        let t = non_null(t);
        all_tuples &= matches!(t.kind(), Kind::Tuple(_));
        elems.extend(seq_elems(&t)?);
    }
    if args.is_empty() {
        return None;
    }
    Some(if all_tuples {
        Type::tuple(elems)
    } else if elems.is_empty() {
        Type::list(Type::any())
    } else {
        Type::list(unify_safe_fold(&elems))
    })
}

/// Objects merge attribute by attribute, later ones winning; maps merge into a
/// map; a mix (or anything unknown) is `any`. Null arguments are skipped.
pub(super) fn merge(args: &[Type]) -> Option<Type> {
    let args: Vec<Type> = args.iter().map(non_null).filter(|t| !t.is_none()).collect();
    if args.iter().all(|t| matches!(t.kind(), Kind::Object(_))) {
        let mut attrs = BTreeMap::new();
        for t in &args {
            if let Kind::Object(xs) = t.kind() {
                attrs.extend(xs.iter().cloned());
            }
        }
        return Some(Type::object(attrs));
    }
    let mut elems = Vec::new();
    for t in &args {
        match t.kind() {
            Kind::Map(e) => elems.push(e.clone()),
            _ => return None,
        }
    }
    Some(Type::map(unify_safe_fold(&elems)))
}

/// `lookup(map(T), key[, default])` is T (or the default's type); an object
/// gives any of its attribute types.
pub(super) fn lookup_ret(args: &[Type]) -> Option<Type> {
    let found = match non_null(args.first()?).kind() {
        Kind::Map(t) => t.clone(),
        Kind::Object(attrs) if !attrs.is_empty() => {
            Type::union(attrs.iter().map(|(_, t)| t.clone()).collect::<Vec<_>>())
        }
        Kind::Object(_) => return args.get(2).cloned(),
        _ => return None,
    };
    Some(match args.get(2) {
        Some(d) => unify_safe(&found, d),
        None => found,
    })
}

pub(super) fn element(args: &[Type]) -> Option<Type> {
    match non_null(args.first()?).kind() {
        Kind::List(e) => Some(e.clone()),
        Kind::Tuple(ts) if !ts.is_empty() => Some(Type::union(ts.clone())),
        _ => None,
    }
}

/// `one` and `singleOrNone`: the element, or null for an empty collection.
pub(super) fn one(args: &[Type]) -> Option<Type> {
    match non_null(args.first()?).kind() {
        Kind::List(e) | Kind::Set(e) => Some(Type::optional(e.clone())),
        Kind::Tuple(ts) => Some(match ts.as_slice() {
            [] => Type::none(),
            [only] => only.clone(),
            _ => Type::optional(Type::union(ts.clone())),
        }),
        _ => None,
    }
}

pub(super) fn to_list(args: &[Type]) -> Option<Type> {
    seq_elem(args.first()?).map(Type::list)
}

pub(super) fn to_set(args: &[Type]) -> Option<Type> {
    seq_elem(args.first()?).map(Type::set)
}

pub(super) fn to_map(args: &[Type]) -> Option<Type> {
    match non_null(args.first()?).kind() {
        Kind::Map(e) => Some(Type::map(e.clone())),
        Kind::Object(attrs) if attrs.is_empty() => Some(Type::map(Type::any())),
        Kind::Object(attrs) => {
            Some(Type::map(unify_safe_fold(&attrs.iter().map(|(_, t)| t.clone()).collect::<Vec<_>>())))
        }
        _ => None,
    }
}

/// A tuple reverses element by element; anything else is a list.
pub(super) fn reverse(args: &[Type]) -> Option<Type> {
    let t = non_null(args.first()?);
    match t.kind() {
        Kind::Tuple(ts) => Some(Type::tuple(ts.iter().rev().cloned().collect())),
        _ => to_list(args),
    }
}

pub(super) fn chunklist(args: &[Type]) -> Option<Type> {
    seq_elem(args.first()?).map(|e| Type::list(Type::list(e)))
}

pub(super) fn values(args: &[Type]) -> Option<Type> {
    match non_null(args.first()?).kind() {
        Kind::Map(e) => Some(Type::list(e.clone())),
        // Attributes are sorted by name, the order `values` returns them in.
        Kind::Object(attrs) => Some(Type::tuple(attrs.iter().map(|(_, t)| t.clone()).collect())),
        _ => None,
    }
}

pub(super) fn zipmap(args: &[Type]) -> Option<Type> {
    seq_elem(args.get(1)?).map(Type::map)
}

/// Elements of every known argument folded; an unknown argument gives `any`
/// elements rather than giving up, since the result is a set either way.
pub(super) fn set_union(args: &[Type]) -> Option<Type> {
    let mut elems = Vec::new();
    for t in args {
        elems.extend(seq_elems(t)?);
    }
    Some(Type::set(if elems.is_empty() { Type::any() } else { unify_safe_fold(&elems) }))
}

/// `setsubtract` keeps elements of its first argument only.
pub(super) fn set_first(args: &[Type]) -> Option<Type> {
    to_set(args)
}

/// All sets give a set of tuples; any list or tuple gives a list of them.
pub(super) fn setproduct(args: &[Type]) -> Option<Type> {
    let mut elems = Vec::new();
    let mut all_sets = true;
    for t in args {
        let t = non_null(t);
        all_sets &= matches!(t.kind(), Kind::Set(_));
        elems.push(seq_elem(&t)?);
    }
    if args.is_empty() {
        return None;
    }
    let row = Type::tuple(elems);
    Some(if all_sets { Type::set(row) } else { Type::list(row) })
}

/// Flattens nested lists, sets and tuples down to their non-sequence leaves.
/// A leaf that might itself be a sequence (`any`, or a union with a sequence
/// member) makes the element unknown.
pub(super) fn flatten(args: &[Type]) -> Option<Type> {
    fn leaves(t: &Type, out: &mut Vec<Type>) -> bool {
        match seq_elems(t) {
            Some(es) => es.iter().all(|e| leaves(e, out)),
            None => {
                let maybe_seq = t
                    .members()
                    .iter()
                    .any(|m| matches!(m.kind(), Kind::Any | Kind::List(_) | Kind::Set(_) | Kind::Tuple(_)));
                if !maybe_seq {
                    out.push(t.clone());
                }
                !maybe_seq
            }
        }
    }
    let top = seq_elems(args.first()?)?;
    let mut out = Vec::new();
    if !top.iter().all(|e| leaves(e, &mut out)) {
        return None;
    }
    Some(Type::list(if out.is_empty() { Type::any() } else { unify_safe_fold(&out) }))
}

pub(super) fn entry(key: Type, value: Type) -> Type {
    Type::object([("key".to_string(), key), ("value".to_string(), value)])
}

/// PCL `entries`: list and tuple keys are indices (`int`), map and object keys
/// strings.
pub(super) fn entries(args: &[Type]) -> Option<Type> {
    let union_of = |ts: Vec<Type>| if ts.is_empty() { Type::any() } else { Type::union(ts) };
    let (k, v) = match non_null(args.first()?).kind() {
        Kind::Map(e) => (Type::string(), e.clone()),
        Kind::Object(attrs) => (Type::string(), union_of(attrs.iter().map(|(_, t)| t.clone()).collect())),
        Kind::List(e) => (Type::int(), e.clone()),
        Kind::Tuple(ts) => (Type::int(), union_of(ts.clone())),
        _ => return None,
    };
    Some(Type::list(entry(k, v)))
}

/// PCL `min`/`max` are `int` when every number is (as Pulumi's binder does),
/// looking into an expanded (`...`) list or tuple argument.
pub(super) fn pcl_min_max(args: &[Type]) -> Option<Type> {
    let is_int = |t: &Type| matches!(t.kind(), Kind::Int);
    let all_int = !args.is_empty()
        && args.iter().all(|t| match t.kind() {
            Kind::Int => true,
            Kind::List(e) | Kind::Set(e) => is_int(e),
            Kind::Tuple(ts) => !ts.is_empty() && ts.iter().all(is_int),
            _ => false,
        });
    Some(if all_int { Type::int() } else { Type::number() })
}

/// PCL `recover(value, recovery)` is always an output of either's type.
pub(super) fn recover(args: &[Type]) -> Option<Type> {
    match args {
        [v, r, ..] => Some(Type::output(unify_safe(v, r))),
        _ => None,
    }
}
