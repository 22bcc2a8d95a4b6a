//! Who read which name: the reverse of the remembered [`Deps`], so that an
//! edit that changes a name (a rename, a new type) re-checks only the items
//! that looked it up instead of the whole module.

use super::*;

/// A module's names and their readers, as of the last analysis. Built on
/// the first edit that needs it and kept up to date by [`Memo::patch`].
#[derive(Default)]
pub(super) struct Readers {
    /// Items whose checks looked each name up (present or not).
    pub(super) checks: HashMap<(Space, String), HashSet<ItemId>>,
    /// Items whose checks asked for suggestions, per space.
    pub(super) askers: [HashSet<ItemId>; SPACES],
    /// Computed names that refer to or looked up each name: a change of
    /// such a name may change their types or the dependency order.
    pub(super) computed: HashMap<(Space, String), HashSet<(ItemId, usize)>>,
    /// Computed names that asked for suggestions, per space.
    pub(super) computed_askers: [HashSet<(ItemId, usize)>; SPACES],
    /// How many declarations each name has in the module.
    pub(super) declarations: HashMap<(Space, String), u32>,
}

/// The names an item declares, each once per declaration.
pub(super) fn declared_keys(d: &Decls) -> impl Iterator<Item = (Space, &str)> {
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

impl Readers {
    /// The index of the items `items` (per document: ids) as `memo` remembers them.
    pub(super) fn build<'a>(items: impl Iterator<Item = &'a ItemId>, memo: &Memo) -> Readers {
        let mut r = Readers::default();
        for id in items {
            r.item(*id, memo, true);
            if let Some(c) = memo.checks.get(id) {
                r.checks(*id, &c.deps, true);
            }
        }
        r
    }

    /// Adds (or removes) what item `id` declares and what its computed
    /// names read, as `memo` remembers them.
    pub(super) fn item(&mut self, id: ItemId, memo: &Memo, add: bool) {
        let Some(d) = memo.decls.get(&id) else { return };
        for (space, name) in declared_keys(d) {
            let n = self.declarations.entry((space, name.to_string())).or_default();
            *n = if add { *n + 1 } else { n.saturating_sub(1) };
        }
        for (index, c) in d.computed.iter().enumerate() {
            let deps = memo.computed.get(&(id, index)).map(|r| &r.deps);
            let looked = deps.iter().flat_map(|d| d.lookups.iter().map(|(k, _)| k));
            for key in c.refs.iter().chain(looked) {
                toggle(self.computed.entry(key.clone()).or_default(), (id, index), add);
            }
            for (space, _, _) in deps.iter().flat_map(|d| &d.suggested) {
                toggle(&mut self.computed_askers[space_index(*space)], (id, index), add);
            }
        }
    }

    /// Adds (or removes) what the checks of item `id` read.
    pub(super) fn checks(&mut self, id: ItemId, deps: &Deps, add: bool) {
        for (key, _) in &deps.lookups {
            toggle(self.checks.entry(key.clone()).or_default(), id, add);
        }
        for (space, _, _) in &deps.suggested {
            toggle(&mut self.askers[space_index(*space)], id, add);
        }
    }

    pub(super) fn count(&self, space: Space, name: &str) -> u32 {
        self.declarations.get(&(space, name.to_string())).copied().unwrap_or(0)
    }
}
