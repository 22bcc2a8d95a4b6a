//! The one rule for where hcl-types reads: inside the checked tree.
//!
//! A repository names paths hcl-types follows: its own files (any of which
//! may be a symbolic link), module sources (`../x`), symbol libraries,
//! Terragrunt includes (absolute paths too), templates, its configuration
//! file. A pull request that adds `x.auto.tfvars -> ~/.aws/credentials`
//! must not make `check` print the credentials into a CI log, and an
//! include of `/dev/zero` must not tell, by the run's outcome, what kind of
//! file a path on the machine is. So every path a repository names is
//! resolved (its links followed where they exist, `..` taken out) *before*
//! anything is opened or listed, and followed only when the result stays
//! inside the [`Tree`]; a path that leaves it is refused by name (recorded
//! once, for the front end to say), never opened, and its target never
//! looked at beyond the links that lead there. Files inside the tree
//! reached through links (a shared `variables.tf` linked into many
//! modules, as real repositories do) are read as before.
//!
//! The tree is what the user asked about (docs/spec/cli.md, lsp.md):
//! for `check`, each checked path's repository ([`repository`]); for the
//! language server, its workspace folders, or without one the repositories
//! of the documents opened ([`Tree::for_folders`]).

use analysis::sync::Locked;
use std::collections::HashSet;
use std::path::{Component, Path, PathBuf};
use std::sync::{Mutex, OnceLock, RwLock};

/// How many links one path may pass through before it is refused as a
/// loop (Linux's own limit, `MAXSYMLINKS`).
const MAX_LINKS: usize = 40;

/// The directories reads are confined to, and the paths refused so far.
#[derive(Debug, Default)]
pub struct Tree {
    /// Resolved (links followed), so resolved paths compare with them.
    /// None: nothing is confined (a front end that names no tree), unless
    /// `per_document`.
    roots: RwLock<Vec<PathBuf>>,
    /// A language server without a workspace folder: each document opened
    /// adds its own repository ([`Self::admit`]).
    per_document: bool,
    /// Paths refused, in order, each once.
    refused: Mutex<(Vec<PathBuf>, HashSet<PathBuf>)>,
    /// How analyses read templates under this tree (one per tree, so the
    /// contexts made with it compare equal).
    reader: OnceLock<analysis::calls::Reader>,
}

/// Why a path is not followed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outside(pub PathBuf);

impl std::fmt::Display for Outside {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", message())
    }
}

/// What is said of a refused path (after its name): the same words
/// whatever lies at the other end, so the words tell nothing about it.
pub fn message() -> &'static str {
    "leads outside the checked tree (the repository or workspace folder), through a link or `..` or as an \
     absolute path: not read"
}

impl Tree {
    /// A tree of these directories (resolved here).
    pub fn new(roots: &[PathBuf]) -> Tree {
        let mut resolved: Vec<PathBuf> = roots.iter().map(|r| resolve(r)).collect();
        resolved.sort();
        resolved.dedup();
        Tree { roots: RwLock::new(resolved), ..Tree::default() }
    }

    /// A language server's tree: its workspace folders; without one, the
    /// repository of each document opened ([`Self::admit`]), so a file
    /// opened on its own still reads no further than its repository.
    pub fn for_folders(folders: &[PathBuf]) -> Tree {
        Tree { per_document: folders.is_empty(), ..Tree::new(folders) }
    }

    /// A document in `dir` was opened: without workspace folders, its
    /// repository ([`repository`]) is part of the tree from now on.
    pub fn admit(&self, dir: &Path) {
        if !self.per_document || crate::disk::is_virtual(dir) || !dir.is_absolute() {
            return;
        }
        let root = resolve(&repository(dir));
        let mut roots = self.roots.write().unwrap_or_else(|e| e.into_inner());
        if !roots.iter().any(|r| root.starts_with(r)) {
            roots.retain(|r| !r.starts_with(&root));
            roots.push(root);
        }
    }

