//! OpenTofu's symbol libraries (the `symbol_libraries` experiment of
//! OpenTofu 1.13; docs/spec/opentofu-symbol-libraries.md).
//!
//! A module's `symbols "LIB" { source = "./DIR" }` block imports the
//! `.sym.hcl` files of `DIR`: named types (`typedef`), functions
//! (`function`) and values (`locals`). What they define is read once per
//! context ([`load`], through [`Files`] like a called module's files: the
//! project layer owns the reading) and handed to the analysis in
//! [`Context::symbols`]; a change of it makes the next analysis run in
//! full ([`Memo::set_symbols`]), since variables' declared types depend on
//! it.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::document::Document;
use crate::module::{label_text, shift};
use crate::workspace::{normalize, Files};
use crate::{Family, FileKind};
use hcl_edit::expr::Expression;
use hcl_edit::structure::Block;
use std::ops::Range;
use std::sync::Arc;
use syntax::constant::Source;
use syntax::diagnostic::{Code, Diagnostic, Severity};
use syntax::typeexpr::{NamedTypes, TypeContext, TypeExpr};
use types::Type;

/// The experiment's keyword in `language { experiments = [...] }` (blog
/// post of opentofu/opentofu.org#439).
pub const EXPERIMENT: &str = "symbol_libraries";

/// Where a library symbol is defined.
#[derive(Clone, Debug, PartialEq)]
pub struct Def {
    pub path: PathBuf,
    /// The range of its name (the block's label, the local's key).
    pub name_range: Range<usize>,
    /// Its line, 1-based (for prose: the file is not the module's).
    pub line: usize,
}

/// `typedef "NAME" { type = T }`.
#[derive(Clone, Debug, PartialEq)]
pub struct TypeDef {
    /// What values are checked against (`optional` attributes may be absent).
    pub declared: Type,
    /// What a value of it is (`optional` defaults applied).
    pub value: Type,
    pub def: Def,
}

/// `function "NAME" { parameter "P" { type = T } … type = R  return = … }`.
#[derive(Clone, Debug, PartialEq)]
pub struct FunctionDef {
    /// The parameters before a variadic one, in order.
    pub params: Vec<(String, Type)>,
    /// The `variadic = true` parameter: any number of arguments of its
    /// type, a list of them in the body.
    pub variadic: Option<(String, Type)>,
    /// Where each parameter is declared (the variadic one last).
    pub param_defs: Vec<Def>,
    /// The function's own `locals` (`local.NAME` in it).
    pub locals: BTreeMap<String, ValueDef>,
    pub returns: Type,
    pub def: Def,
}

/// An attribute of a library's `values` block (`value.NAME` in the
/// library, `symbols.LIB.NAME` in a module).
#[derive(Clone, Debug, PartialEq)]
pub struct ValueDef {
    pub ty: Type,
    pub def: Def,
}

/// One imported library: the block that imports it, and what its files
/// define ([`Defs`], shared by every block of the same directory).
#[derive(Clone, Debug, Default)]
pub struct Library {
    /// The `symbols` block's label.
    pub label: String,
    pub source: String,
    /// The directory read; `None` for a source that is not read here (not
    /// local): its symbols are then `any`, without an error.
    pub dir: Option<PathBuf>,
    /// What its files define (read through `Deref`: `lib.types`).
    pub defs: Arc<Defs>,
}

/// What a library's `.sym.hcl` files define. Read and analysed once per
/// directory however many `symbols` blocks name it, and shared: 3,000
/// blocks naming one library held 3,000 copies (issue 42, item 2).
#[derive(Clone, Debug, PartialEq)]
pub struct Defs {
    /// Its `.sym.hcl` files.
    pub files: Vec<PathBuf>,
    pub types: BTreeMap<String, TypeDef>,
    pub functions: BTreeMap<String, FunctionDef>,
    pub values: BTreeMap<String, ValueDef>,
    /// The object of all values: what `symbols.LABEL` is.
    pub all_values: Type,
    /// The labels of the library's own `symbols` blocks (libraries it
    /// imports; their symbols are not read here).
    pub imports: Vec<String>,
}

impl Default for Defs {
    fn default() -> Defs {
        Defs {
            files: Vec::new(),
            types: BTreeMap::new(),
            functions: BTreeMap::new(),
            values: BTreeMap::new(),
            all_values: Type::object(Vec::<(String, Type)>::new()),
            imports: Vec::new(),
        }
    }
}

impl std::ops::Deref for Library {
    type Target = Defs;
    fn deref(&self) -> &Defs {
        &self.defs
    }
}

