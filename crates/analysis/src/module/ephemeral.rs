//! Ephemeral values where Terraform refuses them (analysis.md §3.1).
//!
//! Terraform 1.10 marks as ephemeral the value of a variable declared
//! `ephemeral = true`, of an `ephemeral` resource, of a called module's
//! output declared `ephemeral = true` (and so of the whole `module.NAME`
//! object) and `terraform.applying`; the mark flows through every
//! expression built of them (locals included) except `ephemeralasnull(…)`,
//! which drops it. These places refuse it:
//! - an output not declared `ephemeral = true` (internal/terraform/
//!   node_output.go: "Ephemeral value not allowed");
//! - an argument of a module call for a variable not declared
//!   `ephemeral = true` (internal/terraform/eval_variable.go, the same
//!   summary);
//! - a resource or data source argument that is not write-only in its
//!   provider's schema (internal/terraform/node_resource_validate.go:
//!   "Invalid use of ephemeral value"; without a schema nothing is said);
//! - and a root module takes no ephemeral output at all (node_output.go:
//!   "Ephemeral output not allowed"), said where the module is known to be
//!   one: it configures a `backend` or `cloud` block.
//!
//! The mark is followed by reference here, not in the types: a
//! module-level pass after the items were checked, run only in a module
//! whose text says `ephemeral` or `terraform.applying`, or one of whose
//! callees has an ephemeral output ([`applies`]).

use std::ops::Range;

use hcl_edit::expr::{Expression, FuncCall, Traversal, TraversalOperator};
use hcl_edit::structure::Body;
use hcl_edit::visit::{self, Visit};
use hcl_edit::Span;
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

use super::passes::has;
use super::{Document, FileKind};
use crate::calls::Context;
use schema::BlockSchema;
use syntax::diagnostic::{Code, Diagnostic};
use syntax::Dialect;

/// What an expression reads that may be ephemeral.
#[derive(Default, PartialEq)]
pub(super) struct Reads {
    vars: HashSet<String>,
    locals: HashSet<String>,
    /// `module.NAME.OUTPUT` (or `module.NAME` whole: `None`).
    modules: HashSet<(String, Option<String>)>,
    /// `ephemeral.T.N` or `terraform.applying`: ephemeral whatever else.
    always: bool,
    /// Inside `ephemeralasnull(…)`, which drops the mark.
    dropped: usize,
    /// (For sensitive.rs: a `sensitive(…)` call, and whether anything is
    /// read inside a call whose result drops that mark, see [`SHIELDS`].)
    pub(super) sensitive_call: bool,
    pub(super) shielded: bool,
    nonsensitive: u32,
    /// (For sensitive.rs: the resource and data source attributes read,
    /// `(data?, type, attribute)`, instance keys and splats passed over;
    /// no attribute: the whole object. A splat inside `length(…)` is left
    /// out: the tuple's elements carry a mark, and `length` passes only
    /// the tuple's own, cty's stdlib `LengthFunc`.)
    pub(super) resources: Vec<(bool, Box<str>, Option<Box<str>>)>,
    length: u32,
    /// The expression is one reference (`aws_db_instance.x`, `module.m`):
    /// a whole object that reaches its place whole.
    pub(super) bare: bool,
}

impl Reads {
    /// The variables it reads (outside `ephemeralasnull`).
    pub(super) fn vars(&self) -> impl Iterator<Item = &str> {
        self.vars.iter().map(String::as_str)
    }
    /// The locals it reads (outside `ephemeralasnull`).
    pub(super) fn locals(&self) -> impl Iterator<Item = &str> {
        self.locals.iter().map(String::as_str)
    }
    /// The called modules' outputs it reads (`None`: `module.NAME` whole).
    pub(super) fn modules(&self) -> impl Iterator<Item = (&str, Option<&str>)> {
        self.modules.iter().map(|(m, o)| (m.as_str(), o.as_deref()))
    }
}

/// The names a reference may start with that are no resource type.
const NOT_RESOURCES: [&str; 10] =
    ["var", "local", "module", "data", "each", "count", "path", "terraform", "self", "ephemeral"];

