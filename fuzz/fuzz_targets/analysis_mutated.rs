//! Analysis of mutated real HCL: the input is the text of one file (seeds
//! are files of the real corpus, copied by scripts/fuzz-smoke). It is read
//! as Terraform, PCL and plain HCL; every feature is probed in the dialect
//! chosen by the text's length, at evenly spread offsets.

#![no_main]

mod common;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    for (k, name) in ["main.tf", "main.pp", "main.hcl"].into_iter().enumerate() {
        let docs = common::docs(&[(name, text)]);
        let probes: Vec<(usize, usize)> =
            if text.len() % 3 == k { (0..=6).map(|j| (0, text.len() * j / 6)).collect() } else { Vec::new() };
        common::exercise(&docs, &probes, false);
    }
});
