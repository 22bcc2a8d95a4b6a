//! Sensitive values (issue 44.1/44.3; validate.md, analysis.md §5):
//! Terraform marks as sensitive the value of a variable declared
//! `sensitive = true`, of `sensitive(…)`, of a provider schema attribute
//! marked `sensitive` (`aws_db_instance.x.password`), and of a called
//! module's output declared `sensitive = true` (Terraform 1.15; 1.11 only
//! when the output's value carries the mark itself) or whose value carries
//! the mark (both: [`marked_outputs`], in the callee's interface); the
//! mark flows
//! through every expression built of them (locals included) except
//! `nonsensitive(…)`, which drops it.
//!
//! - `sensitive-output`: an output of a root module not declared
//!   `sensitive = true` whose value carries the mark is refused — "Output
//!   refers to sensitive values" (internal/terraform/node_output.go), on
//!   the output's header — by `validate` for variables and `sensitive(…)`,
//!   by `plan` only for schema attributes and module outputs (in `validate`
//!   their values are unknown and unmarked: Terraform 1.11 and 1.15,
//!   checked). Only in a root module: a child module's outputs pass the
//!   mark to their callers.
//! - `sensitive-flow` (a lint, hint): Terraform accepts a sensitive value in
//!   a local or in a module argument whose variable is not declared
//!   `sensitive = true`, and keeps the mark, but nothing at the place says
//!   so: a local whose value reads a sensitive variable, attribute or
//!   module output (not through `sensitive(…)`, which says so), and an
//!   argument carrying the mark for a variable that is not declared
//!   sensitive.
//!
//! A root here is a module no known caller calls (`Context::passed` is
//! none). Followed by reference over the facts ephemeral.rs gathers; a
//! value that reads anything inside `nonsensitive(…)`, `issensitive(…)`,
//! `can(…)` or `try(…)` is left alone (in `validate` their results drop the
//! mark). A whole object (`aws_db_instance.x`, `module.m`) carries the
//! mark on its sensitive attributes only, so it counts where it reaches an
//! output or argument whole (the value is that one reference), never
//! through a local (`local.db.address` is not sensitive). A splat of a
//! sensitive attribute (`x[*].password`) counts as the attribute does,
//! except inside `length(…)` (its elements carry the mark, the tuple does
//! not). `nonsensitive(…)` of a splat or whole object drops only the outer
//! mark, which Terraform's `plan` still reports: not said here.

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

use super::ephemeral::{Facts, Reads};
use super::passes::has;
use super::{Document, FileKind, Item};
use crate::calls::Context;
use syntax::diagnostic::{Code, Diagnostic};
use syntax::Dialect;

/// Whether the pass runs: a Terraform module whose text says `sensitive`,
/// that has provider schemas, or one of whose callees has a sensitive
/// output.
pub(super) fn applies(docs: &[Document], dialect: Dialect, context: &Context) -> bool {
    dialect.is_terraform()
        && docs.iter().any(|d| d.file.kind == FileKind::Terraform)
        && (context.schemas.is_some()
            || context.calls.values().any(|c| c.interface().is_some_and(|i| i.outputs.iter().any(|o| o.sensitive)))
            || docs.iter().any(|d| d.file.kind == FileKind::Terraform && has(&d.file.text, "sensitive")))
}

const MESSAGE: &str = "Terraform requires that any root module output containing sensitive data be explicitly \
                       marked as sensitive (add `sensitive = true`, or drop the mark with `nonsensitive(…)`)";

/// What marks values in the module: its sensitive variables, and (with
/// its callees and schemas) which module outputs and resource attributes
/// are sensitive, each looked up once.
struct Sources<'a> {
    vars: HashSet<&'a str>,
    context: &'a Context,
    schemas: std::cell::RefCell<Secrets<'a>>,
}

/// By `(data?, type)`: the schema's sensitive attributes (none: no
/// schema). Only its own: Terraform marks a nested block's attribute where
/// the block is present (`schema.ValueMarks`, internal/configs/
/// configschema/marks.go), which the whole object's reference cannot
/// tell; an attribute is marked even when null.
type Secrets<'a> = HashMap<(bool, &'a str), Option<Vec<&'a str>>>;