    /// `check`'s tree: each checked path's repository, else the path
    /// itself (its directory when it is a file); the current directory
    /// when none is named.
    pub fn for_paths(paths: &[PathBuf]) -> Tree {
        let here = [PathBuf::from(".")];
        let paths = if paths.is_empty() { &here[..] } else { paths };
        Tree::new(&paths.iter().map(|p| repository(p)).collect::<Vec<_>>())
    }

    /// Adds a directory the user named (a `--var-file` target module):
    /// what the user names is read wherever it is.
    pub fn widen(&self, dir: &Path) {
        let root = resolve(dir);
        let mut roots = self.roots.write().unwrap_or_else(|e| e.into_inner());
        if !roots.iter().any(|r| root.starts_with(r)) {
            roots.push(root);
        }
    }

    /// Whether it confines nothing.
    fn unbounded(&self) -> bool {
        !self.per_document && self.roots.read().unwrap_or_else(|e| e.into_inner()).is_empty()
    }

    /// Whether `path` may be followed: it resolves inside the tree (or
    /// the tree confines nothing). A path refused is recorded, once.
    pub fn allows(&self, path: &Path) -> bool {
        match self.check(path) {
            Ok(()) => true,
            Err(Outside(p)) => {
                let mut r = self.refused.locked();
                if r.1.insert(p.clone()) {
                    r.0.push(p);
                }
                false
            }
        }
    }

    /// [`Self::allows`] without recording a refusal.
    pub fn check(&self, path: &Path) -> Result<(), Outside> {
        if self.unbounded() || crate::disk::is_virtual(path) {
            return Ok(());
        }
        match self.inside(&resolve(path)) {
            true => Ok(()),
            false => Err(Outside(path.to_path_buf())),
        }
    }

    /// Whether a resolved path is inside one of the roots.
    fn inside(&self, resolved: &Path) -> bool {
        self.roots.read().unwrap_or_else(|e| e.into_inner()).iter().any(|r| resolved.starts_with(r))
    }

    /// Whether a user may edit files in `dir`: inside the tree, and,
    /// resolved, not in a directory `terraform init` writes (`.terraform`,
    /// however it is reached: a link into `.terraform/modules` too).
    pub fn editable(&self, dir: &Path) -> bool {
        let resolved = resolve(dir);
        let installed = |p: &Path| p.components().any(|c| c.as_os_str() == ".terraform");
        !installed(dir) && !installed(&resolved) && (self.unbounded() || self.inside(&resolved))
    }

    /// The paths refused since the last call, each once in the tree's life.
    pub fn take_refused(&self) -> Vec<PathBuf> {
        std::mem::take(&mut self.refused.locked().0)
    }

    /// How analyses read files besides their modules' (`templatefile`
    /// templates), confined to this tree ([`crate::files::reader`]).
    pub fn reader(self: &std::sync::Arc<Self>) -> analysis::calls::Reader {
        self.reader.get_or_init(|| crate::files::reader(std::sync::Arc::downgrade(self))).clone()
    }
}

/// The directory `path` is checked in (`check`'s tree, and where its
/// configuration file is looked for): its repository, the nearest
/// directory at or above it (its directory when it is a file) that holds
/// `.git` (a directory, or the file a worktree or submodule has); else the
/// current directory when the path is in it (the project one runs `check`
/// in), unless that is a directory many projects share (`/`, the home
/// directory, the temporary directory); else the path's directory itself.
/// Absolute, with `.` and `..` taken out.
pub fn repository(path: &Path) -> PathBuf {
    let absolute = absolute(path);
    let start = match std::fs::metadata(&absolute) {
        Ok(m) if m.is_dir() => absolute,
        _ => absolute.parent().map(Path::to_path_buf).unwrap_or(absolute),
    };
    if let Some(found) = start.ancestors().find(|a| std::fs::symlink_metadata(a.join(".git")).is_ok()) {
        return found.to_path_buf();
    }
    let shared = |d: &Path| {
        let home = std::env::var_os("HOME").map(|h| absolute_of(Path::new(&h)));
        d.parent().is_none() || Some(d) == home.as_deref() || d == absolute_of(&std::env::temp_dir())
    };
    match std::env::current_dir().map(|c| absolute_of(&c)) {
        Ok(cwd) if start.starts_with(&cwd) && !shared(&cwd) => cwd,
        _ => start,
    }
}