/// Building a library's definitions in place (`symbol_files::library`):
/// a copy only if they are already shared.
impl std::ops::DerefMut for Library {
    fn deref_mut(&mut self) -> &mut Defs {
        Arc::make_mut(&mut self.defs)
    }
}

impl PartialEq for Library {
    fn eq(&self, other: &Library) -> bool {
        (&self.label, &self.source, &self.dir) == (&other.label, &other.source, &other.dir)
            && same(&self.defs, &other.defs)
    }
}

/// Whether two libraries' definitions are equal: the same `Arc`, else compared.
fn same(a: &Arc<Defs>, b: &Arc<Defs>) -> bool {
    Arc::ptr_eq(a, b) || a == b
}

impl Library {
    /// Whether its symbols are known (a local source).
    pub fn known(&self) -> bool {
        self.dir.is_some()
    }
}

/// The libraries a module imports, by label (the first block of a label).
#[derive(Clone, Debug, Default)]
pub struct Libraries(pub Arc<BTreeMap<String, Library>>);

/// Equal when every label imports the same library: each distinct pair of
/// definitions is compared once (many labels share one), so comparing the
/// libraries of a module before each analysis costs the labels and the
/// distinct libraries, not their product.
impl PartialEq for Libraries {
    fn eq(&self, other: &Libraries) -> bool {
        if Arc::ptr_eq(&self.0, &other.0) {
            return true;
        }
        if self.0.len() != other.0.len() {
            return false;
        }
        let mut compared: std::collections::HashMap<(*const Defs, *const Defs), bool> = Default::default();
        self.0.iter().zip(other.0.iter()).all(|((ka, a), (kb, b))| {
            ka == kb
                && (&a.label, &a.source, &a.dir) == (&b.label, &b.source, &b.dir)
                && *compared
                    .entry((Arc::as_ptr(&a.defs), Arc::as_ptr(&b.defs)))
                    .or_insert_with(|| same(&a.defs, &b.defs))
        })
    }
}

