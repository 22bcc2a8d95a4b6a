//! The dialects, and the files that carry values into a module: one
//! folder each, behind one trait ([`Handler`]), registered in one list
//! ([`ALL`]). docs/architecture.md, "Adding a dialect".
//!
//! A handler says which files it reads (by name: [`FileRule`]), which root
//! names its files scope, which values it hands to which variables
//! ([`Carrier`]) and runs its own checks of a top-level block of its files.
//! What a file is (its [`FileKind`], [`Family`] and [`Dialect`]) is read
//! from the rules of every registered handler: the most specific rule a
//! name matches wins (a whole name over a suffix, a longer suffix over a
//! shorter one), so the order of [`ALL`] decides nothing.
//!
//! A folder also holds its dialect's analysis code (`checks.rs`,
//! `merge.rs`, …) as modules of its own, `dialects::<name>::<file>`,
//! which the passes (`module`, `infer`, `functions`) call by that path
//! and which import the passes' helpers they use by name; its `mod.rs`
//! is the handler.

use std::ops::Range;
use std::path::Path;

use hcl_edit::expr::TraversalOperator;
use hcl_edit::structure::Block;
use hcl_edit::Decorated;
use syntax::Dialect;
use types::Type;

use crate::document::Document;
use crate::infer::{Infer, Note};
use crate::{Family, FileKind};

pub mod hcl;
pub mod nomad;
pub mod opentofu;
pub mod packer;
pub mod pcl;
pub mod policy;
pub mod pulumi_hcl;
pub mod stacks;
pub mod symbol_libraries;
pub mod terraform;
pub mod terragrunt;
pub mod tftest;

/// Every dialect, one line each: adding a dialect adds its folder and a line here.
pub static ALL: &[&dyn Handler] = &[
    &terraform::Terraform,
    &opentofu::OpenTofu,
    &tftest::Tests,
    &packer::Packer,
    &pcl::Pcl,
    &nomad::Nomad,
    &policy::Policy,
    &symbol_libraries::SymbolLibraries,
    &stacks::Stacks,
    &terragrunt::Terragrunt,
    &pulumi_hcl::PulumiHcl,
    &hcl::Hcl,
];

/// One dialect or carrier of values.
pub trait Handler: Sync {
    /// Its folder under src/dialects/.
    fn name(&self) -> &'static str;

    /// The files it reads.
    fn files(&self) -> &'static [FileRule] {
        &[]
    }

    /// The root names its files scope beyond the Terraform language's
    /// (`dependency.NAME`, `values`, `run.NAME`, …).
    fn roots(&self) -> &'static [&'static str] {
        &[]
    }

    /// Where its files hand values to variables.
    fn carriers(&self) -> &'static [Carrier] {
        &[]
    }

    /// Its own checks of a top-level block `b` of `doc`; `true` when the
    /// block is wholly its own (no other check applies).
    fn check_block(&self, _inf: &mut Infer, _doc: &Document, _b: &Block) -> bool {
        false
    }

    /// The type of a reference `name…` whose root is one of its
    /// [`Handler::roots`] (`dependency.NAME.outputs.X`), noted as it goes;
    /// `None` leaves it to the core, which reports a root it does not know.
    fn reference(&self, _inf: &mut Infer, _name: &str, _range: &Range<usize>, _ops: &[Step]) -> Option<(Type, Note)> {
        None
    }
}

/// One step of a traversal.
pub type Step = Decorated<TraversalOperator>;

/// A reference whose root a registered handler scopes: the answer of the
/// first handler whose [`Handler::roots`] name it and that answers.
pub(crate) fn reference(inf: &mut Infer, name: &str, range: &Range<usize>, ops: &[Step]) -> Option<(Type, Note)> {
    ALL.iter().filter(|h| h.roots().contains(&name)).find_map(|h| h.reference(inf, name, range, ops))
}

/// How a rule matches a file's name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Name {
    /// Names that end so (`.tf`, `.nomad.hcl`).
    Suffix(&'static str),
    /// That name exactly (`terragrunt.hcl`).
    Whole(&'static str),
}

/// A kind of file a dialect reads, and what such a file is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FileRule {
    pub name: Name,
    pub kind: FileKind,
    pub family: Family,
    pub dialect: Dialect,
}

impl FileRule {
    /// A rule for names ending in `suffix`.
    pub const fn suffix(suffix: &'static str, kind: FileKind, family: Family, dialect: Dialect) -> FileRule {
        FileRule { name: Name::Suffix(suffix), kind, family, dialect }
    }

    /// A plain HCL file of its directory's module, by its whole name.
    pub const fn whole(name: &'static str) -> FileRule {
        FileRule { name: Name::Whole(name), kind: FileKind::Hcl, family: Family::Hcl, dialect: Dialect::Hcl }
    }

    /// A plain HCL file of its directory's module, by the end of its name.
    pub const fn hcl(suffix: &'static str) -> FileRule {
        FileRule::suffix(suffix, FileKind::Hcl, Family::Hcl, Dialect::Hcl)
    }

    /// Whether `path`'s file name is one this rule reads.
    pub fn matches(&self, path: &Path) -> bool {
        file_name(path).is_some_and(|n| self.matches_name(n))
    }

    fn matches_name(&self, name: &str) -> bool {
        match self.name {
            Name::Suffix(s) => name.ends_with(s),
            Name::Whole(w) => name == w,
        }
    }

    /// How specific the rule is: a whole name beats every suffix, a longer
    /// suffix a shorter one.
    fn rank(&self) -> usize {
        match self.name {
            Name::Suffix(s) => s.len(),
            Name::Whole(_) => usize::MAX,
        }
    }
}

/// A value a file hands to a variable: `from` (an attribute or block of
/// the carrier's file) goes to `to` (whose variables).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Carrier {
    pub from: &'static str,
    pub to: &'static str,
}

/// Whether any of `rules` reads `path`.
pub fn any_matches(rules: &[FileRule], path: &Path) -> bool {
    rules.iter().any(|r| r.matches(path))
}

fn file_name(path: &Path) -> Option<&str> {
    path.file_name()?.to_str()
}

/// The most specific rule of a registered dialect that reads `path`, or
/// `None` for a file no dialect reads.
pub fn rule_for(path: &Path) -> Option<&'static FileRule> {
    let name = file_name(path)?;
    ALL.iter().flat_map(|h| h.files()).filter(|r| r.matches_name(name)).max_by_key(|r| r.rank())
}

/// The dialect a file name implies; anything no dialect reads is plain HCL.
pub fn dialect_of(path: &Path) -> Dialect {
    rule_for(path).map_or(Dialect::Hcl, |r| r.dialect)
}

/// The registered dialects' own checks of a top-level block; `true` when
/// one of them took the block as wholly its own.
pub fn check_block(inf: &mut Infer, doc: &Document, b: &Block) -> bool {
    ALL.iter().any(|h| h.check_block(inf, doc, b))
}
