//! The names of a module as inference sees them, and what each lookup
//! and suggestion asked.

use super::*;
use crate::dialects::{symbol_libraries, terragrunt};
use crate::sync::Locked;
use std::sync::OnceLock;
use types::suggest::NearIndex;

// ---------------------------------------------------------------------------
// The names of a module.

/// A named value's type and where it is declared (read it with
/// [`ModuleEnv::range`]: the moves of its document since it was placed are
/// applied then).
pub(super) struct Entry {
    pub(super) ty: Type,
    pub(super) doc: usize,
    /// Where it was declared once the first `seen` moves of its document
    /// were made.
    at: Range<usize>,
    seen: u32,
    pub(super) what: &'static str,
}

/// How many moves of a document are kept before they are applied to its
/// names (one pass over all names every that many keystrokes, instead of
/// one per keystroke).
const MOVES_KEPT: usize = 64;

#[derive(Default)]
pub(super) struct ModuleEnv {
    /// The module's files, by document index (for related locations).
    pub(super) paths: Vec<std::path::PathBuf>,
    pub(super) names: HashMap<(Space, String), Entry>,
    /// Every name declared per space, for "did you mean" (known before any
    /// local is inferred, so suggestions do not depend on inference order).
    pub(super) declared: [Vec<String>; SPACES],
    /// The [`Shape`] of each of `declared`, so that a suggestion looks
    /// closely only at the few names that can be near the word.
    pub(super) shapes: [Vec<Shape>; SPACES],
    /// `declared` indexed by what is one edit from each, made at the first
    /// suggestion asked in a space.
    pub(super) near: [OnceLock<NearIndex>; SPACES],
    pub(super) suggestions: Mutex<HashMap<(Space, String), Option<String>>>,
    /// What the module calls lead to.
    pub(super) context: Context,
    /// Per document, the edits that moved its text since its names were
    /// placed, in order: `(from, by)` moves what starts at or after `from`
    /// by `by` bytes. A keystroke records one instead of moving every
    /// name after it.
    pub(super) moves: Vec<Vec<(usize, isize)>>,
    /// What the module-level passes found (a patch replaces it).
    pub(super) passes: super::passes::Found,
    /// The symbol library the module's own `.sym.hcl` files make.
    pub(super) own_library: Option<Arc<symbol_libraries::libraries::Library>>,
    /// Each Terragrunt unit's merge, made at its first check (see
    /// [`Self::unit`]).
    pub(super) units: Mutex<HashMap<UnitKey, Arc<terragrunt::merge::Unit>>>,
}

/// A unit document (its path and revision) and the calls it was merged
/// with (by identity): what its merge is made of.
pub(super) type UnitKey = (std::path::PathBuf, Revision, usize);

/// What tells names apart cheaply before their edit distance: the length
/// in chars and the set of (ASCII-lowercased) chars, hashed into 64 bits.
/// An edit changes the length by at most one and the set by at most two
/// chars, so names `d` edits apart (or equal but for case) differ by at
/// most `d` in length and `2·d` bits of the set.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) struct Shape {
    len: u32,
    chars: u64,
}

impl Shape {
    pub(super) fn of(name: &str) -> Shape {
        let (mut len, mut chars) = (0, 0u64);
        for c in name.chars() {
            len += 1;
            chars |= 1 << (u32::from(c.to_ascii_lowercase()) % 64);
        }
        Shape { len, chars }
    }

    /// Whether a name of this shape may be at most `limit` edits from one of `other`.
    pub(super) fn near(self, other: Shape, limit: usize) -> bool {
        self.len.abs_diff(other.len) as usize <= limit && (self.chars ^ other.chars).count_ones() as usize <= 2 * limit
    }

    /// The most edits [`types::suggest::closest`] allows for a word of this shape.
    pub(super) fn limit(self) -> usize {
        (self.len as usize / 3).max(1)
    }
}

/// `moves` (see [`ModuleEnv::moves`]) as one: what was at `x` before them
/// moved by the shift of the last step `(from, shift)` with `from <= x`
/// (steps sorted, the first from 0). A move shifts what is now at or
/// after its start, so it splits at most one step in two.
pub(super) fn composed(moves: &[(usize, isize)]) -> Vec<(usize, isize)> {
    let mut steps = vec![(0, 0)];
    for &(from, by) in moves {
        let mut next = Vec::with_capacity(steps.len() + 1);
        for (i, &(at, shift)) in steps.iter().enumerate() {
            let end = steps.get(i + 1).map_or(usize::MAX, |s| s.0);
            // What this step holds is now at or after `from` from here on.
            let split = usize::try_from(from as isize - shift).unwrap_or(0);
            if split <= at {
                next.push((at, shift + by));
            } else if split >= end {
                next.push((at, shift));
            } else {
                next.extend([(at, shift), (split, shift + by)]);
            }
        }
        steps = next;
    }
    steps
}

