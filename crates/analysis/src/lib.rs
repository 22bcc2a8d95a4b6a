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
pub mod ids;
pub mod infer;
pub mod module;
#[path = "dialects/pulumi_hcl/project.rs"]
pub mod pulumi_project;
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
    /// The kind of a file we analyse, or `None` for files we skip.
    pub fn for_path(path: &Path) -> Option<FileKind> {
        let name = path.file_name()?.to_str()?;
        Some(if name.ends_with(".tftest.hcl") || name.ends_with(".tofutest.hcl") {
            FileKind::TfTest
        } else if name.ends_with(".tfvars") || name.ends_with(".pkrvars.hcl") {
            FileKind::Tfvars
        } else if name.ends_with(".tf")
            || name.ends_with(".tofu")
            || is_query_file(path)
            || name.ends_with(".pkr.hcl")
            || syntax::json::is_json_path(path)
        {
            FileKind::Terraform
        } else if name.ends_with(".pp") {
            FileKind::Pcl
        } else if name.ends_with(".hcl") || name.ends_with(".nomad") {
            FileKind::Hcl
        } else {
            return None;
        })
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

/// The OpenTofu file that replaces `path` when both are in its directory:
/// `x.tofu` for `x.tf`, `x.tofutest.hcl` for `x.tftest.hcl`, `x.tofu.json`
/// for `x.tf.json` (`filterTfPathsWithTofuAlternatives` in opentofu's
/// internal/configs/parser_config_dir.go).
pub fn tofu_alternative(path: &Path) -> Option<PathBuf> {
    let name = path.file_name()?.to_str()?;
    let (stem, ext) = [".tftest.hcl", ".tftest.json", ".tf.json", ".tf"]
        .iter()
        .find_map(|ext| name.strip_suffix(ext).map(|stem| (stem, ext)))?;
    Some(path.with_file_name(format!("{stem}{}", ext.replacen(".tf", ".tofu", 1))))
}

/// `paths` (the files of one directory) without those OpenTofu does not read
/// beside their `.tofu` alternative, as a module of OpenTofu's has them
/// (analysis.md §7). A file in `pinned` (named on the command line, open
/// in the editor) is read all the same, and its alternative is left out
/// instead: the file looked at is the one checked.
pub fn tofu_files(paths: &mut Vec<PathBuf>, pinned: &dyn Fn(&Path) -> bool) {
    if !paths.iter().any(|p| Dialect::for_path(p) == Dialect::OpenTofu) {
        return;
    }
    let all = paths.clone();
    let shadowed_by_pinned = |p: &Path| all.iter().any(|q| pinned(q) && tofu_alternative(q).as_deref() == Some(p));
    paths.retain(|p| {
        if pinned(p) {
            return true;
        }
        if shadowed_by_pinned(p) {
            return false;
        }
        !tofu_alternative(p).is_some_and(|alt| all.contains(&alt))
    });
}

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

/// Whether `path` is a Terraform policy file (`*.policy.hcl`; Terraform
/// policy, GA with Terraform 1.17): `input`, `locals`, `policy` and
/// `resource_policy` / `provider_policy` / `module_policy` blocks
/// (docs/spec/analysis.md §10).
pub fn is_policy_file(path: &Path) -> bool {
    path.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.ends_with(".policy.hcl"))
}

/// Whether `path` is a Terraform query file (`.tfquery.hcl`, Terraform
/// 1.14): part of its directory's module, its variables and locals the
/// module's (`appendQueryFile` in internal/configs/module.go), read by
/// `terraform query`; its `list` blocks are typed from the providers' list
/// resource schemas.
pub fn is_query_file(path: &Path) -> bool {
    path.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.ends_with(".tfquery.hcl"))
}

/// Whether `path` names a Nomad job file.
pub fn is_nomad(path: &Path) -> bool {
    path.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.ends_with(".nomad") || n.ends_with(".nomad.hcl"))
}

/// Whether `path` names a Nomad variable specification (`*.nv.hcl`, the
/// name `nomad var init` gives one): what `nomad var put @FILE` reads,
/// one variable a file (`command/var_put.go` of hashicorp/nomad).
pub fn is_nomad_variable_spec(path: &Path) -> bool {
    path.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.ends_with(".nv.hcl"))
}

/// Whether `path` is a Terraform Stacks component file: hashicorp/terraform's
/// `internal/stacks/stackconfig/file.go` reads `.tfcomponent.hcl` (its JSON
/// form is not read here). Plain HCL whose `component` blocks call modules
/// (docs/spec/stacks.md).
pub fn is_stack_component(path: &Path) -> bool {
    path.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.ends_with(".tfcomponent.hcl"))
}

/// Whether `path` is a Terragrunt unit's configuration (`terragrunt.hcl`),
/// whose `inputs` go to the module `terraform { source }` names
/// (docs/spec/terragrunt.md §2).
pub fn is_terragrunt_unit(path: &Path) -> bool {
    path.file_name().is_some_and(|n| n == "terragrunt.hcl")
}

/// Whether a plain HCL file's blocks call modules: a stack's components, a
/// Terragrunt unit's `terraform { source }`.
pub fn calls_modules(path: &Path) -> bool {
    is_stack_component(path) || is_terragrunt_unit(path)
}

/// The family of a file we analyse, or `None` for files we skip.
pub fn family_of(path: &Path) -> Option<Family> {
    if is_nomad(path) || is_nomad_variable_spec(path) {
        return Some(Family::Nomad);
    }
    if is_policy_file(path) {
        return Some(Family::Policy);
    }
    FileKind::for_path(path).map(FileKind::family)
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
        let dialect = Dialect::for_path(&path);
        Some(SourceFile { path, text: Arc::new(TextBuf::from(text.into())), kind, dialect })
    }
}
