//! Which edits a patch takes and, for the others, the one reason it gives
//! up for (`GiveUp`, counted per memo).

use std::path::PathBuf;

use hcl_types::analysis::{analyze, analyze_with, Document, Memo, SourceFile};

use super::{summary, VERSIONS_TF};

/// What happens between the first analysis and the edited one.
#[derive(Clone, Copy, PartialEq)]
enum Between {
    Nothing,
    /// New provider schemas (what the server sets when a schema file changes).
    Schemas,
    /// An analysis of other documents through the same memo.
    OtherAnalysis,
    /// The module call `m` now leads to a module `terraform init` has not
    /// installed (what the server sets when a call's callee is resolved).
    Callees,
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
        Between::Callees => memo.add_callees([("m".to_string(), hcl_types::analysis::Callee::NotInstalled)]),
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
/// not here: `ReadsFiles` (edits.rs, a_template_read_again_after_it_changes:
/// it needs a template on disk), and the ones no edit reaches, each saying
/// why in its doc comment: `ItemsNotApart` and `ReaderNotApart` (items
/// never touch, [`items_never_touch`]), `Inconsistent`.
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
    each_counted_once(cases);
}

/// Each case gives up for its reason alone, once (beside `NoLast`).
fn each_counted_once(cases: Vec<(hcl_types::analysis::GiveUp, Files, Between, Files)>) {
    use hcl_types::analysis::GiveUp;
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

/// The rarer reasons, as [`each_give_up_is_counted_for_the_edit_that_must_give_up_for_it`]:
/// a memo another module's analysis pruned, a callee resolved anew for a
/// call the edit did not touch, a change that spreads too far, a PCL
/// name declared twice.
#[test]
fn the_rarer_give_ups_are_counted_for_the_edits_that_must_give_up_for_them() {
    use hcl_types::analysis::GiveUp;
    let apart = "output \"o\" {\n  value = 1\n}\noutput \"p\" {\n  value = 2\n}\n";
    let one = |name: &'static str, text: String| vec![(name, text)];
    let nothing = Between::Nothing;
    let outputs =
        |n: usize, v: &str| (0..n).map(|i| format!("output \"o{i}\" {{\n  value = {v}\n}}\n")).collect::<String>();
    // More readers of `local.a` than a patch infers again (4,096).
    let readers: String = (0..4100).map(|i| format!("locals {{\n  r{i} = local.a\n}}\n")).collect();
    let config = "config a \"string\" {\n}\n";
    let cases: Vec<(GiveUp, Files, Between, Files)> = vec![
        // Another module's analysis through the same memo pruned this
        // one's per-item results (more than twice as many as it has items).
        (GiveUp::Forgotten, one("main.tf", outputs(80, "1")), Between::OtherAnalysis, one("main.tf", outputs(80, "2"))),
        (
            GiveUp::CalleeChangedElsewhere,
            one("main.tf", format!("module \"m\" {{\n  source = \"./m\"\n}}\n{apart}")),
            Between::Callees,
            one("main.tf", format!("module \"m\" {{\n  source = \"./m\"\n}}\n{}", apart.replace("= 2", "= 23"))),
        ),
        (
            GiveUp::CascadeTooLong,
            one("main.tf", format!("locals {{\n  a = 1\n}}\n{apart}{readers}")),
            nothing,
            one("main.tf", format!("locals {{\n  a = \"x\"\n}}\n{apart}{readers}")),
        ),
        // PCL: the second `config a` is not the one `a` means.
        (
            GiveUp::PclNameChanged,
            one("main.pp", format!("{config}config b \"string\" {{\n}}\n{config}")),
            nothing,
            one("main.pp", format!("{config}config b \"string\" {{\n}}\n{}", config.replace("string", "int"))),
        ),
    ];
    each_counted_once(cases);
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

/// Why no edit gives up with `ItemsNotApart` or `ReaderNotApart`: a
/// document's items never touch (at least the line break lies between
/// one's end and the next's start), whatever the text, parsed anew or
/// edited, so the edited items and the readers always lie strictly
/// between their neighbours. Random edits of the example modules, as the
/// random-edit tests make them.
#[test]
fn items_never_touch() {
    let files = [
        super::module("examples/terraform", &["main.tf", "variables.tf", "terraform.tfvars"]),
        super::module("examples/pulumi", &["main.pp"]),
    ];
    let mut rng = super::Rng(46);
    let touching = |d: &Document| d.items.windows(2).any(|w| w[0].range.end >= w[1].range.start);
    for (path, text) in files.iter().flatten() {
        let mut doc = Document::parse(SourceFile::new(path.clone(), text.as_str()).unwrap());
        for step in 0..400 {
            let old = doc.file.text.to_string();
            let mut at = rng.below(old.len() + 1);
            while !old.is_char_boundary(at) {
                at -= 1;
            }
            let insert = super::SNIPPETS[rng.below(super::SNIPPETS.len())];
            let new = format!("{}{insert}{}", &old[..at], &old[at..]);
            doc = doc.edit(SourceFile::new(path.clone(), new.as_str()).unwrap());
            let fresh = Document::parse(SourceFile::new(path.clone(), new.as_str()).unwrap());
            assert!(!touching(&doc) && !touching(&fresh), "{path:?}, edit {step}: {:?}", doc.items);
        }
    }
}
