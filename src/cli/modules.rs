//! Checking many modules at once. Each is read and parsed once, and
//! analysed after the modules it calls (those of one depth in parallel):
//! a checked module that others call then hands its analysis to them
//! instead of being analysed again as their callee. Texts are read first
//! (to order the modules), trees made only in each module's turn.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use rayon::prelude::*;

use super::check::{load, FileReport, IoFailure};
use analysis::callers::prescan;
use analysis::workspace::{normalize, Workspace};
use analysis::Context;
use analysis::{Call, Document, Family, FileKind, Memo, SourceFile, Symbol};
use project::files::DiskFiles;
use schema::Schemas;
use syntax::diagnostic::Diagnostic;
use syntax::Dialect;

/// The longest chain of calls followed when ordering modules.
const MAX_LEVELS: usize = 64;

/// What checking one module gives: its files' reports and read failures.
type Checked = (Vec<FileReport>, Vec<IoFailure>);

/// One module, read (parsed only when its turn comes).
struct Loaded {
    files: Vec<SourceFile>,
    problems: Vec<Option<Diagnostic>>,
    failures: Vec<IoFailure>,
    /// Its directory and family, when it is a Terraform or PCL module.
    dir: Option<(PathBuf, Family)>,
}

fn load_module(paths: &[PathBuf], dialect: Option<Dialect>) -> Loaded {
    let mut loaded = Loaded { files: Vec::new(), problems: Vec::new(), failures: Vec::new(), dir: None };
    for path in paths {
        match load(path, dialect) {
            Ok((file, problem)) => {
                loaded.problems.push(problem);
                loaded.files.push(file);
            }
            Err(message) => loaded.failures.push(IoFailure { path: path.clone(), message }),
        }
    }
    let family = if loaded.files.iter().any(|f| f.kind == FileKind::Terraform) {
        Some(Family::Terraform)
    } else if loaded.files.iter().any(|f| f.kind == FileKind::Pcl) {
        Some(Family::Pcl)
    } else if loaded.files.iter().any(|f| f.kind == FileKind::TfTest) {
        Some(Family::TfTest)
    } else {
        None
    };
    let dir = loaded.files.first().and_then(|f| f.path.parent()).map(normalize);
    loaded.dir = dir.zip(family);
    loaded
}

/// Checks the modules (each a list of files) and reports on each file.
pub fn check_modules(
    modules: &[&Vec<PathBuf>],
    dialect: Option<Dialect>,
    progress: Option<&indicatif::ProgressBar>,
    schemas: Option<Arc<Schemas>>,
    roots: &[PathBuf],
) -> Vec<Checked> {
    let loaded: Vec<Mutex<Option<Loaded>>> =
        modules.par_iter().map(|paths| Mutex::new(Some(load_module(paths, dialect)))).collect();
    let files = DiskFiles::new(dialect, roots);
    let mut workspace = Workspace::default();
    workspace.schemas = schemas;
    let workspace = Mutex::new(workspace);

    // Modules whose files are all of their directory's Terraform files
    // stand for that directory when others call it.
    let mut by_dir: HashMap<(PathBuf, Family), usize> = HashMap::new();
    let mut hints: Vec<Vec<Call>> = vec![Vec::new(); loaded.len()];
    for (k, m) in loaded.iter().enumerate() {
        let guard = m.lock().unwrap_or_else(|e| e.into_inner());
        let Some(m) = guard.as_ref() else { continue };
        let Some((dir, family)) = &m.dir else { continue };
        hints[k] = prescan(m.files.iter().map(|f| (f.kind, f.text.as_str())));
        let mut paths: Vec<&Path> = m.files.iter().map(|f| f.path.as_path()).collect();
        paths.sort();
        if paths == DiskFiles::listing(dir, *family).iter().map(PathBuf::as_path).collect::<Vec<_>>() {
            by_dir.insert((dir.clone(), *family), k);
        }
    }
    // Which checked modules each one calls; a module's level is one more
    // than its callees' (cycles are cut where they close).
    let mut callees: Vec<Vec<usize>> = vec![Vec::new(); loaded.len()];
    for (k, m) in loaded.iter().enumerate() {
        let dir = m.lock().unwrap_or_else(|e| e.into_inner()).as_ref().and_then(|m| m.dir.clone());
        let (Some((dir, family)), false) = (dir, hints[k].is_empty()) else { continue };
        let targets = workspace.lock().unwrap_or_else(|e| e.into_inner()).targets(&files, &dir, &hints[k]);
        // Module calls lead to Terraform modules, components to PCL programs.
        let checked = |t: &PathBuf| by_dir.get(&(t.clone(), family)).copied();
        callees[k] = targets.iter().filter_map(checked).filter(|&c| c != k).collect();
    }
    let levels = levels(&callees);
    let mut shared = vec![false; loaded.len()];
    callees.iter().flatten().for_each(|&c| shared[c] = true);
    let mut results: Vec<Option<Checked>> = (0..loaded.len()).map(|_| None).collect();
    let top = levels.iter().copied().max().unwrap_or(0);
    for level in 0..=top {
        let now: Vec<usize> = (0..loaded.len()).filter(|&k| levels[k] == level).collect();
        let done: Vec<(usize, Checked)> = now
            .par_iter()
            .map(|&k| {
                let m = loaded[k].lock().unwrap_or_else(|e| e.into_inner()).take();
                let out = m.map(|m| analyse(m, &files, &workspace, shared[k]));
                if let Some(bar) = progress {
                    bar.inc(modules[k].len() as u64);
                }
                (k, out.unwrap_or_default())
            })
            .collect();
        for (k, r) in done {
            results[k] = Some(r);
        }
    }
    let mut out: Vec<Checked> = results.into_iter().map(Option::unwrap_or_default).collect();
    // Files of called modules (and manifests) that were there but not read.
    let skipped = files.skipped().into_iter().map(|(path, message)| IoFailure { path, message });
    out.push((Vec::new(), skipped.collect()));
    out
}

