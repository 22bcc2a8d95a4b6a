//! Terragrunt's `read_terragrunt_config(PATH, DEFAULT)` (terragrunt.md §10):
//! the whole configuration of another Terragrunt file as an object.
//! `ParseTerragruntConfig` (gruntwork-io/terragrunt
//! `pkg/config/config_helpers.go`) parses the file and serialises it with
//! `TerragruntConfigAsCty` (`pkg/config/config_as_cty.go`), whose attributes
//! this module types from the file's text: the ones Terragrunt always sets
//! (`locals` and `inputs`, null without the block; the string settings; the
//! `dependency`, `generate` and `feature` objects, empty without blocks) and
//! the ones it sets only when the file has the block or attribute
//! (`terraform`, `remote_state`, `prevent_destroy`, …). DEFAULT is the value
//! only when the file does not exist.

use crate::infer::Infer;
use hcl_edit::expr::Expression;
use hcl_edit::template::Element;
use std::path::{Path, PathBuf};
use syntax::constant::{eval, Source};
use types::Type;

/// How many folders `find_in_parent_folders` looks in (Terragrunt's
/// `--max-folders-to-check` default).
const MAX_FOLDERS: usize = 100;

/// The string settings `TerragruntConfigAsCty` always sets (`gostringToCty`,
/// `""` when the file does not set them).
const STRINGS: [&str; 7] = [
    "terraform_binary",
    "terraform_version_constraint",
    "terragrunt_version_constraint",
    "download_dir",
    "iam_role",
    "iam_assume_role_session_name",
    "iam_web_identity_token",
];

/// Blocks set only when the file has them, typed `any` beyond that
/// (`catalogConfigAsCty`, `engineConfigAsCty`, `excludeConfigAsCty`,
/// `errorsConfigAsCty` return `cty.NilVal` for an absent block).
const OPTIONAL_BLOCKS: [&str; 4] = ["catalog", "engine", "exclude", "errors"];

impl Infer<'_, '_> {
    /// The type of `read_terragrunt_config(path, default)` in a Terragrunt
    /// file, `default` the second argument's type if given: the target's
    /// configuration when it is found, else the default's; `None` (the
    /// signature's `any`) for a path not known, a stack, values or JSON
    /// file, or a missing file without default; `None` too outside a
    /// unit's directory: a file a unit includes is evaluated with the
    /// unit's paths (`getCleanedTargetConfigPath` resolves against the
    /// unit's config path; `find_in_parent_folders` and
    /// `get_terragrunt_dir` are the unit's), which are not known there.
    pub(crate) fn terragrunt_config(&mut self, path: &Expression, default: Option<&Type>) -> Option<Type> {
        if !self.env.terragrunt_unit() {
            return None;
        }
        let file = self.terragrunt_path(path)?;
        let name = file.file_name()?.to_string_lossy().to_string();
        if name.ends_with(".json") || name.starts_with("terragrunt.") && name != "terragrunt.hcl" {
            return None;
        }
        match self.env.read_file(&file) {
            Some(text) => config_type(&text),
            None => default.cloned(),
        }
    }

    /// The file a constant Terragrunt path names, relative to this file's
    /// directory (`getCleanedTargetConfigPath`): a constant,
    /// `"${get_terragrunt_dir()}/REST"`, `find_in_parent_folders("FILE")`
    /// (the first folder above this one holding FILE, read through the
    /// context so that the tree bounds it) or
    /// `"${dirname(find_in_parent_folders("FILE"))}/REST"`.
    fn terragrunt_path(&mut self, e: &Expression) -> Option<PathBuf> {
        let source = crate::module::include_source(e, self.src)?;
        let dir = self.env.module_dir()?;
        let Some(wanted) = source.strip_prefix(crate::calls::PARENT) else {
            if Path::new(&source).is_absolute() {
                return None;
            }
            return Some(dir.join(source).components().collect());
        };
        let (name, beside) = match wanted.split_once(crate::calls::BESIDE) {
            Some((name, rest)) => (name, Some(rest.trim_start_matches('/'))),
            None => (wanted, None),
        };
        let found = dir
            .ancestors()
            .skip(1)
            .take(MAX_FOLDERS)
            .map(|a| a.join(name))
            .find(|p| self.env.read_file(p).is_some())?;
        Some(match beside {
            Some(rest) => found.parent()?.join(rest).components().collect(),
            None => found,
        })
    }
}

