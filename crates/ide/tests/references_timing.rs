//! A measurement, not a check (ignored): `ide::references` on a variable
//! of the generated 10 MB module (tools/gen-hcl.py, seed 1), p50 and max of
//! 15 requests. Measured 2026-11-27 on the shared 2-core machine: 531 ms
//! p50 when the cursor's document was scanned whole to find the symbol,
//! 219 ms once only the items around the cursor are; 14 ms once the
//! occurrences are remembered by document revision (the first request
//! still scans: the max).
//!
//! ```sh
//! cargo test --release -p hcl-types-ide --test references_timing -- --ignored --nocapture
//! ```

use analysis::workspace::Files;
use analysis::Family;
use fixture::Fixture;
use hcl_types_ide as ide;
use std::path::{Path, PathBuf};

#[test]
#[ignore = "a measurement: run it in release with --ignored --nocapture"]
fn references_on_the_10_mb_module() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let out = tempfile::Builder::new().prefix("hcl-types-refs-").suffix(".tf").tempfile().expect("a scratch file");
    let status = std::process::Command::new("python3")
        .arg(root.join("tools/gen-hcl.py"))
        .args(["--size", "10MB", "--seed", "1", "-o"])
        .arg(out.path())
        .status()
        .expect("python3 runs");
    assert!(status.success());
    let text = std::fs::read_to_string(out.path()).expect("generated");
    let f = Fixture { files: vec![(PathBuf::from("mod/main.tf"), text.clone())], cursor: None };
    let docs = f.module(Path::new("mod"), Family::Terraform);
    let off = text.find("\nvariable \"").expect("a variable") + 11;
    let mods = vec![ide::Module { dir: PathBuf::from("mod"), docs: &docs, editable: true }];
    let mut ms: Vec<f64> = (0..15)
        .map(|_| {
            let t = std::time::Instant::now();
            let r = ide::references(&mods, 0, 0, off, true).expect("a symbol");
            assert!(r.len() > 1, "the variable is read");
            t.elapsed().as_secs_f64() * 1000.0
        })
        .collect();
    ms.sort_by(f64::total_cmp);
    eprintln!("references: p50 {:.1} ms, max {:.1} ms over {} bytes", ms[7], ms[14], text.len());
}
