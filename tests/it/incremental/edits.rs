//! Particular edits the engine follows as a fresh analysis would: a local
//! renamed into a cycle, a default of type `any`, a template read again,
//! every keystroke in a variable.

use std::path::PathBuf;

use hcl_types::analysis::{analyze, Document, Memo, ModuleAnalysis, SourceFile};

use super::{module, summary};

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
    // Each edit ran in full, for the template (`GiveUp::ReadsFiles`).
    let reads_files = memo.give_ups().get(hcl_types::analysis::GiveUp::ReadsFiles);
    assert_eq!((reads_files, memo.give_ups().total()), (2, 3), "{}", memo.give_ups());
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