/// How many name spaces there are.
pub(super) const SPACES: usize = 5;

pub(super) fn space_index(s: Space) -> usize {
    match s {
        Space::Var => 0,
        Space::Local => 1,
        Space::Pcl => 2,
        Space::Module => 3,
        Space::Resource => 4,
    }
}

/// Where the type of a variable's `default` is kept for
/// [`Env::var_default`]: a name no reference can spell, so that the memo
/// and the readers of a module follow it as they follow the variable.
pub(super) fn default_key(name: &str) -> String {
    format!("{DEFAULT_PREFIX}{name}")
}

const DEFAULT_PREFIX: &str = "\0default ";

/// The name under which a variable whose default is `null` is marked (see
/// [`default_key`]).
pub(super) fn null_default_key(name: &str) -> String {
    format!("{DEFAULT_PREFIX}null {name}")
}

/// Where a variable's default that may be a file's path (a constant
/// string with a `.`: `default = "cfg.json"`) is kept for
/// [`Env::var_default_path`], under a name of its own as its default's
/// type is ([`default_key`]): the string is the one attribute name of an
/// object type (a type carries names, not values), so that the memo and
/// the readers follow it as they follow the variable.
pub(super) fn default_path_key(name: &str) -> String {
    format!("{DEFAULT_PREFIX}path {name}")
}

/// What [`default_path_key`] keeps for a variable, if anything.
pub(super) fn path_default(v: &VarDecl) -> Option<Type> {
    let path = v.static_default.as_ref().filter(|s| s.contains('.'))?;
    Some(Type::object([(path.clone(), Type::string())]))
}

/// Whether a variable's name is a [`default_key`].
pub(super) fn is_default_key(name: &str) -> bool {
    name.starts_with(DEFAULT_PREFIX)
}

impl ModuleEnv {
    pub(super) fn insert(
        &mut self,
        space: Space,
        name: &str,
        ty: Type,
        doc: usize,
        range: Range<usize>,
        what: &'static str,
    ) {
        let seen = self.seen(doc);
        self.names.entry((space, name.to_string())).or_insert(Entry { ty, doc, at: range, seen, what });
    }

    /// Declares `key` (again) at `range`, where it is now.
    pub(super) fn put(&mut self, key: (Space, String), ty: Type, doc: usize, range: Range<usize>, what: &'static str) {
        let seen = self.seen(doc);
        self.names.insert(key, Entry { ty, doc, at: range, seen, what });
    }

    /// Moves `key`'s declaration to `range`, where it is now.
    pub(super) fn place(&mut self, key: &(Space, String), range: Range<usize>) {
        let Some(doc) = self.names.get(key).map(|e| e.doc) else { return };
        let seen = self.seen(doc);
        if let Some(e) = self.names.get_mut(key) {
            (e.at, e.seen) = (range, seen);
        }
    }

    fn seen(&self, doc: usize) -> u32 {
        self.moves.get(doc).map_or(0, |m| m.len() as u32)
    }

    /// Where `e` is declared now.
    pub(super) fn range(&self, e: &Entry) -> Range<usize> {
        let mut r = e.at.clone();
        for &(from, by) in self.moves.get(e.doc).map_or(&[][..], |m| &m[e.seen as usize..]) {
            if r.start >= from {
                r = r.start.saturating_add_signed(by)..r.end.saturating_add_signed(by);
            }
        }
        r
    }

    /// Records that what starts at or after `from` in document `doc` moved
    /// by `by` bytes; every [`MOVES_KEPT`] moves they are applied to the
    /// document's names and forgotten.
    pub(super) fn moved(&mut self, doc: usize, from: usize, by: isize) {
        if by == 0 || from == usize::MAX {
            return;
        }
        if self.moves.len() <= doc {
            self.moves.resize_with(doc + 1, Vec::new);
        }
        self.moves[doc].push((from, by));
        if self.moves[doc].len() < MOVES_KEPT {
            return;
        }
        let moves = std::mem::take(&mut self.moves[doc]);
        let steps = composed(&moves);
        for e in self.names.values_mut().filter(|e| e.doc == doc) {
            let by = if e.seen == 0 {
                steps[steps.partition_point(|(at, _)| *at <= e.at.start) - 1].1
            } else {
                moves[e.seen as usize..].iter().fold(0, |by, &(from, step)| {
                    if e.at.start.saturating_add_signed(by) >= from {
                        by + step
                    } else {
                        by
                    }
                })
            };
            e.at = e.at.start.saturating_add_signed(by)..e.at.end.saturating_add_signed(by);
            e.seen = 0;
        }
    }

