//! Who read which name: the reverse of the remembered [`Deps`], so that an
//! edit that changes a name (a rename, a new type) re-checks only the items
//! that looked it up instead of the whole module.

use std::hash::Hash;
use std::ops::Range;

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

use super::{Change, Deps, Memo, Signature};
use crate::document::{Document, Item, ItemId};
use crate::infer::Space;
use crate::module::decls::Decls;
use crate::module::env::{ModuleEnv, Shape};

/// A module's names and their readers, as of the last analysis. Built on
/// the first edit that needs it and kept up to date by [`Memo::patch`].
#[derive(Default)]
pub(in crate::module) struct Readers {
    /// Items whose checks looked each name up (present or not).
    pub(in crate::module) checks: HashMap<(Space, String), HashSet<ItemId>>,
    /// The words suggestions were asked for, with their askers.
    pub(in crate::module) asked: HashMap<(Space, String), Asked>,
    /// Computed names that refer to or looked up each name: a change of
    /// such a name may change their types or the dependency order.
    pub(in crate::module) computed: HashMap<(Space, String), HashSet<(ItemId, usize)>>,
    /// How many declarations each name has in the module.
    pub(in crate::module) declarations: HashMap<(Space, String), u32>,
    /// Where each item is: (document, index among its items). Kept up by
    /// patches that keep the number of items; found again when stale.
    places: HashMap<ItemId, (usize, usize)>,
}

/// Who asked for suggestions for a word, and the answer they all got.
#[derive(Default)]
pub(in crate::module) struct Asked {
    pub(in crate::module) answer: Option<String>,
    /// Items whose checks asked.
    pub(in crate::module) checks: HashSet<ItemId>,
    /// Computed names that asked.
    pub(in crate::module) computed: HashSet<(ItemId, usize)>,
}

/// The names an item declares, each once per declaration.
pub(in crate::module) fn declared_keys(d: &Decls) -> impl Iterator<Item = (Space, &str)> {
    let vars = d.vars.iter().map(|v| (Space::Var, v.name.as_str()));
    let names = d.names.iter().map(|n| (Space::Pcl, n.name.as_str()));
    vars.chain(names).chain(d.computed.iter().map(|c| (c.space, c.name.as_str())))
}

fn toggle<T: Hash + Eq>(set: &mut HashSet<T>, x: T, add: bool) {
    if add {
        set.insert(x);
    } else {
        set.remove(&x);
    }
}

/// [`toggle`] in the set of `key`, the key copied only when new.
fn toggle_in<T: Hash + Eq>(map: &mut HashMap<(Space, String), HashSet<T>>, key: &(Space, String), x: T, add: bool) {
    match map.get_mut(key) {
        Some(set) => toggle(set, x, add),
        None if add => {
            map.insert(key.clone(), std::iter::once(x).collect());
        }
        None => {}
    }
}

impl Readers {
    /// The index of the items of `signature` as `memo` remembers them.
    pub(in crate::module) fn build(signature: &Signature, memo: &Memo) -> Readers {
        let mut r = Readers::default();
        for (di, (_, _, _, _, items)) in signature.iter().enumerate() {
            for (j, (id, _)) in items.stored().iter().enumerate() {
                r.item(*id, memo, true);
                if let Some(c) = memo.checks.get(id) {
                    r.checks(*id, &c.deps, true);
                }
                r.places.insert(*id, (di, j));
            }
        }
        r
    }

    /// Where item `id` is in `docs` (`None` when it is not there).
    pub(in crate::module) fn place(&mut self, docs: &[Document], id: ItemId) -> Option<(usize, usize)> {
        let at = |&(di, j): &(usize, usize)| docs.get(di).and_then(|d| d.items.get(j)).is_some_and(|i| i.id == id);
        if let Some(p) = self.places.get(&id).filter(|p| at(p)) {
            return Some(*p);
        }
        self.places.clear();
        for (di, d) in docs.iter().enumerate() {
            self.places.extend(d.items.iter().enumerate().map(|(j, i)| (i.id, (di, j))));
        }
        self.places.get(&id).copied()
    }

    /// Items `old` of document `k` replaced by `new` from index `p` on.
    pub(in crate::module) fn replaced(&mut self, k: usize, p: usize, old: &[(ItemId, Range<usize>)], new: &[Item]) {
        if old.len() != new.len() {
            // The items after them moved: found again when needed.
            self.places.clear();
            return;
        }
        for (j, ((was, _), item)) in old.iter().zip(new).enumerate() {
            self.places.remove(was);
            self.places.insert(item.id, (k, p + j));
        }
    }

