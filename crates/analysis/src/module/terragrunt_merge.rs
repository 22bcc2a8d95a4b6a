//! How a Terragrunt unit's `inputs` and those of its `include`s merge into
//! the one value of each name that reaches the unit's module
//! (docs/spec/terragrunt.md §3), following gruntwork-io/terragrunt
//! `pkg/config/include.go`:
//!
//! - `handleInclude` merges the includes "in reverse order … the bottom
//!   most elements override those in earlier includes": starting from the
//!   unit's own configuration, each include from the last to the first
//!   takes the result so far as the child, which wins over it;
//! - `shallow` (`Merge` → `mergeInputs`) keeps the child's value of a name
//!   both set, `deep` (`DeepMerge` → `deepMergeInputs`, mergo `Merge` with
//!   `WithOverride` and `WithAppendSlice`) merges two maps recursively,
//!   appends two lists (the included file's first) and lets the child win
//!   otherwise, `no_merge` takes nothing of the include.

use super::*;

/// A value that reaches a unit's module: a constant when every part of it
/// is one (checked by value, as a unit's own constants are), else its type.
#[derive(Clone, Debug)]
pub(super) enum Part {
    Value(Value),
    Type(Type),
}

impl Part {
    fn ty(&self) -> Type {
        match self {
            Part::Value(v) => v.type_of(),
            Part::Type(t) => t.clone(),
        }
    }
}

/// One input of a unit once its includes are merged in.
#[derive(Clone, Debug)]
pub(super) struct Merged {
    pub name: String,
    pub value: Part,
    /// The includes (by position in the unit, file order) whose values are
    /// part of it; empty when the unit's own value reaches the module alone.
    pub from: Vec<usize>,
    /// Whether the unit's own value is part of it.
    pub unit: bool,
}

/// One `include "LABEL"` of a unit, in file order.
pub(super) struct Include {
    pub label: String,
    pub strategy: String,
    /// The included directory's interface, when the include is followed.
    pub callee: Option<Arc<crate::calls::Interface>>,
}

/// The unit's includes, in file order.
pub(super) fn includes(inf: &Infer, doc: &Document) -> Vec<Include> {
    let found = include_blocks(doc).into_iter().map(|(label, strategy)| {
        let callee = match inf.env().callee(&crate::calls::include_call(&label)) {
            Some(Callee::Module(i)) => Some(i),
            _ => None,
        };
        Include { label, strategy, callee }
    });
    found.collect()
}

/// The label and merge strategy of each `include` block of a unit, in file
/// order.
pub(super) fn include_blocks(doc: &Document) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for item in doc.items.iter() {
        let Some(body) = item.body(&doc.file.text) else { continue };
        let src = item_source(doc, item);
        for b in body.blocks().filter(|b| b.ident.value().as_str() == "include") {
            let label = b.labels.first().map(label_text).unwrap_or("").to_string();
            out.push((label, super::terragrunt::strategy(b, src)));
        }
    }
    out
}

/// The unit's own top-level `inputs = { … }`, name by name: each value's
/// constant, else its type as the file's analysis typed it. `None` when
/// the unit's `inputs` is not an object written out (`merge(…)`): what it
/// sets is not known.
fn own_inputs(inf: &Infer, doc: &Document) -> Option<Vec<(String, Part)>> {
    let own = inf.env().lookup(Space::Pcl, "inputs").map(|(t, _)| t);
    if own.as_ref().is_some_and(|t| !matches!(t.kind(), Kind::Object(_))) {
        return None;
    }
    let mut out = Vec::new();
    let mut written = true;
    each_input(doc, |_, src, key, _, v| {
        let Some(key) = key else {
            written = false;
            return;
        };
        let part = match eval(v, src) {
            Ok(value) => Part::Value(value),
            Err(_) => Part::Type(own.as_ref().and_then(|t| t.attribute(&key)).cloned().unwrap_or_else(Type::any)),
        };
        out.push((key, part));
    });
    if !written {
        return None;
    }
    Some(out)
}

