//! The workspace of modules, above the single-module analysis: which
//! module calls which, and each callee's [`Interface`], computed once per
//! change of its files and shared by every caller.
//!
//! A call's `source` is resolved as Terraform does: a local path (`./`,
//! `../`) relative to the calling module; anything else through what
//! `terraform init` installed (`.terraform/modules/modules.json` in the
//! root module, keys like `a.b` for module `b` called by module `a`).
//! Callees are analysed on their own, their variables at their declared
//! types. A call that leads back into a module being analysed, or deeper
//! than [`MAX_DEPTH`], is not followed.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Component, Path, PathBuf};
use std::sync::Arc;

use super::calls::{is_local, Callee, Context, Interface};
use super::{Call, Document, Family, Memo, ModuleAnalysis};

/// How deep a chain of calls is followed.
pub const MAX_DEPTH: usize = 32;

/// Where module files come from: the editor's open documents over the
/// disk (server), or the disk (CLI).
pub trait Files {
    /// The parsed files of `family` (Terraform: `.tf`, `.tfvars`, …; PCL:
    /// `.pp`) of the module in `dir`; empty when there are none. The same
    /// documents while the files do not change, so their analysis is
    /// remembered.
    fn module(&self, dir: &Path, family: Family) -> Vec<Document>;
    /// A small file's text (a module manifest).
    fn read(&self, path: &Path) -> Option<String>;
    /// The directories a root module may be in: what the user checks (the
    /// CLI) or the workspace folders (the server). A registry call is
    /// resolved through the manifest of its module's own directory or of an
    /// ancestor within one of these, never above: Terraform reads only the
    /// root module's `.terraform/modules/modules.json`, and a manifest
    /// above the project is another project's.
    fn roots(&self) -> &[PathBuf];
    /// Whether the front end reads at `path` at all (it is inside what it
    /// checks): a search upward (`find_in_parent_folders`) stops where
    /// this ends, without a refusal to report.
    fn within(&self, _path: &Path) -> bool {
        true
    }
}

/// A called module, as last analysed.
#[derive(Default)]
struct Callee1 {
    memo: Memo,
    analysis: Option<Arc<ModuleAnalysis>>,
    interface: Option<Arc<Interface>>,
}

/// The modules called from the ones analysed: their memos and interfaces.
#[derive(Default)]
pub struct Workspace {
    modules: HashMap<(PathBuf, Family), Callee1>,
    /// The provider schemas every module is analysed with (callees too, so
    /// their outputs of resource attributes are typed).
    pub schemas: Option<Arc<schema::Schemas>>,
    /// How every module reads files beside its own (the project layer's).
    pub reader: Option<super::calls::Reader>,
    /// The install manifests read by the current resolution (see [`Manifests`]).
    manifests: Manifests,
}

/// The install manifests (`.terraform/modules/modules.json`) one resolution
/// read, by path: each read and indexed once however many registry calls
/// consult it (a manifest may be 16 MiB, and was read and parsed per call).
/// Forgotten at the next resolution, which reads them again.
#[derive(Default)]
struct Manifests(HashMap<PathBuf, Option<Arc<Manifest>>>);

/// A manifest's modules: each key's directory (the first entry of a key),
/// and the keys of each directory (resolved against the manifest's root),
/// in the manifest's order.
struct Manifest {
    dirs: HashMap<String, PathBuf>,
    keys: HashMap<PathBuf, Vec<String>>,
}

impl Manifests {
    fn get(&mut self, files: &dyn Files, root: &Path) -> Option<Arc<Manifest>> {
        let path = root.join(".terraform/modules/modules.json");
        let found = self.0.entry(path).or_insert_with_key(|path| {
            let text = files.read(path)?;
            let mut m = Manifest { dirs: HashMap::new(), keys: HashMap::new() };
            for (k, d) in manifest_entries(&text) {
                let dir = normalize(&root.join(d));
                m.keys.entry(dir.clone()).or_default().push(k.clone());
                m.dirs.entry(k).or_insert(dir);
            }
            Some(Arc::new(m))
        });
        found.clone()
    }
}

