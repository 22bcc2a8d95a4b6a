//! Which variables every known caller of a module sets, so that the
//! module's analysis knows which untyped variables' defaults are used
//! (analysis.md §3.2, untyped variables; issue 43.3). `check` knows its
//! callers before it analyses them (callees first): their texts are read,
//! and their module calls' arguments are read from the text alone
//! ([`analysis::callers::call_arguments`]).

use std::collections::{BTreeSet, HashMap};
use std::path::Path;

use analysis::callers::call_arguments;
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
        // A call's blocks merged by name, override files last (their
        // `source` replaces the base's, their arguments add to it).
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
        let mut read: Vec<Key> = Vec::new();
        for (call, args) in calls {
            for key in graph.targets(sources, dir, std::slice::from_ref(&call)) {
                read.push(key.clone());
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
