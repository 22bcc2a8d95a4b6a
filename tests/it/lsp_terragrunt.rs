//! Terragrunt's `include` in the editor (issue 30, docs/spec/terragrunt.md
//! §3): a unit's module is handed the included file's `inputs` too, so an
//! edit of that file checks the units that include it again.

use crate::lsp_support;

use lsp_support::*;
use serde_json::json;

fn codes(diags: &[serde_json::Value]) -> Vec<String> {
    diags.iter().map(|d| d["code"].as_str().unwrap_or("").to_string()).collect()
}

/// A session whose folder holds `modules/app` (a `number` variable
/// `replicas`) and an empty `live/app`.
async fn with_module() -> Session {
    let s = Session::start(Enc::Utf16).await;
    // A repository: without a workspace folder, the server reads no
    // further than the open document's (issue 42).
    for d in ["modules/app", "live/app", ".git"] {
        std::fs::create_dir_all(s.dir.join(d)).unwrap();
    }
    s.disk("modules/app/main.tf", "variable \"replicas\" {\n  type = number\n}\n");
    s
}

const ROOT: &str = "inputs = {\n  replicas = 3\n}\n";

#[tokio::test]
async fn editing_the_included_root_rechecks_the_unit() {
    let mut s = with_module().await;
    s.disk("root.hcl", ROOT);
    let unit = s
        .open(
            "live/app/terragrunt.hcl",
            "include \"root\" {\n  path = find_in_parent_folders(\"root.hcl\")\n}\n\nterraform {\n  source = \"../../modules//app\"\n}\n",
        )
        .await;
    assert!(s.diagnostics(&unit, 1).await.is_empty());
    // root.hcl opened and its `replicas` made a word: the unit, untouched,
    // now hands "three" to a number variable (reported at its include).
    let root = s.open("root.hcl", ROOT).await;
    s.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": root, "version": 2}, "contentChanges": [
            {"range": {"start": {"line": 1, "character": 13}, "end": {"line": 1, "character": 14}}, "text": "\"three\""}
        ]}),
    )
    .await;
    let diags = s.newest_until(&unit, |d| !d.is_empty()).await;
    assert_eq!(codes(&diags), ["invalid-value"], "{diags:?}");
    assert_eq!(diags[0]["range"]["start"]["line"], 0, "{diags:?}");
    let related = &diags[0]["relatedInformation"][0];
    assert!(related["location"]["uri"].as_str().unwrap_or("").ends_with("/root.hcl"), "{diags:?}");
}

/// Two includes set `replicas`; the later one's value wins (`handleInclude`
/// in gruntwork-io/terragrunt pkg/config/include.go merges bottom up). An
/// edit of the later include alone (`no_merge`: it gives nothing) changes
/// the value checked at the other include: the unit is checked whole again,
/// not only the edited block.
#[tokio::test]
async fn editing_one_include_rechecks_the_value_another_gives() {
    let mut s = with_module().await;
    s.disk("root.hcl", "inputs = {\n  replicas = \"three\"\n}\n");
    s.disk("live/env.hcl", ROOT);
    let text = "include \"root\" {\n  path = find_in_parent_folders(\"root.hcl\")\n}\n\n\
                include \"env\" {\n  path = \"../env.hcl\"\n}\n\n\
                terraform {\n  source = \"../../modules//app\"\n}\n";
    let unit = s.open("live/app/terragrunt.hcl", text).await;
    assert!(s.diagnostics(&unit, 1).await.is_empty());
    s.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": unit, "version": 2}, "contentChanges": [
            {"range": {"start": {"line": 5, "character": 21}, "end": {"line": 5, "character": 21}}, "text": "\n  merge_strategy = \"no_merge\""}
        ]}),
    )
    .await;
    let diags = s.newest_until(&unit, |d| !d.is_empty()).await;
    assert_eq!(codes(&diags), ["invalid-value"], "{diags:?}");
    assert_eq!(diags[0]["range"]["start"]["line"], 0, "{diags:?}");
}

/// The unit's module named by its include's `terraform { source }` (the
/// `_envcommon` layout): an edit of that module checks the open unit again.
#[tokio::test]
async fn editing_the_module_an_include_names_rechecks_the_unit() {
    let mut s = with_module().await;
    std::fs::create_dir_all(s.dir.join("_envcommon")).unwrap();
    s.disk("root.hcl", "");
    s.disk(
        "_envcommon/app.hcl",
        "terraform {\n  source = \"${dirname(find_in_parent_folders(\"root.hcl\"))}/modules//app\"\n}\n",
    );
    let text = "include \"envcommon\" {\n  path = \"${dirname(find_in_parent_folders(\"root.hcl\"))}/_envcommon/app.hcl\"\n}\n\n\
                inputs = {\n  replicas = \"three\"\n}\n";
    let unit = s.open("live/app/terragrunt.hcl", text).await;
    let diags = s.diagnostics(&unit, 1).await;
    assert_eq!(codes(&diags), ["invalid-value"], "{diags:?}");
    // The variable made a string: "three" is fine.
    let module = s.open("modules/app/main.tf", "variable \"replicas\" {\n  type = number\n}\n").await;
    s.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": module, "version": 2}, "contentChanges": [
            {"range": {"start": {"line": 1, "character": 9}, "end": {"line": 1, "character": 15}}, "text": "string"}
        ]}),
    )
    .await;
    let diags = s.newest_until(&unit, |d| d.is_empty()).await;
    assert!(diags.is_empty(), "{diags:?}");
}

