//! Memory per source byte (issue 27, item 5; issue 42, item 5): analysing
//! a file must cost memory proportional to its size with a small constant,
//! whatever it holds, and the source cap must keep one file within a budget
//! (many tiny items cost ~280 bytes a byte, so 64 MiB was ~18 GB). A list of one-digit numbers cost up to ~150 bytes of heap per source
//! byte (a 100 MB one asked for a single 9.6 GB vector and aborted), a list
//! of references ~170.
//!
//! The peak is measured by the test binary's counting global allocator
//! (`counting.rs`), and each case runs in a process of its own (this binary
//! again), so that no other allocation counts. The worst
//! cases are those of `tools/gen-hcl.py --worst` (BENCHMARKS.md, "Memory per
//! source byte").

use std::path::PathBuf;
use std::sync::atomic::Ordering;

use crate::counting::{HELD, PEAK};
use hcl_types::cli::check::{run_analysis, CommonArgs, Format};

/// `item(i)` joined by `sep` until `size` bytes, inside `head` and `tail`.
fn generated(head: &str, item: impl Fn(usize) -> String, sep: &str, tail: &str, size: usize) -> String {
    let mut text = String::from(head);
    let mut i = 0;
    while text.len() < size {
        text.push_str(&item(i));
        text.push_str(sep);
        i += 1;
    }
    text.push_str(tail);
    text
}

/// The heap bytes at most held above those held before, while `check`
/// analyses a directory holding only `files`, and how many diagnostics it
/// reported.
fn peak_of_check(name: &str, files: &[(&str, String)]) -> (usize, usize) {
    let dir = crate::scratch::named(name);
    for (file, text) in files {
        std::fs::write(dir.join(file), text).expect("write the generated file");
    }
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
    let before = HELD.load(Ordering::Relaxed);
    PEAK.store(before, Ordering::Relaxed);
    let (reports, failures) = run_analysis(&args, false);
    let peak = PEAK.load(Ordering::Relaxed) - before;
    assert!(failures.is_empty(), "{name}: I/O failures");
    assert_eq!(reports.len(), files.len(), "{name}: every file analysed");
    // (A local nothing reads is the lint's, analysis.md §5.1: not invalid.)
    let lint =
        |d: &&hcl_types::syntax::diagnostic::Diagnostic| hcl_types::syntax::diagnostic::UNUSED_LINTS.contains(&d.code);
    let diagnostics = reports.iter().map(|r| r.diagnostics.iter().filter(|d| !lint(d)).count()).sum();
    drop(reports);
    std::fs::remove_dir_all(&dir).ok();
    (peak, diagnostics)
}

/// At most this many heap bytes per source byte, for the long literals
/// of [`LITERALS`]. Measured at 1 MB (BENCHMARKS.md): 29-67 for the lists
/// and objects; 84 for a block of 1 MB of locals (named `_…`, so that
/// none is an unused one), which keeps two facts per local for the
/// module-level passes (duplicate and unused declarations, duplicates.rs
/// and unused.rs); 80 with the lints of unused declarations turned off
/// (their facts are then not gathered, issue 44.3). It was 108 when the
/// locals were unread: a hint each. Before issue 27, 81 for a list of
/// one-digit numbers and 169 for a list of references.
const PER_BYTE: usize = 90;

/// The long literals (issue 27): one construct that grows.
const LITERALS: [&str; 5] = ["list-tight", "list-refs", "list-empty", "object", "locals"];

/// Every other shape whose cost per byte was measured high (issue 42,
/// item 5): many tiny items (each item's parse, ids and declarations cost
/// ~1 KB whatever its size), `.tfvars` lines, lists of small objects.
const SHAPES: [&str; 10] = [
    "hcl-tiny-blocks",
    "tiny-blocks",
    "tiny-locals",
    "blocks",
    "hcl-attrs",
    "tfvars-lines",
    "tfvars-tight",
    "tfvars-list",
    "list-objects",
    "list-objects-tight",
];

/// The heap one file may cost at most (issue 42, item 5: a 60 MB file
/// under the old 64 MiB cap asked for ~16 GB and killed the server).
const FILE_BUDGET: u64 = 4 << 30;

