//! The one directory walker, and its one rule for symbolic links
//! ([`entry`]): a linked file is read when it leads inside the tree to a
//! regular file, as Terraform reads a shared `variables.tf` linked into
//! many modules; a linked directory is never walked (Terraform reads no
//! subdirectory, and a link may lead anywhere or loop); a link that leads
//! out of the tree is told apart ([`Entry::Outside`]) so the caller can
//! refuse it by name ([`crate::confine`]). Without a tree to judge them
//! by, links are not followed at all.
//!
//! `check`'s walk, the callers scan, Terragrunt's units search and the
//! disk's directory listings all go through here.

use std::path::{Path, PathBuf};

use crate::confine::Tree;

/// A directory entry: its path and what it is.
pub type Listed = (PathBuf, Entry);

/// What a directory entry is, under the one rule for links.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Entry {
    /// A directory (never a link to one).
    Dir,
    /// A regular file, or a link the tree allows to one.
    File,
    /// A link that leads out of the tree.
    Outside,
    /// Anything else: a link to a directory, a FIFO, a dangling link.
    Other,
}

/// `path`'s entry, its type as its directory listed it (`None` when that
/// was not known).
pub fn entry(path: &Path, listed: Option<std::fs::FileType>, tree: Option<&Tree>) -> Entry {
    match listed {
        Some(t) if t.is_dir() => Entry::Dir,
        Some(t) if t.is_file() => Entry::File,
        Some(t) if t.is_symlink() => match tree {
            None => Entry::Other,
            Some(tree) if tree.check(path).is_err() => Entry::Outside,
            Some(_) if std::fs::metadata(path).is_ok_and(|m| m.is_file()) => Entry::File,
            Some(_) => Entry::Other,
        },
        Some(_) => Entry::Other,
        None if std::fs::metadata(path).is_ok_and(|m| m.is_file()) => Entry::File,
        None => Entry::Other,
    }
}

/// The entries of `dir`, sorted by name (the empty path is the current
/// directory, its entries spelled without `./`).
pub fn list(dir: &Path, tree: Option<&Tree>) -> std::io::Result<Vec<Listed>> {
    let here = if dir.as_os_str().is_empty() { Path::new(".") } else { dir };
    let mut out: Vec<Listed> = std::fs::read_dir(here)?
        .filter_map(Result::ok)
        .map(|e| {
            let path = dir.join(e.file_name());
            let kind = entry(&path, e.file_type().ok(), tree);
            (path, kind)
        })
        .collect();
    out.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(out)
}

/// Whether a directory's name is one no walk but `check`'s enters: hidden
/// (`.terragrunt-cache`, `.git`) or `node_modules` (what `terraform init`
/// installed is nobody's edit).
pub fn hidden(path: &Path) -> bool {
    path.file_name().map(|n| n.to_string_lossy()).is_some_and(|n| n.starts_with('.') || n == "node_modules")
}

/// How far a walk goes.
pub struct Walk<'a> {
    /// Links are judged by it, and each root must be allowed by it.
    pub tree: Option<&'a Tree>,
    /// An entry below the roots left out (a directory is not entered).
    pub skip: &'a dyn Fn(&Path, Entry) -> bool,
    /// Directory entries looked at, the roots among them.
    pub most_entries: usize,
    /// Directories listed.
    pub most_dirs: usize,
    /// Levels below a root.
    pub most_depth: usize,
}

/// What a walk did not get to: directories it could not list, and whether
/// a bound cut it short.
#[derive(Debug, Default)]
pub struct Walked {
    pub failures: Vec<(PathBuf, String)>,
    pub cut: bool,
}

