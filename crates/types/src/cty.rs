//! Terraform's unification of a conditional's results (types.md §4,
//! Terraform): HCL's `ConditionalExpr` asks go-cty's `convert.UnifyUnsafe`
//! for one type both results convert to, and a pair without one is the
//! error "Inconsistent conditional result types". This is a port of go-cty's
//! `unify` (cty/convert/unify.go, unchanged since go-cty 1.11, so the same in
//! Terraform 1.11 and 1.15) over our types, as Terraform holds their values:
//! `none` and `any` are the unknown type (`cty.DynamicPseudoType`, a literal
//! `null` being a null of it), `optional(T)` is `T`, and a union of other
//! members is a value whose type only the run knows (also unknown).

use super::{unify_safe, Kind, Type};

/// The type of `c ? a : b` in Terraform, or, when the two results have no
/// common type, why not (Terraform's wording, from HCL's
/// `describeConditionalTypeMismatch`).
pub fn conditional(a: &Type, b: &Type) -> Result<Type, String> {
    if a == b {
        return Ok(a.clone());
    }
    // A null result takes the other's type, and an unknown type unifies
    // with anything (HCL's first three cases): our own rule keeps `none`
    // visible ("may be null") and the union of what we know.
    if a.is_none() || b.is_none() {
        return Ok(unify_safe(a, b));
    }
    let (x, y) = (held(a), held(b));
    if x.is_any() || y.is_any() {
        return Ok(unify_safe(a, b));
    }
    unify(&[x.clone(), y.clone()]).ok_or_else(|| describe(&x, &y))
}

/// A type as Terraform holds a value of it (see the module's comment).
fn held(t: &Type) -> Type {
    match t.kind() {
        Kind::None | Kind::Any | Kind::Promise(_) | Kind::Output(_) => Type::any(),
        Kind::Union(ms) => {
            let mut some = ms.iter().filter(|m| !m.is_none());
            match (some.next(), some.next()) {
                (Some(one), None) => held(one),
                _ => Type::any(),
            }
        }
        _ => t.map_children(held),
    }
}

/// Whether go-cty has an (unsafe) conversion from `from` to `to` (its
/// `getConversionKnown`), of types as Terraform holds values (no unions,
/// `any` the unknown type, `int` a number).
fn converts(from: &Type, to: &Type) -> bool {
    use Kind::{Bool, Int, List, Map, Number, Object, Set, String, Tuple};
    if to.is_any() || from.is_any() {
        return true;
    }
    match (from.kind(), to.kind()) {
        (Int | Number, Int | Number) | (_, String) if from.is_primitive() => true,
        (Bool, Bool) | (String, Int | Number | Bool) => true,
        (Object(_), Object(ts)) => ts.iter().all(|(name, t)| from.attribute(name).is_some_and(|f| converts(f, t))),
        (Tuple(fs), Tuple(ts)) => fs.len() == ts.len() && fs.iter().zip(ts).all(|(f, t)| converts(f, t)),
        (List(f) | Set(f), List(t) | Set(t)) | (Map(f), Map(t)) => converts(f, t),
        (Tuple(fs), List(t) | Set(t)) => elements_convert(fs, t, true),
        (Object(fs), Map(t)) => elements_convert(&fs.iter().map(|(_, f)| f.clone()).collect::<Vec<_>>(), t, false),
        (Map(f), Object(ts)) => ts.iter().all(|(_, t)| converts(f, t)),
        _ => false,
    }
}

/// Whether the elements of a tuple (or the attributes of an object) convert
/// to a collection of `t` (`conversionTupleToList`, `…ToSet`,
/// `conversionObjectToMap`): to an unknown element type they must first
/// unify, and a list or set of them must then not be of the unknown type
/// unless they all are.
fn elements_convert(elems: &[Type], t: &Type, sequence: bool) -> bool {
    if elems.is_empty() {
        return true;
    }
    let target = if t.is_any() {
        let Some(u) = unify(elems) else { return false };
        if sequence && u.is_any() && !elems.iter().all(Type::is_any) {
            return false;
        }
        u
    } else {
        t.clone()
    };
    elems.iter().all(|e| converts(e, &target))
}

