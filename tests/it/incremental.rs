//! Incremental analysis gives the same answers as analysis from scratch:
//! random edits of real modules through `Document::edit` and one `Memo`,
//! compared after each edit with `Document::parse` + `analyze` of the text.

use std::path::PathBuf;

use hcl_types::analysis::{analyze, analyze_with, Document, Memo, ModuleAnalysis, SourceFile, Stop};

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        // xorshift64*
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

const SNIPPETS: &[&str] = &[
    "x",
    "1",
    "\"",
    "{",
    "}",
    "[",
    "]",
    "(",
    ")",
    "\n",
    " ",
    "=",
    ".",
    "var.",
    "local.",
    "${",
    "#",
    "//",
    "/*",
    "*/",
    "<<EOF\n",
    "\nEOF\n",
    "string",
    "number",
    "list(string)",
    "true",
    "null",
    "?",
    ":",
    ",",
    "é",
    "😀",
    "\r\n",
    "variable \"v\" {\n  type = number\n  default = \"x\"\n}\n",
    "locals {\n  a = var.region\n}\n",
    "\noutput \"o\" {\n  value = local.a\n}\n",
    "config c \"int\" {}\n",
    "p = c + 1\n",
    "12345678901234567890123456789012345678901234567890",
];

fn summary(a: &ModuleAnalysis) -> String {
    let mut s = format!("{:#?}\nephemeral: {:?}\n", a.diagnostics, *a.ephemeral);
    for sym in a.symbols.iter().chain(&a.resources) {
        s += &format!("{} {:?} {:?} {:?} {} {}\n", sym.address, sym.kind, sym.name_range, sym.range, sym.ty, sym.doc);
    }
    for nodes in &a.type_nodes {
        for n in nodes.iter() {
            s += &format!("{:?} {:?} {:?} {}\n", n.range, n.name_range, n.kind, n.ty);
        }
    }
    s
}

/// Recorded expression types, in a comparable order.
fn recorded(typed: &[hcl_types::analysis::Typed]) -> Vec<String> {
    let mut v: Vec<String> = typed.iter().map(|t| format!("{:?} {} {:?}", t.range, t.ty, t.note)).collect();
    v.sort();
    v
}

/// Where a declared name starts: a variable's or output's label, a PCL
/// config's name, a local's or top-level attribute's key.
fn name_spots(text: &str) -> Vec<usize> {
    let mut spots = Vec::new();
    for pat in ["variable \"", "output \"", "config "] {
        spots.extend(text.match_indices(pat).map(|(i, _)| i + pat.len()));
    }
    let (mut in_locals, mut at) = (false, 0);
    for line in text.split_inclusive('\n') {
        let key = line.trim_start();
        if line.starts_with("locals {") {
            in_locals = true;
        } else if line.starts_with('}') {
            in_locals = false;
        } else if (in_locals || line == key)
            && key.split_once('=').is_some_and(|(k, _)| {
                let k = k.trim();
                !k.is_empty() && k.chars().all(|c| c.is_alphanumeric() || c == '_')
            })
        {
            spots.push(at + line.len() - key.len());
        }
        at += line.len();
    }
    spots
}

/// A patched analysis kept of `prev`'s diagnostics what it says it kept
/// (`ModuleAnalysis::kept`, which publications trust instead of comparing):
/// the first ones as they were, the last ones moved by the edit (`delta`,
/// the change of each document's length).
fn kept_as_said(prev: &ModuleAnalysis, next: &ModuleAnalysis, delta: &[isize], what: &str) {
    for (j, kept) in next.kept.iter().enumerate() {
        let Some(k) = kept.filter(|k| k.from == prev.id) else { continue };
        let (old, new) = (&prev.diagnostics[j], &next.diagnostics[j]);
        let most = old.len().min(new.len());
        assert!(k.front <= most && k.back <= most - k.front, "kept {k:?} of {} / {} ({what})", old.len(), new.len());
        assert_eq!(old[..k.front], new[..k.front], "diagnostics kept in front ({what})");
        let moved =
            |r: &std::ops::Range<usize>| r.start.wrapping_add_signed(delta[j])..r.end.wrapping_add_signed(delta[j]);
        for (a, b) in old[old.len() - k.back..].iter().zip(&new[new.len() - k.back..]) {
            let mut a = a.clone();
            a.range = moved(&a.range);
            for r in a.related.iter_mut().filter(|r| r.path.is_none()) {
                r.range = moved(&r.range);
            }
            assert_eq!(a, *b, "diagnostics kept behind ({what})");
        }
    }
}

/// What the edits of one run did.
#[derive(Default)]
struct Ran {
    /// Analyses patched from the last one.
    patched: usize,
    /// Edits of a declared name, and how many of those were patched.
    renames: usize,
    renames_patched: usize,
    /// Analyses stopped before their end.
    stopped: usize,
}

