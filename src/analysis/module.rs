//! A module: declarations across its files, name types in dependency order,
//! and every item's checks.

use std::collections::HashMap;
use std::ops::Range;

use hcl_edit::expr::{Expression, TraversalOperator};
use hcl_edit::structure::{Attribute, Block, BlockLabel, Body, Structure};

use super::document::Document;
use super::infer::{iteration, Env, Infer, Space, Typed};
use super::FileKind;
use crate::diagnostic::{Code, Diagnostic, Related, Severity};
use crate::syntax::constant::{eval, Source};
use crate::syntax::typeexpr::{parse_type, parse_type_str, TypeContext, TypeExpr, TypeNode};
use crate::syntax::Dialect;
use crate::types::value::Value;
use crate::types::{Kind, Strip, Type};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SymbolKind {
    Variable,
    Local,
    Output,
    Config,
    /// A PCL top-level attribute.
    Attribute,
    /// A resource, data source, module call or PCL component.
    Resource,
}

/// A named value of a module, as `types`, hover and document symbols show it.
#[derive(Clone, Debug)]
pub struct Symbol {
    /// `var.NAME`, `local.NAME`, `output.NAME`, `config.NAME` or `NAME`.
    pub address: String,
    pub name: String,
    pub kind: SymbolKind,
    /// The name in the declaration (a label or an attribute key).
    pub name_range: Range<usize>,
    /// The whole declaration.
    pub range: Range<usize>,
    /// The value type (what a reference yields).
    pub ty: Type,
    /// Index of the document that declares it.
    pub doc: usize,
}

/// Everything analysis found in one module.
#[derive(Debug, Default)]
pub struct ModuleAnalysis {
    /// Per document (same order as the input): its diagnostics, by position.
    pub diagnostics: Vec<Vec<Diagnostic>>,
    /// Named values in source order per document.
    pub symbols: Vec<Symbol>,
    /// Per document: the parts of its type expressions (hover, semantic tokens).
    pub type_nodes: Vec<Vec<TypeNode>>,
    /// With a probe: the type of every expression of the probed item.
    pub probe: Vec<Typed>,
    /// Resources, data sources, module calls and components (document symbols).
    pub resources: Vec<Symbol>,
}

/// A position to record expression types at: (document index, byte offset).
pub type Probe = Option<(usize, usize)>;

/// A declared variable.
struct Var<'a> {
    doc: usize,
    name_range: Range<usize>,
    block: &'a Block,
    src: Source<'a>,
    ty: Option<TypeExpr>,
    type_range: Option<Range<usize>>,
    value: Type,
}

/// The module's variables: declaration order, and by name (the first
/// declaration of a name wins).
#[derive(Default)]
struct Vars<'a> {
    list: Vec<(String, Var<'a>)>,
    index: HashMap<String, usize>,
}

impl<'a> Vars<'a> {
    fn insert(&mut self, name: String, var: Var<'a>) {
        if self.index.contains_key(&name) {
            return;
        }
        self.index.insert(name.clone(), self.list.len());
        self.list.push((name, var));
    }

    fn get(&self, name: &str) -> Option<&Var<'a>> {
        self.index.get(name).map(|&i| &self.list[i].1)
    }

    fn iter(&self) -> impl Iterator<Item = &(String, Var<'a>)> {
        self.list.iter()
    }

    fn is_empty(&self) -> bool {
        self.list.is_empty()
    }
}

/// A name whose type is an inferred expression: a local or a PCL attribute.
struct Computed<'a> {
    space: Space,
    name: String,
    doc: usize,
    name_range: Range<usize>,
    range: Range<usize>,
    expr: &'a Expression,
    src: Source<'a>,
}

struct ModuleEnv {
    dialect: Dialect,
    lenient: bool,
    names: HashMap<(Space, String), (Type, Related)>,
    suggestions: std::sync::Mutex<HashMap<(Space, String), Option<String>>>,
}

impl ModuleEnv {
    fn new(dialect: Dialect, lenient: bool, names: HashMap<(Space, String), (Type, Related)>) -> Self {
        ModuleEnv { dialect, lenient, names, suggestions: Default::default() }
    }
}

impl Env for ModuleEnv {
    fn dialect(&self) -> Dialect {
        self.dialect
    }
    fn lenient(&self) -> bool {
        self.lenient
    }
    fn lookup(&self, space: Space, name: &str) -> Option<(Type, Option<Related>)> {
        self.names.get(&(space, name.to_string())).map(|(t, r)| (t.clone(), Some(r.clone())))
    }
    fn suggest(&self, space: Space, word: &str) -> Option<String> {
        // Generated and half-typed code repeats its unknown names: each is
        // looked up once per module, not once per use.
        let key = (space, word.to_string());
        let mut memo = self.suggestions.lock().unwrap_or_else(|e| e.into_inner());
        memo.entry(key)
            .or_insert_with(|| {
                let names = self.names.keys().filter(|(s, _)| *s == space).map(|(_, n)| n.as_str());
                crate::suggest::closest(word, names).map(String::from)
            })
            .clone()
    }
}