/// go-cty's `unify(types, unsafe = true)`: the type every one of `types`
/// converts to, or `None`.
pub fn unify(types: &[Type]) -> Option<Type> {
    if types.is_empty() {
        return None;
    }
    let count = |f: fn(&Kind) -> bool| types.iter().filter(|t| f(t.kind())).count();
    let maps = count(|k| matches!(k, Kind::Map(_)));
    let lists = count(|k| matches!(k, Kind::List(_)));
    let sets = count(|k| matches!(k, Kind::Set(_)));
    let objects = count(|k| matches!(k, Kind::Object(_)));
    let tuples = count(|k| matches!(k, Kind::Tuple(_)));
    let dynamic = count(|k| matches!(k, Kind::Any));
    let n = types.len();
    // Go's switch: the first case that holds runs; one that finds nothing
    // falls to the preference order below.
    if maps > 0 && maps + dynamic == n {
        return collections(Type::map, types, dynamic > 0);
    } else if maps > 0 && maps + objects + dynamic == n {
        if let Some(t) = as_collection(types, |k| matches!(k, Kind::Object(_)), objects_to_map) {
            return Some(t);
        }
    } else if lists > 0 && lists + dynamic == n {
        return collections(Type::list, types, dynamic > 0);
    } else if lists > 0 && lists + tuples + dynamic == n {
        if let Some(t) = as_collection(types, |k| matches!(k, Kind::Tuple(_)), tuples_to_list) {
            return Some(t);
        }
    } else if sets > 0 && sets + dynamic == n {
        return collections(Type::set, types, dynamic > 0);
    } else if objects > 0 && objects + dynamic == n {
        return if dynamic > 0 { Some(Type::any()) } else { object_types(types) };
    } else if tuples > 0 && tuples + dynamic == n {
        return if dynamic > 0 { Some(Type::any()) } else { tuple_types(types) };
    } else if objects > 0 && tuples > 0 {
        return None;
    }
    // The first type, most general first, that all the others convert to.
    let order = sort_types(types);
    order.into_iter().map(|i| &types[i]).find(|want| types.iter().all(|t| converts(t, want))).cloned()
}

/// `unifyCollectionTypes`: collections of one kind unify their elements.
fn collections(make: fn(Type) -> Type, types: &[Type], dynamic: bool) -> Option<Type> {
    if dynamic {
        return Some(Type::any());
    }
    let elems: Vec<Type> = types.iter().map(element).collect();
    let t = make(unify(&elems)?);
    types.iter().all(|x| converts(x, &t)).then_some(t)
}

fn element(t: &Type) -> Type {
    match t.kind() {
        Kind::List(e) | Kind::Set(e) | Kind::Map(e) => e.clone(),
        _ => Type::any(),
    }
}

/// `unifyObjectsAsMaps` / `unifyTuplesAsList`: the structural types (those
/// `is` picks) unify as one collection (`to_collection`), which then
/// unifies with the other collections; `None` unless that gives a
/// collection of the same kind.
fn as_collection(types: &[Type], is: fn(&Kind) -> bool, to_collection: fn(&[Type]) -> Option<Type>) -> Option<Type> {
    let structural: Vec<Type> = types.iter().filter(|t| is(t.kind())).cloned().collect();
    let c = to_collection(&structural)?;
    let replaced: Vec<Type> = types.iter().map(|t| if is(t.kind()) { c.clone() } else { t.clone() }).collect();
    let t = unify(&replaced)?;
    (std::mem::discriminant(t.kind()) == std::mem::discriminant(c.kind())).then_some(t)
}

