//! The languages' own blocks and arguments (`lifecycle`, `count`, a
//! variable's `type`, a test's `run`, a stack's `component`…): the table in
//! `language.tsv`, read once. One file so that every description we wrote
//! is in one place (issue 48.1).

use std::path::Path;
use std::sync::OnceLock;

use syntax::typeexpr::{parse_type_str, TypeContext};
use syntax::Dialect;
use types::Type;

const TABLE: &str = include_str!("language.tsv");

/// Which files a row is about (the `files` column).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Files {
    /// A Terraform or OpenTofu module file (`.tf`, `.tofu`, their JSON).
    Module,
    /// A test file (`.tftest.hcl`, `.tofutest.hcl`).
    Test,
    /// A Terraform Stacks file (`.tfcomponent.hcl`, `.tfstack.hcl`).
    Stack,
    /// A Stacks deployment file (`.tfdeploy.hcl`).
    Deploy,
}

impl Files {
    /// The rows that apply to `path`, or `None` for a file of no such kind.
    pub(crate) fn of(path: &Path) -> Option<Files> {
        let name = path.file_name()?.to_str()?;
        let ends = |s: &[&str]| s.iter().any(|e| name.ends_with(e));
        Some(if analysis::FileKind::for_path(path) == Some(analysis::FileKind::TfTest) {
            Files::Test
        } else if analysis::is_stack_component(path) || ends(&[".tfstack.hcl"]) {
            Files::Stack
        } else if analysis::dialects::stacks::is_deployment_file(path) {
            Files::Deploy
        } else if ends(&[".tf", ".tofu", ".tf.json", ".tofu.json"]) {
            Files::Module
        } else {
            return None;
        })
    }

    fn parse(s: &str) -> Option<Files> {
        Some(match s {
            "tf" => Files::Module,
            "test" => Files::Test,
            "stack" => Files::Stack,
            "deploy" => Files::Deploy,
            _ => return None,
        })
    }
}

/// What a name is to the language.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    Argument,
    /// A meta-argument (or meta-block): the language's, in a block whose
    /// other arguments a provider or a module defines.
    Meta,
    Block,
}

/// One row of the table.
#[derive(Debug)]
pub(crate) struct Row {
    pub files: Files,
    /// The enclosing blocks' types, dotted (empty: top level).
    pub block: &'static str,
    pub name: &'static str,
    pub kind: Kind,
    /// A block (its type column is empty), not an argument.
    pub is_block: bool,
    /// The argument's type; a block's is the object of its arguments.
    pub ty: Type,
    pub required: bool,
    pub deprecated: bool,
    pub text: &'static str,
}

/// Every row, in the table's order.
pub(crate) fn rows() -> &'static [Row] {
    static ROWS: OnceLock<Vec<Row>> = OnceLock::new();
    ROWS.get_or_init(|| {
        let mut rows: Vec<Row> = TABLE.lines().skip_while(|l| l.starts_with('#')).skip(1).filter_map(row).collect();
        // A block's type: the object of its arguments.
        for i in 0..rows.len() {
            if !rows[i].is_block {
                continue;
            }
            let path = match rows[i].block {
                "" => rows[i].name.to_string(),
                outer => format!("{outer}.{}", rows[i].name),
            };
            let files = rows[i].files;
            let attrs: Vec<(String, Type)> = rows
                .iter()
                .filter(|r| r.files == files && r.block == path && !r.is_block)
                .map(|r| (r.name.to_string(), r.ty.clone()))
                .collect();
            if !attrs.is_empty() {
                rows[i].ty = Type::object(attrs);
            }
        }
        rows
    })
}

fn row(line: &'static str) -> Option<Row> {
    let cols: Vec<&'static str> = line.split('\t').collect();
    let [files, block, name, kind, ty, presence, text] = cols[..] else { return None };
    let kind = match kind {
        "argument" => Kind::Argument,
        "meta" => Kind::Meta,
        "block" => Kind::Block,
        _ => return None,
    };
    let parsed =
        if ty.is_empty() { Type::any() } else { parse_type_str(ty, TypeContext::new(Dialect::Terraform)).declared };
    Some(Row {
        files: Files::parse(files)?,
        block,
        name,
        kind,
        is_block: ty.is_empty(),
        ty: parsed,
        required: presence == "required",
        deprecated: presence == "deprecated",
        text,
    })
}

/// The row for `name` in the blocks `path` of a file of kind `files`.
pub(crate) fn find(files: Files, path: &str, name: &str) -> Option<&'static Row> {
    rows().iter().find(|r| r.files == files && r.block == path && r.name == name)
}