/// A module's names without its complaints: for re-inferring what was
/// already checked.
struct Quiet<'a>(&'a ModuleEnv);

impl Env for Quiet<'_> {
    fn dialect(&self) -> Dialect {
        self.0.dialect
    }
    fn lenient(&self) -> bool {
        true
    }
    fn lookup(&self, space: Space, name: &str) -> Option<(Type, Option<Related>)> {
        self.0.lookup(space, name)
    }
    fn suggest(&self, space: Space, word: &str) -> Option<String> {
        self.0.suggest(space, word)
    }
}

/// An environment with no names, for variable defaults (which cannot refer
/// to anything) and for files analysed on their own.
struct Empty(Dialect);

impl Env for Empty {
    fn dialect(&self) -> Dialect {
        self.0
    }
    fn lenient(&self) -> bool {
        true
    }
    fn lookup(&self, _: Space, _: &str) -> Option<(Type, Option<Related>)> {
        None
    }
    fn suggest(&self, _: Space, _: &str) -> Option<String> {
        None
    }
}

fn label_text(l: &BlockLabel) -> &str {
    match l {
        BlockLabel::Ident(i) => i.value().as_str(),
        BlockLabel::String(s) => s.value().as_str(),
    }
}

/// The structures of an item (one, unless hcl-edit read more from it).
fn structures(item_body: &Body) -> impl Iterator<Item = &Structure> {
    item_body.iter()
}

/// Analyses the documents of one module (same directory, same family).
pub fn analyze(docs: &[Document]) -> ModuleAnalysis {
    analyze_probe(docs, None)
}

fn probed(probe: Probe, doc: usize, range: &Range<usize>) -> bool {
    matches!(probe, Some((d, at)) if d == doc && range.start <= at && at <= range.end)
}

/// [`analyze`], also recording the type of every expression of the item at
/// the probe (for hover and definition).
pub fn analyze_probe(docs: &[Document], probe: Probe) -> ModuleAnalysis {
    let mut out = ModuleAnalysis {
        diagnostics: docs.iter().map(|d| d.diagnostics.clone()).collect(),
        symbols: Vec::new(),
        type_nodes: docs.iter().map(|_| Vec::new()).collect(),
        probe: Vec::new(),
        resources: Vec::new(),
    };
    let Some(first) = docs.first() else { return out };
    let dialect = first.file.dialect;
    let mut env = ModuleEnv::new(dialect, false, HashMap::new());
    let mut vars = Vars::default();
    let mut computed: Vec<Computed> = Vec::new();

    // 1. Declarations.
    for (di, doc) in docs.iter().enumerate() {
        let path = doc.file.path.clone();
        for item in &doc.items {
            let Some(body) = &item.body else { continue };
            let src = doc.source(item);
            for s in structures(body) {
                match s {
                    Structure::Block(b) => {
                        collect_block(di, &path, doc, b, src, &mut vars, &mut computed, &mut env, &mut out)
                    }
                    Structure::Attribute(a) if doc.file.kind == FileKind::Pcl || doc.file.kind == FileKind::Hcl => {
                        computed.push(Computed {
                            space: Space::Pcl,
                            name: a.key.value().to_string(),
                            doc: di,
                            name_range: src.range(&a.key),
                            range: src.range(a),
                            expr: &a.value,
                            src,
                        });
                    }
                    Structure::Attribute(_) => {}
                }
            }
        }
    }
    for (name, v) in vars.iter() {
        let related = Related {
            path: Some(docs[v.doc].file.path.clone()),
            range: v.name_range.clone(),
            message: format!("variable `{name}` is declared here"),
        };
        env.names.entry((Space::Var, name.clone())).or_insert((v.value.clone(), related));
    }

    // 2. Locals and PCL attributes in dependency order; cycles are errors.
    let order = dependency_order(&computed, dialect);
    let mut computed_types: Vec<Option<Type>> = vec![None; computed.len()];
    for component in order {
        let cyclic = component.len() > 1 || {
            let c = &computed[component[0]];
            references(c.expr, dialect).iter().any(|(s, n)| *s == c.space && *n == c.name)
        };
        if cyclic {
            let names: Vec<String> = component.iter().map(|&i| computed[i].name.clone()).collect();
            let shown = if names.len() > 6 {
                format!("{}, … ({} names)", names[..6].join(", "), names.len())
            } else {
                names.join(", ")
            };
            for &i in &component {
                let c = &computed[i];
                let d = Diagnostic::new(
                    Code::Cycle,
                    c.name_range.clone(),
                    format!("`{}` depends on itself through {shown}", c.name),
                );
                out.diagnostics[c.doc].push(d);
                computed_types[i] = Some(Type::any());
                insert_computed(&mut env, c, Type::any(), &docs[c.doc].file.path);
            }
            continue;
        }
        let i = component[0];
        let c = &computed[i];
        let mut inf = Infer::new(&env, c.src);
        if probed(probe, c.doc, &c.range) {
            inf.record = Some(Vec::new());
        }
        let t = inf.expr(c.expr);
        out.probe.extend(inf.record.take().unwrap_or_default());
        let diags = inf.diagnostics;
        out.diagnostics[c.doc].extend(diags);
        insert_computed(&mut env, c, t.clone(), &docs[c.doc].file.path);
        computed_types[i] = Some(t);
    }

    // 3. Every other item's checks.
    let has_vars = !vars.is_empty();
    for (di, doc) in docs.iter().enumerate() {
        let lenient = doc.file.kind == FileKind::TfTest;
        let item_env = ModuleEnv::new(doc.file.dialect, lenient, std::mem::take(&mut env.names));
        for item in &doc.items {
            let Some(body) = &item.body else { continue };
            let src = doc.source(item);
            let mut inf = Infer::new(&item_env, src);
            if probed(probe, di, &item.range) {
                inf.record = Some(Vec::new());
            }
            for s in structures(body) {
                match s {
                    Structure::Block(b) => check_block(&mut inf, doc, b, &vars),
                    Structure::Attribute(a) if doc.file.kind == FileKind::Tfvars => {
                        tfvars_value(&mut inf, a, &vars, has_vars);
                    }
                    // PCL attributes were inferred with the names above.
                    Structure::Attribute(_) if matches!(doc.file.kind, FileKind::Pcl | FileKind::Hcl) => {}
                    Structure::Attribute(a) => {
                        inf.expr(&a.value);
                    }
                }
            }
            out.probe.extend(inf.record.take().unwrap_or_default());
            out.diagnostics[di].extend(inf.diagnostics);
        }
        env.names = item_env.names;
    }

    // 4. Symbols in source order.
    for (name, v) in vars.iter() {
        out.symbols.push(Symbol {
            address: format!("var.{name}"),
            name: name.clone(),
            kind: SymbolKind::Variable,
            name_range: v.name_range.clone(),
            range: v.src.range(v.block),
            ty: v.value.clone(),
            doc: v.doc,
        });
    }
    for (c, t) in computed.iter().zip(computed_types) {
        let (address, kind) = match c.space {
            Space::Local => (format!("local.{}", c.name), SymbolKind::Local),
            _ => (c.name.clone(), SymbolKind::Attribute),
        };
        out.symbols.push(Symbol {
            address,
            name: c.name.clone(),
            kind,
            name_range: c.name_range.clone(),
            range: c.range.clone(),
            ty: t.unwrap_or_else(Type::any),
            doc: c.doc,
        });
    }
    outputs(docs, &env, &mut out);
    out.symbols.sort_by_key(|s| (s.doc, s.name_range.start));
    for d in &mut out.diagnostics {
        d.sort_by_key(|d| (d.range.start, d.range.end));
        d.dedup();
    }
    out
}