/// `TerragruntConfigAsCty` of a configuration's text, as a type; `None`
/// when the text does not parse, or when it has an `include` (the included
/// files' settings are merged into what it gives: not known here).
pub(crate) fn config_type(text: &str) -> Option<Type> {
    let body = syntax::deep::parse_body(text).ok()?;
    let src = Source::new(text, 0);
    if body.blocks().any(|b| b.ident.value().as_str() == "include") {
        return None;
    }
    let blocks = |ident: &'static str| body.blocks().filter(move |b| b.ident.value().as_str() == ident);
    let labelled = |ident: &'static str, ty: &dyn Fn(&hcl_edit::structure::Block) -> Type| {
        Type::object(blocks(ident).filter_map(|b| Some((label(b)?, ty(b)))).collect::<Vec<_>>())
    };
    let mut out: Vec<(String, Type)> = STRINGS.iter().map(|s| (s.to_string(), Type::string())).collect();
    // `*int64` and `*ModuleDependencies`: a null of their type when unset.
    out.push(("iam_assume_role_duration".to_string(), Type::number()));
    out.push(("dependencies".to_string(), Type::object([("paths".to_string(), Type::list(Type::string()))])));
    // `convertToCtyWithJSON` of the maps: JSON `null` without the block.
    let locals: Vec<(String, Type)> = blocks("locals")
        .flat_map(|b| b.body.attributes())
        .map(|a| (a.key.value().to_string(), constant(a, src)))
        .collect();
    out.push((
        "locals".to_string(),
        if blocks("locals").next().is_some() { Type::object(locals) } else { Type::none() },
    ));
    let inputs = match body.get_attribute("inputs").map(|a| &a.value) {
        None => Type::none(),
        Some(Expression::Object(obj)) => object_type(obj, src, 0).unwrap_or_else(Type::any),
        Some(_) => Type::any(),
    };
    out.push(("inputs".to_string(), inputs));
    out.push(("dependency".to_string(), labelled("dependency", &|_| dependency_type())));
    out.push(("generate".to_string(), labelled("generate", &|_| generate_type())));
    let feature = || Type::object([("name".to_string(), Type::string()), ("default".to_string(), Type::any())]);
    out.push(("feature".to_string(), labelled("feature", &|_| feature())));
    if let Some(b) = blocks("terraform").last() {
        out.push(("terraform".to_string(), terraform_type(b)));
    }
    if blocks("remote_state").next().is_some() || body.has_attribute("remote_state") {
        out.push(("remote_state".to_string(), remote_state_type()));
    }
    if body.has_attribute("prevent_destroy") {
        out.push(("prevent_destroy".to_string(), Type::bool()));
    }
    for b in OPTIONAL_BLOCKS {
        if blocks(b).next().is_some() {
            out.push((b.to_string(), Type::any()));
        }
    }
    Some(Type::object(out))
}

/// A block's first label.
fn label(b: &hcl_edit::structure::Block) -> Option<String> {
    b.labels.first().map(|l| crate::module::label_text(l).to_string())
}

/// An attribute's type as its text shows it ([`shape`]).
fn constant(a: &hcl_edit::structure::Attribute, src: Source<'_>) -> Type {
    shape(&a.value, src, 0)
}

/// What an expression's text shows of its value's type (JSON-shaped, as
/// Terragrunt's round trip through JSON leaves it): a constant's type, a
/// template's `string`, an object or tuple literal's keys and elements so
/// typed; else `any` (it reads names or calls functions).
/// A template's `string`: HCL converts what it interpolates to text.
fn shape(e: &Expression, src: Source<'_>, depth: usize) -> Type {
    if let Ok(v) = eval(e, src) {
        return v.type_of();
    }
    match e {
        _ if depth > 32 => Type::any(),
        // (`"${x}"` alone is x's value, unconverted, as HCL has it.)
        Expression::StringTemplate(t)
            if matches!(t.iter().collect::<Vec<_>>().as_slice(), [Element::Interpolation(_)]) =>
        {
            Type::any()
        }
        Expression::StringTemplate(_) | Expression::HeredocTemplate(_) => Type::string(),
        Expression::Object(obj) => object_type(obj, src, depth + 1).unwrap_or_else(Type::any),
        Expression::Array(items) => Type::tuple(items.iter().map(|i| shape(i, src, depth + 1)).collect()),
        Expression::Parenthesis(p) => shape(p.inner(), src, depth + 1),
        _ => Type::any(),
    }
}

