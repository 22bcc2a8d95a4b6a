//! Analysis of whole modules (docs/spec/analysis.md): names, expression
//! types, check sites and diagnostics, as plain data with byte ranges.
//!
//! The pipeline per module: each file is split into top-level items and
//! each item parsed on its own ([`document`]); declarations are collected
//! across the module's files and name types computed in dependency order
//! ([`module`]); then every expression is inferred and checked ([`infer`]).

pub mod callers;
pub mod calls;
pub mod dialects;
pub mod document;
pub mod functions;
pub mod ids;
pub mod infer;
pub mod module;
pub mod sync;
pub mod text;
pub mod workspace;

use std::path::{Path, PathBuf};
use std::sync::Arc;

pub use calls::{Callee, Context, Interface};
pub use document::{shown_diagnostics, Document, Item};
pub use infer::Typed;
pub use module::{
    analyze, analyze_probe, analyze_with, Call, GiveUp, GiveUps, Kept, Memo, ModuleAnalysis, NodeAt, Probe, Stop,
    Symbol, SymbolKind, TypeNodes,
};

use syntax::Dialect;

/// What a file is, from its name. Decides which blocks it may hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FileKind {
    /// `*.tf`, `*.tofu`, `*.pkr.hcl`, and the JSON syntax `*.tf.json`,
    /// `*.tofu.json` (read lowered to native syntax: `syntax::json`)
    Terraform,
    /// `*.tfvars`, `*.pkrvars.hcl`
    Tfvars,
    /// `*.tftest.hcl` (OpenTofu: `*.tofutest.hcl`): a unit of its own per
    /// directory, whose module under test is a call (docs/spec/tests.md).
    TfTest,
    /// `*.pp`
    Pcl,
    /// `*.hcl`, and Nomad's `*.nomad`
    Hcl,
}

impl FileKind {
    /// The kind of a file we analyse, or `None` for files we skip: what the
    /// registered dialects' rules say (src/dialects/).
    pub fn for_path(path: &Path) -> Option<FileKind> {
        dialects::rule_for(path).map(|r| r.kind)
    }

    /// Files of one family in one directory form a module.
    pub fn family(self) -> Family {
        match self {
            FileKind::Terraform | FileKind::Tfvars => Family::Terraform,
            FileKind::TfTest => Family::TfTest,
            FileKind::Pcl => Family::Pcl,
            FileKind::Hcl => Family::Hcl,
        }
    }
}

pub use dialects::dialect_of;
pub use dialects::nomad::{is_nomad, is_nomad_variable_spec};
pub use dialects::opentofu::{tofu_alternative, tofu_files};
pub use dialects::policy::is_policy_file;
pub use dialects::stacks::is_stack_component;
pub use dialects::terraform::is_query_file;
pub use dialects::terragrunt::is_terragrunt_unit;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Family {
    Terraform,
    Pcl,
    Hcl,
    /// A directory's test files: not part of its module (Terraform loads
    /// them apart), they call the module under test.
    TfTest,
    /// A Nomad job file (`*.nomad`, `*.nomad.hcl`) or variable
    /// specification (`*.nv.hcl`): each is a unit of its own, as Nomad
    /// reads one such file at a time (analysis.md §8).
    Nomad,
    /// A Terraform policy file (`*.policy.hcl`): each is a unit of its own,
    /// as Terraform policy "evaluates each policy file in a given directory
    /// separately" (developer.hashicorp.com/terraform/policy/reference/policy).
    Policy,
}

impl Family {
    /// Whether each file of the family is a unit of its own (its unit is
    /// the file, not its directory).
    pub fn file_is_unit(self) -> bool {
        matches!(self, Family::Nomad | Family::Policy)
    }
}

/// Whether a plain HCL file's blocks call modules: a stack's components, a
/// Terragrunt unit's `terraform { source }`.
pub fn calls_modules(path: &Path) -> bool {
    is_stack_component(path) || is_terragrunt_unit(path)
}

/// The family of a file we analyse, or `None` for files we skip.
pub fn family_of(path: &Path) -> Option<Family> {
    dialects::rule_for(path).map(|r| r.family)
}

/// The unit a file of `family` is analysed in: its directory, or for a
/// Nomad job file or variable specification the file itself (a module key is (unit, family)).
pub fn unit_of(path: &Path, family: Family) -> Option<PathBuf> {
    match family {
        f if f.file_is_unit() => Some(path.to_path_buf()),
        _ => path.parent().map(Path::to_path_buf),
    }
}

/// A file's text, shared. A [`TextBuf`], not a `str`: the language server
/// changes an open document's text in place for a keystroke when nothing
/// else holds it, instead of copying megabytes into a new one.
pub type Text = Arc<TextBuf>;

pub use text::TextBuf;

/// A file's text and how to read it.
#[derive(Clone, Debug)]
pub struct SourceFile {
    pub path: PathBuf,
    pub text: Text,
    pub kind: FileKind,
    pub dialect: Dialect,
}

impl SourceFile {
    /// A file with the dialect its name implies.
    pub fn new(path: impl Into<PathBuf>, text: impl Into<String>) -> Option<SourceFile> {
        let path = path.into();
        let kind = FileKind::for_path(&path)?;
        let dialect = dialect_of(&path);
        Some(SourceFile { path, text: Arc::new(TextBuf::from(text.into())), kind, dialect })
    }
}
