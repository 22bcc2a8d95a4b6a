//! Open documents, settings, and the module around a document: its
//! siblings from disk, with open documents winning over disk copies.

use analysis::sync::Locked;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use ropey::Rope;
use tower_lsp_server::ls_types::{TextDocumentContentChangeEvent, Uri};

use super::disk::{is_virtual, Disk, Wanted};
use super::text::{self, Encoding};

use analysis::document::common_ends;
use analysis::{Document, Family, FileKind, Memo, SourceFile, Text, TextBuf};
use project::schemas::{self, own, read_cached};
use schema::Schemas;
use syntax::diagnostic::{Code, Severity};
use syntax::Dialect;

/// What the server may run, from `initializationOptions` only (lsp.md
/// "What the server runs"): the client's own start-up configuration, on the
/// user's machine. `workspace/configuration` answers merge a workspace's
/// settings (`.vscode/settings.json`), which an untrusted repository writes,
/// so they never choose or allow an executable.
#[derive(Clone, Debug)]
pub struct Session {
    /// `terraform.runForSchemas`: run `terraform providers schema -json`
    /// for a module's own schemas. Off unless the user turned it on.
    pub run_for_schemas: bool,
    /// `terraform.path`: the executable that prints them (else `terraform`
    /// or `tofu` in an absolute `PATH` entry).
    pub terraform_path: Option<PathBuf>,
    /// `workspaceTrusted`: `false` from a client that knows the workspace is
    /// not trusted (VS Code's workspace trust) forbids any run.
    pub workspace_trusted: bool,
    /// The workspace folders: a registry module call is resolved through a
    /// module manifest only in the module's own directory or one within them.
    pub roots: Vec<PathBuf>,
}

impl Default for Session {
    fn default() -> Self {
        Session { run_for_schemas: false, terraform_path: None, workspace_trusted: true, roots: Vec::new() }
    }
}

impl Session {
    /// Reads what `initializationOptions` allow (`{"hclTypes": {…}}` or the
    /// inner object itself).
    pub fn from_init(v: &serde_json::Value, roots: Vec<PathBuf>) -> Session {
        let v = v.get("hclTypes").unwrap_or(v);
        Session {
            run_for_schemas: v.pointer("/terraform/runForSchemas").and_then(|b| b.as_bool()).unwrap_or(false),
            terraform_path: v.pointer("/terraform/path").and_then(|p| p.as_str()).map(PathBuf::from),
            workspace_trusted: v.get("workspaceTrusted").and_then(|b| b.as_bool()).unwrap_or(true),
            roots: roots.iter().map(|r| analysis::workspace::normalize(r)).collect(),
        }
    }

    /// The executable to run for a module's own schemas, when the user
    /// allowed one.
    fn executable(&self) -> Option<PathBuf> {
        if !self.run_for_schemas || !self.workspace_trusted {
            return None;
        }
        match own::find_executable(self.terraform_path.as_deref()) {
            Ok(exe) => Some(exe),
            Err(e) => {
                warn_once(&e);
                None
            }
        }
    }
}

/// Says on stderr (the server's log) why the user's setting is not used,
/// once per reason.
fn warn_once(why: &str) {
    static SAID: Mutex<Option<HashSet<String>>> = Mutex::new(None);
    let mut said = SAID.locked();
    if said.get_or_insert_with(HashSet::new).insert(why.to_string()) {
        eprintln!("hcl-types: not running terraform for provider schemas: {why}");
    }
}

/// `hclTypes` settings (lsp.md).
#[derive(Clone, Debug)]
pub struct Settings {
    pub dialects: Vec<(globset::GlobMatcher, Dialect)>,
    pub severity: BTreeMap<Code, Option<Severity>>,
    pub inlay_hints: bool,
    /// `providerSchemas`: files of `terraform providers schema -json`
    /// output, read when the settings are (once per file and change).
    pub schemas: Option<Arc<Schemas>>,
    /// What the user allowed the server to run, and the workspace folders:
    /// fixed at `initialize` (never taken from `workspace/configuration`).
    pub session: Arc<Session>,
    /// The files `schemas` was made of (a PCL program adds the package
    /// schemas Pulumi cached for it).
    pub provider_files: Vec<PathBuf>,
    pub package_files: Vec<PathBuf>,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            dialects: Vec::new(),
            severity: BTreeMap::new(),
            inlay_hints: true,
            schemas: None,
            session: Arc::default(),
            provider_files: Vec::new(),
            package_files: Vec::new(),
        }
    }
}

