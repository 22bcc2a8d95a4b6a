//! Names a Terraform module may declare once (validate.md §1): a second
//! `variable "x"`, local `x`, `output`, `module`, `resource`, `data`,
//! `ephemeral`, `check`, provider configuration, `required_providers`,
//! `backend` or `cloud` block is an error at the later one, as
//! `appendFile` and `NewModule` in internal/configs/module.go report it
//! ("Duplicate variable declaration", …).
//!
//! A module-level pass (passes.rs): each item's declarations are read once
//! ([`facts`]); the pass walks the module's primary files in the order
//! Terraform loads them (by name; override files merge instead, and a
//! `.tofu` file hides the `.tf` file of its name in OpenTofu).

use std::ops::Range;
use std::path::Path;

use hcl_edit::expr::Expression;
use hcl_edit::structure::{Block, Body};
use hcl_edit::Span;
use rustc_hash::FxHashMap as HashMap;

use super::decls::label_text;
use super::{Document, FileKind, Item};
use syntax::diagnostic::{Code, Diagnostic, Related};
use syntax::Dialect;

/// One declaration kept by name, relative to its item.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Decl {
    /// The key Terraform keeps it by (`variable.x`, `data.T.N`,
    /// `provider.aws.west`); the message names it from the key
    /// ([`describe`]): every local of a module has one, so each costs one
    /// allocation (tests/memory.rs).
    key: Box<str>,
    range: Range<u32>,
    /// A `check` block's data source comes after the file's own data
    /// sources (`appendFile` reads `file.Checks` after `file.DataResources`).
    late: bool,
}

/// An item's declarations (computed once per item, passes.rs).
pub(super) type Facts = Vec<Decl>;

fn header(b: &Block) -> Option<Range<usize>> {
    let start = b.ident.span()?.start;
    let end = b.labels.last().and_then(|l| l.span()).or_else(|| b.ident.span())?.end;
    Some(start..end)
}

fn labels(b: &Block) -> Vec<&str> {
    b.labels.iter().map(label_text).collect()
}

/// The declarations of one item's body.
pub(super) fn facts(body: &Body) -> Facts {
    let mut out = Vec::new();
    for b in body.blocks() {
        let ident = b.ident.value().as_str();
        let l = labels(b);
        let Some(range) = header(b) else { continue };
        let mut push = |key: String, range: Range<usize>, late: bool| {
            let range = range.start as u32..range.end as u32;
            out.push(Decl { key: key.into_boxed_str(), range, late })
        };
        overridden(b, range.clone(), &mut push);
        match (ident, l.as_slice()) {
            ("variable" | "output" | "module" | "check", [name]) => {
                push(format!("{ident}.{name}"), range, false);
                if ident == "check" {
                    for d in b.body.blocks().filter(|d| d.ident.value().as_str() == "data") {
                        if let ([t, n], Some(r)) = (labels(d).as_slice(), header(d)) {
                            push(format!("data.{t}.{n}"), r, true);
                        }
                    }
                }
            }
            ("resource" | "data" | "ephemeral", [t, n]) => {
                // (Its repetition, for the `import` blocks that target it:
                // import_rules.rs.)
                if let Some(rep) = ["count", "for_each"].into_iter().find(|k| b.body.get_attribute(k).is_some()) {
                    push(format!("#{rep}.{ident}.{t}.{n}"), range.clone(), false);
                }
                if let Some(Expression::Array(list)) = b.body.get_attribute("depends_on").map(|a| &a.value) {
                    for e in list.iter() {
                        if let Some(r) = e.span() {
                            push(format!("#depends:{}", super::import_rules::dependency(e)), r, false);
                        }
                    }
                }
                push(format!("{ident}.{t}.{n}"), range, false)
            }
            ("provider", [name]) => {
                let alias = b.body.get_attribute("alias").map(|a| match &a.value {
                    Expression::String(s) => Some(s.value().to_string()),
                    _ => None,
                });
                match alias {
                    None => push(format!("provider.{name}"), range, false),
                    Some(Some(a)) => push(format!("provider.{name}.{a}"), range, false),
                    // An alias that is not a literal: Terraform reports it
                    // as invalid, not as a duplicate.
                    Some(None) => {}
                }
            }
            // "Duplicate import configuration" (`appendFile`): one import
            // per resource instance; one with `for_each` is left alone.
            ("import", []) if b.body.get_attribute("for_each").is_none() => {
                let to = b.body.get_attribute("to").map(|a| &a.value);
                if let (Some(text), Some(r)) = (to.and_then(address), to.and_then(|e| e.span())) {
                    push(format!("import.{text}"), r, false);
                }
            }
            ("locals", []) => {
                for a in b.body.attributes() {
                    let name = a.key.value().as_str();
                    if let Some(r) = a.key.span() {
                        push(format!("local.{name}"), r, false);
                    }
                }
            }
            ("terraform", []) => {
                for nested in b.body.blocks() {
                    let kind = nested.ident.value().as_str();
                    let Some(r) = header(nested) else { continue };
                    match (kind, labels(nested).as_slice()) {
                        ("required_providers" | "backend" | "cloud", _) => push(kind.to_owned(), r, false),
                        ("provider_meta", [name]) => push(format!("provider_meta.{name}"), r, false),
                        _ => {}
                    }
                }
            }
            _ => {}
        }
    }
    out
}