impl<'a> Sources<'a> {
    fn schema<T>(&self, data: bool, ty: &'a str, f: impl Fn(&[&str]) -> T) -> Option<T> {
        let mut cache = self.schemas.borrow_mut();
        let found = cache.entry((data, ty)).or_insert_with(|| {
            let found = self.context.schemas.as_deref()?.find(data, ty)?;
            Some(found.block.attributes.iter().filter(|a| a.sensitive).map(|a| a.name.as_str()).collect())
        });
        found.as_deref().map(f)
    }

    /// What marks `r` by itself (not through locals), named: `var.x`,
    /// `aws_db_instance.x.password`, `module.m.out`; with `whole`, a whole
    /// object with sensitive attributes too. And whether only `plan` sees
    /// it (`validate` does not mark those values).
    fn direct(&self, r: &'a Reads, whole: bool) -> Option<(String, bool)> {
        if r.shielded {
            return None;
        }
        if let Some(v) = r.vars().find(|v| self.vars.contains(v)) {
            return Some((format!("`var.{v}`, declared `sensitive = true`"), false));
        }
        for (data, ty, attr) in &r.resources {
            let prefix = if *data { "data." } else { "" };
            let marked = match attr {
                Some(a) => self.schema(*data, ty, |top| top.contains(&&**a)),
                None => self.schema(*data, ty, |top| whole && r.bare && !top.is_empty()),
            };
            if marked == Some(true) {
                let why = match attr {
                    Some(a) => format!("`{a}` of `{prefix}{ty}`, which its provider's schema marks sensitive"),
                    None => format!("a whole `{prefix}{ty}`, with attributes its provider's schema marks sensitive"),
                };
                return Some((why, true));
            }
        }
        for (m, o) in r.modules() {
            let Some(i) = self.context.callee(m).and_then(|c| c.interface()) else { continue };
            let marked = match o {
                Some(o) => i.output(o).is_some_and(|out| out.sensitive),
                None => whole && r.bare && i.outputs.iter().any(|o| o.sensitive),
            };
            if marked {
                let what = o.map_or(String::new(), |o| format!(".{o}"));
                return Some((format!("`module.{m}{what}`, a sensitive output of its module"), true));
            }
        }
        None
    }
}

/// The module's sensitive locals, with what marks values.
struct Marks<'a> {
    sources: Sources<'a>,
    locals: HashSet<&'a str>,
}

impl<'a> Marks<'a> {
    /// From every item's facts (`all`).
    fn of(all: impl Iterator<Item = &'a Facts> + Clone, context: &'a Context) -> Marks<'a> {
        let mut sources = Sources { vars: HashSet::default(), context, schemas: Default::default() };
        let mut locals: HashMap<&str, &'a Reads> = HashMap::default();
        for f in all {
            sources.vars.extend(f.sensitive_vars.iter().map(String::as_str));
            for (n, r) in &f.locals {
                locals.entry(n.as_str()).or_insert(r);
            }
        }
        // Sensitive locals: those marked by themselves, then their readers.
        let seeded = |r: &'a Reads| !r.shielded && (r.sensitive_call || sources.direct(r, false).is_some());
        let mut marked: HashSet<&str> = locals.iter().filter(|(_, r)| seeded(r)).map(|(n, _)| *n).collect();
        if !marked.is_empty() {
            let mut readers: HashMap<&str, Vec<&str>> = HashMap::default();
            for (n, r) in &locals {
                for l in r.locals().filter(|_| !r.shielded) {
                    readers.entry(l).or_default().push(n);
                }
            }
            let mut work: Vec<&str> = marked.iter().copied().collect();
            while let Some(m) = work.pop() {
                for n in readers.get(m).into_iter().flatten() {
                    if marked.insert(n) {
                        work.push(n);
                    }
                }
            }
        }
        Marks { sources, locals: marked }
    }

    /// What marks a value (named), and whether only `plan` sees it.
    fn carries(&self, r: &'a Reads) -> Option<(String, bool)> {
        if r.shielded {
            return None;
        }
        let local = || r.locals().filter(|l| self.locals.contains(l)).min();
        (r.sensitive_call.then(|| ("`sensitive(…)`".to_string(), false)))
            .or_else(|| self.sources.direct(r, true))
            .or_else(|| local().map(|l| (format!("`local.{l}`, which holds a sensitive value"), false)))
    }
}

