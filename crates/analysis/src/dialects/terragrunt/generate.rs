//! What a Terragrunt unit writes into the module it runs: its `generate`
//! blocks (docs/spec/terragrunt.md §6). Terragrunt writes each block's
//! `contents` to `path` in the working directory before it runs Terraform
//! (`WriteToFile` in gruntwork-io/terragrunt `internal/codegen/generate.go`),
//! so the declarations a root `terragrunt.hcl` generates (`generate
//! "shared_vars" { contents = file("variables.tf") }`) are the module's as
//! it runs. The project layer finds the units (it lists directories); this
//! reads them through [`Files`], as includes are read.

use std::path::{Path, PathBuf};

use hcl_edit::expr::Expression;
use hcl_edit::structure::Block;
use syntax::constant::{eval, Source};
use types::value::Value;

use crate::workspace::{included_file, included_path, included_terraform, normalize, Files};

/// A Terragrunt unit as it shapes its module: the module's directory (a
/// local `terraform { source }`, its own or an include's, else its own
/// directory) and what it generates there.
#[derive(Clone, Debug, PartialEq)]
pub struct Unit {
    /// The unit's `terragrunt.hcl`.
    pub file: PathBuf,
    /// The module it runs; `None` when that is not followed (remote, or a
    /// source built at run time).
    pub module: Option<PathBuf>,
    pub files: Vec<GeneratedFile>,
    /// The files its includes name (a `terragrunt.hcl` that units include
    /// is their configuration, not a unit of its own).
    pub includes: Vec<PathBuf>,
}

/// One `generate` block, as Terragrunt merges them (an include's first, a
/// block of the same name in the unit replaces it: `Merge` in
/// `pkg/config/include.go`).
#[derive(Clone, Debug, PartialEq)]
pub struct GeneratedFile {
    /// The block's label.
    pub name: String,
    /// `path`, relative to the module's directory.
    pub path: String,
    /// `if_exists`: `skip` and `error` leave a file of the module of that
    /// name in place; `overwrite` and `overwrite_terragrunt` replace it.
    pub if_exists: String,
    pub contents: Contents,
}

/// A generated file's text, when it is known without running anything.
#[derive(Clone, Debug, PartialEq)]
pub enum Contents {
    /// The text, and the file it was read from (`file()`, a template
    /// without interpolations).
    Known { text: String, from: Option<PathBuf> },
    /// Built at run time (`templatefile` with interpolations, a function).
    Unknown,
}

/// The unit of `file` (a `terragrunt.hcl`), read through `files`; `None`
/// when it cannot be read or parsed.
pub fn unit(files: &dyn Files, file: &Path) -> Option<Unit> {
    let dir = file.parent()?.to_path_buf();
    let text = files.read(file)?;
    let body = syntax::deep::parse_body(&text).ok()?;
    let src = Source::new(&text, 0);
    let mut includes = Vec::new();
    for b in body.blocks().filter(|b| b.ident.value().as_str() == "include") {
        let label = b.labels.first().map(crate::module::label_text).unwrap_or("").to_string();
        if super::unit::strategy(b, src) == "no_merge" {
            continue;
        }
        let Some(source) = b.body.get_attribute("path").and_then(|p| super::unit::include_source(&p.value, src)) else {
            continue;
        };
        // (One file included under several labels is read once.)
        includes.retain(|(_, s)| *s != source);
        includes.push((label, source));
    }
    let module = match super::unit::terraform_source_in(&text) {
        Some(super::unit::IncludedSource::Local(s)) => included_path(files, &dir, &s).map(|p| normalize(&p)),
        Some(super::unit::IncludedSource::NotFollowed) => None,
        None => {
            let mut found = Some(normalize(&dir));
            for (_, source) in includes.iter().rev() {
                if let Some(m) = included_terraform(files, &dir, source) {
                    found = m;
                    break;
                }
            }
            found
        }
    };
    let mut generated: Vec<GeneratedFile> = Vec::new();
    let add = |g: GeneratedFile, generated: &mut Vec<GeneratedFile>| {
        generated.retain(|o| o.name != g.name);
        generated.push(g);
    };
    let included: Vec<PathBuf> = includes.iter().filter_map(|(_, s)| included_file(files, &dir, s)).collect();
    let first_include = included.first().cloned();
    for path in &included {
        let Some(text) = files.read(path) else { continue };
        let Ok(body) = syntax::deep::parse_body(&text) else { continue };
        let at = Place { files, unit: &dir, file: path, include: Some(path) };
        for (g, disabled) in blocks(&body, Source::new(&text, 0), &at) {
            match disabled {
                true => generated.retain(|o| o.name != g.name),
                false => add(g, &mut generated),
            }
        }
    }
    let at = Place { files, unit: &dir, file, include: first_include.as_deref() };
    for (g, disabled) in blocks(&body, src, &at) {
        match disabled {
            true => generated.retain(|o| o.name != g.name),
            false => add(g, &mut generated),
        }
    }
    Some(Unit { file: file.to_path_buf(), module, files: generated, includes: included })
}