fn absolute_of(p: &Path) -> PathBuf {
    analysis::workspace::normalize(p)
}

/// `path` made absolute against the current directory, `.` and `..`
/// taken out (without asking the disk).
pub(crate) fn absolute(path: &Path) -> PathBuf {
    let joined = match path.is_absolute() {
        true => path.to_path_buf(),
        false => std::env::current_dir().map(|d| d.join(path)).unwrap_or_else(|_| path.to_path_buf()),
    };
    analysis::workspace::normalize(&joined)
}

/// Where `path` leads: absolute, each link on the way replaced by its
/// target (the part of a path that does not exist is taken as spelled),
/// `.` and `..` taken out as the system would after following links. A
/// path through more than [`MAX_LINKS`] links (a loop) resolves to itself
/// under a name no root holds, so it is refused.
pub fn resolve(path: &Path) -> PathBuf {
    let start = match path.is_absolute() {
        true => path.to_path_buf(),
        false => std::env::current_dir().map(|d| d.join(path)).unwrap_or_else(|_| path.to_path_buf()),
    };
    let mut todo: Vec<std::ffi::OsString> = Vec::new();
    let mut out = PathBuf::from("/");
    push_components(&mut todo, &start);
    let mut links = 0;
    // (`todo` holds the components still to walk, the next one last.)
    while let Some(c) = todo.pop() {
        if c == "/" {
            out = PathBuf::from("/");
            continue;
        }
        if c == ".." {
            out.pop();
            continue;
        }
        out.push(&c);
        let Ok(meta) = std::fs::symlink_metadata(&out) else { continue };
        if !meta.file_type().is_symlink() {
            continue;
        }
        links += 1;
        let Ok(target) = std::fs::read_link(&out) else { continue };
        if links > MAX_LINKS {
            return PathBuf::from("/\0loop");
        }
        out.pop();
        push_components(&mut todo, &target);
    }
    out
}

