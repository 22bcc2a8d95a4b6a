//! Find references and document highlight across a set of modules (the
//! module under the cursor, its callers and its callees): which names
//! denote the same declaration, read from the syntax alone so that a
//! reference in a caller that does not type-check is still found.
//!
//! A symbol is owned by one module: a variable, local, output, module
//! call, resource, data source or PCL name. Its occurrences are its
//! declaration, its uses in the owner, and for variables and outputs what
//! callers write: the argument `x = …` of a module block whose source is
//! the owner, and `module.CALL.out`. Variables are also set by the owner's
//! `.tfvars` keys.

use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use analysis::calls::is_local;
use analysis::document::Revision;
use analysis::sync::Locked;
use analysis::workspace::normalize;
use analysis::{Document, FileKind};
use hcl_edit::expr::{Expression, FuncCall, Traversal, TraversalOperator};
use hcl_edit::structure::{BlockLabel, Body, Structure};
use hcl_edit::visit::{self, Visit};
use hcl_edit::Span;

/// One module of the set the features look through.
pub struct Module<'a> {
    /// Its directory (as its documents' paths have it).
    pub dir: PathBuf,
    pub docs: &'a [Document],
    /// Whether the user may edit it: not a module `terraform init`
    /// installed under `.terraform/modules`, not outside the workspace.
    pub editable: bool,
}

/// Where a symbol is named.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reference {
    pub path: PathBuf,
    /// The name alone (a label's inside, without quotes).
    pub range: Range<usize>,
    /// Whether this is the declaration (a write, for highlight).
    pub declaration: bool,
}

/// What a name denotes, owned by the module at an index of the set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Symbol {
    Var(String),
    Local(String),
    Output(String),
    Module(String),
    Resource(String, String),
    Data(String, String),
    Pcl(String),
}

/// What is at the cursor.
pub(crate) enum Found {
    /// A symbol owned by the module at this index of the set; the range of
    /// its name under the cursor.
    Symbol(usize, Symbol, Range<usize>),
    /// Something that cannot be renamed, and why.
    Refused(String),
}

/// Meta-arguments of resource, data and module blocks (Terraform's
/// configs/resource.go and configs/module_call.go decode them apart).
const META: &[&str] =
    &["count", "for_each", "depends_on", "provider", "providers", "lifecycle", "source", "version", "provisioner"];

/// Roots that name no declaration of the module (Terraform's
/// addrs/parse_ref.go: `count`, `each`, `path`, `self`, `terraform`).
const BUILT_IN_ROOTS: &[&str] = &["count", "each", "path", "self", "terraform"];

/// One name in a document, as the scan sees it (ranges are the file's).
#[derive(Debug)]
enum Occ {
    /// A traversal rooted at a name: the root then each attribute name.
    Path(Vec<(String, Range<usize>)>),
    /// A top-level block's label.
    Label { block: String, labels: Vec<String>, index: usize, range: Range<usize> },
    /// An argument name: in a top-level block (`block`), or at the top
    /// level (`block` None). `source` is a module block's source.
    Key { block: Option<String>, call: Option<String>, source: Option<String>, name: String, range: Range<usize> },
    /// A function's name.
    Func(Range<usize>),
    /// A type expression (`type = …` of a variable).
    Type(Range<usize>),
}

/// Every name of a document (items that do not parse are left out).
/// The occurrences of every item of `doc`, remembered by the document's
/// revision (which names its items and is unique among all documents), so
/// a repeated request (references after highlight, rename after
/// prepareRename, the code lens) does not walk unchanged modules again.
/// The oldest are forgotten past `CACHED` occurrences in all (an
/// occurrence is 112 bytes and its names: the generated 10 MB module has
/// 315,697, some 60 MB, which the bound still holds).
fn scan(doc: &Document) -> Arc<Vec<Occ>> {
    const CACHED: usize = 500_000;
    static CACHE: Mutex<Vec<(Revision, Arc<Vec<Occ>>)>> = Mutex::new(Vec::new());
    let rev = doc.revision();
    if let Some(hit) = CACHE.locked().iter().find(|(r, _)| *r == rev).map(|(_, o)| o.clone()) {
        return hit;
    }
    let occs = Arc::new(scan_items(doc, |_| true));
    let mut c = CACHE.locked();
    c.push((rev, occs.clone()));
    let mut total: usize = c.iter().map(|(_, o)| o.len()).sum();
    while total > CACHED && c.len() > 1 {
        total -= c.remove(0).1.len();
    }
    drop(c);
    occs
}

