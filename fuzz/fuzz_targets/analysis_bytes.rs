//! Whole-module analysis from arbitrary bytes. The first byte picks the
//! family and the file names; the rest is split at 0xFF bytes into up to
//! four files of one module (lossy UTF-8). Probe offsets come from the text.

#![no_main]

mod common;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&selector, rest)) = data.split_first() else { return };
    let names: &[&str] = match selector % 3 {
        0 => &common::TERRAFORM,
        1 => &common::PCL,
        _ => &common::HCL,
    };
    let texts: Vec<String> =
        rest.split(|&b| b == 0xFF).take(4).map(|t| String::from_utf8_lossy(t).into_owned()).collect();
    let rotate = (selector / 3) as usize;
    let files: Vec<(&str, &str)> =
        texts.iter().enumerate().map(|(i, t)| (names[(i + rotate) % names.len()], t.as_str())).collect();
    // Distinct names only: the first file of a name wins.
    let mut seen = Vec::new();
    let files: Vec<(&str, &str)> = files
        .into_iter()
        .filter(|(n, _)| {
            !seen.contains(n) && {
                seen.push(*n);
                true
            }
        })
        .collect();
    let docs = common::docs(&files);
    let probes: Vec<(usize, usize)> =
        (0..4).map(|k| (k, data.iter().skip(k * 7).take(4).fold(0usize, |a, &b| a * 256 + b as usize))).collect();
    common::exercise(&docs, &probes, true);
});
