//! Declarations nothing reads (analysis.md §5.1): a variable, a local, a
//! data source no expression of the module reads, and a
//! `required_providers` entry no block of the module uses. Reviewers ask
//! for these (tflint's `terraform_unused_declarations` and
//! `terraform_unused_required_providers`); Terraform itself says nothing.
//!
//! A module-level pass over per-item facts (passes.rs): each item tells
//! what it declares and what it reads, once. Silent where a read may be
//! unseen: a block that does not parse, a file that was not read. A module
//! call that does not pass `providers` inherits the default providers
//! (Terraform's implicit inheritance), so then no provider is unused.
//!
//! An output of a module that known callers call (not a root: see
//! sensitive.rs) that none of them reads (issue 44.3): the project layer
//! gathers what callers read ([`Context::read_outputs`], from their text);
//! no expression of the module itself can read its outputs.
//!
//! Not reported, as deliberate: a name that starts with `_` (a local kept
//! for what evaluating it checks, as in Rust), and a data source whose
//! reading is what it is for (`archive_file` writes its archive,
//! `external` runs its program: Terraform reads every data source, read
//! or not).

use std::ops::Range;

use hcl_edit::expr::{Expression, FuncCall, Traversal, TraversalOperator};
use hcl_edit::structure::{Block, Body};
use hcl_edit::visit::{self, Visit};
use hcl_edit::Span;
use rustc_hash::FxHashSet as HashSet;

use super::decls::label_text;
use super::{Document, FileKind, Item};
use crate::calls::Context;
use std::collections::BTreeSet;
use syntax::diagnostic::{Code, Diagnostic};

/// What a name is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Kind {
    Var,
    Local,
    Data,
    Provider,
    Output,
}

/// What one item declares (with the range its diagnostic goes on,
/// relative to the item) and what it reads.
#[derive(Default)]
pub(super) struct Facts {
    /// (Names boxed, ranges as `u32`: every local of a module has an
    /// entry, and a module of 1 MB of locals must stay within its memory
    /// budget, tests/memory.rs.)
    declared: Vec<(Kind, Box<str>, Range<u32>)>,
    /// What it reads, each as its [`key`], sorted, once: at a keystroke
    /// the pass gathers every item's, and hashing names again each time
    /// would cost milliseconds in a 10 MB module.
    reads: Vec<u64>,
    /// A module call without `providers`: it may use any default provider.
    inherits: bool,
}

/// The names an expression tree reads, and the providers it calls
/// functions of (`provider::NAME::f`).
#[derive(Default)]
struct Reads(Vec<(Kind, String)>);

fn attr(op: Option<&hcl_edit::Decorated<TraversalOperator>>) -> Option<&str> {
    match op.map(|o| o.value()) {
        Some(TraversalOperator::GetAttr(name)) => Some(name.value().as_str()),
        _ => None,
    }
}

impl Visit for Reads {
    fn visit_traversal(&mut self, t: &Traversal) {
        if let Expression::Variable(root) = &t.expr {
            let (first, second) = (attr(t.operators.first()), attr(t.operators.get(1)));
            match (root.value().as_str(), first, second) {
                ("var", Some(n), _) => self.0.push((Kind::Var, n.to_owned())),
                ("local", Some(n), _) => self.0.push((Kind::Local, n.to_owned())),
                ("data", Some(t), Some(n)) => self.0.push((Kind::Data, format!("{t}.{n}"))),
                _ => {}
            }
        }
        visit::visit_traversal(self, t);
    }

    fn visit_func_call(&mut self, call: &FuncCall) {
        let ns = &call.name.namespace;
        if let (Some(first), Some(provider)) = (ns.first(), ns.get(1)) {
            if first.value().as_str() == "provider" {
                self.0.push((Kind::Provider, provider.value().to_string()));
            }
        }
        visit::visit_func_call(self, call);
    }
}