/// The attribute a resource reference reads after the operators that
/// name the resource (`[0]`, `["k"]`, `[*]`, `.*` passed over; none: the
/// whole object), and whether a splat was passed (a tuple then holds the
/// attribute's values).
fn resource_attribute(ops: &[hcl_edit::Decorated<TraversalOperator>]) -> (Option<Box<str>>, bool) {
    let splat = |o: &TraversalOperator| matches!(o, TraversalOperator::FullSplat(_) | TraversalOperator::AttrSplat(_));
    let at = ops.iter().position(|o| matches!(o.value(), TraversalOperator::GetAttr(_)));
    let attr = at.and_then(|i| match ops[i].value() {
        TraversalOperator::GetAttr(a) => Some(a.value().as_str().into()),
        _ => None,
    });
    (attr, ops[..at.unwrap_or(ops.len())].iter().any(|o| splat(o.value())))
}

fn attr(op: Option<&hcl_edit::Decorated<TraversalOperator>>) -> Option<&str> {
    match op.map(|o| o.value()) {
        Some(TraversalOperator::GetAttr(name)) => Some(name.value().as_str()),
        _ => None,
    }
}

impl Visit for Reads {
    fn visit_traversal(&mut self, t: &Traversal) {
        self.shielded |= self.nonsensitive > 0;
        if let (Expression::Variable(root), 0) = (&t.expr, self.dropped) {
            let first = attr(t.operators.first());
            match (root.value().as_str(), first) {
                ("var", Some(n)) => {
                    self.vars.insert(n.to_owned());
                }
                ("local", Some(n)) => {
                    self.locals.insert(n.to_owned());
                }
                ("module", Some(n)) => {
                    // `module.NAME[KEY].OUTPUT`: the first attribute after
                    // the instance keys.
                    let output = t.operators.iter().skip(1).find_map(|o| match o.value() {
                        TraversalOperator::GetAttr(a) => Some(Some(a.value().to_string())),
                        TraversalOperator::Index(_) | TraversalOperator::LegacyIndex(_) => None,
                        _ => Some(None),
                    });
                    self.modules.insert((n.to_owned(), output.flatten()));
                }
                ("ephemeral", Some(_)) | ("terraform", Some("applying")) => self.always = true,
                ("data", Some(ty)) => {
                    let (attr, splat) = resource_attribute(t.operators.get(2..).unwrap_or_default());
                    if !splat || self.length == 0 {
                        self.resources.push((true, ty.into(), attr));
                    }
                }
                (ty, Some(_)) if !NOT_RESOURCES.contains(&ty) => {
                    let (attr, splat) = resource_attribute(t.operators.get(1..).unwrap_or_default());
                    if !splat || self.length == 0 {
                        self.resources.push((false, ty.into(), attr));
                    }
                }
                _ => {}
            }
        }
        visit::visit_traversal(self, t);
    }

    fn visit_func_call(&mut self, call: &FuncCall) {
        let name = if call.name.is_namespaced() { "" } else { call.name.name.value().as_str() };
        let drops = name == "ephemeralasnull";
        let shields = SHIELDS.contains(&name);
        self.sensitive_call |= name == "sensitive" && self.nonsensitive == 0;
        self.shielded |= shields;
        let length = u32::from(name == "length");
        self.dropped += usize::from(drops);
        self.nonsensitive += u32::from(shields);
        self.length += length;
        visit::visit_func_call(self, call);
        self.dropped -= usize::from(drops);
        self.nonsensitive -= u32::from(shields);
        self.length -= length;
    }
}

/// The functions whose result does not carry the sensitive mark of their
/// arguments (Terraform 1.11 `validate` and `plan`, checked: an output of
/// `can(var.s)`, `try(var.s, "")` or `issensitive(var.s)` is accepted).
const SHIELDS: [&str; 4] = ["nonsensitive", "issensitive", "can", "try"];

fn reads(e: &Expression) -> Reads {
    let mut r = Reads { bare: matches!(e, Expression::Traversal(_)), ..Reads::default() };
    r.visit_expr(e);
    r
}

