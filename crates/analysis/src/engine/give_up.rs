//! Why an edit was not taken in place: one [`GiveUp`] per reason, counted
//! per memo ([`GiveUps`]). A give-up is never wrong (a full run gives the
//! same answer, tests/it/incremental/), only slower; naming and counting
//! each lets a test assert that an edit takes the way it should
//! (rust-analyzer's coverage marks) and a benchmark say which edits ran
//! in full and why.

/// Why [`super::Memo::patch`] left an analysis to a full run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GiveUp {
    /// No last analysis to bring up to the edit: the first analysis, or
    /// one after the memo forgot it (a new context or symbol library, a
    /// stopped run, a patch that gave up after taking it apart).
    NoLast,
    /// A document came, went, or is another file, kind or dialect.
    DocumentsChanged,
    /// The edit is of an override file, or of a block one merges into
    /// (before or after the edit): their merge judges across items.
    OverrideFiles,
    /// The module deploys stacks (`deployment` blocks): judged whole.
    StackDeployments,
    /// The edit is of a `symbols` block or a `language` block (whose
    /// checks judge across items), or the module has `.sym.hcl` files
    /// (their library types items across files).
    SymbolLibraries,
    /// A Terragrunt configuration that merges included files.
    TerragruntMerge,
    /// An item read a file (a `templatefile` template): a full run reads
    /// it again.
    ReadsFiles,
    /// A document does not read as HCL (its syntax errors are one for the
    /// file), or did before the edit.
    CollapsedDocument,
    /// No item changed, but what the calls lead to did (a new context).
    ContextChanged,
    /// Items changed in more than one document.
    SeveralDocuments,
    /// The edit re-parsed more items than a patch takes
    /// ([`super::patch::PATCH_ITEMS`]).
    TooManyItems,
    /// The edited items do not lie strictly between the unchanged ones
    /// (their results could not be told apart by position). No edit
    /// reaches it: a document's items never touch (the scanner ends an
    /// item before the line break, and two blocks on one line are one
    /// item; tests/it/incremental/give_ups.rs, `items_never_touch`). Kept
    /// so that a scanner that one day splits a line gives a full run,
    /// not results told apart wrongly.
    ItemsNotApart,
    /// The memo lacks an item's results: an analysis of other documents
    /// in between replaced them.
    Forgotten,
    /// The items that declare names are not as many, at the same starts,
    /// with as many declarations (a variable, output, resource, call or
    /// PCL name came or went).
    DeclarationsMoved,
    /// A variable was renamed while its default changed.
    DefaultRenamed,
    /// The edited variable is not the one its name means (declared twice).
    NotTheWinner,
    /// A `const` variable changed (its value may build a module source).
    ConstVariable,
    /// A PCL name changed what it is, or is not the one its name means.
    PclNameChanged,
    /// The edited items' locals are not as many with the same references
    /// (the dependency order would change).
    LocalReferencesChanged,
    /// A local has no remembered result (it is in a cycle, or broken).
    UninferredLocal,
    /// A changed name is declared more than once before or after the
    /// edit, or two names were swapped.
    NameNotUnique,
    /// The provider schemas changed with the edit.
    SchemasChanged,
    /// What a call leads to changed, and the call is not among the edited
    /// items.
    CalleeChangedElsewhere,
    /// A name changed, and the memo's results are not exactly the last
    /// analysis's (another analysis in between).
    NotExact,
    /// A renamed local would close a cycle (or that could not be told
    /// within the search's bound).
    NewCycle,
    /// A change spread to more locals than a patch infers again.
    CascadeTooLong,
    /// An item that reads a changed name touches a neighbour. No edit
    /// reaches it, for the reason [`GiveUp::ItemsNotApart`] gives.
    ReaderNotApart,
    /// The memo and the last analysis disagree about a name's place (a
    /// state the engine does not expect; a full run repairs it). No edit
    /// reaches it: the last analysis's names and the memo's declarations
    /// are made by the same run and changed together by each patch (an
    /// analysis of other documents in between marks the last analysis not
    /// exact, [`GiveUp::NotExact`], or drops its items,
    /// [`GiveUp::Forgotten`]). Each lookup that would otherwise index out
    /// of range or unwrap says this instead.
    Inconsistent,
}

impl GiveUp {
    /// Every reason, in declaration order.
    pub const ALL: [GiveUp; 28] = [
        GiveUp::NoLast,
        GiveUp::DocumentsChanged,
        GiveUp::OverrideFiles,
        GiveUp::StackDeployments,
        GiveUp::SymbolLibraries,
        GiveUp::TerragruntMerge,
        GiveUp::ReadsFiles,
        GiveUp::CollapsedDocument,
        GiveUp::ContextChanged,
        GiveUp::SeveralDocuments,
        GiveUp::TooManyItems,
        GiveUp::ItemsNotApart,
        GiveUp::Forgotten,
        GiveUp::DeclarationsMoved,
        GiveUp::DefaultRenamed,
        GiveUp::NotTheWinner,
        GiveUp::ConstVariable,
        GiveUp::PclNameChanged,
        GiveUp::LocalReferencesChanged,
        GiveUp::UninferredLocal,
        GiveUp::NameNotUnique,
        GiveUp::SchemasChanged,
        GiveUp::CalleeChangedElsewhere,
        GiveUp::NotExact,
        GiveUp::NewCycle,
        GiveUp::CascadeTooLong,
        GiveUp::ReaderNotApart,
        GiveUp::Inconsistent,
    ];
}

/// How many times each [`GiveUp`] happened in one memo: a counter per
/// reason, bumped once per analysis that ran in full.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GiveUps([u32; GiveUp::ALL.len()]);

impl GiveUps {
    pub(in crate::module) fn count(&mut self, why: GiveUp) {
        self.0[why as usize] += 1;
    }

    /// How many analyses gave up for `why`.
    pub fn get(&self, why: GiveUp) -> u32 {
        self.0[why as usize]
    }

    /// The reasons that happened, with their counts.
    pub fn nonzero(&self) -> impl Iterator<Item = (GiveUp, u32)> + '_ {
        GiveUp::ALL.into_iter().map(|g| (g, self.get(g))).filter(|(_, n)| *n > 0)
    }

    /// All analyses that gave up, whatever the reason.
    pub fn total(&self) -> u32 {
        self.0.iter().sum()
    }
}

impl std::fmt::Display for GiveUps {
    /// `Reason=count` for each reason that happened, or `none`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut any = false;
        for (g, n) in self.nonzero() {
            write!(f, "{}{g:?}={n}", if any { " " } else { "" })?;
            any = true;
        }
        if !any {
            f.write_str("none")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::GiveUp;

    /// `ALL` lists each variant at its own index (the counters rely on it).
    #[test]
    fn all_lists_every_reason_at_its_index() {
        for (i, g) in GiveUp::ALL.iter().enumerate() {
            assert_eq!(*g as usize, i, "{g:?}");
        }
    }
}