    /// Adds (or removes) what item `id` declares and what its computed
    /// names read, as `memo` remembers them.
    pub(in crate::module) fn item(&mut self, id: ItemId, memo: &Memo, add: bool) {
        let Some(d) = memo.decls.get(&id) else { return };
        for (space, name) in declared_keys(d) {
            let n = self.declarations.entry((space, name.to_string())).or_default();
            *n = if add { *n + 1 } else { n.saturating_sub(1) };
        }
        for (index, c) in d.computed.iter().enumerate() {
            let deps = memo.computed.get(&(id, index)).map(|r| &r.deps);
            let looked = deps.iter().flat_map(|d| d.lookups.iter().map(|(k, _)| k));
            for key in c.refs.iter().chain(looked) {
                toggle_in(&mut self.computed, key, (id, index), add);
            }
            for (space, word, answer) in deps.iter().flat_map(|d| &d.suggested) {
                self.ask((*space, word), answer, add, |a| toggle(&mut a.computed, (id, index), add));
            }
        }
    }

    /// Adds (or removes) what the checks of item `id` read.
    pub(in crate::module) fn checks(&mut self, id: ItemId, deps: &Deps, add: bool) {
        for (key, _) in &deps.lookups {
            toggle_in(&mut self.checks, key, id, add);
        }
        // (A check that consulted a call's callee reads `module.NAME` too.)
        for (call, _) in &deps.calls {
            toggle_in(&mut self.checks, &(Space::Module, call.clone()), id, add);
        }
        for (space, word, answer) in &deps.suggested {
            self.ask((*space, word), answer, add, |a| toggle(&mut a.checks, id, add));
        }
    }

    /// Changes the askers of `word` (asked in `space`); a new asker's
    /// `answer` is everyone's (they are asked again when it changes).
    fn ask(
        &mut self,
        (space, word): (Space, &str),
        answer: &Option<String>,
        add: bool,
        change: impl FnOnce(&mut Asked),
    ) {
        let key = (space, word.to_string());
        let asked = self.asked.entry(key.clone()).or_default();
        change(asked);
        if asked.checks.is_empty() && asked.computed.is_empty() {
            self.asked.remove(&key);
        } else if add && asked.answer != *answer {
            asked.answer = answer.clone();
        }
    }

    /// The words whose suggestion changes with the renames among
    /// `changes` (`env` has them): an answer is the closest declared name,
    /// so it changes only to a new name, or when the answer was renamed.
    pub(in crate::module) fn answers_changed<'a>(&'a self, changes: &[Change], env: &ModuleEnv) -> Vec<&'a Asked> {
        let mut out = Vec::new();
        for space in [Space::Var, Space::Local, Space::Pcl, Space::Module, Space::Resource] {
            let renamed: Vec<&Change> = changes.iter().filter(|c| c.space == space && c.old != c.new).collect();
            if renamed.is_empty() {
                continue;
            }
            let shapes: Vec<Shape> = renamed.iter().map(|c| Shape::of(&c.new)).collect();
            for ((_, word), asked) in self.asked.iter().filter(|((s, _), _)| *s == space) {
                // A word that is now declared: its askers looked it up
                // (every suggestion follows a failed lookup), so they are
                // checked again as its readers; no answer to work out.
                if renamed.iter().any(|c| c.new == *word) {
                    continue;
                }
                let now = match &asked.answer {
                    Some(a) if renamed.iter().any(|c| c.old == *a) => env.suggest(space, word),
                    a => {
                        // (A new name too far from the word leaves its answer.)
                        let shape = Shape::of(word);
                        if !shapes.iter().any(|s| s.near(shape, shape.limit())) {
                            continue;
                        }
                        let names = a.iter().chain(renamed.iter().map(|c| &c.new));
                        types::suggest::closest(word, names.map(String::as_str)).map(String::from)
                    }
                };
                if now != asked.answer {
                    out.push(asked);
                }
            }
        }
        out
    }

    pub(in crate::module) fn count(&self, space: Space, name: &str) -> u32 {
        self.declarations.get(&(space, name.to_string())).copied().unwrap_or(0)
    }
}