fn literal_true(body: &Body, key: &str) -> bool {
    body.get_attribute(key).is_some_and(|a| matches!(&a.value, Expression::Bool(b) if *b.value()))
}

/// Whether the pass may report in the module (after a patch it judges the
/// edited items again, or every item when what it learns of the module
/// changed: see `passes::run_with`).
pub(super) fn mentioned(docs: &[Document], dialect: Dialect) -> bool {
    dialect.is_terraform()
        && docs.iter().any(|d| {
            d.file.kind == FileKind::Terraform
                && (has(&d.file.text, "ephemeral") || has(&d.file.text, "terraform.applying"))
        })
}

/// [`mentioned`], or a callee has an ephemeral output: whether the pass
/// runs.
pub(super) fn applies(docs: &[Document], dialect: Dialect, context: &Context) -> bool {
    mentioned(docs, dialect)
        || (dialect.is_terraform()
            && context.calls.values().any(|c| c.interface().is_some_and(|i| i.ephemeral_outputs().next().is_some())))
}

/// What one item tells the pass, its positions relative to the item (so
/// that it holds while the item only moves): computed once per item
/// ([`super::passes`]).
#[derive(Default)]
pub(super) struct Facts {
    /// Variables declared `ephemeral = true`.
    vars: Vec<String>,
    pub(super) locals: Vec<(String, Reads)>,
    /// Each of `locals`' name's range (sensitive.rs).
    pub(super) local_keys: Vec<Range<usize>>,
    /// Variables declared `sensitive = true` (sensitive.rs).
    pub(super) sensitive_vars: Vec<String>,
    /// Outputs not declared `sensitive = true`: header (`output "x"`),
    /// what the value reads (sensitive.rs).
    pub(super) plain_outputs: Vec<(Range<usize>, Reads)>,
    /// Name, declared `ephemeral = true`, the value's range, what it reads.
    outputs: Vec<(String, bool, Range<usize>, Reads)>,
    /// Module calls: name, then each argument.
    pub(super) calls: Vec<(String, Vec<Arg<String>>)>,
    /// Resources and data sources: data?, type, then each argument (by
    /// its path through nested blocks).
    resources: Vec<(bool, String, Vec<PathArg>)>,
    /// Outputs declared `ephemeral = true`: name, header (`output "x"`).
    ephemeral_outputs: Vec<(String, Range<usize>)>,
    /// A `terraform` block with a `backend` or `cloud` block: only a root
    /// module configures where its state lives.
    root: bool,
}

impl Facts {
    /// Each output's name and what its value reads (sensitive.rs).
    pub(super) fn named_outputs(&self) -> impl Iterator<Item = (&str, &Reads)> {
        self.outputs.iter().map(|(n, _, _, r)| (n.as_str(), r))
    }
}

/// An argument: its name (or path), its value's range and what it reads.
pub(super) type Arg<P> = (P, Range<usize>, Reads);
type PathArg = Arg<Vec<String>>;