/// What [`Workspace::context`] found: the context to analyse a module
/// with, and every module directory it reads (directly or not).
pub struct Resolved {
    pub context: Context,
    pub reads: HashSet<PathBuf>,
}

impl std::fmt::Debug for Workspace {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Workspace").field("modules", &self.modules.len()).finish()
    }
}

impl Workspace {
    /// The context of the module in `dir` with these calls: each callee
    /// resolved and its interface brought up to its files.
    pub fn context(&mut self, files: &dyn Files, dir: &Path, calls: &[Call]) -> Resolved {
        self.manifests = Manifests::default();
        let mut reads = HashSet::new();
        // (A test file's calls name the module under test `#…`: the test
        // files are a unit of their own, never their callee.)
        let family = if calls.iter().any(|c| c.name.starts_with('#')) {
            Family::TfTest
        } else {
            calls.first().map_or(Family::Terraform, |c| c.family)
        };
        let mut stack = vec![(normalize(dir), family)];
        let context = self.context_at(files, &mut stack, calls, &mut reads);
        Resolved { context, reads }
    }

    /// Forgets the called modules whose directories `keep` does not hold.
    pub fn retain(&mut self, keep: &HashSet<PathBuf>) {
        self.modules.retain(|(dir, _), _| keep.contains(dir));
    }

    /// How many called modules are remembered.
    pub fn len(&self) -> usize {
        self.modules.len()
    }

    pub fn is_empty(&self) -> bool {
        self.modules.is_empty()
    }

    /// The modules the calls lead to (without analysing them): directory
    /// and family.
    pub fn targets(&self, files: &dyn Files, dir: &Path, calls: &[Call]) -> Vec<(PathBuf, Family)> {
        let dir = normalize(dir);
        let mut manifests = Manifests::default();
        calls.iter().filter_map(|c| Some((resolve(files, &mut manifests, &dir, c)?, c.family))).collect()
    }

    /// Takes a module analysed elsewhere (with the documents `files` gives
    /// for `dir`, and its context from [`Self::context`]), so callers
    /// reuse it instead of analysing it again.
    pub fn insert(&mut self, dir: &Path, family: Family, memo: Memo, analysis: Arc<ModuleAnalysis>) {
        self.modules.insert((normalize(dir), family), Callee1 { memo, analysis: Some(analysis), interface: None });
    }

    fn context_at(
        &mut self,
        files: &dyn Files,
        stack: &mut Vec<(PathBuf, Family)>,
        calls: &[Call],
        reads: &mut HashSet<PathBuf>,
    ) -> Context {
        let mut map = BTreeMap::new();
        // The calls of one local source lead to one module, looked at once
        // (a generated 10 MB file calls 10 modules 388 times, and this runs
        // before every keystroke's analysis). So do a Terragrunt unit's
        // includes of one file (`#…` sources, resolved from the source
        // alone): 1,400 includes of one file read it once, not 1,400 times
        // (issue 42, item 2). (A registry source is resolved by the call's
        // name too, through the install manifest.)
        let mut local: HashMap<(&str, Family), Callee> = HashMap::new();
        let mut overrides = Vec::new();
        for call in calls {
            if let Some(rest) = call.name.strip_prefix(crate::calls::OVERRIDE) {
                overrides.push((call.name.clone(), rest));
                continue;
            }
            let source = call.source.as_deref().filter(|s| is_local(s) || s.starts_with('#'));
            let callee = match source.and_then(|s| local.get(&(s, call.family))) {
                Some(known) => known.clone(),
                None => {
                    let callee = self.callee(files, stack, call, reads);
                    if let Some(s) = source {
                        local.insert((s, call.family), callee.clone());
                    }
                    callee
                }
            };
            map.insert(call.name.clone(), callee);
        }
        // A test file's `override_module` targets: what the module of their
        // root call calls, once the root is resolved (it and its callees
        // are in `modules` then, and their directories in `reads`).
        for (name, rest) in overrides {
            let callee = rest.split_once('>').map_or(Callee::Opaque, |(path, root)| self.called(map.get(root), path));
            map.insert(name, callee);
        }
        Context {
            calls: Arc::new(map),
            schemas: self.schemas.clone(),
            reader: self.reader.clone(),
            symbols: Default::default(),
            passed: None,
            read_outputs: None,
            generated: Default::default(),
        }
    }

