//! The language of a symbol library's own `.sym.hcl` files
//! (docs/spec/opentofu-symbol-libraries.md §4), as OpenTofu reads them
//! (`LoadSymbolFile`, `CompileLibrary` and `Function.Compile` in
//! internal/configs/symlib/{symbols,compiler,functions,scope}.go of
//! opentofu/opentofu, branch `symbol_libraries_experiment_2`) and its 1.13
//! documentation shows them (website/docs/language/symbol-libraries/index.mdx):
//! `language { edition = "experimental2026" }`; `typedef "T" { type = … }`;
//! `values { NAME = … }`, read as `value.NAME`; `function "F" { parameter
//! "P" { type … } locals { … } type = …  return = … }`, whose body reads
//! `param.P` and `local.L`; `symbols::T()` and `symbols::F(…)` for the
//! library's own types and functions; `symbols "LIB" { source }` imports.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::libraries::{Def, FunctionDef, Library, TypeDef, ValueDef};
use crate::document::Document;
use crate::infer::{Infer, LibraryScope};
use crate::module::checks::own_schema;
use crate::module::env::Empty;
use crate::module::{item_source, label_text, shift};
use hcl_edit::expr::Expression;
use hcl_edit::structure::{Attribute, Block, BlockLabel, Body};
use std::ops::Range;
use std::sync::Arc;
use syntax::constant::Source;
use syntax::diagnostic::{Code, Diagnostic};
use syntax::typeexpr::{parse_type_named, NamedTypes, TypeContext, TypeExpr};
use syntax::Dialect;
use types::Type;

/// The only edition a library may declare (`CompileLibrary`: "The only
/// valid symbol library language edition is \"experimental2026\"").
pub const EDITION: &str = "experimental2026";

/// The top-level blocks of a library file (`symbolFileSchema`).
const FILE_BLOCKS: [&str; 5] = ["values", "typedef", "function", "symbols", "language"];

/// One item of a library file, parsed.
struct At<'d> {
    doc: &'d Document,
    start: usize,
    src: Source<'d>,
    body: Arc<Body>,
}

impl At<'_> {
    fn def(&self, range: Range<usize>) -> Def {
        let range = shift(&range, self.start);
        let line = self.doc.line(range.start);
        Def { path: self.doc.file.path.clone(), name_range: range, line }
    }

    /// The labelled blocks of type `ident`: (name, block).
    fn named<'b>(&'b self, ident: &'b str) -> impl Iterator<Item = (&'b BlockLabel, &'b Block)> + 'b {
        self.body
            .blocks()
            .filter(move |b| b.ident.value().as_str() == ident)
            .filter_map(|b| Some((b.labels.first()?, b)))
    }
}

fn items(docs: &[Document]) -> Vec<At<'_>> {
    docs.iter()
        .flat_map(|doc| {
            doc.items.iter().filter_map(move |item| {
                let body = item.body(&doc.file.text)?;
                Some(At { doc, start: item.range.start, src: item_source(doc, item), body })
            })
        })
        .collect()
}

fn ctx() -> TypeContext {
    TypeContext::variable(Dialect::OpenTofu)
}

/// "No import" and "no such type" messages, shared by reading and checking.
fn no_import(lib: &str, name: &str) -> String {
    format!("`symbols::{lib}::{name}`: this symbol library has no `symbols \"{lib}\"` block")
}

fn not_a_type<'a>(name: &str, known: impl Iterator<Item = &'a str>) -> String {
    let mut msg = format!("`symbols::{name}` is not a type of this symbol library (its `typedef` blocks)");
    if let Some(s) = types::suggest::closest(name, known) {
        msg.push_str(&format!("; did you mean `symbols::{s}`?"));
    }
    msg
}

/// The library's own types while it is read: one may name another as
/// `symbols::T()` (`typeForStaticCall` in scope.go), resolved on demand.
struct OwnTypes<'a> {
    defs: BTreeMap<String, (&'a Expression, Source<'a>)>,
    imports: &'a [String],
    done: RefCell<BTreeMap<String, (Type, Type)>>,
    active: RefCell<Vec<String>>,
}

