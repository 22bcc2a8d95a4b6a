//! Ephemeral values where Terraform refuses them (analysis.md §3.1).
//!
//! Terraform 1.10 marks as ephemeral the value of a variable declared
//! `ephemeral = true`, of an `ephemeral` resource, of a called module's
//! output declared `ephemeral = true` (and so of the whole `module.NAME`
//! object) and `terraform.applying`; the mark flows through every
//! expression built of them (locals included) except `ephemeralasnull(…)`,
//! which drops it. Three places refuse it:
//! - an output not declared `ephemeral = true` (internal/terraform/
//!   node_output.go: "Ephemeral value not allowed");
//! - an argument of a module call for a variable not declared
//!   `ephemeral = true` (internal/terraform/eval_variable.go, the same
//!   summary);
//! - a resource or data source argument that is not write-only in its
//!   provider's schema (internal/terraform/node_resource_validate.go:
//!   "Invalid use of ephemeral value"; without a schema nothing is said).
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

use super::shared::Shared;
use super::{Document, FileKind};
use crate::calls::Context;
use schema::BlockSchema;
use syntax::diagnostic::{Code, Diagnostic, Severity};
use syntax::Dialect;

/// What an expression reads that may be ephemeral.
#[derive(Default)]
struct Reads {
    vars: HashSet<String>,
    locals: HashSet<String>,
    /// `module.NAME.OUTPUT` (or `module.NAME` whole: `None`).
    modules: HashSet<(String, Option<String>)>,
    /// `ephemeral.T.N` or `terraform.applying`: ephemeral whatever else.
    always: bool,
    /// Inside `ephemeralasnull(…)`, which drops the mark.
    dropped: usize,
}

fn attr(op: Option<&hcl_edit::Decorated<TraversalOperator>>) -> Option<&str> {
    match op.map(|o| o.value()) {
        Some(TraversalOperator::GetAttr(name)) => Some(name.value().as_str()),
        _ => None,
    }
}

impl Visit for Reads {
    fn visit_traversal(&mut self, t: &Traversal) {
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
                _ => {}
            }
        }
        visit::visit_traversal(self, t);
    }

    fn visit_func_call(&mut self, call: &FuncCall) {
        let drops = !call.name.is_namespaced() && call.name.name.value().as_str() == "ephemeralasnull";
        self.dropped += usize::from(drops);
        visit::visit_func_call(self, call);
        self.dropped -= usize::from(drops);
    }
}

fn reads(e: &Expression) -> Reads {
    let mut r = Reads::default();
    r.visit_expr(e);
    r
}

fn literal_true(body: &Body, key: &str) -> bool {
    body.get_attribute(key).is_some_and(|a| matches!(&a.value, Expression::Bool(b) if *b.value()))
}

/// Whether the pass may report in the module (patches leave such modules
/// to a full analysis, see patch.rs).
pub(super) fn mentioned(docs: &[Document], dialect: Dialect) -> bool {
    dialect.is_terraform()
        && docs.iter().any(|d| {
            d.file.kind == FileKind::Terraform
                && (d.file.text.contains("ephemeral") || d.file.text.contains("terraform.applying"))
        })
}

/// [`mentioned`], or a callee has an ephemeral output: whether the pass
/// runs.
pub(super) fn applies(docs: &[Document], dialect: Dialect, context: &Context) -> bool {
    mentioned(docs, dialect)
        || (dialect.is_terraform()
            && context.calls.values().any(|c| c.interface().is_some_and(|i| i.outputs.iter().any(|o| o.ephemeral))))
}

/// A value the pass judges: where it is, what it reads, and what to say
/// when it is ephemeral (`None`: nothing, it may be).
struct Site {
    doc: usize,
    range: Range<usize>,
    reads: Reads,
    refusal: Option<(Severity, String)>,
    /// The address the value gives (`output.x`), shown as ephemeral.
    address: Option<String>,
}

const OUTPUT: &str = "ephemeral value not allowed: this output value is not declared as returning an ephemeral \
                      value, so it cannot be set to a result derived from an ephemeral value (add `ephemeral = \
                      true`, or drop the mark with `ephemeralasnull(…)`)";