fn insert_computed(env: &mut ModuleEnv, c: &Computed, t: Type, path: &std::path::Path) {
    let what = if c.space == Space::Local { "local" } else { "attribute" };
    let related = Related {
        path: Some(path.to_path_buf()),
        range: c.name_range.clone(),
        message: format!("{what} `{}` is declared here", c.name),
    };
    env.names.entry((c.space, c.name.clone())).or_insert((t, related));
}

#[allow(clippy::too_many_arguments)]
fn collect_block<'a>(
    di: usize,
    path: &std::path::Path,
    doc: &'a Document,
    b: &'a Block,
    src: Source<'a>,
    vars: &mut Vars<'a>,
    computed: &mut Vec<Computed<'a>>,
    env: &mut ModuleEnv,
    out: &mut ModuleAnalysis,
) {
    let dialect = doc.file.dialect;
    let kind = doc.file.kind;
    let ident = b.ident.value().as_str();
    let related = |range: Range<usize>, what: String| Related { path: Some(path.to_path_buf()), range, message: what };
    match (ident, kind) {
        ("variable", FileKind::Terraform | FileKind::Hcl) => {
            let Some(label) = b.labels.first() else { return };
            let name = label_text(label).to_string();
            let name_range = src.range(label);
            let (ty, type_range) = match b.body.get_attribute("type") {
                Some(a) => {
                    let te = parse_type(&a.value, src, TypeContext::variable(dialect));
                    out.diagnostics[di].extend(te.diagnostics.iter().cloned());
                    out.type_nodes[di].extend(te.nodes.iter().cloned());
                    (Some(te), Some(src.range(&a.value)))
                }
                None => (None, None),
            };
            let value = match (&ty, b.body.get_attribute("default")) {
                (Some(te), _) => te.value.clone(),
                (None, Some(d)) => generalize(&Infer::new(&Empty(dialect), src).expr(&d.value)),
                (None, None) => Type::any(),
            };
            vars.insert(name, Var { doc: di, name_range, block: b, src, ty, type_range, value });
        }
        ("locals", FileKind::Terraform | FileKind::Hcl) => {
            for a in b.body.attributes() {
                computed.push(Computed {
                    space: Space::Local,
                    name: a.key.value().to_string(),
                    doc: di,
                    name_range: src.range(&a.key),
                    range: src.range(a),
                    expr: &a.value,
                    src,
                });
            }
        }
        ("config", FileKind::Pcl | FileKind::Hcl) => {
            let Some(label) = b.labels.first() else { return };
            let name = label_text(label).to_string();
            let name_range = src.range(label);
            let te = config_type(b, src, dialect);
            if let Some(te) = &te {
                out.diagnostics[di].extend(te.diagnostics.iter().cloned());
                out.type_nodes[di].extend(te.nodes.iter().cloned());
            }
            let ty = config_value_type(b, te.as_ref().map(|t| t.declared.clone()));
            out.symbols.push(Symbol {
                address: format!("config.{name}"),
                name: name.clone(),
                kind: SymbolKind::Config,
                name_range: name_range.clone(),
                range: src.range(b),
                ty: ty.clone(),
                doc: di,
            });
            env.names
                .entry((Space::Pcl, name.clone()))
                .or_insert((ty, related(name_range, format!("config `{name}` is declared here"))));
        }
        ("hook", FileKind::Pcl) => {
            // `hook KIND "NAME"`: resources name hooks in `options { hooks = … }`.
            let Some(label) = b.labels.last() else { return };
            let name = label_text(label).to_string();
            let name_range = src.range(label);
            env.names
                .entry((Space::Pcl, name.clone()))
                .or_insert((Type::any(), related(name_range, format!("hook `{name}` is declared here"))));
        }
        ("resource" | "component" | "read", FileKind::Pcl | FileKind::Hcl) => {
            let Some(label) = b.labels.first() else { return };
            let name = label_text(label).to_string();
            let name_range = src.range(label);
            // No schemas: every attribute of a resource is an output of unknown type.
            let ty = Type::output(Type::any());
            env.names
                .entry((Space::Pcl, name.clone()))
                .or_insert((ty, related(name_range, format!("{ident} `{name}` is declared here"))));
        }
        _ => {}
    }
}