/// The facts of one item's body.
pub(super) fn facts(body: &Body) -> Facts {
    let mut f = Facts::default();
    let range = |e: &Expression| e.span().map(|r| r.start..r.end);
    for b in body.blocks() {
        let label = |i: usize| b.labels.get(i).map(super::decls::label_text).unwrap_or("").to_owned();
        match b.ident.value().as_str() {
            "variable" => {
                if literal_true(&b.body, "ephemeral") {
                    f.vars.push(label(0));
                }
                if literal_true(&b.body, "sensitive") {
                    f.sensitive_vars.push(label(0));
                }
            }
            "locals" => {
                for a in b.body.attributes() {
                    f.locals.push((a.key.value().to_string(), reads(&a.value)));
                    f.local_keys.push(a.key.span().unwrap_or_default());
                }
            }
            "output" => {
                let ephemeral = literal_true(&b.body, "ephemeral");
                let end = b.labels.last().and_then(|l| l.span()).or_else(|| b.ident.span());
                if let (true, Some(start), Some(end)) = (ephemeral, b.ident.span(), end.clone()) {
                    f.ephemeral_outputs.push((label(0), start.start..end.end));
                }
                let Some(a) = b.body.get_attribute("value") else { continue };
                let Some(r) = range(&a.value) else { continue };
                // (Any `sensitive` argument but a literal `false` leaves it to Terraform.)
                let sensitive = b
                    .body
                    .get_attribute("sensitive")
                    .is_some_and(|a| !matches!(&a.value, Expression::Bool(v) if !*v.value()));
                if let (false, Some(start), Some(end)) = (sensitive, b.ident.span(), end) {
                    f.plain_outputs.push((start.start..end.end, reads(&a.value)));
                }
                f.outputs.push((label(0), ephemeral, r, reads(&a.value)));
            }
            "terraform" => {
                f.root |= b.body.blocks().any(|n| matches!(n.ident.value().as_str(), "backend" | "cloud"));
            }
            "module" => {
                let args = b
                    .body
                    .attributes()
                    .filter_map(|a| Some((a.key.value().to_string(), range(&a.value)?, reads(&a.value))));
                f.calls.push((label(0), args.collect()));
            }
            kind @ ("resource" | "data") => {
                let mut args = Vec::new();
                arguments(&b.body, &mut Vec::new(), &mut args);
                f.resources.push((kind == "data", label(0), args));
            }
            _ => {}
        }
    }
    f
}

/// Each argument of a resource body and of its nested blocks (not the
/// meta-arguments, `lifecycle`, provisioners, connections or `dynamic`
/// blocks, which may hold ephemeral values or are generated).
fn arguments(body: &Body, path: &mut Vec<String>, out: &mut Vec<PathArg>) {
    let top = path.is_empty();
    for a in body.attributes() {
        let key = a.key.value().as_str();
        if top && matches!(key, "count" | "for_each" | "provider" | "depends_on") {
            continue;
        }
        if let Some(r) = a.value.span() {
            path.push(key.to_owned());
            out.push((path.clone(), r.start..r.end, reads(&a.value)));
            path.pop();
        }
    }
    for b in body.blocks() {
        let key = b.ident.value().as_str();
        if top && matches!(key, "lifecycle" | "provisioner" | "connection") || key == "dynamic" {
            continue;
        }
        path.push(key.to_owned());
        arguments(&b.body, path, out);
        path.pop();
    }
}

/// Whether the argument at `path` of a block is an attribute its schema
/// does not mark write-only (nested blocks followed).
fn persisted(schema: &BlockSchema, path: &[String]) -> bool {
    match path {
        [] => false,
        [attr] => schema.attribute(attr).is_some_and(|a| !a.write_only),
        [block, rest @ ..] => schema.block(block).is_some_and(|b| persisted(&b.block, rest)),
    }
}

const OUTPUT: &str = "ephemeral value not allowed: this output value is not declared as returning an ephemeral \
                      value, so it cannot be set to a result derived from an ephemeral value (add `ephemeral = \
                      true`, or drop the mark with `ephemeralasnull(…)`)";

/// What the pass learns of the whole module before judging each item:
/// the ephemeral variables and locals, and whether the module is a root
/// one. Kept with the pass's findings: an edit that changes nothing it is
/// made of ([`same_inputs`]) has only the edited items judged again.
#[derive(Debug, Default)]
pub(super) struct Marks {
    vars: HashSet<String>,
    locals: HashSet<String>,
    root: bool,
}