impl Settings {
    /// Reads settings from `{"hclTypes": {…}}` or the inner object itself.
    /// Unknown or malformed entries are skipped, not fatal.
    pub fn from_json(v: &serde_json::Value) -> Settings {
        let v = v.get("hclTypes").unwrap_or(v);
        let mut s = Settings::default();
        if let Some(map) = v.get("dialects").and_then(|d| d.as_object()) {
            for (glob, dialect) in map {
                let (Ok(g), Some(Ok(d))) = (globset::Glob::new(glob), dialect.as_str().map(str::parse::<Dialect>))
                else {
                    continue;
                };
                s.dialects.push((g.compile_matcher(), d));
            }
        }
        if let Some(map) = v.get("severity").and_then(|d| d.as_object()) {
            for (code, sev) in map {
                let Some(code) = Code::parse(code) else { continue };
                let sev = match sev.as_str() {
                    Some("error") => Some(Severity::Error),
                    Some("warning") => Some(Severity::Warning),
                    Some("hint") => Some(Severity::Hint),
                    Some("off") => None,
                    _ => continue,
                };
                s.severity.insert(code, sev);
            }
        }
        if let Some(enable) = v.pointer("/inlayHints/enable").and_then(|e| e.as_bool()) {
            s.inlay_hints = enable;
        }
        // A file that cannot be read is left out, like other malformed entries.
        let files = |key: &str, ok: &dyn Fn(&Path) -> bool| -> Vec<PathBuf> {
            let paths = v.get(key).and_then(|d| d.as_array()).into_iter().flatten();
            paths.filter_map(|p| p.as_str().map(PathBuf::from)).filter(|p| ok(p)).collect()
        };
        let providers = files("providerSchemas", &|p| read_cached(p, schema::load).is_ok());
        let packages = files("packageSchemas", &|p| read_cached(p, schema::pulumi::load_package).is_ok());
        s.schemas = schemas::from_files(&providers, &packages).ok().filter(|s| !s.is_empty()).map(Arc::new);
        (s.provider_files, s.package_files) = (providers, packages);
        s
    }

    /// The schemas of the module in `dir`: the named files, and its own
    /// providers' once `terraform providers schema -json` has printed them
    /// (started in the background on first use).
    pub fn schemas_for(&self, dir: &Path, family: Family) -> Option<Arc<Schemas>> {
        // Nothing of the module's is looked at unless a run is allowed.
        let exe = (family == Family::Terraform).then(|| self.session.executable()).flatten();
        let Some(exe) = exe.filter(|_| own::initialised(dir)) else { return self.schemas.clone() };
        match own::in_background(&exe, dir, own::TIMEOUT) {
            Some((key, own::State::Ready(s))) => Some(Arc::new(schemas::with_own(self.schemas.as_deref(), s, key))),
            _ => self.schemas.clone(),
        }
    }

    /// Whether the module in `dir` waits for its own providers' schema.
    pub fn own_schema_running(&self, dir: &Path) -> bool {
        self.session.executable().is_some_and(|exe| own::initialised(dir) && own::running(&exe, dir))
    }

    pub fn dialect_for(&self, path: &Path) -> Dialect {
        let name = path.file_name().map(Path::new).unwrap_or(path);
        self.dialects
            .iter()
            .find(|(g, _)| g.is_match(path) || g.is_match(name))
            .map(|(_, d)| *d)
            .unwrap_or_else(|| Dialect::for_path(path))
    }
}