impl Libraries {
    pub fn get(&self, label: &str) -> Option<&Library> {
        self.0.get(label)
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

pub use crate::dialects::symbol_libraries::is_symbol_file;

fn is_local(source: &str) -> bool {
    source.starts_with("./") || source.starts_with("../") || source == "." || source == ".."
}

/// The top-level blocks of type `ident` of a module's Terraform files, with
/// the document index and the item's start. An item is parsed only when its
/// text starts with `ident` (cheap on a large module).
fn blocks<'d>(docs: &'d [Document], ident: &'d str) -> impl Iterator<Item = (usize, usize, Block)> + 'd {
    docs.iter().enumerate().filter(|(_, d)| d.file.kind == FileKind::Terraform).flat_map(move |(di, d)| {
        d.items
            .iter()
            .filter(move |i| d.file.text.get(i.range.clone()).is_some_and(|t| t.trim_start().starts_with(ident)))
            .filter_map(move |i| Some((i.range.start, i.body(&d.file.text)?)))
            .flat_map(move |(at, body)| {
                body.blocks()
                    .filter(|b| b.ident.value().as_str() == ident)
                    .cloned()
                    .map(|b| (di, at, b))
                    .collect::<Vec<_>>()
            })
    })
}

/// The `symbols "LABEL" { source = "…" }` blocks of a module: (label, source).
pub fn requests(docs: &[Document]) -> Vec<(String, String)> {
    blocks(docs, "symbols")
        .filter_map(|(_, _, b)| {
            let label = label_text(b.labels.first()?).to_string();
            let source = match b.body.get_attribute("source").map(|a| &a.value) {
                Some(Expression::String(s)) => s.value().to_string(),
                _ => String::new(),
            };
            Some((label, source))
        })
        .collect()
}

/// Whether the module says `language { experiments = [symbol_libraries] }`
/// (S1, S7 of the spec page: OpenTofu's experiments are the `language`
/// block's).
pub fn experiment_enabled(docs: &[Document]) -> bool {
    blocks(docs, "language").any(|(_, _, b)| {
        matches!(
            b.body.get_attribute("experiments").map(|a| &a.value),
            Some(Expression::Array(a)) if a.iter().any(|e| matches!(e, Expression::Variable(v) if v.value().as_str() == EXPERIMENT))
        )
    })
}

/// The libraries the module in `docs` imports, their files read through
/// `files` (the `hcl` family of the source's directory, `.sym.hcl` only).
pub fn load(files: &dyn Files, docs: &[Document]) -> Libraries {
    load_requested(files, docs, &requests(docs))
}

/// [`load`], given the module's `symbols` blocks (as
/// [`crate::module::Memo::symbol_requests`] finds them, without a walk of
/// every item at each keystroke).
pub fn load_requested(files: &dyn Files, docs: &[Document], requests: &[(String, String)]) -> Libraries {
    if requests.is_empty() {
        return Libraries::default();
    }
    let home = docs.first().and_then(|d| d.file.path.parent()).map(Path::to_path_buf).unwrap_or_default();
    let mut out = BTreeMap::new();
    // Each directory read and analysed once, however many labels name it.
    let mut read: std::collections::HashMap<PathBuf, Arc<Defs>> = Default::default();
    for (label, source) in requests.iter().cloned() {
        if out.contains_key(&label) {
            continue;
        }
        let lib = if is_local(&source) {
            let dir = normalize(&home.join(&source));
            let defs = read.entry(dir.clone()).or_insert_with(|| {
                let lib_docs: Vec<Document> =
                    files.module(&dir, Family::Hcl).into_iter().filter(|d| is_symbol_file(&d.file.path)).collect();
                library(&label, &source, dir.clone(), &lib_docs).defs
            });
            Library { label: label.clone(), source, dir: Some(dir), defs: defs.clone() }
        } else {
            Library { label: label.clone(), source, ..Library::default() }
        };
        out.insert(label, lib);
    }
    Libraries(Arc::new(out))
}

pub use super::files::library;

impl NamedTypes for Libraries {
    fn named(&self, namespace: &[&str], name: &str) -> Option<Result<(Type, Type), String>> {
        let ["symbols", label] = namespace else { return None };
        let Some(lib) = self.get(label) else {
            return Some(Err(format!(
                "`symbols::{label}::{name}`: no `symbols \"{label}\"` block imports a library `{label}`"
            )));
        };
        if !lib.known() {
            return Some(Ok((Type::any(), Type::any())));
        }
        Some(match lib.types.get(name) {
            Some(t) => Ok((t.declared.clone(), t.value.clone())),
            None => {
                let mut msg = format!("`symbols::{label}::{name}` is not a type of symbol library `{label}`");
                if let Some(s) = types::suggest::closest(name, lib.types.keys().map(String::as_str)) {
                    msg.push_str(&format!("; did you mean `symbols::{label}::{s}`?"));
                }
                Err(msg)
            }
        })
    }
}

/// Reads a type expression of the module: `symbols::LIB::NAME()` denotes
/// a library's type (a module without `symbols` blocks reads as before).
pub(crate) fn parse_module_type(expr: &Expression, src: Source<'_>, ctx: TypeContext, libs: &Libraries) -> TypeExpr {
    let named: Option<&dyn NamedTypes> = if libs.is_empty() { None } else { Some(libs) };
    syntax::typeexpr::parse_type_named(expr, src, ctx, named)
}

/// Whether a module may hold a `symbols` block: its analysis is then run
/// in full after each edit (the experiment's error is module-level).
pub(crate) fn mentioned(docs: &[Document]) -> bool {
    blocks(docs, "symbols").next().is_some()
}

/// The module-level checks of `symbols` blocks: the experiment must be
/// enabled, and a local source must hold `.sym.hcl` files.
pub(crate) fn check(docs: &[Document], libs: &Libraries, out: &mut [crate::module::Shared<Vec<Diagnostic>>]) {
    if !mentioned(docs) {
        return;
    }
    let enabled = experiment_enabled(docs);
    for (di, at, b) in blocks(docs, "symbols") {
        let Some(diags) = out.get_mut(di) else { continue };
        let src = Source::new(docs[di].file.text.get(at..).unwrap_or(""), 0);
        if !enabled {
            diags.push(Diagnostic::new(
                Code::UnsupportedArgument,
                shift(&src.range(&b.ident), at),
                format!(
                    "`symbols` blocks are OpenTofu's symbol libraries experiment: enable it with `language {{ experiments = [{EXPERIMENT}] }}`"
                ),
            ));
        }
        let Some(label) = b.labels.first() else { continue };
        let Some(source) = b.body.get_attribute("source") else {
            diags.push(Diagnostic::new(
                Code::MissingArgument,
                shift(&src.range(label), at),
                "a `symbols` block needs `source`: the directory of the library's `.sym.hcl` files",
            ));
            continue;
        };
        let lib = libs.get(label_text(label));
        if let Some(Library { dir: Some(dir), source: s, .. }) = lib.filter(|l| l.files.is_empty()) {
            let d = Diagnostic::new(
                Code::ModuleSource,
                shift(&src.range(&source.value), at),
                format!("no symbol library at `{s}`: {} has no `.sym.hcl` files", dir.display()),
            );
            diags.push(d.with_severity(Severity::Warning));
        }
    }
}

pub(crate) use super::files::file_attribute;
