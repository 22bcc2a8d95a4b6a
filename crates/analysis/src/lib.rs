//! Analysis of whole modules (docs/spec/analysis.md): names, expression
//! types, check sites and diagnostics, as plain data with byte ranges.
//!
//! The pipeline per module: each file is split into top-level items and
//! each item parsed on its own ([`document`]); declarations are collected
//! across the module's files and name types computed in dependency order
//! ([`module`]); then every expression is inferred and checked ([`infer`]).

pub mod callers;
pub mod calls;
pub mod document;
pub mod functions;
pub mod infer;
pub mod module;
pub mod sync;
pub mod text;
pub mod workspace;

use std::path::{Path, PathBuf};
use std::sync::Arc;

pub use calls::{Callee, Context, Interface};
pub use document::{Document, Item};
pub use infer::Typed;
pub use module::{
    analyze, analyze_probe, analyze_with, Call, Kept, Memo, ModuleAnalysis, NodeAt, Probe, Symbol, SymbolKind,
    TypeNodes,
};

use syntax::Dialect;

/// What a file is, from its name. Decides which blocks it may hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FileKind {
    /// `*.tf`, `*.pkr.hcl`
    Terraform,
    /// `*.tfvars`, `*.pkrvars.hcl`
    Tfvars,
    /// `*.tftest.hcl`
    TfTest,
    /// `*.pp`
    Pcl,
    /// `*.hcl`
    Hcl,
}

impl FileKind {
    /// The kind of a file we analyse, or `None` for files we skip.
    pub fn for_path(path: &Path) -> Option<FileKind> {
        let name = path.file_name()?.to_str()?;
        Some(if name.ends_with(".tftest.hcl") {
            FileKind::TfTest
        } else if name.ends_with(".tfvars") || name.ends_with(".pkrvars.hcl") {
            FileKind::Tfvars
        } else if name.ends_with(".tf") || name.ends_with(".pkr.hcl") {
            FileKind::Terraform
        } else if name.ends_with(".pp") {
            FileKind::Pcl
        } else if name.ends_with(".hcl") {
            FileKind::Hcl
        } else {
            return None;
        })
    }

    /// Files of one family in one directory form a module.
    pub fn family(self) -> Family {
        match self {
            FileKind::Terraform | FileKind::Tfvars | FileKind::TfTest => Family::Terraform,
            FileKind::Pcl => Family::Pcl,
            FileKind::Hcl => Family::Hcl,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Family {
    Terraform,
    Pcl,
    Hcl,
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
        let dialect = Dialect::for_path(&path);
        Some(SourceFile { path, text: Arc::new(TextBuf::from(text.into())), kind, dialect })
    }
}
