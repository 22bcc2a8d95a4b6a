//! Sensitive values reaching a root module's output (issue 44.3;
//! validate.md): Terraform marks as sensitive the value of a variable
//! declared `sensitive = true` and of `sensitive(…)`, and the mark flows
//! through every expression built of them (locals included) except
//! `nonsensitive(…)`, which drops it. An output of a root module not
//! declared `sensitive = true` whose value carries the mark is refused by
//! `validate` and `plan` — "Output refers to sensitive values"
//! (internal/terraform/node_output.go), on the output's header — and only
//! in a root module: a child module's outputs pass the mark to their
//! callers (Terraform 1.11 `validate`, checked: the same output in a called
//! module is accepted).
//!
//! A root here is a module no known caller calls (`Context::passed` is
//! none). Followed by reference over the facts ephemeral.rs gathers; a
//! value that reads anything inside `nonsensitive(…)`, `issensitive(…)`,
//! `can(…)` or `try(…)` is left alone (their results drop the mark). Not followed yet: provider schema
//! attributes marked sensitive and called modules' sensitive outputs.

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

use super::ephemeral::{Facts, Reads};
use super::passes::has;
use super::{Document, FileKind, Item};
use crate::calls::Context;
use syntax::diagnostic::{Code, Diagnostic};
use syntax::Dialect;

/// Whether the pass runs: a Terraform module no known caller calls, whose
/// text says `sensitive`.
pub(super) fn applies(docs: &[Document], dialect: Dialect, context: &Context) -> bool {
    dialect.is_terraform()
        && context.passed.is_none()
        && docs.iter().any(|d| d.file.kind == FileKind::Terraform && has(&d.file.text, "sensitive"))
}

const MESSAGE: &str = "output refers to sensitive values: Terraform requires that any root module output \
                       containing sensitive data be explicitly marked as sensitive (add `sensitive = true`, or \
                       drop the mark with `nonsensitive(…)`)";

/// Per document, each output of the (root) module whose value carries the
/// sensitive mark and that is not declared `sensitive = true`.
pub(super) fn check<'a>(docs: &[Document], facts: impl Fn(&Item) -> Option<&'a Facts>) -> Vec<Vec<Diagnostic>> {
    let mut out: Vec<Vec<Diagnostic>> = vec![Vec::new(); docs.len()];
    // An override file may declare an output sensitive (or replace its
    // value): not followed, so nothing is said.
    if docs.iter().any(|d| super::overrides::is_override(&d.file.path)) {
        return out;
    }
    let all = || {
        docs.iter()
            .enumerate()
            .filter(|(_, d)| d.file.kind == FileKind::Terraform)
            .flat_map(|(di, d)| d.items.iter().map(move |i| (di, i)))
    };
    let mut vars: HashSet<&str> = HashSet::default();
    let mut locals: HashMap<&str, &Reads> = HashMap::default();
    for (_, item) in all() {
        let Some(f) = facts(item) else { continue };
        vars.extend(f.sensitive_vars.iter().map(String::as_str));
        for (n, r) in &f.locals {
            locals.entry(n.as_str()).or_insert(r);
        }
    }
    if vars.is_empty() && !locals.values().any(|r| r.sensitive_call) && !all().any(|(_, i)| called(facts(i))) {
        return out;
    }
    // Sensitive locals: those reading a sensitive name, then their readers.
    let seeded = |r: &Reads| !r.shielded && (r.sensitive_call || r.vars().any(|v| vars.contains(v)));
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
    for (di, item) in all() {
        let Some(f) = facts(item) else { continue };
        let at = item.range.start;
        for (header, r) in &f.plain_outputs {
            if seeded(r) || (!r.shielded && r.locals().any(|l| marked.contains(l))) {
                out[di].push(Diagnostic::new(Code::SensitiveOutput, at + header.start..at + header.end, MESSAGE));
            }
        }
    }
    out
}

/// Whether an item's outputs call `sensitive(…)`.
fn called(f: Option<&Facts>) -> bool {
    f.is_some_and(|f| f.plain_outputs.iter().any(|(_, r)| r.sensitive_call))
}