/// An untyped variable's type from its default: what the default shows,
/// except that empty collections and null say nothing about what callers
/// pass (`default = {}` takes any map), so they become `any`-typed.
fn generalize(t: &Type) -> Type {
    match t.kind() {
        Kind::None => Type::any(),
        Kind::Object(attrs) if attrs.is_empty() => Type::map(Type::any()),
        Kind::Tuple(ts) if ts.is_empty() => Type::list(Type::any()),
        _ => t.map_children(generalize),
    }
}

/// The type label of a PCL `config` or `output`: a quoted type expression
/// (spans mapped into the label) or a bare keyword.
fn label_type(label: &BlockLabel, src: Source<'_>, dialect: Dialect) -> TypeExpr {
    let range = src.range(label);
    match label {
        BlockLabel::String(s) => {
            let mut te = parse_type_str(s.value(), TypeContext::new(dialect));
            let base = range.start + 1;
            for d in &mut te.diagnostics {
                d.range = d.range.start + base..d.range.end + base;
            }
            for n in &mut te.nodes {
                n.range = n.range.start + base..n.range.end + base;
                n.name_range = n.name_range.start + base..n.name_range.end + base;
            }
            te
        }
        BlockLabel::Ident(i) => {
            let mut te = parse_type_str(i.value().as_str(), TypeContext::new(dialect));
            for d in &mut te.diagnostics {
                d.range = d.range.start + range.start..d.range.end + range.start;
            }
            for n in &mut te.nodes {
                n.range = n.range.start + range.start..n.range.end + range.start;
                n.name_range = n.name_range.start + range.start..n.name_range.end + range.start;
            }
            te
        }
    }
}

fn config_type(b: &Block, src: Source<'_>, dialect: Dialect) -> Option<TypeExpr> {
    b.labels.get(1).map(|l| label_type(l, src, dialect))
}

/// Pulumi's adjustments to a config type (type-expressions.md §3).
fn config_value_type(b: &Block, declared: Option<Type>) -> Type {
    let Some(t) = declared else { return Type::any() };
    let optional_attrs = |t: &Type| match t.kind() {
        Kind::Object(attrs) => Type::object(attrs.iter().map(|(k, v)| (k.clone(), Type::optional(v.clone())))),
        _ => t.clone(),
    };
    let mut t = match t.kind() {
        Kind::List(e) => Type::list(optional_attrs(e)),
        Kind::Map(e) => Type::map(optional_attrs(e)),
        _ => optional_attrs(&t),
    };
    if matches!(b.body.get_attribute("default").map(|a| &a.value), Some(Expression::Null(_))) {
        t = Type::optional(t);
    }
    if matches!(b.body.get_attribute("secret").map(|a| &a.value), Some(Expression::Bool(v)) if *v.value()) {
        t = Type::output(t);
    }
    t
}

/// Names a computed expression refers to (`local.X`, bare PCL names),
/// with `for` variables scoped out.
fn references(e: &Expression, dialect: Dialect) -> Vec<(Space, String)> {
    let mut out = Vec::new();
    let mut bound: Vec<String> = Vec::new();
    refs(e, dialect, &mut bound, &mut out);
    out
}