/// Whether the items `a` and the items `b` (an edit's before and after)
/// tell [`Marks`] and the ephemeral addresses the same: the same
/// ephemeral variables, locals (and what they read), outputs (and what
/// they read), and root-ness, wherever they are.
pub(super) fn same_inputs<'a>(a: &[&'a Facts], b: &[&'a Facts]) -> bool {
    let vars = |f: &[&'a Facts]| f.iter().flat_map(|f| &f.vars).collect::<Vec<_>>();
    let locals = |f: &[&'a Facts]| f.iter().flat_map(|f| &f.locals).collect::<Vec<_>>();
    let outputs =
        |f: &[&'a Facts]| f.iter().flat_map(|f| f.outputs.iter().map(|(n, d, _, r)| (n, d, r))).collect::<Vec<_>>();
    let root = |f: &[&'a Facts]| f.iter().any(|f| f.root);
    vars(a) == vars(b) && locals(a) == locals(b) && outputs(a) == outputs(b) && root(a) == root(b)
}

/// Whether `r` reads an ephemeral value directly: a mark (`ephemeral.`,
/// `terraform.applying`), an ephemeral variable, a callee's ephemeral
/// output, or one of `locals`.
fn direct(r: &Reads, vars: &HashSet<String>, locals: &HashSet<String>, context: &Context) -> bool {
    let modules = r.modules.iter().any(|(m, o)| {
        let Some(i) = context.callee(m).and_then(|c| c.interface()) else { return false };
        match o {
            Some(o) => i.output(o).is_some_and(|out| out.ephemeral),
            None => i.ephemeral_outputs().next().is_some(),
        }
    });
    r.always || modules || r.vars.iter().any(|v| vars.contains(v)) || r.locals.iter().any(|l| locals.contains(l))
}

/// The module's [`Marks`], from every item's facts.
fn marks<'a>(all: impl Iterator<Item = &'a Facts> + Clone, context: &Context) -> Marks {
    let mut vars: HashSet<String> = HashSet::default();
    let mut locals: HashMap<&str, &Reads> = HashMap::default();
    for f in all.clone() {
        vars.extend(f.vars.iter().cloned());
        for (n, r) in &f.locals {
            locals.entry(n.as_str()).or_insert(r);
        }
    }
    // Ephemeral locals: those reading an ephemeral name, then those
    // reading them, and so on (the readers indexed only when some local is
    // ephemeral: at each keystroke in a large module none usually is).
    let none = HashSet::default();
    let mut ephemeral_locals: HashSet<String> =
        locals.iter().filter(|(_, r)| direct(r, &vars, &none, context)).map(|(n, _)| n.to_string()).collect();
    if !ephemeral_locals.is_empty() {
        let mut readers: HashMap<&str, Vec<&str>> = HashMap::default();
        for (n, r) in &locals {
            for l in &r.locals {
                readers.entry(l.as_str()).or_default().push(n);
            }
        }
        let mut work: Vec<String> = ephemeral_locals.iter().cloned().collect();
        while let Some(m) = work.pop() {
            for n in readers.get(m.as_str()).into_iter().flatten() {
                if ephemeral_locals.insert(n.to_string()) {
                    work.push(n.to_string());
                }
            }
        }
    }
    let root = all.into_iter().any(|f| f.root);
    Marks { vars, locals: ephemeral_locals, root }
}

/// Per document, each ephemeral value where Terraform refuses one; the
/// addresses whose values are ephemeral (`var.x`, `local.y`,
/// `module.m.out`, `output.z`), sorted, for hover; and the [`Marks`] they
/// were judged by. `facts` gives each item's (of the module's Terraform
/// files).
pub(super) fn check<'a>(
    docs: &[Document],
    context: &Context,
    facts: impl Fn(&super::Item) -> Option<&'a Facts>,
) -> (Vec<Vec<Diagnostic>>, Vec<String>, Marks) {
    let mut out: Vec<Vec<Diagnostic>> = vec![Vec::new(); docs.len()];
    let all = || {
        docs.iter()
            .enumerate()
            .filter(|(_, d)| d.file.kind == FileKind::Terraform)
            .flat_map(|(di, d)| d.items.iter().map(move |i| (di, i)))
    };
    let marks = marks(all().filter_map(|(_, i)| facts(i)), context);
    let mut addresses: Vec<String> = marks.vars.iter().map(|v| format!("var.{v}")).collect();
    addresses.extend(marks.locals.iter().map(|l| format!("local.{l}")));
    for (name, callee) in context.calls.iter() {
        let Some(i) = callee.interface() else { continue };
        addresses.extend(i.ephemeral_outputs().map(|o| format!("module.{name}.{}", o.name)));
    }
    for (di, item) in all() {
        let Some(f) = facts(item) else { continue };
        judge(f, item.range.start, &marks, context, &mut out[di], &mut addresses);
    }
    for ds in &mut out {
        ds.sort_by_key(|d| (d.range.start, d.range.end));
    }
    addresses.sort();
    addresses.dedup();
    (out, addresses, marks)
}

/// [`check`]'s diagnostics of some items of one document under `marks`
/// (a patch judges only the items it parsed again).
pub(super) fn check_items<'a>(
    items: &[super::Item],
    marks: &Marks,
    context: &Context,
    facts: impl Fn(&super::Item) -> Option<&'a Facts>,
) -> Vec<Diagnostic> {
    let (mut out, mut addresses) = (Vec::new(), Vec::new());
    for item in items {
        let Some(f) = facts(item) else { continue };
        judge(f, item.range.start, marks, context, &mut out, &mut addresses);
    }
    out.sort_by_key(|d| (d.range.start, d.range.end));
    out
}

/// One item's ephemeral values where Terraform refuses one (item `at`),
/// and its outputs that are ephemeral.
fn judge(
    f: &Facts,
    at: usize,
    marks: &Marks,
    context: &Context,
    out: &mut Vec<Diagnostic>,
    addresses: &mut Vec<String>,
) {
    let direct = |r: &Reads| direct(r, &marks.vars, &marks.locals, context);
    let schemas = context.schemas.as_deref();
    let place = |r: &Range<usize>| at + r.start..at + r.end;
    for (name, header) in f.ephemeral_outputs.iter().filter(|_| marks.root) {
        let msg = format!(
            "ephemeral output not allowed: `output.{name}` is ephemeral, and ephemeral outputs are not allowed in a \
             root module (this module configures a backend, so it is one)"
        );
        out.push(Diagnostic::new(Code::TypeMismatch, place(header), msg));
    }
    for (name, declared, r, reads) in &f.outputs {
        let marked = *declared || direct(reads);
        if marked {
            addresses.push(format!("output.{name}"));
        }
        if marked && !declared {
            out.push(Diagnostic::new(Code::TypeMismatch, place(r), OUTPUT));
        }
    }
    for (call, args) in &f.calls {
        let Some(i) = context.callee(call).and_then(|c| c.interface()) else { continue };
        for (key, r, reads) in args {
            if i.inputs.iter().any(|v| v.name == *key && !v.ephemeral) && direct(reads) {
                let msg = format!(
                    "ephemeral value not allowed: the variable `{key}` of module `{call}` is not declared as \
                     accepting ephemeral values, so it cannot be set to a result derived from an ephemeral value"
                );
                out.push(Diagnostic::new(Code::TypeMismatch, place(r), msg));
            }
        }
    }
    for (data, ty, args) in &f.resources {
        // (An error even with a schema file the user named: an attribute
        // never becomes write-only, providers add new `…_wo` ones.)
        let Some(found) = schemas.and_then(|s| s.find(*data, ty)) else { continue };
        let kind = if *data { "data source" } else { "resource" };
        for (path, r, reads) in args {
            if persisted(found.block, path) && direct(reads) {
                let msg = format!(
                    "invalid use of ephemeral value: ephemeral values are not valid for `{}` of {kind} `{ty}`, \
                     because it is not a write-only attribute and must be persisted to state",
                    path.join(".")
                );
                out.push(Diagnostic::new(Code::TypeMismatch, place(r), msg));
            }
        }
    }
}

/// Whether an expression's text reads an ephemeral value, given the
/// addresses [`check`] returned (for hover: `var.x`, `"${local.y}"`).
pub fn marked(text: &str, addresses: &[String]) -> bool {
    if addresses.is_empty() && !text.contains("ephemeral.") && !text.contains("terraform.applying") {
        return false;
    }
    let Ok(e) = text.parse::<Expression>() else { return false };
    let r = reads(&e);
    let has = |a: String| addresses.binary_search(&a).is_ok();
    r.always
        || r.vars.iter().any(|v| has(format!("var.{v}")))
        || r.locals.iter().any(|l| has(format!("local.{l}")))
        || r.modules.iter().any(|(m, o)| match o {
            Some(o) => has(format!("module.{m}.{o}")),
            None => addresses.iter().any(|a| a.starts_with(&format!("module.{m}."))),
        })
}
