//! The project configuration file, `.hcl-types.hcl` (docs/spec/config.md):
//! what a repository commits so that every `hcl-types check` run in it, by a
//! developer, pre-commit or CI, excludes the same files and treats the same
//! codes alike. It is HCL, read with the parser the tool already has (as
//! TFLint reads `.tflint.hcl`), and found upward from the checked path.

use std::path::{Path, PathBuf};

use hcl_edit::expr::{Expression, ObjectKey};
use hcl_edit::structure::Structure;
use syntax::diagnostic::{Code, Severity};
use syntax::Dialect;

use crate::check::VarFileTarget;

/// The file's name.
pub const FILE_NAME: &str = ".hcl-types.hcl";

/// What a configuration file says; relative paths in it are resolved
/// against its directory.
#[derive(Debug, Default, Clone)]
pub struct Config {
    /// The file read (none: defaults).
    pub path: Option<PathBuf>,
    /// Glob patterns of files and directories not to check, relative to
    /// the file's directory ([`crate::exclude`]).
    pub exclude: Vec<String>,
    /// A dialect for every file.
    pub dialect: Option<Dialect>,
    /// Severity overrides per code (`None`: off).
    pub severity: Vec<(Code, Option<Severity>)>,
    /// `.tfvars` files checked against another directory's variables.
    pub var_files: Vec<VarFileTarget>,
    /// Provider schema files.
    pub provider_schemas: Vec<PathBuf>,
    /// Pulumi package schema files.
    pub package_schemas: Vec<PathBuf>,
}

/// The nearest `.hcl-types.hcl` in `start` (a file's directory when it is
/// a file) or a directory above it, up to and including the checked
/// path's repository ([`crate::confine::repository`]): a file above it (one
/// left in a shared `/tmp`, a home directory's) is another project's and
/// is not honoured. `start` is made absolute against the current
/// directory, so `check .` and `check sub/x.tf` find the same file.
pub fn find(start: &Path) -> Option<PathBuf> {
    find_within(start, &crate::confine::repository(start))
}

/// [`find`], looking no higher than `top` (the language server's: the
/// workspace folder; see `nearest`).
pub fn find_within(start: &Path, top: &Path) -> Option<PathBuf> {
    let absolute = if start.is_absolute() { start.to_path_buf() } else { std::env::current_dir().ok()?.join(start) };
    let absolute = analysis::workspace::normalize(&absolute);
    let mut dir = if absolute.is_dir() { Some(absolute.as_path()) } else { absolute.parent() };
    while let Some(d) = dir.filter(|d| d.starts_with(top)) {
        let candidate = d.join(FILE_NAME);
        // (A link is found whatever it leads to; it is judged when read.)
        if std::fs::symlink_metadata(&candidate).is_ok_and(|m| m.is_symlink() || m.is_file()) {
            return Some(candidate);
        }
        dir = d.parent();
    }
    None
}

/// Reads and parses a configuration file found in the tree: `None` when
/// it leads out of it (a link: refused there, never read, [`crate::confine`]).
pub fn load_within(path: &Path, tree: &crate::confine::Tree) -> Option<Result<Config, String>> {
    tree.allows(path).then(|| load(path))
}

/// Reads and parses a configuration file.
pub fn load(path: &Path) -> Result<Config, String> {
    let text = crate::fsread::read_regular_to_string(path, crate::fsread::MANIFEST_CAP).map_err(|e| e.to_string())?;
    let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
    let mut config = parse(&text, &dir)?;
    config.path = Some(path.to_path_buf());
    Ok(config)
}

/// A severity as the command line and the file spell it; `Ok(None)` is `off`.
pub fn parse_severity(s: &str) -> Result<Option<Severity>, String> {
    match s {
        "error" => Ok(Some(Severity::Error)),
        "warning" => Ok(Some(Severity::Warning)),
        "hint" => Ok(Some(Severity::Hint)),
        "off" => Ok(None),
        _ => Err(format!("`{s}`: expected error, warning, hint or off")),
    }
}

