//! Terraform's rule for the elements of a collection whose element type
//! contains `any` (`list(object({x = any}))`, `map(list(any))`): go-cty
//! converts each element to the element type on its own, the `any` parts
//! keeping the element's own type, and then the converted elements must
//! unify to one type, as one collection holds one element type. So
//! `[{x = true}, {x = 1}]` is no `list(object({x = any}))`: bool and number
//! have no common type, while `[{x = 1}, {x = "a"}]` is (both strings).

use super::{convert_with, ConvertOptions, Kind, Safety, Type};
use crate::value::Value;

/// Whether `any` occurs anywhere in `t`.
pub fn contains_any(t: &Type) -> bool {
    match t.kind() {
        Kind::Any => true,
        Kind::List(e) | Kind::Set(e) | Kind::Map(e) | Kind::Promise(e) | Kind::Output(e) => contains_any(e),
        Kind::Tuple(ts) | Kind::Union(ts) => ts.iter().any(contains_any),
        Kind::Object(attrs) => attrs.iter().any(|(_, t)| contains_any(t)),
        _ => false,
    }
}

/// The type `v` has once converted to `to`: `any` parts take the value's
/// own type, and a collection of a type containing `any` its elements'
/// common type. A null has the type `to` (Terraform's nulls are typed;
/// `null` for `any` is of unknown type). Only for values that convert;
/// others get `to`. Optional attributes are plain (see [`plain`]).
pub fn converted_type(v: &Value, to: &Type) -> Type {
    match (to.kind(), v) {
        (_, Value::Null) => plain(to),
        (Kind::Any, _) => value_type(v),
        // An empty collection keeps the target's type, `any` parts unknown.
        (Kind::List(_) | Kind::Set(_), Value::Tuple(items)) if items.is_empty() => plain(to),
        (Kind::Map(_), Value::Object(attrs)) if attrs.is_empty() => plain(to),
        (Kind::Union(members), _) => match members.iter().find(|m| !m.is_none()) {
            Some(m) if members.len() == 2 && members.iter().any(Type::is_none) => converted_type(v, m),
            _ => to.clone(),
        },
        (Kind::List(t) | Kind::Set(t), Value::Tuple(items)) if contains_any(t) => {
            let e = element_type(to, &converted(items.iter(), t)).unwrap_or_else(Type::any);
            to.map_children(|_| e.clone())
        }
        (Kind::Map(t), Value::Object(attrs)) if contains_any(t) => {
            Type::map(element_type(to, &converted(attrs.iter().map(|(_, x)| x), t)).unwrap_or_else(Type::any))
        }
        (Kind::Tuple(ts), Value::Tuple(items)) if ts.len() == items.len() => {
            Type::tuple(items.iter().zip(ts).map(|(x, t)| converted_type(x, t)).collect())
        }
        (Kind::Object(tattrs), Value::Object(attrs)) => Type::object(tattrs.iter().map(|(name, t)| {
            let x = attrs.iter().find(|(k, _)| k == name).map_or(&Value::Null, |(_, x)| x);
            (name.clone(), converted_type(x, t))
        })),
        _ => plain(to),
    }
}

/// A type as go-cty holds a value of it: `optional(T)` (`union(none, T)`)
/// is `T` at every depth, its absence being a null of `T`.
fn plain(t: &Type) -> Type {
    match t.kind() {
        Kind::Union(ms) if ms.len() == 2 && ms.iter().any(Type::is_none) => {
            ms.iter().find(|m| !m.is_none()).map_or_else(Type::any, plain)
        }
        _ => t.map_children(plain),
    }
}

/// The element type of the collection `to` (whose element type contains
/// `any`) holding elements of the converted types `elems`, or `None` when
/// Terraform rejects them. Lists and maps unify their elements (go-cty's
/// `conversionUnifyListElements`, `conversionUnifyCollectionElements`), as
/// does `set(any)`, a map of `any` ignoring its nulls; any other set, and a
/// map of tuples, take their elements as converted, so these must already
/// have one type.
pub fn element_type(to: &Type, elems: &[Type]) -> Option<Type> {
    match to.kind() {
        Kind::Set(t) if !t.is_any() => alike(elems),
        Kind::Map(t) if matches!(t.kind(), Kind::Tuple(_)) => alike(elems),
        Kind::Map(t) if t.is_any() => {
            // Nulls aside: with a null beside structural values, go-cty
            // gives up unifying and the others must already be alike.
            let known: Vec<Type> = elems.iter().filter(|t| !t.is_any()).cloned().collect();
            if known.len() < elems.len() && !known.iter().all(Type::is_primitive) {
                alike(&known)
            } else {
                common_type(&known)
            }
        }
        _ => common_type(elems),
    }
}