/// A document the editor has open: its text, and its parse kept current
/// edit by edit (only the items an edit touches are parsed again).
#[derive(Debug)]
pub struct Open {
    pub uri: Uri,
    pub rope: Rope,
    pub version: i32,
    /// The parse, and the version it is of: a version names one text, so
    /// an unchanged document is not copied out of its rope and compared.
    pub doc: Option<(i32, Document)>,
    /// The changes to the parsed text since, as (bytes replaced, new
    /// text), while known: a large text is then copied once per edit
    /// instead of gathered from the rope.
    changes: Option<Vec<(Range<usize>, String)>>,
    /// The server's sequence number when it was opened: results of an
    /// analysis of an earlier opening of the same path are never published.
    pub opened: u64,
    /// Which text was parsed last, and how it came from the one parsed
    /// before it (so a publication need not compare the two texts).
    edit: Option<Edit>,
}

/// A parsed text of an open document: `text` names it (numbered across
/// the server; the text itself may be changed in place by the next edit,
/// so its address names nothing), and it is the text `before` named with
/// its `replaced` bytes giving way to `inserted` bytes (`before` is 0
/// after a parse from scratch).
#[derive(Clone, Debug)]
pub struct Edit {
    pub text: u64,
    pub before: u64,
    pub replaced: Range<usize>,
    pub inserted: usize,
}

fn next_text() -> u64 {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
    NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}

impl Open {
    pub fn new(uri: Uri, text: &str, version: i32, opened: u64) -> Open {
        Open { uri, rope: Rope::from_str(text), version, doc: None, changes: None, opened, edit: None }
    }

    /// Applies one content change to the text.
    pub fn apply(&mut self, change: &TextDocumentContentChangeEvent, enc: Encoding) {
        match (text::apply(&mut self.rope, change, enc), &mut self.changes) {
            (Some(range), Some(changes)) => changes.push((range, change.text.clone())),
            _ => self.changes = None,
        }
    }

    /// Brings the parse up to the rope's text.
    fn parsed(&mut self, path: &Path, settings: &Settings) -> Document {
        let dialect = settings.dialect_for(path);
        if let Some((version, d)) = &self.doc {
            if *version == self.version && d.file.dialect == dialect {
                return d.clone();
            }
        }
        let before = self.edit.take().map_or(0, |e| e.text);
        // The new text, and the last parse with the bytes that changed.
        let (text, last) = match (self.doc.take(), self.changes.as_deref()) {
            (Some((_, mut d)), Some([(range, new)])) if within(&d.file.text, range) => {
                (replaced(&mut d.file.text, range.clone(), new), Some((d, range.clone(), new.len())))
            }
            (Some((_, d)), _) => {
                let text = self.rope.to_string();
                let (prefix, suffix) = common_ends(d.file.text.as_bytes(), text.as_bytes());
                let change = (prefix..d.file.text.len() - suffix, text.len() - suffix - prefix);
                (Arc::new(text.into()), Some((d, change.0, change.1)))
            }
            (None, _) => (Arc::new(self.rope.to_string().into()), None),
        };
        self.changes = Some(Vec::new());
        let file = SourceFile {
            path: path.to_path_buf(),
            text,
            kind: FileKind::for_path(path).unwrap_or(FileKind::Hcl),
            dialect,
        };
        let text = next_text();
        let doc = match last {
            Some((d, replaced, inserted)) => {
                self.edit = Some(Edit { text, before, replaced: replaced.clone(), inserted });
                d.edited_at(file, replaced, inserted)
            }
            None => {
                self.edit = Some(Edit { text, before: 0, replaced: 0..0, inserted: 0 });
                Document::parse(file)
            }
        };
        self.doc = Some((self.version, doc.clone()));
        doc
    }

    /// Re-parses the edited items now, so analysis later starts from them.
    pub fn reparse(&mut self, path: &Path, settings: &Settings) {
        self.parsed(path, settings);
    }
}

/// Whether `range` is a range of whole characters of `text`.
fn within(text: &str, range: &Range<usize>) -> bool {
    range.start <= range.end && text.get(range.clone()).is_some()
}

