//! The names of a module as inference sees them, and what each lookup
//! and suggestion asked.

use super::*;

// ---------------------------------------------------------------------------
// The names of a module.

/// A named value's type and where it is declared (absolute).
pub(super) struct Entry {
    pub(super) ty: Type,
    pub(super) doc: usize,
    pub(super) range: Range<usize>,
    pub(super) what: &'static str,
}

#[derive(Default)]
pub(super) struct ModuleEnv {
    /// The module's files, by document index (for related locations).
    pub(super) paths: Vec<std::path::PathBuf>,
    pub(super) names: HashMap<(Space, String), Entry>,
    /// Every name declared per space, for "did you mean" (known before any
    /// local is inferred, so suggestions do not depend on inference order).
    pub(super) declared: [Vec<String>; SPACES],
    pub(super) suggestions: Mutex<HashMap<(Space, String), Option<String>>>,
    /// What the module calls lead to.
    pub(super) context: Context,
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
        self.names.entry((space, name.to_string())).or_insert(Entry { ty, doc, range, what });
    }

    pub(super) fn lookup(&self, space: Space, name: &str) -> Option<(Type, Option<Related>)> {
        let e = self.names.get(&(space, name.to_string()))?;
        let related = Related {
            path: Some(self.paths[e.doc].clone()),
            range: e.range.clone(),
            message: format!("{} `{name}` is declared here", e.what),
        };
        Some((e.ty.clone(), Some(related)))
    }

    pub(super) fn suggest(&self, space: Space, word: &str) -> Option<String> {
        // Generated and half-typed code repeats its unknown names: each is
        // looked up once per module, not once per use.
        let key = (space, word.to_string());
        let mut memo = self.suggestions.lock().unwrap_or_else(|e| e.into_inner());
        memo.entry(key)
            .or_insert_with(|| {
                let names = self.declared[space_index(space)].iter().map(String::as_str);
                crate::suggest::closest(word, names).map(String::from)
            })
            .clone()
    }

    /// Brings the remembered suggestions up to a rename in `space` (the
    /// declared names already renamed): a suggestion is the closest name,
    /// ties to the first in sort order, so the renamed one only competes
    /// with the answer; an answer that was the old name is asked again.
    pub(super) fn renamed(&mut self, space: Space, old: &str, new: &str) {
        let memo = self.suggestions.get_mut().unwrap_or_else(|e| e.into_inner());
        memo.retain(|(s, _), answer| *s != space || answer.as_deref() != Some(old));
        for ((_, word), answer) in memo.iter_mut().filter(|((s, _), _)| *s == space) {
            let best = match answer.as_deref() {
                Some(a) => crate::suggest::closest(word, [a, new]),
                None => crate::suggest::closest(word, [new]),
            };
            *answer = best.map(String::from);
        }
    }

    pub(super) fn type_of(&self, key: &(Space, String)) -> Option<&Type> {
        self.names.get(key).map(|e| &e.ty)
    }
}

/// The module's names as one file sees them, recording what it asks.
pub(super) struct View<'a> {
    pub(super) env: &'a ModuleEnv,
    pub(super) dialect: Dialect,
    pub(super) lenient: bool,
    pub(super) lookups: RefCell<Vec<(Space, String)>>,
    pub(super) suggested: RefCell<Vec<(Space, String)>>,
    pub(super) callees: RefCell<Vec<String>>,
    pub(super) schemas_asked: std::cell::Cell<bool>,
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
        let mut words = self.suggested.take();
        words.sort_unstable_by(|a, b| (space_index(a.0), &a.1).cmp(&(space_index(b.0), &b.1)));
        words.dedup();
        let suggested = words
            .into_iter()
            .map(|(space, word)| {
                let answer = self.env.suggest(space, &word);
                (space, word, answer)
            })
            .collect();
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
        Deps { dialect: self.dialect, lookups, suggested, calls, schemas }
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
    fn suggest(&self, space: Space, word: &str) -> Option<String> {
        self.suggested.borrow_mut().push((space, word.to_string()));
        self.env.suggest(space, word)
    }
    fn callee(&self, call: &str) -> Option<Callee> {
        self.callees.borrow_mut().push(call.to_string());
        self.env.context.callee(call).cloned()
    }
    fn schemas(&self) -> Option<Arc<Schemas>> {
        self.schemas_asked.set(true);
        self.env.context.schemas.clone()
    }
    fn module_output(&self, call: &str, output: &str) -> Option<(Related, Option<String>)> {
        let i = self.env.context.callee(call)?.interface()?;
        let o = i.output(output)?;
        let related = Related {
            path: Some(o.path.clone()),
            range: o.name_range.clone(),
            message: format!("output `{output}` of module `{call}`"),
        };
        Some((related, o.description.clone()))
    }
}

/// An environment with no names, for variable defaults (which cannot refer
/// to anything).
pub(super) struct Empty(pub(super) Dialect);

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
