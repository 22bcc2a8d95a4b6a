//! The Terragrunt units of the checked tree and what they generate into
//! the modules they run (docs/spec/terragrunt.md §6): a walk of the roots
//! for `terragrunt.hcl` files, each read as
//! [`analysis::dialects::terragrunt::generate::unit`] reads it. The walk is
//! kept while the disk does not change ([`crate::disk::Disk::events`]), so
//! a keystroke costs no walk.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use analysis::calls::Generated;
use analysis::dialects::terragrunt::generate::{generated_into, unit, Unit};
use analysis::dialects::terragrunt::values::{nested_stacks, resolve, stack_units, stack_values_into, StackUnit};
use analysis::dialects::terragrunt::{STACK_FILE as STACK, UNIT_FILE as UNIT};
use analysis::workspace::Files;
use analysis::Document;

use crate::walk::{Entry, Walk};

/// The units found under some roots, from one walk.
#[derive(Default)]
pub struct Units {
    /// The disk's events count when they were found, and the roots.
    at: Option<(u64, Vec<PathBuf>)>,
    units: Arc<[Unit]>,
    /// Whether some walked root is spelled absolute where the roots are
    /// relative (a repository above the current directory): the
    /// directories asked about are then compared absolute too.
    absolute: bool,
    /// The `unit` and `stack` blocks of the stack files
    /// (`terragrunt.stack.hcl`), nested ones followed.
    stacks: Arc<[StackUnit]>,
}

impl Units {
    /// The units under `files`' roots, walked again when the disk changed.
    fn get(&mut self, files: &dyn Files, events: u64, tree: &crate::confine::Tree) -> (Arc<[Unit]>, Arc<[StackUnit]>) {
        let roots = files.roots().to_vec();
        if self.at.as_ref().is_some_and(|(e, r)| *e == events && *r == roots) {
            return (self.units.clone(), self.stacks.clone());
        }
        let walked = walked(&roots, tree);
        self.absolute = walked.iter().any(|w| w.is_absolute()) && roots.iter().any(|r| r.is_relative());
        let (units, stacks): (Vec<PathBuf>, Vec<PathBuf>) =
            walk(&walked, tree).into_iter().partition(|p| p.file_name().is_some_and(|n| n == UNIT));
        let mut blocks: Vec<StackUnit> = stacks.iter().flat_map(|f| stack_units(files, f)).collect();
        nested_stacks(files, &mut blocks, &stacks);
        resolve(&mut blocks);
        self.stacks = blocks.into();
        let mut found: Vec<Unit> = units.iter().filter_map(|f| unit(files, f)).collect();
        // A root `terragrunt.hcl` that units include is their configuration.
        let included: std::collections::HashSet<PathBuf> =
            found.iter().flat_map(|u| u.includes.iter().cloned()).collect();
        found.retain(|u| !included.contains(&analysis::workspace::normalize(&u.file)));
        self.units = found.into();
        self.at = Some((events, roots));
        (self.units.clone(), self.stacks.clone())
    }
}

/// Where the units of `roots` are looked for: each root's repository when
/// the tree reads it (`check modules/app` alone is checked with what the
/// units elsewhere in its repository generate into it: issue 43.1), else
/// the root itself (a workspace folder inside a larger repository); nested
/// ones once.
fn walked(roots: &[PathBuf], tree: &crate::confine::Tree) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = roots
        .iter()
        .map(|r| {
            let repo = crate::confine::repository(r);
            if !tree.allows(&repo) {
                return r.clone();
            }
            // Spelled as the root is (a relative root, a relative
            // repository), as the module directories it is compared with are.
            match crate::confine::absolute(r).strip_prefix(&repo) {
                Ok(below) if r.is_relative() => {
                    let up = r.join(below.components().map(|_| "..").collect::<PathBuf>());
                    let up = analysis::workspace::normalize(&up);
                    // (A repository above the current directory would be
                    // spelled `../..`, which module directories are not:
                    // it is walked absolute, and the directories asked
                    // about are compared absolute, `Units::absolute`.)
                    match up.starts_with("..") {
                        true => repo,
                        false => up,
                    }
                }
                _ => repo,
            }
        })
        .collect();
    // One spelling for all: absolute once one is.
    if out.iter().any(|w| w.is_absolute()) {
        out = out.iter().map(|w| crate::confine::absolute(w)).collect();
    }
    out.sort();
    out.dedup();
    let all = out.clone();
    out.retain(|r| !all.iter().any(|o| o != r && r.starts_with(o)));
    out
}

/// Every `terragrunt.hcl` and `terragrunt.stack.hcl` under `roots` (hidden directories, such as
/// `.terragrunt-cache`, and `node_modules` left out), inside `tree`.
fn walk(roots: &[PathBuf], tree: &crate::confine::Tree) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let skip = |p: &Path, kind: Entry| kind == Entry::Dir && crate::walk::hidden(p);
    Walk::scan(Some(tree), &skip).run(roots, &mut |_, entries| {
        let units = entries
            .iter()
            .filter(|(p, kind)| *kind == Entry::File && p.file_name().is_some_and(|n| n == UNIT || n == STACK));
        out.extend(units.map(|(p, _)| p.clone()));
    });
    out.sort();
    out
}

/// What the units under the roots generate into the Terraform module of
/// `docs` (its documents): see [`generated_into`].
pub fn generated(
    units: &std::sync::Mutex<Units>,
    files: &dyn Files,
    events: u64,
    tree: &crate::confine::Tree,
    dir: &Path,
    docs: &[Document],
) -> Generated {
    let ((units, _), absolute) = {
        use analysis::sync::Locked;
        let mut locked = units.locked();
        (locked.get(files, events, tree), locked.absolute)
    };
    if units.is_empty() {
        return Default::default();
    }
    let spelled = |p: &Path| if absolute { crate::confine::absolute(p) } else { p.to_path_buf() };
    let own: Vec<PathBuf> = docs.iter().map(|d| spelled(&d.file.path)).collect();
    generated_into(&spelled(dir), &units, &own)
}

/// What the stacks that instantiate the configuration in `dir` give its
/// `values` (docs/spec/terragrunt.md §8): one callee per `unit` block (of
/// `kinds`: `unit` for a unit configuration, `stack` for a nested stack).
pub fn stack_values(
    units: &std::sync::Mutex<Units>,
    files: &dyn Files,
    events: u64,
    tree: &crate::confine::Tree,
    dir: &Path,
    kinds: &[&str],
) -> Vec<(String, analysis::Callee)> {
    let ((_, stacks), absolute) = {
        use analysis::sync::Locked;
        let mut locked = units.locked();
        (locked.get(files, events, tree), locked.absolute)
    };
    let dir = if absolute { crate::confine::absolute(dir) } else { dir.to_path_buf() };
    stack_values_into(&dir, &stacks, kinds)
}
