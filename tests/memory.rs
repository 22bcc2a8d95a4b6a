//! Memory per source byte (issue 27, item 5): analysing a file must cost
//! memory proportional to its size with a small constant, whatever it holds.
//! A list of one-digit numbers cost up to ~150 bytes of heap per source
//! byte (a 100 MB one asked for a single 9.6 GB vector and aborted), a list
//! of references ~170.
//!
//! The peak is measured with a counting global allocator, so this test is
//! its own binary (a global allocator is per binary), and each case runs in
//! a process of its own (this binary again), so that no other allocation
//! counts. The worst
//! cases are those of `tools/gen-hcl.py --worst` (BENCHMARKS.md, "Memory per
//! source byte").

use std::alloc::{GlobalAlloc, Layout, System};
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};

use hcl_types::cli::check::{run_analysis, CommonArgs, Format};

/// The system allocator, counting the bytes held now and at most.
struct Counting;

static HELD: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

fn grew(by: usize) {
    let now = HELD.fetch_add(by, Ordering::Relaxed) + by;
    PEAK.fetch_max(now, Ordering::Relaxed);
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            grew(layout.size());
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc_zeroed(layout) };
        if !p.is_null() {
            grew(layout.size());
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) };
        HELD.fetch_sub(layout.size(), Ordering::Relaxed);
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            HELD.fetch_sub(layout.size(), Ordering::Relaxed);
            grew(new_size);
        }
        p
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

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
/// analyses a directory holding only `text` as `main.tf`.
fn peak_of_check(name: &str, text: &str) -> usize {
    let dir = std::env::temp_dir().join(format!("hcl-types-memory-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temporary directory");
    std::fs::write(dir.join("main.tf"), text).expect("write the generated file");
    let args = CommonArgs {
        paths: vec![dir.clone()],
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
    assert_eq!(reports.len(), 1, "{name}: one file analysed");
    assert!(reports[0].diagnostics.is_empty(), "{name}: {:?}", &reports[0].diagnostics[..1]);
    drop(reports);
    std::fs::remove_dir_all(&dir).ok();
    peak
}

/// At most this many heap bytes per source byte, for any of the cases
/// in [`case`]. Measured at 1 MB (BENCHMARKS.md): 29-65 now (the most for a
/// block of locals, then a list of references); before, 81 for a list of
/// one-digit numbers and 169 for a list of references.
const PER_BYTE: usize = 100;

/// The worst cases, by name (about `size` bytes each).
fn case(name: &str, size: usize) -> Option<String> {
    Some(match name {
        "list-tight" => generated("locals {\n  l = [", |i| (i % 10).to_string(), ",", "0]\n}\n", size),
        "list-refs" => generated("locals {\n  a = 1\n  l = [", |_| "local.a".into(), ",", "local.a]\n}\n", size),
        "list-empty" => generated("locals {\n  l = [", |i| ["[]", "{}"][i % 2].into(), ",", "[]]\n}\n", size),
        "object" => generated("locals {\n  o = {\n", |i| format!("    k{i} = {i}"), "\n", "  }\n}\n", size),
        "locals" => generated("locals {\n", |i| format!("  a{i} = [{i}]"), "\n", "}\n", size),
        _ => return None,
    })
}

/// Set to a case's name in the process that measures it.
const CASE: &str = "HCL_TYPES_MEMORY_CASE";

#[test]
fn long_literals_cost_memory_in_proportion_to_their_size() {
    const SIZE: usize = 1_000_000;
    if let Ok(name) = std::env::var(CASE) {
        // One case, in a process of its own: `check` frees a module's trees
        // on a thread of their own, which would free one case's memory
        // while the next is measured.
        let text = case(&name, SIZE).expect("a known case");
        println!("PEAK {} {}", peak_of_check(&name, &text), text.len());
        return;
    }
    let exe = std::env::current_exe().expect("the test binary");
    for name in ["list-tight", "list-refs", "list-empty", "object", "locals"] {
        let out = std::process::Command::new(&exe)
            .args([
                "--exact",
                "long_literals_cost_memory_in_proportion_to_their_size",
                "--nocapture",
                "--test-threads=1",
            ])
            .env(CASE, name)
            .output()
            .expect("run a case");
        let stdout = String::from_utf8_lossy(&out.stdout);
        let line = stdout.lines().find_map(|l| Some(&l[l.find("PEAK ")? + 5..]));
        let Some((peak, len)) = line.and_then(|l| l.split_once(' ')) else {
            panic!("{name}: no peak measured\n{stdout}\n{}", String::from_utf8_lossy(&out.stderr));
        };
        let (peak, len): (usize, usize) = (peak.parse().expect("bytes"), len.parse().expect("bytes"));
        let per_byte = peak / len;
        eprintln!("{name}: {:.1} MB of heap for {:.1} MB: {per_byte} per byte", peak as f64 / 1e6, len as f64 / 1e6);
        assert!(per_byte <= PER_BYTE, "{name}: {per_byte} bytes of heap per source byte (at most {PER_BYTE})");
    }
}
