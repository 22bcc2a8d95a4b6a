//! Which modules under a directory call which others, read from the text
//! alone ([`analysis::callers::prescan`]): the command line orders modules
//! by it, and the language server finds the closed modules an edit affects
//! (those that call, directly or not, a module being edited) without
//! analysing every module it sees.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use analysis::callers::prescan;
use analysis::calls::is_local;
use analysis::workspace::normalize;
use analysis::{Family, FileKind};

use crate::walk::{Entry, Walk};

/// Limits of a scan, so a huge tree (a home directory opened as the
/// workspace) costs a bounded amount: a file over `MAX_FILE` (below
/// [`crate::fsread::SOURCE_CAP`]: a scan reads every file of the tree)
/// is not scanned for its calls.
const MAX_FILE: u64 = 4 << 20;

/// A module: its directory and family (a Terraform module and a PCL
/// program may share a directory).
pub type ModuleKey = (PathBuf, Family);

/// The Terraform modules and PCL programs under some roots and the
/// modules their local calls lead to (a module call to a Terraform
/// module, a component to a PCL program).
#[derive(Debug, Default, Clone)]
pub struct Scan {
    calls: HashMap<ModuleKey, Vec<ModuleKey>>,
}

impl Scan {
    /// Walks `roots` (hidden directories and `node_modules` left out: what
    /// `terraform init` installed is nobody's edit; links not followed).
    pub fn new(roots: &[PathBuf]) -> Scan {
        let mut scan = Scan::default();
        let roots: Vec<PathBuf> = roots.iter().map(|r| normalize(r)).collect();
        let skip = |p: &Path, kind: Entry| kind == Entry::Dir && crate::walk::hidden(p);
        Walk::scan(None, &skip).run(&roots, &mut |dir, entries| scan.note(dir, entries));
        scan
    }

    /// Reads one directory's calls again (its files changed).
    pub fn update(&mut self, dir: &Path) {
        let dir = normalize(dir);
        self.calls.retain(|(d, _), _| *d != dir);
        if let Ok(entries) = crate::walk::list(&dir, None) {
            self.note(&dir, &entries);
        }
    }

    /// Notes the calls of the module in `dir`, whose entries are `entries`.
    fn note(&mut self, dir: &Path, entries: &[crate::walk::Listed]) {
        let mut texts = Vec::new();
        for (path, _) in entries.iter().filter(|(_, kind)| *kind == Entry::File) {
            match FileKind::for_path(path) {
                // Its module under test is known from its path alone.
                Some(FileKind::TfTest) => texts.push((FileKind::TfTest, path.clone(), String::new())),
                // (Of plain HCL, only the files that call modules.)
                Some(FileKind::Hcl) if !analysis::calls_modules(path) => {}
                Some(kind @ (FileKind::Terraform | FileKind::Pcl | FileKind::Hcl)) => {
                    let text = crate::fsread::read_regular_to_string(path, MAX_FILE).ok();
                    texts.extend(text.map(|t| (kind, path.clone(), t)));
                }
                _ => {}
            }
        }
        for c in prescan(texts.iter().map(|(k, p, t)| (*k, p.as_path(), t.as_str()))) {
            let Some(source) = c.source.clone().filter(|s| is_local(s)) else { continue };
            let target = (normalize(&dir.join(source.replace('\\', "/"))), c.family);
            // A directory's test files call the module under test.
            // A stack's or Terragrunt unit's calls are made by an hcl unit.
            let unit = if c.name == analysis::calls::TESTED {
                Family::TfTest
            } else if analysis::callers::from_hcl(&c) {
                Family::Hcl
            } else {
                c.family
            };
            self.calls.entry((dir.to_path_buf(), unit)).or_default().push(target);
        }
    }

    /// The modules whose local calls lead to `module` directly.
    pub fn calling(&self, module: &ModuleKey) -> Vec<ModuleKey> {
        let module = (normalize(&module.0), module.1);
        let mut out: Vec<ModuleKey> =
            self.calls.iter().filter(|(_, targets)| targets.contains(&module)).map(|(c, _)| c.clone()).collect();
        out.sort();
        out
    }