/// The one type all `types` are (`any` for none), or `None`.
fn alike(types: &[Type]) -> Option<Type> {
    types.windows(2).all(|w| w[0] == w[1]).then(|| types.first().cloned().unwrap_or_else(Type::any))
}

/// The type go-cty gives a constant: a null's type is unknown (`any`), and
/// every number is a `number`.
fn value_type(v: &Value) -> Type {
    match v {
        Value::Null => Type::any(),
        Value::Int(_) => Type::number(),
        Value::Tuple(vs) => Type::tuple(vs.iter().map(value_type).collect()),
        Value::Object(attrs) => Type::object(attrs.iter().map(|(k, v)| (k.clone(), value_type(v)))),
        _ => v.type_of(),
    }
}

/// The converted types of a collection's elements.
pub fn converted<'a>(items: impl Iterator<Item = &'a Value>, t: &Type) -> Vec<Type> {
    items.map(|x| converted_type(x, t)).collect()
}

/// The one type all `types` convert to without loss, as go-cty's unify
/// finds it; `None` when there is none. No types unify to `any`. `any` (a
/// null's or an empty collection's unknown type) takes whatever primitive
/// the others unify to, but never unifies with a structural type: go-cty
/// then gives up on the unknown shape (its `unifyAllAsDynamic`) and the
/// elements stay of different types.
pub fn common_type(types: &[Type]) -> Option<Type> {
    if let Some(t) = alike(types) {
        return Some(t);
    }
    let known: Vec<Type> = types.iter().filter(|t| !t.is_any()).cloned().collect();
    // Lists beside tuples unify as a list of all their elements, maps
    // beside objects as a map, unknown types or not (go-cty's
    // `unifyTuplesAsList`, `unifyObjectsAsMaps`).
    let has = |f: fn(&Kind) -> bool| known.iter().any(|t| f(t.kind()));
    let parts = |t: &Type| match t.kind() {
        Kind::List(e) | Kind::Map(e) => Some(vec![e.clone()]),
        Kind::Tuple(ts) => Some(ts.clone()),
        Kind::Object(attrs) => Some(attrs.iter().map(|(_, t)| t.clone()).collect()),
        _ => None,
    };
    if has(|k| matches!(k, Kind::List(_)))
        && has(|k| matches!(k, Kind::Tuple(_)))
        && has_only(&known, |k| matches!(k, Kind::List(_) | Kind::Tuple(_)))
    {
        return Some(Type::list(common_type(&gather(&known, parts)?)?));
    }
    if has(|k| matches!(k, Kind::Map(_)))
        && has(|k| matches!(k, Kind::Object(_)))
        && has_only(&known, |k| matches!(k, Kind::Map(_) | Kind::Object(_)))
    {
        return Some(Type::map(common_type(&gather(&known, parts)?)?));
    }
    if known.len() < types.len() && !known.iter().all(Type::is_primitive) {
        return None;
    }
    let types = known.as_slice();
    let Some(first) = types.first() else { return Some(Type::any()) };
    if types.iter().all(|t| t == first) {
        return Some(first.clone());
    }
    match first.kind() {
        Kind::List(_) | Kind::Set(_) | Kind::Map(_) => {
            let elems: Option<Vec<Type>> = types
                .iter()
                .map(|t| match (first.kind(), t.kind()) {
                    (Kind::List(_), Kind::List(e)) | (Kind::Set(_), Kind::Set(e)) | (Kind::Map(_), Kind::Map(e)) => {
                        Some(e.clone())
                    }
                    _ => None,
                })
                .collect();
            if let Some(elems) = elems {
                let e = common_type(&elems)?;
                return Some(first.map_children(|_| e.clone()));
            }
        }
        Kind::Object(attrs) => {
            let same_names = types.iter().all(|t| match t.kind() {
                Kind::Object(b) => b.len() == attrs.len() && b.iter().zip(attrs).all(|((x, _), (y, _))| x == y),
                _ => false,
            });
            if same_names {
                let mut unified = Vec::with_capacity(attrs.len());
                for (i, (name, _)) in attrs.iter().enumerate() {
                    let column: Vec<Type> = types
                        .iter()
                        .filter_map(|t| match t.kind() {
                            Kind::Object(b) => Some(b[i].1.clone()),
                            _ => None,
                        })
                        .collect();
                    unified.push((name.clone(), common_type(&column)?));
                }
                return Some(Type::object(unified));
            }
            // Objects of different attributes unify as a map of their
            // attributes' common type.
            if let Some(all) = gather(types, |t| match t.kind() {
                Kind::Object(b) => Some(b.iter().map(|(_, t)| t.clone()).collect()),
                _ => None,
            }) {
                return Some(Type::map(common_type(&all)?));
            }
        }
        Kind::Tuple(ts) => {
            let same_len = types.iter().all(|t| matches!(t.kind(), Kind::Tuple(b) if b.len() == ts.len()));
            if same_len {
                let mut unified = Vec::with_capacity(ts.len());
                for i in 0..ts.len() {
                    let column: Vec<Type> = types
                        .iter()
                        .filter_map(|t| match t.kind() {
                            Kind::Tuple(b) => Some(b[i].clone()),
                            _ => None,
                        })
                        .collect();
                    unified.push(common_type(&column)?);
                }
                return Some(Type::tuple(unified));
            }
            // Tuples of different lengths unify as a list of their elements'
            // common type.
            if let Some(all) = gather(types, |t| match t.kind() {
                Kind::Tuple(b) => Some(b.clone()),
                _ => None,
            }) {
                return Some(Type::list(common_type(&all)?));
            }
        }
        _ => {}
    }
    // Else one of the types that every other converts to safely (`string`
    // for strings, numbers and bools).
    let opts = ConvertOptions::default();
    types.iter().find(|c| types.iter().all(|t| convert_with(t, c, opts) == Safety::Safe)).cloned()
}

