//! Incremental analysis gives the same answers as analysis from scratch:
//! random edits of real modules through `Document::edit` and one `Memo`,
//! compared after each edit with `Document::parse` + `analyze` of the text.
//!
//! Here the harness (random edits, `summary`, `kept_as_said`); beside it
//! `random.rs` (random edits and keystrokes of real modules), `edits.rs`
//! (particular edits: renames into cycles, defaults, templates, each
//! keystroke in a variable) and `give_ups.rs` (which edits a patch takes,
//! and why it gives up on the others).

mod edits;
mod give_ups;
mod random;

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
