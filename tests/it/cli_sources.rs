//! Which files `hcl-types check` reads and how it prints them, driving the
//! real binary (docs/spec/cli.md, docs/spec/config.md): `--exclude`,
//! `check - --stdin-filename`, the `.hcl-types.hcl` configuration found
//! upward, and `--color`. (tests/it/cli.rs holds the rest of the command line.)

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

/// A fresh directory for one test.
fn scratch(name: &str) -> crate::scratch::Scratch {
    crate::scratch::named(name)
}

/// Writes `text` to `dir/rel`, creating directories.
fn put(dir: &Path, rel: &str, text: &str) {
    let path = dir.join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// Runs the binary in `dir` with `stdin` as its input and NO_COLOR unset.
fn hcl_types(dir: &Path, args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_hcl-types"))
        .current_dir(dir)
        .args(args)
        .env_remove("NO_COLOR")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run hcl-types");
    let _ = child.stdin.take().unwrap().write_all(stdin.as_bytes());
    child.wait_with_output().unwrap()
}

fn out(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

fn err(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).unwrap()
}

/// The `PATH` of each `PATH:LINE:COL: …` line, sorted.
fn paths(o: &Output) -> Vec<String> {
    let mut v: Vec<String> = out(o).lines().map(|l| l.split(':').next().unwrap().to_string()).collect();
    v.sort();
    v
}

const BAD: &str = "variable \"b\" {\n  type    = bool\n  default = \"maybe\"\n}\noutput \"b\" {\n  value = var.b\n}\n";
/// One warning: unsafe-conversion.
const UNSAFE: &str =
    "variable \"s\" {\n  type = string\n}\nlocals {\n  x = var.s + 1\n}\noutput \"x\" {\n  value = local.x\n}\n";

#[test]
fn exclude_takes_paths_from_the_current_directory_and_names_anywhere() {
    let dir = scratch("exclude");
    for f in ["main.tf", "examples/a/main.tf", "modules/x/examples/main.tf", "legacy/main.tf"] {
        put(&dir, f, BAD);
    }
    put(&dir, "prod.auto.tfvars", "b = 1\n");
    let o = hcl_types(
        &dir,
        &["check", "-q", "--exclude", "examples/**", "--exclude", "legacy", "--exclude", "*.auto.tfvars"],
        "",
    );
    assert_eq!(paths(&o), ["./main.tf", "./modules/x/examples/main.tf"], "{}", err(&o));
    // A name without `/` matches at any depth; a named file is excluded too.
    let o = hcl_types(&dir, &["check", "-q", "--exclude", "main.tf", "main.tf", "legacy"], "");
    assert_eq!(out(&o), "");
    assert_eq!(o.status.code(), Some(2), "nothing left to check: {}", err(&o));
    let o = hcl_types(&dir, &["check", "--exclude", "a/["], "");
    assert_eq!(o.status.code(), Some(2));
    assert!(err(&o).contains("exclude pattern `a/[`"), "{}", err(&o));
}

#[test]
fn stdin_is_checked_as_the_named_file_within_its_module() {
    let dir = scratch("stdin");
    put(&dir, "m/variables.tf", "variable \"b\" {\n  type = bool\n}\n");
    put(&dir, "m/main.tf", "output \"o\" {\n  value = var.missing\n}\n");
    // The file on disk is replaced by stdin; its module's declarations are read.
    let text = "output \"o\" {\n  value = var.b + 1\n}\n";
    let o = hcl_types(&dir, &["check", "-", "--stdin-filename", "m/main.tf"], text);
    let lines = out(&o);
    assert!(lines.starts_with("m/main.tf:2:11: "), "{lines}");
    assert!(!lines.contains("missing"), "the disk's text was read: {lines}");
    assert_eq!(lines.lines().count(), 1, "only the stdin file is reported: {lines}");
    // A path that does not exist yet (an unsaved buffer) is checked the same.
    let o = hcl_types(&dir, &["check", "-", "--stdin-filename", "m/new.tf"], "locals {\n  x = var.b\n}\n");
    assert_eq!(o.status.code(), Some(0), "{}{}", out(&o), err(&o));
    let o = hcl_types(&dir, &["check", "--format", "json", "-", "--stdin-filename", "m/new.tf"], BAD);
    let json: serde_json::Value = serde_json::from_str(&out(&o)).unwrap();
    assert_eq!(json[0]["path"], "m/new.tf");
    // Usage mistakes exit 2 and say what is missing.
    for (args, says) in [
        (&["check", "-"][..], "needs --stdin-filename"),
        (&["check", "--stdin-filename", "x.tf", "m"][..], "needs `-` as the path"),
        (&["check", "-", "m", "--stdin-filename", "x.tf"][..], "cannot be checked with other paths"),
    ] {
        let o = hcl_types(&dir, args, "");
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(err(&o).contains(says), "{args:?}: {}", err(&o));
    }
}

#[test]
fn the_configuration_is_found_upward_and_the_command_line_wins() {
    let dir = scratch("config");
    put(&dir, "live/app/main.tf", UNSAFE);
    put(&dir, "live/app/vendor/main.tf", BAD);
    put(&dir, ".hcl-types.hcl", "exclude  = [\"live/app/vendor\"]\nseverity = { unsafe-conversion = \"error\" }\n");
    // A repository (the search goes no higher than it: issue 42.7).
    std::fs::create_dir_all(dir.join(".git")).unwrap();
    // Run from the module's directory: the file two levels up applies, its
    // excludes based at its own directory.
    let app = dir.join("live/app");
    let o = hcl_types(&app, &["check", "-q", "."], "");
    assert!(out(&o).starts_with("./main.tf:5:7: error[unsafe-conversion]: "), "{}{}", out(&o), err(&o));
    assert_eq!(out(&o).lines().count(), 1, "vendor/ is excluded: {}", out(&o));
    assert_eq!(o.status.code(), Some(1), "the configuration made the warning an error");
    let o = hcl_types(&app, &["check", "-q", "--severity", "unsafe-conversion=off", "."], "");
    assert_eq!((out(&o).as_str(), o.status.code()), ("", Some(0)), "the command line wins");
    let o = hcl_types(&app, &["check", "-q", "--no-config", "."], "");
    assert_eq!(paths(&o), ["./main.tf", "./vendor/main.tf"]);
    assert!(out(&o).contains("warning[unsafe-conversion]"));
    // Stdin's configuration is the one above --stdin-filename.
    let o = hcl_types(&dir, &["check", "-", "--stdin-filename", "live/app/vendor/main.tf"], BAD);
    assert_eq!((out(&o).as_str(), o.status.code()), ("", Some(0)), "excluded: {}", err(&o));
    // --config names another file; a mistake in it is exit 2, naming it.
    put(&dir, "other.hcl", "severity = { unsafe-conversion = \"loud\" }\n");
    let o = hcl_types(&app, &["check", "--config", "../../other.hcl", "."], "");
    assert_eq!(o.status.code(), Some(2));
    assert!(err(&o).contains("other.hcl: error: `severity`: `loud`"), "{}", err(&o));
}

#[test]
fn colour_only_when_asked_or_on_a_terminal_without_no_color() {
    let dir = scratch("colour");
    put(&dir, "main.tf", BAD);
    // Piped (as here), auto is plain.
    let plain = hcl_types(&dir, &["check", "-q"], "");
    assert!(!out(&plain).contains('\x1b'), "{}", out(&plain));
    let coloured = hcl_types(&dir, &["check", "-q", "--color", "always"], "");
    assert_eq!(
        out(&coloured).lines().next().unwrap().split(": invalid").next().unwrap(),
        "\x1b[1m./main.tf:3:13:\x1b[0m \x1b[1;31merror\x1b[0m[invalid-value]"
    );
    // --color always wins over NO_COLOR (no-color.org: an explicit option does).
    let o = Command::new(env!("CARGO_BIN_EXE_hcl-types"))
        .current_dir(&dir)
        .args(["check", "-q", "--color", "always"])
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    assert!(out(&o).contains('\x1b'));
    let never = hcl_types(&dir, &["check", "-q", "--color", "never", "--format", "json"], "");
    assert!(!out(&never).contains('\x1b'));
}