/// `text` with the bytes of `range` replaced by `new`, changed in place
/// when nothing else holds it (between keystrokes only the document's parse
/// does; see [`TextBuf::replace`]), else copied once, with room: a 10 MB
/// text allocated, copied and freed per keystroke cost about a
/// millisecond. `text` itself is left empty.
pub fn replaced(text: &mut Text, range: Range<usize>, new: &str) -> Text {
    let mut taken = std::mem::take(text);
    if let Some(s) = Arc::get_mut(&mut taken) {
        if s.replace(range.clone(), new) {
            return taken;
        }
    }
    let mut copy = TextBuf::with_room(&taken);
    copy.replace(range, new);
    Arc::new(copy)
}

#[derive(Debug, Default)]
pub struct Workspace {
    pub open: HashMap<PathBuf, Open>,
    pub settings: Settings,
    memos: HashMap<(PathBuf, Family), Arc<Mutex<Memo>>>,
    /// Open documents that are not files (`untitled:`, `git:`, …): the
    /// made-up path each is analysed under, alone (but see `homes`).
    virtual_paths: HashMap<String, PathBuf>,
    made_up: u64,
    /// For a `git:` document (a diff view's old text): the directory of
    /// its file, whose other files it is analysed with, read-only.
    homes: HashMap<PathBuf, PathBuf>,
}

/// A module snapshot to analyse off the message loop.
pub struct Snapshot {
    pub docs: Vec<Document>,
    /// For each open document of the module: its index, URI, version,
    /// text, when it was opened (see [`Open::opened`]) and its last edit.
    pub open: Vec<(usize, Uri, i32, Rope, u64, Option<Edit>)>,
    /// What earlier analyses of the module found, to reuse.
    pub memo: Arc<Mutex<Memo>>,
}

/// What the state lock gives of a module: its open documents and memo.
/// The files that are not open come from disk, off the lock ([`Self::complete`]).
pub struct Partial {
    path: PathBuf,
    dir: PathBuf,
    /// The directory to read the other files from, when not `dir`.
    home: Option<PathBuf>,
    family: Family,
    docs: Vec<Document>,
    open: Vec<(PathBuf, Uri, i32, Rope, u64, Option<Edit>)>,
    memo: Arc<Mutex<Memo>>,
    pub settings: Settings,
}

impl Partial {
    /// What it needs from disk, given the files not to read.
    fn wanted<'a>(&'a self, skip: &'a HashSet<PathBuf>) -> Wanted<'a> {
        let dir = self.home.as_deref().unwrap_or(&self.dir);
        Wanted { dir, family: self.family, skip, also: Some(&self.path), settings: &self.settings }
    }

    /// The files not to read: the open ones, and the file a `git:`
    /// document is an old text of.
    fn open_paths(&self) -> HashSet<PathBuf> {
        let mut skip: HashSet<PathBuf> = self.docs.iter().map(|d| d.file.path.clone()).collect();
        if let (Some(home), Some(name)) = (&self.home, self.path.file_name()) {
            skip.insert(home.join(name));
        }
        skip
    }

    /// The whole module: the open documents and the other files from disk.
    pub fn complete(self, disk: &Disk, recheck: bool) -> Option<(Snapshot, usize)> {
        let skip = self.open_paths();
        let from_disk = disk.module(&self.wanted(&skip), recheck);
        self.with(from_disk)
    }

    /// The files [`Self::complete`] would take from disk, when that needs
    /// no disk access nor much work ([`Disk::known`]).
    pub fn known(&self, disk: &Disk) -> Option<Vec<Document>> {
        disk.known(&self.wanted(&self.open_paths()))
    }

    /// The whole module, with these files from disk.
    pub fn with(self, from_disk: Vec<Document>) -> Option<(Snapshot, usize)> {
        let mut docs = self.docs;
        docs.extend(from_disk);
        docs.sort_by(|a, b| a.file.path.cmp(&b.file.path));
        let index = docs.iter().position(|d| d.file.path == self.path)?;
        let open = self
            .open
            .into_iter()
            .filter_map(|(p, uri, version, rope, opened, edit)| {
                Some((docs.iter().position(|d| d.file.path == p)?, uri, version, rope, opened, edit))
            })
            .collect();
        Some((Snapshot { docs, open, memo: self.memo }, index))
    }
}