impl Walk<'_> {
    /// A walk of a workspace's directories for what calls what (the
    /// callers scan, Terragrunt's units): at most 20,000 directories, 32
    /// levels deep (a home directory opened as the workspace).
    pub fn scan<'a>(tree: Option<&'a Tree>, skip: &'a dyn Fn(&Path, Entry) -> bool) -> Walk<'a> {
        Walk { most_dirs: 20_000, most_depth: 32, ..Walk::new(tree, skip) }
    }

    /// A walk that judges links by `tree` and skips what `skip` says,
    /// unbounded.
    pub fn new<'a>(tree: Option<&'a Tree>, skip: &'a dyn Fn(&Path, Entry) -> bool) -> Walk<'a> {
        Walk { tree, skip, most_entries: usize::MAX, most_dirs: usize::MAX, most_depth: usize::MAX }
    }

    /// Lists each directory under `roots` once, depth first in name order
    /// (a directory is entered where it is met, so a bound cuts the walk
    /// after whole subtrees, not after the top level), handing `visit`
    /// each directory and its entries (those not skipped; when the walk is
    /// cut, those met so far).
    pub fn run(&self, roots: &[PathBuf], visit: &mut dyn FnMut(&Path, &[Listed])) -> Walked {
        let mut walked = Walked::default();
        let mut count = Count::default();
        for root in roots {
            if self.tree.is_some_and(|t| !t.allows(root)) {
                continue;
            }
            let mut open: Vec<Open> = Vec::new();
            if count.entry(self) {
                self.open(root.clone(), 0, &mut open, &mut count, &mut walked);
            }
            while !count.cut {
                let Some(top) = open.last_mut() else { break };
                let Some((path, kind)) = top.listed.next() else {
                    let done = open.pop().expect("a directory is open");
                    visit(&done.dir, &done.kept);
                    continue;
                };
                if (self.skip)(&path, kind) || !count.entry(self) {
                    continue;
                }
                top.kept.push((path.clone(), kind));
                let depth = top.depth;
                if kind == Entry::Dir && depth < self.most_depth {
                    self.open(path, depth + 1, &mut open, &mut count, &mut walked);
                }
            }
            // (Cut short: what was met until then.)
            while let Some(done) = open.pop() {
                visit(&done.dir, &done.kept);
            }
            if count.cut {
                break;
            }
        }
        walked.cut = count.cut;
        walked
    }

    /// Lists `dir` onto `open`, or notes why it could not be listed.
    fn open(&self, dir: PathBuf, depth: usize, open: &mut Vec<Open>, count: &mut Count, walked: &mut Walked) {
        count.dirs += 1;
        if count.dirs > self.most_dirs {
            count.cut = true;
            return;
        }
        match list(&dir, self.tree) {
            Ok(listed) => open.push(Open { dir, depth, listed: listed.into_iter(), kept: Vec::new() }),
            Err(e) => {
                let message = format!("IO error for operation on {}: {e}", dir.display());
                walked.failures.push((dir, message));
            }
        }
    }
}

/// A directory being walked.
struct Open {
    dir: PathBuf,
    depth: usize,
    listed: std::vec::IntoIter<Listed>,
    kept: Vec<Listed>,
}

/// What a walk has looked at, against its bounds.
#[derive(Default)]
struct Count {
    entries: usize,
    dirs: usize,
    cut: bool,
}

impl Count {
    /// Counts one more entry; `false` (and cut) past the bound.
    fn entry(&mut self, walk: &Walk<'_>) -> bool {
        self.entries += 1;
        if self.entries > walk.most_entries {
            self.cut = true;
        }
        !self.cut
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The one rule: a linked file inside the tree is a file, a linked
    /// directory is not walked, a link out of the tree is told apart, and
    /// without a tree no link is followed.
    #[test]
    #[cfg(unix)]
    fn links_follow_the_one_rule() {
        use std::os::unix::fs::symlink;
        let scratch = crate::scratch::Scratch::new("walk-links").unwrap();
        let base = std::fs::canonicalize(scratch.path()).unwrap();
        let (repo, out) = (base.join("repo"), base.join("out"));
        std::fs::create_dir_all(repo.join("m/sub")).unwrap();
        std::fs::create_dir_all(&out).unwrap();
        std::fs::write(repo.join("shared.tf"), "").unwrap();
        std::fs::write(repo.join("m/sub/x.tf"), "").unwrap();
        std::fs::write(out.join("secret.tf"), "").unwrap();
        symlink("../shared.tf", repo.join("m/linked.tf")).unwrap();
        symlink("sub", repo.join("m/dir")).unwrap();
        symlink(out.join("secret.tf"), repo.join("m/out.tf")).unwrap();
        let tree = Tree::new(std::slice::from_ref(&repo));
        let kinds = |tree: Option<&Tree>| {
            list(&repo.join("m"), tree)
                .unwrap()
                .into_iter()
                .map(|(p, k)| (p.file_name().unwrap().to_string_lossy().into_owned(), k))
                .collect::<Vec<_>>()
        };
        let got = kinds(Some(&tree));
        let want = [("dir", Entry::Other), ("linked.tf", Entry::File), ("out.tf", Entry::Outside), ("sub", Entry::Dir)];
        assert_eq!(got, want.map(|(n, k)| (n.to_string(), k)));
        assert!(kinds(None).iter().all(|(n, k)| n == "sub" || *k == Entry::Other));
        let mut files = Vec::new();
        let walked = Walk::new(Some(&tree), &|_, _| false).run(std::slice::from_ref(&repo), &mut |_, es| {
            files.extend(es.iter().filter(|(_, k)| *k == Entry::File).map(|(p, _)| p.clone()))
        });
        assert!(!walked.cut && walked.failures.is_empty());
        files.sort();
        assert_eq!(files, [repo.join("m/linked.tf"), repo.join("m/sub/x.tf"), repo.join("shared.tf")]);
    }
}