fn module(dir: &str, names: &[&str]) -> Vec<(PathBuf, String)> {
    let base = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(dir);
    names.iter().map(|n| (base.join(n), std::fs::read_to_string(base.join(n)).expect("example file"))).collect()
}

/// How the analysis after each edit is asked for.
#[derive(Clone, Copy, PartialEq)]
enum Ask {
    /// `analyze_with` and the shared analysis in turn.
    Alternating,
    /// The shared analysis after every edit, as the language server does
    /// (so most keystrokes patch the last analysis).
    Shared,
    /// As `Shared`, but first, after some edits, an analysis stopped at a
    /// random point (a newer one was asked for, `analysis::Stop`).
    Stopped,
}

fn run(files: Vec<(PathBuf, String)>, edits: usize, seed: u64, ask: Ask) -> Ran {
    let mut ran = Ran::default();
    let mut rng = Rng(seed);
    let mut docs: Vec<Document> =
        files.iter().map(|(p, t)| Document::parse(SourceFile::new(p.clone(), t.as_str()).unwrap())).collect();
    let mut memo = Memo::default();
    analyze_with(&docs, None, &mut memo);
    // A rename typed back (half of them, as a letter typed and deleted):
    // the document, where, and the text to put back.
    let mut undo: Option<(usize, usize, usize, String)> = None;
    // The last shared analysis, held while the next is patched from it (as
    // a publication or a request may), with its lengths and its summary.
    let mut last_shared: Option<(std::sync::Arc<ModuleAnalysis>, Vec<usize>, String)> = None;
    for step in 0..edits {
        let back = undo.take();
        let d = back.as_ref().map_or_else(|| rng.below(docs.len()), |u| u.0);
        let old = docs[d].file.text.to_string();
        let mut at = rng.below(old.len() + 1);
        while !old.is_char_boundary(at) {
            at -= 1;
        }
        let mut end = (at + rng.below(12)).min(old.len());
        while !old.is_char_boundary(end) {
            end -= 1;
        }
        let end = if rng.below(3) == 0 { end } else { at };
        let mut insert = SNIPPETS[rng.below(SNIPPETS.len())];
        // A quarter of the edits rename a declaration: a letter in front
        // of its name, or its first letter gone.
        let spots = name_spots(&old);
        let rename = !spots.is_empty() && rng.below(4) == 0;
        let (at, end) = if let Some((_, at, end, text)) = &back {
            insert = text.as_str();
            (*at, *end)
        } else if rename {
            let spot = spots[rng.below(spots.len())];
            let word = |i: usize| old.as_bytes().get(i).is_some_and(|c| c.is_ascii_alphanumeric() || *c == b'_');
            if word(spot) && word(spot + 1) && rng.below(2) == 0 {
                insert = "";
                (spot, spot + 1)
            } else {
                insert = ["x", "q", "_"][rng.below(3)];
                (spot, spot)
            }
        } else {
            (at, end)
        };
        let text = format!("{}{}{}", &old[..at], insert, &old[end..]);
        let rename = rename || back.is_some();
        if rename && back.is_none() && rng.below(2) == 0 {
            undo = Some((d, at, at + insert.len(), old[at..end].to_string()));
        }
        let file = SourceFile::new(docs[d].file.path.clone(), text.as_str()).unwrap();
        // Half the time as the language server does: told the change
        // (which need not be the smallest one), the texts not compared.
        docs[d] = if rng.below(2) == 0 {
            docs[d].clone().edited_at(file.clone(), at..end, insert.len())
        } else {
            docs[d].edit(file.clone())
        };
        let fresh_doc = Document::parse(file);
        let ranges = |doc: &Document| doc.items.iter().map(|i| i.range.clone()).collect::<Vec<_>>();
        assert_eq!(ranges(&docs[d]), ranges(&fresh_doc), "items after edit {step} ({insert:?} at {at}..{end})");
        assert_eq!(docs[d].diagnostics, fresh_doc.diagnostics, "syntax errors after edit {step}");
        if rng.below(5) == 0 {
            // What the language server keeps of analysed documents: items
            // without trees, parsed again when needed (dropped in place or
            // copied without them).
            for doc in docs.iter_mut() {
                if rng.below(2) == 0 || doc.drop_trees().is_none() {
                    *doc = doc.without_trees();
                }
            }
        }
        let probe = (rng.below(4) == 0).then(|| (d, rng.below(text.len() + 1)));
        let mut fresh_docs: Vec<Document> = docs.iter().map(|x| Document::parse(x.file.clone())).collect::<Vec<_>>();
        fresh_docs[d] = fresh_doc;
        let scratch = hcl_types::analysis::analyze_probe(&fresh_docs, probe);
        let what = format!("after edit {step} ({insert:?} at {at}..{end})");
        let patches = memo.patches();
        if step % 2 == 0 && ask == Ask::Alternating {
            let incremental = analyze_with(&docs, probe, &mut memo);
            assert_eq!(summary(&incremental), summary(&scratch), "analysis {what}");
            assert_eq!(recorded(&incremental.probe), recorded(&scratch.probe), "probe {what}");
        } else {
            if ask == Ask::Stopped && rng.below(2) == 0 {
                // Stopped after `left` questions: what it finished stays in
                // the memo, and the next analysis must still be right.
                let left = std::sync::atomic::AtomicUsize::new(rng.below(40));
                let stop = || left.fetch_sub(1, std::sync::atomic::Ordering::SeqCst) == 0;
                // A full run (a keystroke's patch is never stopped).
                memo.forget_last();
                if let Some(done) = memo.analysis_unless(&docs, Stop(Some(&stop))) {
                    assert_eq!(summary(&done), summary(&scratch), "an analysis not stopped, {what}");
                } else {
                    ran.stopped += 1;
                }
            }
            // The language server's way: the shared analysis, then a probe
            // that re-infers only the item under the cursor.
            let shared = memo.analysis(&docs);
            let now = summary(&shared);
            assert_eq!(now, summary(&scratch), "shared analysis {what}");
            if let Some((prev, lens, was)) = &last_shared {
                let delta: Vec<isize> =
                    docs.iter().zip(lens).map(|(d, l)| d.file.text.len() as isize - *l as isize).collect();
                kept_as_said(prev, &shared, &delta, &what);
                assert_eq!(summary(prev), *was, "the analysis held while the next was made is as it was, {what}");
            }
            last_shared = Some((shared.clone(), docs.iter().map(|d| d.file.text.len()).collect(), now));
            if let Some((doc, offset)) = probe {
                let (again, typed) = memo.probe(&docs, doc, offset);
                assert!(std::sync::Arc::ptr_eq(&shared, &again), "an unchanged module is analysed once");
                assert_eq!(recorded(&typed), recorded(&scratch.probe), "one-item probe {what}");
            }
        }
        let _ = analyze;
        if rename {
            ran.renames += 1;
            ran.renames_patched += usize::from(memo.patches() > patches);
        }
    }
    ran.patched = memo.patches();
    ran
}

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

