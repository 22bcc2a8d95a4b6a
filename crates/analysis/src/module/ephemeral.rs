//! Ephemeral values reaching an output that is not ephemeral
//! (analysis.md §3.1).
//!
//! Terraform 1.10 marks as ephemeral the value of a variable declared
//! `ephemeral = true`, of an `ephemeral` resource and `terraform.applying`;
//! the mark flows through every expression built of them (locals
//! included) except `ephemeralasnull(…)`, which drops it. An output not
//! declared `ephemeral = true` whose value carries the mark is an error of
//! `validate` (internal/terraform/node_output.go: "Ephemeral value not
//! allowed"). The mark is followed by reference here, not in the types: a
//! module-level pass after the items were checked, run only in a module
//! whose text says `ephemeral` or `terraform.applying`.

use std::ops::Range;

use hcl_edit::expr::{Expression, FuncCall, Traversal, TraversalOperator};
use hcl_edit::structure::Body;
use hcl_edit::visit::{self, Visit};
use hcl_edit::Span;
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

use super::shared::Shared;
use super::{Document, FileKind};
use syntax::diagnostic::{Code, Diagnostic};
use syntax::Dialect;

/// What an expression reads that may be ephemeral.
#[derive(Default)]
struct Reads {
    vars: HashSet<String>,
    locals: HashSet<String>,
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

/// `type-mismatch` at the value of each output not declared ephemeral
/// whose value is ephemeral.
pub(super) fn check(docs: &[Document], dialect: Dialect, diagnostics: &mut [Shared<Vec<Diagnostic>>]) {
    if !mentioned(docs, dialect) {
        return;
    }
    let mut vars: HashSet<String> = HashSet::default();
    let mut locals: HashMap<String, Reads> = HashMap::default();
    let mut outputs: Vec<(usize, Range<usize>, Reads)> = Vec::new();
    for (di, doc) in docs.iter().enumerate().filter(|(_, d)| d.file.kind == FileKind::Terraform) {
        for item in doc.items.iter() {
            let Some(body) = item.body(&doc.file.text) else { continue };
            for b in body.blocks() {
                match b.ident.value().as_str() {
                    "variable" if literal_true(&b.body, "ephemeral") => {
                        if let Some(l) = b.labels.first() {
                            vars.insert(super::decls::label_text(l).to_owned());
                        }
                    }
                    "locals" => {
                        for a in b.body.attributes() {
                            locals.insert(a.key.value().to_string(), reads(&a.value));
                        }
                    }
                    "output" if !literal_true(&b.body, "ephemeral") => {
                        let Some(a) = b.body.get_attribute("value") else { continue };
                        let Some(r) = a.value.span() else { continue };
                        outputs.push((di, item.range.start + r.start..item.range.start + r.end, reads(&a.value)));
                    }
                    _ => {}
                }
            }
        }
    }
    // Ephemeral locals: those reading an ephemeral name, to a fixpoint.
    let mut ephemeral_locals: HashSet<String> = HashSet::default();
    let direct = |r: &Reads, known: &HashSet<String>| {
        r.always || r.vars.iter().any(|v| vars.contains(v)) || r.locals.iter().any(|l| known.contains(l))
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
    for (di, range, r) in outputs {
        if direct(&r, &ephemeral_locals) {
            if let Some(ds) = diagnostics.get_mut(di) {
                ds.push(Diagnostic::new(
                    Code::TypeMismatch,
                    range,
                    "ephemeral value not allowed: this output value is not declared as returning an ephemeral \
                     value, so it cannot be set to a result derived from an ephemeral value (add `ephemeral = \
                     true`, or drop the mark with `ephemeralasnull(…)`)",
                ));
            }
        }
    }
}
