//! OpenTofu 1.13's symbol libraries (docs/spec/opentofu-symbol-libraries.md):
//! `.sym.hcl` files, read with OpenTofu's functions (§4), and the
//! `symbols` root. Its modules: `libraries.rs` (a module's
//! libraries), `files.rs` (a library file's own checks), `scope.rs`
//! (`symbols::LIB::FN(…)` and `symbols.LIB.VALUE` in expressions).

pub mod files;
pub mod libraries;
pub mod scope;

use std::ops::Range;
use std::path::Path;

use hcl_edit::structure::Block;
use types::Type;

use super::{FileRule, Handler, Step};
use crate::document::Document;
use crate::infer::{Infer, Note};
use crate::{Family, FileKind};
use syntax::Dialect;

pub struct SymbolLibraries;

const FILE: FileRule = FileRule::suffix(".sym.hcl", FileKind::Hcl, Family::Hcl, Dialect::OpenTofu);

impl Handler for SymbolLibraries {
    fn name(&self) -> &'static str {
        "symbol_libraries"
    }
    fn files(&self) -> &'static [FileRule] {
        &[FILE]
    }
    fn roots(&self) -> &'static [&'static str] {
        &["symbols"]
    }
    /// `symbols.LIB.VALUE…` in a Terraform-dialect file (`scope.rs`).
    fn reference(&self, inf: &mut Infer, _name: &str, range: &Range<usize>, ops: &[Step]) -> Option<(Type, Note)> {
        inf.env.dialect().is_terraform().then(|| inf.symbol_value(range.clone(), ops)).flatten()
    }
    fn check_block(&self, inf: &mut Infer, doc: &Document, b: &Block) -> bool {
        doc.file.kind == FileKind::Hcl
            && FILE.matches(&doc.file.path)
            && crate::dialects::symbol_libraries::files::file_block(inf, b)
    }
}

/// Whether `path` is a symbol library file.
pub fn is_symbol_file(path: &Path) -> bool {
    FILE.matches(path)
}