/// A root `terragrunt.hcl` that a unit includes generates `variables.tf`
/// into the module the unit runs (issue 43.1, docs/spec/terragrunt.md §6;
/// `WriteToFile` in gruntwork-io/terragrunt internal/codegen/generate.go):
/// the module's `var.env` is declared as it runs, and its definition is
/// the file the text was read from.
#[tokio::test]
async fn a_module_has_what_its_units_generate_into_it() {
    let mut s = Session::start_in_folder(Enc::Utf16).await;
    for d in ["modules/app", "live/app", ".git"] {
        std::fs::create_dir_all(s.dir.join(d)).unwrap();
    }
    s.disk(
        "terragrunt.hcl",
        "generate \"shared_vars\" {\n  path      = \"shared_vars.tf\"\n  if_exists = \"overwrite\"\n  \
         contents  = file(\"variables.tf\")\n}\n",
    );
    s.disk("variables.tf", "variable \"env\" {\n  type = string\n}\n");
    s.disk(
        "live/app/terragrunt.hcl",
        "include \"root\" {\n  path = find_in_parent_folders()\n}\n\nterraform {\n  source = \"../../modules//app\"\n}\n",
    );
    let m = s.open("modules/app/main.tf", "output \"env\" {\n  value = var.env\n}\n").await;
    let diags = s.diagnostics(&m, 1).await;
    assert!(diags.is_empty(), "{diags:?}");
    let at = json!({"textDocument": {"uri": m}, "position": {"line": 1, "character": 15}});
    let d = s.request("textDocument/definition", at).await;
    let uri = d["uri"].as_str().unwrap_or("");
    assert!(uri.ends_with("/variables.tf") && !uri.contains("modules/app"), "{d}");
    assert_eq!(d["range"]["start"], json!({"line": 0, "character": 9}), "{d}");
}

/// Issue 43: a `values.KEY` that a stack's `unit` block does not set names
/// that block, and points at it (the unit's name in the stack file) as
/// related information (terragrunt.md §8; `ReadValues` in
/// gruntwork-io/terragrunt pkg/config/stack.go).
#[tokio::test]
async fn a_stack_value_not_set_names_and_points_at_the_unit_block() {
    let mut s = Session::start_in_folder(Enc::Utf16).await;
    for d in ["units/app", "live", ".git"] {
        std::fs::create_dir_all(s.dir.join(d)).unwrap();
    }
    s.disk(
        "live/terragrunt.stack.hcl",
        "unit \"vpc\" {\n  source = \"../units/app\"\n  path   = \"vpc\"\n  values = {\n    env = \"dev\"\n  }\n}\n",
    );
    let unit = s.open("units/app/terragrunt.hcl", "locals {\n  cidr = values.cidr\n}\n").await;
    let diags = s.newest_until(&unit, |d| !d.is_empty()).await;
    assert_eq!(codes(&diags), ["traversal"], "{diags:?}");
    let msg = diags[0]["message"].as_str().unwrap_or("");
    assert!(msg.starts_with("unit \"vpc\" in `") && msg.ends_with("does not set `values.cidr`"), "{msg}");
    let related = &diags[0]["relatedInformation"][0]["location"];
    assert!(related["uri"].as_str().unwrap_or("").ends_with("/live/terragrunt.stack.hcl"), "{diags:?}");
    assert_eq!(related["range"]["start"], json!({"line": 0, "character": 5}), "{diags:?}");
}

/// Issue 43: `read_terragrunt_config(…)` is typed from the file it reads
/// in the editor too (terragrunt.md §10), and a change of that file on
/// disk checks the reader again (read as `templatefile` templates are:
/// from disk, so an unsaved edit is not seen).
#[tokio::test]
async fn read_terragrunt_config_follows_an_edit_of_the_file_it_reads() {
    let mut s = Session::start_in_folder(Enc::Utf16).await;
    for d in ["live/app", ".git"] {
        std::fs::create_dir_all(s.dir.join(d)).unwrap();
    }
    let env = "locals {\n  env = \"dev\"\n}\n";
    s.disk("live/env.hcl", env);
    let unit = s
        .open(
            "live/app/terragrunt.hcl",
            "locals {\n  region = read_terragrunt_config(find_in_parent_folders(\"env.hcl\")).locals.region\n}\n",
        )
        .await;
    let diags = s.newest_until(&unit, |d| !d.is_empty()).await;
    assert_eq!(codes(&diags), ["traversal"], "{diags:?}");
    s.disk("live/env.hcl", "locals {\n  region = \"eu-west-1\"\n}\n");
    let changed = uri(&s.dir.join("live/env.hcl"));
    s.notify("workspace/didChangeWatchedFiles", json!({"changes": [{"uri": changed, "type": 2}]})).await;
    let diags = s.newest_until(&unit, |d| d.is_empty()).await;
    assert!(diags.is_empty(), "{diags:?}");
}