/// `unifyObjectTypes`: objects of the same attribute names unify attribute
/// by attribute (one attribute without a common type fails the whole);
/// objects of different names unify as a map.
fn object_types(types: &[Type]) -> Option<Type> {
    let names = |t: &Type| match t.kind() {
        Kind::Object(attrs) => attrs.iter().map(|(k, _)| k.clone()).collect::<Vec<_>>(),
        _ => Vec::new(),
    };
    let first = names(&types[0]);
    if types[1..].iter().any(|t| names(t) != first) {
        return objects_to_map(types);
    }
    let mut attrs = Vec::with_capacity(first.len());
    for name in first {
        let column: Vec<Type> = types.iter().map(|t| t.attribute(&name).cloned().unwrap_or_else(Type::any)).collect();
        attrs.push((name, unify(&column)?));
    }
    let t = Type::object(attrs);
    if types.iter().all(|x| converts(x, &t)) {
        Some(t)
    } else {
        objects_to_map(types)
    }
}

/// `unifyObjectTypesToMap`: a map of every attribute's common type.
fn objects_to_map(types: &[Type]) -> Option<Type> {
    let all: Vec<Type> = types
        .iter()
        .flat_map(|t| match t.kind() {
            Kind::Object(attrs) => attrs.iter().map(|(_, a)| a.clone()).collect(),
            _ => Vec::new(),
        })
        .collect();
    let t = Type::map(unify(&all)?);
    types.iter().all(|x| converts(x, &t)).then_some(t)
}

fn tuple_elements(t: &Type) -> &[Type] {
    match t.kind() {
        Kind::Tuple(ts) => ts,
        _ => &[],
    }
}

/// `unifyTupleTypes`: tuples of one length unify element by element (one
/// element without a common type fails the whole); of different lengths,
/// as a list.
fn tuple_types(types: &[Type]) -> Option<Type> {
    let len = tuple_elements(&types[0]).len();
    if types[1..].iter().any(|t| tuple_elements(t).len() != len) {
        return tuples_to_list(types);
    }
    let mut elems = Vec::with_capacity(len);
    for i in 0..len {
        let column: Vec<Type> = types.iter().map(|t| tuple_elements(t)[i].clone()).collect();
        elems.push(unify(&column)?);
    }
    let t = Type::tuple(elems);
    if types.iter().all(|x| converts(x, &t)) {
        Some(t)
    } else {
        tuples_to_list(types)
    }
}

/// `unifyTupleTypesToList`: a list of every element's common type.
fn tuples_to_list(types: &[Type]) -> Option<Type> {
    let all: Vec<Type> = types.iter().flat_map(|t| tuple_elements(t).to_vec()).collect();
    let t = Type::list(unify(&all)?);
    types.iter().all(|x| converts(x, &t)).then_some(t)
}

/// go-cty's `sortTypes`: indices of `types`, most general first (a
/// topological order of `compare_types`, ties in their given order).
fn sort_types(types: &[Type]) -> Vec<usize> {
    let n = types.len();
    let mut edges: Vec<Vec<usize>> = vec![Vec::new(); n];
    for i in 0..n {
        for j in i + 1..n {
            match compare_types(&types[i], &types[j]) {
                c if c < 0 => edges[i].push(j),
                c if c > 0 => edges[j].push(i),
                _ => {}
            }
        }
    }
    let mut in_degree = vec![0usize; n];
    for outs in &edges {
        for &j in outs {
            in_degree[j] += 1;
        }
    }
    let mut order: Vec<usize> = (0..n).filter(|&i| in_degree[i] == 0).collect();
    let mut at = 0;
    while at < order.len() {
        let i = order[at];
        at += 1;
        for &j in &edges[i] {
            in_degree[j] -= 1;
            if in_degree[j] == 0 {
                order.push(j);
            }
        }
    }
    order
}