    pub(super) fn lookup(&self, space: Space, name: &str) -> Option<(Type, Option<Related>)> {
        let e = self.names.get(&(space, name.to_string()))?;
        let related = Related {
            path: Some(self.paths[e.doc].clone()),
            range: self.range(e),
            message: format!("{} `{}` is declared here", e.what, crate::calls::test_name(name).unwrap_or(name)),
        };
        Some((e.ty.clone(), Some(related)))
    }

    /// Declares `name` in `space` for suggestions.
    pub(super) fn declare(&mut self, space: Space, name: &str) {
        let i = space_index(space);
        if let Some(index) = self.near[i].get_mut() {
            index.add(self.declared[i].len(), name);
        }
        self.declared[i].push(name.to_string());
        self.shapes[i].push(Shape::of(name));
    }

    pub(super) fn suggest(&self, space: Space, word: &str) -> Option<String> {
        // Generated and half-typed code repeats its unknown names: each is
        // looked up once per module, not once per use.
        let key = (space, word.to_string());
        let mut memo = self.suggestions.locked();
        memo.entry(key)
            .or_insert_with(|| {
                let i = space_index(space);
                let (names, shapes) = (&self.declared[i], &self.shapes[i]);
                // Most answers are one edit away: the index has those.
                let index = self.near[i].get_or_init(|| NearIndex::new(names.iter().map(String::as_str)));
                let one: Vec<&str> = index.candidates(word).into_iter().map(|slot| names[slot].as_str()).collect();
                let answer = types::suggest::closest_one(word, &one).or_else(|| {
                    // (Only names of a near shape can be the answer.)
                    let shape = Shape::of(word);
                    let near = names.iter().zip(shapes).filter(|(_, s)| s.near(shape, shape.limit()));
                    types::suggest::closest_beyond_one(word, &near.map(|(n, _)| n.as_str()).collect::<Vec<_>>())
                });
                answer.map(String::from)
            })
            .clone()
    }

    /// Renames a declared name of `space` (in its place) and brings the
    /// remembered suggestions up to it: a suggestion is the closest name,
    /// ties to the first in sort order, so the renamed one only competes
    /// with the answer; an answer that was the old name is asked again.
    pub(super) fn renamed(&mut self, space: Space, old: &str, new: &str) {
        let i = space_index(space);
        let (shape, new_shape) = (Shape::of(old), Shape::of(new));
        let slot = self.declared[i].iter().zip(&self.shapes[i]).position(|(n, s)| *s == shape && n == old);
        if let Some(slot) = slot {
            (self.declared[i][slot], self.shapes[i][slot]) = (new.to_string(), new_shape);
            if let Some(index) = self.near[i].get_mut() {
                index.add(slot, new);
            }
        }
        let memo = self.suggestions.get_mut().unwrap_or_else(|e| e.into_inner());
        memo.retain(|(s, _), answer| *s != space || answer.as_deref() != Some(old));
        for ((_, word), answer) in memo.iter_mut().filter(|((s, _), _)| *s == space) {
            // (A new name too far from the word leaves its answer.)
            let shape = Shape::of(word);
            if !new_shape.near(shape, shape.limit()) {
                continue;
            }
            let best = match answer.as_deref() {
                Some(a) => types::suggest::closest(word, [a, new]),
                None => types::suggest::closest(word, [new]),
            };
            *answer = best.map(String::from);
        }
    }

    /// The merge of Terragrunt unit `doc`'s includes and inputs, made once
    /// per analysis whatever the number of its `include` blocks (each
    /// reads it), through `view` (the first asker's: the items of a unit
    /// with includes are all checked again after any edit, see
    /// `terragrunt::merge::merges`, so no other item's dependencies need
    /// what it consulted).
    pub(super) fn unit(&self, view: &dyn Env, doc: &Document) -> Arc<terragrunt::merge::Unit> {
        let key = (doc.file.path.clone(), doc.revision(), Arc::as_ptr(&self.context.calls) as usize);
        if let Some(u) = self.units.locked().get(&key) {
            return u.clone();
        }
        let made = Arc::new(terragrunt::merge::Unit::new(view, doc));
        // A unit without includes is read by its `inputs` alone, which may
        // be checked again on its own (patched): it asks through its own
        // view each time, so what it consulted stays in its dependencies.
        if made.incs.is_empty() {
            return made;
        }
        let mut units = self.units.locked();
        // (An earlier revision's merge is not asked for again.)
        units.retain(|k, _| k.0 != key.0 || k == &key);
        units.entry(key).or_insert(made).clone()
    }