/// What closing a document leaves to free off the message loop.
#[derive(Default)]
pub struct Closed {
    pub open: Option<Open>,
    /// The module's memo, when no document of it is open any more.
    pub memo: Option<Arc<Mutex<Memo>>>,
    /// The directory, when none of its documents is open any more.
    pub dir: Option<PathBuf>,
}

/// The directory and family a document's module is made of.
pub fn module_key(path: &Path) -> Option<(PathBuf, Family)> {
    Some((path.parent()?.to_path_buf(), FileKind::for_path(path).unwrap_or(FileKind::Hcl).family()))
}

/// The path of a `file:` URI with an absolute path; other URIs name no file.
fn file_path(uri: &Uri) -> Option<PathBuf> {
    if !uri.scheme().as_str().eq_ignore_ascii_case("file") {
        return None;
    }
    uri.to_file_path().map(|p| p.into_owned()).filter(|p| p.is_absolute())
}

impl Workspace {
    /// The path a document is analysed under: its file's for a `file:`
    /// URI, else the made-up one it got when opened.
    pub fn doc_path(&self, uri: &Uri) -> Option<PathBuf> {
        file_path(uri).or_else(|| self.virtual_paths.get(uri.as_str()).cloned())
    }

    /// [`Self::doc_path`], making up a path for a new document that is not
    /// a file: in a directory of its own that no file system has (it
    /// starts with NUL), named like the URI's last segment so its kind and
    /// dialect follow the name, or, for a name without a known extension
    /// (`untitled:Untitled-1`), the editor's language id.
    pub fn open_path(&mut self, uri: &Uri, language: &str) -> PathBuf {
        if let Some(p) = self.doc_path(uri) {
            return p;
        }
        self.made_up += 1;
        let decoded = uri.path().decode().to_string_lossy().into_owned();
        let name = decoded.rsplit(['/', '\\']).find(|s| !s.is_empty() && *s != "." && *s != "..").unwrap_or("untitled");
        let mut name = name.to_owned();
        if FileKind::for_path(Path::new(&name)).is_none() {
            name.push_str(match language {
                "terraform" | "tf" => ".tf",
                "terraform-vars" | "tfvars" => ".tfvars",
                "pulumi" | "pcl" => ".pp",
                _ => ".hcl",
            });
        }
        let dir = PathBuf::from(format!("\0{}", self.made_up));
        let home = Path::new(&decoded).parent().filter(|d| d.is_absolute());
        if let (Some(home), true) = (home, uri.scheme().as_str().eq_ignore_ascii_case("git")) {
            self.homes.insert(dir.clone(), home.to_path_buf());
        }
        let path = dir.join(name);
        self.virtual_paths.insert(uri.as_str().to_owned(), path.clone());
        path
    }

    /// The URI to show for a path of the module: the open document's, else
    /// the file's.
    pub fn uri_of(&self, path: &Path) -> Option<Uri> {
        match self.open.get(path) {
            Some(o) => Some(o.uri.clone()),
            None if is_virtual(path) => None,
            None => Uri::from_file_path(path),
        }
    }

    /// Closes a document; what its module no longer needs goes with it.
    pub fn close(&mut self, path: &Path) -> Closed {
        let Some(open) = self.open.remove(path) else { return Closed::default() };
        self.virtual_paths.remove(open.uri.as_str());
        let Some(key) = module_key(path) else { return Closed { open: Some(open), ..Closed::default() } };
        let still = |k: &(PathBuf, Family)| self.open.keys().any(|p| module_key(p).as_ref() == Some(k));
        let memo = if still(&key) { None } else { self.memos.remove(&key) };
        let dir = self.homes.remove(&key.0).unwrap_or(key.0);
        let in_use = self.open.keys().any(|p| self.reads(p) == Some(dir.as_path()));
        Closed { open: Some(open), memo, dir: (!in_use).then_some(dir) }
    }

