//! Terraform Stacks' component files (`*.tfcomponent.hcl`, docs/spec/stacks.md):
//! plain HCL here, with the rules of Terraform's `internal/stacks/stackconfig`
//! that hold without the component modules.

use super::*;

/// Whether `path` is a Stacks component file (`internal/stacks/stackconfig/file.go`
/// reads `.tfcomponent.hcl`; `.tfcomponent.json` is not read here).
pub(super) fn is_component_file(path: &std::path::Path) -> bool {
    path.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.ends_with(".tfcomponent.hcl"))
}

/// A stack's `variable` and `output` must have `type`: it is `Required: true`
/// in `inputVariableBlockSchema` (input_variable.go) and `outputValueBlockSchema`
/// (output_value.go), so Terraform rejects the block ("Missing required argument")
/// where a module's variable would take any value.
pub(super) fn block(inf: &mut Infer, b: &Block) {
    let what = match b.ident.value().as_str() {
        "variable" => "variable",
        "output" => "output",
        _ => return,
    };
    if b.labels.len() != 1 || b.body.has_attribute("type") {
        return;
    }
    let ident = inf.range(&b.ident);
    let header = ident.start..b.labels.last().map_or(ident.end, |l| inf.range(l).end);
    let name = b.labels.first().map(label_text).unwrap_or("");
    let msg = format!("a stack's {what} needs `type`: `{what} \"{name}\"` has none, and Terraform requires it");
    inf.report(Diagnostic::new(Code::MissingArgument, header, msg));
}