/// The occurrences of the items of `doc` that `keep` selects: every name
/// lies inside its item, so the cursor's names are in the items around it
/// (scanning only those halves a request on a 10 MB module).
fn scan_items(doc: &Document, keep: impl Fn(&Range<usize>) -> bool) -> Vec<Occ> {
    let text = &doc.file.text;
    let mut out = Vec::new();
    for item in doc.items.iter().filter(|i| keep(&i.range)) {
        let Some(body) = item.body(text) else { continue };
        scan_body(&body, item.range.start, &mut out);
    }
    out
}

fn scan_body(body: &Body, at: usize, out: &mut Vec<Occ>) {
    let shift = |r: Range<usize>| r.start + at..r.end + at;
    for s in body.iter() {
        match s {
            Structure::Attribute(a) => {
                if let Some(r) = a.key.span() {
                    let name = a.key.value().to_string();
                    out.push(Occ::Key { block: None, call: None, source: None, name, range: shift(r) });
                }
                Names { at, out }.visit_expr(&a.value);
            }
            Structure::Block(b) => {
                let block = b.ident.value().to_string();
                let labels: Vec<String> = b
                    .labels
                    .iter()
                    .map(|l| match l {
                        BlockLabel::Ident(i) => i.value().to_string(),
                        BlockLabel::String(s) => s.value().to_string(),
                    })
                    .collect();
                for (index, l) in b.labels.iter().enumerate() {
                    let range = match l {
                        BlockLabel::Ident(i) => i.span(),
                        // Inside the quotes.
                        BlockLabel::String(s) => {
                            s.span().map(|r| r.start + 1..r.end.saturating_sub(1).max(r.start + 1))
                        }
                    };
                    if let Some(r) = range {
                        out.push(Occ::Label { block: block.clone(), labels: labels.clone(), index, range: shift(r) });
                    }
                }
                let source = (block == "module")
                    .then(|| b.body.get_attribute("source"))
                    .flatten()
                    .and_then(|a| a.value.as_str().map(str::to_string));
                for inner in b.body.iter() {
                    match inner {
                        Structure::Attribute(a) => {
                            if let Some(r) = a.key.span() {
                                out.push(Occ::Key {
                                    block: Some(block.clone()),
                                    call: labels.first().cloned(),
                                    source: source.clone(),
                                    name: a.key.value().to_string(),
                                    range: shift(r),
                                });
                            }
                            if block == "variable" && a.key.value().as_str() == "type" {
                                if let Some(r) = a.value.span() {
                                    out.push(Occ::Type(shift(r)));
                                }
                                continue;
                            }
                            Names { at, out }.visit_expr(&a.value);
                        }
                        Structure::Block(nested) => Names { at, out }.visit_body(&nested.body),
                    }
                }
            }
        }
    }
}

/// Collects traversals and function names of expressions.
struct Names<'a> {
    at: usize,
    out: &'a mut Vec<Occ>,
}

impl Visit for Names<'_> {
    fn visit_traversal(&mut self, t: &Traversal) {
        if let Expression::Variable(root) = &t.expr {
            let mut parts = Vec::new();
            if let Some(r) = root.span() {
                parts.push((root.value().to_string(), r.start + self.at..r.end + self.at));
            }
            for op in &t.operators {
                if let TraversalOperator::GetAttr(i) = op.value() {
                    if let Some(r) = i.span() {
                        parts.push((i.value().to_string(), r.start + self.at..r.end + self.at));
                    }
                }
            }
            // (Never empty: `own` reads the root.)
            if !parts.is_empty() {
                self.out.push(Occ::Path(parts));
            }
        } else {
            self.visit_expr(&t.expr);
        }
        for op in &t.operators {
            if let TraversalOperator::Index(e) = op.value() {
                self.visit_expr(e);
            }
        }
    }

    fn visit_expr(&mut self, e: &Expression) {
        match e {
            // A bare name (a PCL reference without attributes).
            Expression::Variable(v) => {
                if let Some(r) = v.span() {
                    self.out.push(Occ::Path(vec![(v.value().to_string(), r.start + self.at..r.end + self.at)]));
                }
            }
            _ => visit::visit_expr(self, e),
        }
    }

    fn visit_func_call(&mut self, f: &FuncCall) {
        if let Some(r) = f.name.name.span() {
            self.out.push(Occ::Func(r.start + self.at..r.end + self.at));
        }
        visit::visit_func_args(self, &f.args);
    }
}

