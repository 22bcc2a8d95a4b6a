//! Bringing the last analysis up to an edit in place: the edited items
//! checked again, and when the edit changes a name (a rename, a new type)
//! the items elsewhere that read it.

use std::ops::Range;
use std::sync::Arc;

use super::names::{assigned, infer_edited_locals};
use super::results::{splice_results, window_results, Window};
use super::{reads_symbols, Change, CheckResult, ComputedResult, GiveUp, Last, Memo, Readers};
use crate::document::{Document, Item, ItemId};
use crate::infer::Space;
use crate::module::decls::{ComputedDecl, Decls};
use crate::module::{analysis_id, module_dialect, shift, var_types, ModuleAnalysis};
use crate::FileKind;

/// The most items an edit may re-parse for [`Memo::patch`] to take it.
pub(in crate::module) const PATCH_ITEMS: usize = 256;

/// An edited item, its declarations and whether each variable it
/// declares is the one its name means.
pub(in crate::module) type Fresh<'a> = (&'a Item, Arc<Decls>, Vec<bool>);

/// An item that declares no variable or PCL name (it may hold locals).
pub(in crate::module) fn inert(d: &Decls) -> bool {
    d.vars.is_empty() && d.names.is_empty() && d.calls.is_empty() && d.resource_decls.is_empty()
}

/// The edit [`Memo::patch`] takes: document `k`'s items `[p, ..)` of the
/// last analysis (`old_window`, with their places) became `new_window`.
pub(super) struct Edit<'d> {
    pub(super) k: usize,
    pub(super) p: usize,
    pub(super) doc: &'d Document,
    pub(super) old_window: Vec<(ItemId, Range<usize>)>,
    pub(super) new_window: &'d [Item],
    pub(super) window: Window,
}

/// What the edited items declare, before and after, and the changes of
/// the module's names that makes.
pub(super) struct Declared<'d> {
    /// The old items' computed names: (item, index, name's place then, declarations).
    pub(super) old_computed: Vec<OldComputed>,
    pub(super) fresh: Vec<Fresh<'d>>,
    pub(super) changes: Vec<Change>,
    /// Defaults' keys whose default no longer counts.
    pub(super) gone: Vec<String>,
}

/// An item outside the edit that reads a changed name, checked again.
pub(super) type Again<'d> = (usize, &'d Item, Arc<Decls>, Arc<CheckResult>);

/// A computed name of an edited item: (item, index, declaration).
pub(super) type NewComputed<'a> = (&'a Item, usize, &'a ComputedDecl);

/// A computed name of an item the edit replaced: (item, index, its
/// name's place then, the item's declarations).
pub(super) type OldComputed = (ItemId, usize, Range<usize>, Arc<Decls>);

/// Computed names inferred again, by (item, index).
pub(super) type Inferred = Vec<((ItemId, usize), ComputedResult)>;

impl Memo {
    /// The last analysis brought up to `docs` when they differ from it by
    /// an edit to one file (a tfvars file too) that keeps its declaring
    /// items in place: resources, outputs and broken items declare nothing;
    /// variables and PCL names are as many at the same starts, locals keep
    /// their references. Only the re-parsed items are checked. A name that
    /// others now see differently (renamed, a new type or type place) is
    /// a change: taken when the name is declared once, before and after;
    /// then the locals that read it are inferred again and the items that
    /// looked it up (tfvars values that assign it too) or whose "did you
    /// mean" answer changes are checked again, found through [`Readers`].
    /// The rest of the last analysis is moved in place, not rebuilt. A
    /// [`GiveUp`] when that does not apply (a full [`run`](crate::module::run) then gives the
    /// same answer), counted in [`Memo::give_ups`].
    /// (The last analysis itself when `docs` are the ones it was made of.)
    pub(in crate::module) fn patch(&mut self, docs: &[Document]) -> Result<Arc<ModuleAnalysis>, GiveUp> {
        let patched = self.patch_uncounted(docs);
        if let Err(why) = patched {
            self.give_ups.count(why);
        }
        patched
    }