/// An object literal's type: each key's [`shape`]; `None` when a key is
/// not a name or a string.
fn object_type(obj: &hcl_edit::expr::Object, src: Source<'_>, depth: usize) -> Option<Type> {
    let attrs = obj.iter().map(|(k, v)| Some((crate::module::literal_key(k)?, shape(v.expr(), src, depth))));
    Some(Type::object(attrs.collect::<Option<Vec<_>>>()?))
}

/// A `dependency` block as `GoTypeToCty` gives it (the `cty` tags of
/// `Dependency` in `pkg/config/dependency.go`; `outputs` is what the
/// dependency rendered, dynamic).
fn dependency_type() -> Type {
    let (s, b, a) = (Type::string, Type::bool, Type::any);
    Type::object([
        ("name".to_string(), s()),
        ("config_path".to_string(), a()),
        ("enabled".to_string(), b()),
        ("skip".to_string(), b()),
        ("mock_outputs".to_string(), a()),
        ("mock_outputs_allowed_terraform_commands".to_string(), Type::list(s())),
        ("mock_outputs_merge_with_state".to_string(), b()),
        ("mock_outputs_merge_strategy_with_state".to_string(), s()),
        ("outputs".to_string(), a()),
        ("inputs".to_string(), a()),
    ])
}

/// A `generate` block (`GenerateConfig`'s `cty` tags,
/// `internal/codegen/generate.go`).
fn generate_type() -> Type {
    let (s, b) = (Type::string, Type::bool);
    Type::object([
        ("path".to_string(), s()),
        ("if_exists".to_string(), s()),
        ("if_disabled".to_string(), s()),
        ("comment_prefix".to_string(), s()),
        ("contents".to_string(), s()),
        ("disable_signature".to_string(), b()),
        ("disable".to_string(), b()),
        ("hcl_fmt".to_string(), b()),
        ("mutable".to_string(), b()),
    ])
}

/// The `terraform` block (`CtyTerraformConfig`, `terraformConfigAsCty`:
/// the nested blocks as objects by name; `update_source_with_cas`,
/// `mutable` and `version` only when set).
fn terraform_type(b: &hcl_edit::structure::Block) -> Type {
    let named = |ident: &str| {
        let names = b.body.blocks().filter(|n| n.ident.value().as_str() == ident).filter_map(label);
        Type::object(names.map(|n| (n, Type::any())).collect::<Vec<_>>())
    };
    let mut attrs = vec![
        ("source".to_string(), Type::string()),
        ("include_in_copy".to_string(), Type::list(Type::string())),
        ("exclude_from_copy".to_string(), Type::list(Type::string())),
        ("copy_terraform_lock_file".to_string(), Type::bool()),
        ("extra_arguments".to_string(), named("extra_arguments")),
        ("before_hook".to_string(), named("before_hook")),
        ("after_hook".to_string(), named("after_hook")),
        ("error_hook".to_string(), named("error_hook")),
    ];
    for (key, ty) in [("update_source_with_cas", Type::bool()), ("mutable", Type::bool()), ("version", Type::string())]
    {
        if b.body.has_attribute(key) {
            attrs.push((key.to_string(), ty));
        }
    }
    Type::object(attrs)
}

/// `remote_state` (`RemoteStateAsCty`: the backend's name and flags, its
/// `config` and `encryption` as JSON, `generate`).
fn remote_state_type() -> Type {
    Type::object([
        ("backend".to_string(), Type::string()),
        ("disable_init".to_string(), Type::bool()),
        ("disable_dependency_optimization".to_string(), Type::bool()),
        ("generate".to_string(), Type::any()),
        ("config".to_string(), Type::any()),
        ("encryption".to_string(), Type::any()),
    ])
}