    /// The modules that call one of `modules`, directly or through others
    /// (`modules` themselves left out).
    pub fn callers(&self, modules: &HashSet<ModuleKey>) -> HashSet<ModuleKey> {
        let mut found: HashSet<ModuleKey> = modules.iter().map(|(d, f)| (normalize(d), *f)).collect();
        let start = found.clone();
        loop {
            let more: Vec<&ModuleKey> = self
                .calls
                .iter()
                .filter(|(dir, targets)| !found.contains(*dir) && targets.iter().any(|t| found.contains(t)))
                .map(|(dir, _)| dir)
                .collect();
            if more.is_empty() {
                break;
            }
            found.extend(more.into_iter().cloned());
        }
        found.retain(|d| !start.contains(d));
        found
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn callers_are_found_through_chains_and_cycles() {
        let root = crate::scratch::Scratch::new("scan").unwrap();
        let write = |rel: &str, text: &str| {
            let p = root.join(rel);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, text).unwrap();
        };
        let call = |src: &str| format!("module \"m\" {{\n  source = \"{src}\"\n}}\n");
        write("live/main.tf", &call("../modules/app"));
        write("modules/app/main.tf", &call("../net"));
        write("modules/net/main.tf", "variable \"x\" {}\n");
        write("loop/a/main.tf", &call("../b"));
        write("loop/b/main.tf", &call("../a"));
        write(".terraform/modules/x/main.tf", &call("../../../modules/net"));
        write("node_modules/y/main.tf", &call("../../modules/net"));
        write("prog/main.pp", "component \"net\" \"./net\" {\n}\n");
        write("prog/net/main.pp", "config \"x\" \"int\" {\n}\n");
        write("prog/net/main.tf", "variable \"x\" {}\n");
        write("stack/main.tfcomponent.hcl", "component \"app\" {\n  source = \"../modules/app\"\n}\n");
        write("unit/terragrunt.hcl", "terraform {\n  source = \"../modules//app\"\n}\n");
        let scan = Scan::new(&[root.to_path_buf()]);
        let tf = |rel: &str| (root.join(rel), Family::Terraform);
        let hcl = |rel: &str| (root.join(rel), Family::Hcl);
        let pcl = |rel: &str| (root.join(rel), Family::Pcl);
        let sorted = |found: HashSet<ModuleKey>| {
            let mut v: Vec<ModuleKey> = found.into_iter().collect();
            v.sort();
            v
        };
        // (A stack's component and a Terragrunt unit call as hcl units.)
        assert_eq!(
            sorted(scan.callers(&[tf("modules/net")].into())),
            [tf("live"), tf("modules/app"), hcl("stack"), hcl("unit")]
        );
        assert_eq!(scan.callers(&[tf("loop/a")].into()), [tf("loop/b")].into());
        // Direct callers only (what the server reads the arguments of).
        assert_eq!(scan.calling(&tf("modules/net")), [tf("modules/app")]);
        assert_eq!(scan.calling(&tf("modules/app")), [tf("live"), hcl("stack"), hcl("unit")]);
        // A component calls the PCL program of its directory, not the
        // Terraform module beside it.
        assert_eq!(scan.callers(&[pcl("prog/net")].into()), [pcl("prog")].into());
        assert!(scan.callers(&[tf("prog/net")].into()).is_empty());
        // A module that stops calling, and a new caller.
        let mut scan = scan;
        write("live/main.tf", "locals {}\n");
        write("new/main.tf", &call("../modules/net"));
        scan.update(&root.join("live"));
        scan.update(&root.join("new"));
        assert_eq!(
            sorted(scan.callers(&[tf("modules/net")].into())),
            [tf("modules/app"), tf("new"), hcl("stack"), hcl("unit")]
        );
        std::fs::remove_dir_all(&root).unwrap();
    }
}
