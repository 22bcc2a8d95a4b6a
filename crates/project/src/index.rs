//! The workspace's symbol index (`workspace/symbol`): every name declared
//! by a Terraform or PCL file under the workspace folders, read once in the
//! background ([`Index::build`], walking as `check` walks) and kept current
//! file by file as changes are told ([`Index::changed`]). Open documents'
//! unsaved texts stand in for their files at query time. What is held is
//! each symbol's name, kind and range: a few dozen bytes a symbol, and at
//! most [`MAX_SYMBOLS`] of them.

use analysis::sync::Locked;
use std::collections::HashMap;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use analysis::FileKind;
use ide::workspace_symbols::{file_symbols, letters, search, SymbolKind};
use rayon::prelude::*;

/// The most symbols held (a workspace of 10,000 modules of 50 names each
/// is half of it); files past it are not indexed, and the index says so.
pub const MAX_SYMBOLS: usize = 1_000_000;

/// The most directory entries the index walks (a folder opened at `$HOME`
/// or `/` is not walked to its end in the background).
pub const MAX_WALKED: usize = 500_000;

/// Files read between two progress reports.
const CHUNK: usize = 256;

#[derive(Default)]
pub struct Index {
    state: Mutex<State>,
}

#[derive(Default)]
struct State {
    roots: Vec<PathBuf>,
    /// The folders as [`crate::confine`] confines reads to them.
    tree: Arc<crate::confine::Tree>,
    files: HashMap<PathBuf, Arc<Symbols>>,
    symbols: usize,
    /// The whole workspace was read (queries before that see what was).
    ready: bool,
    /// Files left out because [`MAX_SYMBOLS`] was reached.
    left_out: usize,
    /// Whether the walk stopped at [`MAX_WALKED`] entries.
    cut: bool,
    /// Open documents: their version and symbols, while the version stays.
    open: HashMap<PathBuf, (i32, Arc<Symbols>)>,
}

/// An open document as a query sees it: its path, version and text.
pub struct OpenText<'a> {
    pub path: &'a Path,
    pub version: i32,
    pub text: &'a str,
}

/// A position as both encodings of the language server count columns: a
/// result is shown without reading its file again.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pos {
    /// 0-based line.
    pub line: u32,
    /// Columns in UTF-8 bytes and in UTF-16 code units.
    pub utf8: u32,
    pub utf16: u32,
}

/// A symbol as held: its name (in its file's [`Symbols::names`]), kind,
/// range and the positions of the range.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Held {
    name: Range<u32>,
    /// [`letters`] of the name.
    letters: u64,
    kind: SymbolKind,
    range: Range<u32>,
    start: Pos,
    end: Pos,
}

/// A file's symbols, their names side by side in one string: a query
/// reads every name of the workspace, and 180,000 names in as many
/// allocations cost it a cache miss each (30 ms a query at 10,000 modules).
#[derive(Debug, Default)]
struct Symbols {
    names: String,
    held: Vec<Held>,
}

impl Symbols {
    fn len(&self) -> usize {
        self.held.len()
    }

    fn name(&self, h: &Held) -> &str {
        self.names.get(h.name.start as usize..h.name.end as usize).unwrap_or("")
    }
}

/// A symbol found, with its file and where it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found {
    pub path: PathBuf,
    pub name: String,
    pub kind: SymbolKind,
    /// Its label's byte range, and the positions of the range.
    pub range: Range<usize>,
    pub start: Pos,
    pub end: Pos,
}

/// The symbols of a text, with their positions (one pass over the text:
/// symbols come in source order).
fn entries(kind: FileKind, text: &str) -> Arc<Symbols> {
    placed(file_symbols(kind, text), text)
}

/// The symbols of `text`, a file at `path`: a JSON file's are read from its
/// lowering and placed in the JSON itself (`syntax::json::SourceMap`: in a
/// one-line file the lowering's lines are not the JSON's); invalid JSON
/// declares nothing.
fn entries_at(path: &Path, kind: FileKind, text: &str) -> Arc<Symbols> {
    if !syntax::json::is_json_path(path) {
        return entries(kind, text);
    }
    let Ok(lowered) = syntax::json::lower_mapped(text) else { return Arc::default() };
    let mut symbols = file_symbols(kind, &lowered.text);
    for s in &mut symbols {
        s.range = lowered.map.range_to_source(&s.range);
    }
    placed(symbols, text)
}