impl OwnTypes<'_> {
    fn resolve(&self, name: &str) -> Result<(Type, Type), String> {
        if let Some(t) = self.done.borrow().get(name) {
            return Ok(t.clone());
        }
        let Some((expr, src)) = self.defs.get(name) else {
            return Err(not_a_type(name, self.defs.keys().map(String::as_str)));
        };
        if self.active.borrow().iter().any(|a| a == name) {
            return Err(format!("`symbols::{name}` is defined in terms of itself"));
        }
        self.active.borrow_mut().push(name.to_string());
        let te = parse_type_named(expr, *src, ctx(), Some(self));
        self.active.borrow_mut().pop();
        let t = (te.declared, te.value);
        self.done.borrow_mut().insert(name.to_string(), t.clone());
        Ok(t)
    }
}

impl NamedTypes for OwnTypes<'_> {
    fn named(&self, namespace: &[&str], name: &str) -> Option<Result<(Type, Type), String>> {
        match namespace {
            ["symbols"] => Some(self.resolve(name)),
            ["symbols", lib] if self.imports.iter().any(|i| i == lib) => Some(Ok((Type::any(), Type::any()))),
            ["symbols", lib] => Some(Err(no_import(lib, name))),
            _ => None,
        }
    }
}

/// The library's own types once read, for the checks of its files.
struct Known<'a>(&'a Library);

impl NamedTypes for Known<'_> {
    fn named(&self, namespace: &[&str], name: &str) -> Option<Result<(Type, Type), String>> {
        let lib = self.0;
        match namespace {
            ["symbols"] => Some(match lib.types.get(name) {
                Some(t) => Ok((t.declared.clone(), t.value.clone())),
                None => Err(not_a_type(name, lib.types.keys().map(String::as_str))),
            }),
            ["symbols", l] if lib.imports.iter().any(|i| i == l) => Some(Ok((Type::any(), Type::any()))),
            ["symbols", l] => Some(Err(no_import(l, name))),
            _ => None,
        }
    }
}

/// A parameter block's `variadic = true` (a literal, as OpenTofu decodes it
/// without an evaluation context).
fn is_variadic(p: &Block) -> bool {
    matches!(p.body.get_attribute("variadic").map(|a| &a.value), Some(Expression::Bool(b)) if *b.value())
}