/// Each attribute of a file's top-level `inputs = { … }`: its item, the
/// item's source, its name (`None` for a key that is not a name or a
/// string), its key and its value.
pub(super) fn each_input<'d>(
    doc: &'d Document,
    mut f: impl FnMut(&Item, Source<'d>, Option<String>, &hcl_edit::expr::ObjectKey, &Expression),
) {
    for item in doc.items.iter() {
        let Some(body) = item.body(&doc.file.text) else { continue };
        let src = item_source(doc, item);
        let Some(Expression::Object(obj)) = body.get_attribute("inputs").map(|a| &a.value) else { continue };
        for (k, v) in obj.iter() {
            let key = match k {
                hcl_edit::expr::ObjectKey::Ident(id) => Some(id.value().to_string()),
                hcl_edit::expr::ObjectKey::Expression(Expression::String(s)) => Some(s.value().to_string()),
                _ => None,
            };
            f(item, src, key, k, v.expr());
        }
    }
}

/// What an include sets, by name (`None`: the include merges nothing;
/// `Some(None)`: its values are not known, as when its file is not
/// followed: then no value it may take part in is reported).
type Given = Option<Option<Vec<(String, Part)>>>;

/// What one include sets: its values by name, or `None` when its file's
/// `inputs` are not an object written out (each name may then be set).
fn include_inputs(i: &crate::calls::Interface) -> Option<Vec<(String, Part)>> {
    let whole = i.output(crate::calls::INCLUDED)?;
    if !matches!(whole.ty.kind(), Kind::Object(_)) {
        return None;
    }
    let prefix = crate::calls::included_input("");
    let given = i.outputs.iter().filter_map(|o| {
        let name = o.name.strip_prefix(&prefix)?;
        let part = match &o.constant {
            Some(crate::calls::Constant(v)) => Part::Value(v.clone()),
            None => Part::Type(o.ty.clone()),
        };
        Some((name.to_string(), part))
    });
    Some(given.collect())
}

/// Each name the unit or one of its merged includes sets, with the value
/// that reaches the module. `None` when the unit's own `inputs` is not
/// written out: then nothing is checked, as any name may be set there.
pub(super) fn merged(inf: &Infer, doc: &Document, incs: &[Include]) -> Option<Vec<Merged>> {
    let own = own_inputs(inf, doc)?;
    let given: Vec<Given> = incs
        .iter()
        .map(|inc| match &inc.callee {
            _ if inc.strategy == "no_merge" => None,
            Some(callee) => Some(include_inputs(callee)),
            // A file not followed may set any name.
            None => Some(None),
        })
        .collect();
    let mut names: Vec<String> = own.iter().map(|(n, _)| n.clone()).collect();
    for values in given.iter().flatten().flatten() {
        names.extend(values.iter().map(|(n, _)| n.clone()));
    }
    names.sort();
    names.dedup();
    // By name, so that a file of many inputs is not read once per name.
    let own_by: HashMap<&str, &Part> = own.iter().rev().map(|(n, p)| (n.as_str(), p)).collect();
    let given_by: Vec<Option<Option<HashMap<&str, &Part>>>> = given
        .iter()
        .map(|g| g.as_ref().map(|v| v.as_ref().map(|v| v.iter().rev().map(|(n, p)| (n.as_str(), p)).collect())))
        .collect();
    let mut out = Vec::new();
    for name in names {
        let unit = own_by.get(name.as_str()).map(|p| (*p).clone());
        let mut acc = unit.clone().map(|p| (p, Vec::new()));
        for (k, inc) in incs.iter().enumerate().rev() {
            let Some(Some(values)) = given_by.get(k) else { continue };
            let value = match values {
                Some(values) => match values.get(name.as_str()) {
                    Some(p) => (*p).clone(),
                    None => continue,
                },
                None => Part::Type(Type::any()),
            };
            acc = Some(match (acc, inc.strategy.as_str()) {
                (None, _) => (value, vec![k]),
                (Some((child, mut from)), "deep") => {
                    from.insert(0, k);
                    (deep(value, child), from)
                }
                (Some(kept), _) => kept,
            });
        }
        if let Some((value, from)) = acc {
            // (Once the unit sets a name, an include only adds to it by a
            // deep merge, so the unit's value stays part of it.)
            out.push(Merged { name, value, from, unit: unit.is_some() });
        }
    }
    Some(out)
}

/// mergo's `Merge(&parent, child, WithOverride, WithAppendSlice)` as
/// `deepMergeInputs` calls it: maps merged key by key, lists appended (the
/// parent's first), anything else the child's.
fn deep(parent: Part, child: Part) -> Part {
    match (parent, child) {
        (Part::Value(p), Part::Value(c)) => Part::Value(deep_value(p, c)),
        (p, c) => Part::Type(deep_type(&p.ty(), &c.ty())),
    }
}