/// Each module's depth in the call graph (0: calls no checked module).
fn levels(callees: &[Vec<usize>]) -> Vec<usize> {
    let mut level: Vec<Option<usize>> = vec![None; callees.len()];
    fn visit(k: usize, callees: &[Vec<usize>], level: &mut [Option<usize>], stack: &mut Vec<usize>) -> usize {
        if let Some(l) = level[k] {
            return l;
        }
        if stack.contains(&k) || stack.len() >= MAX_LEVELS {
            return 0;
        }
        stack.push(k);
        let l = callees[k].iter().map(|&c| visit(c, callees, level, stack) + 1).max().unwrap_or(0);
        stack.pop();
        level[k] = Some(l);
        l
    }
    (0..callees.len()).map(|k| visit(k, callees, &mut level, &mut Vec::new())).collect()
}

/// Analyses one module with its calls resolved; a module others call is
/// handed to the workspace for them (without its trees).
fn analyse(
    m: Loaded,
    files: &DiskFiles,
    workspace: &Mutex<Workspace>,
    share: bool,
) -> (Vec<FileReport>, Vec<IoFailure>) {
    let docs: Vec<Document> = m.files.into_iter().map(Document::parse).collect();
    let mut memo = Memo::default();
    let calls = if m.dir.is_some() { memo.calls(&docs) } else { Vec::new() };
    let mut ws = workspace.lock().unwrap_or_else(|e| e.into_inner());
    match &m.dir {
        Some((dir, _)) if !calls.is_empty() => memo.set_context(ws.context(files, dir, &calls).context),
        // Provider and package schemas type modules that call nothing too.
        _ if ws.schemas.is_some() => memo.set_context(Context { schemas: ws.schemas.clone(), ..Context::default() }),
        _ => {}
    }
    drop(ws);
    let analysis = memo.analysis(&docs);
    let mut symbols: Vec<Vec<Symbol>> = docs.iter().map(|_| Vec::new()).collect();
    for s in &analysis.symbols {
        symbols[s.doc].push(s.clone());
    }
    let mut reports = Vec::new();
    for (((doc, diags), problem), syms) in docs.iter().zip(&analysis.diagnostics).zip(m.problems).zip(symbols) {
        let mut diagnostics = diags.to_vec();
        diagnostics.extend(problem);
        reports.push(FileReport {
            path: doc.file.path.clone(),
            text: doc.file.text.clone(),
            diagnostics,
            symbols: syms,
        });
    }
    match (share, m.dir) {
        (true, Some((dir, family))) => {
            let compact: Vec<Document> = docs.iter().map(Document::without_trees).collect();
            files.insert(&dir, family, compact);
            workspace.lock().unwrap_or_else(|e| e.into_inner()).insert(&dir, family, memo, analysis);
            std::thread::spawn(move || drop(docs));
        }
        // Freeing large trees takes a while; nobody waits for it.
        _ => {
            std::thread::spawn(move || drop((docs, memo, analysis)));
        }
    }
    (reports, m.failures)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn callees_come_first_and_cycles_end() {
        // 0 calls 1, 1 calls 2, 3 and 4 call each other.
        let callees = vec![vec![1], vec![2], vec![], vec![4], vec![3]];
        let l = levels(&callees);
        assert!(l[2] < l[1] && l[1] < l[0], "{l:?}");
        assert!(l[3] != l[4], "{l:?}");
    }
}