/// `symbols` of `text` with their lines and columns.
fn placed(symbols: Vec<ide::workspace_symbols::FileSymbol>, text: &str) -> Arc<Symbols> {
    let mut offsets: Vec<usize> = symbols.iter().flat_map(|s| [s.range.start, s.range.end]).collect();
    offsets.sort_unstable();
    let mut at = Pos { line: 0, utf8: 0, utf16: 0 };
    let mut positions = HashMap::new();
    let mut chars = text.char_indices().peekable();
    for &o in &offsets {
        while let Some(&(k, c)) = chars.peek() {
            if k >= o {
                break;
            }
            // (`\r\n` is one break: the `\n` ends the line; a lone `\r` too.)
            let lone_cr = c == '\r' && text.as_bytes().get(k + 1) != Some(&b'\n');
            if c == '\n' || lone_cr {
                at = Pos { line: at.line + 1, utf8: 0, utf16: 0 };
            } else {
                at.utf8 += c.len_utf8() as u32;
                at.utf16 += c.len_utf16() as u32;
            }
            chars.next();
        }
        positions.insert(o, at);
    }
    let pos = |o: usize| positions.get(&o).copied().unwrap_or(at);
    let mut out = Symbols::default();
    for s in symbols {
        let from = out.names.len() as u32;
        out.names.push_str(&s.name);
        out.held.push(Held {
            name: from..out.names.len() as u32,
            letters: letters(&s.name),
            kind: s.kind,
            range: s.range.start as u32..s.range.end as u32,
            start: pos(s.range.start),
            end: pos(s.range.end),
        });
    }
    Arc::new(out)
}

/// A file's symbols, read from disk (`None`: not a file to index, not
/// readable as text, or a link out of the folders: the analysis that reads
/// it says so, not the index).
fn read(path: &Path, tree: &crate::confine::Tree) -> Option<Arc<Symbols>> {
    let kind = FileKind::for_path(path).filter(|k| matches!(k, FileKind::Terraform | FileKind::Pcl))?;
    tree.check(path).ok()?;
    let text = crate::fsread::read_regular_to_string(path, crate::fsread::SOURCE_CAP).ok()?;
    Some(entries_at(path, kind, &text))
}

impl Index {
    /// Reads every Terraform and PCL file under `roots` (files are found as
    /// `check` finds them: linked files read, `.git`, `.terraform` and
    /// `node_modules` skipped), telling `progress` how many of how many
    /// files are read. Replaces what was indexed before.
    pub fn build(&self, roots: &[PathBuf], progress: &(dyn Fn(usize, usize) + Sync)) {
        self.build_within(roots, MAX_WALKED, progress)
    }

    /// [`Self::build`], walking at most `most` directory entries.
    pub fn build_within(&self, roots: &[PathBuf], most: usize, progress: &(dyn Fn(usize, usize) + Sync)) {
        let tree = Arc::new(crate::confine::Tree::new(roots));
        let (modules, _, cut) = crate::check::discover_within(roots, &Default::default(), most, &tree);
        let paths: Vec<PathBuf> = modules
            .into_values()
            .flatten()
            .filter(|p| FileKind::for_path(p).is_some_and(|k| matches!(k, FileKind::Terraform | FileKind::Pcl)))
            .collect();
        {
            let mut st = self.state.locked();
            let open = std::mem::take(&mut st.open);
            *st = State { roots: roots.to_vec(), tree: tree.clone(), open, cut, ..State::default() };
        }
        progress(0, paths.len());
        for (k, chunk) in paths.chunks(CHUNK).enumerate() {
            let read: Vec<(PathBuf, Option<Arc<Symbols>>)> =
                chunk.par_iter().map(|p| (p.clone(), read(p, &tree))).collect();
            let mut st = self.state.locked();
            for (path, symbols) in read {
                if let Some(symbols) = symbols {
                    st.insert(path, symbols);
                }
            }
            drop(st);
            progress((k * CHUNK + chunk.len()).min(paths.len()), paths.len());
        }
        self.state.locked().ready = true;
    }

    /// A file changed on disk (made, written or gone): read again. A
    /// directory's files are looked at again.
    pub fn changed(&self, path: &Path) {
        if !self.state.locked().roots.iter().any(|r| path.starts_with(r)) {
            return;
        }
        let tree = self.state.locked().tree.clone();
        if path.is_dir() {
            let paths = [path.to_path_buf()];
            let (modules, _) = crate::check::discover_excluding(&paths, &Default::default(), &tree);
            self.state.locked().files.retain(|p, _| !p.starts_with(path));
            for p in modules.into_values().flatten() {
                self.changed(&p);
            }
            return;
        }
        let symbols = read(path, &tree);
        let mut st = self.state.locked();
        if let Some(old) = st.files.remove(path) {
            st.symbols -= old.len();
        }
        if let Some(symbols) = symbols {
            st.insert(path.to_path_buf(), symbols);
        }
    }