/// Where a block is evaluated: the unit's directory (`get_terragrunt_dir`),
/// the file that declares it (`file()` is relative to its directory:
/// `tflang.Scope{BaseDir: filepath.Dir(configPath)}` in
/// `createTerragruntEvalContext`, `pkg/config/config_helpers.go`), and the
/// included file (`get_parent_terragrunt_dir`, `path_relative_from_include`).
struct Place<'a> {
    files: &'a dyn Files,
    unit: &'a Path,
    file: &'a Path,
    include: Option<&'a Path>,
}

/// The `generate` blocks of a body, each with whether it is disabled.
fn blocks(body: &hcl_edit::structure::Body, src: Source<'_>, at: &Place) -> Vec<(GeneratedFile, bool)> {
    body.blocks().filter(|b| b.ident.value().as_str() == "generate").filter_map(|b| block(b, src, at)).collect()
}

fn block(b: &Block, src: Source<'_>, at: &Place) -> Option<(GeneratedFile, bool)> {
    let name = b.labels.first().map(crate::module::label_text)?.to_string();
    let string = |key: &str| match b.body.get_attribute(key).map(|a| eval(&a.value, src)) {
        Some(Ok(Value::String(s))) => Some(s),
        _ => None,
    };
    let disabled = matches!(b.body.get_attribute("disable").map(|a| eval(&a.value, src)), Some(Ok(Value::Bool(true))));
    let path = string("path")?;
    let if_exists = string("if_exists").unwrap_or_default();
    let contents = match b.body.get_attribute("contents") {
        Some(a) => contents(&a.value, src, at),
        None => Contents::Unknown,
    };
    Some((GeneratedFile { name, path, if_exists, contents }, disabled))
}

/// `contents`: a string or heredoc, `file(PATH)`, or
/// `templatefile(PATH, …)` of a template without interpolations.
fn contents(e: &Expression, src: Source<'_>, at: &Place) -> Contents {
    if let Ok(Value::String(text)) = eval(e, src) {
        return Contents::Known { text, from: None };
    }
    let Expression::FuncCall(call) = e else { return Contents::Unknown };
    let name = call.name.name.value().as_str();
    if call.name.is_namespaced() || !matches!(name, "file" | "templatefile") {
        return Contents::Unknown;
    }
    let Some(path) = call.args.iter().next().and_then(|p| path_of(p, src, at)) else { return Contents::Unknown };
    let Some(text) = at.files.read(&path) else { return Contents::Unknown };
    if name == "templatefile" && (text.contains("${") || text.contains("%{")) {
        return Contents::Unknown;
    }
    Contents::Known { text, from: Some(path) }
}

/// A path argument: a string of constants and Terragrunt's path functions,
/// relative to the declaring file's directory.
fn path_of(e: &Expression, src: Source<'_>, at: &Place) -> Option<PathBuf> {
    let s = path_string(e, src, at)?;
    let p = Path::new(&s);
    let dir = at.file.parent()?;
    Some(normalize(&if p.is_absolute() { p.to_path_buf() } else { dir.join(p) }))
}

