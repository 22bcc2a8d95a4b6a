//! `check` against the parser's own speed, on generated Terraform of 100 KB,
//! 1 MB and 10 MB (`tools/gen-hcl.py`, seed 1). Every group
//! measures the bare hcl-edit `parse_body` of the same bytes as its
//! baseline, so results read as ratios measured in the same run.
//!
//! Like for like, twice: `baseline-hcl-edit-parse` against `check` with
//! what they build freed outside the measurement (criterion's
//! `iter_with_large_drop`; the command frees on a thread nobody waits for),
//! and `baseline-hcl-edit-parse+drop` against `check+drop` with the freeing
//! measured in both.

use std::path::PathBuf;
use std::process::Command;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use hcl_types::analysis::{analyze, Document, ModuleAnalysis, SourceFile};
use hcl_types::syntax::scan;

/// Generates (once) and reads a benchmark input of `size` ("100KB", …).
pub fn input(size: &str) -> String {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/bench-data");
    std::fs::create_dir_all(&dir).expect("bench-data dir");
    let path = dir.join(format!("gen-{size}.tf"));
    if !path.exists() {
        let gen = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tools/gen-hcl.py");
        let ok = Command::new("python3")
            .arg(&gen)
            .args(["--size", size, "--seed", "1", "-o"])
            .arg(&path)
            .status()
            .map(|s| s.success())
            .unwrap_or(false);
        assert!(ok, "could not run {} (python3 is needed)", gen.display());
    }
    std::fs::read_to_string(&path).expect("bench input")
}

/// What `hcl-types check` does with one file: parse and analyse. Its trees
/// and results are returned, for the caller to free inside or outside the
/// measurement.
fn check(text: &str) -> (Vec<Document>, ModuleAnalysis) {
    let file = SourceFile::new("/bench/main.tf", text).expect("a .tf file");
    let docs = vec![Document::parse(file)];
    let analysis = analyze(&docs);
    (docs, analysis)
}

fn bench(c: &mut Criterion) {
    for size in ["100KB", "1MB", "10MB"] {
        let text = input(size);
        let mut g = c.benchmark_group(format!("check-{size}"));
        g.throughput(Throughput::Bytes(text.len() as u64));
        if size == "10MB" {
            g.sample_size(10).measurement_time(Duration::from_secs(20));
        }
        let parse = || hcl_edit::parser::parse_body(&text).expect("generated HCL parses");
        g.bench_function(BenchmarkId::new("baseline-hcl-edit-parse", size), |b| b.iter_with_large_drop(parse));
        g.bench_function(BenchmarkId::new("check", size), |b| b.iter_with_large_drop(|| check(&text)));
        g.bench_function(BenchmarkId::new("baseline-hcl-edit-parse+drop", size), |b| b.iter(|| drop(parse())));
        g.bench_function(BenchmarkId::new("check+drop", size), |b| b.iter(|| drop(check(&text))));
        g.bench_function(BenchmarkId::new("scan-blocks", size), |b| b.iter(|| scan::split(&text).len()));
        g.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
