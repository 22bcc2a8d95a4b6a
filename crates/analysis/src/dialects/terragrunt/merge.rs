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

use crate::calls::Callee;
use crate::document::{Document, Item};
use crate::infer::{Env, Space};
use crate::module::{item_source, label_text};
use crate::FileKind;
use hcl_edit::expr::Expression;
use rustc_hash::FxHashMap as HashMap;
use std::sync::Arc;
use syntax::constant::{eval, Source};
use types::value::Value;
use types::{Kind, Type};

/// A value that reaches a unit's module: a constant when every part of it
/// is one (checked by value, as a unit's own constants are), else its type.
#[derive(Clone, Debug)]
pub(crate) enum Part {
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
pub(crate) struct Merged {
    pub name: String,
    pub value: Part,
    /// The includes (by position in the unit, file order) whose values are
    /// part of it; empty when the unit's own value reaches the module alone.
    pub from: Vec<usize>,
    /// Whether the unit's own value is part of it.
    pub unit: bool,
}

/// One `include "LABEL"` of a unit, in file order.
pub(crate) struct Include {
    pub label: String,
    pub strategy: String,
    /// The included directory's interface, when the include is followed.
    pub callee: Option<Arc<crate::calls::Interface>>,
}

/// A unit's includes, its module and its merged inputs, made once per
/// analysis of the unit ([`ModuleEnv::unit`]) and read by its `inputs`
/// and each of its `include` blocks: made per block, N includes cost N²
/// (87 KB of `include` blocks took a minute; issue 42, item 2).
pub(crate) struct Unit {
    pub incs: Vec<Include>,
    /// The unit's module (see `terragrunt::module`).
    pub module: Option<Callee>,
    /// See [`merged`]; only made when the module is known.
    pub merged: Option<Vec<Merged>>,
    /// Per include (by position): the merged inputs it is the first to
    /// take part in (positions in `merged`).
    firsts: Vec<Vec<usize>>,
    /// The first include of each label.
    labels: HashMap<String, usize>,
}

impl Unit {
    pub(crate) fn new(env: &dyn Env, doc: &Document) -> Unit {
        let incs = includes(env, doc);
        let module = super::unit::module(env, &incs);
        let merged = match module {
            Some(Callee::Module(_)) => merged(env, doc, &incs),
            _ => None,
        };
        let mut firsts = vec![Vec::new(); incs.len()];
        for (at, m) in merged.iter().flatten().enumerate() {
            if let Some(slot) = m.from.first().and_then(|&k| firsts.get_mut(k)) {
                slot.push(at);
            }
        }
        let mut labels = HashMap::default();
        for (k, i) in incs.iter().enumerate() {
            labels.entry(i.label.clone()).or_insert(k);
        }
        Unit { incs, module, merged, firsts, labels }
    }

    /// The position of the first include of this label.
    pub(crate) fn position(&self, label: &str) -> Option<usize> {
        self.labels.get(label).copied()
    }

    /// The merged inputs include `k` is the first to take part in.
    pub(crate) fn first_in(&self, k: usize) -> impl Iterator<Item = &Merged> {
        let merged = self.merged.as_deref().unwrap_or_default();
        self.firsts.get(k).into_iter().flatten().filter_map(|&at| merged.get(at))
    }
}

/// The unit's includes, in file order.
fn includes(env: &dyn Env, doc: &Document) -> Vec<Include> {
    let found = include_blocks(doc).into_iter().map(|(label, strategy)| {
        let callee = match env.callee(&crate::calls::include_call(&label)) {
            Some(Callee::Module(i)) => Some(i),
            _ => None,
        };
        Include { label, strategy, callee }
    });
    found.collect()
}

/// The label and merge strategy of each `include` block of a unit, in file
/// order.
pub(crate) fn include_blocks(doc: &Document) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for item in doc.items.iter() {
        let Some(body) = item.body(&doc.file.text) else { continue };
        let src = item_source(doc, item);
        for b in body.blocks().filter(|b| b.ident.value().as_str() == "include") {
            let label = b.labels.first().map(label_text).unwrap_or("").to_string();
            out.push((label, super::unit::strategy(b, src)));
        }
    }
    out
}

