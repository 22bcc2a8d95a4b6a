//! Cost that multiplies across small files (issue 42, items 2 and 3): a
//! hostile repository of many small blocks that each name the same thing
//! (a symbol library, an included file, a called module's outputs) must
//! cost in proportion to its size, in `check` and in the server, and an
//! outline (`documentSymbol`) in proportion to the file.
//!
//! Cost is counted, not timed: the number of heap allocations, counted by
//! the test binary's global allocator (`counting.rs`), each measurement
//! in a process of its own (this binary again, as `memory.rs` does),
//! so that nothing else counts. Each case is measured at `N` and `2N`
//! names: linear work doubles, work per name per name quadruples. Before
//! the fix every case grew 3.5–4× (see the assertion's message).

use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;

use crate::counting::ALLOCATIONS;
use crate::lsp_support;
use hcl_types::cli::check::{run_analysis, CommonArgs, Format};
use lsp_support::*;
use serde_json::json;

fn counted() -> u64 {
    ALLOCATIONS.load(Ordering::Relaxed)
}

/// The files of a case with `n` names, and the one to check or open.
fn case(name: &str, n: usize) -> (Vec<(String, String)>, String) {
    let mut files = Vec::new();
    let mut add = |path: &str, text: String| files.push((path.to_string(), text));
    let main = match name {
        // `n` blocks naming one library of `n` types and `n` values.
        "symbols" => {
            let mut lib: String =
                (0..n).map(|i| format!("typedef \"t{i}\" {{\n  type = object({{ x = number }})\n}}\n")).collect();
            lib.push_str("locals {\n");
            lib.extend((0..n).map(|i| format!("  v{i} = {i}\n")));
            lib.push_str("}\n");
            add("lib/a.sym.hcl", lib);
            let mut main = String::from("language { experiments = [symbol_libraries] }\n");
            main.extend((0..n).map(|i| format!("symbols \"l{i}\" {{\n  source = \"./lib\"\n}}\n")));
            main.push_str("variable \"v\" {\n  type = symbols::l0::t0()\n}\n");
            add("main.tofu", main);
            "main.tofu"
        }
        // A unit of `n` includes of one file of `n` inputs, for a module of
        // `n` variables.
        "includes" => {
            let mut root = String::from("inputs = {\n");
            root.extend((0..n).map(|i| format!("  v{i} = {i}\n")));
            root.push_str("}\n");
            add("root.hcl", root);
            add(
                "modules/app/main.tf",
                (0..n).map(|i| format!("variable \"v{i}\" {{\n  type = number\n}}\n")).collect(),
            );
            let mut unit = String::from("terraform {\n  source = \"../../modules//app\"\n}\n");
            unit.extend(
                (0..n).map(|i| format!("include \"i{i}\" {{\n  path = find_in_parent_folders(\"root.hcl\")\n}}\n")),
            );
            unit.push_str("inputs = {\n  v0 = 1\n}\n");
            add("live/app/terragrunt.hcl", unit);
            "live/app/terragrunt.hcl"
        }
        // `n` calls of one module of `n` outputs, each call's output read.
        "calls" => {
            add("m/main.tf", (0..n).map(|i| format!("output \"o{i}\" {{\n  value = {i}\n}}\n")).collect());
            let mut main: String = (0..n).map(|i| format!("module \"c{i}\" {{\n  source = \"./m\"\n}}\n")).collect();
            main.push_str("locals {\n");
            main.extend((0..n).map(|i| format!("  l{i} = module.c{i}.o{i}\n")));
            main.push_str("}\n");
            add("main.tf", main);
            "main.tf"
        }
        // `n` variables and one `locals` block reading them (the outline).
        "outline" => {
            let mut main: String = (0..n).map(|i| format!("variable \"v{i}\" {{\n  type = number\n}}\n")).collect();
            main.push_str("locals {\n");
            main.extend((0..n).map(|i| format!("  l{i} = var.v{i}\n")));
            main.push_str("}\n");
            add("main.tf", main);
            "main.tf"
        }
        _ => panic!("no case {name}"),
    };
    (files, main.to_string())
}

fn write(dir: &Path, files: &[(String, String)]) {
    for (path, text) in files {
        let path = dir.join(path);
        std::fs::create_dir_all(path.parent().expect("a directory")).expect("a directory");
        std::fs::write(path, text).expect("write a generated file");
    }
}

/// The allocations of `check` of the case's directory.
fn check(name: &str, n: usize) -> u64 {
    let dir = crate::scratch::named(name);
    let (files, _) = case(name, n);
    write(&dir, &files);
    let args = CommonArgs {
        paths: vec![dir.to_path_buf()],
        format: Format::Text,
        dialect: None,
        var_files: Vec::new(),
        var_file_table: None,
        provider_schemas: Vec::<PathBuf>::new(),
        package_schemas: Vec::new(),
        // Hermetic: no `.hcl-types.hcl` above the checkout applies.
        source: hcl_types::cli::check::SourceArgs { no_config: true, ..Default::default() },
    };
    let before = counted();
    let (reports, failures) = run_analysis(&args, false);
    let spent = counted() - before;
    assert!(failures.is_empty(), "{name}: I/O failures");
    assert!(!reports.is_empty(), "{name}: files analysed");
    std::fs::remove_dir_all(&dir).ok();
    spent
}