    fn callee(
        &mut self,
        files: &dyn Files,
        stack: &mut Vec<(PathBuf, Family)>,
        call: &Call,
        reads: &mut HashSet<PathBuf>,
    ) -> Callee {
        if call.source.is_none() {
            return Callee::Opaque;
        }
        let Some((dir, _)) = stack.last() else { return Callee::Opaque };
        // An included file without a `terraform { source }` gives the unit
        // no module (the unit's own or an earlier include's counts).
        if let Some(include) = call.source.as_deref().and_then(|s| s.strip_prefix(crate::calls::SOURCE_OF)) {
            if included_terraform(files, dir, include).is_none() {
                return Callee::Opaque;
            }
        }
        // A dependency without a unit there is not followed.
        if let Some(path) = call.source.as_deref().and_then(|s| s.strip_prefix(crate::calls::DEPENDENCY_OF)) {
            if dependency_module(files, dir, path).is_none() {
                return Callee::Opaque;
            }
        }
        let Some(target) = resolve(files, &mut self.manifests, dir, call) else { return Callee::NotInstalled };
        let key = (target.clone(), call.family);
        if stack.contains(&key) || stack.len() > MAX_DEPTH {
            return Callee::Opaque;
        }
        reads.insert(target.clone());
        let docs = files.module(&target, call.family);
        if docs.is_empty() {
            return Callee::Missing(target);
        }
        let mut entry = self.modules.remove(&key).unwrap_or_default();
        let calls = entry.memo.calls(&docs);
        stack.push(key.clone());
        let context = self.context_at(files, stack, &calls, reads);
        stack.pop();
        entry.memo.set_context(context);
        // A callee's variables may be typed by its own symbol libraries.
        entry.memo.set_symbols(crate::dialects::symbol_libraries::libraries::load(files, &docs));
        let analysis = entry.memo.analysis(&docs);
        let interface = match (&entry.analysis, &entry.interface) {
            (Some(a), Some(i)) if Arc::ptr_eq(a, &analysis) => i.clone(),
            (_, old) => {
                let fresh = entry.memo.interface(&docs);
                match old {
                    Some(i) if i.version == fresh.version => i.clone(),
                    _ => Arc::new(fresh),
                }
            }
        };
        entry.analysis = Some(analysis);
        entry.interface = Some(interface.clone());
        self.modules.insert(key, entry);
        if call.family == Family::Hcl {
            let caller = stack.last().map(|(d, _)| d.clone()).unwrap_or_default();
            return Callee::Module(included_only(files, &caller, call, interface));
        }
        Callee::Module(interface)
    }
}

impl Workspace {
    /// What the module `root` leads to calls as `path` (`a.b`: its call
    /// `a`'s call `b`), as that module's own context resolved it.
    fn called(&self, root: Option<&Callee>, path: &str) -> Callee {
        let mut callee = root.cloned().unwrap_or(Callee::Opaque);
        for name in path.split('.') {
            let Callee::Module(i) = &callee else { return Callee::Opaque };
            let Some(entry) = self.modules.get(&(normalize(&i.dir), Family::Terraform)) else { return Callee::Opaque };
            callee = entry.memo.context().callee(name).cloned().unwrap_or(Callee::Opaque);
        }
        callee
    }
}

