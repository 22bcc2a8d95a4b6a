//! Loading a provider schema against reading its JSON: the google provider's
//! 4 MB `providers schema -json` (`schemas/terraform` of the shared directory,
//! third-party data read where it lies: skipped with a line when absent), with serde_json's
//! parse of the same bytes into a `Value` as the baseline measured in the
//! same run, so the result reads as a ratio. Memory: the heap the loaded
//! schema keeps (counted by this binary's allocator, the file's bytes and
//! the parse dropped), printed once next to the file's size: just loaded,
//! and after every resource's and data source's value type was built and
//! the untrusted-object index made (what a module using many of them adds).

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicIsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// The system allocator, counting the bytes in use.
struct Counting;

static IN_USE: AtomicIsize = AtomicIsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        IN_USE.fetch_add(l.size() as isize, Ordering::Relaxed);
        // SAFETY: the caller's contract is System's.
        unsafe { System.alloc(l) }
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        IN_USE.fetch_sub(l.size() as isize, Ordering::Relaxed);
        // SAFETY: as above.
        unsafe { System.dealloc(p, l) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// What the loaded google schema keeps on the heap, in MB: (loaded, in use).
fn retained(path: &std::path::Path) -> (f64, f64) {
    let mb = |n: isize| n as f64 / 1e6;
    let before = IN_USE.load(Ordering::Relaxed);
    let schemas = hcl_types::project::schemas::from_files(&[path.to_path_buf()], &[]).expect("schema");
    let loaded = IN_USE.load(Ordering::Relaxed) - before;
    for (_, found) in schemas.types(false).chain(schemas.types(true)) {
        found.block.value_type();
    }
    schemas.open_origin(&hcl_types::types::Type::any());
    let used = IN_USE.load(Ordering::Relaxed) - before;
    drop(Arc::new(schemas));
    (mb(loaded), mb(used))
}

use criterion::{criterion_group, criterion_main, Criterion, Throughput};

#[path = "../tests/it/paths/mod.rs"]
mod paths;

fn bench(c: &mut Criterion) {
    let Some(path) = paths::shared("schemas/terraform/google-4.27.0.json", "the schema bench") else { return };
    let (loaded, used) = retained(&path);
    let size = std::fs::metadata(&path).map(|m| m.len() as f64 / 1e6).unwrap_or(0.0);
    println!("schema-google-4.27.0 memory: {size:.1} MB of JSON; loaded {loaded:.1} MB ({:.2}x), with every value type and the index {used:.1} MB ({:.2}x)", loaded / size, used / size);
    let bytes = std::fs::read(&path).expect("the google schema");
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
