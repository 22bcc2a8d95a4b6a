//! The yardstick of `hcl-types check` as a process (BENCHMARKS.md, "`check`
//! against the parser's own speed"): read each `.tf` file of the directories
//! or files named, parse it with a bare single-threaded hcl-edit
//! `parse_body`, drop the tree, and exit. Paired with a release
//! `hcl-types check DIR` on the same bytes, the ratio of the two wall times
//! is the figure issue 46 asks to keep within 1.1×.
//!
//! ```sh
//! cargo build --release --example parse_drop
//! /usr/bin/time -v target/release/examples/parse_drop DIR
//! ```

use std::path::Path;

fn main() {
    let mut parsed = 0usize;
    for arg in std::env::args().skip(1) {
        let path = Path::new(&arg);
        let files: Vec<_> = if path.is_dir() {
            let mut files: Vec<_> = std::fs::read_dir(path)
                .expect("a readable directory")
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "tf"))
                .collect();
            files.sort();
            files
        } else {
            vec![path.to_path_buf()]
        };
        for file in files {
            let text = std::fs::read_to_string(&file).expect("a readable UTF-8 file");
            // A file that does not parse costs its parse all the same.
            parsed += usize::from(hcl_edit::parser::parse_body(&text).is_ok());
        }
    }
    println!("{parsed} parsed");
}
