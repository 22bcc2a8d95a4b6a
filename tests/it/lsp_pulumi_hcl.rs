//! Pulumi HCL in the editor (issue 30, docs/spec/pulumi-hcl.md §6): a
//! resource that a package schema's resource types is checked by its
//! argument's Terraform names, and hover on an argument shows its type.

use crate::lsp_support;
use crate::paths;

use lsp_support::*;
use serde_json::json;

fn codes(diags: &[serde_json::Value]) -> Vec<String> {
    diags.iter().map(|d| d["code"].as_str().unwrap_or("").to_string()).collect()
}

#[tokio::test]
async fn package_schemas_type_pulumi_hcl_resources() {
    let Some(random) = paths::shared("schemas/pulumi/random-4.11.2.json", "Pulumi HCL resources typed by a package")
    else {
        return;
    };
    let options = json!({"hclTypes": {"packageSchemas": [random.to_string_lossy()]}});
    let mut s = Session::start_with(Enc::Utf16, options).await;
    s.disk("Pulumi.yaml", "name: pets\nruntime: hcl\n");
    // random_shuffle's `input` is Pulumi's `inputs` (pulumi-random's bridge
    // metadata); `result_count` takes an int.
    let text = "resource \"random_shuffle\" \"z\" {\n  input        = [\"a\"]\n  result_count = \"one\"\n}\n";
    let main = s.open("main.tf", text).await;
    let diags = s.diagnostics(&main, 1).await;
    assert_eq!(codes(&diags), ["invalid-value"], "{diags:?}");
    assert_eq!(diags[0]["range"]["start"]["line"], 2, "{diags:?}");

    let h = s.at("textDocument/hover", "main.tf", "resource \"random_pet\" \"p\" {\n  len$0gth = 2\n}\n").await;
    assert_eq!(first_block(&h), "int", "{h}");
    let prose = h["contents"]["value"].as_str().unwrap_or("");
    assert!(prose.contains("random:index/randomPet:RandomPet") && prose.contains("random-4.11.2.json"), "{prose}");
}

/// A `Pulumi.yaml` created, changed or deleted while the server runs
/// (crates/project/src/pulumi.rs keeps what it read per directory) makes
/// the `.tf` files below it Pulumi HCL or not, once the client's watched
/// file event names it: `stringasset` is a Pulumi function (pulumi-hcl's
/// `pkg/hcl/eval/functions.go`), unknown in Terraform.
#[tokio::test]
async fn a_project_file_changed_on_disk_changes_the_dialect() {
    let mut s = Session::start(Enc::Utf16).await;
    let main = s.open("main.tf", "output \"a\" {\n  value = stringasset(\"x\")\n}\n").await;
    assert_eq!(codes(&s.diagnostics(&main, 1).await), ["unknown-function"]);
    let project = uri(&s.dir.join("Pulumi.yaml"));
    let event = |kind: u8| json!({"changes": [{"uri": project, "type": kind}]});

    s.disk("Pulumi.yaml", "name: assets\nruntime: hcl\n");
    s.notify("workspace/didChangeWatchedFiles", event(1)).await;
    let diags = s.newest_until(&main, |d| d.is_empty()).await;
    assert!(diags.is_empty(), "a Pulumi HCL program now: {diags:?}");

    s.disk("Pulumi.yaml", "name: assets\nruntime: yaml\n");
    s.notify("workspace/didChangeWatchedFiles", event(2)).await;
    let diags = s.newest_until(&main, |d| !d.is_empty()).await;
    assert_eq!(codes(&diags), ["unknown-function"], "a YAML program's .tf is Terraform: {diags:?}");

    s.disk("Pulumi.yaml", "name: assets\nruntime: hcl\n");
    s.notify("workspace/didChangeWatchedFiles", event(2)).await;
    assert!(s.newest_until(&main, |d| d.is_empty()).await.is_empty());
    std::fs::remove_file(s.dir.join("Pulumi.yaml")).unwrap();
    s.notify("workspace/didChangeWatchedFiles", event(3)).await;
    let diags = s.newest_until(&main, |d| !d.is_empty()).await;
    assert_eq!(codes(&diags), ["unknown-function"], "no program once deleted: {diags:?}");
}

/// Pulumi's binder types a resource's `id` as `output(id)` since
/// pulumi/pulumi #22702 (df649d6a3b, 2026-08-03; pkg/codegen/pcl/binder_resource.go):
/// hover on `res.id` in PCL says so. In Pulumi HCL the same package
/// resource's `id` is a plain string (docs/spec/pulumi-hcl.md §6).
#[tokio::test]
async fn a_pcl_resource_id_is_an_output_of_id() {
    let Some(random) = paths::shared("schemas/pulumi/random-4.11.2.json", "a PCL resource's id typed by a package")
    else {
        return;
    };
    let options = json!({"hclTypes": {"packageSchemas": [random.to_string_lossy()]}});
    let mut s = Session::start_with(Enc::Utf16, options).await;
    let pcl = "resource pet \"random:index/randomPet:RandomPet\" {\n  length = 2\n}\n\noutput petId {\n  value = pet.i$0d\n}\n";
    let h = s.at("textDocument/hover", "main.pp", pcl).await;
    assert_eq!(first_block(&h), "output(id)", "{h}");

    std::fs::create_dir_all(s.dir.join("hcl")).unwrap();
    s.disk("hcl/Pulumi.yaml", "name: pets\nruntime: hcl\n");
    let tf = "resource \"random_pet\" \"p\" {\n  length = 2\n}\n\noutput \"pet\" {\n  value = random_pet.p.i$0d\n}\n";
    let h = s.at("textDocument/hover", "hcl/main.tf", tf).await;
    assert_eq!(first_block(&h), "string", "{h}");
}
