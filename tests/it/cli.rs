//! `hcl-types check` and `hcl-types types` as a user runs them: the real
//! binary on small modules written to a temporary directory, asserting the
//! promises of README.md and docs/spec/cli.md (the directories skipped,
//! exit statuses 0/1/2, `--dialect`, `--severity`, the JSON shapes, and the
//! parsing of `--var-file` and `--var-file-table`).

use crate::paths;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use std::process::{Command, Output};

use serde_json::Value;

/// A fresh directory for one test.
fn tempdir(name: &str) -> crate::scratch::Scratch {
    crate::scratch::named(name)
}

/// Writes `text` to `dir/rel`, creating directories.
fn write(dir: &Path, rel: &str, text: &str) {
    let path = dir.join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// Runs the binary in `dir`.
fn run(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_hcl-types")).current_dir(dir).args(args).output().expect("run hcl-types")
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).expect("UTF-8 stdout")
}

fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).expect("UTF-8 stderr")
}

/// `check`'s text lines as (path, code, severity).
fn reported(o: &Output) -> Vec<(String, String, String)> {
    stdout(o)
        .lines()
        .map(|l| {
            let (path, rest) = l.split_once(':').unwrap_or_else(|| panic!("not a diagnostic line: {l}"));
            let (_, rest) = rest.split_once(": ").unwrap();
            let (severity, rest) = rest.split_once('[').unwrap();
            let (code, _) = rest.split_once(']').unwrap();
            (path.to_string(), code.to_string(), severity.to_string())
        })
        .collect()
}

const BAD_BOOL: &str =
    "variable \"b\" {\n  type    = bool\n  default = \"maybe\"\n}\noutput \"b\" {\n  value = var.b\n}\n";
const CLEAN: &str = "variable \"n\" {\n  type    = number\n  default = 1\n}\noutput \"n\" {\n  value = var.n\n}\n";
/// One warning (unsafe-conversion) and one hint (implicit-conversion).
const WARN_AND_HINT: &str =
    "variable \"s\" {\n  type = string\n}\nvariable \"n\" {\n  type    = number\n  default = \"2\"\n}\nlocals {\n  x = var.s + 1\n}\noutput \"o\" {\n  value = [var.n, local.x]\n}\n";

#[test]
fn check_skips_git_terraform_and_node_modules() {
    let dir = tempdir("skip");
    write(&dir, "main.tf", BAD_BOOL);
    write(&dir, "nested/deeper/main.tf", BAD_BOOL);
    for skipped in [".git", ".terraform/modules/vpc", "node_modules/pkg", "nested/node_modules", "nested/.git/hooks"] {
        write(&dir, &format!("{skipped}/main.tf"), BAD_BOOL);
    }
    // Only directories of those names are skipped, not files.
    write(&dir, "other/.terraform.tf", BAD_BOOL);
    let o = run(&dir, &["check", "."]);
    let paths: BTreeSet<String> = reported(&o).into_iter().map(|(p, _, _)| p).collect();
    let want: BTreeSet<String> =
        ["./main.tf", "./nested/deeper/main.tf", "./other/.terraform.tf"].iter().map(|s| s.to_string()).collect();
    assert_eq!(paths, want, "{}", stdout(&o));
    assert!(stderr(&o).ends_with("3 errors, 0 warnings, 0 hints in 3 files\n"), "{}", stderr(&o));
    // Named explicitly, such a directory is checked.
    let o = run(&dir, &["check", ".terraform/modules/vpc"]);
    assert_eq!(reported(&o).len(), 1, "{}", stdout(&o));
}

