//! Loading a provider schema against reading its JSON: the google provider's
//! 4 MB `providers schema -json` (tests/data/schemas), with serde_json's
//! parse of the same bytes into a `Value` as the baseline measured in the
//! same run, so the result reads as a ratio. Memory: the process's peak
//! resident size after loading, printed once, next to the file's size.

use std::path::PathBuf;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};

fn google() -> Vec<u8> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/schemas/terraform/google-4.27.0.json");
    std::fs::read(&path).expect("the google schema")
}

fn bench(c: &mut Criterion) {
    let bytes = google();
    let mut g = c.benchmark_group("schema-google-4.27.0");
    g.throughput(Throughput::Bytes(bytes.len() as u64)).sample_size(20).measurement_time(Duration::from_secs(10));
    g.bench_function("baseline-serde-json-value", |b| {
        b.iter_with_large_drop(|| serde_json::from_slice::<serde_json::Value>(&bytes).expect("JSON"))
    });
    g.bench_function("schema-load", |b| b.iter_with_large_drop(|| hcl_types::schema::load(&bytes).expect("schema")));
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