/// go-cty's `compareTypes`: negative when `a` is the more general (the
/// preferred result), positive when `b` is, 0 when neither. Our `int` is a
/// cty number: beside `number` it is the less general.
fn compare_types(a: &Type, b: &Type) -> i32 {
    use Kind::{Any, Int, List, Map, Number, Object, Set, String, Tuple};
    match (a.kind(), b.kind()) {
        (Any, Any) => return 0,
        (_, Any) => return -1,
        (Any, _) => return 1,
        _ => {}
    }
    if a.is_primitive() && b.is_primitive() {
        match (a.kind(), b.kind()) {
            (String, String) => return 0,
            (_, String) => return 1,
            (String, _) => return -1,
            (Int, Number) => return 1,
            (Number, Int) => return -1,
            _ => {}
        }
    }
    match (a.kind(), b.kind()) {
        (List(x), List(y)) | (Set(x), Set(y)) | (Map(x), Map(y)) => return compare_types(x, y),
        _ => {}
    }
    // (go-cty's own order: a list or tuple before a set, a list before a
    // tuple, a map before an object.)
    let collection_first =
        |a: &Kind, b: &Kind| matches!((a, b), (List(_) | Tuple(_), Set(_)) | (List(_), Tuple(_)) | (Map(_), Object(_)));
    if collection_first(a.kind(), b.kind()) {
        return -1;
    }
    if collection_first(b.kind(), a.kind()) {
        return 1;
    }
    let parts = match (a.kind(), b.kind()) {
        (Object(xs), Object(ys)) => {
            if xs.len() != ys.len() || xs.iter().zip(ys).any(|((x, _), (y, _))| x != y) {
                return 0;
            }
            xs.iter().zip(ys).map(|((_, x), (_, y))| compare_types(x, y)).collect::<Vec<_>>()
        }
        (Tuple(xs), Tuple(ys)) => {
            if xs.len() != ys.len() {
                return 0;
            }
            xs.iter().zip(ys).map(|(x, y)| compare_types(x, y)).collect()
        }
        _ => return 0,
    };
    match (parts.iter().any(|&c| c < 0), parts.iter().any(|&c| c > 0)) {
        (true, false) => -1,
        (false, true) => 1,
        _ => 0,
    }
}

/// HCL's `describeConditionalTypeMismatch`, of the types as Terraform holds
/// them.
fn describe(t: &Type, f: &Type) -> String {
    match (t.kind(), f.kind()) {
        (Kind::Object(ts), Kind::Object(fs)) => {
            for (name, ta) in ts {
                match f.attribute(name) {
                    None => {
                        return format!(
                        "the 'true' value includes object attribute \"{name}\", which is absent in the 'false' value"
                    )
                    }
                    Some(fa) if fa != ta => {
                        return format!("type mismatch for object attribute \"{name}\": {}", describe(ta, fa))
                    }
                    Some(_) => {}
                }
            }
            if let Some((name, _)) = fs.iter().find(|(name, _)| t.attribute(name).is_none()) {
                return format!(
                    "the 'false' value includes object attribute \"{name}\", which is absent in the 'true' value"
                );
            }
        }
        (Kind::Tuple(ts), Kind::Tuple(fs)) => {
            if ts.len() != fs.len() {
                return format!(
                    "the 'true' tuple has length {}, but the 'false' tuple has length {}",
                    ts.len(),
                    fs.len()
                );
            }
            if let Some((i, (x, y))) = ts.iter().zip(fs).enumerate().find(|(_, (x, y))| x != y) {
                return format!("type mismatch for tuple element {i}: {}", describe(x, y));
            }
        }
        (Kind::List(x), Kind::List(y)) | (Kind::Set(x), Kind::Set(y)) | (Kind::Map(x), Kind::Map(y))
            if matches!(
                (x.kind(), y.kind()),
                (Kind::Object(_), Kind::Object(_)) | (Kind::Tuple(_), Kind::Tuple(_))
            ) =>
        {
            let noun = match t.kind() {
                Kind::List(_) => "list",
                Kind::Set(_) => "set",
                _ => "map",
            };
            return format!("mismatched {noun} element types: {}", describe(x, y));
        }
        _ => {}
    }
    let (tn, fname) = (friendly(t), friendly(f));
    if tn == fname {
        return "at least one deeply-nested attribute or element is not compatible across both the 'true' and the \
                'false' value"
            .into();
    }
    format!("the 'true' value is {tn}, but the 'false' value is {fname}")
}