/// What the `.sym.hcl` documents of one library define.
pub fn library(label: &str, source: &str, dir: PathBuf, docs: &[Document]) -> Library {
    let mut lib =
        Library { label: label.to_string(), source: source.to_string(), dir: Some(dir), ..Library::default() };
    lib.files = docs.iter().map(|d| d.file.path.clone()).collect();
    let ats = items(docs);
    lib.imports = ats.iter().flat_map(|at| at.named("symbols").map(|(l, _)| label_text(l).to_string())).collect();

    // Types, each resolved with the others.
    let imports = lib.imports.clone();
    let mut own =
        OwnTypes { defs: BTreeMap::new(), imports: &imports, done: RefCell::default(), active: RefCell::default() };
    let mut type_defs = BTreeMap::new();
    for at in &ats {
        for (name, b) in at.named("typedef") {
            let key = label_text(name).to_string();
            if type_defs.contains_key(&key) {
                continue;
            }
            type_defs.insert(key.clone(), at.def(at.src.range(name)));
            if let Some(a) = b.body.get_attribute("type") {
                own.defs.insert(key, (&a.value, at.src));
            }
        }
    }
    for (key, def) in type_defs {
        let (declared, value) = own.resolve(&key).unwrap_or_else(|_| (Type::any(), Type::any()));
        lib.types.insert(key, TypeDef { declared, value, def });
    }

    // Function signatures (parameters, declared return type).
    let mut bodies = Vec::new();
    for at in &ats {
        for (name, b) in at.named("function") {
            let key = label_text(name).to_string();
            if lib.functions.contains_key(&key) {
                continue;
            }
            let mut f = FunctionDef {
                params: Vec::new(),
                variadic: None,
                param_defs: Vec::new(),
                locals: BTreeMap::new(),
                returns: Type::any(),
                def: at.def(at.src.range(name)),
            };
            let mut last = None;
            for p in b.body.blocks().filter(|p| p.ident.value().as_str() == "parameter") {
                let Some(pl) = p.labels.first() else { continue };
                let ty = p
                    .body
                    .get_attribute("type")
                    .map_or_else(Type::any, |a| parse_type_named(&a.value, at.src, ctx(), Some(&own)).declared);
                let entry = (label_text(pl).to_string(), ty);
                let def = at.def(at.src.range(pl));
                if is_variadic(p) {
                    f.variadic = Some(entry);
                    last = Some(def);
                } else {
                    f.params.push(entry);
                    f.param_defs.push(def);
                }
            }
            f.param_defs.extend(last);
            let declared = b.body.get_attribute("type").map(|a| parse_type_named(&a.value, at.src, ctx(), Some(&own)));
            if let Some(te) = &declared {
                f.returns = te.value.clone();
            }
            bodies.push((key.clone(), at, b, declared.is_none()));
            lib.functions.insert(key, f);
        }
    }
    own.defs.clear();

    // Values, each pass seeing what the last one found (`value.NAME` in
    // another value); a few passes cover the chains met in practice.
    let values: Vec<(String, &Expression, Source, Def)> = ats
        .iter()
        .flat_map(|at| {
            at.body.blocks().filter(|b| b.ident.value().as_str() == "values").flat_map(move |b| {
                b.body
                    .attributes()
                    .map(move |a| (a.key.value().to_string(), &a.value, at.src, at.def(at.src.range(&a.key))))
            })
        })
        .collect();
    for (name, _, _, def) in &values {
        lib.values.entry(name.clone()).or_insert(ValueDef { ty: Type::any(), def: def.clone() });
    }
    for _ in 0..values.len().min(4) {
        let snapshot = Arc::new(lib.clone());
        let mut changed = false;
        for (name, expr, src, _) in &values {
            let ty = scoped(&snapshot, None, *src).expr(expr);
            if let Some(v) = lib.values.get_mut(name).filter(|v| v.ty != ty) {
                v.ty = ty;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }

    // Function bodies: their locals, and what one without a declared
    // return type returns.
    let snapshot = Arc::new(lib.clone());
    for (key, at, b, infer_return) in bodies {
        let params = body_params(&snapshot, at, b);
        let locals = function_locals(&snapshot, &params, at, b);
        let returns = infer_return.then(|| match b.body.get_attribute("return") {
            Some(r) => {
                let mut inf = scoped(&snapshot, Some(params.clone()), at.src);
                if let Some(scope) = &mut inf.library {
                    scope.locals = locals.iter().map(|(k, v)| (k.clone(), (v.ty.clone(), v.def.clone()))).collect();
                }
                inf.expr(&r.value)
            }
            None => Type::any(),
        });
        if let Some(f) = lib.functions.get_mut(&key) {
            f.locals = locals;
            if let Some(r) = returns {
                f.returns = r;
            }
        }
    }
    lib.all_values = Type::object(lib.values.iter().map(|(k, v)| (k.clone(), v.ty.clone())));
    lib
}

/// An inference in a library's scope (quiet: the library's own checks
/// report what is wrong in it).
fn scoped<'a>(
    lib: &Arc<Library>,
    params: Option<BTreeMap<String, (Type, Def)>>,
    src: Source<'a>,
) -> Infer<'static, 'a> {
    static EMPTY: Empty = Empty(Dialect::OpenTofu);
    let mut inf = Infer::new(&EMPTY, src);
    inf.library = Some(LibraryScope { library: lib.clone(), params, locals: BTreeMap::new() });
    inf
}

/// A function's parameters as its body sees them: the declared value
/// types (`optional` defaults applied to each argument, as `Compile`
/// does), the variadic one a list of its type.
fn body_params(lib: &Library, at: &At, b: &Block) -> BTreeMap<String, (Type, Def)> {
    let known = Known(lib);
    let mut out = BTreeMap::new();
    for p in b.body.blocks().filter(|p| p.ident.value().as_str() == "parameter") {
        let Some(pl) = p.labels.first() else { continue };
        let mut ty = p
            .body
            .get_attribute("type")
            .map_or_else(Type::any, |a| parse_type_named(&a.value, at.src, ctx(), Some(&known)).value);
        if is_variadic(p) {
            ty = Type::list(ty);
        }
        out.entry(label_text(pl).to_string()).or_insert((ty, at.def(at.src.range(pl))));
    }
    out
}

/// A function's `locals` (the first of a name), each pass seeing the last's.
fn function_locals(
    lib: &Arc<Library>,
    params: &BTreeMap<String, (Type, Def)>,
    at: &At,
    b: &Block,
) -> BTreeMap<String, ValueDef> {
    let attrs: Vec<&Attribute> =
        b.body.blocks().filter(|l| l.ident.value().as_str() == "locals").flat_map(|l| l.body.attributes()).collect();
    let mut out: BTreeMap<String, ValueDef> = BTreeMap::new();
    for a in &attrs {
        let def = at.def(at.src.range(&a.key));
        out.entry(a.key.value().to_string()).or_insert(ValueDef { ty: Type::any(), def });
    }
    for _ in 0..attrs.len().min(4) {
        let mut changed = false;
        for a in &attrs {
            let mut inf = scoped(lib, Some(params.clone()), at.src);
            if let Some(scope) = &mut inf.library {
                scope.locals = out.iter().map(|(k, v)| (k.clone(), (v.ty.clone(), v.def.clone()))).collect();
            }
            let ty = inf.expr(&a.value);
            if let Some(v) = out.get_mut(a.key.value().as_str()).filter(|v| v.ty != ty) {
                v.ty = ty;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    out
}

/// The library a module's own `.sym.hcl` files make (its own names, for
/// their checks); `None` for a module without one.
pub fn own(docs: &[Document]) -> Option<Library> {
    let sym: Vec<Document> = docs.iter().filter(|d| super::is_symbol_file(&d.file.path)).cloned().collect();
    let dir = sym.first()?.file.path.parent().map(Path::to_path_buf).unwrap_or_default();
    Some(library("", ".", dir, &sym))
}

/// Checks of one top-level block of a `.sym.hcl` file (spec §4): the
/// file's schema, type expressions with the library's own types, and every
/// expression in the library's scope (`value.`, `param.`, `local.`).
pub(crate) fn file_block(inf: &mut Infer, b: &Block) -> bool {
    let lib = inf.env().own_library().unwrap_or_default();
    inf.library = Some(LibraryScope { library: lib.clone(), params: None, locals: BTreeMap::new() });
    let ident = b.ident.value().as_str();
    match ident {
        "language" => {
            own_schema(inf, b, "a symbol library's `language`", &["edition"], &[]);
            language(inf, b);
        }
        "typedef" => {
            own_schema(inf, b, "a `typedef`", &["type"], &[]);
            match b.body.get_attribute("type") {
                Some(a) => {
                    read_type(inf, &lib, &a.value);
                }
                None => missing(inf, b, "a `typedef` needs `type`: the type it names"),
            }
        }
        "values" => {
            for nested in b.body.blocks() {
                let msg = format!(
                    "`{}` is not a block of a `values` block: it holds `NAME = value` only",
                    nested.ident.value()
                );
                let r = inf.range(&nested.ident);
                inf.report(Diagnostic::new(Code::UnsupportedArgument, r, msg));
            }
            for a in b.body.attributes() {
                inf.expr(&a.value);
            }
        }
        "function" => function(inf, &lib, b),
        "symbols" => {
            own_schema(inf, b, "a `symbols`", &["source", "version"], &[]);
            if b.body.get_attribute("source").is_none() {
                missing(inf, b, "a `symbols` block needs `source`: the library's directory or package");
            }
        }
        _ => {
            let mut msg = format!("`{ident}` is not a block of a symbol library file");
            if ident == "locals" {
                msg.push_str(": a library's values live in a `values` block, read as `value.NAME`");
            } else if let Some(s) = types::suggest::closest(ident, FILE_BLOCKS.iter().copied()) {
                msg.push_str(&format!("; did you mean `{s}`?"));
            }
            let r = inf.range(&b.ident);
            inf.report(Diagnostic::new(Code::UnsupportedArgument, r, msg));
        }
    }
    inf.library = None;
    true
}

/// A top-level attribute of a library file: OpenTofu's schema has none.
pub(crate) fn file_attribute(inf: &mut Infer, a: &Attribute) {
    let key = a.key.value().as_str();
    let mut msg = format!("`{key}` is not an argument of a symbol library file: its values live in a `values` block");
    if FILE_BLOCKS.contains(&key) {
        msg = format!("`{key}` is a block of a symbol library file: write `{key} {{ … }}`");
    }
    let r = inf.range(&a.key);
    inf.report(Diagnostic::new(Code::UnsupportedArgument, r, msg));
}

fn missing(inf: &mut Infer, b: &Block, msg: &str) {
    let r = b.labels.first().map_or_else(|| inf.range(&b.ident), |l| inf.range(l));
    inf.report(Diagnostic::new(Code::MissingArgument, r, msg));
}

/// A type expression of a library file, its errors and parts recorded.
fn read_type(inf: &mut Infer, lib: &Library, e: &Expression) -> TypeExpr {
    let te = parse_type_named(e, inf.source(), ctx(), Some(&Known(lib)));
    inf.diagnostics.extend(te.diagnostics.iter().cloned());
    inf.type_nodes.extend(te.nodes.iter().cloned());
    te
}

/// `language { edition = "experimental2026" }` (`decodeLanguageBlock`:
/// `edition` is required; `CompileLibrary` refuses any other edition).
fn language(inf: &mut Infer, b: &Block) {
    let Some(a) = b.body.get_attribute("edition") else {
        return missing(inf, b, &format!("a symbol library's `language` block needs `edition = \"{EDITION}\"`"));
    };
    let r = inf.range(&a.value);
    match &a.value {
        Expression::String(s) if s.value().as_str() == EDITION => {}
        Expression::String(s) => inf.report(Diagnostic::new(
            Code::InvalidValue,
            r,
            format!("`{}` is not a symbol library edition: the only one is \"{EDITION}\"", s.value()),
        )),
        _ => {
            inf.expr(&a.value);
        }
    }
}

/// A `function` block: its parameters' types (with the library's own),
/// validations and locals in its scope, `return` checked against `type`.
fn function(inf: &mut Infer, lib: &Arc<Library>, b: &Block) {
    own_schema(inf, b, "a `function`", &["description", "type", "return"], &["parameter", "locals"]);
    let declared = b.body.get_attribute("type").map(|a| read_type(inf, lib, &a.value).declared);
    let mut params = BTreeMap::new();
    let fdef = b.labels.first().and_then(|l| lib.functions.get(label_text(l)));
    for p in b.body.blocks().filter(|p| p.ident.value().as_str() == "parameter") {
        own_schema(
            inf,
            p,
            "a function's `parameter`",
            &["type", "description", "variadic", "allow_null", "allow_unknown"],
            &["validation"],
        );
        let Some(pl) = p.labels.first() else { continue };
        let mut ty = p.body.get_attribute("type").map_or_else(Type::any, |a| read_type(inf, lib, &a.value).value);
        if is_variadic(p) {
            ty = Type::list(ty);
        }
        let name = label_text(pl);
        let def = fdef
            .and_then(|f| {
                let names = f.params.iter().chain(&f.variadic).map(|(n, _)| n);
                names.zip(&f.param_defs).find(|(n, _)| *n == name).map(|(_, d)| d.clone())
            })
            .unwrap_or_else(|| Def { path: PathBuf::new(), name_range: inf.range(pl), line: 0 });
        params.entry(name.to_string()).or_insert((ty, def));
    }
    let locals: BTreeMap<String, (Type, Def)> = fdef
        .map(|f| f.locals.iter().map(|(k, v)| (k.clone(), (v.ty.clone(), v.def.clone()))).collect())
        .unwrap_or_default();
    // Validations see the parameters only (`Compile` evaluates them
    // before the locals exist: "Locals not allowed here").
    inf.library = Some(LibraryScope { library: lib.clone(), params: Some(params.clone()), locals: BTreeMap::new() });
    for p in b.body.blocks().filter(|p| p.ident.value().as_str() == "parameter") {
        for v in p.body.blocks().filter(|v| v.ident.value().as_str() == "validation") {
            own_schema(inf, v, "a parameter's `validation`", &["condition", "error_message"], &[]);
            for a in v.body.attributes() {
                inf.expr(&a.value);
            }
        }
    }
    inf.library = Some(LibraryScope { library: lib.clone(), params: Some(params), locals });
    for l in b.body.blocks().filter(|l| l.ident.value().as_str() == "locals") {
        for a in l.body.attributes() {
            inf.expr(&a.value);
        }
    }
    match b.body.get_attribute("return") {
        Some(r) => {
            let t = inf.expr(&r.value);
            if let Some(d) = &declared {
                inf.check(&r.value, &t, d, None);
            }
        }
        None => missing(inf, b, "a `function` needs `return`: the value it gives"),
    }
    for a in b.body.attributes().filter(|a| a.key.value().as_str() == "description") {
        inf.expr(&a.value);
    }
}
