//! `hcl-types completions SHELL` prints a script for each shell clap_complete
//! knows; the bash one parses (`bash -n`) and completes the subcommands,
//! options and values of the real parser.

use std::io::Write;
use std::process::{Command, Stdio};

fn completions(shell: &str) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_hcl-types")).args(["completions", shell]).output().expect("run");
    assert!(out.status.success(), "{shell}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).expect("UTF-8 script")
}

#[test]
fn every_shell_gets_a_script_naming_the_commands() {
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let script = completions(shell);
        for word in ["check", "types", "completions", "severity", "var-file-table"] {
            assert!(script.contains(word), "{shell}: no `{word}` in the script");
        }
    }
}

#[test]
fn bash_script_parses_and_offers_formats() {
    let script = completions("bash");
    assert!(script.contains("text json sarif"), "the --format values");
    let mut bash = Command::new("bash").arg("-n").stdin(Stdio::piped()).spawn().expect("bash");
    bash.stdin.take().expect("stdin").write_all(script.as_bytes()).expect("write");
    assert!(bash.wait().expect("bash -n").success(), "bash -n rejects the script");
}

#[test]
fn unknown_shell_is_a_usage_error() {
    let out = Command::new(env!("CARGO_BIN_EXE_hcl-types")).args(["completions", "tcsh"]).output().expect("run");
    assert_eq!(out.status.code(), Some(2));
}