/// Reports each ephemeral value where Terraform refuses one; returns the
/// addresses whose values are ephemeral (`var.x`, `local.y`,
/// `module.m.out`, `output.z`), sorted, for hover.
pub(super) fn check(
    docs: &[Document],
    dialect: Dialect,
    context: &Context,
    diagnostics: &mut [Shared<Vec<Diagnostic>>],
) -> Vec<String> {
    if !applies(docs, dialect, context) {
        return Vec::new();
    }
    let mut vars: HashSet<String> = HashSet::default();
    let mut locals: HashMap<String, Reads> = HashMap::default();
    let mut sites: Vec<Site> = Vec::new();
    // Outputs declared ephemeral: ephemeral to their callers.
    let mut declared: Vec<String> = Vec::new();
    for (di, doc) in docs.iter().enumerate().filter(|(_, d)| d.file.kind == FileKind::Terraform) {
        for item in doc.items.iter() {
            let Some(body) = item.body(&doc.file.text) else { continue };
            let at = item.range.start;
            let mut site = |e: &Expression, refusal: Option<(Severity, String)>, address: Option<String>| {
                if let Some(r) = e.span() {
                    sites.push(Site { doc: di, range: at + r.start..at + r.end, reads: reads(e), refusal, address });
                }
            };
            for b in body.blocks() {
                let label = |i: usize| b.labels.get(i).map(super::decls::label_text).unwrap_or("");
                match b.ident.value().as_str() {
                    "variable" if literal_true(&b.body, "ephemeral") => {
                        vars.insert(label(0).to_owned());
                    }
                    "locals" => {
                        for a in b.body.attributes() {
                            locals.insert(a.key.value().to_string(), reads(&a.value));
                        }
                    }
                    "output" => {
                        let Some(a) = b.body.get_attribute("value") else { continue };
                        let ephemeral = literal_true(&b.body, "ephemeral");
                        if ephemeral {
                            declared.push(format!("output.{}", label(0)));
                        }
                        let refusal = (!ephemeral).then(|| (Severity::Error, OUTPUT.to_owned()));
                        site(&a.value, refusal, Some(format!("output.{}", label(0))));
                    }
                    "module" => {
                        let Some(i) = context.callee(label(0)).and_then(|c| c.interface()) else { continue };
                        for a in b.body.attributes() {
                            let key = a.key.value().as_str();
                            if i.inputs.iter().any(|v| v.name == key && !v.ephemeral) {
                                let msg = format!(
                                    "ephemeral value not allowed: the variable `{key}` of module `{}` is not \
                                     declared as accepting ephemeral values, so it cannot be set to a result derived \
                                     from an ephemeral value",
                                    label(0)
                                );
                                site(&a.value, Some((Severity::Error, msg)), None);
                            }
                        }
                    }
                    kind @ ("resource" | "data") => {
                        let data = kind == "data";
                        let schemas = context.schemas.as_deref();
                        let Some(found) = schemas.and_then(|s| s.find(data, label(0))) else { continue };
                        // (An error even with a schema file the user named:
                        // an attribute never becomes write-only, providers
                        // add new `…_wo` ones.)
                        arguments(&b.body, found.block, "", true, &mut |e, path| {
                            let msg = format!(
                                "invalid use of ephemeral value: ephemeral values are not valid for `{path}` of \
                                 {kind} `{}`, because it is not a write-only attribute and must be persisted to state",
                                label(0)
                            );
                            site(e, Some((Severity::Error, msg)), None);
                        });
                    }
                    _ => {}
                }
            }
        }
    }
    let modules = |r: &Reads| {
        r.modules.iter().any(|(m, o)| {
            let Some(i) = context.callee(m).and_then(|c| c.interface()) else { return false };
            i.outputs.iter().any(|out| out.ephemeral && o.as_ref().is_none_or(|o| *o == out.name))
        })
    };
    // Ephemeral locals: those reading an ephemeral name, to a fixpoint.
    let mut ephemeral_locals: HashSet<String> = HashSet::default();
    let direct = |r: &Reads, known: &HashSet<String>| {
        r.always || r.vars.iter().any(|v| vars.contains(v)) || r.locals.iter().any(|l| known.contains(l)) || modules(r)
    };
    loop {
        let more: Vec<String> = locals
            .iter()
            .filter(|(n, r)| !ephemeral_locals.contains(*n) && direct(r, &ephemeral_locals))
            .map(|(n, _)| n.clone())
            .collect();
        if more.is_empty() {
            break;
        }
        ephemeral_locals.extend(more);
    }
    let mut addresses: Vec<String> = vars.iter().map(|v| format!("var.{v}")).collect();
    addresses.extend(declared);
    addresses.extend(ephemeral_locals.iter().map(|l| format!("local.{l}")));
    for (name, callee) in context.calls.iter() {
        let Some(i) = callee.interface() else { continue };
        addresses.extend(i.outputs.iter().filter(|o| o.ephemeral).map(|o| format!("module.{name}.{}", o.name)));
    }
    for site in sites {
        if !direct(&site.reads, &ephemeral_locals) {
            continue;
        }
        addresses.extend(site.address);
        if let (Some((severity, msg)), Some(ds)) = (site.refusal, diagnostics.get_mut(site.doc)) {
            ds.push(Diagnostic::new(Code::TypeMismatch, site.range, msg).with_severity(severity));
        }
    }
    addresses.sort();
    addresses.dedup();
    addresses
}

/// Each argument of a resource body that is not write-only in its schema
/// (nested blocks followed; meta-arguments, `lifecycle`, provisioners and
/// connections, which may hold ephemeral values, left out), with its
/// path (`a.b`).
fn arguments(body: &Body, schema: &BlockSchema, prefix: &str, top: bool, f: &mut dyn FnMut(&Expression, &str)) {
    for a in body.attributes() {
        let key = a.key.value().as_str();
        if top && matches!(key, "count" | "for_each" | "provider" | "depends_on") {
            continue;
        }
        if schema.attribute(key).is_some_and(|s| !s.write_only) {
            f(&a.value, &format!("{prefix}{key}"));
        }
    }
    for b in body.blocks() {
        let key = b.ident.value().as_str();
        if let Some(nested) = schema.block(key) {
            arguments(&b.body, &nested.block, &format!("{prefix}{key}."), false, f);
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