/// A diagnostic code by name; the error lists every code.
pub fn parse_code(s: &str) -> Result<Code, String> {
    Code::parse(s).ok_or_else(|| {
        let all: Vec<&str> = Code::ALL.iter().map(|c| c.as_str()).collect();
        format!("unknown code `{s}` (codes: {})", all.join(", "))
    })
}

/// Parses a configuration's text; `dir` is where its relative paths start.
/// Anything it does not know is an error, not ignored: a misspelt key would
/// otherwise silently do nothing.
pub fn parse(text: &str, dir: &Path) -> Result<Config, String> {
    let body = hcl_edit::parser::parse_body(text).map_err(|e| e.to_string().replace('\n', " "))?;
    let mut config = Config::default();
    for structure in body.iter() {
        let attr = match structure {
            Structure::Attribute(a) => a,
            Structure::Block(b) => {
                return Err(format!("unexpected block `{}`: the file holds attributes only", b.ident.as_str()))
            }
        };
        let key = attr.key.as_str();
        let value = &attr.value;
        let at = |e: String| format!("`{key}`: {e}");
        match key {
            "exclude" => {
                config.exclude = strings(value).map_err(at)?;
                crate::exclude::within_limits(config.exclude.iter().map(String::as_str)).map_err(at)?;
            }
            "dialect" => {
                let s = string(value).map_err(at)?;
                config.dialect = Some(s.parse::<Dialect>().map_err(|_| {
                    let all: Vec<&str> = Dialect::ALL.iter().map(|d| d.as_str()).collect();
                    at(format!("unknown dialect `{s}` (dialects: {})", all.join(", ")))
                })?);
            }
            "severity" => {
                for (code, sev) in pairs(value).map_err(at)? {
                    let code = parse_code(&code).map_err(at)?;
                    config.severity.push((code, parse_severity(&sev).map_err(at)?));
                }
            }
            "var_files" => {
                for (tfvars, module) in pairs(value).map_err(at)? {
                    config.var_files.push(VarFileTarget { tfvars: dir.join(tfvars), module: dir.join(module) });
                }
            }
            "provider_schemas" => config.provider_schemas = strings(value).map_err(at)?.iter().map(|p| dir.join(p)).collect(),
            "package_schemas" => config.package_schemas = strings(value).map_err(at)?.iter().map(|p| dir.join(p)).collect(),
            _ => {
                return Err(format!(
                    "unknown attribute `{key}` (known: exclude, dialect, severity, var_files, provider_schemas, package_schemas)"
                ))
            }
        }
    }
    Ok(config)
}

fn string(e: &Expression) -> Result<String, String> {
    e.as_str().map(str::to_string).ok_or_else(|| "expected a string literal".to_string())
}

fn strings(e: &Expression) -> Result<Vec<String>, String> {
    match e {
        Expression::Array(items) => items.iter().map(string).collect(),
        _ => Err("expected a list of strings".to_string()),
    }
}