    /// Whether the whole workspace was read, and how many files were left
    /// out for the bound on symbols.
    pub fn status(&self) -> (bool, usize) {
        let st = self.state.locked();
        (st.ready, st.left_out)
    }

    /// Whether the walk stopped at its bound on entries ([`MAX_WALKED`]).
    pub fn cut(&self) -> bool {
        self.state.locked().cut
    }

    /// How many files and symbols are held.
    pub fn size(&self) -> (usize, usize) {
        let st = self.state.locked();
        (st.files.len(), st.symbols)
    }

    /// The best `limit` symbols for `query` ([`ide::workspace_symbols::rank`]),
    /// open documents' texts standing in for their files.
    pub fn search(&self, query: &str, limit: usize, open: &[OpenText]) -> Vec<Found> {
        let mut st = self.state.locked();
        // Open documents' symbols, read again only when their version moved.
        let mut current: HashMap<PathBuf, (i32, Arc<Symbols>)> = HashMap::new();
        for o in open {
            let Some(kind) = FileKind::for_path(o.path) else { continue };
            let kept = st.open.remove(o.path).filter(|(v, _)| *v == o.version);
            let symbols = kept.map(|(_, s)| s).unwrap_or_else(|| entries_at(o.path, kind, o.text));
            current.insert(o.path.to_path_buf(), (o.version, symbols));
        }
        st.open = current;
        let st = &*st;
        let from_files = st.files.iter().filter(|(p, _)| st.open.is_empty() || !st.open.contains_key(*p));
        let from_open = st.open.iter().map(|(p, (_, s))| (p, s));
        // (Symbols of one name in file order: each file's number, then the
        // symbol's position.)
        let wanted = letters(query);
        let all = from_files.chain(from_open).enumerate().flat_map(|(k, (p, syms))| {
            (syms.held.iter().filter(move |h| h.letters & wanted == wanted))
                .map(move |h| (syms.name(h), (k as u64) << 32 | u64::from(h.range.start), (p, syms, h)))
        });
        let mut found: Vec<Found> = search(all, query, limit)
            .into_iter()
            .map(|(p, syms, h)| Found {
                path: p.clone(),
                name: syms.name(h).to_string(),
                kind: h.kind,
                range: h.range.start as usize..h.range.end as usize,
                start: h.start,
                end: h.end,
            })
            .collect();
        // The same name in many modules: by path (a map's order is none).
        found.sort_by(|a, b| {
            (rank_of(&a.name, query), &a.name, &a.path, a.range.start).cmp(&(
                rank_of(&b.name, query),
                &b.name,
                &b.path,
                b.range.start,
            ))
        });
        found
    }
}

fn rank_of(name: &str, query: &str) -> u8 {
    ide::workspace_symbols::rank(name, query).unwrap_or(u8::MAX)
}