fn refs(e: &Expression, dialect: Dialect, bound: &mut Vec<String>, out: &mut Vec<(Space, String)>) {
    let mut push_root = |name: &str, first: Option<&TraversalOperator>, bound: &Vec<String>| {
        if bound.iter().any(|b| b == name) {
            return;
        }
        if dialect != Dialect::Pcl && name == "local" {
            if let Some(TraversalOperator::GetAttr(a)) = first {
                out.push((Space::Local, a.value().to_string()));
            }
        } else if dialect != Dialect::Terraform {
            out.push((Space::Pcl, name.to_string()));
        }
    };
    match e {
        Expression::Variable(v) => push_root(v.value().as_str(), None, bound),
        Expression::Traversal(t) => {
            match &t.expr {
                Expression::Variable(v) => push_root(v.value().as_str(), t.operators.first().map(|o| o.value()), bound),
                other => refs(other, dialect, bound, out),
            }
            for op in &t.operators {
                if let TraversalOperator::Index(k) = op.value() {
                    refs(k, dialect, bound, out);
                }
            }
        }
        Expression::Array(items) => items.iter().for_each(|i| refs(i, dialect, bound, out)),
        Expression::Object(obj) => {
            for (k, v) in obj.iter() {
                if let hcl_edit::expr::ObjectKey::Expression(k) = k {
                    if !matches!(k, Expression::Variable(_)) {
                        refs(k, dialect, bound, out);
                    }
                }
                refs(v.expr(), dialect, bound, out);
            }
        }
        Expression::StringTemplate(t) => template_refs(t, dialect, bound, out),
        Expression::HeredocTemplate(h) => template_refs(&h.template, dialect, bound, out),
        Expression::Parenthesis(p) => refs(p.inner(), dialect, bound, out),
        Expression::Conditional(c) => {
            refs(&c.cond_expr, dialect, bound, out);
            refs(&c.true_expr, dialect, bound, out);
            refs(&c.false_expr, dialect, bound, out);
        }
        Expression::FuncCall(f) => f.args.iter().for_each(|a| refs(a, dialect, bound, out)),
        Expression::UnaryOp(u) => refs(&u.expr, dialect, bound, out),
        Expression::BinaryOp(b) => {
            refs(&b.lhs_expr, dialect, bound, out);
            refs(&b.rhs_expr, dialect, bound, out);
        }
        Expression::ForExpr(f) => {
            refs(&f.intro.collection_expr, dialect, bound, out);
            let n = bound.len();
            if let Some(k) = &f.intro.key_var {
                bound.push(k.value().to_string());
            }
            bound.push(f.intro.value_var.value().to_string());
            if let Some(k) = &f.key_expr {
                refs(k, dialect, bound, out);
            }
            refs(&f.value_expr, dialect, bound, out);
            if let Some(c) = &f.cond {
                refs(&c.expr, dialect, bound, out);
            }
            bound.truncate(n);
        }
        Expression::Null(_) | Expression::Bool(_) | Expression::Number(_) | Expression::String(_) => {}
    }
}

fn template_refs(
    t: &hcl_edit::template::Template,
    dialect: Dialect,
    bound: &mut Vec<String>,
    out: &mut Vec<(Space, String)>,
) {
    use hcl_edit::template::{Directive, Element};
    for el in t.iter() {
        match el {
            Element::Literal(_) => {}
            Element::Interpolation(i) => refs(&i.expr, dialect, bound, out),
            Element::Directive(d) => match d.as_ref() {
                Directive::If(i) => {
                    refs(&i.if_expr.cond_expr, dialect, bound, out);
                    template_refs(&i.if_expr.template, dialect, bound, out);
                    if let Some(e) = &i.else_expr {
                        template_refs(&e.template, dialect, bound, out);
                    }
                }
                Directive::For(f) => {
                    refs(&f.for_expr.collection_expr, dialect, bound, out);
                    let n = bound.len();
                    if let Some(k) = &f.for_expr.key_var {
                        bound.push(k.value().to_string());
                    }
                    bound.push(f.for_expr.value_var.value().to_string());
                    template_refs(&f.for_expr.template, dialect, bound, out);
                    bound.truncate(n);
                }
            },
        }
    }
}