/// The Terraform items' facts of a module.
fn facts_of<'a, 'd>(
    docs: &'d [Document],
    facts: &'d impl Fn(&Item) -> Option<&'a Facts>,
) -> impl Iterator<Item = (usize, usize, &'a Facts)> + Clone + 'd {
    docs.iter()
        .enumerate()
        .filter(|(_, d)| d.file.kind == FileKind::Terraform)
        .flat_map(move |(di, d)| d.items.iter().filter_map(move |i| Some((di, i.range.start, facts(i)?))))
}

/// The names of a module's outputs whose values carry the mark, declared
/// `sensitive = true` or not: its callers read them marked (Terraform 1.11
/// and 1.15 `plan`: a root output of such a `module.m.out` is refused).
pub(super) fn marked_outputs<'a>(
    docs: &[Document],
    context: &Context,
    facts: impl Fn(&Item) -> Option<&'a Facts>,
) -> Vec<String> {
    if docs.iter().any(|d| super::overrides::is_override(&d.file.path)) {
        return Vec::new();
    }
    let marks = Marks::of(facts_of(docs, &facts).map(|(_, _, f)| f), context);
    let outputs = facts_of(docs, &facts).flat_map(|(_, _, f)| f.named_outputs());
    outputs.filter(|(_, r)| marks.carries(r).is_some()).map(|(n, _)| n.to_owned()).collect()
}

/// Per document, `sensitive-output` on each output of a root module whose
/// value carries the mark and that is not declared `sensitive = true`, and
/// `sensitive-flow` where a local or a module argument takes the mark.
pub(super) fn check<'a>(
    docs: &[Document],
    context: &Context,
    facts: impl Fn(&Item) -> Option<&'a Facts>,
) -> Vec<Vec<Diagnostic>> {
    let mut out: Vec<Vec<Diagnostic>> = vec![Vec::new(); docs.len()];
    // An override file may declare an output sensitive (or replace its
    // value): not followed, so nothing is said.
    if docs.iter().any(|d| super::overrides::is_override(&d.file.path)) {
        return out;
    }
    let all = || facts_of(docs, &facts);
    let marks = Marks::of(all().map(|(_, _, f)| f), context);
    let (sources, carries) = (&marks.sources, |r: &'a Reads| marks.carries(r));
    let root = context.passed.is_none();
    for (di, at, f) in all() {
        let place = |r: &std::ops::Range<usize>| at + r.start..at + r.end;
        for (header, r) in f.plain_outputs.iter().filter(|_| root) {
            if let Some((why, plan)) = carries(r) {
                let when = if plan { " (`terraform plan` says so, not `validate`)" } else { "" };
                let msg = format!("output refers to sensitive values: its value reads {why}{when}; {MESSAGE}");
                out[di].push(Diagnostic::new(Code::SensitiveOutput, place(header), msg));
            }
        }
        for ((name, r), key) in f.locals.iter().zip(&f.local_keys) {
            let Some((why, _)) = sources.direct(r, false).filter(|_| !r.sensitive_call) else { continue };
            let msg = format!(
                "`local.{name}` holds a sensitive value: it reads {why}, and Terraform keeps the mark on \
                 whatever is built from it; say so with `sensitive(…)` around the value (or drop the mark with \
                 `nonsensitive(…)`)"
            );
            out[di].push(Diagnostic::new(Code::SensitiveFlow, place(key), msg));
        }
        for (call, args) in &f.calls {
            let Some(i) = context.callee(call).and_then(|c| c.interface()) else { continue };
            for (key, r, reads) in args {
                if i.inputs.iter().any(|v| v.name == *key && !v.sensitive) && carries(reads).is_some() {
                    let msg = format!(
                        "a sensitive value for the variable `{key}` of module `{call}`, which is not declared \
                         `sensitive = true`: Terraform keeps the mark inside the module, but its code does not say \
                         so (declare the variable `sensitive = true`)"
                    );
                    out[di].push(Diagnostic::new(Code::SensitiveFlow, place(r), msg));
                }
            }
        }
    }
    out
}