/// The unit's own top-level `inputs = { … }`, name by name: each value's
/// constant, else its type as the file's analysis typed it. `None` when
/// the unit's `inputs` is not an object written out (`merge(…)`): what it
/// sets is not known.
fn own_inputs(env: &dyn Env, doc: &Document) -> Option<Vec<(String, Part)>> {
    let own = env.lookup(Space::Pcl, "inputs").map(|(t, _)| t);
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
pub(crate) fn each_input<'d>(
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

/// The includes of one file (one callee, the same `Arc`) or, `given` none,
/// those whose values are not known (not followed, or `inputs` not written
/// out: each may set any name). Their values are read once however many
/// includes name the file.
struct Group {
    /// The first value of each name.
    given: Option<HashMap<String, Part>>,
    /// Its includes that merge (not `no_merge`), by position, ascending.
    at: Vec<usize>,
    /// Those of them that merge deep.
    deep: Vec<usize>,
}

/// The includes in groups of one file each (see [`Group`]).
fn groups(incs: &[Include]) -> Vec<Group> {
    let mut groups: Vec<Group> = Vec::new();
    let mut by_callee: HashMap<*const crate::calls::Interface, usize> = HashMap::default();
    let mut unknown = None;
    for (k, inc) in incs.iter().enumerate().filter(|(_, i)| i.strategy != "no_merge") {
        let mut add = |given: Option<HashMap<String, Part>>| {
            groups.push(Group { given, at: Vec::new(), deep: Vec::new() });
            groups.len() - 1
        };
        let g = match &inc.callee {
            Some(c) => match by_callee.get(&Arc::as_ptr(c)) {
                Some(&g) => g,
                None => {
                    let given = include_inputs(c).map(|v| {
                        let mut m = HashMap::default();
                        for (n, p) in v {
                            m.entry(n).or_insert(p);
                        }
                        m
                    });
                    let g = match given {
                        Some(given) => add(Some(given)),
                        None => *unknown.get_or_insert_with(|| add(None)),
                    };
                    by_callee.insert(Arc::as_ptr(c), g);
                    g
                }
            },
            // A file not followed may set any name.
            None => *unknown.get_or_insert_with(|| add(None)),
        };
        groups[g].at.push(k);
        if inc.strategy == "deep" {
            groups[g].deep.push(k);
        }
    }
    groups
}

/// Each name the unit or one of its merged includes sets, with the value
/// that reaches the module. `None` when the unit's own `inputs` is not
/// written out: then nothing is checked, as any name may be set there.
///
/// Going from the last include to the first, the first value met (the
/// unit's own, else the last include's that sets the name) is kept, and
/// each earlier `deep` include that sets it merges into it. Includes of
/// one file are a [`Group`] read once, so the work is the unit's and the
/// distinct files' names, plus one step per deep merge.
fn merged(env: &dyn Env, doc: &Document, incs: &[Include]) -> Option<Vec<Merged>> {
    let own = own_inputs(env, doc)?;
    let groups = groups(incs);
    let mut names: Vec<String> = own.iter().map(|(n, _)| n.clone()).collect();
    // The groups that set each name (those of unknown values set any).
    let mut setting: HashMap<&str, Vec<usize>> = HashMap::default();
    let mut any = Vec::new();
    for (g, group) in groups.iter().enumerate() {
        match &group.given {
            Some(given) => {
                for n in given.keys() {
                    names.push(n.clone());
                    setting.entry(n.as_str()).or_default().push(g);
                }
            }
            None => any.push(g),
        }
    }
    names.sort();
    names.dedup();
    // By name, so that a file of many inputs is not read once per name.
    let own_by: HashMap<&str, &Part> = own.iter().rev().map(|(n, p)| (n.as_str(), p)).collect();
    let value = |g: usize, name: &str| match &groups[g].given {
        Some(given) => given.get(name).cloned().unwrap_or(Part::Type(Type::any())),
        None => Part::Type(Type::any()),
    };
    let mut out = Vec::new();
    for name in names {
        let unit = own_by.get(name.as_str()).map(|p| (*p).clone());
        let sets: Vec<usize> = setting.get(name.as_str()).into_iter().flatten().chain(&any).copied().collect();
        // The value kept: the unit's, else the last include's that sets it.
        let (mut acc, kept, below) = match &unit {
            Some(p) => (p.clone(), None, usize::MAX),
            None => {
                let last = sets.iter().filter_map(|&g| Some((*groups[g].at.last()?, g))).max();
                let Some((k, g)) = last else { continue };
                (value(g, &name), Some(k), k)
            }
        };
        // Then each earlier deep include's, last first.
        let mut deeper: Vec<(usize, usize)> = sets
            .iter()
            .flat_map(|&g| {
                let d = &groups[g].deep;
                d[..d.partition_point(|&k| k < below)].iter().map(move |&k| (k, g))
            })
            .collect();
        deeper.sort_unstable_by(|a, b| b.cmp(a));
        for &(_, g) in &deeper {
            acc = deep(value(g, &name), acc);
        }
        // The includes taking part, in file order.
        let from: Vec<usize> = deeper.iter().rev().map(|&(k, _)| k).chain(kept).collect();
        let value = acc;
        // (Once the unit sets a name, an include only adds to it by a
        // deep merge, so the unit's value stays part of it.)
        out.push(Merged { name, value, from, unit: unit.is_some() });
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
pub(crate) fn merges(docs: &[Document]) -> bool {
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
