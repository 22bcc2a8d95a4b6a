//! Fixture modules (`tests/fixtures/<case>/`): the `check` and `types`
//! output of each directory, as a reviewed snapshot (`tests/snapshots/`).
//! Update after a deliberate change with `INSTA_UPDATE=always cargo test
//! --test it -- fixtures::`, then read the diff.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::paths;

use hcl_types::cli::check::{render_diagnostics, render_types, run_analysis, CommonArgs, Format, VarFileTarget};

fn cases() -> Vec<PathBuf> {
    let root = Path::new("tests/fixtures");
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(root)
        .expect("tests/fixtures")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    dirs
}

/// The schemas a fixture directory's `.hcl-types-schemas` lists: a provider
/// schema per line, a package schema per line `package: FILE`. A path is
/// relative to the repository, and one under `../shared/` is in the shared
/// directory (`paths::shared`): `None`, after one line saying so, when that
/// is absent.
fn listed_schemas(dir: &Path) -> Option<(Vec<PathBuf>, Vec<PathBuf>)> {
    let listed = std::fs::read_to_string(dir.join(".hcl-types-schemas")).unwrap_or_default();
    let (mut providers, mut packages) = (Vec::new(), Vec::new());
    for line in listed.lines().map(str::trim).filter(|l| !l.is_empty()) {
        let (list, file) = match line.strip_prefix("package:") {
            Some(file) => (&mut packages, file.trim()),
            None => (&mut providers, line),
        };
        let path = match file.strip_prefix("../shared/") {
            Some(rel) => paths::shared(rel, &format!("fixture {}", dir.display()))?,
            None => paths::root().join(file),
        };
        list.push(path);
    }
    Some((providers, packages))
}

/// What a user sees from `hcl-types check DIR` and `hcl-types types DIR`
/// (with the schemas its `.hcl-types-schemas` lists, [`listed_schemas`]),
/// or `None` when a listed schema is absent.
fn render(dir: &Path) -> Option<String> {
    let (provider_schemas, package_schemas) = listed_schemas(dir)?;
    let args = CommonArgs {
        paths: vec![dir.to_path_buf()],
        format: Format::Text,
        dialect: None,
        var_files: Vec::new(),
        var_file_table: None,
        provider_schemas,
        package_schemas,
        // Hermetic: no `.hcl-types.hcl` above the checkout applies.
        source: hcl_types::cli::check::SourceArgs { no_config: true, ..Default::default() },
    };
    let (reports, failures) = run_analysis(&args, false);
    assert!(failures.is_empty(), "{}: I/O failures", dir.display());
    let (diags, counts) = render_diagnostics(&reports, &BTreeMap::new(), Format::Text);
    let types = render_types(&reports, Format::Text);
    Some(format!(
        "## check ({} errors, {} warnings, {} hints)\n{}\n## types\n{}\n",
        counts.errors,
        counts.warnings,
        counts.hints,
        diags.join("\n"),
        types.join("\n")
    ))
}

#[test]
fn fixture_snapshots() {
    let cases = cases();
    assert!(cases.len() >= 10, "expected the fixture directories, found {}", cases.len());
    let mut failed = Vec::new();
    for dir in &cases {
        let name = dir.file_name().and_then(|n| n.to_str()).unwrap_or_default().to_string();
        let Some(output) = render(dir) else { continue };
        let result = std::panic::catch_unwind(|| {
            // The snapshots stay in `tests/snapshots/`, named as when this
            // file was a test binary of its own (`fixtures__NAME.snap`).
            insta::with_settings!({ snapshot_path => "../snapshots", prepend_module_to_snapshot => false }, {
                insta::assert_snapshot!(format!("fixtures__{name}"), output);
            });
        });
        if result.is_err() {
            failed.push(name);
        }
    }
    assert!(failed.is_empty(), "snapshot mismatches: {failed:?}");
}