    /// [`Self::patch`], in its phases.
    fn patch_uncounted(&mut self, docs: &[Document]) -> Result<Arc<ModuleAnalysis>, GiveUp> {
        let Some(edit) = self.locate(docs)? else { return self.unchanged(docs) };
        let mut readers = self.last.as_mut().ok_or(GiveUp::NoLast)?.readers.take();
        let Declared { old_computed, fresh, mut changes, gone } = self.declarations(&edit)?;
        // Each local keeps its references (so the dependency order and its
        // cycles stay); it is inferred again, and a new name or type is a
        // change like a variable's.
        let new_computed: Vec<NewComputed> = fresh
            .iter()
            .flat_map(|(item, d, _)| d.computed.iter().enumerate().map(move |(index, c)| (*item, index, c)))
            .collect();
        self.edited_locals(&edit, &new_computed, &old_computed, &mut changes)?;

        // From here on the last analysis is taken apart: giving up leaves
        // no last analysis (the full run that follows makes one).
        let Last { mut signature, analysis, mut env, exact, reads_files, whole, symbol_items, merged, .. } =
            self.last.take().ok_or(GiveUp::NoLast)?;
        let (k, doc, dialect) = (edit.k, edit.doc, module_dialect(docs));
        // The module's names where they are now, for what is inferred and
        // checked below (their related locations): those after the window
        // moved (applied as they are read), the changed ones and the
        // edited locals placed anew.
        env.moved(k, edit.window.hi, edit.window.delta);
        // (What the module-level passes learnt of the calls' callees holds
        // while they lead where they did.)
        let same_context = env.context == self.context;
        self.callees(&mut env, &fresh, k, &mut changes)?;
        for c in &changes {
            c.apply(&mut env, k);
        }
        // (Their readers are checked again as the change's: they see none.)
        for key in gone {
            env.names.remove(&(Space::Var, key));
        }
        for &(item, _, c) in &new_computed {
            env.place(&(c.space, c.name.clone()), shift(&c.name_range, item.range.start));
        }
        let mut inferred = infer_edited_locals(&mut env, dialect, doc, &new_computed, &mut changes)?;

        // Items elsewhere that read a changed name are checked again.
        let again = match changes.is_empty() {
            true => Vec::new(),
            false => {
                if !exact {
                    return Err(GiveUp::NotExact);
                }
                // (Built with the last full analysis; again if a probe took it.)
                let readers = readers.get_or_insert_with(|| Readers::build(&signature, self));
                let edited = (&fresh[..], &new_computed[..], &old_computed[..]);
                self.readers_again(docs, &edit, edited, &mut changes, readers, &mut env, &mut inferred)?
            }
        };
        // tfvars values are checked against the variables they assign.
        let assigned = assigned(docs, k, &fresh, &again);
        let var_refs = self.var_refs(docs, &env, &assigned, (k, &fresh))?;
        let var_types = var_types(&var_refs, docs);
        let (rechecked, parts) = self.recheck(docs, &env, dialect, &again, &var_types)?;
        let results = window_results(&edit, &env, dialect, &fresh, &new_computed, &inferred, &var_types);
        let checks = results.4.clone();

        // Nobody else holds the last analysis between keystrokes, so it is
        // changed where it is; a copy only if a request still reads it.
        let mut analysis = Arc::try_unwrap(analysis).unwrap_or_else(|shared| (*shared).clone());
        analysis.context = env.context.clone();
        let mut kept = splice_results(&mut analysis, docs, &edit, results, parts);
        self.settle_passes(docs, &edit, &mut env, (&mut analysis, &mut kept), same_context);

        let reads_files = reads_files
            || inferred.iter().any(|(_, r)| !r.deps.files.is_empty())
            || checks.iter().map(|(_, c)| c).chain(&rechecked).any(|c| !c.deps.files.is_empty());
        self.remember(&edit, readers.as_mut(), &again, fresh, inferred, checks, rechecked);
        self.patches += 1;
        // The items' places: the window's replaced, those after it moved.
        signature[k].3 = doc.revision();
        signature[k].4.splice(&edit.window, edit.new_window.iter().map(|i| (i.id, i.range.clone())).collect());
        (analysis.id, analysis.kept) = (analysis_id(), kept);
        let analysis = Arc::new(analysis);
        self.last = Some(Last {
            signature,
            analysis: analysis.clone(),
            env,
            readers,
            reads_files,
            exact,
            whole,
            collapsed: false,
            symbol_items,
            merged,
        });
        self.prune(docs);
        Ok(analysis)
    }