    /// The directory of the file a `git:` document's made-up directory
    /// stands for (none for an `untitled:` one).
    pub fn home(&self, dir: &Path) -> Option<PathBuf> {
        self.homes.get(dir).cloned()
    }

    /// The directory whose files the module of `path` reads from disk.
    pub fn reads<'a>(&'a self, path: &'a Path) -> Option<&'a Path> {
        let dir = path.parent()?;
        Some(self.homes.get(dir).map_or(dir, PathBuf::as_path))
    }

    /// Drops the trees of these files' current parses (open documents,
    /// else disk copies) in place, where nothing else shares their items
    /// (an analysis running meanwhile: the next one drops them); returns
    /// the trees, to be freed off the message loop.
    pub fn drop_trees(&mut self, paths: &[PathBuf], disk: &Disk) -> Vec<Arc<hcl_edit::structure::Body>> {
        let mut trees = Vec::new();
        for path in paths {
            let dropped = match self.open.get_mut(path) {
                Some(open) => open.doc.as_mut().and_then(|(_, doc)| doc.drop_trees()),
                None => disk.drop_trees(path),
            };
            trees.extend(dropped.into_iter().flatten());
        }
        trees
    }

    /// The open documents of the module in `dir` of `family`, parsed.
    pub fn open_docs(&mut self, dir: &Path, family: Family) -> Vec<Document> {
        let settings = &self.settings;
        self.open
            .iter_mut()
            .filter(|(p, _)| p.parent() == Some(dir) && module_key(p).is_some_and(|k| k.1 == family))
            .map(|(p, o)| o.parsed(p, settings))
            .collect()
    }

    /// The open part of the module of `path` (its directory and family).
    pub fn module(&mut self, path: &Path) -> Option<Partial> {
        let (dir, family) = module_key(path)?;
        let settings = &self.settings;
        let mut docs = Vec::new();
        let mut open = Vec::new();
        for (p, o) in &mut self.open {
            if p.parent() == Some(dir.as_path()) && module_key(p).is_some_and(|k| k.1 == family) {
                docs.push(o.parsed(p, settings));
                open.push((p.clone(), o.uri.clone(), o.version, o.rope.clone(), o.opened, o.edit.clone()));
            }
        }
        let memo = self.memos.entry((dir.clone(), family)).or_default().clone();
        let home = self.homes.get(&dir).cloned();
        Some(Partial { path: path.to_path_buf(), dir, home, family, docs, open, memo, settings: settings.clone() })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A text changed by [`replaced`], in place or copied (when another
    /// holder keeps the old one), is the concatenation of the parts, and
    /// the old text a holder keeps is never changed under it.
    #[test]
    fn a_text_replaced_in_place_or_copied_is_the_concatenation() {
        let mut rng = types::testing::Rng::new(7);
        let mut below = |n: usize| rng.below(n);
        let mut text: Text = Arc::new("variable \"é\" {\n  default = 1\n}\n".repeat(40).into());
        let mut expected = text.to_string();
        let mut in_place = 0;
        for _ in 0..2000 {
            let mut at = below(expected.len() + 1);
            while !expected.is_char_boundary(at) {
                at -= 1;
            }
            let mut end = (at + below(8)).min(expected.len());
            while !expected.is_char_boundary(end) {
                end -= 1;
            }
            let new = ["", "x", "é😀", "\n", "a longer piece of text\n"][below(5)];
            let held = (below(4) == 0).then(|| (text.clone(), text.to_string()));
            let address = Arc::as_ptr(&text) as usize;
            let next = replaced(&mut text, at..end, new);
            expected = format!("{}{new}{}", &expected[..at], &expected[end..]);
            assert_eq!(*next, expected);
            if let Some((old, was)) = held {
                assert_eq!(*old, was, "a held text is never changed");
                assert!(!Arc::ptr_eq(&old, &next));
            } else {
                in_place += usize::from(Arc::as_ptr(&next) as usize == address);
            }
            text = next;
        }
        assert!(in_place > 1000, "changed in place when not held: {in_place}");
    }
}
