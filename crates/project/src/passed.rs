//! Which variables every known caller of a module sets, so that the
//! module's analysis knows which untyped variables' defaults are used
//! (analysis.md §3.2, untyped variables; issue 43.3). `check` knows its
//! callers before it analyses them (callees first): their texts are read,
//! and their module calls' arguments are read from the text alone
//! ([`analysis::callers::call_arguments`]). Beside it, which of the
//! module's outputs they read ([`output_reads`], issue 44.3), for the
//! `unused-output` hint.

use std::collections::{BTreeSet, HashMap};
use std::path::Path;

use analysis::callers::{call_arguments, output_reads as output_reads_of, OutputReads};
use analysis::{Call, FileKind, SourceFile};

use crate::graph::{Graph, Key, Sources};

/// Per module called from `callers` (each a directory, its files and the
/// calls [`analysis::callers::prescan`] found in them): the variables that
/// every call leading to it sets. A module reached by a call whose
/// arguments are not read here (a Terragrunt unit's, a test's, a
/// component's) counts as a caller that sets none.
pub fn passed<'a>(
    graph: &Graph,
    sources: &Sources,
    callers: impl Iterator<Item = (&'a Path, &'a [SourceFile], &'a [Call])>,
) -> HashMap<Key, BTreeSet<String>> {
    let mut out: HashMap<Key, BTreeSet<String>> = HashMap::new();
    let mut meet = |key: Key, args: BTreeSet<String>| {
        out.entry(key).and_modify(|s| s.retain(|a| args.contains(a))).or_insert(args);
    };
    for (dir, files, hints) in callers {
        let mut read: std::collections::HashSet<Key> = std::collections::HashSet::new();
        for (call, args) in merged_calls(files) {
            for key in graph.targets(sources, dir, std::slice::from_ref(&call)) {
                read.insert(key.clone());
                meet(key, args.clone());
            }
        }
        for key in graph.targets(sources, dir, hints) {
            if !read.contains(&key) {
                meet(key, BTreeSet::new());
            }
        }
    }
    out
}

/// The module calls of a caller's Terraform files with the arguments each
/// sets: a call's blocks merged by name, override files last (their
/// `source` replaces the base's, their arguments add to it).
fn merged_calls(files: &[SourceFile]) -> Vec<(Call, BTreeSet<String>)> {
    let mut calls: Vec<(Call, BTreeSet<String>)> = Vec::new();
    let overriding = |f: &&SourceFile| analysis::module::is_override(&f.path);
    let terraform = files.iter().filter(|f| f.kind == FileKind::Terraform);
    for f in terraform.clone().filter(|f| !overriding(f)).chain(terraform.filter(overriding)) {
        for (call, args) in call_arguments(f.text.as_str()) {
            match calls.iter_mut().find(|(c, _)| c.name == call.name) {
                Some((c, a)) => {
                    if call.source.is_some() {
                        c.source = call.source;
                    }
                    a.extend(args);
                }
                None => calls.push((call, args.into_iter().collect())),
            }
        }
    }
    calls
}

/// Per module called from `callers` (as [`passed`] takes them): the
/// outputs its callers read, their union (issue 44.3; the `unused-output`
/// hint, analysis.md §5.1); `None` where some caller reads the module
/// whole, or is one whose reads are not followed here (a Terragrunt
/// unit's `dependency`, a test's `run`, a component: read as reading every
/// output), or calls it outside its own directory (`../modules/x`, an
/// example's `../../`): a module a caller reaches by `..` is shared with
/// callers that may not be known (a library published beside, a module
/// of a repository's `modules/` its users call too), so only a module
/// below its caller (`./modules/x`, the caller's own part) is judged. On
/// the corpus's library repositories the shared modules' outputs are their
/// users' API (issue 44.3's triage).
pub fn output_reads<'a>(
    graph: &Graph,
    sources: &Sources,
    callers: impl Iterator<Item = (&'a Path, &'a [SourceFile], &'a [Call])>,
) -> HashMap<Key, OutputReads> {
    let mut out: HashMap<Key, OutputReads> = HashMap::new();
    let mut join = |key: Key, reads: OutputReads| {
        let entry = out.entry(key).or_insert_with(|| Some(BTreeSet::new()));
        match (entry.as_mut(), reads) {
            (Some(all), Some(more)) => all.extend(more),
            (Some(_), None) => *entry = None,
            (None, _) => {}
        }
    };
    for (dir, files, hints) in callers {
        let mut reads = HashMap::new();
        for f in files.iter().filter(|f| f.kind == FileKind::Terraform) {
            output_reads_of(f.text.as_str(), &mut reads);
        }
        let mut read: std::collections::HashSet<Key> = std::collections::HashSet::new();
        for (call, _) in merged_calls(files) {
            let what = reads.get(&call.name).cloned().unwrap_or_else(|| Some(BTreeSet::new()));
            for key in graph.targets(sources, dir, std::slice::from_ref(&call)) {
                read.insert(key.clone());
                let what = if key.0.starts_with(dir) { what.clone() } else { None };
                join(key, what);
            }
        }
        for key in graph.targets(sources, dir, hints) {
            if !read.contains(&key) {
                join(key, None);
            }
        }
    }
    out
}