/// Whether `r` holds `offset` (its end included: the cursor after a name).
fn holds(r: &Range<usize>, offset: usize) -> bool {
    r.start <= offset && offset <= r.end
}

/// The directory a local module source leads to from `dir`.
fn resolve(dir: &Path, source: &str) -> Option<PathBuf> {
    is_local(source).then(|| normalize(&dir.join(source)))
}

/// The index in `mods` of the module a call with `source` in module `m`
/// leads to.
fn callee(mods: &[Module], m: usize, source: Option<&str>) -> Option<usize> {
    let dir = resolve(&mods[m].dir, source?)?;
    mods.iter().position(|x| normalize(&x.dir) == dir)
}

/// The source of module call `call` in module `m`.
fn call_source(mods: &[Module], m: usize, call: &str) -> Option<String> {
    module_sources(mods[m].docs).remove(call)
}

/// Each module call of a module, with its source.
fn module_sources(docs: &[Document]) -> std::collections::HashMap<String, String> {
    let mut out = std::collections::HashMap::new();
    for d in docs {
        for o in scan(d).iter() {
            if let Occ::Key { block: Some(b), call: Some(c), source: Some(s), name, .. } = o {
                if b == "module" && name == "source" {
                    out.insert(c.clone(), s.clone());
                }
            }
        }
    }
    out
}

/// The directories the local module calls of a module in `dir` lead to
/// (what a server reads to put the callees in the set).
pub fn callees(dir: &Path, docs: &[Document]) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = module_sources(docs).values().filter_map(|s| resolve(dir, s)).collect();
    out.sort();
    out.dedup();
    out
}

/// The names of the module calls in `docs` (a module in `dir`) whose local
/// source is the module in `target`.
pub fn calls_to(dir: &Path, docs: &[Document], target: &Path) -> Vec<String> {
    let mut out: Vec<String> = module_sources(docs)
        .into_iter()
        .filter(|(_, s)| resolve(dir, s).as_deref() == Some(target))
        .map(|(n, _)| n)
        .collect();
    out.sort();
    out
}

/// What the cursor at `offset` of document `doc` of module `m` names.
pub(crate) fn symbol_at(mods: &[Module], m: usize, doc: usize, offset: usize) -> Option<Found> {
    let d = mods.get(m)?.docs.get(doc)?;
    let pcl = d.file.kind == FileKind::Pcl;
    let occs = scan_items(d, |r| r.start <= offset && offset <= r.end);
    // Innermost first: a function inside a type, a name inside a call.
    for o in &occs {
        match o {
            Occ::Func(r) if holds(r, offset) => {
                return Some(Found::Refused("a built-in function cannot be renamed".into()))
            }
            Occ::Path(parts) => {
                let Some(i) = parts.iter().position(|(_, r)| holds(r, offset)) else { continue };
                return Some(classify_path(mods, m, parts, i, pcl).unwrap_or_else(|| {
                    Found::Refused(format!("`{}` names no declaration of the workspace", parts[0].0))
                }));
            }
            _ => {}
        }
    }
    for o in &occs {
        match o {
            Occ::Type(r) if holds(r, offset) => return Some(Found::Refused("a type keyword cannot be renamed".into())),
            Occ::Label { block, labels, index, range } if holds(range, offset) => {
                let n = labels[*index].clone();
                let s = match (block.as_str(), index, pcl) {
                    ("variable", 0, false) => Symbol::Var(n),
                    ("output", 0, false) => Symbol::Output(n),
                    ("module", 0, false) => Symbol::Module(n),
                    ("resource", 1, false) => Symbol::Resource(labels[0].clone(), n),
                    ("data", 1, false) => Symbol::Data(labels[0].clone(), n),
                    ("resource" | "config" | "output" | "component", 0, true) => Symbol::Pcl(n),
                    _ => return Some(Found::Refused("this label names no symbol".into())),
                };
                return Some(Found::Symbol(m, s, range.clone()));
            }
            Occ::Key { block, source, name, range, .. } if holds(range, offset) => {
                return Some(match block.as_deref() {
                    None if d.file.kind == FileKind::Tfvars => {
                        Found::Symbol(m, Symbol::Var(name.clone()), range.clone())
                    }
                    None if pcl => Found::Symbol(m, Symbol::Pcl(name.clone()), range.clone()),
                    Some("locals") => Found::Symbol(m, Symbol::Local(name.clone()), range.clone()),
                    Some("resource" | "data" | "module") if META.contains(&name.as_str()) => {
                        Found::Refused(format!("`{name}` is a meta-argument"))
                    }
                    Some("module") => match callee(mods, m, source.as_deref()) {
                        Some(c) => Found::Symbol(c, Symbol::Var(name.clone()), range.clone()),
                        None => Found::Refused("the called module is not in the workspace".into()),
                    },
                    _ => Found::Refused(format!("`{name}` is an argument of a schema, not a declaration")),
                });
            }
            _ => {}
        }
    }
    None
}

