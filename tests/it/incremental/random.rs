//! Random edits and keystrokes of real modules, each analysis compared
//! with a fresh one.

use std::path::PathBuf;

use hcl_types::analysis::{Document, Memo, SourceFile};

use super::{module, run, Ask, Rng, VERSIONS_TF};

/// An analysis stopped halfway (the user typed on) leaves the memo so
/// that the next one is still what a fresh analysis finds.
#[test]
fn analyses_stopped_halfway_leave_the_memo_sound() {
    let files = module("examples/terraform", &["main.tf", "variables.tf", "terraform.tfvars"]);
    let ran = run(files, 200, 0x5eed_cafe, Ask::Stopped);
    assert!(ran.stopped > 10, "few analyses were stopped: {}", ran.stopped);
}

#[test]
fn terraform_module_edits_match_a_fresh_analysis() {
    let files = module("examples/terraform", &["main.tf", "variables.tf", "terraform.tfvars"]);
    for seed in 1..=std::env::var("INCREMENTAL_SEEDS").ok().and_then(|s| s.parse().ok()).unwrap_or(4) {
        run(files.clone(), 150, seed, Ask::Alternating);
    }
}

#[test]
fn pcl_program_edits_match_a_fresh_analysis() {
    let files = module("examples/pulumi", &["main.pp"]);
    for seed in 1..=std::env::var("INCREMENTAL_SEEDS").ok().and_then(|s| s.parse().ok()).unwrap_or(4) {
        run(files.clone(), 150, seed, Ask::Alternating);
    }
}

#[test]
fn keystrokes_patch_the_last_analysis_as_a_fresh_analysis_would() {
    let files = module("examples/terraform", &["main.tf", "variables.tf", "terraform.tfvars"]);
    let mut patched = 0;
    for seed in 1..=std::env::var("INCREMENTAL_SEEDS").ok().and_then(|s| s.parse().ok()).unwrap_or(4) {
        patched += run(files.clone(), 150, seed, Ask::Shared).patched;
        patched += run(module("examples/pulumi", &["main.pp"]), 150, seed, Ask::Shared).patched;
    }
    // Most edits touch resources and outputs: the patch path must be the
    // one tested here, not the fallback.
    eprintln!("{patched} analyses patched");
    // (76-80% of the edits at 4 to 16 seeds.)
    let seeds = std::env::var("INCREMENTAL_SEEDS").ok().and_then(|s| s.parse().ok()).unwrap_or(4);
    let edits = seeds * 2 * 150;
    assert!(patched * 10 > edits * 7, "only {patched} of {edits} analyses were patched");
}

/// Keystrokes in a module where the module-level passes report: patched
/// (the passes run again over each item's remembered facts), and what a
/// fresh analysis finds.
#[test]
fn keystrokes_in_a_module_with_module_level_passes_patch_as_a_fresh_analysis_would() {
    let mut files = module("examples/terraform", &["main.tf", "variables.tf", "terraform.tfvars"]);
    let dir = files[0].0.parent().map(PathBuf::from).unwrap_or_default();
    files.push((dir.join("versions.tf"), VERSIONS_TF.to_string()));
    let seeds: usize = std::env::var("INCREMENTAL_SEEDS").ok().and_then(|s| s.parse().ok()).unwrap_or(4);
    let mut patched = 0;
    for seed in 1..=seeds as u64 {
        patched += run(files.clone(), 150, seed, Ask::Shared).patched;
    }
    let edits = seeds * 150;
    eprintln!("{patched} of {edits} analyses patched");
    assert!(patched * 10 > edits * 6, "only {patched} of {edits} analyses were patched");
}

/// Renames typed into `modules` as the language server asks: (renames, patched).
fn renames(modules: &[Vec<(PathBuf, String)>]) -> (usize, usize) {
    let (mut renames, mut patched) = (0, 0);
    for seed in 1..=std::env::var("INCREMENTAL_SEEDS").ok().and_then(|s| s.parse().ok()).unwrap_or(4) {
        for files in modules {
            let ran = run(files.clone(), 150, seed, Ask::Shared);
            renames += ran.renames;
            patched += ran.renames_patched;
        }
    }
    (renames, patched)
}

#[test]
fn renames_patch_the_last_analysis_as_a_fresh_analysis_would() {
    let modules = [module("examples/terraform", &["main.tf", "variables.tf"]), module("examples/pulumi", &["main.pp"])];
    let (renames, patched) = renames(&modules);
    eprintln!("{patched} of {renames} renames patched");
    assert!(renames > 100, "only {renames} renames");
    // (75-78% at 4 to 16 seeds.)
    assert!(patched * 10 > renames * 7, "only {patched} of {renames} renames were patched");
}