/// An object of string values, keys written as names or strings.
fn pairs(e: &Expression) -> Result<Vec<(String, String)>, String> {
    let Expression::Object(object) = e else { return Err("expected an object { KEY = \"VALUE\" }".to_string()) };
    object
        .iter()
        .map(|(k, v)| {
            let key = match k {
                ObjectKey::Ident(i) => i.as_str().to_string(),
                ObjectKey::Expression(e) => string(e)?,
            };
            Ok((key, string(v.expr())?))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_attribute_is_read_with_paths_from_the_files_directory() {
        let text = r#"
exclude  = ["examples/**", "*.auto.tfvars"]
dialect  = "opentofu"
severity = {
  unsafe-conversion     = "error"
  "implicit-conversion" = "off"
}
var_files        = { "tests/dev.tfvars" = "modules/app" }
provider_schemas = ["schemas/aws.json"]
package_schemas  = ["schemas/random.json"]
"#;
        let c = parse(text, Path::new("/repo")).unwrap();
        assert_eq!(c.exclude, ["examples/**", "*.auto.tfvars"]);
        assert_eq!(c.dialect, Some(Dialect::OpenTofu));
        let unsafe_conversion = parse_code("unsafe-conversion").unwrap();
        let implicit = parse_code("implicit-conversion").unwrap();
        assert_eq!(c.severity, [(unsafe_conversion, Some(Severity::Error)), (implicit, None)]);
        assert_eq!(c.var_files[0].tfvars, Path::new("/repo/tests/dev.tfvars"));
        assert_eq!(c.var_files[0].module, Path::new("/repo/modules/app"));
        assert_eq!(c.provider_schemas, [Path::new("/repo/schemas/aws.json")]);
        assert_eq!(c.package_schemas, [Path::new("/repo/schemas/random.json")]);
    }

    #[test]
    fn the_readmes_one_line_object_reads() {
        let c = parse("severity = { unsafe-conversion = \"error\", implicit-conversion = \"off\" }\n", Path::new("/"));
        assert_eq!(c.map(|c| c.severity.len()), Ok(2));
    }

    #[test]
    fn mistakes_are_errors_that_say_where() {
        let too_many = format!("exclude = [{}]", vec!["\"x\""; 1001].join(","));
        let cases = [
            ("exclude = \"x\"", "`exclude`: expected a list of strings"),
            ("dialect = \"cobol\"", "`dialect`: unknown dialect `cobol`"),
            ("severity = { nope = \"error\" }", "`severity`: unknown code `nope`"),
            ("severity = { syntax = \"loud\" }", "`severity`: `loud`: expected error, warning, hint or off"),
            ("excludes = []", "unknown attribute `excludes`"),
            ("rule \"x\" {}", "unexpected block `rule`"),
            ("exclude = [", ""),
            (too_many.as_str(), "`exclude`: 1001 exclude patterns: at most 1000 are read"),
        ];
        for (text, wanted) in cases {
            let e = parse(text, Path::new("/")).expect_err(text);
            assert!(e.contains(wanted), "{text}: {e}");
        }
    }

    #[test]
    fn the_nearest_file_upward_is_found() {
        let root = crate::scratch::Scratch::new("config").unwrap();
        let deep = root.join("a/b");
        std::fs::create_dir_all(&deep).unwrap();
        std::fs::create_dir_all(root.join(".git")).unwrap();
        std::fs::write(root.join(FILE_NAME), "").unwrap();
        assert_eq!(find(&deep), Some(root.join(FILE_NAME)));
        assert_eq!(find(&deep.join("main.tf")), Some(root.join(FILE_NAME)));
        std::fs::write(root.join("a").join(FILE_NAME), "").unwrap();
        assert_eq!(find(&deep), Some(root.join("a").join(FILE_NAME)));
        let _ = std::fs::remove_dir_all(&root);
    }

    /// Issue 42.7: a file above the checked path's repository (one left in
    /// a shared `/tmp`) is not honoured; nor, without a repository, one
    /// above the checked directory (when `check` runs elsewhere).
    #[test]
    fn a_file_above_the_repository_is_not_found() {
        let shared = crate::scratch::Scratch::new("config-above").unwrap();
        let repo = shared.join("repo");
        std::fs::create_dir_all(repo.join(".git")).unwrap();
        std::fs::create_dir_all(repo.join("modules/app")).unwrap();
        std::fs::create_dir_all(shared.join("plain/m")).unwrap();
        std::fs::write(shared.join(FILE_NAME), "severity = { type-mismatch = \"off\" }\n").unwrap();
        assert_eq!(find(&repo.join("modules/app")), None);
        assert_eq!(find(&shared.join("plain/m")), None);
        std::fs::write(repo.join(FILE_NAME), "").unwrap();
        assert_eq!(find(&repo.join("modules/app")), Some(repo.join(FILE_NAME)));
        // The server's bound: its workspace folder.
        assert_eq!(find_within(&repo.join("modules/app"), &repo.join("modules")), None);
        let _ = std::fs::remove_dir_all(&shared);
    }
}