/// The local name of the provider a reference such as `aws.west` names.
pub(super) fn provider_root(e: &Expression) -> Option<String> {
    match e {
        Expression::Variable(v) => Some(v.value().to_string()),
        Expression::Traversal(t) => provider_root(&t.expr),
        _ => None,
    }
}

/// The providers a block uses (recursively: scoped data sources of `check`
/// blocks included).
fn providers(b: &Block, out: &mut Gathered) {
    let ident = b.ident.value().as_str();
    match ident {
        "resource" | "data" | "ephemeral" | "list" | "action" => {
            let explicit = b.body.get_attribute("provider").and_then(|a| provider_root(&a.value));
            let implied = || b.labels.first().map(|l| label_text(l).split('_').next().unwrap_or("").to_owned());
            if let Some(p) = explicit.or_else(implied) {
                out.reads.push((Kind::Provider, p));
            }
        }
        // (`provider_meta` in a `terraform` block: metadata for the provider.)
        "provider" | "provider_meta" => {
            if let Some(l) = b.labels.first() {
                out.reads.push((Kind::Provider, label_text(l).to_owned()));
            }
        }
        "module" => match b.body.get_attribute("providers").map(|a| &a.value) {
            Some(Expression::Object(o)) => {
                out.reads.extend(o.iter().filter_map(|(_, v)| provider_root(v.expr())).map(|p| (Kind::Provider, p)));
            }
            _ => out.inherits = true,
        },
        _ => {}
    }
    for nested in b.body.blocks() {
        providers(nested, out);
    }
}

/// A name's key: its kind and name hashed (a collision only silences).
fn key(kind: Kind, name: &str) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = rustc_hash::FxHasher::default();
    kind.hash(&mut h);
    name.hash(&mut h);
    h.finish()
}

/// What [`facts`] gathers before the reads are keyed.
#[derive(Default)]
struct Gathered {
    declared: Vec<(Kind, String, Range<usize>)>,
    reads: Vec<(Kind, String)>,
    inherits: bool,
}

/// The facts of one item's body (spans relative to the item).
pub(super) fn facts(body: &Body) -> Facts {
    let mut f = Gathered::default();
    let span = |s: Option<Range<usize>>| s.unwrap_or(0..0);
    for b in body.blocks() {
        let label = |i: usize| b.labels.get(i).map(label_text).unwrap_or("").to_owned();
        let mut reads = Reads::default();
        reads.visit_body(&b.body);
        match b.ident.value().as_str() {
            "variable" if b.labels.len() == 1 => {
                let name = label(0);
                // A variable's own validation reading it is no use of it.
                reads.0.retain(|(k, n)| !(*k == Kind::Var && *n == name));
                f.declared.push((Kind::Var, name, span(b.labels[0].span())));
            }
            "locals" => {
                for a in b.body.attributes() {
                    f.declared.push((Kind::Local, a.key.value().to_string(), span(a.key.span())));
                }
            }
            "output" if b.labels.len() == 1 => {
                f.declared.push((Kind::Output, label(0), span(b.labels[0].span())));
            }
            "data" if b.labels.len() == 2 => {
                let name = format!("{}.{}", label(0), label(1));
                reads.0.retain(|(k, n)| !(*k == Kind::Data && *n == name));
                f.declared.push((Kind::Data, name, span(b.labels[1].span())));
            }
            "terraform" => {
                for r in b.body.blocks().filter(|r| r.ident.value().as_str() == "required_providers") {
                    for a in r.body.attributes() {
                        f.declared.push((Kind::Provider, a.key.value().to_string(), span(a.key.span())));
                    }
                }
            }
            _ => {}
        }
        providers(b, &mut f);
        f.reads.append(&mut reads.0);
    }
    let mut keys: Vec<u64> = f.reads.iter().map(|(k, n)| key(*k, n)).collect();
    keys.sort_unstable();
    keys.dedup();
    let declared = f.declared.into_iter().map(|(k, n, r)| (k, n.into_boxed_str(), r.start as u32..r.end as u32));
    Facts { declared: declared.collect(), reads: keys, inherits: f.inherits }
}

