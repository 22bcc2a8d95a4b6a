//! Workspace symbols (issue 32.3): indexing every module of a workspace
//! in the background, the memory it holds, and the time of a query, on the
//! largest repository of the corpus (cloud-foundation-fabric, ~900
//! modules) and on a generated monorepo of 10,000 modules.
//!
//! Baselines in the same run: indexing against reading the same files
//! (`check`'s walk and `fsread`, no symbols), a query against a plain
//! substring filter over the same names (what any index must at least do).
//!
//! ```sh
//! cargo bench --bench workspace_symbols
//! SYMBOLS_BENCH_QUERIES=1000 cargo bench --bench workspace_symbols
//! ```

use std::path::{Path, PathBuf};
use std::time::Instant;

use hcl_types::project::{check, fsread, index::Index};

#[path = "../tests/it/paths/mod.rs"]
mod paths;

/// The generated monorepo: `modules/mNNNNN/{main,variables,outputs}.tf`,
/// each module with 6 variables, a `locals` of 4, 3 resources, a data
/// source, a module call and 3 outputs (18 symbols, ~2.5 KB).
fn monorepo(modules: usize) -> PathBuf {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!("target/bench-data/monorepo-{modules}"));
    if root.join("done").exists() {
        return root;
    }
    let _ = std::fs::remove_dir_all(&root);
    for m in 0..modules {
        let dir = root.join(format!("modules/m{m:05}"));
        std::fs::create_dir_all(&dir).expect("module dir");
        let mut vars = String::new();
        for v in ["region", "name", "tags", "cidr_block", "instance_count", "enable_logging"] {
            vars.push_str(&format!(
                "variable \"{v}_{m}\" {{\n  type        = string\n  description = \"The {v}.\"\n}}\n\n"
            ));
        }
        let main = format!(
            "locals {{\n  prefix = \"p{m}\"\n  zone   = var.region_{m}\n  count  = 2\n  merged = {{ a = 1 }}\n}}\n\n\
             resource \"aws_vpc\" \"vpc_{m}\" {{\n  cidr_block = var.cidr_block_{m}\n}}\n\n\
             resource \"aws_subnet\" \"subnet_{m}\" {{\n  vpc_id = aws_vpc.vpc_{m}.id\n}}\n\n\
             resource \"aws_s3_bucket\" \"logs_{m}\" {{\n  bucket = local.prefix\n}}\n\n\
             data \"aws_ami\" \"ubuntu_{m}\" {{\n  most_recent = true\n}}\n\n\
             module \"child_{m}\" {{\n  source = \"../m{:05}\"\n}}\n",
            (m + 1) % modules
        );
        let outputs = format!(
            "output \"vpc_id_{m}\" {{\n  value = aws_vpc.vpc_{m}.id\n}}\n\noutput \"subnet_{m}\" {{\n  value = aws_subnet.subnet_{m}.id\n}}\n\n\
             output \"bucket_{m}\" {{\n  value = aws_s3_bucket.logs_{m}.bucket\n}}\n"
        );
        std::fs::write(dir.join("variables.tf"), vars).expect("write");
        std::fs::write(dir.join("main.tf"), main).expect("write");
        std::fs::write(dir.join("outputs.tf"), outputs).expect("write");
    }
    std::fs::write(root.join("done"), "").expect("write");
    root
}

/// The process's resident memory, in MB (Linux).
fn rss_mb() -> f64 {
    let statm = std::fs::read_to_string("/proc/self/statm").unwrap_or_default();
    let pages: f64 = statm.split_whitespace().nth(1).and_then(|p| p.parse().ok()).unwrap_or(0.0);
    pages * 4096.0 / 1e6
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

fn bench(label: &str, root: &Path, queries: usize) {
    // Baseline: the same walk and reads, nothing kept.
    let t = Instant::now();
    let (modules, _) = check::discover(&[root.to_path_buf()]);
    let files: Vec<PathBuf> =
        modules.into_values().flatten().filter(|p| p.extension().is_some_and(|e| e == "tf")).collect();
    let bytes: usize =
        files.iter().filter_map(|p| fsread::read_regular_to_string(p, fsread::SOURCE_CAP).ok()).map(|t| t.len()).sum();
    let read = t.elapsed().as_secs_f64();

    let before = rss_mb();
    let index = Index::default();
    let t = Instant::now();
    index.build(&[root.to_path_buf()], &|_, _| {});
    let built = t.elapsed().as_secs_f64();
    let held = rss_mb() - before;
    let (nfiles, nsymbols) = index.size();

    // Queries: prefixes and in-order letters of names the index holds.
    let all: Vec<String> = index.search("", usize::MAX, &[]).into_iter().map(|f| f.name).collect();
    let mut seed = 0x2545f4914f6cdd1du64;
    let mut next = |n: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n as u64) as usize
    };
    let qs: Vec<String> = (0..queries)
        .map(|k| {
            let name = &all[next(all.len())];
            let last = name.rsplit('.').next().unwrap_or(name);
            match k % 3 {
                0 => last.chars().take(1 + next(6)).collect(),
                1 => last.chars().step_by(2).take(4).collect(),
                _ => name.clone(),
            }
        })
        .collect();
    let mut times = Vec::new();
    let mut naive = Vec::new();
    for q in &qs {
        let t = Instant::now();
        std::hint::black_box(index.search(q, 256, &[]));
        times.push(t.elapsed().as_secs_f64() * 1e3);
        let t = Instant::now();
        let lower = q.to_lowercase();
        std::hint::black_box(all.iter().filter(|n| n.to_lowercase().contains(&lower)).take(256).count());
        naive.push(t.elapsed().as_secs_f64() * 1e3);
    }
    times.sort_by(f64::total_cmp);
    naive.sort_by(f64::total_cmp);
    println!(
        "{label:<34} {nfiles:>6} files {:>6.1} MB  {nsymbols:>7} symbols | index {built:>6.3} s = {:>4.2}x reading them ({read:.3} s) | held ~{held:>5.1} MB | query p50 {:>6.3} ms p99 {:>6.3} ms = {:.2}x / {:.2}x a substring filter",
        bytes as f64 / 1e6,
        built / read,
        percentile(&times, 0.5),
        percentile(&times, 0.99),
        percentile(&times, 0.5) / percentile(&naive, 0.5),
        percentile(&times, 0.99) / percentile(&naive, 0.99),
    );
}

fn main() {
    let queries = std::env::var("SYMBOLS_BENCH_QUERIES").ok().and_then(|q| q.parse().ok()).unwrap_or(300);
    let fabric = "corpus/terraform/GoogleCloudPlatform__cloud-foundation-fabric";
    if let Some(corpus) = paths::shared(fabric, "the workspace-symbols bench on fabric") {
        bench("corpus: cloud-foundation-fabric", &corpus, queries);
    }
    bench("generated monorepo, 10,000 modules", &monorepo(10_000), queries);
}