/// Strongly connected components of the computed names' dependency graph,
/// dependencies first (Tarjan's algorithm, iterative: a chain of 10,000
/// locals must not overflow the stack).
fn dependency_order(computed: &[Computed], dialect: Dialect) -> Vec<Vec<usize>> {
    let mut index_of: HashMap<(Space, &str), usize> = HashMap::new();
    for (i, c) in computed.iter().enumerate() {
        index_of.entry((c.space, c.name.as_str())).or_insert(i);
    }
    let edges: Vec<Vec<usize>> = computed
        .iter()
        .map(|c| {
            let mut e: Vec<usize> = references(c.expr, dialect)
                .iter()
                .filter_map(|(s, n)| index_of.get(&(*s, n.as_str())).copied())
                .collect();
            e.sort_unstable();
            e.dedup();
            e
        })
        .collect();
    let n = computed.len();
    let mut index = vec![usize::MAX; n];
    let mut low = vec![0; n];
    let mut on_stack = vec![false; n];
    let mut stack = Vec::new();
    let mut next = 0;
    let mut out = Vec::new();
    for root in 0..n {
        if index[root] != usize::MAX {
            continue;
        }
        // (node, next edge to visit)
        let mut work = vec![(root, 0usize)];
        while let Some(&mut (v, ref mut ei)) = work.last_mut() {
            if *ei == 0 && index[v] == usize::MAX {
                index[v] = next;
                low[v] = next;
                next += 1;
                stack.push(v);
                on_stack[v] = true;
            }
            if let Some(&w) = edges[v].get(*ei) {
                *ei += 1;
                if index[w] == usize::MAX {
                    work.push((w, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(index[w]);
                }
                continue;
            }
            work.pop();
            if let Some(&(parent, _)) = work.last() {
                low[parent] = low[parent].min(low[v]);
            }
            if low[v] == index[v] {
                let mut component = Vec::new();
                while let Some(w) = stack.pop() {
                    on_stack[w] = false;
                    component.push(w);
                    if w == v {
                        break;
                    }
                }
                out.push(component);
            }
        }
    }
    out
}

/// Checks of one top-level block.
fn check_block(inf: &mut Infer, doc: &Document, b: &Block, vars: &Vars) {
    let ident = b.ident.value().as_str();
    let kind = doc.file.kind;
    let dialect = doc.file.dialect;
    match (ident, kind) {
        ("variable", FileKind::Terraform | FileKind::Hcl) => variable(inf, b, vars),
        ("locals", FileKind::Terraform | FileKind::Hcl) => {}
        ("config", FileKind::Pcl | FileKind::Hcl) => {
            let te = config_type(b, inf.source(), dialect);
            let declared = config_value_type(b, te.map(|t| t.declared));
            for a in b.body.attributes() {
                let t = inf.expr(&a.value);
                if a.key.value().as_str() == "default" && !declared.is_any() {
                    inf.check(&a.value, &t, &declared.strip(Strip::Eventuals), None);
                }
            }
            body(inf, &b.body, dialect, true);
        }
        ("output", FileKind::Pcl | FileKind::Hcl) if b.labels.len() >= 2 || kind == FileKind::Pcl => {
            let declared = b.labels.get(1).map(|l| label_type(l, inf.source(), dialect));
            if let Some(te) = &declared {
                inf.diagnostics.extend(te.diagnostics.iter().cloned());
            }
            for a in b.body.attributes() {
                let t = inf.expr(&a.value);
                if let (Some(te), "value") = (&declared, a.key.value().as_str()) {
                    inf.check(&a.value, &t, &te.declared, None);
                }
            }
            body(inf, &b.body, dialect, true);
        }
        // Metadata: nothing to type.
        ("package" | "pulumi", FileKind::Pcl) => {}
        ("hook", FileKind::Pcl) => {
            inf.bind("args", Type::any());
            body(inf, &b.body, dialect, false);
            inf.unbind(1);
        }
        ("resource", FileKind::Pcl) => {
            let range = b.body.get_blocks("options").find_map(|o| o.body.get_attribute("range"));
            let mut bound = 0;
            if let Some(r) = range {
                let t = inf.expr(&r.value);
                let (k, v) = match t.eventual_element().kind() {
                    Kind::Int | Kind::Number => (Type::int(), Type::int()),
                    _ => iteration(&t),
                };
                inf.bind("range", Type::object([("key".to_string(), k), ("value".to_string(), v)]));
                bound = 1;
            }
            body(inf, &b.body, dialect, false);
            inf.unbind(bound);
        }
        _ => body(inf, &b.body, dialect, false),
    }
}

/// A block body's attributes and nested blocks, with Terraform's
/// meta-arguments (`count`, `for_each`, `dynamic`, conditions) checked.
/// `skip_own_attributes`: the caller already inferred this body's attributes.
fn body(inf: &mut Infer, body: &Body, dialect: Dialect, skip_own_attributes: bool) {
    let mut bound = 0;
    if !skip_own_attributes {
        if let Some(c) = body.get_attribute("count") {
            let t = inf.expr(&c.value);
            inf.check(&c.value, &t, &Type::number(), None);
            count_value(inf, c);
            inf.bind("count", Type::object([("index".to_string(), Type::int())]));
            bound += 1;
        }
        if let Some(f) = body.get_attribute("for_each") {
            let (k, v) = for_each(inf, &f.value);
            inf.bind("each", Type::object([("key".to_string(), k), ("value".to_string(), v)]));
            bound += 1;
        }
    }
    for s in body.iter() {
        match s {
            Structure::Attribute(a) => {
                let key = a.key.value().as_str();
                if skip_own_attributes || key == "count" || key == "for_each" {
                    continue;
                }
                let t = inf.expr(&a.value);
                if key == "condition" {
                    inf.check(&a.value, &t, &Type::bool(), None);
                }
            }
            Structure::Block(b) => match b.ident.value().as_str() {
                "dynamic" if dialect != Dialect::Pcl => dynamic(inf, b, dialect),
                // `ignore_changes = [tags]` names attributes, not values.
                "lifecycle" => {
                    for a in b.body.attributes() {
                        if a.key.value().as_str() != "ignore_changes" {
                            inf.expr(&a.value);
                        }
                    }
                    for nested in b.body.blocks() {
                        self::body(inf, &nested.body, dialect, false);
                    }
                }
                // PCL resource options: some name property paths, not values.
                "options" if dialect == Dialect::Pcl => {
                    for a in b.body.attributes() {
                        let key = a.key.value().as_str();
                        if !matches!(
                            key,
                            "ignoreChanges" | "replaceOnChanges" | "additionalSecretOutputs" | "hideDiffs"
                        ) {
                            inf.expr(&a.value);
                        }
                    }
                }
                _ => self::body(inf, &b.body, dialect, false),
            },
        }
    }
    inf.unbind(bound);
}

/// `count`: a constant must be a whole number ≥ 0.
fn count_value(inf: &mut Infer, c: &Attribute) {
    let Ok(v) = eval(&c.value, inf.source()) else { return };
    let ok = match &v {
        Value::Int(i) => *i >= 0.into(),
        Value::Number(_) | Value::String(_) => v.as_whole().is_some_and(|i| i >= 0.into()),
        _ => true, // type-level checks reported it
    };
    if !ok {
        let r = inf.range(&c.value);
        inf.report(Diagnostic::new(
            Code::InvalidValue,
            r,
            format!("`count` must be a whole number ≥ 0, not {}", v.describe()),
        ));
    }
}

/// `for_each`: a map, an object or a set of strings. Returns what `each.key`
/// and `each.value` are.
fn for_each(inf: &mut Infer, e: &Expression) -> (Type, Type) {
    let t = inf.expr(e);
    let inner = t.strip(Strip::Eventuals);
    let members: Vec<Type> = inner.members().iter().filter(|m| !m.is_none()).cloned().collect();
    let inner = if members.len() == 1 { members[0].clone() } else { inner };
    let range = inf.range(e);
    let fail = |inf: &mut Infer, why: String| {
        inf.report(Diagnostic::new(Code::TypeMismatch, range.clone(), why));
        (Type::string(), Type::any())
    };
    match inner.kind() {
        Kind::Any | Kind::Union(_) => (Type::string(), Type::any()),
        Kind::Map(v) => (Type::string(), v.clone()),
        Kind::Object(attrs) => (Type::string(), Type::union(attrs.iter().map(|(_, t)| t.clone()).collect::<Vec<_>>())),
        Kind::Set(elem) => {
            inf.check(e, &t, &Type::set(Type::string()), None);
            (elem.clone(), elem.clone())
        }
        Kind::List(_) | Kind::Tuple(_) => fail(
            inf,
            format!("`for_each` needs a map or a set of strings, not `{t}`: convert it with toset() (or build a map with a for expression)"),
        ),
        _ => fail(inf, format!("`for_each` needs a map or a set of strings, not `{t}`")),
    }
}

/// `dynamic "NAME" { for_each = …, iterator = IT, content { … } }`.
fn dynamic(inf: &mut Infer, b: &Block, dialect: Dialect) {
    let name = b
        .body
        .get_attribute("iterator")
        .and_then(|a| match &a.value {
            Expression::Variable(v) => Some(v.value().to_string()),
            _ => None,
        })
        .or_else(|| b.labels.first().map(|l| label_text(l).to_string()))
        .unwrap_or_default();
    let (k, v) = match b.body.get_attribute("for_each") {
        Some(f) => {
            let t = inf.expr(&f.value);
            let inner = t.strip(Strip::Eventuals);
            match inner.kind() {
                // Unlike resources, dynamic blocks iterate lists and tuples too.
                Kind::List(_) | Kind::Tuple(_) | Kind::Set(_) | Kind::Map(_) | Kind::Object(_) => iteration(&inner),
                _ => iteration(&inner),
            }
        }
        None => (Type::any(), Type::any()),
    };
    inf.bind(name, Type::object([("key".to_string(), k), ("value".to_string(), v)]));
    for a in b.body.attributes() {
        if !matches!(a.key.value().as_str(), "for_each" | "iterator") {
            inf.expr(&a.value);
        }
    }
    for nested in b.body.blocks() {
        body(inf, &nested.body, dialect, false);
    }
    inf.unbind(1);
}

/// A Terraform variable's default, nullable and validation checks.
fn variable(inf: &mut Infer, b: &Block, vars: &Vars) {
    let name = b.labels.first().map(label_text).unwrap_or("");
    let var = vars.get(name).filter(|v| std::ptr::eq(v.block, b));
    let default = b.body.get_attribute("default");
    if let (Some(v), Some(d)) = (var, default) {
        let t = inf.expr(&d.value);
        if let Some(te) = &v.ty {
            let related = Related {
                path: None,
                range: v.type_range.clone().unwrap_or(v.name_range.clone()),
                message: format!("the type of `var.{name}`"),
            };
            inf.check(&d.value, &t, &te.declared, Some(related));
        }
        let non_nullable =
            matches!(b.body.get_attribute("nullable").map(|a| &a.value), Some(Expression::Bool(x)) if !*x.value());
        if non_nullable && matches!(d.value, Expression::Null(_)) {
            let r = inf.range(&d.value);
            inf.report(Diagnostic::new(
                Code::InvalidValue,
                r,
                "the default is null, but `nullable = false` forbids null",
            ));
        }
    }
    for a in b.body.attributes() {
        if !matches!(a.key.value().as_str(), "type" | "default") {
            inf.expr(&a.value);
        }
    }
    for v in b.body.get_blocks("validation") {
        body(inf, &v.body, Dialect::Terraform, false);
    }
}

/// A `.tfvars` value against its variable (when the directory declares any).
fn tfvars_value(inf: &mut Infer, a: &Attribute, vars: &Vars, has_vars: bool) {
    let t = inf.expr(&a.value);
    if !has_vars {
        return;
    }
    let name = a.key.value().as_str();
    match vars.get(name) {
        Some(v) => {
            if let Some(te) = &v.ty {
                let related = Related {
                    path: None,
                    range: v.type_range.clone().unwrap_or(v.name_range.clone()),
                    message: format!("the type of `var.{name}`"),
                };
                inf.check(&a.value, &t, &te.declared, Some(related));
            }
        }
        None => {
            let names: Vec<&str> = vars.iter().map(|(n, _)| n.as_str()).collect();
            let mut msg = format!("`{name}` is not a variable of this module; Terraform ignores it with a warning");
            if let Some(s) = crate::suggest::closest(name, names) {
                msg.push_str(&format!(" (did you mean `{s}`?)"));
            }
            let r = inf.range(&a.key);
            inf.report(Diagnostic::new(Code::UndefinedReference, r, msg).with_severity(Severity::Warning));
        }
    }
}

/// `output.NAME` symbols (their value types), and resource-like blocks for
/// document symbols.
fn outputs(docs: &[Document], env: &ModuleEnv, out: &mut ModuleAnalysis) {
    for (di, doc) in docs.iter().enumerate() {
        if !matches!(doc.file.kind, FileKind::Terraform | FileKind::Pcl | FileKind::Hcl) {
            continue;
        }
        for item in &doc.items {
            let Some(body) = &item.body else { continue };
            let src = doc.source(item);
            for b in body.blocks() {
                let ident = b.ident.value().as_str();
                if matches!(ident, "resource" | "data" | "module" | "component" | "read") {
                    let name = match (doc.file.kind, ident) {
                        (FileKind::Pcl | FileKind::Hcl, _) | (_, "module") => {
                            b.labels.first().map(label_text).unwrap_or("")
                        }
                        _ => b.labels.get(1).map(label_text).unwrap_or(""),
                    };
                    let address = match (doc.file.kind, ident) {
                        (FileKind::Terraform, "resource") => {
                            format!("{}.{name}", b.labels.first().map(label_text).unwrap_or(""))
                        }
                        (FileKind::Terraform, "data") => {
                            format!("data.{}.{name}", b.labels.first().map(label_text).unwrap_or(""))
                        }
                        (FileKind::Terraform, _) => format!("module.{name}"),
                        _ => name.to_string(),
                    };
                    let ty = if doc.file.kind == FileKind::Pcl { Type::output(Type::any()) } else { Type::any() };
                    let name_range = b.labels.last().map(|l| src.range(l)).unwrap_or_else(|| src.range(&b.ident));
                    out.resources.push(Symbol {
                        address,
                        name: name.to_string(),
                        kind: SymbolKind::Resource,
                        name_range,
                        range: src.range(b),
                        ty,
                        doc: di,
                    });
                    continue;
                }
                if ident != "output" {
                    continue;
                }
                let Some(label) = b.labels.first() else { continue };
                let name = label_text(label).to_string();
                let declared = match (doc.file.kind, b.labels.get(1)) {
                    (FileKind::Pcl | FileKind::Hcl, Some(l)) => {
                        let te = label_type(l, src, doc.file.dialect);
                        out.type_nodes[di].extend(te.nodes);
                        Some(te.declared)
                    }
                    _ => None,
                };
                let ty = match (declared, b.body.get_attribute("value")) {
                    (Some(t), _) => t,
                    (None, Some(v)) => Infer::new(&Quiet(env), src).expr(&v.value),
                    (None, None) => Type::any(),
                };
                out.symbols.push(Symbol {
                    address: format!("output.{name}"),
                    name,
                    kind: SymbolKind::Output,
                    name_range: src.range(label),
                    range: src.range(b),
                    ty,
                    doc: di,
                });
            }
        }
    }
}