/// Data sources read for what reading them does.
const SIDE_EFFECTS: &[&str] = &["archive_file", "external"];

/// Whether an unread declaration is meant so (see the module's doc).
fn deliberate(kind: Kind, name: &str) -> bool {
    match kind {
        Kind::Provider => false,
        Kind::Data => {
            let (t, n) = name.split_once('.').unwrap_or(("", name));
            SIDE_EFFECTS.contains(&t) || n.starts_with('_')
        }
        _ => name.starts_with('_'),
    }
}

/// Whether a file's declarations are judged: a Terraform or OpenTofu
/// configuration file that is not an override file (whose blocks merge
/// into a base block declared elsewhere), nor a query, test or Stacks file.
fn judged(doc: &Document) -> bool {
    let name = doc.file.path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    let configuration = [".tf", ".tofu", ".tf.json", ".tofu.json"].iter().any(|e| name.ends_with(e));
    configuration && !super::overrides::is_override(&doc.file.path)
}

/// The outputs the module's known callers read, when it has some and what
/// each reads is known (else no output is judged).
pub(super) fn outputs_read(context: &Context) -> Option<&BTreeSet<String>> {
    context.passed.as_ref().and(context.read_outputs.as_deref())
}

/// Per document, each declaration that nothing reads (an output: that no
/// known caller reads, of `outputs_read`). `facts` gives each item's (of
/// the module's Terraform files).
pub(super) fn check<'a>(
    docs: &[Document],
    outputs_read: Option<&BTreeSet<String>>,
    facts: impl Fn(&Item) -> Option<&'a Facts>,
) -> Vec<Vec<Diagnostic>> {
    let mut out = vec![Vec::new(); docs.len()];
    let terraform = || docs.iter().filter(|d| d.file.kind == FileKind::Terraform);
    // A read may hide in what was not read or does not parse.
    if docs.iter().any(Document::is_unanalysed) || terraform().any(|d| d.items.iter().any(|i| !i.parses())) {
        return out;
    }
    let mut read: HashSet<u64> = HashSet::default();
    let mut inherits = false;
    for d in terraform() {
        for f in d.items.iter().filter_map(&facts) {
            read.extend(f.reads.iter().copied());
            inherits |= f.inherits;
        }
    }
    for (j, d) in docs.iter().enumerate().filter(|(_, d)| d.file.kind == FileKind::Terraform && judged(d)) {
        for item in d.items.iter() {
            let Some(f) = facts(item) else { continue };
            for (kind, name, r) in &f.declared {
                let output_read = || outputs_read.is_none_or(|o| o.contains(&**name));
                if read.contains(&key(*kind, name))
                    || (*kind == Kind::Provider && inherits)
                    || (*kind == Kind::Output && output_read())
                    || deliberate(*kind, name)
                {
                    continue;
                }
                let (code, message) = match kind {
                    Kind::Var => (Code::UnusedVariable, format!("`var.{name}` is declared but nothing in the module reads it")),
                    Kind::Local => (Code::UnusedLocal, format!("`local.{name}` is declared but nothing in the module reads it")),
                    Kind::Data => (Code::UnusedData, format!("`data.{name}` is declared but nothing in the module reads it")),
                    Kind::Provider => (
                        Code::UnusedProvider,
                        format!("the required provider `{name}` is used by no resource, data source, provider block or module call of the module"),
                    ),
                    Kind::Output => (Code::UnusedOutput, format!("the output `{name}` is declared but no known caller of the module reads it")),
                };
                let at = item.range.start;
                out[j].push(Diagnostic::new(code, r.start as usize + at..r.end as usize + at, message));
            }
        }
    }
    out
}