    pub(super) fn type_of(&self, key: &(Space, String)) -> Option<&Type> {
        self.names.get(key).map(|e| &e.ty)
    }
}

/// The module's names as one file sees them, recording what it asks.
pub(crate) struct View<'a> {
    pub(super) env: &'a ModuleEnv,
    pub(super) dialect: Dialect,
    pub(super) lenient: bool,
    pub(crate) lookups: RefCell<Vec<(Space, String)>>,
    /// The words suggestions were asked for, with the answers given.
    pub(super) suggested: RefCell<Vec<(Space, String, Option<String>)>>,
    pub(super) callees: RefCell<Vec<String>>,
    pub(super) schemas_asked: std::cell::Cell<bool>,
    /// The files read, with a hash of their text.
    pub(super) files: RefCell<Vec<(std::path::PathBuf, Option<u64>)>>,
}

impl<'a> View<'a> {
    pub(super) fn new(env: &'a ModuleEnv, dialect: Dialect, lenient: bool) -> Self {
        View {
            env,
            dialect,
            lenient,
            lookups: RefCell::new(Vec::new()),
            suggested: RefCell::new(Vec::new()),
            callees: RefCell::new(Vec::new()),
            schemas_asked: std::cell::Cell::new(false),
            files: RefCell::new(Vec::new()),
        }
    }

    /// What the inference so far depended on.
    pub(super) fn deps(&self) -> Deps {
        let mut keys = self.lookups.take();
        keys.sort_unstable_by(|a, b| (space_index(a.0), &a.1).cmp(&(space_index(b.0), &b.1)));
        keys.dedup();
        let lookups = keys
            .into_iter()
            .map(|k| {
                let t = self.env.type_of(&k).cloned();
                (k, t)
            })
            .collect();
        let mut suggested = self.suggested.take();
        suggested.sort_unstable_by(|a, b| (space_index(a.0), &a.1).cmp(&(space_index(b.0), &b.1)));
        suggested.dedup_by(|a, b| (a.0, &a.1) == (b.0, &b.1));
        let mut calls = self.callees.take();
        calls.sort_unstable();
        calls.dedup();
        let calls = calls
            .into_iter()
            .map(|c| {
                let v = self.env.context.callee(&c).map(Callee::version);
                (c, v)
            })
            .collect();
        let schemas = self.schemas_asked.take().then(|| self.env.context.schemas_version());
        let mut files = self.files.take();
        files.sort_unstable();
        files.dedup();
        Deps { dialect: self.dialect, lookups, suggested, calls, schemas, files }
    }
}

