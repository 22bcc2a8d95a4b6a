//! Resources and outputs as symbols.

use super::*;
use crate::dialects::symbol_libraries;

/// Resources, data sources, module calls and components (document symbols).
pub(super) fn resources(doc: &Document, body: &Body, src: Source<'_>, out: &mut Vec<Symbol>) {
    for b in body.blocks() {
        let ident = b.ident.value().as_str();
        if !matches!(ident, "resource" | "data" | "module" | "component" | "read") {
            continue;
        }
        let name = match (doc.file.kind, ident) {
            (FileKind::Pcl | FileKind::Hcl, _) | (_, "module") => b.labels.first().map(label_text).unwrap_or(""),
            _ => b.labels.get(1).map(label_text).unwrap_or(""),
        };
        let address = match (doc.file.kind, ident) {
            (FileKind::Terraform, "resource") => format!("{}.{name}", b.labels.first().map(label_text).unwrap_or("")),
            (FileKind::Terraform, "data") => format!("data.{}.{name}", b.labels.first().map(label_text).unwrap_or("")),
            (FileKind::Terraform, _) => format!("module.{name}"),
            _ => name.to_string(),
        };
        let ty = if doc.file.kind == FileKind::Pcl { Type::output(Type::any()) } else { Type::any() };
        let name_range = b.labels.last().map(|l| src.range(l)).unwrap_or_else(|| src.range(&b.ident));
        out.push(Symbol {
            address,
            name: name.to_string(),
            kind: SymbolKind::Resource,
            name_range,
            range: src.range(b),
            ty,
            doc: 0,
        });
    }
}

/// `output.NAME` symbols with their value types (an untyped output's is
/// inferred, quietly: its checks were made with the item's).
pub(super) fn output_symbols(
    doc: &Document,
    body: &Body,
    src: Source<'_>,
    env: &dyn Env,
    out: &mut Vec<Symbol>,
    type_nodes: &mut Vec<TypeNode>,
) {
    for b in body.blocks().filter(|b| b.ident.value().as_str() == "output") {
        let Some(label) = b.labels.first() else { continue };
        let name = label_text(label).to_string();
        let declared = match (doc.file.kind, b.labels.get(1)) {
            (FileKind::Pcl | FileKind::Hcl, Some(l)) => {
                let te = label_type(l, src, doc.file.dialect);
                type_nodes.extend(te.nodes);
                Some(te.declared)
            }
            // Terraform 1.15's typed output: what it gives is the declared
            // type with `optional` defaults applied.
            (FileKind::Terraform, _) if doc.file.dialect.is_terraform() => b.body.get_attribute("type").map(|a| {
                let libs = env.symbols().cloned().unwrap_or_default();
                let te = symbol_libraries::libraries::parse_module_type(
                    &a.value,
                    src,
                    TypeContext::variable(Dialect::Terraform),
                    &libs,
                );
                type_nodes.extend(te.nodes);
                te.value
            }),
            _ => None,
        };
        let ty = match (declared, b.body.get_attribute("value")) {
            (Some(t), _) => t,
            (None, Some(v)) => Infer::new(env, src).expr(&v.value),
            (None, None) => Type::any(),
        };
        out.push(Symbol {
            address: format!("output.{name}"),
            name,
            kind: SymbolKind::Output,
            name_range: src.range(label),
            range: src.range(b),
            ty,
            doc: 0,
        });
    }
}