#[test]
fn exit_status_tells_clean_errors_and_failures_apart() {
    let dir = tempdir("exit");
    write(&dir, "clean/main.tf", CLEAN);
    write(&dir, "warn/main.tf", WARN_AND_HINT);
    write(&dir, "bad/main.tf", BAD_BOOL);

    let o = run(&dir, &["check", "clean"]);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(stdout(&o), "");
    assert_eq!(stderr(&o), "0 errors, 0 warnings, 0 hints in 1 file\n");

    // Warnings and hints alone still exit 0.
    let o = run(&dir, &["check", "warn"]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    assert_eq!(stderr(&o), "0 errors, 1 warning, 1 hint in 1 file\n");

    let o = run(&dir, &["check", "clean", "bad"]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(reported(&o), vec![("bad/main.tf".into(), "invalid-value".into(), "error".into())]);

    // A path that cannot be read is an I/O failure (2), reported on stderr,
    // and the rest is still checked.
    let o = run(&dir, &["check", "bad", "missing"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).starts_with("missing: error: "), "{}", stderr(&o));
    assert_eq!(reported(&o).len(), 1, "the readable module is still checked");
    let o = run(&dir, &["types", "clean", "missing"]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(stdout(&o), "clean/main.tf:1:10: var.n: number\nclean/main.tf:5:8: output.n: number\n");

    // Usage errors are 2, with nothing on stdout.
    for args in [&["check", "--no-such-flag"][..], &["check", "--format", "xml"], &["frobnicate"]] {
        let o = run(&dir, args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert_eq!(stdout(&o), "", "{args:?}");
        assert!(stderr(&o).starts_with("error: "), "{args:?}: {}", stderr(&o));
    }
    // --help and --version are not failures.
    assert_eq!(run(&dir, &["check", "--help"]).status.code(), Some(0));
    assert_eq!(run(&dir, &["--version"]).status.code(), Some(0));
}

#[test]
fn dialect_option_overrides_the_file_name() {
    let dir = tempdir("dialect");
    write(&dir, "a.tf", "variable \"_n\" {\n  type = int\n}\n");
    write(&dir, "u.hcl", "variable \"u\" {\n  type = union(int, string)\n}\n");
    let codes = |args: &[&str]| -> Vec<(String, String, String)> {
        let mut all = vec!["check"];
        all.extend_from_slice(args);
        all.extend(["a.tf", "u.hcl"]);
        reported(&run(&dir, &all))
    };
    let dialect_error = |p: &str| (p.to_string(), "type-dialect".to_string(), "error".to_string());
    // By name: `.tf` is Terraform (no `int`), `.hcl` the full system.
    assert_eq!(codes(&[]), vec![dialect_error("a.tf")]);
    assert_eq!(codes(&["--dialect", "hcl"]), vec![]);
    // PCL has `int` but not `union`.
    assert_eq!(codes(&["--dialect", "pcl"]), vec![dialect_error("u.hcl")]);
    // Terraform has neither: `union` and its `int` are both reported.
    assert_eq!(
        codes(&["--dialect", "terraform"]),
        vec![dialect_error("a.tf"), dialect_error("u.hcl"), dialect_error("u.hcl")]
    );
    let o = run(&dir, &["check", "--dialect", "yaml", "a.tf"]);
    assert_eq!(o.status.code(), Some(2));
    // The error names the value and lists the dialects (issue 33).
    assert!(
        stderr(&o).contains("'yaml'") && stderr(&o).contains("terraform, opentofu, pulumi-hcl, pcl, hcl"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn severity_overrides_each_code() {
    let dir = tempdir("severity");
    write(&dir, "main.tf", WARN_AND_HINT);
    let run_with = |overrides: &[&str]| {
        let mut args = vec!["check", "--format", "json"];
        for o in overrides {
            args.extend(["--severity", o]);
        }
        args.push(".");
        let o = run(&dir, &args);
        let json: Value = serde_json::from_str(&stdout(&o)).expect("JSON");
        let got: Vec<(String, String)> = json
            .as_array()
            .unwrap()
            .iter()
            .map(|d| (d["code"].as_str().unwrap().to_string(), d["severity"].as_str().unwrap().to_string()))
            .collect();
        (o.status.code(), got)
    };
    let pair = |c: &str, s: &str| (c.to_string(), s.to_string());
    assert_eq!(
        run_with(&[]),
        (Some(0), vec![pair("implicit-conversion", "hint"), pair("unsafe-conversion", "warning")])
    );
    // A warning made an error fails the run.
    assert_eq!(
        run_with(&["unsafe-conversion=error"]),
        (Some(1), vec![pair("implicit-conversion", "hint"), pair("unsafe-conversion", "error")])
    );
    // Repeatable, one per code; `off` drops the diagnostic.
    assert_eq!(
        run_with(&["implicit-conversion=warning", "unsafe-conversion=off"]),
        (Some(0), vec![pair("implicit-conversion", "warning")])
    );
    assert_eq!(
        run_with(&["unsafe-conversion=hint", "implicit-conversion=off"]),
        (Some(0), vec![pair("unsafe-conversion", "hint")])
    );
    // The last override of a code wins.
    assert_eq!(run_with(&["unsafe-conversion=off", "unsafe-conversion=error"]).0, Some(1));
    // The lints of unused declarations are hints by default (issue 44.3),
    // a severity turns one up or off (all four off: not computed,
    // `Memo::set_lints`).
    write(&dir, "lints.tf", "variable \"v\" {}\nlocals {\n  l = 1\n}\n");
    let (status, got) = run_with(&[]);
    assert_eq!(status, Some(0));
    assert!(got.contains(&pair("unused-local", "hint")) && got.contains(&pair("unused-variable", "hint")), "{got:?}");
    let (status, got) = run_with(&["unused-local=warning"]);
    assert_eq!(status, Some(0));
    assert!(
        got.contains(&pair("unused-local", "warning")) && got.contains(&pair("unused-variable", "hint")),
        "{got:?}"
    );
    let off = ["unused-local=off", "unused-variable=off", "unused-data=off", "unused-provider=off"];
    let (_, got) = run_with(&off);
    assert!(!got.iter().any(|(c, _)| c.starts_with("unused-")), "{got:?}");

    // An error turned off or down no longer fails the run, and the summary
    // counts what is printed.
    write(&dir, "bad/main.tf", BAD_BOOL);
    let o = run(&dir, &["check", "--severity", "invalid-value=off", "bad"]);
    assert_eq!((o.status.code(), stdout(&o)), (Some(0), String::new()));
    assert_eq!(stderr(&o), "0 errors, 0 warnings, 0 hints in 1 file\n");
    let o = run(&dir, &["check", "--severity", "invalid-value=warning", "bad"]);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(reported(&o), vec![("bad/main.tf".into(), "invalid-value".into(), "warning".into())]);

    for (bad, says) in [
        ("no-such-code=error", "unknown code `no-such-code`"),
        ("invalid-value=fatal", "`fatal`: expected error, warning, hint or off"),
        ("invalid-value", "expected CODE=error|warning|hint|off"),
    ] {
        let o = run(&dir, &["check", "--severity", bad, "bad"]);
        assert_eq!(o.status.code(), Some(2), "{bad}");
        assert!(stderr(&o).contains(says), "{bad}: {}", stderr(&o));
        assert_eq!(stdout(&o), "", "{bad}");
    }
}

/// The keys of every object of a JSON array, which must all be the same.
fn keys(v: &Value) -> BTreeSet<String> {
    let all: BTreeSet<BTreeSet<String>> =
        v.as_array().expect("a JSON array").iter().map(|o| o.as_object().unwrap().keys().cloned().collect()).collect();
    assert_eq!(all.len(), 1, "objects of different shapes: {all:?}");
    all.into_iter().next().unwrap()
}

#[test]
fn json_output_of_check_and_types() {
    let dir = tempdir("json");
    // The bad default on line 3 after a multi-byte character: the column
    // counts characters, the end is the end of the literal.
    write(
        &dir,
        "main.tf",
        "variable \"b\" {\n  type    = bool\n  /*é😀*/ default = \"maybe\"\n}\noutput \"b\" {\n  value = var.b\n}\n",
    );
    write(&dir, "vars.tf", WARN_AND_HINT);
    let o = run(&dir, &["check", "--format", "json", "."]);
    assert_eq!(o.status.code(), Some(1));
    let out = stdout(&o);
    assert_eq!(out.lines().count(), 1, "one JSON array on one line: {out}");
    let v: Value = serde_json::from_str(&out).unwrap();
    let want: BTreeSet<String> = ["path", "line", "column", "end_line", "end_column", "severity", "code", "message"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    assert_eq!(keys(&v), want);
    let first = &v[0];
    assert_eq!(first["path"], "./main.tf");
    assert_eq!((first["line"].as_u64(), first["column"].as_u64()), (Some(3), Some(20)));
    assert_eq!((first["end_line"].as_u64(), first["end_column"].as_u64()), (Some(3), Some(27)));
    assert_eq!(first["severity"], "error");
    assert_eq!(first["code"], "invalid-value");
    assert!(first["message"].as_str().unwrap().contains("\"maybe\" is not a bool"), "{first}");
    // Sorted by path and position, the same diagnostics as the text format.
    let text = run(&dir, &["check", "."]);
    let from_json: Vec<String> = v
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            format!(
                "{}:{}:{}: {}[{}]: {}",
                d["path"].as_str().unwrap(),
                d["line"],
                d["column"],
                d["severity"].as_str().unwrap(),
                d["code"].as_str().unwrap(),
                d["message"].as_str().unwrap()
            )
        })
        .collect();
    assert_eq!(from_json, stdout(&text).lines().collect::<Vec<_>>());
    assert_eq!(v.as_array().unwrap().len(), 3);

    // Nothing to report is an empty array, not nothing.
    write(&dir, "clean/main.tf", CLEAN);
    let o = run(&dir, &["check", "--format", "json", "clean"]);
    assert_eq!((o.status.code(), stdout(&o)), (Some(0), "[]\n".to_string()));

    let o = run(&dir, &["types", "--format", "json", "clean", "main.tf"]);
    assert_eq!(o.status.code(), Some(0));
    let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(keys(&v), ["address", "column", "line", "path", "type"].iter().map(|s| s.to_string()).collect());
    assert_eq!(
        v,
        serde_json::json!([
            {"path": "clean/main.tf", "line": 1, "column": 10, "address": "var.n", "type": "number"},
            {"path": "clean/main.tf", "line": 5, "column": 8, "address": "output.n", "type": "number"},
            {"path": "main.tf", "line": 1, "column": 10, "address": "var.b", "type": "bool"},
            {"path": "main.tf", "line": 5, "column": 8, "address": "output.b", "type": "bool"},
        ])
    );
    let o = run(&dir, &["types", "clean", "main.tf"]);
    assert_eq!(
        stdout(&o),
        "clean/main.tf:1:10: var.n: number\nclean/main.tf:5:8: output.n: number\nmain.tf:1:10: var.b: bool\nmain.tf:5:8: output.b: bool\n"
    );
}

/// A module with one variable and test inputs kept apart from it.
fn var_file_layout(name: &str) -> crate::scratch::Scratch {
    let dir = tempdir(name);
    write(&dir, "module/variables.tf", "variable \"size\" {\n  type = number\n}\n");
    write(&dir, "tests/inputs/ok.tfvars", "size = 3\n");
    write(&dir, "tests/inputs/bad.tfvars", "size = \"huge\"\n");
    dir
}

#[test]
fn var_file_checks_tfvars_against_another_directory() {
    let dir = var_file_layout("var-file");
    // Without a target, the inputs' directory declares no variables, so
    // nothing is known about them.
    let o = run(&dir, &["check", "tests"]);
    assert_eq!((o.status.code(), stdout(&o)), (Some(0), String::new()));
    // With one, each file is checked against the module's variables (the
    // module itself is not reported: it was not among the checked paths).
    let o = run(
        &dir,
        &[
            "check",
            "tests",
            "--var-file",
            "tests/inputs/bad.tfvars=module",
            "--var-file",
            "tests/inputs/ok.tfvars=module",
        ],
    );
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(reported(&o), vec![("tests/inputs/bad.tfvars".into(), "invalid-value".into(), "error".into())]);
    assert!(stderr(&o).ends_with("in 2 files\n"), "{}", stderr(&o));
    // `=` splits at the first one; a value without it is a usage error.
    for bad in ["tests/inputs/ok.tfvars", "module"] {
        let o = run(&dir, &["check", "tests", "--var-file", bad]);
        assert_eq!(o.status.code(), Some(2), "{bad}");
        assert!(stderr(&o).contains("expected TFVARS=MODULE_DIR"), "{}", stderr(&o));
        assert_eq!(stdout(&o), "");
    }
}

#[test]
fn var_file_table_rows_comments_and_errors() {
    let dir = var_file_layout("var-file-table");
    // A comment, blank lines, CRLF, an extra column, and relative rows that
    // match by trailing components (`inputs/ok.tfvars` under any root, the
    // module relative to that root).
    write(
        &dir,
        "targets.tsv",
        "# tfvars\tmodule\n\ninputs/bad.tfvars\t../module\r\n  \ninputs/ok.tfvars\t../module\tignored note\n",
    );
    let o = run(&dir, &["check", "tests", "--var-file-table", "targets.tsv"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert_eq!(reported(&o), vec![("tests/inputs/bad.tfvars".into(), "invalid-value".into(), "error".into())]);

    // A malformed row is an I/O failure naming the line; the rest is checked
    // without the table.
    for (name, table, line) in [
        ("one-column.tsv", "inputs/ok.tfvars\t../module\ninputs/bad.tfvars\n", 2),
        ("spaces.tsv", "# spaces are not tabs\ninputs/ok.tfvars ../module\n", 2),
        ("empty-module.tsv", "inputs/ok.tfvars\t\n", 1),
        ("empty-tfvars.tsv", "\t../module\n", 1),
    ] {
        write(&dir, name, table);
        let o = run(&dir, &["check", "tests", "--var-file-table", name]);
        assert_eq!(o.status.code(), Some(2), "{name}");
        assert!(
            stderr(&o).contains(&format!("{name}: error: line {line}: expected TFVARS<TAB>MODULE_DIR")),
            "{name}: {}",
            stderr(&o)
        );
        assert_eq!(reported(&o), vec![], "{name}: still checked, without targets");
        assert!(stderr(&o).ends_with("in 2 files\n"), "{name}: {}", stderr(&o));
    }
    let o = run(&dir, &["check", "tests", "--var-file-table", "no-such.tsv"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).starts_with("no-such.tsv: error: No such file"), "the path once: {}", stderr(&o));
}

#[test]
fn no_progress_indicator_when_piped() {
    // More files than the indicator's threshold, stderr a pipe: only the
    // summary line.
    let dir = tempdir("progress");
    for i in 0..60 {
        write(&dir, &format!("m{i}/main.tf"), CLEAN);
    }
    let o = run(&dir, &["check", "."]);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(stderr(&o), "0 errors, 0 warnings, 0 hints in 60 files\n");
}

#[test]
fn each_directory_is_a_module() {
    let dir = tempdir("modules");
    write(&dir, "a/variables.tf", "variable \"x\" {\n  type = string\n}\n");
    write(&dir, "a/main.tf", "locals {\n  y = var.x\n}\n");
    // The same reference one directory down: another module, without `x`.
    write(&dir, "a/child/main.tf", "locals {\n  y = var.x\n}\n");
    let o = run(&dir, &["check", "a"]);
    // (Neither module reads its `local.y`: a hint each, analysis.md §5.1.)
    let hint = |p: &str| (p.to_string(), "unused-local".to_string(), "hint".to_string());
    let undefined = ("a/child/main.tf".to_string(), "undefined-reference".to_string(), "error".to_string());
    assert_eq!(reported(&o), vec![hint("a/child/main.tf"), undefined, hint("a/main.tf")]);
    let o = run(&dir, &["types", "a"]);
    assert_eq!(
        stdout(&o),
        "a/child/main.tf:2:3: local.y: any\na/main.tf:2:3: local.y: string\na/variables.tf:1:10: var.x: string\n"
    );
}

/// The calculator reads type expressions and steps with surrounding
/// whitespace like any other; errors still point into the argument.
#[test]
fn type_arguments_with_surrounding_whitespace() {
    let dir = tempdir("type-whitespace");
    let ok = |args: &[&str], want: &str| {
        let o = run(&dir, args);
        assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
        assert_eq!(stdout(&o).lines().next(), Some(want), "{args:?}");
    };
    ok(&["type", "normalize", "  string  "], "string");
    ok(&["type", "normalize", "\tlist( string )\n"], "list(string)");
    ok(&["type", "convert", "promise(int) ", " string"], "none");
    ok(&["type", "unify", " int", "number "], "number");
    ok(&["type", "traverse", " object({a = list(int)}) ", " .a ", " [ 0 ] "], "int");
    let o = run(&dir, &["type", "normalize", "  list(strin) "]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("did you mean `string`? (at `strin`)"), "{}", stderr(&o));
}

/// Issue 15: a PCL program gets the schema Pulumi cached beside its plugins
/// (`$PULUMI_HOME/plugins/schema-NAME-VERSION-.json`, the newest version)
/// without naming it, and `--package-schema` names one directly.
#[test]
fn pcl_programs_use_pulumis_cached_package_schemas() {
    let Some(named) = paths::shared("schemas/pulumi/random-4.11.2.json", "Pulumi's cached package schemas") else {
        return;
    };
    let dir = tempdir("pulumi-cache");
    let home = dir.join("pulumi-home");
    std::fs::create_dir_all(home.join("plugins/resource-random-v4.11.2")).unwrap();
    let schema = std::fs::read(&named).unwrap();
    std::fs::write(home.join("plugins/schema-random-4.11.2-.json"), &schema).unwrap();
    // An older one, and a broken one of another package: neither is used.
    std::fs::write(home.join("plugins/schema-random-4.2.0-.json"), "{\"name\": \"random\"}").unwrap();
    std::fs::write(home.join("plugins/schema-tls-4.10.0-.json"), "not json").unwrap();
    let program = "resource pw \"random:index/randomPassword:RandomPassword\" {\n  length = 16\n}\n\nresource k \"tls:index/privateKey:PrivateKey\" {\n  algorithm = \"RSA\"\n}\n\noutput secret {\n  value = pw.result\n}\n";
    write(&dir, "prog/main.pp", program);
    let types = |envs: &[(&str, &Path)], extra: &[&str]| {
        let mut c = Command::new(env!("CARGO_BIN_EXE_hcl-types"));
        c.current_dir(&dir).args(["types", "prog"]).args(extra);
        for (k, v) in envs {
            c.env(k, v);
        }
        stdout(&c.output().expect("run hcl-types"))
    };
    assert!(types(&[("PULUMI_HOME", &home)], &[]).contains("output.secret: output(string)"));
    let empty = dir.join("empty-home");
    assert!(types(&[("PULUMI_HOME", &empty)], &[]).contains("output.secret: output(any)"));
    let out = types(&[("PULUMI_HOME", &empty)], &["--package-schema", named.to_str().unwrap()]);
    assert!(out.contains("output.secret: output(string)"), "{out}");
}

/// Issue 27: a PCL token that two resources of a package schema share
/// gave a warning in about half the runs (a `HashMap`'s order, random per
/// process). Now every run says the same: the ambiguous resource and
/// invoke one warning each naming both tokens, a token found by Pulumi's
/// canonical form checked, and one Pulumi's rules find nothing for
/// (`moduleFormat` absent: `yaml/v1` is its own module) left untyped.
#[test]
fn a_pcl_token_matching_two_resources_reports_the_same_every_run() {
    let Some(k8s) = paths::shared("schemas/pulumi/kubernetes20-test.json", "a PCL token matching two resources") else {
        return;
    };
    let dir = tempdir("pcl-ambiguous");
    let program = "resource b \"demo:storage:Bucket\" {\n  legacyName = \"x\"\n}\n\n\
                   resource q \"demo:storage:Queue\" {\n  size = \"big\"\n}\n\n\
                   resource cg \"kubernetes:yaml/v1:ConfigGroup\" {\n  transformations = []\n}\n\n\
                   output arn {\n  value = invoke(\"demo:storage:getBucket\", {}).arn\n}\n";
    write(&dir, "prog/main.pp", program);
    let demo = paths::own_schema("pulumi/colliding-test.json");
    let args = ["check", "--package-schema", demo.to_str().unwrap(), "--package-schema", k8s.to_str().unwrap(), "prog"];
    let first = stdout(&run(&dir, &args));
    let lines: Vec<&str> = first.lines().collect();
    assert_eq!(lines.len(), 3, "{first}");
    assert!(lines[0].starts_with("prog/main.pp:1:12: warning[undefined-reference]: resource token `demo:storage:Bucket` matches 2 tokens of colliding-test.json: `demo:storage/bucket:Bucket`, `demo:storage/bucketV1:Bucket`"), "{first}");
    assert!(lines[1].starts_with("prog/main.pp:6:10: error[invalid-value]"), "{first}");
    assert!(
        lines[2].starts_with(
            "prog/main.pp:14:18: warning[undefined-reference]: invoke token `demo:storage:getBucket` matches 2 tokens"
        ),
        "{first}"
    );
    for run_no in 1..20 {
        assert_eq!(stdout(&run(&dir, &args)), first, "run {run_no}");
    }
}

/// A schema file that cannot be read or is no schema is an I/O failure
/// named by its own path (exit 2); the files are still checked.
#[test]
fn a_bad_provider_schema_is_an_io_failure_of_that_file() {
    let dir = tempdir("bad-schema");
    write(&dir, "main.tf", "variable \"n\" {\n  type    = number\n  default = \"x\"\n}\n");
    write(&dir, "not-a-schema.json", "{\"format_version\": \"1.0\"}");
    let good = paths::own_schema("terraform/builtin-terraform-1.11.4.json");
    let out = run(
        &dir,
        &["check", "--provider-schema", good.to_str().unwrap(), "--provider-schema", "not-a-schema.json", "."],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("not-a-schema.json: error: not a provider schema: no `provider_schemas` object"),
        "{}",
        stderr(&out)
    );
    assert!(stdout(&out).contains("error[invalid-value]"), "{}", stdout(&out));
}

/// Issue 27: Terraform reads only the root module's own
/// `.terraform/modules/modules.json`. A manifest in a directory above what
/// is checked (a parent project's, or any directory up to `/`) must not
/// redirect a registry call: here it would lead to a module whose variable
/// makes the call's argument an error.
#[test]
fn a_manifest_above_the_checked_path_is_not_read() {
    let dir = tempdir("manifest-above");
    // The project `proj` is module `app` of the root above it, and its call
    // `vpc` was installed in `elsewhere`.
    let manifest = r#"{"Modules":[{"Key":"","Source":"","Dir":"."},{"Key":"app","Source":"./proj","Dir":"proj"},{"Key":"app.vpc","Source":"registry.terraform.io/x/vpc/aws","Version":"1.0.0","Dir":"elsewhere"}]}"#;
    write(&dir, ".terraform/modules/modules.json", manifest);
    write(&dir, "elsewhere/main.tf", "variable \"n\" {\n  type = number\n}\n");
    write(&dir, "proj/main.tf", "module \"vpc\" {\n  source = \"x/vpc/aws\"\n  n      = \"three\"\n}\n");
    // The project checked (by its absolute path, so that its ancestors are
    // known): the call is not installed there.
    let proj = dir.join("proj");
    let o = run(&proj, &["check", proj.to_str().expect("UTF-8 path")]);
    let main = proj.join("main.tf").display().to_string();
    assert_eq!(reported(&o), [(main, "module-source".into(), "hint".into())], "{}", stdout(&o));
    // Checked from the directory that holds the manifest, that is the root
    // module: the call leads to `elsewhere` and its argument is checked.
    let o = run(&dir, &["check", "."]);
    let codes: Vec<String> = reported(&o).into_iter().map(|(_, code, _)| code).collect();
    assert!(codes.contains(&"invalid-value".to_string()), "{}", stdout(&o));
}

/// Issue 29.1: a `.tf` file linked into a module is part of it, as Terraform
/// reads it (here a shared `variables-common.tf` linked into two modules);
/// `check`'s walk used to skip it, so every use was "not declared".
#[test]
fn linked_files_belong_to_their_module() {
    let dir = tempdir("linked");
    write(&dir, "shared/variables-common.tf", "variable \"region\" {\n  type = string\n}\n");
    for m in ["a", "b"] {
        write(&dir, &format!("{m}/main.tf"), "output \"r\" {\n  value = var.region\n}\n");
        std::os::unix::fs::symlink("../shared/variables-common.tf", dir.join(m).join("variables-common.tf")).unwrap();
    }
    let o = run(&dir, &["check", "a", "b"]);
    assert!(reported(&o).is_empty(), "{}", stdout(&o));
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}

/// Issue 34.14: variable files linked into a module (`terraform.tfvars`,
/// `*.auto.tfvars`) are loaded through the link, as Terraform's directory
/// read follows links (`os.ReadDir` then a read of the path): their values are
/// checked against the module's variables.
#[test]
fn linked_variable_files_are_loaded() {
    let dir = tempdir("linked-tfvars");
    write(&dir, "shared/common.auto.tfvars", "port = \"eighty\"\n");
    write(&dir, "shared/terraform.tfvars", "name = \"x\"\n");
    write(&dir, "m/main.tf", "variable \"port\" {\n  type = number\n}\nvariable \"name\" {\n  type = string\n}\noutput \"o\" {\n  value = [var.port, var.name]\n}\n");
    for f in ["common.auto.tfvars", "terraform.tfvars"] {
        std::os::unix::fs::symlink(format!("../shared/{f}"), dir.join("m").join(f)).unwrap();
    }
    let o = run(&dir, &["check", "m"]);
    assert_eq!(
        reported(&o),
        [("m/common.auto.tfvars".into(), "invalid-value".into(), "error".into())],
        "{}",
        stdout(&o)
    );
}

/// A repository in `dir/repo` (a `.git` marks it) and, beside it, what a
/// CI machine holds outside it: credentials, a token.
fn repository_and_secrets(name: &str) -> (crate::scratch::Scratch, PathBuf) {
    let dir = tempdir(name);
    let repo = dir.join("repo");
    std::fs::create_dir_all(repo.join(".git")).unwrap();
    write(&dir, "home/.aws/credentials", "[default]\naws_secret_access_key = \"AKIASECRETVALUE\"\n");
    write(&dir, "home/.git-credentials", "https://user:ghp_TOKENVALUE@github.com\n");
    (dir, repo)
}

/// Issue 42.1: a pull request that links a variable file or the
/// configuration file to a file outside the repository does not make
/// `check` print that file's text (keys, values, a parse error's quoted
/// line) in any output format: the link is said once by name, not read.
/// Linked files inside the repository are read as before
/// (`linked_variable_files_are_loaded`).
#[test]
fn links_out_of_the_repository_are_named_never_read() {
    let (dir, repo) = repository_and_secrets("links-out");
    write(
        &repo,
        "m/main.tf",
        "variable \"region\" {\n  type = string\n}\noutput \"region\" {\n  value = var.region\n}\n",
    );
    std::os::unix::fs::symlink(dir.join("home/.aws/credentials"), repo.join("m/x.auto.tfvars")).unwrap();
    std::os::unix::fs::symlink("../../home/.git-credentials", repo.join(".hcl-types.hcl")).unwrap();
    for format in ["text", "json", "sarif"] {
        let o = run(&repo, &["check", "--format", format, "m"]);
        let (out, err) = (stdout(&o), stderr(&o));
        for secret in ["AKIASECRETVALUE", "aws_secret_access_key", "ghp_TOKENVALUE", "github.com"] {
            assert!(!out.contains(secret) && !err.contains(secret), "{format}: {secret} printed:\n{out}{err}");
        }
        assert_eq!(out.matches("m/x.auto.tfvars").count(), 1, "{format}: said once: {out}");
        assert!(out.contains(".hcl-types.hcl") && out.contains("outside-tree"), "{format}: {out}");
        assert_eq!(o.status.code(), Some(0), "{format}: warnings only: {err}");
    }
    let o = run(&repo, &["check", "m"]);
    let said: Vec<(String, String, String)> = reported(&o);
    assert_eq!(said.len(), 2, "{}", stdout(&o));
    assert!(said[0].0.ends_with("repo/.hcl-types.hcl") && said[1].0 == "m/x.auto.tfvars", "{said:?}");
    assert!(said.iter().all(|(_, code, severity)| code == "outside-tree" && severity == "warning"), "{said:?}");
    // `fmt` neither reads nor writes through such a link.
    write(&dir, "home/settings.tfvars", "token   =  \"ghp_TOKENVALUE\"\n");
    std::os::unix::fs::symlink(dir.join("home/settings.tfvars"), repo.join("m/y.tfvars")).unwrap();
    let o = run(&repo, &["fmt", "--diff", "m"]);
    assert!(!stdout(&o).contains("TOKENVALUE") && stderr(&o).contains("m/y.tfvars"), "{}", stderr(&o));
    let kept = std::fs::read_to_string(dir.join("home/settings.tfvars")).unwrap();
    assert_eq!(kept, "token   =  \"ghp_TOKENVALUE\"\n");
}

/// Issue 42.7: a configuration file above the checked path's repository
/// (one left in a shared `/tmp` or a home directory) is not honoured: it
/// cannot silence a project. Without a repository, none above the
/// directory `check` runs in.
#[test]
fn a_configuration_above_the_repository_is_not_honoured() {
    let dir = tempdir("config-above");
    write(&dir, ".hcl-types.hcl", "exclude = [\"**\"]\nseverity = { invalid-value = \"off\" }\n");
    write(&dir, "proj/main.tf", BAD_BOOL);
    write(&dir, "repo/main.tf", BAD_BOOL);
    std::fs::create_dir_all(dir.join("repo/.git")).unwrap();
    for (cwd, path) in [("proj", "."), ("repo", "."), ("proj", "main.tf"), ("", "repo")] {
        let o = run(&dir.join(cwd), &["check", path]);
        assert_eq!(o.status.code(), Some(1), "{cwd} {path}: {}{}", stdout(&o), stderr(&o));
        assert_eq!(reported(&o).len(), 1, "{}", stdout(&o));
    }
    // Inside the repository it holds.
    write(&dir, "repo/.hcl-types.hcl", "severity = { invalid-value = \"off\" }\n");
    let o = run(&dir.join("repo/.git/.."), &["check", "."]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
}

/// Issue 42.8: paths a repository names out of itself (absolute Terragrunt
/// includes, symbol libraries and templates by `..`) are not read: the
/// same warning and exit status whatever lies there (`/dev/zero`, a
/// directory, a regular file, nothing), so `check` tells nothing about the
/// machine's files; paths inside stay.
#[test]
fn paths_out_of_the_repository_are_not_read_whatever_is_there() {
    let (dir, repo) = repository_and_secrets("paths-out");
    write(&dir, "home/lib/secret.sym.hcl", "typedef \"t\" {\n  type = string\n}\n");
    write(&dir, "home/t.tpl", "AKIASECRETVALUE ${\n");
    let include = |path: &str| format!("include \"root\" {{\n  path = \"{path}\"\n}}\n");
    let mut outcomes = Vec::new();
    for target in ["/dev/zero", "/tmp", "/etc/hostname", "/nonexistent/x.hcl"] {
        write(&repo, "live/app/terragrunt.hcl", &include(target));
        let o = run(&repo, &["check", "live"]);
        let (out, err) = (stdout(&o), stderr(&o));
        assert!(!err.contains("not a regular file") && !out.contains("not a regular file"), "{target}: {out}{err}");
        assert!(out.contains(&format!("{target}:1:1: warning[outside-tree]")), "{target}: {out}");
        outcomes.push((o.status.code(), out.replace(target, "TARGET")));
    }
    assert!(outcomes.windows(2).all(|w| w[0] == w[1]), "{outcomes:#?}");
    assert_eq!(outcomes[0].0, Some(0), "{outcomes:#?}");
    // Symbol libraries and templates out by `..`; a library inside is read.
    let tf = "terraform {\n  language {\n    experiments = [symbol_libraries]\n  }\n}\n\
              symbols \"out\" {\n  source = \"../../home/lib\"\n}\n\
              locals {\n  t = templatefile(\"../../home/t.tpl\", {})\n  u = templatefile(\"/etc/hostname\", {})\n}\n";
    write(&repo, "m/main.tf", tf);
    let o = run(&repo, &["check", "--format", "json", "m"]);
    let out = stdout(&o);
    assert!(!out.contains("AKIASECRETVALUE"), "{out}");
    for named in ["home/lib", "home/t.tpl", "/etc/hostname"] {
        assert!(out.contains(named), "{named} said: {out}");
    }
    // A configuration's `var_files` target out of the repository is not
    // read (one the user names with --var-file is).
    write(&dir, "home/mod/variables.tf", "variable \"n\" {\n  type = number\n}\n");
    write(&repo, "t/a.tfvars", "n = \"x\"\n");
    write(&repo, ".hcl-types.hcl", "var_files = { \"t/a.tfvars\" = \"../home/mod\" }\n");
    let o = run(&repo, &["check", "t"]);
    assert!(!stdout(&o).contains("invalid-value") && stdout(&o).contains("outside-tree"), "{}", stdout(&o));
    let o = run(&repo, &["check", "--var-file", "t/a.tfvars=../home/mod", "t"]);
    assert!(stdout(&o).contains("invalid-value"), "{}", stdout(&o));
}

/// Issue 29.2: `check path/to/main.tf` (pre-commit, an editor's "lint this
/// file") checks the file within its module, and reports only that file.
#[test]
fn a_named_file_is_checked_within_its_module() {
    let dir = tempdir("named-file");
    write(&dir, "m/variables.tf", &format!("variable \"region\" {{\n  type = string\n}}\n{BAD_BOOL}"));
    write(&dir, "m/main.tf", "output \"r\" {\n  value = var.region\n}\noutput \"s\" {\n  value = var.nope\n}\n");
    let o = run(&dir, &["check", "m/main.tf"]);
    // `var.region` is declared beside it; `var.nope` is not; the bad default
    // in variables.tf is not this file's.
    assert_eq!(reported(&o), [("m/main.tf".into(), "undefined-reference".into(), "error".into())], "{}", stdout(&o));
    // Both named: both reported.
    let o = run(&dir, &["check", "m/main.tf", "m/variables.tf"]);
    let files: BTreeSet<String> = reported(&o).into_iter().map(|(p, _, _)| p).collect();
    assert_eq!(files, ["m/main.tf", "m/variables.tf"].map(String::from).into(), "{}", stdout(&o));
}

/// Issue 29.3: checked from a module's root, an example that calls the module
/// as `source = "../../"` finds it (the path normalises to the current
/// directory, which used to read as a directory with no files).
#[test]
fn a_call_back_to_the_current_directory_finds_the_module() {
    let dir = tempdir("call-root");
    write(&dir, "variables.tf", "variable \"name\" {\n  type = string\n}\noutput \"name\" {\n  value = var.name\n}\n");
    write(&dir, "examples/complete/main.tf", "module \"this\" {\n  source = \"../../\"\n  name   = \"x\"\n}\n");
    let o = run(&dir, &["check", "."]);
    assert!(reported(&o).is_empty(), "{}", stdout(&o));
    // And its arguments are checked there as anywhere.
    write(&dir, "examples/complete/main.tf", "module \"this\" {\n  source = \"../../\"\n  name   = [1]\n}\n");
    let o = run(&dir, &["check", "."]);
    let codes: Vec<String> = reported(&o).into_iter().map(|(_, c, _)| c).collect();
    // (A constant is judged by its value: issue 43, last paragraph.)
    assert_eq!(codes, ["invalid-value"], "{}", stdout(&o));
}

/// Issue 33: what the command line says of itself matches what it takes.
#[test]
fn help_and_completions_offer_only_what_is_accepted() {
    let dir = tempdir("help");
    write(&dir, "main.tf", CLEAN);
    let help = run(&dir, &["types", "--help"]);
    let text = String::from_utf8_lossy(&help.stdout);
    assert!(text.contains("json") && !text.contains("sarif"), "types --help offers sarif:\n{text}");
    let o = run(&dir, &["types", "--format", "sarif", "."]);
    assert_eq!(o.status.code(), Some(2));
    let help = run(&dir, &["check", "--help"]);
    let text = String::from_utf8_lossy(&help.stdout);
    assert!(text.contains("terraform") && text.contains("pcl"), "check --help lists no dialects:\n{text}");
    let o = run(&dir, &["check", "--dialect", "tofu-ish", "."]);
    assert_eq!(o.status.code(), Some(2));
    for shell in ["bash", "zsh", "fish"] {
        let script = run(&dir, &["completions", shell]);
        let text = String::from_utf8_lossy(&script.stdout);
        assert!(text.contains("check") && !text.contains("outline"), "{shell} completions offer the hidden outline");
    }
}

/// Issue 33: a failed traversal exits 1; nothing to check exits 2.
#[test]
fn failed_traversals_and_nothing_to_check_are_failures() {
    let dir = tempdir("nothing");
    let o = run(&dir, &["type", "traverse", "object({a = string})", ".b"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stdout).contains("error: "));
    let empty = dir.join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    for cmd in ["check", "types"] {
        let o = run(&dir, &[cmd, empty.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(2), "{cmd} of an empty directory");
        assert!(String::from_utf8_lossy(&o.stderr).contains("nothing to check"));
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Issue 33: `--quiet` leaves the diagnostics and the status, nothing else.
#[test]
fn quiet_prints_diagnostics_only() {
    let dir = tempdir("quiet");
    write(&dir, "main.tf", BAD_BOOL);
    let o = run(&dir, &["check", "--quiet", "."]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(stderr(&o), "");
    assert_eq!(reported(&o).len(), 1);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn fmt_lists_writes_checks_and_reads_stdin_as_terraform_fmt() {
    let dir = tempdir("fmt");
    write(&dir, "main.tf", "a=1\n");
    write(&dir, "ok.tfvars", "b = 2\n");
    write(&dir, "sub/x.tf", "c=3\n");
    write(&dir, ".hidden.tf", "d=4\n");
    write(&dir, "x.tofu", "e=5\n");

    // --check: lists what needs formatting, writes nothing, exits 3.
    let o = run(&dir, &["fmt", "--check"]);
    assert_eq!((o.status.code(), stdout(&o).as_str()), (Some(3), "main.tf\n"), "{}", stderr(&o));
    assert_eq!(std::fs::read_to_string(dir.join("main.tf")).unwrap(), "a=1\n");
    let o = run(&dir, &["fmt", "--check", "--recursive", "--list=false"]);
    assert_eq!((o.status.code(), stdout(&o).as_str()), (Some(3), ""));
    // --diff prints a unified diff.
    let o = run(&dir, &["fmt", "--check", "--diff", "--list=false", "main.tf"]);
    assert!(stdout(&o).contains("--- old/main.tf\n+++ new/main.tf\n@@ -1 +1 @@\n-a=1\n+a = 1\n"), "{}", stdout(&o));

    // Writing: the files that changed are listed; hidden ones are left out;
    // a .tofu file only when named.
    let o = run(&dir, &["fmt", "--recursive"]);
    assert_eq!((o.status.code(), stdout(&o).as_str()), (Some(0), "main.tf\nsub/x.tf\n"), "{}", stderr(&o));
    assert_eq!(std::fs::read_to_string(dir.join("sub/x.tf")).unwrap(), "c = 3\n");
    assert_eq!(std::fs::read_to_string(dir.join(".hidden.tf")).unwrap(), "d=4\n");
    let o = run(&dir, &["fmt", "x.tofu"]);
    assert_eq!((o.status.code(), std::fs::read_to_string(dir.join("x.tofu")).unwrap().as_str()), (Some(0), "e = 5\n"));
    assert_eq!(run(&dir, &["fmt", "--check", "--recursive"]).status.code(), Some(0));

    // A syntax error: reported with its place, the file untouched, exit 2.
    write(&dir, "bad.tf", "a = \n");
    let o = run(&dir, &["fmt"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).starts_with("Error: bad.tf:1:5: "), "{}", stderr(&o));
    assert_eq!(run(&dir, &["fmt", "missing.tf"]).status.code(), Some(2));
    assert_eq!(run(&dir, &["fmt", "README"]).status.code(), Some(2));

    // `-`: stdin to stdout, ending with a newline as Terraform's does.
    let mut child = Command::new(env!("CARGO_BIN_EXE_hcl-types"))
        .args(["fmt", "-"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::io::Write::write_all(&mut child.stdin.take().unwrap(), b"x  =  \"${var.y}\"").unwrap();
    let o = child.wait_with_output().unwrap();
    assert_eq!((o.status.code(), stdout(&o).as_str()), (Some(0), "x = var.y\n"));
}

/// `fmt -` reads stdin under the cap a module file has: an endless pipe is
/// refused (exit 2), not read until memory runs out.
#[test]
fn fmt_refuses_stdin_over_the_cap() {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_hcl-types"))
        .args(["fmt", "-"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        let chunk = vec![b'#'; 1 << 20];
        // `fmt` stops reading past the cap: a write then fails, which is fine.
        for _ in 0..80 {
            if stdin.write_all(&chunk).is_err() {
                break;
            }
        }
    });
    let o = child.wait_with_output().unwrap();
    writer.join().unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("larger than 12 MiB"), "{}", stderr(&o));
}

/// Issue 41: the Rust tests (`tests/it/paths/mod.rs`) and the scripts and
/// Python tests (`scripts/shared-dir`) look for the shared directory by one
/// rule: `$HCL_TYPES_SHARED` when set, else `../shared` beside the checkout;
/// the script prints nothing and fails when it is absent.
#[test]
fn the_shared_directory_is_found_by_one_rule() {
    let script = paths::root().join("scripts/shared-dir");
    let found = |var: Option<&Path>| {
        let mut c = Command::new(&script);
        match var {
            Some(v) => c.env(paths::SHARED_VAR, v),
            None => c.env_remove(paths::SHARED_VAR),
        };
        let o = c.output().expect("run scripts/shared-dir");
        o.status.success().then(|| PathBuf::from(stdout(&o).trim_end()))
    };
    let dir = tempdir("shared-dir");
    let canonical = |p: &Path| p.canonicalize().ok();
    assert_eq!(found(Some(&dir)).as_deref().and_then(canonical), canonical(&dir));
    assert_eq!(found(Some(&dir.join("absent"))), None);
    // Unset: beside the checkout, as the Rust side looks for it.
    let beside = paths::root().join("../shared");
    assert_eq!(found(None).as_deref().and_then(canonical), canonical(&beside));
    let var = std::env::var_os(paths::SHARED_VAR).filter(|v| !v.is_empty());
    let expected = var.map_or(beside, PathBuf::from);
    assert_eq!(paths::shared_root(), expected);
}

/// Issue 43.1: a module checked on its own is checked with what the
/// Terragrunt units elsewhere in its repository generate into it
/// (fixture 104: the root's `generate "shared_vars"` of `variables.tf`),
/// whether named from the repository's root or by its absolute path.
#[test]
fn a_module_checked_alone_has_what_its_units_generate_into_it() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let app = "tests/fixtures/104-terragrunt-generate/modules/app";
    let absolute = root.join(app);
    for named in [app, absolute.to_str().unwrap()] {
        let out = run(root, &["check", named]);
        let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
        assert!(out.status.success() && text.contains("0 errors"), "check {named}:\n{text}");
    }
}

/// Issue 43: `check .` in a directory below the repository's root walks
/// the repository for the Terragrunt units and stack files that shape the
/// module (terragrunt.md §6, §8), as `check modules/app` from the root does.
#[test]
fn check_dot_below_the_repository_sees_its_units_and_stacks() {
    let dir = tempdir("check-dot-terragrunt");
    write(&dir, ".git/HEAD", "ref: refs/heads/main\n");
    write(
        &dir,
        "terragrunt.hcl",
        "generate \"shared_vars\" {\n  path      = \"shared_vars.tf\"\n  if_exists = \"overwrite\"\n  \
         contents  = file(\"variables.tf\")\n}\n",
    );
    write(&dir, "variables.tf", "variable \"env\" {\n  type = string\n}\n");
    write(
        &dir,
        "live/app/terragrunt.hcl",
        "include \"root\" {\n  path = find_in_parent_folders()\n}\n\nterraform {\n  source = \"../../modules//app\"\n}\n",
    );
    write(&dir, "modules/app/main.tf", "output \"env\" {\n  value = var.env\n}\n");
    let out = run(&dir.join("modules/app"), &["check", "."]);
    let text = format!("{}{}", stdout(&out), stderr(&out));
    assert!(out.status.success() && text.contains("0 errors"), "{text}");

    write(
        &dir,
        "live/terragrunt.stack.hcl",
        "unit \"app\" {\n  source = \"../units/app\"\n  path   = \"app\"\n  values = {\n    env = \"dev\"\n  }\n}\n",
    );
    write(&dir, "units/app/terragrunt.hcl", "locals {\n  env  = values.env\n  cidr = values.cidr\n}\n");
    let out = run(&dir.join("units/app"), &["check", "."]);
    let text = stdout(&out);
    let errors: Vec<&str> = text.lines().filter(|l| l.contains("error[")).collect();
    assert_eq!(errors.len(), 1, "{text}");
    assert!(errors[0].starts_with("./terragrunt.hcl:3:10: error[traversal]: unit \"app\" in `"), "{text}");
    assert!(errors[0].ends_with("live/terragrunt.stack.hcl` does not set `values.cidr`"), "{text}");
}

/// A provider schema file of one provider (`ADDRESS`) with one resource
/// type (`TYPE`) of one optional string attribute `name`.
fn one_type_schema(address: &str, ty: &str) -> String {
    let block = r#"{"version":0,"block":{"attributes":{"name":{"type":"string","optional":true}}}}"#;
    format!(
        r#"{{"format_version":"1.0","provider_schemas":{{"{address}":{{"resource_schemas":{{"{ty}":{block}}}}}}}}}"#
    )
}

/// Issue 45.3: with a schema source in play, a module whose provider is in
/// none of the schemas says so once (`no-schema`, a hint), on that
/// provider's `required_providers` entry, naming it and what would type
/// it; with its schema, or with no schema source at all, nothing.
#[test]
fn a_provider_without_a_schema_is_said_once_on_its_required_providers_entry() {
    let dir = tempdir("no-schema");
    let module =
        "terraform {\n  required_providers {\n    aws = {\n      source = \"hashicorp/aws\"\n    }\n  }\n}\n\n\
                  resource \"aws_s3_bucket\" \"a\" {\n  name = \"a\"\n}\n\n\
                  resource \"aws_s3_bucket\" \"b\" {\n  name = \"b\"\n}\n";
    write(&dir, "m/main.tf", module);
    write(&dir, "google.json", &one_type_schema("registry.terraform.io/hashicorp/google", "google_storage_bucket"));
    write(&dir, "aws.json", &one_type_schema("registry.terraform.io/hashicorp/aws", "aws_s3_bucket"));

    let out = run(&dir, &["check", "--provider-schema", "google.json", "m"]);
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().filter(|l| l.contains("[no-schema]")).collect();
    assert_eq!(lines.len(), 1, "{text}");
    assert!(lines[0].starts_with("m/main.tf:3:5: hint[no-schema]: no schema for the provider `aws`"), "{text}");
    assert!(lines[0].contains("plugin cache") && lines[0].contains("hcl-types schemas DIR"), "{text}");

    let out = run(&dir, &["check", "--provider-schema", "google.json", "--provider-schema", "aws.json", "m"]);
    assert!(!stdout(&out).contains("no-schema"), "{}", stdout(&out));
    let out = run(&dir, &["check", "m"]);
    assert!(!stdout(&out).contains("no-schema"), "{}", stdout(&out));

    // Without a `required_providers` entry: on the first block's type label.
    write(&dir, "n/main.tf", "resource \"aws_s3_bucket\" \"a\" {\n  name = \"a\"\n}\n");
    let out = run(&dir, &["check", "--provider-schema", "google.json", "n"]);
    let text = stdout(&out);
    assert_eq!(text.matches("[no-schema]").count(), 1, "{text}");
    assert!(text.contains("n/main.tf:1:10: hint[no-schema]"), "{text}");
    // A module without resources of an untyped provider says nothing.
    write(&dir, "o/main.tf", "resource \"google_storage_bucket\" \"a\" {\n  name = \"a\"\n}\n");
    let out = run(&dir, &["check", "--provider-schema", "google.json", "o"]);
    assert!(!stdout(&out).contains("no-schema"), "{}", stdout(&out));
}