/// The blocks an override file may not hold (`#KIND`, never a duplicate):
/// `moved` and `import` blocks (`mergeFile`, internal/configs/module.go),
/// and the conditions, which `decodeCheckRuleBlock` (checks.go) refuses in
/// an override file: a variable's `validation`, an output's
/// `precondition`, a resource's or data source's `lifecycle` conditions.
fn overridden(b: &Block, range: Range<usize>, push: &mut impl FnMut(String, Range<usize>, bool)) {
    let ident = b.ident.value().as_str();
    match ident {
        "moved" | "import" => push(format!("#{ident}"), range, false),
        "variable" | "output" | "resource" | "data" => {
            let lifecycle = b.body.get_blocks("lifecycle");
            for c in b.body.blocks().chain(lifecycle.flat_map(|l| l.body.blocks())) {
                let kind = c.ident.value().as_str();
                if let ("validation" | "precondition" | "postcondition", Some(r)) = (kind, header(c)) {
                    push(format!("#{kind}"), r, false);
                }
            }
        }
        _ => {}
    }
}

/// A static address's text (`aws_instance.a["k"]`), if it is one.
fn address(e: &Expression) -> Option<String> {
    use hcl_edit::expr::TraversalOperator as Op;
    let Expression::Traversal(t) = e else { return None };
    let Expression::Variable(root) = &t.expr else { return None };
    let mut text = root.value().to_string();
    for o in &t.operators {
        match o.value() {
            Op::GetAttr(a) => text.push_str(&format!(".{}", a.value())),
            Op::Index(Expression::Number(n)) => text.push_str(&format!("[{}]", n.value())),
            Op::LegacyIndex(n) => text.push_str(&format!("[{}]", n.value())),
            Op::Index(Expression::String(k)) => text.push_str(&format!("[{:?}]", k.value().as_str())),
            _ => return None,
        }
    }
    Some(text)
}

/// Whether Terraform (or OpenTofu) reads `path` as a primary file of the
/// module: a `.tf` file that is no override file and, in OpenTofu, that no
/// `.tofu` file of the same name replaces.
fn primary(path: &Path, docs: &[Document], dialect: Dialect) -> bool {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    // (The JSON syntax, `.tf.json`, is read lowered to the native syntax.)
    let json = if name.ends_with(".json") { ".json" } else { "" };
    let name = name.strip_suffix(".json").unwrap_or(name);
    let tofu = name.ends_with(".tofu") && dialect == Dialect::OpenTofu;
    if super::overrides::is_override(path) || !(name.ends_with(".tf") || tofu) {
        return false;
    }
    match name.strip_suffix(".tf") {
        Some(stem) if dialect == Dialect::OpenTofu => {
            let tofu = path.with_file_name(format!("{stem}.tofu{json}"));
            !docs.iter().any(|d| d.file.path == tofu)
        }
        _ => true,
    }
}

/// Whether the pass applies: a Terraform or OpenTofu module.
pub(super) fn applies(docs: &[Document], dialect: Dialect) -> bool {
    dialect.is_terraform() && dialect != Dialect::PulumiHcl && docs.iter().any(|d| d.file.kind == FileKind::Terraform)
}