impl Env for View<'_> {
    fn dialect(&self) -> Dialect {
        self.dialect
    }
    fn lenient(&self) -> bool {
        self.lenient
    }
    fn lookup(&self, space: Space, name: &str) -> Option<(Type, Option<Related>)> {
        self.lookups.borrow_mut().push((space, name.to_string()));
        self.env.lookup(space, name)
    }
    fn module_dir(&self) -> Option<std::path::PathBuf> {
        self.env.paths.first()?.parent().map(std::path::Path::to_path_buf)
    }
    fn terragrunt_unit(&self) -> bool {
        self.env.paths.iter().any(|p| crate::is_terragrunt_unit(p))
    }
    fn read_file(&self, path: &std::path::Path) -> Option<Arc<str>> {
        let text = self.env.context.read(path);
        self.files.borrow_mut().push((path.to_path_buf(), text.as_deref().map(text_hash)));
        text
    }
    fn var_default(&self, name: &str) -> Option<Type> {
        // Every known caller sets it: the default is never used.
        if self.env.context.passed.as_ref().is_some_and(|p| p.contains(name)) {
            return None;
        }
        self.lookup(Space::Var, &default_key(name)).map(|(t, _)| t)
    }
    fn var_null_default(&self, name: &str) -> bool {
        self.lookup(Space::Var, &null_default_key(name)).is_some()
    }
    fn var_default_path(&self, name: &str) -> Option<String> {
        // A called module's relative path is the root's working
        // directory's, not known here: followed in a root module only.
        if self.env.context.passed.is_some() {
            return None;
        }
        let (t, _) = self.lookup(Space::Var, &default_path_key(name))?;
        match t.kind() {
            Kind::Object(attrs) => attrs.first().map(|(path, _)| path.clone()),
            _ => None,
        }
    }
    fn suggest(&self, space: Space, word: &str) -> Option<String> {
        let answer = self.env.suggest(space, word);
        self.suggested.borrow_mut().push((space, word.to_string(), answer.clone()));
        answer
    }
    fn is_const(&self, name: &str) -> Option<bool> {
        self.lookups.borrow_mut().push((Space::Var, name.to_string()));
        self.env.names.get(&(Space::Var, name.to_string())).map(|e| e.what == "const variable")
    }
    fn is_non_const(&self, name: &str) -> bool {
        self.lookups.borrow_mut().push((Space::Var, name.to_string()));
        self.env.names.get(&(Space::Var, name.to_string())).is_some_and(|e| e.what == "non-const variable")
    }
    fn callee(&self, call: &str) -> Option<Callee> {
        self.callees.borrow_mut().push(call.to_string());
        self.env.context.callee(call).cloned()
    }
    fn schemas(&self) -> Option<Arc<Schemas>> {
        self.schemas_asked.set(true);
        self.env.context.schemas.clone()
    }
    fn symbols(&self) -> Option<&symbol_libraries::libraries::Libraries> {
        Some(&self.env.context.symbols).filter(|s| !s.is_empty())
    }
    fn own_library(&self) -> Option<Arc<symbol_libraries::libraries::Library>> {
        self.env.own_library.clone()
    }
    fn module_output(&self, call: &str, output: &str) -> Option<(Related, Option<String>)> {
        let i = self.env.context.callee(call)?.interface()?;
        let o = i.output(output)?;
        let related = Related {
            path: Some(o.path.clone()),
            range: o.name_range.clone(),
            message: match crate::calls::test_name(call) {
                Some(c) if call.starts_with(&crate::calls::component_call("")) => {
                    format!("output `{output}` of component `{c}`")
                }
                Some(run) => format!("output `{output}` of the module of run `{run}`"),
                None => format!("output `{output}` of module `{call}`"),
            },
        };
        Some((related, o.description.clone()))
    }
}

/// An environment with no names, for variable defaults (which cannot refer
/// to anything).
pub(crate) struct Empty(pub(crate) Dialect);

impl Env for Empty {
    fn dialect(&self) -> Dialect {
        self.0
    }
    fn lenient(&self) -> bool {
        true
    }
    fn lookup(&self, _: Space, _: &str) -> Option<(Type, Option<Related>)> {
        None
    }
    fn suggest(&self, _: Space, _: &str) -> Option<String> {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Moves composed move every place as the moves one after another do.
    #[test]
    fn composed_moves_are_the_moves_in_turn() {
        let mut rng = types::testing::Rng::new(7);
        let mut next = |n: usize| rng.below(n);
        for _ in 0..200 {
            let mut moves = Vec::new();
            for _ in 0..next(70) {
                let from = next(400);
                let by = next(20) as isize - 10;
                moves.push((from, by.max(-(from as isize))));
            }
            let steps = composed(&moves);
            for x in 0..500usize {
                let stepwise =
                    moves.iter().fold(x, |x, &(from, by)| if x >= from { x.saturating_add_signed(by) } else { x });
                let shift = steps[steps.partition_point(|(at, _)| *at <= x) - 1].1;
                assert_eq!(x.saturating_add_signed(shift), stepwise, "{x} {moves:?}");
            }
        }
    }

    /// Leaving out the names of a shape too far from the word never
    /// changes the suggestion (typos, case, transpositions, other scripts).
    #[test]
    fn a_suggestion_among_names_of_a_near_shape_is_the_one_among_all() {
        let names: Vec<String> = [
            "l_db_10",
            "l_db_11",
            "l_db_1",
            "L_DB_10",
            "l_bd_10",
            "l_web_26",
            "region",
            "Region",
            "regoin",
            "regions",
            "zone_ünï",
            "zone_uni",
            "a",
            "b",
            "ab",
            "ba",
            "abc",
            "instance_type",
            "instance_types",
            "x_l_db_10",
        ]
        .map(String::from)
        .into();
        let words = [
            "l_db_10",
            "l_db_1x",
            "l_db10",
            "L_db_10",
            "region",
            "rgeion",
            "REGION",
            "zone_üni",
            "a",
            "c",
            "ba",
            "instnce_type",
            "x_l_db_1",
            "l_db_100",
            "zzzz",
            "",
        ];
        let mut env = ModuleEnv::default();
        names.iter().for_each(|n| env.declare(Space::Local, n));
        for word in words {
            let all = types::suggest::closest(word, names.iter().map(String::as_str)).map(String::from);
            assert_eq!(env.suggest(Space::Local, word), all, "{word}");
        }
    }
}