/// The allocations of the server from opening the case's file to its
/// first diagnostics (`server`), or of one outline of it once analysed
/// (`outline`).
fn server(name: &str, n: usize, outline: bool) -> u64 {
    let rt = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().expect("a runtime");
    rt.block_on(async {
        let mut s = Session::start(Enc::Utf16).await;
        let (files, main) = case(name, n);
        write(&s.dir, &files);
        let text = files.iter().find(|(p, _)| *p == main).map(|(_, t)| t.clone()).expect("the main file");
        let before = counted();
        let u = s.open(&main, &text).await;
        s.diagnostics(&u, 1).await;
        let mut spent = counted() - before;
        if outline {
            let before = counted();
            let symbols = s.request("textDocument/documentSymbol", json!({"textDocument": {"uri": u}})).await;
            spent = counted() - before;
            assert_eq!(symbols.as_array().map(Vec::len), Some(2 * n), "{name}: every variable and local");
        }
        std::fs::remove_dir_all(&s.dir).ok();
        spent
    })
}

/// Set to `CASE:N:MODE` in the process that measures one case.
const CASE: &str = "HCL_TYPES_AMPLIFICATION_CASE";

/// The allocations of one case, measured in a process of its own.
fn measured(test: &str, name: &str, n: usize, mode: &str) -> u64 {
    let exe = std::env::current_exe().expect("the test binary");
    let out = std::process::Command::new(&exe)
        .args(["--exact", &crate::exact(module_path!(), test), "--nocapture", "--test-threads=1"])
        .env(CASE, format!("{name}:{n}:{mode}"))
        .output()
        .expect("run a case");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let line = stdout.lines().find_map(|l| Some(l[l.find("ALLOCATIONS ")? + 12..].to_string()));
    let Some(count) = line.and_then(|l| l.trim().parse().ok()) else {
        // (Before the fix, the server's first diagnostics of the larger
        // cases did not come within the harness's wait.)
        eprintln!("{name} ({mode}): nothing measured\n{stdout}\n{}", String::from_utf8_lossy(&out.stderr));
        return u64::MAX;
    };
    count
}

/// In the measuring process: measures the case `CASE` names and prints it.
fn measure_if_asked() -> bool {
    let Ok(asked) = std::env::var(CASE) else { return false };
    let mut parts = asked.split(':');
    let (Some(name), Some(n), Some(mode)) = (parts.next(), parts.next(), parts.next()) else { panic!("{asked}") };
    let n: usize = n.parse().expect("a number");
    let count = match mode {
        "check" => check(name, n),
        "server" => server(name, n, false),
        "outline" => server(name, n, true),
        _ => panic!("no mode {mode}"),
    };
    println!("ALLOCATIONS {count}");
    true
}

/// Asserts that doubling the names of each case at most about doubles its
/// allocations (linear: 2; a product of names: 4). Every case is measured
/// before any is judged, so a failure shows them all.
fn linear(test: &str, cases: &[(&str, usize, &str)]) {
    let mut failed = Vec::new();
    for &(name, n, mode) in cases {
        let (one, two) = (measured(test, name, n, mode), measured(test, name, 2 * n, mode));
        let ratio = two as f64 / one as f64;
        let said = format!("{name} ({mode}): {one} allocations at {n} names, {two} at {}: ×{ratio:.2}", 2 * n);
        eprintln!("{said}");
        if one == u64::MAX || two == u64::MAX || ratio >= 2.6 {
            failed.push(said);
        }
    }
    assert!(failed.is_empty(), "not linear:\n{}", failed.join("\n"));
}

/// `check` of `N` `symbols` blocks naming one library, `N` includes of one
/// file, `N` calls of one module reading its outputs.
#[test]
fn check_costs_in_proportion_to_the_names() {
    if measure_if_asked() {
        return;
    }
    let test = "check_costs_in_proportion_to_the_names";
    linear(test, &[("symbols", 300, "check"), ("includes", 300, "check"), ("calls", 300, "check")]);
}

/// The server's first analysis of the same files, opened.
#[test]
fn the_server_costs_in_proportion_to_the_names() {
    if measure_if_asked() {
        return;
    }
    let test = "the_server_costs_in_proportion_to_the_names";
    linear(test, &[("symbols", 300, "server"), ("includes", 300, "server"), ("calls", 300, "server")]);
}

/// `documentSymbol` of `N` variables and one `locals` block reading them
/// (item 3): the block's tree was taken again for each of its locals.
#[test]
fn an_outline_costs_in_proportion_to_the_file() {
    if measure_if_asked() {
        return;
    }
    linear("an_outline_costs_in_proportion_to_the_file", &[("outline", 1000, "outline")]);
}