/// Pushes `path`'s components onto `todo` so the first is popped first
/// (`/` for a root, `..` kept, `.` dropped).
fn push_components(todo: &mut Vec<std::ffi::OsString>, path: &Path) {
    let parts: Vec<std::ffi::OsString> = path
        .components()
        .filter_map(|c| match c {
            Component::RootDir | Component::Prefix(_) => Some("/".into()),
            Component::CurDir => None,
            Component::ParentDir => Some("..".into()),
            Component::Normal(n) => Some(n.to_os_string()),
        })
        .collect();
    todo.extend(parts.into_iter().rev());
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::symlink;

    /// A scratch directory and its resolved path.
    fn scratch(name: &str) -> (crate::scratch::Scratch, PathBuf) {
        let dir = crate::scratch::Scratch::new(&format!("confine-{name}")).unwrap();
        let resolved = resolve(&dir);
        (dir, resolved)
    }

    #[test]
    fn links_and_dotdots_that_leave_the_tree_are_refused_and_said_once() {
        let (_scratch, base) = scratch("rule");
        let (repo, secret) = (base.join("repo"), base.join("home/.aws"));
        std::fs::create_dir_all(repo.join("m")).unwrap();
        std::fs::create_dir_all(repo.join("shared")).unwrap();
        std::fs::create_dir_all(&secret).unwrap();
        std::fs::write(secret.join("credentials"), "key = \"s3cr3t\"\n").unwrap();
        std::fs::write(repo.join("shared/common.auto.tfvars"), "x = 1\n").unwrap();
        symlink("../shared/common.auto.tfvars", repo.join("m/common.auto.tfvars")).unwrap();
        symlink(secret.join("credentials"), repo.join("m/x.auto.tfvars")).unwrap();
        symlink("../../home/.aws", repo.join("m/lib")).unwrap();
        symlink("loop", repo.join("m/loop")).unwrap();
        symlink("../missing/../../home/.aws/credentials", repo.join("m/dangling.tfvars")).unwrap();
        let tree = Tree::new(std::slice::from_ref(&repo));
        // Inside, through a link or not; not there but inside.
        for ok in ["m/common.auto.tfvars", "shared/common.auto.tfvars", "m/none.tf", "m/../shared"] {
            assert!(tree.allows(&repo.join(ok)), "{ok}");
        }
        // Out by a link to a file, a directory, `..`, an absolute path,
        // a loop; whether or not what lies there exists.
        let out = ["m/x.auto.tfvars", "m/lib/credentials", "m/lib", "../home/.aws", "m/loop", "m/dangling.tfvars"];
        for bad in out {
            assert!(!tree.allows(&repo.join(bad)), "{bad}");
        }
        assert!(!tree.allows(Path::new("/dev/zero")) && !tree.allows(Path::new("/tmp")));
        let refused = tree.take_refused();
        assert_eq!(refused.len(), out.len() + 2, "{refused:?}");
        // Each once.
        assert!(!tree.allows(&repo.join("m/x.auto.tfvars")));
        assert!(tree.take_refused().is_empty());
        // A tree of no roots confines nothing.
        assert!(Tree::default().allows(&repo.join("m/x.auto.tfvars")));
        let _ = std::fs::remove_dir_all(&base);
    }

    #[test]
    fn the_repository_is_the_nearest_directory_with_git_else_the_path() {
        let (_scratch, base) = scratch("repo");
        std::fs::create_dir_all(base.join("r/.git")).unwrap();
        std::fs::create_dir_all(base.join("r/modules/app")).unwrap();
        std::fs::create_dir_all(base.join("w/sub")).unwrap();
        // A worktree's `.git` is a file.
        std::fs::write(base.join("w/.git"), "gitdir: elsewhere\n").unwrap();
        std::fs::create_dir_all(base.join("plain/x")).unwrap();
        std::fs::write(base.join("plain/x/main.tf"), "").unwrap();
        assert_eq!(repository(&base.join("r/modules/app")), base.join("r"));
        assert_eq!(repository(&base.join("w/sub")), base.join("w"));
        // No repository, checked from elsewhere: the path itself.
        assert_eq!(repository(&base.join("plain/x")), base.join("plain/x"));
        assert_eq!(repository(&base.join("plain/x/main.tf")), base.join("plain/x"));
        // The temporary directory is shared: never a tree by being where
        // `check` runs (the current directory's case is tests/it/cli.rs's).
        assert!(!std::env::temp_dir().join(".git").exists());
        let _ = std::fs::remove_dir_all(&base);
    }

    /// A server without a workspace folder reads no further than the
    /// repositories of the documents opened.
    #[test]
    fn without_folders_each_opened_documents_repository_is_the_tree() {
        let (_scratch, base) = scratch("per-document");
        std::fs::create_dir_all(base.join("repo/.git")).unwrap();
        std::fs::create_dir_all(base.join("repo/modules/app")).unwrap();
        std::fs::create_dir_all(base.join("other")).unwrap();
        let tree = Tree::for_folders(&[]);
        assert!(!tree.allows(&base.join("repo/main.tf")), "nothing opened, nothing read");
        tree.admit(&base.join("repo/modules/app"));
        assert!(tree.allows(&base.join("repo/main.tf")) && tree.allows(&base.join("repo/modules/app/x.tf")));
        assert!(!tree.allows(&base.join("other/x.tf")));
        let _ = std::fs::remove_dir_all(&base);
    }

    #[test]
    fn installed_modules_are_not_editable_however_reached() {
        let (_scratch, base) = scratch("editable");
        std::fs::create_dir_all(base.join("repo/.terraform/modules/vpc")).unwrap();
        std::fs::create_dir_all(base.join("repo/app")).unwrap();
        std::fs::create_dir_all(base.join("other")).unwrap();
        symlink("../.terraform/modules/vpc", base.join("repo/app/vpc")).unwrap();
        let tree = Tree::new(&[base.join("repo")]);
        assert!(tree.editable(&base.join("repo/app")));
        assert!(!tree.editable(&base.join("repo/.terraform/modules/vpc")));
        assert!(!tree.editable(&base.join("repo/app/vpc")), "a link into .terraform/modules");
        assert!(!tree.editable(&base.join("repo/app/../../other")), "outside the folder");
        let _ = std::fs::remove_dir_all(&base);
    }
}