impl State {
    fn insert(&mut self, path: PathBuf, symbols: Arc<Symbols>) {
        if self.symbols + symbols.len() > MAX_SYMBOLS {
            self.left_out += 1;
            return;
        }
        self.symbols += symbols.len();
        if let Some(old) = self.files.insert(path, symbols) {
            self.symbols -= old.len();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> crate::scratch::Scratch {
        crate::scratch::Scratch::new(&format!("index-{name}")).unwrap()
    }

    fn names(found: &[Found]) -> Vec<String> {
        found.iter().map(|f| f.name.clone()).collect()
    }

    /// The index reads every module under the roots, follows changes told
    /// to it, and lets an open document's unsaved text stand for its file.
    #[test]
    fn symbols_of_every_module_follow_changes_and_open_texts() {
        let root = scratch("follow");
        std::fs::create_dir_all(root.join("modules/net")).unwrap();
        std::fs::create_dir_all(root.join(".terraform/modules/x")).unwrap();
        std::fs::write(
            root.join("main.tf"),
            "variable \"region\" {}\nmodule \"net\" {\n  source = \"./modules/net\"\n}\n",
        )
        .unwrap();
        std::fs::write(root.join("modules/net/main.tf"), "resource \"aws_vpc\" \"main\" {}\noutput \"id\" {}\n")
            .unwrap();
        std::fs::write(root.join(".terraform/modules/x/main.tf"), "variable \"hidden\" {}\n").unwrap();
        let index = Index::default();
        let reports = Mutex::new(Vec::new());
        index.build(&[root.to_path_buf()], &|done, total| reports.locked().push((done, total)));
        assert_eq!(reports.locked().last(), Some(&(2, 2)), "{:?}", reports.locked());
        assert_eq!(index.status(), (true, 0));
        assert_eq!(names(&index.search("", 10, &[])), ["aws_vpc.main", "module.net", "output.id", "var.region"]);
        let found = index.search("main", 10, &[]);
        assert_eq!(names(&found), ["aws_vpc.main"]);
        let at = |line, utf8, utf16| Pos { line, utf8, utf16 };
        assert_eq!((found[0].start, found[0].end), (at(0, 19, 19), at(0, 25, 25)));
        assert!(index.search("hidden", 10, &[]).is_empty(), ".terraform is not indexed");
        // A change told: read again.
        std::fs::write(root.join("modules/net/main.tf"), "output \"vpc_id\" {}\n").unwrap();
        index.changed(&root.join("modules/net/main.tf"));
        assert_eq!(names(&index.search("id", 10, &[])), ["output.vpc_id"]);
        // Gone.
        std::fs::remove_file(root.join("modules/net/main.tf")).unwrap();
        index.changed(&root.join("modules/net/main.tf"));
        assert!(index.search("vpc", 10, &[]).is_empty());
        // An open document's text, not its file's.
        let path = root.join("main.tf");
        let text = "# \u{1f600}\r\n\rvariable \"z\u{e9}ne\" {}\n";
        let open = [OpenText { path: &path, version: 3, text }];
        let found = index.search("", 10, &open);
        assert_eq!(names(&found), ["var.z\u{e9}ne"]);
        assert_eq!((found[0].start, found[0].end), (at(2, 9, 9), at(2, 16, 15)), "after CRLF and a lone CR");
        // Closed: the file again.
        assert_eq!(names(&index.search("", 10, &[])), ["module.net", "var.region"]);
        let _ = std::fs::remove_dir_all(&root);
    }

    /// A file in Terraform's JSON syntax is indexed by its declarations
    /// (read lowered, `syntax::json`), on its JSON line; invalid JSON gives none.
    #[test]
    fn json_files_are_indexed_by_their_declarations() {
        let root = scratch("json");
        std::fs::create_dir_all(&root).unwrap();
        let json = "{\n  \"variable\": {\n    \"region\": {}\n  },\n  \"output\": {\"id\": {\"value\": 1}}\n}\n";
        std::fs::write(root.join("variables.tf.json"), json).unwrap();
        std::fs::write(root.join("broken.tf.json"), "{\"variable\": {\"nope\": {}},}").unwrap();
        let index = Index::default();
        index.build(&[root.to_path_buf()], &|_, _| {});
        let found = index.search("", 10, &[]);
        assert_eq!(names(&found), ["output.id", "var.region"]);
        assert_eq!(found[1].start.line, 2, "on the JSON's line of `region`");
        // A minified file: every declaration on its one line, at its column.
        let min = "{\"locals\":{\"é\":1},\"variable\":{\"zone\":{}},\"output\":{\"ip\":{\"value\":2}}}";
        std::fs::write(root.join("variables.tf.json"), min).unwrap();
        let index = Index::default();
        index.build(&[root.to_path_buf()], &|_, _| {});
        let found = index.search("", 10, &[]);
        assert_eq!(names(&found), ["local.é", "output.ip", "var.zone"]);
        for (s, name) in found.iter().zip(["é", "\"ip\"", "\"zone\""]) {
            let col = min[..min.find(name).unwrap()].encode_utf16().count() as u32;
            assert_eq!((s.start.line, s.start.utf16), (0, col), "{name}");
        }
        let _ = std::fs::remove_dir_all(&root);
    }

    /// A walk over its bound of entries stops (a folder opened at `$HOME`)
    /// and says so; what it found until then is indexed.
    #[test]
    fn the_walk_stops_at_its_bound_and_says_so() {
        let root = scratch("bound");
        for k in 0..20 {
            std::fs::create_dir_all(root.join(format!("m{k:02}"))).unwrap();
            std::fs::write(root.join(format!("m{k:02}/main.tf")), format!("variable \"v{k:02}\" {{}}\n")).unwrap();
        }
        let index = Index::default();
        index.build_within(&[root.to_path_buf()], 10, &|_, _| {});
        assert!(index.cut());
        let found = index.search("v", 100, &[]).len();
        assert!(found > 0 && found < 20, "{found}");
        index.build_within(&[root.to_path_buf()], MAX_WALKED, &|_, _| {});
        assert!(!index.cut());
        assert_eq!(index.search("v", 100, &[]).len(), 20);
        let _ = std::fs::remove_dir_all(&root);
    }
}