fn deep_value(parent: Value, child: Value) -> Value {
    match (parent, child) {
        (Value::Object(mut p), Value::Object(c)) => {
            // Each key's place, so that merging two large objects is not
            // quadratic.
            let mut at: HashMap<String, usize> = HashMap::default();
            for (i, (k, _)) in p.iter().enumerate() {
                at.entry(k.clone()).or_insert(i);
            }
            for (k, v) in c {
                match at.get(&k).copied() {
                    Some(i) => {
                        if let Some(slot) = p.get_mut(i) {
                            let old = std::mem::replace(&mut slot.1, Value::Null);
                            slot.1 = deep_value(old, v);
                        }
                    }
                    None => {
                        at.insert(k.clone(), p.len());
                        p.push((k, v));
                    }
                }
            }
            Value::Object(p)
        }
        (Value::Tuple(mut p), Value::Tuple(c)) => {
            p.extend(c);
            Value::Tuple(p)
        }
        (_, c) => c,
    }
}

/// [`deep_value`] on types: `any` where the merge is not known from them
/// (a map's keys, a list's length).
fn deep_type(parent: &Type, child: &Type) -> Type {
    match (parent.kind(), child.kind()) {
        (Kind::Any, _) | (_, Kind::Any) => Type::any(),
        (Kind::Object(p), Kind::Object(c)) => {
            let mut attrs: Vec<(String, Type)> = p
                .iter()
                .map(|(k, t)| match child.attribute(k) {
                    Some(ct) => (k.clone(), deep_type(t, ct)),
                    None => (k.clone(), t.clone()),
                })
                .collect();
            attrs.extend(c.iter().filter(|(k, _)| parent.attribute(k).is_none()).cloned());
            Type::object(attrs)
        }
        (Kind::Tuple(p), Kind::Tuple(c)) => Type::tuple(p.iter().chain(c).cloned().collect()),
        (Kind::List(p), Kind::List(c)) if p == c => child.clone(),
        (Kind::Map(p), Kind::Map(c)) if p == c => child.clone(),
        (Kind::Object(_) | Kind::Map(_), Kind::Object(_) | Kind::Map(_))
        | (Kind::Tuple(_) | Kind::List(_), Kind::Tuple(_) | Kind::List(_)) => Type::any(),
        _ => child.clone(),
    }
}

/// Whether `docs` hold a Terragrunt unit with an `include`: the value of
/// each input depends on every include block and the unit's `inputs`,
/// which no item's recorded dependencies say, so an edit is not patched
/// (`Memo::patch`) and the unit's items are all checked again (`run`);
/// units are a few lines.
pub(super) fn merges(docs: &[Document]) -> bool {
    docs.iter().any(|d| {
        d.file.kind == FileKind::Hcl
            && crate::is_terragrunt_unit(&d.file.path)
            && d.items.iter().any(|i| {
                i.body(&d.file.text).is_some_and(|b| b.blocks().any(|b| b.ident.value().as_str() == "include"))
            })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(v: &str) -> Value {
        Value::String(v.to_string())
    }

    /// Terragrunt's docs (`docs/src/content/docs/04-reference/01-hcl/02-blocks.mdx`,
    /// "What is deep merge?"): simple types the child wins, lists
    /// concatenated, maps merged recursively.
    #[test]
    fn deep_merge_follows_terragrunts_definition() {
        let parent = Value::Object(vec![
            ("a".into(), Value::Object(vec![("x".into(), s("p")), ("y".into(), s("p"))])),
            ("l".into(), Value::Tuple(vec![s("1")])),
            ("s".into(), s("p")),
        ]);
        let child = Value::Object(vec![
            ("a".into(), Value::Object(vec![("y".into(), s("c"))])),
            ("l".into(), Value::Tuple(vec![s("2")])),
            ("s".into(), s("c")),
            ("n".into(), s("c")),
        ]);
        let want = Value::Object(vec![
            ("a".into(), Value::Object(vec![("x".into(), s("p")), ("y".into(), s("c"))])),
            ("l".into(), Value::Tuple(vec![s("1"), s("2")])),
            ("s".into(), s("c")),
            ("n".into(), s("c")),
        ]);
        assert_eq!(deep_value(parent, child), want);
        let t = deep_type(
            &Type::object([("x".to_string(), Type::string())]),
            &Type::object([("y".to_string(), Type::number())]),
        );
        assert_eq!(t, Type::object([("x".to_string(), Type::string()), ("y".to_string(), Type::number())]));
        assert_eq!(deep_type(&Type::map(Type::string()), &Type::object([])), Type::any());
    }
}