/// The directory a call leads to, or `None` when it is not installed.
fn resolve(files: &dyn Files, manifests: &mut Manifests, dir: &Path, call: &Call) -> Option<PathBuf> {
    let (name, source) = (&call.name, call.source.as_deref()?);
    if call.family == Family::Hcl {
        return Some(normalize(included_file(files, dir, source)?.parent()?));
    }
    if let Some(include) = source.strip_prefix(crate::calls::SOURCE_OF) {
        return included_terraform(files, dir, include).flatten();
    }
    if let Some(path) = source.strip_prefix(crate::calls::DEPENDENCY_OF) {
        return dependency_module(files, dir, path).flatten();
    }
    if is_local(source) {
        return Some(normalize(&dir.join(source.replace('\\', "/"))));
    }
    if call.family != Family::Terraform {
        return None;
    }
    // The root module is the nearest directory above with an install
    // manifest, within the roots.
    let within = |a: &Path| a == dir || files.roots().iter().any(|r| a.starts_with(r));
    for root in dir.ancestors().take_while(|a| within(a)) {
        let Some(manifest) = manifests.get(files, root) else { continue };
        let own: &[String] = manifest.keys.get(dir).map_or(&[], Vec::as_slice);
        let here = own.iter().map(String::as_str).chain((root == dir).then_some(""));
        for key in here {
            let wanted = if key.is_empty() { name.to_string() } else { format!("{key}.{name}") };
            if let Some(d) = manifest.dirs.get(&wanted) {
                return Some(d.clone());
            }
        }
        return None;
    }
    None
}

/// How many folders above a unit `find_in_parent_folders` looks in
/// (Terragrunt's default `--max-folders-to-check`).
const MAX_FOLDERS: usize = 100;

/// The file a Terragrunt `include` names (its call's source, see
/// `dialects/terragrunt/unit.rs`): `#parent:FILE` is
/// `find_in_parent_folders("FILE")`, the first folder above the unit's
/// own (not it) where `FILE` is (`findInParentFoldersImpl` in
/// gruntwork-io/terragrunt `pkg/config/config_helpers.go`), and
/// `#parent:FILE#dir:/REST` the file REST beside it; else a path relative
/// to the unit's directory. `None` when there is no such file.
pub(crate) fn included_file(files: &dyn Files, dir: &Path, source: &str) -> Option<PathBuf> {
    let file = included_path(files, dir, source)?;
    files.read(&file)?;
    Some(normalize(&file))
}

/// The path an include's call source names (see [`included_file`]),
/// whether or not a file is there; `None` when `find_in_parent_folders`
/// finds nothing.
pub(crate) fn included_path(files: &dyn Files, dir: &Path, source: &str) -> Option<PathBuf> {
    match source.strip_prefix(crate::calls::PARENT) {
        Some(wanted) => {
            let (name, beside) = match wanted.split_once(crate::calls::BESIDE) {
                Some((name, rest)) => (name, Some(rest.trim_start_matches('/'))),
                None => (wanted, None),
            };
            let found = (dir.ancestors().skip(1).take(MAX_FOLDERS).map(|a| a.join(name)))
                .take_while(|p| files.within(p))
                .find(|p| files.read(p).is_some())?;
            match beside {
                Some(rest) => Some(found.parent()?.join(rest)),
                None => Some(found),
            }
        }
        None => Some(dir.join(source.replace('\\', "/"))),
    }
}

/// The module directory that the `terraform { source }` of the file an
/// include names leads to, seen from the unit in `dir`
/// (`module::terraform_source_in`): `None` when the file has no source,
/// `Some(None)` when it has one not followed (remote or built otherwise).
pub(crate) fn included_terraform(files: &dyn Files, dir: &Path, include: &str) -> Option<Option<PathBuf>> {
    let file = included_file(files, dir, include)?;
    let text = files.read(&file)?;
    Some(match crate::module::terraform_source_in(&text)? {
        crate::module::IncludedSource::Local(source) => included_path(files, dir, &source).map(|p| normalize(&p)),
        crate::module::IncludedSource::NotFollowed => None,
    })
}

/// The module the unit at `config_path` (relative to the unit in `dir`)
/// runs, as Terragrunt reads that unit (its own `terraform { source }`,
/// an include's, or its directory: `terragrunt_generate::unit`). `None`
/// when no `terragrunt.hcl` is there, `Some(None)` when its module is not
/// followed (remote).
fn dependency_module(files: &dyn Files, dir: &Path, config_path: &str) -> Option<Option<PathBuf>> {
    let unit = normalize(&dir.join(config_path.replace('\\', "/")));
    let unit = crate::dialects::terragrunt::generate::unit(files, &unit.join(crate::dialects::terragrunt::UNIT_FILE))?;
    Some(unit.module)
}