/// Per document, a `duplicate` error at each declaration whose name an
/// earlier one of the module has, related to the first.
pub(super) fn check<'a>(
    docs: &[Document],
    dialect: Dialect,
    facts: impl Fn(&Item) -> Option<&'a Facts>,
) -> Vec<Vec<Diagnostic>> {
    let mut out: Vec<Vec<Diagnostic>> = vec![Vec::new(); docs.len()];
    let mut order: Vec<usize> = (0..docs.len())
        .filter(|&i| docs[i].file.kind == FileKind::Terraform && primary(&docs[i].file.path, docs, dialect))
        .collect();
    order.sort_by(|&a, &b| docs[a].file.path.file_name().cmp(&docs[b].file.path.file_name()));
    let mut first: HashMap<&str, (usize, Range<usize>)> = HashMap::default();
    let mut conflict = None;
    for di in order {
        let doc = &docs[di];
        let mut all: Vec<(&Decl, usize)> = Vec::new();
        for item in doc.items.iter() {
            all.extend(facts(item).into_iter().flatten().map(|d| (d, item.range.start)));
        }
        // (A stable sort: source order within each phase.)
        all.sort_by_key(|(d, _)| d.late);
        for (d, at) in all.into_iter().filter(|(d, _)| !d.key.starts_with('#')) {
            let range = at + d.range.start as usize..at + d.range.end as usize;
            match first.get(&*d.key) {
                None => {
                    first.insert(&d.key, (di, range));
                }
                Some((fi, fr)) => {
                    let path = (*fi != di).then(|| docs[*fi].file.path.clone());
                    let what = describe(&d.key);
                    let related =
                        Related { path, range: fr.clone(), message: format!("{what} is first declared here") };
                    let msg = format!("Duplicate {what}: it is already declared in this module");
                    out[di].push(Diagnostic::new(Code::Duplicate, range, msg).with_related(related));
                }
            }
        }
        // Checked after each file, as `appendFile` does.
        if conflict.is_none() {
            conflict = state_storage(&first);
            if let Some((fi, range, msg)) = conflict.clone() {
                out[fi].push(Diagnostic::new(Code::Duplicate, range, msg));
            }
        }
    }
    let bases = first.keys().map(|k| Box::<str>::from(*k)).collect();
    super::import_rules::check(docs, &bases, &facts, &mut out);
    super::override_rules::check(docs, dialect, bases, &facts, &mut out);
    out
}

impl Decl {
    pub(super) fn key(&self) -> &str {
        &self.key
    }

    /// Its range in a document, its item starting at `at`.
    pub(super) fn range(&self, at: usize) -> Range<usize> {
        at + self.range.start as usize..at + self.range.end as usize
    }

    /// A `check` block's data source.
    pub(super) fn late(&self) -> bool {
        self.late
    }
}

/// "Conflicting 'cloud' and 'backend' configuration blocks are present": a
/// module stores its state one way; reported at the backend. (Terraform's
/// `state_store` block is experimental: 1.15.5 refuses it as an unsupported
/// block.)
fn state_storage(first: &HashMap<&str, (usize, Range<usize>)>) -> Option<(usize, Range<usize>, String)> {
    let (_, (fi, backend)) = (first.get("cloud")?, first.get("backend")?);
    let msg = "Conflicting `cloud` and `backend` blocks: a module stores its state one way; remove the `backend` block to use HCP Terraform";
    Some((*fi, backend.clone(), msg.to_owned()))
}

/// What a declaration's key names, as a message says it (`variable "x"`,
/// `data "T" "N"`, `provider "aws" with alias "west"`, `local value "x"`).
fn describe(key: &str) -> String {
    let (kind, rest) = key.split_once('.').unwrap_or((key, ""));
    match kind {
        "local" => format!("local value \"{rest}\""),
        "resource" | "data" | "ephemeral" => match rest.split_once('.') {
            Some((t, n)) => format!("{kind} \"{t}\" \"{n}\""),
            None => format!("{kind} \"{rest}\""),
        },
        "provider" => match rest.split_once('.') {
            Some((name, alias)) => format!("provider \"{name}\" with alias \"{alias}\""),
            None => format!("provider \"{rest}\""),
        },
        "required_providers" | "backend" | "cloud" if rest.is_empty() => format!("`{kind}` block"),
        "provider_meta" => format!("provider_meta \"{rest}\" block"),
        "import" => format!("import of `{rest}`"),
        _ => format!("{kind} \"{rest}\""),
    }
}