/// The symbol of a traversal whose part `i` is under the cursor.
fn classify_path(mods: &[Module], m: usize, parts: &[(String, Range<usize>)], i: usize, pcl: bool) -> Option<Found> {
    let name = |k: usize| parts.get(k).map(|(n, r)| (n.clone(), r.clone()));
    if pcl {
        let (n, r) = name(0)?;
        return (i == 0).then_some(Found::Symbol(m, Symbol::Pcl(n), r));
    }
    let root = parts[0].0.as_str();
    if BUILT_IN_ROOTS.contains(&root) {
        return Some(Found::Refused(format!("`{root}` is built in")));
    }
    Some(match root {
        "var" => {
            let (n, r) = name(1)?;
            Found::Symbol(m, Symbol::Var(n), r)
        }
        "local" => {
            let (n, r) = name(1)?;
            Found::Symbol(m, Symbol::Local(n), r)
        }
        "module" if i >= 2 => {
            let (call, _) = name(1)?;
            let (out, r) = name(2)?;
            match callee(mods, m, call_source(mods, m, &call).as_deref()) {
                Some(c) => Found::Symbol(c, Symbol::Output(out), r),
                None => Found::Refused("the called module is not in the workspace".into()),
            }
        }
        "module" => {
            let (n, r) = name(1)?;
            Found::Symbol(m, Symbol::Module(n), r)
        }
        "data" => {
            let (t, _) = name(1)?;
            let (n, r) = name(2)?;
            Found::Symbol(m, Symbol::Data(t, n), r)
        }
        _ => {
            let (n, r) = name(1)?;
            Found::Symbol(m, Symbol::Resource(root.to_string(), n), r)
        }
    })
}

/// Every place symbol `s` of module `owner` is named, across `mods`.
pub(crate) fn occurrences(mods: &[Module], owner: usize, s: &Symbol) -> Vec<Reference> {
    let mut out = Vec::new();
    for (m, module) in mods.iter().enumerate() {
        // Which of this module's calls lead to the owner.
        let calls_owner: Vec<String> = match s {
            Symbol::Output(_) => module_sources(module.docs)
                .into_iter()
                .filter(|(_, src)| callee(mods, m, Some(src)) == Some(owner))
                .map(|(c, _)| c)
                .collect(),
            _ => Vec::new(),
        };
        for d in module.docs {
            let pcl = d.file.kind == FileKind::Pcl;
            let mut push = |range: &Range<usize>, declaration: bool| {
                out.push(Reference { path: d.file.path.clone(), range: range.clone(), declaration })
            };
            for o in scan(d).iter() {
                if m == owner {
                    own(o, s, pcl, d.file.kind == FileKind::Tfvars, &mut push);
                }
                // What a caller writes.
                match (o, s) {
                    (Occ::Key { block: Some(b), source, name, range, .. }, Symbol::Var(v))
                        if b == "module" && name == v && callee(mods, m, source.as_deref()) == Some(owner) =>
                    {
                        push(range, false)
                    }
                    (Occ::Path(p), Symbol::Output(out))
                        if p.len() >= 3 && p[0].0 == "module" && p[2].0 == *out && calls_owner.contains(&p[1].0) =>
                    {
                        push(&p[2].1, false)
                    }
                    _ => {}
                }
            }
        }
    }
    out.sort_by(|a, b| (&a.path, a.range.start, a.range.end).cmp(&(&b.path, b.range.start, b.range.end)));
    out.dedup();
    out
}

