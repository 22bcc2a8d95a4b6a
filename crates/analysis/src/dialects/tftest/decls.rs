//! What a Terraform test file's items declare: the module under test, and
//! each `run` block's module, as calls (docs/spec/tests.md §1); read from an
//! item's tree, or from its text when it does not parse.

use crate::document::Document;
use crate::module::decls::{CallDecl, Decls, Repeat};
use crate::module::label_text;
use hcl_edit::structure::Body;
use syntax::constant::{eval, Source};
use syntax::recover::Name;
use types::value::Value;

/// [`test_calls`] of a test file's item that does not parse (a name being
/// typed in a run's `variables`): the run's module read from its text.
pub(crate) fn recovered_test_calls(
    doc: &Document,
    text: &str,
    block: Option<&str>,
    label: Option<&Name>,
    d: &mut Decls,
) {
    use crate::calls::run_call;
    let (base, file) = call_tested(doc, d);
    let (Some("run"), Some(label)) = (block, label) else { return };
    let mut lines = text.lines().skip_while(|l| !l.trim_start().starts_with("module"));
    let source = match lines.next() {
        None => Some(base.to_string()),
        Some(_) => lines
            .find_map(|l| l.trim_start().strip_prefix("source")?.trim_start().strip_prefix('=').map(str::trim))
            .and_then(|v| v.strip_prefix('"')?.split('"').next())
            .filter(|s| crate::calls::is_local(s))
            .map(|s| format!("{base}{s}")),
    };
    d.calls.push(CallDecl {
        template: None,
        name: run_call(&file, &label.text),
        name_range: label.range.clone(),
        source,
        repeat: Repeat::One,
        component: false,
    });
}

/// Where a test file's module under test is, from the file's directory:
/// Terraform runs the tests of the module in its working directory, read
/// from its `tests/` directory (or another named by `-test-directory`, by
/// convention under `tests/`: `tests/unit`), else from the module's own
/// directory (docs/spec/tests.md §1).
pub(crate) fn tested_source(doc: &Document) -> String {
    tested_source_of(&doc.file.path)
}

/// [`tested_source`] of the test file at `path`.
pub fn tested_source_of(path: &std::path::Path) -> String {
    let Some(dir) = path.parent() else { return "./".to_string() };
    // (`tests` or `tests/NAME`: a `tests` directory higher up is another
    // project's layout, a repository's test data say.)
    match dir.ancestors().take(2).position(|a| a.file_name().is_some_and(|n| n == "tests")) {
        Some(up) => "../".repeat(up + 1),
        None => "./".to_string(),
    }
}

/// A test file's calls: the module under test (from every item, so that
/// any one names it) and each `run` block's module (`run.NAME` is its
/// outputs). `run { module { source } }` is relative to the module under
/// test (Terraform's working directory), not to the test file.
pub(crate) fn test_calls(doc: &Document, body: &Body, src: Source<'_>, d: &mut Decls) {
    use crate::calls::{run_call, TESTED};
    let (base, file) = call_tested(doc, d);
    // The file's own variables (`var.NAME` in assertions), as names only.
    for b in body.blocks().filter(|b| b.ident.value().as_str() == "variables") {
        for a in b.body.attributes() {
            d.calls.push(CallDecl {
                template: None,
                name: crate::calls::test_var(&file, a.key.value()),
                name_range: src.range(&a.key),
                source: None,
                repeat: Repeat::Unknown,
                component: false,
            });
        }
    }
    overrides(body, TESTED, src, d);
    for b in body.blocks().filter(|b| b.ident.value().as_str() == "run") {
        let Some(label) = b.labels.first() else { continue };
        overrides(&b.body, &run_call(&file, label_text(label)), src, d);
        let source = match b.body.get_blocks("module").next() {
            None => Some(base.to_string()),
            Some(m) => match m.body.get_attribute("source").map(|a| eval(&a.value, src)) {
                Some(Ok(Value::String(s))) if crate::calls::is_local(&s) => Some(format!("{base}{s}")),
                // A registry module: not followed (`any`).
                _ => None,
            },
        };
        d.calls.push(CallDecl {
            template: None,
            name: run_call(&file, label_text(label)),
            name_range: src.range(label),
            source,
            repeat: Repeat::One,
            component: false,
        });
    }
}

/// The modules that the `override_module` blocks of `body` (the file's,
/// or a run's) override, each a call of what the module of call `root`
/// calls by that name (resolved by the workspace from that module's own
/// calls): their outputs are what an override's `outputs` may set.
fn overrides(body: &Body, root: &str, src: Source<'_>, d: &mut Decls) {
    for b in body.blocks().filter(|b| b.ident.value().as_str() == "override_module") {
        let Some(target) = b.body.get_attribute("target") else { continue };
        let Some(path) = super::mocks::module_path(&target.value) else { continue };
        d.calls.push(CallDecl {
            template: None,
            name: crate::calls::override_call(root, &path),
            name_range: src.range(&target.value),
            source: None,
            repeat: Repeat::One,
            component: false,
        });
    }
}

/// Declares the call of the module under test (every item of a test file
/// names it); its source and the file's name for the run calls.
fn call_tested(doc: &Document, d: &mut Decls) -> (String, String) {
    let base = tested_source(doc);
    d.calls.push(CallDecl {
        template: None,
        name: crate::calls::TESTED.to_string(),
        name_range: 0..0,
        source: Some(base.clone()),
        repeat: Repeat::One,
        component: false,
    });
    (base, crate::calls::test_file_name(&doc.file.path))
}