/// What a unit's include sees of the included file's module: only that
/// file's values (a directory may hold several files that units include).
fn included_only(files: &dyn Files, dir: &Path, call: &Call, interface: Arc<Interface>) -> Arc<Interface> {
    let Some(file) = call.source.as_deref().and_then(|s| included_file(files, dir, s)) else { return interface };
    let outputs = interface.outputs.iter().filter(|o| normalize(&o.path) == file).cloned().collect();
    Arc::new(Interface::new(interface.dir.clone(), Vec::new(), outputs))
}

/// `Key` and `Dir` of every module in a `modules.json`.
fn manifest_entries(text: &str) -> Vec<(String, String)> {
    let Ok(v) = serde_json::from_str::<serde_json::Value>(text) else { return Vec::new() };
    let Some(modules) = v.get("Modules").and_then(|m| m.as_array()) else { return Vec::new() };
    modules
        .iter()
        .filter_map(|m| Some((m.get("Key")?.as_str()?.to_string(), m.get("Dir")?.as_str()?.to_string())))
        .collect()
}

/// `path` with `.` and `..` taken out, without asking the disk (a module
/// reached through a symlink is the module its path names).
pub fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => match out.components().next_back() {
                None | Some(Component::ParentDir) => out.push(".."),
                Some(Component::RootDir | Component::Prefix(_)) => {}
                Some(_) => {
                    out.pop();
                }
            },
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_are_normalized_lexically() {
        assert_eq!(normalize(Path::new("/a/b/./../c/d")), PathBuf::from("/a/c/d"));
        assert_eq!(normalize(Path::new("a/../../b")), PathBuf::from("../b"));
        assert_eq!(normalize(Path::new("./../../../m")), PathBuf::from("../../../m"));
        assert_eq!(normalize(Path::new("/../a")), PathBuf::from("/a"));
    }

    /// Modules in memory.
    struct Mem(Vec<(PathBuf, String)>, Vec<PathBuf>);

    impl Files for Mem {
        fn module(&self, dir: &Path, _family: Family) -> Vec<Document> {
            (self.0.iter().filter(|(p, _)| p.parent() == Some(dir)))
                .map(|(p, t)| Document::parse(crate::SourceFile::new(p.clone(), t.as_str()).unwrap()))
                .collect()
        }
        fn read(&self, _path: &Path) -> Option<String> {
            None
        }
        fn roots(&self) -> &[PathBuf] {
            &self.1
        }
    }

    /// A keystroke in one call's `source` (here a const-variable source)
    /// patches the last analysis, which then equals a fresh one: the call
    /// is checked against the module it now leads to, and what reads its
    /// outputs again.
    #[test]
    fn an_edit_of_a_source_patches_the_analysis_as_a_fresh_one_would_be() {
        let files = Mem(
            vec![
                (
                    PathBuf::from("/m/a/main.tf"),
                    "variable \"n\" {\n  type = number\n}\noutput \"o\" {\n  value = 1\n}\n".into(),
                ),
                (
                    PathBuf::from("/m/ab/main.tf"),
                    "variable \"m\" {\n  type = string\n}\noutput \"o\" {\n  value = \"s\"\n}\n".into(),
                ),
            ],
            vec![PathBuf::from("/")],
        );
        let text = "variable \"env\" {\n  default = \"a\"\n  const   = true\n}\nmodule \"x\" {\n  source = \"../m/${var.env}\"\n  n      = \"s\"\n}\nmodule \"y\" {\n  source = \"../m/a\"\n  n      = 1\n}\nlocals {\n  l = module.x.o + 1\n}\noutput \"z\" {\n  value = local.l\n}\n";
        let path = PathBuf::from("/r/main.tf");
        let mut docs = vec![Document::parse(crate::SourceFile::new(path.clone(), text).unwrap())];
        let (mut ws, mut memo) = (Workspace::default(), Memo::default());
        let mut step = |docs: &[Document], memo: &mut Memo| {
            let calls = memo.calls(docs);
            memo.set_context(ws.context(&files, Path::new("/r"), &calls).context);
            let got = memo.analysis(docs);
            let mut fresh = Memo::default();
            fresh.set_context(memo.context().clone());
            let want = fresh.analysis(docs);
            assert_eq!(format!("{:?}", got.diagnostics), format!("{:?}", want.diagnostics));
            got
        };
        let first = step(&docs, &mut memo);
        assert!(format!("{:?}", first.diagnostics).contains("number"), "{:?}", first.diagnostics);
        // `../m/${var.env}` becomes `../m/${var.env}b`: module `ab`.
        let at = text.find("${var.env}").unwrap() + "${var.env}".len();
        let edited = format!("{}b{}", &text[..at], &text[at..]);
        let file = crate::SourceFile::new(path.clone(), edited.as_str()).unwrap();
        docs[0] = docs[0].clone().edited_at(file, at..at, 1);
        let before = memo.patches();
        let second = step(&docs, &mut memo);
        assert_eq!(memo.patches(), before + 1, "patched");
        assert_ne!(format!("{:?}", first.diagnostics), format!("{:?}", second.diagnostics));
    }

    /// Modules and files in memory, counting what is asked of them.
    #[derive(Default)]
    struct Counted {
        files: Vec<(PathBuf, String)>,
        roots: Vec<PathBuf>,
        modules: std::sync::Mutex<HashMap<PathBuf, usize>>,
        reads: std::sync::Mutex<HashMap<PathBuf, usize>>,
    }

    impl Files for Counted {
        fn module(&self, dir: &Path, family: Family) -> Vec<Document> {
            *self.modules.lock().unwrap().entry(dir.to_path_buf()).or_default() += 1;
            (self.files.iter().filter(|(p, _)| p.parent() == Some(dir)))
                .filter(|(p, _)| crate::FileKind::for_path(p).is_some_and(|k| k.family() == family))
                .map(|(p, t)| Document::parse(crate::SourceFile::new(p.clone(), t.as_str()).unwrap()))
                .collect()
        }
        fn read(&self, path: &Path) -> Option<String> {
            let text = self.files.iter().find(|(p, _)| p == path).map(|(_, t)| t.clone());
            if text.is_some() {
                *self.reads.lock().unwrap().entry(path.to_path_buf()).or_default() += 1;
            }
            text
        }
        fn roots(&self) -> &[PathBuf] {
            &self.roots
        }
    }

    /// Issue 42, item 2: a unit of `n` includes of one file reads that file
    /// and analyses its directory as often as a unit of one include does
    /// (it was once per include: 87 KB of includes took a minute).
    #[test]
    fn includes_of_one_file_read_it_once() {
        let count = |n: usize| {
            let mut unit = String::from("terraform {\n  source = \"../../modules//app\"\n}\n");
            unit.extend(
                (0..n).map(|i| format!("include \"i{i}\" {{\n  path = find_in_parent_folders(\"root.hcl\")\n}}\n")),
            );
            let files = Counted {
                files: vec![
                    (PathBuf::from("/r/root.hcl"), "inputs = {\n  a = 1\n}\n".into()),
                    (PathBuf::from("/r/modules/app/main.tf"), "variable \"a\" {\n  type = number\n}\n".into()),
                    (PathBuf::from("/r/live/app/terragrunt.hcl"), unit.clone()),
                ],
                roots: vec![PathBuf::from("/r")],
                ..Counted::default()
            };
            let docs = vec![Document::parse(crate::SourceFile::new("/r/live/app/terragrunt.hcl", unit).unwrap())];
            let calls = Memo::default().calls(&docs);
            assert!(calls.len() >= 2 * n, "{} calls", calls.len());
            let resolved = Workspace::default().context(&files, Path::new("/r/live/app"), &calls);
            let included = resolved.context.callee(&crate::calls::include_call("i0")).cloned();
            assert!(matches!(included, Some(Callee::Module(_))), "{included:?}");
            let modules = files.modules.lock().unwrap().get(Path::new("/r")).copied().unwrap_or(0);
            let reads = files.reads.lock().unwrap().get(Path::new("/r/root.hcl")).copied().unwrap_or(0);
            (modules, reads)
        };
        let (one, many) = (count(1), count(500));
        assert_eq!(one.0, 1, "the included file's directory analysed once");
        assert_eq!(many, one, "(directory analyses, reads of root.hcl) for 500 includes as for one");
    }

    /// Issue 42, item 2: `n` `symbols` blocks naming one library read and
    /// analyse its directory once, and share what it defines.
    #[test]
    fn blocks_naming_one_library_read_it_once() {
        let mut main = String::from("language { experiments = [symbol_libraries] }\n");
        main.extend((0..300).map(|i| format!("symbols \"l{i}\" {{\n  source = \"./lib\"\n}}\n")));
        let files = Counted {
            files: vec![(PathBuf::from("/r/lib/a.sym.hcl"), "typedef \"t\" {\n  type = number\n}\n".into())],
            roots: vec![PathBuf::from("/r")],
            ..Counted::default()
        };
        let docs = vec![Document::parse(crate::SourceFile::new("/r/main.tofu", main).unwrap())];
        let libs = crate::dialects::symbol_libraries::libraries::load(&files, &docs);
        assert_eq!(libs.0.len(), 300);
        assert_eq!(files.modules.lock().unwrap().get(Path::new("/r/lib")), Some(&1), "read once");
        let (first, last) = (libs.get("l0").unwrap(), libs.get("l299").unwrap());
        assert!(Arc::ptr_eq(&first.defs, &last.defs), "one library's definitions, shared");
        assert!(last.types.contains_key("t"));
    }

    /// `n` registry calls of a root module read its install manifest (of
    /// `n` modules) once, not once per call.
    #[test]
    fn registry_calls_read_the_install_manifest_once() {
        let n = 200;
        let modules: Vec<String> = (0..n)
            .map(|i| {
                format!(
                    r#"{{"Key":"m{i}","Source":"registry.terraform.io/x/m{i}/aws","Dir":".terraform/modules/m{i}"}}"#
                )
            })
            .collect();
        let manifest = format!(r#"{{"Modules":[{}]}}"#, modules.join(","));
        let files = Counted {
            files: vec![
                (PathBuf::from("/r/.terraform/modules/modules.json"), manifest),
                (PathBuf::from("/r/.terraform/modules/m7/main.tf"), "output \"o\" {\n  value = 1\n}\n".into()),
            ],
            roots: vec![PathBuf::from("/r")],
            ..Counted::default()
        };
        let calls: Vec<Call> = (0..n)
            .map(|i| Call { name: format!("m{i}"), source: Some(format!("x/m{i}/aws")), family: Family::Terraform })
            .collect();
        let resolved = Workspace::default().context(&files, Path::new("/r"), &calls);
        assert!(matches!(resolved.context.callee("m7"), Some(Callee::Module(_))));
        assert!(matches!(resolved.context.callee("m8"), Some(Callee::Missing(_))));
        let reads = files.reads.lock().unwrap().get(Path::new("/r/.terraform/modules/modules.json")).copied();
        assert_eq!(reads, Some(1), "the manifest read once for {n} calls");
        let targets = Workspace::default().targets(&files, Path::new("/r"), &calls);
        assert_eq!(targets.len(), n);
        let reads = files.reads.lock().unwrap().get(Path::new("/r/.terraform/modules/modules.json")).copied();
        assert_eq!(reads, Some(2), "and once more for the targets");
    }

    #[test]
    fn manifest_keys_and_dirs_are_read() {
        let text = r#"{"Modules":[{"Key":"","Source":"","Dir":"."},{"Key":"vpc","Source":"registry.terraform.io/x/vpc/aws","Version":"1.0.0","Dir":".terraform/modules/vpc"}]}"#;
        let e = manifest_entries(text);
        assert_eq!(e[1], ("vpc".to_string(), ".terraform/modules/vpc".to_string()));
        assert!(manifest_entries("not json").is_empty());
    }
}
