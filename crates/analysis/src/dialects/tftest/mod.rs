//! Terraform's test files (`.tftest.hcl`, OpenTofu's `.tofutest.hcl`) and
//! mock data files (`.tfmock.hcl`), docs/spec/tests.md. A directory's test
//! files are a unit of their own whose module under test is a call.
//! Its modules: `runs.rs` (run blocks), `decls.rs` (what test files
//! declare), `mocks.rs` (mocks and overrides).

pub mod decls;
pub mod mocks;
pub mod runs;

use hcl_edit::structure::Block;

use super::{Carrier, FileRule, Handler};
use crate::document::Document;
use crate::infer::Infer;
use crate::{Family, FileKind};
use syntax::Dialect;

pub struct Tests;

/// A mock data file (`.tfmock.hcl`).
pub const MOCK: FileRule = FileRule::hcl(".tfmock.hcl");

const FILES: [FileRule; 3] = [
    FileRule::suffix(".tftest.hcl", FileKind::TfTest, Family::TfTest, Dialect::Terraform),
    FileRule::suffix(".tofutest.hcl", FileKind::TfTest, Family::TfTest, Dialect::OpenTofu),
    MOCK,
];

/// Whether `path` is a mock data file (`*.tfmock.hcl`, read by
/// `mock_provider { source = DIR }`).
pub fn is_mock_file(path: &std::path::Path) -> bool {
    MOCK.matches(path)
}

impl Handler for Tests {
    fn name(&self) -> &'static str {
        "tftest"
    }
    fn files(&self) -> &'static [FileRule] {
        &FILES
    }
    fn roots(&self) -> &'static [&'static str] {
        &["run"]
    }
    fn carriers(&self) -> &'static [Carrier] {
        &[
            Carrier { from: "`variables`", to: "the module under test's variables" },
            Carrier { from: "`run { variables }`", to: "the module under test's variables" },
        ]
    }
    fn check_block(&self, inf: &mut Infer, doc: &Document, b: &Block) -> bool {
        doc.file.kind == FileKind::Hcl && MOCK.matches(&doc.file.path) && crate::dialects::tftest::mocks::block(inf, b)
    }
}