/// cty's `FriendlyName`.
fn friendly(t: &Type) -> String {
    match t.kind() {
        Kind::Int | Kind::Number => "number".into(),
        Kind::String => "string".into(),
        Kind::Bool => "bool".into(),
        Kind::List(e) => format!("list of {}", friendly(e)),
        Kind::Set(e) => format!("set of {}", friendly(e)),
        Kind::Map(e) => format!("map of {}", friendly(e)),
        Kind::Object(_) => "object".into(),
        Kind::Tuple(_) => "tuple".into(),
        _ => "dynamic".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn obj(attrs: &[(&str, Type)]) -> Type {
        Type::object(attrs.iter().map(|(k, t)| (k.to_string(), t.clone())))
    }

    fn both(a: &Type, b: &Type) -> Result<Type, String> {
        let one = conditional(a, b);
        let other = conditional(b, a);
        assert_eq!(one.is_ok(), other.is_ok(), "{a} and {b} unify one way only");
        one
    }

    #[test]
    fn primitives_unify_to_string_but_bool_and_number_do_not() {
        assert_eq!(both(&Type::int(), &Type::string()), Ok(Type::string()));
        assert_eq!(both(&Type::int(), &Type::number()), Ok(Type::number()));
        assert_eq!(both(&Type::int(), &Type::int()), Ok(Type::int()));
        let err = conditional(&Type::bool(), &Type::int()).unwrap_err();
        assert_eq!(err, "the 'true' value is bool, but the 'false' value is number");
    }

    #[test]
    fn collections_beside_structures() {
        let m = Type::map(obj(&[("a", Type::string())]));
        let err = conditional(&Type::optional(m.clone()), &Type::tuple(vec![])).unwrap_err();
        assert_eq!(err, "the 'true' value is map of object, but the 'false' value is tuple");
        assert_eq!(both(&m, &obj(&[])), Ok(m.clone()));
        let l = Type::list(obj(&[("key", Type::string())]));
        assert_eq!(both(&Type::optional(l.clone()), &Type::tuple(vec![])), Ok(l));
        assert_eq!(both(&Type::tuple(vec![]), &Type::tuple(vec![Type::string()])), Ok(Type::list(Type::string())));
        assert!(both(&obj(&[]), &Type::tuple(vec![])).is_err());
        assert!(both(&Type::string(), &Type::tuple(vec![Type::string()])).is_err());
    }

    #[test]
    fn objects_of_different_names_unify_as_maps() {
        let a = obj(&[("a", Type::int())]);
        let b = obj(&[("b", Type::string())]);
        assert_eq!(both(&a, &b), Ok(Type::map(Type::string())));
        let ab = obj(&[("a", Type::string()), ("b", Type::tuple(vec![Type::string()]))]);
        let err = conditional(&ab, &obj(&[("a", Type::string())])).unwrap_err();
        assert_eq!(err, "the 'true' value includes object attribute \"b\", which is absent in the 'false' value");
    }

    #[test]
    fn nulls_and_unknown_types_unify_with_anything() {
        let l = Type::list(Type::string());
        assert_eq!(both(&Type::none(), &l), Ok(Type::optional(l.clone())));
        assert_eq!(both(&Type::any(), &Type::bool()), Ok(Type::any()));
        assert!(both(&Type::union([Type::bool(), Type::string()]), &l).is_ok());
        assert_eq!(
            both(&Type::tuple(vec![Type::none()]), &Type::tuple(vec![Type::string()])),
            Ok(Type::tuple(vec![Type::string()]))
        );
    }
}
