//! Terragrunt 1.x stack files (docs/spec/terragrunt.md §5):
//! `terragrunt.stack.hcl`'s `unit` and `stack` blocks, the `autoinclude`
//! block in them, and the `unit.NAME.path` / `stack.NAME.path` variables.
//! Judged by Terragrunt's own reference
//! (docs/src/content/docs/04-reference/01-hcl/02-blocks.mdx, sections
//! `unit`, `stack`, `autoinclude`) and source (`pkg/config/stack.go`,
//! `internal/hclparse/autoinclude.go`, `internal/hclparse/stack.go`) of
//! gruntwork-io/terragrunt.

use crate::infer::Infer;
use hcl_edit::structure::Block;
use syntax::diagnostic::{Code, Diagnostic};
use types::Type;

pub use crate::dialects::terragrunt::is_stack_file;

/// What `unit.NAME` and `stack.NAME` are in a stack file:
/// `BuildComponentRefMap` (internal/hclparse/stack.go) makes each declared
/// component an object of its generated `path`.
pub fn component_type() -> Type {
    Type::object([("path".to_string(), Type::string())])
}

/// The name under which `unit "NAME"` / `stack "NAME"` is declared (a
/// bare name no expression can spell, so it meets no other).
pub(crate) fn component_name(kind: &str, name: &str) -> String {
    format!("{kind}.{name}")
}

/// Checks of a top-level `unit` or `stack` block of a stack file.
pub(crate) fn block(inf: &mut Infer, b: &Block) {
    let kind = b.ident.value().as_str();
    // `source` and `path` are `hcl:"source,attr"`, `hcl:"path,attr"`
    // (required) in `Unit` and `Stack` of pkg/config/stack.go.
    for key in ["source", "path"] {
        if !b.body.has_attribute(key) {
            let r = b.labels.first().map_or_else(|| inf.range(&b.ident), |l| inf.range(l));
            let what = if key == "source" {
                "where its Terragrunt configuration comes from"
            } else {
                "the directory it is generated in"
            };
            inf.report(Diagnostic::new(Code::MissingArgument, r, format!("a `{kind}` block needs `{key}`: {what}")));
        }
    }
    for a in b.body.blocks().filter(|a| a.ident.value().as_str() == "autoinclude") {
        autoinclude(inf, kind, a);
    }
}

/// An `autoinclude` block of a `unit` or `stack`: what Terragrunt rejects in
/// it (`ResolveForKind` in internal/hclparse/autoinclude.go; the reference's
/// "Three things are rejected with an error").
fn autoinclude(inf: &mut Infer, kind: &str, a: &Block) {
    for nested in a.body.blocks() {
        let ident = nested.ident.value().as_str();
        let msg = match ident {
            "locals" => Some(
                "a `locals` block is not allowed inside `autoinclude`: declare locals at the stack level in `terragrunt.stack.hcl`"
                    .to_string(),
            ),
            "autoinclude" => Some("an `autoinclude` block is not allowed inside `autoinclude`".to_string()),
            "dependency" if kind == "stack" => Some(
                "a `dependency` block is not allowed in a stack's `autoinclude` (stacks have no dependencies): declare it in the target unit's own `autoinclude`"
                    .to_string(),
            ),
            // A stack-level autoinclude injects `unit` and `stack` blocks,
            // each checked as the stack file's own.
            "unit" | "stack" if kind == "stack" => {
                block(inf, nested);
                None
            }
            _ => None,
        };
        if let Some(msg) = msg {
            let r = inf.range(&nested.ident);
            inf.report(Diagnostic::new(Code::UnsupportedArgument, r, msg));
        }
    }
    if kind == "unit" {
        if let Some(v) = a.body.get_attribute("values") {
            let r = inf.range(&v.key);
            inf.report(Diagnostic::new(
                Code::UnsupportedArgument,
                r,
                "`values` is not an argument of a unit's configuration, and the generated `terragrunt.autoinclude.hcl` is read as one: pass the unit's values through the `unit` block's own `values`",
            ));
        }
    }
}