/// Whether every type is of kinds `f` accepts.
fn has_only(types: &[Type], f: fn(&Kind) -> bool) -> bool {
    types.iter().all(|t| f(t.kind()))
}

/// The children `f` finds in every type, or `None` if one has none.
fn gather(types: &[Type], f: impl Fn(&Type) -> Option<Vec<Type>>) -> Option<Vec<Type>> {
    let mut all = Vec::new();
    for t in types {
        all.extend(f(t)?);
    }
    Some(all)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn obj(attrs: &[(&str, Type)]) -> Type {
        Type::object(attrs.iter().map(|(k, t)| (k.to_string(), t.clone())))
    }

    #[test]
    fn unknown_unifies_with_primitives_only() {
        assert_eq!(common_type(&[Type::any(), Type::number()]), Some(Type::number()));
        assert_eq!(common_type(&[Type::number(), Type::string(), Type::bool()]), Some(Type::string()));
        assert_eq!(common_type(&[Type::number(), Type::bool()]), None);
        assert_eq!(common_type(&[Type::any(), obj(&[])]), None);
        assert_eq!(common_type(&[]), Some(Type::any()));
    }

    #[test]
    fn structures_unify_by_parts_or_as_collections() {
        let objects = [obj(&[("x", Type::number())]), obj(&[("x", Type::string())])];
        assert_eq!(common_type(&objects), Some(obj(&[("x", Type::string())])));
        let differing = [obj(&[("a", Type::number())]), obj(&[("b", Type::string())])];
        assert_eq!(common_type(&differing), Some(Type::map(Type::string())));
        let tuples = [Type::tuple(vec![Type::number()]), Type::tuple(vec![Type::string(), Type::bool()])];
        assert_eq!(common_type(&tuples), Some(Type::list(Type::string())));
    }

    #[test]
    fn sets_and_maps_of_tuples_take_no_unification() {
        let x_any = obj(&[("x", Type::any())]);
        let elems = [obj(&[("x", Type::number())]), obj(&[("x", Type::string())])];
        assert_eq!(element_type(&Type::list(x_any.clone()), &elems), Some(elems[1].clone()));
        assert_eq!(element_type(&Type::set(x_any), &elems), None);
        let tuples = [Type::tuple(vec![Type::number()]), Type::tuple(vec![Type::string()])];
        assert_eq!(element_type(&Type::map(Type::tuple(vec![Type::any()])), &tuples), None);
    }
}