    /// Phase 1: the one document whose items differ, how many of its first
    /// ones are the same and how many of its last (told by its revision
    /// and edits, else found in one pass over its items); `None` when no
    /// item changed.
    fn locate<'d>(&self, docs: &'d [Document]) -> Result<Option<Edit<'d>>, GiveUp> {
        let last = self.last.as_ref().ok_or(GiveUp::NoLast)?;
        if last.signature.len() != docs.len() {
            return Err(GiveUp::DocumentsChanged);
        }
        // Merging override files is a full analysis's.
        if let Some(why) = last.whole {
            return Err(why);
        }
        let mut changed = None;
        let mut edited = false;
        for (k, ((path, kind, dialect, rev, items), d)) in last.signature.iter().zip(docs).enumerate() {
            if *path != d.file.path || *kind != d.file.kind || *dialect != d.file.dialect {
                return Err(GiveUp::DocumentsChanged);
            }
            if *rev == d.revision() {
                continue;
            }
            edited = true;
            let (p, s) = match d.unchanged_since(*rev) {
                Some(known) => (known.0, Some(known.1)),
                None => {
                    let same = |(j, i): &(usize, &Item)| *j < items.len() && items.at(*j) == (i.id, i.range.clone());
                    (d.items.iter().enumerate().take_while(same).count(), None)
                }
            };
            if (p != items.len() || p != d.items.len()) && changed.replace((k, p, s)).is_some() {
                return Err(GiveUp::SeveralDocuments);
            }
        }
        // Templates read by `templatefile` are not items: after an edit,
        // even one that changed no item, a full run reads them again (the
        // memo keeps what did not change).
        if edited && last.reads_files {
            return Err(GiveUp::ReadsFiles);
        }
        // A file whose syntax errors are one for the file (it does not read
        // as HCL) is judged whole: its items' errors are not its diagnostics.
        // So is one that was: a not-HCL file and an empty one both have no
        // items, and an edit from one to the other changes none (fuzz
        // lsp_session: the old hint was kept).
        if (changed.is_some() || edited) && (last.collapsed || docs.iter().any(Document::collapsed)) {
            return Err(GiveUp::CollapsedDocument);
        }
        let Some((k, p, s)) = changed else { return Ok(None) };
        let doc = &docs[k];
        let (old, new) = (&last.signature[k].4, &doc.items[..]);
        let s = s.unwrap_or_else(|| {
            let old = &old.stored()[p..];
            old.iter().rev().zip(new[p..].iter().rev()).take_while(|((id, _), i)| *id == i.id).count()
        });
        let old_end = old.len() - s;
        let old_window: Vec<(ItemId, Range<usize>)> = (p..old_end).map(|j| old.at(j)).collect();
        let new_window = &new[p..new.len() - s];
        if new_window.len() > PATCH_ITEMS {
            return Err(GiveUp::TooManyItems);
        }
        // The checks of `symbols` blocks judge across items (in the last
        // step of a full run): an edit of an item they read is a full run's.
        if old_window.iter().any(|(id, _)| last.symbol_items.contains(id))
            || new_window.iter().any(|i| reads_symbols(doc, i))
        {
            return Err(GiveUp::SymbolLibraries);
        }
        // Override files merge into the blocks of their keys (override.rs):
        // an edit of one, or of a block it merges into (before or after),
        // is a full run's.
        if let Some(m) = &last.merged {
            // (tfvars values are checked against the merged variables,
            // which only a full run makes.)
            if crate::module::overrides::is_override(&doc.file.path)
                || doc.file.kind == FileKind::Tfvars
                || old_window.iter().any(|(id, _)| m.items.contains(id))
                || new_window.iter().any(|i| m.merges_into(doc, i))
            {
                return Err(GiveUp::OverrideFiles);
            }
        }
        // Positions separate the items' results only if the changed items
        // lie strictly between the unchanged ones.
        let lo = if p > 0 { new[p - 1].range.end + 1 } else { 0 };
        let (hi, delta) = match ((old_end < old.len()).then(|| old.at(old_end)), new.get(new.len() - s)) {
            (Some((_, o)), Some(n)) if s > 0 => (o.start, n.range.start as isize - o.start as isize),
            _ => (usize::MAX, 0),
        };
        let new_hi = hi.saturating_add_signed(delta);
        if old_window.iter().any(|(_, r)| r.start < lo || r.end >= hi)
            || new_window.iter().any(|i| i.range.start < lo || i.range.end >= new_hi)
        {
            return Err(GiveUp::ItemsNotApart);
        }
        Ok(Some(Edit { k, p, doc, old_window, new_window, window: Window { lo, hi, delta } }))
    }

    /// Documents whose edits changed no item: the last analysis, at the
    /// revisions they are now (unless what the calls lead to changed).
    fn unchanged(&mut self, docs: &[Document]) -> Result<Arc<ModuleAnalysis>, GiveUp> {
        let last = self.last.as_mut().ok_or(GiveUp::NoLast)?;
        if last.env.context != self.context {
            return Err(GiveUp::ContextChanged);
        }
        for (entry, d) in last.signature.iter_mut().zip(docs) {
            entry.3 = d.revision();
        }
        Ok(last.analysis.clone())
    }
}
