//! A reference's declared constraint beside its value's type, where they
//! differ (terraform-ls#1512): `type = any` with an object default (the
//! default's type), an `optional(…)` attribute (null, or its default, when
//! left out).

use analysis::module::{declarable, value_type, ModuleAnalysis};
use analysis::Document;
use hcl_edit::structure::{Block, BlockLabel};
use syntax::typeexpr::{parse_type_str, NodeKind, TypeContext};
use types::Type;

/// What hover adds for the reference `text` (`var.NAME` and attribute
/// steps) whose value has type `shown`.
pub(crate) fn declared_beside_value(
    docs: &[Document],
    analysis: &ModuleAnalysis,
    text: &str,
    shown: &Type,
) -> Option<String> {
    let mut steps = text.strip_prefix("var.")?.split('.');
    let name = steps.next()?;
    let steps: Vec<&str> = steps.collect();
    if steps.iter().chain([&name]).any(|s| !s.chars().all(|c| c.is_alphanumeric() || c == '_' || c == '-')) {
        return None;
    }
    let address = format!("var.{name}");
    let sym = analysis.symbols.iter().find(|s| s.address == address)?;
    let d = docs.get(sym.doc)?;
    let item = d.items.iter().find(|i| i.range.start <= sym.name_range.start && sym.name_range.start < i.range.end)?;
    let body = item.body(&d.file.text)?;
    let block = body.blocks().find(|b| b.ident.value().as_str() == "variable" && label(b) == Some(name))?;
    let src = d.source(item);
    let ty_text = block.body.get_attribute("type").and_then(|a| d.file.text.get(src.range(&a.value)))?;
    if steps.is_empty() {
        // `type = any` (or with `any` inside): the default says more.
        if !ty_text.contains("any") {
            return None;
        }
        let default = value_type(d, item, &block.body.get_attribute("default")?.value);
        // In Terraform's words (`number`, not the refinement `int`).
        let default = declarable(&default).unwrap_or(default);
        return (default != *shown && !default.is_any())
            .then(|| format!("Declared `{}`; its default's type is `{default}`.", ty_text.trim()));
    }
    // An attribute: its declaration in the type expression, step by step.
    let expr = parse_type_str(ty_text, TypeContext::variable(d.file.dialect));
    let mut within = 0..ty_text.len();
    let mut node = None;
    for step in &steps {
        let n = expr.nodes.iter().find(|n| {
            n.kind == NodeKind::Attribute
                && within.start <= n.range.start
                && n.range.end <= within.end
                && ty_text.get(n.name_range.clone()) == Some(*step)
        })?;
        within = n.range.clone();
        node = Some(n);
    }
    let n = node?;
    let declared = ty_text.get(n.range.clone())?.split_once('=')?.1.trim();
    let optional = declared.strip_prefix("optional(")?;
    let why = if optional.contains(',') {
        "the default it names when the value leaves it out"
    } else {
        "`null` when the value leaves it out"
    };
    Some(format!("Declared `{declared}` (in variable `{name}`'s type): {why}."))
}

fn label(b: &Block) -> Option<&str> {
    Some(match b.labels.first()? {
        BlockLabel::Ident(i) => i.value().as_str(),
        BlockLabel::String(s) => s.value().as_str(),
    })
}