/// The occurrences of `s` in a document of its own module.
fn own(o: &Occ, s: &Symbol, pcl: bool, tfvars: bool, push: &mut impl FnMut(&Range<usize>, bool)) {
    let is = |k: usize, parts: &[(String, Range<usize>)], n: &str| parts.get(k).is_some_and(|(x, _)| x == n);
    match (o, s) {
        (Occ::Path(p), Symbol::Pcl(n)) if pcl && p[0].0 == *n => push(&p[0].1, false),
        (Occ::Path(p), Symbol::Var(n)) if !pcl && p[0].0 == "var" && is(1, p, n) => push(&p[1].1, false),
        (Occ::Path(p), Symbol::Local(n)) if !pcl && p[0].0 == "local" && is(1, p, n) => push(&p[1].1, false),
        (Occ::Path(p), Symbol::Module(n)) if !pcl && p[0].0 == "module" && is(1, p, n) => push(&p[1].1, false),
        (Occ::Path(p), Symbol::Data(t, n)) if !pcl && p[0].0 == "data" && is(1, p, t) && is(2, p, n) => {
            push(&p[2].1, false)
        }
        (Occ::Path(p), Symbol::Resource(t, n)) if !pcl && p[0].0 == *t && is(1, p, n) => push(&p[1].1, false),
        (Occ::Label { block, labels, index, range }, _) => {
            let hit = match (s, block.as_str(), *index) {
                (Symbol::Var(n), "variable", 0)
                | (Symbol::Output(n), "output", 0)
                | (Symbol::Module(n), "module", 0) => !pcl && labels[0] == *n,
                (Symbol::Resource(t, n), "resource", 1) | (Symbol::Data(t, n), "data", 1) => {
                    !pcl && labels[0] == *t && labels[1] == *n
                }
                (Symbol::Pcl(n), "resource" | "config" | "output" | "component", 0) => pcl && labels[0] == *n,
                _ => false,
            };
            if hit {
                push(range, true)
            }
        }
        (Occ::Key { block: Some(b), name, range, .. }, Symbol::Local(n)) if b == "locals" && name == n => {
            push(range, true)
        }
        (Occ::Key { block: None, name, range, .. }, Symbol::Var(n)) if tfvars && name == n => push(range, false),
        (Occ::Key { block: None, name, range, .. }, Symbol::Pcl(n)) if pcl && name == n => push(range, true),
        _ => {}
    }
}

/// The references of the symbol at `offset` of document `doc` of module
/// `m` of the set (its declaration too when `declaration`); `None` when
/// the cursor is on no symbol. The offset and the ranges are in the texts
/// the user sees (a JSON file's own, not its lowering:
/// [`Document::shown_text`]).
pub fn references(mods: &[Module], m: usize, doc: usize, offset: usize, declaration: bool) -> Option<Vec<Reference>> {
    let offset = mods.get(m)?.docs.get(doc)?.offset_from_shown(offset);
    let Found::Symbol(owner, s, _) = symbol_at(mods, m, doc, offset)? else { return None };
    let mut all = occurrences(mods, owner, &s);
    all.retain(|r| declaration || !r.declaration);
    for r in &mut all {
        if let Some(d) = mods.iter().flat_map(|m| m.docs).find(|d| d.file.path == r.path) {
            r.range = d.shown_range(&r.range);
        }
    }
    Some(all)
}

/// The places of the current document that name the symbol under the
/// cursor, with whether each is its declaration (a write).
pub fn document_highlight(docs: &[Document], doc: usize, offset: usize) -> Vec<(Range<usize>, bool)> {
    let Some(d) = docs.get(doc) else { return Vec::new() };
    let dir = d.file.path.parent().map(normalize).unwrap_or_default();
    let mods = [Module { dir, docs, editable: true }];
    let found = references(&mods, 0, doc, offset, true).unwrap_or_default();
    found.into_iter().filter(|r| r.path == d.file.path).map(|r| (r.range, r.declaration)).collect()
}