/// Beside the example module: a pinned `required_version` that excludes
/// functions its locals call, and ephemeral values reaching outputs, so
/// that both module-level passes (versions.rs, ephemeral.rs) report.
const VERSIONS_TF: &str = r#"terraform {
  required_version = "~> 1.4.0"
}

variable "token" {
  type      = string
  ephemeral = true
  default   = "t"
}

locals {
  prefixed = startswith(var.token, "x")
  bearer   = "Bearer ${var.token}"
  safe     = ephemeralasnull(local.bearer)
  found    = strcontains("abc", "b")
}

output "bearer" {
  value = local.bearer
}

output "safe" {
  value = local.safe
}

output "token" {
  value     = var.token
  ephemeral = true
}
"#;

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

#[test]
fn a_local_renamed_to_a_name_others_or_its_block_read_is_patched_unless_it_closes_a_cycle() {
    // (text, the rename, whether it may be patched); the outputs keep
    // the readers out of the items an edit parses again.
    let apart = "output \"o\" {\n  value = 1\n}\noutput \"p\" {\n  value = 2\n}\n";
    let cases = [
        (format!("locals {{\n  a = local.b\n}}\n{apart}locals {{\n  bx = \"s\"\n}}\n"), true),
        (format!("locals {{\n  a = local.b\n}}\n{apart}locals {{\n  bx = local.a\n}}\n"), false),
        (format!("locals {{\n  a = local.b\n}}\n{apart}locals {{\n  d = local.a\n}}\n{apart}locals {{\n  bx = local.d\n}}\n"), false),
        // Locals of the renamed one's block that read the old or the new
        // name (before or after it), and what reads those.
        (format!("locals {{\n  c = local.b\n  bx = 1\n  d = local.bx\n  e = [local.c]\n}}\n{apart}output \"q\" {{\n  value = local.d\n}}\n{apart}locals {{\n  f = local.e\n}}\n"), true),
    ];
    for (text, patched) in cases {
        let text = text.as_str();
        let path = PathBuf::from("/m/main.tf");
        let mut docs = vec![Document::parse(SourceFile::new(path.clone(), text).unwrap())];
        let mut memo = Memo::default();
        memo.analysis(&docs);
        let renamed = text.replace("bx =", "b =");
        docs[0] = docs[0].edit(SourceFile::new(path.clone(), renamed.as_str()).unwrap());
        let patches = memo.patches();
        let incremental = memo.analysis(&docs);
        let fresh = analyze(&[Document::parse(SourceFile::new(path, renamed.as_str()).unwrap())]);
        assert_eq!(summary(&incremental), summary(&fresh), "{renamed}");
        assert_eq!(memo.patches() > patches, patched, "{renamed}");
    }
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

/// Issue 34 item 5: a variable of type `any` is its default where no value
/// is passed, so editing the default (or the variable's name) changes what
/// its readers report; the memo and the last analysis follow it as a fresh
/// analysis does.
#[test]
fn a_default_of_type_any_edited_is_followed_by_its_readers() {
    let apart = "output \"o\" {\n  value = 1\n}\n";
    let text =
        format!("variable \"cm\" {{\n  type    = any\n  default = {{}}\n}}\n{apart}locals {{\n  w = var.cm.wait\n}}\n");
    let edits = [
        ("default = {}", "default = { wait = 1 }"),
        ("default = { wait = 1 }", "default = { wat = 1 }"),
        ("default = { wat = 1 }", "default = null"),
        ("default = null", "default = []"),
        ("variable \"cm\"", "variable \"cmx\""),
        ("variable \"cmx\"", "variable \"cm\""),
        // Typed in the type keyword: `any`, then no valid type (the default
        // counts), a type (it does not), and back.
        ("type    = any", "type    = anyx"),
        ("type    = anyx", "type    = map(number)"),
        ("type    = map(number)", "type    = map(numbe)"),
        ("type    = map(numbe)", "type    = any"),
    ];
    let path = PathBuf::from("/m/main.tf");
    let mut now = text.clone();
    let mut docs = vec![Document::parse(SourceFile::new(path.clone(), now.as_str()).unwrap())];
    let mut memo = Memo::default();
    let first = memo.analysis(&docs);
    assert!(summary(&first).contains("where no value is passed"), "{}", summary(&first));
    for (from, to) in edits {
        now = now.replacen(from, to, 1);
        docs[0] = docs[0].edit(SourceFile::new(path.clone(), now.as_str()).unwrap());
        let patches = memo.patches();
        let incremental = memo.analysis(&docs);
        let fresh = analyze(&[Document::parse(SourceFile::new(path.clone(), now.as_str()).unwrap())]);
        assert_eq!(summary(&incremental), summary(&fresh), "{now}");
        // A change of the type, the default or the name is patched, not
        // run again in full.
        assert_eq!(memo.patches(), patches + 1, "not patched: {from} -> {to}");
    }
}

/// Issue 34 item 10: a template `templatefile` reads is a dependency of the
/// item that reads it: after the template changes, the next analysis (here
/// after an edit of the module) reads it again, memo or not.
#[test]
fn a_template_read_again_after_it_changes() {
    let scratch = crate::scratch::named("test");
    let dir = scratch.to_path_buf();
    let tpl = dir.join("t.tpl");
    std::fs::write(&tpl, "${a}\n").unwrap();
    let path = dir.join("main.tf");
    let text = "locals {\n  x = templatefile(\"${path.module}/t.tpl\", { a = \"1\" })\n}\n";
    let mut docs = vec![Document::parse(SourceFile::new(path.clone(), text).unwrap())];
    // Templates are read through the project layer's reader, inside the tree.
    let tree = std::sync::Arc::new(hcl_types::project::confine::Tree::new(std::slice::from_ref(&dir)));
    let context = hcl_types::analysis::Context { reader: Some(tree.reader()), ..Default::default() };
    let mut memo = Memo::default();
    memo.set_context(context.clone());
    let first = memo.analysis(&docs);
    assert!(!summary(&first).contains("uses `"), "{}", summary(&first));
    std::fs::write(&tpl, "${a} ${b}\n").unwrap();
    for (i, edited) in [format!("{text}# edited\n"), format!("# edited\n{text}# edited\n")].iter().enumerate() {
        docs[0] = docs[0].edit(SourceFile::new(path.clone(), edited.as_str()).unwrap());
        let incremental = memo.analysis(&docs);
        let mut once = Memo::default();
        once.set_context(context.clone());
        let fresh = once.analysis(&[Document::parse(SourceFile::new(path.clone(), edited.as_str()).unwrap())]);
        assert_eq!(summary(&incremental), summary(&fresh), "edit {i}");
        assert!(summary(&incremental).contains("uses `b`"), "edit {i}: {}", summary(&incremental));
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Issue 44.5: `jsondecode(file(var.f))` is typed from the file `var.f`'s
/// default names; editing the default (to a file's name from a name that is
/// none, to a file of another shape, to one that is not there, back) is
/// reported as a fresh analysis does. The first edit is patched (no file
/// was read yet: the default's key comes with the edit).
#[test]
fn a_default_path_edited_is_followed_by_its_decoded_file() {
    let scratch = crate::scratch::named("default-path");
    let dir = scratch.to_path_buf();
    std::fs::write(dir.join("a.json"), "{\"a\": 1, \"b\": [\"x\"]}").unwrap();
    std::fs::write(dir.join("s.json"), "{\"a\": \"x\"}").unwrap();
    let path = dir.join("main.tf");
    let text = "variable \"f\" {\n  type    = string\n  default = \"a\"\n}\n\
                locals {\n  k = var.f != \"\" ? jsondecode(file(var.f)) : {}\n}\noutput \"k\" {\n  value = local.k\n}\n";
    let tree = std::sync::Arc::new(hcl_types::project::confine::Tree::new(std::slice::from_ref(&dir)));
    let context = hcl_types::analysis::Context { reader: Some(tree.reader()), ..Default::default() };
    let mut docs = vec![Document::parse(SourceFile::new(path.clone(), text).unwrap())];
    let mut memo = Memo::default();
    memo.set_context(context.clone());
    let warned = |a: &ModuleAnalysis| summary(a).contains("keeps its default, the file `a.json`");
    assert!(!warned(&memo.analysis(&docs)), "{}", summary(&memo.analysis(&docs)));
    let mut now = text.to_string();
    let edits = [
        ("\"a\"", "\"a.json\"", true, true),
        ("\"a.json\"", "\"s.json\"", false, false),
        ("\"s.json\"", "\"none.json\"", false, false),
        ("\"none.json\"", "\"a.json\"", true, false),
    ];
    for (from, to, warns, patched) in edits {
        now = now.replacen(from, to, 1);
        docs[0] = docs[0].edit(SourceFile::new(path.clone(), now.as_str()).unwrap());
        let patches = memo.patches();
        let incremental = memo.analysis(&docs);
        let mut once = Memo::default();
        once.set_context(context.clone());
        let fresh = once.analysis(&[Document::parse(SourceFile::new(path.clone(), now.as_str()).unwrap())]);
        assert_eq!(summary(&incremental), summary(&fresh), "{now}");
        assert_eq!(warned(&incremental), warns, "{from} -> {to}: {}", summary(&incremental));
        if patched {
            assert_eq!(memo.patches(), patches + 1, "not patched: {from} -> {to}");
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Every keystroke in a variable — its name, its type, its default — is
/// patched, not run again in full (issue 31: the keystroke target at 10 MB
/// depends on it; a full run of the 10 MB file takes ~0.2 s). A character
/// is typed at each spot and deleted, and each analysis equals a fresh one.
#[test]
fn every_keystroke_in_a_variable_is_patched() {
    let files = module("examples/terraform", &["variables.tf", "terraform.tfvars"]);
    // Every variable read (the example's own main.tf also holds a cycle of
    // locals, whose readers are left to a full run: they have no result).
    // (A required_version bound that excludes no function keeps the
    // module patched: the function-version pass needs no full run.)
    let main = "terraform {\n  required_version = \"~> 1.5\"\n}\nlocals {\n  a = var.instance_count + 1\n  b = var.enable_backups ? 1 : 0\n  c = var.subnets\n}\n\
                output \"o\" {\n  value = [var.tags, var.legacy, var.ports]\n}\n";
    let mut files = files;
    files.push((files[0].0.with_file_name("main.tf"), main.to_string()));
    let mut docs: Vec<Document> =
        files.iter().map(|(p, t)| Document::parse(SourceFile::new(p.clone(), t.as_str()).unwrap())).collect();
    let d = files.iter().position(|(p, _)| p.ends_with("variables.tf")).unwrap();
    let path = files[d].0.clone();
    let mut memo = Memo::default();
    memo.analysis(&docs);
    // The spots: after `variable "`, after `type = ` (and `type    = `), after `default = `.
    let text = files[d].1.clone();
    let mut spots = Vec::new();
    for (at, _) in text.match_indices("variable \"") {
        spots.push(at + "variable \"".len());
    }
    for key in ["type", "default"] {
        for (at, _) in text.match_indices(&format!("\n  {key} ")) {
            let eq = text[at..].find("= ").unwrap() + at + 2;
            spots.push(eq);
        }
    }
    assert!(spots.len() >= 15, "{spots:?}");
    let mut now = text.clone();
    for spot in spots {
        for edit in [format!("{}x{}", &text[..spot], &text[spot..]), text.clone()] {
            let (at, end, len) = if edit.len() > now.len() { (spot, spot, 1) } else { (spot, spot + 1, 0) };
            now = edit;
            let file = SourceFile::new(path.clone(), now.as_str()).unwrap();
            docs[d] = docs[d].clone().edited_at(file.clone(), at..end, len);
            let patches = memo.patches();
            let incremental = memo.analysis(&docs);
            let mut fresh: Vec<Document> = docs.iter().map(|x| Document::parse(x.file.clone())).collect();
            fresh[d] = Document::parse(file);
            assert_eq!(summary(&incremental), summary(&analyze(&fresh)), "at {spot}: {}", &now[spot - 10..spot + 10]);
            assert_eq!(memo.patches(), patches + 1, "not patched at {spot}: {:?}", &now[spot - 10..spot + 10]);
        }
    }
}

/// The `symbols` blocks the server loads libraries for are found with the
/// module's calls, from the edited items only (`Memo::symbol_requests`):
/// after each edit they are what a walk of every item finds.
#[test]
fn symbol_library_requests_follow_the_edits() {
    use hcl_types::analysis::module::symbol_libraries::requests;
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

/// What happens between the first analysis and the edited one.
#[derive(Clone, Copy, PartialEq)]
enum Between {
    Nothing,
    /// New provider schemas (what the server sets when a schema file changes).
    Schemas,
    /// An analysis of other documents through the same memo.
    OtherAnalysis,
}

/// The files of a case: (name, text).
type Files = Vec<(&'static str, String)>;

/// The first analysis of `before`, then `between`, then `after` (each
/// file edited from its text before, or new): the memo's give-up counts
/// after, and whether the second analysis was patched. Each analysis
/// equals a fresh one when nothing is set between.
fn give_ups_of(before: &Files, between: Between, after: &Files) -> (hcl_types::analysis::GiveUps, bool) {
    let path = |name: &str| PathBuf::from(format!("/tmp/hcl-types-give-ups/{name}"));
    let parse = |name: &str, text: &str| Document::parse(SourceFile::new(path(name), text).unwrap());
    let docs: Vec<Document> = before.iter().map(|(n, t)| parse(n, t)).collect();
    let mut memo = Memo::default();
    memo.analysis(&docs);
    match between {
        Between::Nothing => {}
        Between::Schemas => {
            let mut schemas = hcl_types::schema::Schemas::default();
            schemas.version = 7;
            let context = hcl_types::analysis::Context { schemas: Some(schemas.into()), ..memo.context().clone() };
            memo.set_context(context);
        }
        Between::OtherAnalysis => {
            analyze_with(&[parse("other.tf", "output \"x\" {\n  value = 1\n}\n")], None, &mut memo);
        }
    }
    let edited: Vec<Document> = after
        .iter()
        .map(|(n, t)| match docs.iter().find(|d| d.file.path == path(n)) {
            Some(d) => d.edit(SourceFile::new(path(n), t.as_str()).unwrap()),
            None => parse(n, t),
        })
        .collect();
    let patches = memo.patches();
    let incremental = memo.analysis(&edited);
    if between == Between::Nothing {
        let fresh: Vec<Document> = after.iter().map(|(n, t)| parse(n, t)).collect();
        assert_eq!(summary(&incremental), summary(&analyze(&fresh)), "{after:?}");
    }
    (memo.give_ups().clone(), memo.patches() > patches)
}

/// Issue 46 item 1, in rust-analyzer's coverage-marks style: each reason
/// a patch gives up for is reached by an edit that must give up for it,
/// and counted once (beside the first analysis's `NoLast`). The reasons
/// not here: `ReadsFiles` (a_template_read_again_after_it_changes),
/// `CalleeChangedElsewhere` (the server's module calls), and the states
/// ordinary text does not reach (`ItemsNotApart` and `ReaderNotApart`:
/// items split so never touch; `Forgotten`, `CascadeTooLong`,
/// `Inconsistent`, `PclNameChanged`).
#[test]
fn each_give_up_is_counted_for_the_edit_that_must_give_up_for_it() {
    use hcl_types::analysis::GiveUp;
    let apart = "output \"o\" {\n  value = 1\n}\noutput \"p\" {\n  value = 2\n}\n";
    let out = |v: &str| format!("output \"q\" {{\n  value = {v}\n}}\n");
    let one = |name: &'static str, text: String| vec![(name, text)];
    let many = |v: &str| (0..300).map(|i| format!("output \"o{i}\" {{\n  value = {v}{i}\n}}\n")).collect::<String>();
    let nothing = Between::Nothing;
    let cases: Vec<(GiveUp, Files, Between, Files)> = vec![
        (GiveUp::DocumentsChanged, one("main.tf", out("1")), nothing, vec![("main.tf", out("1")), ("b.tf", out("2"))]),
        (
            GiveUp::OverrideFiles,
            vec![("main.tf", format!("{apart}{}", out("1"))), ("override.tf", out("2"))],
            nothing,
            vec![("main.tf", format!("{apart}{}", out("12"))), ("override.tf", out("2"))],
        ),
        (
            GiveUp::StackDeployments,
            vec![
                ("c.tfcomponent.hcl", "variable \"a\" {\n  type = string\n}\n".into()),
                ("d.tfdeploy.hcl", "deployment \"d\" {\n  inputs = {}\n}\n".into()),
            ],
            nothing,
            vec![
                ("c.tfcomponent.hcl", "variable \"a\" {\n  type = number\n}\n".into()),
                ("d.tfdeploy.hcl", "deployment \"d\" {\n  inputs = {}\n}\n".into()),
            ],
        ),
        (
            GiveUp::SymbolLibraries,
            one("main.tofu", format!("{apart}symbols \"lib\" {{\n  source = \"./lib\"\n}}\n")),
            nothing,
            one("main.tofu", format!("{apart}symbols \"lib\" {{\n  source = \"./lib2\"\n}}\n")),
        ),
        (
            GiveUp::TerragruntMerge,
            one("terragrunt.hcl", "include \"root\" {\n  path = \"../root.hcl\"\n}\ninputs = {\n  a = 1\n}\n".into()),
            nothing,
            one("terragrunt.hcl", "include \"root\" {\n  path = \"../root.hcl\"\n}\ninputs = {\n  a = 12\n}\n".into()),
        ),
        (
            GiveUp::CollapsedDocument,
            vec![("main.tf", out("1")), ("vault.tf", "$ANSIBLE_VAULT;1.1;AES256\n6162\n".into())],
            nothing,
            vec![("main.tf", out("12")), ("vault.tf", "$ANSIBLE_VAULT;1.1;AES256\n6162\n".into())],
        ),
        (GiveUp::ContextChanged, one("main.tf", out("1")), Between::Schemas, one("main.tf", out("1"))),
        (GiveUp::SchemasChanged, one("main.tf", out("1")), Between::Schemas, one("main.tf", out("12"))),
        (
            GiveUp::SeveralDocuments,
            vec![("a.tf", out("1")), ("b.tf", apart.into())],
            nothing,
            vec![("a.tf", out("12")), ("b.tf", apart.replace("= 2", "= 23"))],
        ),
        (GiveUp::TooManyItems, one("main.tf", many("1")), nothing, one("main.tf", many("2"))),
        (
            GiveUp::DeclarationsMoved,
            one("main.tf", apart.into()),
            nothing,
            one("main.tf", format!("{apart}variable \"v\" {{}}\n")),
        ),
        (
            GiveUp::DefaultRenamed,
            one("main.tf", format!("variable \"a\" {{\n  default = 1\n}}\n{apart}")),
            nothing,
            one("main.tf", format!("variable \"b\" {{\n  default = \"x\"\n}}\n{apart}")),
        ),
        (
            GiveUp::NotTheWinner,
            one(
                "main.tf",
                format!("variable \"a\" {{\n  type = string\n}}\n{apart}variable \"a\" {{\n  type = string\n}}\n"),
            ),
            nothing,
            one(
                "main.tf",
                format!("variable \"a\" {{\n  type = string\n}}\n{apart}variable \"a\" {{\n  type = number\n}}\n"),
            ),
        ),
        (
            GiveUp::ConstVariable,
            one("main.tofu", format!("variable \"a\" {{\n  default = \"x\"\n}}\n{apart}")),
            nothing,
            one("main.tofu", format!("variable \"a\" {{\n  const   = true\n  default = \"x\"\n}}\n{apart}")),
        ),
        (
            GiveUp::LocalReferencesChanged,
            one("main.tf", format!("locals {{\n  a = local.b\n}}\n{apart}locals {{\n  b = 1\n  c = 2\n}}\n")),
            nothing,
            one("main.tf", format!("locals {{\n  a = local.c\n}}\n{apart}locals {{\n  b = 1\n  c = 2\n}}\n")),
        ),
        (
            GiveUp::UninferredLocal,
            one("main.tf", format!("locals {{\n  a = local.b\n}}\n{apart}locals {{\n  b = local.a\n}}\n")),
            nothing,
            one("main.tf", format!("locals {{\n  a = [local.b]\n}}\n{apart}locals {{\n  b = local.a\n}}\n")),
        ),
        (
            GiveUp::NameNotUnique,
            one("main.tf", format!("locals {{\n  a = 1\n}}\n{apart}locals {{\n  b = 2\n}}\n")),
            nothing,
            one("main.tf", format!("locals {{\n  b = 1\n}}\n{apart}locals {{\n  b = 2\n}}\n")),
        ),
        (
            GiveUp::NotExact,
            one("main.tf", format!("locals {{\n  a = 1\n}}\n{apart}{}", out("local.a"))),
            Between::OtherAnalysis,
            one("main.tf", format!("locals {{\n  c = 1\n}}\n{apart}{}", out("local.a"))),
        ),
        (
            GiveUp::NewCycle,
            one("main.tf", format!("locals {{\n  a = local.b\n}}\n{apart}locals {{\n  bx = local.a\n}}\n")),
            nothing,
            one("main.tf", format!("locals {{\n  a = local.b\n}}\n{apart}locals {{\n  b = local.a\n}}\n")),
        ),
    ];
    let mut wrong = Vec::new();
    for (why, before, between, after) in cases {
        let (counts, patched) = give_ups_of(&before, between, &after);
        let want = |g: GiveUp| u32::from(g == why) + u32::from(g == GiveUp::NoLast);
        if patched || GiveUp::ALL.iter().any(|g| counts.get(*g) != want(*g)) {
            wrong.push(format!("{why:?}: patched {patched}, counted {counts}"));
        }
    }
    assert!(wrong.is_empty(), "{wrong:#?}");
}

/// Common edits do not give up: a character typed into an output's value,
/// a resource's argument, a variable's description or type, a local's
/// value, a tfvars value; only the first analysis ran in full (`NoLast`).
#[test]
fn common_edits_give_up_for_nothing() {
    let main = "variable \"a\" {\n  description = \"d\"\n  type        = string\n}\n\
                locals {\n  l = var.a\n}\n\
                resource \"aws_s3_bucket\" \"b\" {\n  bucket = local.l\n}\n\
                output \"o\" {\n  value = \"v\"\n}\n";
    let vars = "a = \"x\"\n";
    for (file, from, to) in [
        ("main.tf", "value = \"v\"", "value = \"vx\""),
        ("main.tf", "bucket = local.l", "bucket = \"${local.l}x\""),
        ("main.tf", "description = \"d\"", "description = \"dx\""),
        ("main.tf", "type        = string", "type        = number"),
        ("main.tf", "l = var.a", "l = [var.a]"),
        ("terraform.tfvars", "a = \"x\"", "a = \"xy\""),
    ] {
        let before: Files = vec![("main.tf", main.to_string()), ("terraform.tfvars", vars.to_string())];
        let after: Files =
            before.iter().map(|(n, t)| (*n, if *n == file { t.replace(from, to) } else { t.clone() })).collect();
        let (counts, patched) = give_ups_of(&before, Between::Nothing, &after);
        assert!(patched, "{to}: not patched ({counts})");
        assert_eq!(counts.total(), 1, "{to}: {counts}");
    }
    // Beside a `symbols` block (whose checks judge across items, in the
    // last step of a full run), an edit elsewhere is patched too.
    let symbols = "language {\n  experiments = [symbols]\n}\nsymbols \"lib\" {\n  source = \"./lib\"\n}\n";
    let before: Files = vec![("main.tofu", format!("{symbols}{main}"))];
    let after: Files = vec![("main.tofu", format!("{symbols}{}", main.replace("value = \"v\"", "value = \"vx\"")))];
    let (counts, patched) = give_ups_of(&before, Between::Nothing, &after);
    assert!(patched && counts.total() == 1, "beside a symbols block: {counts}");
    // Beside an override file, an edit of a block it does not merge into.
    let over = "output \"o\" {\n  value = \"w\"\n}\nvariable \"a\" {\n  type = number\n}\n";
    let before: Files = vec![("main.tf", main.to_string()), ("override.tf", over.to_string())];
    let after: Files = vec![
        ("main.tf", main.replace("bucket = local.l", "bucket = \"${local.l}x\"")),
        ("override.tf", over.to_string()),
    ];
    let (counts, patched) = give_ups_of(&before, Between::Nothing, &after);
    assert!(patched && counts.total() == 1, "beside an override file: {counts}");
}

/// Issue 46's done-means: in a module with a pinned `required_version`
/// and an ephemeral variable, a keystroke that changes nothing the
/// versions and ephemeral passes learn of the whole module has them judge
/// only the edited items again (a full judgement walked all 400 outputs'
/// facts, twice); an edit of what the ephemeral pass learns (an output
/// now reads an ephemeral local) has it judge every item again, the
/// versions pass still only the edited ones. Each analysis equals a fresh
/// one.
#[test]
fn module_level_passes_judge_only_the_edited_items_when_the_module_wide_facts_stay() {
    let outputs: String = (0..400).map(|i| format!("output \"o{i}\" {{\n  value = \"v{i}\"\n}}\n")).collect();
    let before: Files = vec![("main.tf", outputs.clone()), ("versions.tf", VERSIONS_TF.to_string())];
    let path = |name: &str| PathBuf::from(format!("/tmp/hcl-types-judged/{name}"));
    let parse = |name: &str, text: &str| Document::parse(SourceFile::new(path(name), text).unwrap());
    let mut docs: Vec<Document> = before.iter().map(|(n, t)| parse(n, t)).collect();
    let mut memo = Memo::default();
    memo.analysis(&docs);
    let all = docs.iter().map(|d| d.items.len()).sum::<usize>();
    assert_eq!(memo.judged_by_passes(), Some(2 * all));
    let typed = outputs.replace("\"v200\"", "\"v200x\"");
    let reads = outputs.replace("\"v200\"", "local.bearer");
    for (text, least) in [(typed.as_str(), 0), (reads.as_str(), all)] {
        docs[0] = docs[0].edit(SourceFile::new(path("main.tf"), text).unwrap());
        let patches = memo.patches();
        let incremental = memo.analysis(&docs);
        let fresh = analyze(&[parse("main.tf", text), parse("versions.tf", VERSIONS_TF)]);
        assert_eq!(summary(&incremental), summary(&fresh));
        let judged = memo.judged_by_passes().unwrap();
        assert!(memo.patches() > patches, "not patched: {}", memo.give_ups());
        assert!((least..=least + 3).contains(&judged), "judged {judged} items, wanted {least} and the edited ones");
    }
}