#[test]
fn a_broken_block_costs_only_itself() {
    let dir = tempdir();
    std::fs::write(
        dir.join("main.tf"),
        "variable \"a\" {\n  type    = number\n  default = \"x\"\n}\n\nresource \"aws_s3_bucket\" \"b\" {\n  bucket = \"x\"\n  tags = {\n}\n\nvariable \"c\" {\n  type    = bool\n  default = \"maybe\"\n}\n",
    )
    .unwrap();
    let out = render(&dir).expect("no schemas");
    assert!(out.contains("main.tf:3:13: error[invalid-value]"), "{out}");
    assert!(out.contains("error[syntax]"), "{out}");
    assert!(out.contains("main.tf:13:13: error[invalid-value]"), "{out}");
    assert!(out.contains("var.c: bool"), "{out}");
}

/// Issue 13's acceptance: valid HCL that hcl-edit misread (an empty heredoc
/// with an indented marker, repeated object keys) and a broken `locals`
/// block whose names other files use: one syntax diagnostic, nothing else.
#[test]
fn a_broken_block_still_declares_its_names() {
    let out = render(Path::new("tests/fixtures/40-parser-fidelity")).expect("no schemas");
    assert_eq!(out.matches("error[syntax]").count(), 1, "{out}");
    assert!(out.starts_with("## check (1 errors, 0 warnings, 0 hints)"), "{out}");
    for name in ["local.region_map: any", "local.zone: any", "local.prefix: any", "local.after_empty: int"] {
        assert!(out.contains(name), "{name} in {out}");
    }
}

#[test]
fn a_var_file_is_checked_against_its_target_module() {
    let dir = tempdir();
    std::fs::create_dir_all(dir.join("module")).unwrap();
    std::fs::create_dir_all(dir.join("tests")).unwrap();
    std::fs::write(dir.join("module/variables.tf"), "variable \"n\" {\n  type = number\n}\n").unwrap();
    std::fs::write(dir.join("tests/a.tfvars"), "n = \"x\"\nm = 1\n").unwrap();
    let check = |var_files| {
        let args = CommonArgs {
            paths: vec![dir.join("tests")],
            format: Format::Text,
            dialect: None,
            var_files,
            var_file_table: None,
            provider_schemas: Vec::new(),
            package_schemas: Vec::new(),
            // Hermetic: no `.hcl-types.hcl` above the checkout applies.
            source: hcl_types::cli::check::SourceArgs { no_config: true, ..Default::default() },
        };
        let (reports, failures) = run_analysis(&args, false);
        assert!(failures.is_empty());
        render_diagnostics(&reports, &BTreeMap::new(), Format::Text).0.join("\n")
    };
    // Beside no variables, a tfvars file is not checked.
    assert_eq!(check(Vec::new()), "");
    // Against its target (not among the checked paths: read for its
    // variables, not reported itself).
    let target = VarFileTarget { tfvars: dir.join("tests/a.tfvars"), module: dir.join("module") };
    let out = check(vec![target]);
    assert!(out.contains("a.tfvars:1:5: error[invalid-value]"), "{out}");
    assert!(out.contains("a.tfvars:2:1: warning[undefined-reference]: `m`"), "{out}");
    assert!(!out.contains("variables.tf"), "{out}");
}

#[test]
fn unreadable_and_binary_files_are_reported() {
    let dir = tempdir();
    std::fs::write(dir.join("bin.tf"), b"variable \"a\" {\0}\n").unwrap();
    std::fs::write(dir.join("latin1.tf"), b"variable \"caf\xe9\" {}\n").unwrap();
    std::fs::write(dir.join("ok.tf"), "variable \"ok\" {\n  type = string\n}\n").unwrap();
    let out = render(&dir).expect("no schemas");
    assert!(out.contains("bin.tf:1:1: hint[not-hcl]: not HCL: binary file"), "{out}");
    assert!(out.contains("latin1.tf:1:1: error[syntax]: the file is not valid UTF-8"), "{out}");
    assert!(out.contains("var.ok: string"), "{out}");
}

fn tempdir() -> crate::scratch::Scratch {
    crate::scratch::named("test")
}
