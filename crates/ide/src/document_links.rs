//! Document links: a module call's local `source` to its directory, a
//! registry `source` to the module's page on the Terraform Registry, and
//! a resource or data source type to its provider's documentation page.
//! The URLs are those terraform-ls opens (its `documentLink`s, without
//! its `utm_*` query): `https://registry.terraform.io/modules/NS/NAME/PROVIDER/VERSION`
//! and `https://registry.terraform.io/providers/NS/TYPE/VERSION/docs/resources/NAME`.

use std::collections::HashMap;
use std::ops::Range;
use std::path::PathBuf;

use analysis::{Document, FileKind};
use hcl_edit::expr::Expression;
use hcl_edit::structure::{Block, Body};
use hcl_edit::Span;

const REGISTRY: &str = "https://registry.terraform.io";

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LinkTarget {
    /// A module's directory (the server links its `main.tf` when there is
    /// one: this layer reads no disk).
    Dir(PathBuf),
    Url(String),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Link {
    /// The string's content, without its quotes.
    pub range: Range<usize>,
    pub target: LinkTarget,
}

/// The links of `docs[doc]`; provider namespaces come from the module's
/// `required_providers` (any of its files), else `hashicorp`, as Terraform
/// assumes for a provider it is not told the source of.
pub fn document_links(docs: &[Document], doc: usize) -> Vec<Link> {
    let Some(d) = docs.get(doc) else { return Vec::new() };
    // Packer's `.pkr.hcl` are Terraform-kind files whose `data` blocks
    // are Packer plugins', not providers'.
    if d.file.kind != FileKind::Terraform || analysis::dialects::packer::TEMPLATE.matches(&d.file.path) {
        return Vec::new();
    }
    let sources = required_providers(docs);
    let text = d.file.text.as_str();
    let mut out = Vec::new();
    for item in d.items.iter() {
        let Some(body) = item.body(text) else { continue };
        let base = item.range.start;
        for b in body.blocks() {
            match b.ident.as_str() {
                "module" => out.extend(module_link(d, b, base)),
                kind @ ("resource" | "data") => out.extend(type_link(text, b, base, kind, &sources)),
                _ => {}
            }
        }
    }
    out
}

/// Local provider name → `(namespace, type)` from `required_providers`
/// sources on the public registry (`NS/TYPE` or `registry.terraform.io/NS/TYPE`).
fn required_providers(docs: &[Document]) -> HashMap<String, (String, String)> {
    let mut out = HashMap::new();
    for d in docs {
        for item in d.items.iter() {
            let Some(body) = item.body(&d.file.text) else { continue };
            for rp in body
                .blocks()
                .filter(|b| b.ident.as_str() == "terraform")
                .flat_map(|t| t.body.get_blocks("required_providers"))
            {
                for a in rp.body.attributes() {
                    let Expression::Object(o) = &a.value else { continue };
                    let source = o.iter().find_map(|(k, v)| match (k.as_str() == Some("source"), v.expr()) {
                        (true, Expression::String(s)) => Some(s.value().to_string()),
                        _ => None,
                    });
                    let parts: Vec<&str> = source.as_deref().unwrap_or("").split('/').collect();
                    let pair = match parts.as_slice() {
                        [ns, ty] | ["registry.terraform.io", ns, ty] => Some((ns.to_lowercase(), ty.to_lowercase())),
                        _ => None,
                    };
                    if let Some(pair) = pair {
                        out.insert(a.key.as_str().to_string(), pair);
                    }
                }
            }
        }
    }
    out
}

trait KeyStr {
    fn as_str(&self) -> Option<&str>;
}

impl KeyStr for hcl_edit::expr::ObjectKey {
    fn as_str(&self) -> Option<&str> {
        match self {
            hcl_edit::expr::ObjectKey::Ident(i) => Some(i.as_str()),
            hcl_edit::expr::ObjectKey::Expression(Expression::String(s)) => Some(s.as_str()),
            _ => None,
        }
    }
}

fn string_attr<'b>(body: &'b Body, key: &str) -> Option<(&'b str, Range<usize>)> {
    let a = body.get_attribute(key)?;
    let Expression::String(s) = &a.value else { return None };
    let r = s.span()?;
    // The span holds the quotes.
    Some((s.as_str(), r.start + 1..r.end.saturating_sub(1).max(r.start + 1)))
}

fn module_link(d: &Document, b: &Block, base: usize) -> Option<Link> {
    let (source, r) = string_attr(&b.body, "source")?;
    let range = r.start + base..r.end + base;
    if source.starts_with("./") || source.starts_with("../") {
        let dir = analysis::workspace::normalize(&d.file.path.parent()?.join(source));
        return Some(Link { range, target: LinkTarget::Dir(dir) });
    }
    // `NS/NAME/PROVIDER[//SUBDIR]`, optionally after the public registry's host.
    let module = source.split("//").next().unwrap_or(source);
    let parts: Vec<&str> = module.split('/').collect();
    let [ns, name, provider] = match parts.as_slice() {
        [ns, name, provider] | ["registry.terraform.io", ns, name, provider] => [*ns, *name, *provider],
        _ => return None,
    };
    let ok = |s: &str| !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    if !(ok(ns) && ok(name) && ok(provider)) {
        return None;
    }
    // An exact `version` names its page; a constraint leaves the newest.
    let version = string_attr(&b.body, "version")
        .map(|(v, _)| v.trim().trim_start_matches('=').trim().to_string())
        .filter(|v| !v.is_empty() && v.chars().all(|c| c.is_ascii_alphanumeric() || c == '.' || c == '-'))
        .unwrap_or_else(|| "latest".into());
    let url = format!("{REGISTRY}/modules/{ns}/{name}/{provider}/{version}");
    Some(Link { range, target: LinkTarget::Url(url) })
}

fn type_link(
    text: &str,
    b: &Block,
    base: usize,
    kind: &str,
    sources: &HashMap<String, (String, String)>,
) -> Option<Link> {
    let label = b.labels.first()?;
    let ty = label.as_str();
    let r = label.span()?;
    let (mut start, mut end) = (r.start + base, r.end + base);
    if text.get(start..start + 1) == Some("\"") {
        (start, end) = (start + 1, end.saturating_sub(1).max(start + 1));
    }
    // The provider: the `provider` meta-argument's local name, else the
    // type's first word (Terraform's implied provider).
    let local = match b.body.get_attribute("provider").map(|a| &a.value) {
        Some(Expression::Traversal(t)) => match &t.expr {
            Expression::Variable(v) => v.as_str().to_string(),
            _ => return None,
        },
        Some(Expression::Variable(v)) => v.as_str().to_string(),
        _ => ty.split('_').next()?.to_string(),
    };
    if ty == local || local.is_empty() || ty.starts_with(|c: char| !c.is_ascii_alphanumeric()) {
        return None;
    }
    let implied = ty.split('_').next().unwrap_or(ty);
    let (ns, ptype) = sources.get(&local).cloned().unwrap_or_else(|| ("hashicorp".into(), local.clone()));
    let name = ty.strip_prefix(implied).and_then(|n| n.strip_prefix('_')).unwrap_or(ty);
    let section = if kind == "data" { "data-sources" } else { "resources" };
    let url = format!("{REGISTRY}/providers/{ns}/{ptype}/latest/docs/{section}/{name}");
    Some(Link { range: start..end, target: LinkTarget::Url(url) })
}