/// The worst cases, by name: files of about `size` bytes together.
fn case(name: &str, size: usize) -> Option<Vec<(&'static str, String)>> {
    let main = |text: String| vec![("main.tf", text)];
    let prims = |i: usize| match i % 5 {
        0 => i.to_string(),
        1 => format!("\"s{i}\""),
        2 => "true".into(),
        3 => format!("{i}.5"),
        _ => "null".into(),
    };
    Some(match name {
        "list-tight" => main(generated("locals {\n  l = [", |i| (i % 10).to_string(), ",", "0]\n}\n", size)),
        "list-refs" => main(generated("locals {\n  a = 1\n  l = [", |_| "local.a".into(), ",", "local.a]\n}\n", size)),
        "list-empty" => main(generated("locals {\n  l = [", |i| ["[]", "{}"][i % 2].into(), ",", "[]]\n}\n", size)),
        "object" => main(generated("locals {\n  o = {\n", |i| format!("    k{i} = {i}"), "\n", "  }\n}\n", size)),
        // (`_`: kept deliberately, so no local is an unused one.)
        "locals" => main(generated("locals {\n", |i| format!("  _a{i} = [{i}]"), "\n", "}\n", size)),
        "hcl-tiny-blocks" => vec![("x.hcl", generated("", |_| "a{}".into(), "\n", "", size))],
        "tiny-blocks" => main(generated("", |_| "locals {}".into(), "\n", "", size)),
        "tiny-locals" => main(generated("", |i| format!("locals {{\na{i}=1\n}}"), "\n", "", size)),
        "blocks" => main(generated("", |i| format!("resource \"null_resource\" \"r{i}\" {{}}"), "\n", "", size)),
        "hcl-attrs" => vec![("x.hcl", generated("", |i| format!("a{i}=1"), "\n", "", size))],
        "tfvars-lines" => {
            let vars = generated("", |i| format!("variable \"v{i}\" {{}}"), "\n", "", size / 2);
            let n = vars.lines().count();
            let tfvars = generated("", |i| format!("v{} = {}", i % n, prims(i)), "\n", "", size / 2);
            vec![("main.tf", vars), ("x.auto.tfvars", tfvars)]
        }
        "tfvars-tight" => {
            let tfvars = generated("", |_| "l=1".into(), "\n", "", size);
            vec![("main.tf", "variable \"l\" {}\n".into()), ("x.auto.tfvars", tfvars)]
        }
        "tfvars-list" => {
            let item = |i: usize| if i.is_multiple_of(2) { i.to_string() } else { format!("\"{i}\"") };
            let tfvars = generated("l = [", item, ", ", "0]\n", size);
            vec![("main.tf", "variable \"l\" {\n  type = list(number)\n}\n".into()), ("x.auto.tfvars", tfvars)]
        }
        "list-objects" => {
            let item = |i: usize| format!("{{a = {i}, b{} = \"x\"}}", i % 7);
            main(generated("locals {\n  l = [", item, ", ", "{}]\n}\n", size))
        }
        "list-objects-tight" => main(generated("locals {\n  l = [", |_| "{a=1}".into(), ",", "{}]\n}\n", size)),
        _ => return None,
    })
}

/// Set to a case's name in the process that measures it.
const CASE: &str = "HCL_TYPES_MEMORY_CASE";

/// The size of each case.
const SIZE: usize = 1_000_000;

/// `check`'s peak heap for the case `name`, its size and its diagnostics,
/// measured in a process of its own (this binary again, running `test`):
/// `check` frees a module's trees on a thread of their own, which would
/// free one case's memory while the next is measured.
fn measure(test: &str, name: &str) -> (usize, usize, usize) {
    let exe = std::env::current_exe().expect("the test binary");
    let out = std::process::Command::new(&exe)
        .args(["--exact", &crate::exact(module_path!(), test), "--nocapture", "--test-threads=1"])
        .env(CASE, name)
        .output()
        .expect("run a case");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let line = stdout.lines().find_map(|l| Some(&l[l.find("PEAK ")? + 5..]));
    let numbers: Vec<usize> = line.into_iter().flat_map(|l| l.split(' ')).filter_map(|n| n.parse().ok()).collect();
    let [peak, len, diagnostics] = numbers[..] else {
        panic!("{name}: no peak measured\n{stdout}\n{}", String::from_utf8_lossy(&out.stderr));
    };
    eprintln!("{name}: {:.1} MB of heap for {:.1} MB: {} per byte", peak as f64 / 1e6, len as f64 / 1e6, peak / len);
    (peak, len, diagnostics)
}

/// In the process [`measure`] starts: measures the case it names.
fn measured_here() -> bool {
    let Ok(name) = std::env::var(CASE) else { return false };
    let files = case(&name, SIZE).expect("a known case");
    let len: usize = files.iter().map(|(_, t)| t.len()).sum();
    let (peak, diagnostics) = peak_of_check(&name, &files);
    println!("PEAK {peak} {len} {diagnostics}");
    true
}

#[test]
fn long_literals_cost_memory_in_proportion_to_their_size() {
    if measured_here() {
        return;
    }
    for name in LITERALS {
        let (peak, len, diagnostics) = measure("long_literals_cost_memory_in_proportion_to_their_size", name);
        assert_eq!(diagnostics, 0, "{name}: the case is valid");
        let per_byte = peak / len;
        assert!(per_byte <= PER_BYTE, "{name}: {per_byte} bytes of heap per source byte (at most {PER_BYTE})");
    }
}

/// No file the cap lets in costs more than [`FILE_BUDGET`]: the measured
/// cost per byte of every shape, times the cap, stays within it (with the
/// old 64 MiB cap, `a{}` lines at ~280 a byte made 18 GB).
#[test]
fn no_file_under_the_cap_costs_more_than_the_budget() {
    if measured_here() {
        return;
    }
    let cap = hcl_types::project::fsread::SOURCE_CAP;
    // (The literals cost at most `PER_BYTE`, well within it.)
    const _: () = assert!(PER_BYTE as u64 * hcl_types::project::fsread::SOURCE_CAP <= FILE_BUDGET);
    for name in SHAPES {
        let (peak, len, _) = measure("no_file_under_the_cap_costs_more_than_the_budget", name);
        let per_byte = (peak / len) as u64;
        let declared = hcl_types::project::fsread::HEAP_PER_SOURCE_BYTE;
        assert!(per_byte <= declared, "{name}: {per_byte} bytes of heap per source byte (declared {declared})");
        let worst = per_byte * cap;
        assert!(worst <= FILE_BUDGET, "{name}: a file at the cap ({cap} bytes) would take {worst} bytes of heap");
    }
}