#[test]
fn renames_with_a_tfvars_file_patch_the_last_analysis_as_a_fresh_analysis_would() {
    // tfvars values are checked against the variables they assign: a
    // renamed variable checks those values again (and a renamed tfvars
    // key is a value checked against another variable, or none).
    let (renames, patched) = renames(&[module("examples/terraform", &["main.tf", "variables.tf", "terraform.tfvars"])]);
    eprintln!("{patched} of {renames} renames patched");
    assert!(renames > 50, "only {renames} renames");
    // (69-79% at 4 to 16 seeds.)
    assert!(patched * 3 > renames * 2, "only {patched} of {renames} renames were patched");
}

/// `Memo::calls` answers again without visiting every item when the changed
/// items call what they called: after every random edit (module labels,
/// sources and arguments too; several between two questions, or a document
/// parsed anew) it is what a fresh memo finds.
#[test]
fn module_calls_after_edits_are_those_of_a_fresh_memo() {
    let block = |i: usize| match i % 3 {
        0 => format!("module \"m{i}\" {{\n  source = \"./m{}\"\n  name   = \"n{i}\"\n}}\n", i % 4),
        1 => format!("resource \"aws_s3_bucket\" \"b{i}\" {{\n  bucket = \"b\"\n}}\n"),
        _ => format!("variable \"v{i}\" {{\n  default = {i}\n}}\n"),
    };
    let text: String = (0..30).map(block).collect();
    let path = PathBuf::from("/m/main.tf");
    for seed in 1..=8 {
        let mut rng = Rng(seed);
        let mut doc = Document::parse(SourceFile::new(path.clone(), text.as_str()).unwrap());
        let mut memo = Memo::default();
        for step in 0..200 {
            let old = doc.file.text.to_string();
            let mut at = rng.below(old.len() + 1);
            while !old.is_char_boundary(at) {
                at -= 1;
            }
            let end = if rng.below(3) == 0 { (at + 1..=old.len()).find(|&e| old.is_char_boundary(e)) } else { None };
            let end = end.unwrap_or(at);
            let insert = ["x", "\"", "}", "\n", "module \"m\" {\n  source = \"./n\"\n}\n", "# "][rng.below(6)];
            let new = format!("{}{}{}", &old[..at], insert, &old[end..]);
            doc = doc.edited_at(SourceFile::new(path.clone(), new.as_str()).unwrap(), at..end, insert.len());
            // Now and then parsed anew (no edits lead to it: the items are
            // compared), and asked only after some edits (several edits
            // make one).
            if rng.below(15) == 0 {
                doc = Document::parse(doc.file.clone());
            }
            if rng.below(3) == 0 {
                continue;
            }
            let docs = std::slice::from_ref(&doc);
            assert_eq!(memo.calls(docs), Memo::default().calls(docs), "seed {seed} step {step}");
        }
    }
}

/// The `symbols` blocks the server loads libraries for are found with the
/// module's calls, from the edited items only (`Memo::symbol_requests`):
/// after each edit they are what a walk of every item finds.
#[test]
fn symbol_library_requests_follow_the_edits() {
    use hcl_types::analysis::dialects::symbol_libraries::libraries::requests;
    let path = PathBuf::from("/tmp/hcl-types-incremental/main.tofu");
    let base = "resource \"x\" \"a\" {\n  n = 1\n}\n";
    let texts = [
        base.to_string(),
        base.replace("n = 1", "n = 12"),
        format!("{base}symbols \"lib\" {{\n  source = \"./lib\"\n}}\n"),
        format!("{base}symbols \"lib\" {{\n  source = \"./lib2\"\n}}\n"),
        format!("{base}symbols \"lib\" {{\n  source = \"./lib2\"\n}}\nsymbols \"other\" {{\n  source = \"./o\"\n}}\n"),
        format!("{base}symbols \"other\" {{\n  source = \"./o\"\n}}\n"),
        base.replace("n = 1", "n = 123"),
    ];
    let mut doc = Document::parse(SourceFile::new(path.clone(), texts[0].as_str()).unwrap());
    let mut memo = Memo::default();
    for text in &texts {
        doc = doc.edit(SourceFile::new(path.clone(), text.as_str()).unwrap());
        let docs = [doc.clone()];
        memo.analysis(&docs);
        assert_eq!(memo.symbol_requests(&docs).to_vec(), requests(&docs), "after the edit to {text:?}");
    }
}