fn path_string(e: &Expression, src: Source<'_>, at: &Place) -> Option<String> {
    use hcl_edit::template::Element;
    match e {
        Expression::StringTemplate(t) => {
            let mut out = String::new();
            for el in t.iter() {
                match el {
                    Element::Literal(l) => out.push_str(l.value()),
                    Element::Interpolation(i) => out.push_str(&path_string(&i.expr, src, at)?),
                    Element::Directive(_) => return None,
                }
            }
            Some(out)
        }
        Expression::FuncCall(call) if !call.name.is_namespaced() => {
            let mut args = call.args.iter();
            let text = |p: &Path| p.to_string_lossy().into_owned();
            match (call.name.name.value().as_str(), args.next(), args.next()) {
                ("get_terragrunt_dir" | "get_original_terragrunt_dir", None, None) => Some(text(at.unit)),
                ("get_parent_terragrunt_dir", None, None) => Some(text(at.include?.parent()?)),
                ("path_relative_from_include", None, None) => Some(relative(at.unit, at.include?.parent()?)),
                ("path_relative_to_include", None, None) => Some(relative(at.include?.parent()?, at.unit)),
                ("find_in_parent_folders", first, None) => {
                    let file = match first.map(|a| eval(a, src)) {
                        None => "terragrunt.hcl".to_string(),
                        Some(Ok(Value::String(s))) if !s.contains('#') => s,
                        _ => return None,
                    };
                    let found = included_path(at.files, at.unit, &format!("{}{file}", crate::calls::PARENT))?;
                    Some(text(&found))
                }
                ("dirname", Some(inner), None) => {
                    let inner = path_string(inner, src, at)?;
                    Some(text(Path::new(&inner).parent()?))
                }
                _ => None,
            }
        }
        e => match eval(e, src) {
            Ok(Value::String(s)) => Some(s),
            _ => None,
        },
    }
}

/// The relative path from directory `from` to directory `to` (`.` when
/// they are the same), as Terragrunt's `filepath.Rel`.
fn relative(from: &Path, to: &Path) -> String {
    let (from, to) = (normalize(from), normalize(to));
    let a: Vec<_> = from.components().collect();
    let b: Vec<_> = to.components().collect();
    let common = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let mut parts: Vec<String> = std::iter::repeat_n("..".to_string(), a.len() - common).collect();
    parts.extend(b[common..].iter().map(|c| c.as_os_str().to_string_lossy().into_owned()));
    match parts.is_empty() {
        true => ".".to_string(),
        false => parts.join("/"),
    }
}

/// The files that `units` generate into the module in `dir`, as documents
/// to analyse after its own (`own`: the paths of its files): a file whose
/// `if_exists` is `skip` (or `error`) where the module has a file of that
/// name is not written; of several units generating one name, the first
/// one's text stands. A file whose text is known from a file outside the
/// module keeps that file's path (a definition leads there); another is
/// named by a path no disk has (it starts with a NUL byte). Also the
/// first unit that generates a Terraform file whose text is not known,
/// and that file.
pub fn generated_into(dir: &Path, units: &[Unit], own: &[PathBuf]) -> crate::calls::Generated {
    let dir = normalize(dir);
    let mut docs: Vec<crate::Document> = Vec::new();
    let mut targets: Vec<PathBuf> = Vec::new();
    let mut unknown = None;
    for u in units.iter().filter(|u| u.module.as_deref() == Some(dir.as_path())) {
        for g in &u.files {
            let target = normalize(&dir.join(&g.path));
            let Some(kind) = crate::FileKind::for_path(&target) else { continue };
            if kind.family() != crate::Family::Terraform || targets.contains(&target) {
                continue;
            }
            if matches!(g.if_exists.as_str(), "skip" | "error") && own.iter().any(|p| normalize(p) == target) {
                continue;
            }
            let Contents::Known { text, from } = &g.contents else {
                unknown = unknown.take().or_else(|| Some((u.file.clone(), g.path.clone())));
                continue;
            };
            targets.push(target.clone());
            let path = match from {
                Some(from) if from.parent() != Some(dir.as_path()) => from.clone(),
                _ => virtual_path(&target),
            };
            let Some(mut file) = crate::SourceFile::new(target, text.clone()) else { continue };
            file.path = path;
            docs.push(crate::Document::parse(file));
        }
    }
    crate::calls::Generated { docs: docs.into(), unknown }
}

/// A path no file has: `target` after a NUL byte (the project layer's
/// mark of a document without a file).
fn virtual_path(target: &Path) -> PathBuf {
    let mut s = std::ffi::OsString::from("\0generated:");
    s.push(target.as_os_str());
    PathBuf::from(s)
}
