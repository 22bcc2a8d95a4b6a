//! Terragrunt's `include` in the editor (issue 30, docs/spec/terragrunt.md
//! §3): a unit's module is handed the included file's `inputs` too, so an
//! edit of that file checks the units that include it again.

mod lsp_support;

use lsp_support::*;
use serde_json::json;

fn codes(diags: &[serde_json::Value]) -> Vec<String> {
    diags.iter().map(|d| d["code"].as_str().unwrap_or("").to_string()).collect()
}

const ROOT: &str = "inputs = {\n  replicas = 3\n}\n";

#[tokio::test]
async fn editing_the_included_root_rechecks_the_unit() {
    let mut s = Session::start(Enc::Utf16).await;
    for d in ["modules/app", "live/app"] {
        std::fs::create_dir_all(s.dir.join(d)).unwrap();
    }
    s.disk("modules/app/main.tf", "variable \"replicas\" {\n  type = number\n}\n");
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
