//! A module's interface (variables and outputs) and its calls, as the
//! workspace layer needs them: from the remembered declarations and the
//! last analysis, without analysing anything again.

use super::*;
use crate::calls::{Input, Interface, OutputInfo};
use crate::dialects::terragrunt;
use crate::Family;
use std::path::PathBuf;

/// A document whose blocks can call modules.
fn calling(d: &Document) -> bool {
    matches!(d.file.kind, FileKind::Terraform | FileKind::Pcl | FileKind::TfTest)
        || (d.file.kind == FileKind::Hcl && crate::calls_modules(&d.file.path))
}

/// A module call as the workspace resolves it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Call {
    pub name: String,
    /// The `source`, when a constant string.
    pub source: Option<String>,
    /// The family of the called module: a Terraform module call, a PCL component.
    pub family: Family,
}

/// What a call declaration adds to [`Memo::calls`]'s answer.
fn call_key(c: &CallDecl) -> (String, Option<String>, Option<Vec<SourcePart>>, bool) {
    (c.name.clone(), c.source.clone(), c.template.clone(), c.component)
}

/// A `source` built of const variables and locals, resolved: each
/// `var.NAME` a const variable with a known value (its default, or a value
/// `terraform.tfvars` or a `*.auto.tfvars` file gives it, later files
/// winning, as Terraform reads them), each `local.NAME` a constant string
/// or built so in turn; `None` when one is not.
fn resolved(
    parts: &[SourcePart],
    consts: &HashMap<String, Option<String>>,
    locals: &Locals,
    depth: usize,
) -> Option<String> {
    let mut out = String::new();
    for p in parts {
        match p {
            SourcePart::Lit(s) => out.push_str(s),
            SourcePart::Var(name) => out.push_str(consts.get(name)?.as_deref()?),
            SourcePart::Local(name) if depth < 8 => {
                let (doc, item) = locals.get(name)?;
                let body = item.body(&doc.file.text)?;
                let mut inner = body.blocks().flat_map(|b| b.body.attributes());
                let a = inner.find(|a| a.key.value().as_str() == name.as_str())?;
                match eval(&a.value, item_source(doc, item)) {
                    Ok(v) => out.push_str(&const_string(&v)?),
                    Err(_) => out.push_str(&resolved(&source_parts(&a.value)?, consts, locals, depth + 1)?),
                }
            }
            SourcePart::Local(_) => return None,
        }
    }
    Some(out)
}

/// The item declaring each local.
type Locals<'a> = HashMap<String, (&'a Document, &'a Item)>;

/// The module's const variables and their values where known: defaults,
/// then `terraform.tfvars`, then the `*.auto.tfvars` files in name order.
fn const_values(memo: &mut Memo, docs: &[Document]) -> HashMap<String, Option<String>> {
    let mut out: HashMap<String, Option<String>> = HashMap::default();
    let mut seen: HashSet<String> = HashSet::default();
    // OpenTofu (1.8) evaluates any variable not declared `const = false`
    // (website/docs/language/values/variables.mdx, "Marking variable as
    // constant"); Terraform 1.15 only `const = true` ones.
    let tofu = module_dialect(docs) == Dialect::OpenTofu;
    for doc in docs.iter().filter(|d| d.file.kind == FileKind::Terraform) {
        for item in doc.items.iter() {
            let d = memo.decls.entry(item.id).or_insert_with(|| Arc::new(declare(doc, item, &memo.context.symbols)));
            for v in &d.vars {
                if seen.insert(v.name.clone()) {
                    if let Some(value) = &v.constant {
                        out.insert(v.name.clone(), value.clone());
                    } else if tofu && v.const_set != Some(false) {
                        out.insert(v.name.clone(), v.static_default.clone());
                    }
                }
            }
        }
    }
    let name = |d: &Document| d.file.path.file_name().and_then(|n| n.to_str()).unwrap_or("").to_string();
    let mut files: Vec<&Document> = docs
        .iter()
        .filter(|d| d.file.kind == FileKind::Tfvars)
        .filter(|d| name(d) == "terraform.tfvars" || name(d).ends_with(".auto.tfvars"))
        .collect();
    files.sort_by_key(|d| (name(d) != "terraform.tfvars", name(d)));
    for doc in files {
        for item in doc.items.iter() {
            let Some(body) = item.body(&doc.file.text) else { continue };
            let src = item_source(doc, item);
            for a in body.attributes() {
                if let Some(slot) = out.get_mut(a.key.value().as_str()) {
                    *slot = eval(&a.value, src).ok().as_ref().and_then(const_string);
                }
            }
        }
    }
    out
}

impl Memo {
    /// The module calls (and PCL components) of `docs` (the first block of
    /// each name).
    pub fn calls(&mut self, docs: &[Document]) -> Vec<Call> {
        self.shared_calls(docs).to_vec()
    }

    /// [`Memo::calls`], shared: asked before every analysis. When the
    /// changed items since the last answer call what they called (a
    /// keystroke in a resource or in a call's argument), that answer is
    /// given again (the same `Arc`) without visiting every item's
    /// declarations; the changed items are found from the documents'
    /// revisions and edits, not by comparing every item.
    pub fn shared_calls(&mut self, docs: &[Document]) -> Arc<[Call]> {
        let seen = self.calls_seen.take().filter(|_| !self.calls_templated);
        if let Some((mut ids, calls)) = seen {
            if self.same_calls(&mut ids, docs) {
                self.calls_seen = Some((ids, calls.clone()));
                return calls;
            }
        }
        declare_new(docs.iter().filter(|d| calling(d)), self);
        let mut out: Vec<Call> = Vec::new();
        let mut names = HashSet::default();
        let mut templates = Vec::new();
        let mut libraries: Vec<(String, String)> = Vec::new();
        // Override files last, as Terraform merges them: an override
        // block's `source` replaces its base's (module_merge.go,
        // `ModuleCall.merge`; issue 43.8), so the call leads there.
        let (overrides, bases): (Vec<&Document>, Vec<&Document>) =
            docs.iter().filter(|d| calling(d)).partition(|d| super::overrides::is_override(&d.file.path));
        for (doc, overriding) in bases.into_iter().map(|d| (d, false)).chain(overrides.into_iter().map(|d| (d, true))) {
            for item in doc.items.iter() {
                let d =
                    self.decls.entry(item.id).or_insert_with(|| Arc::new(declare(doc, item, &self.context.symbols)));
                libraries.extend(d.libraries.iter().cloned());
                for c in &d.calls {
                    let base = out.iter().position(|o| o.name == c.name && o.family == Family::Terraform);
                    let sourced = c.source.is_some() || c.template.is_some();
                    if let (true, Some(at)) = (overriding && !c.component && sourced, base) {
                        out[at].source = c.source.clone();
                        templates.retain(|(i, _)| *i != at);
                        if let Some(t) = &c.template {
                            templates.push((at, t.clone()));
                        }
                        continue;
                    }
                    if names.insert(c.name.clone()) {
                        let family = if c.component {
                            Family::Pcl
                        } else if c.name.starts_with(crate::calls::INCLUDE) {
                            // A Terragrunt include names a plain HCL file.
                            Family::Hcl
                        } else {
                            Family::Terraform
                        };
                        if let Some(t) = &c.template {
                            templates.push((out.len(), t.clone()));
                        }
                        out.push(Call { name: c.name.clone(), source: c.source.clone(), family });
                    }
                }
            }
        }
        // Sources built of const variables: resolved from their values,
        // which any edit of a variable or a tfvars file may change (so the
        // answer is not reused then).
        self.calls_templated = !templates.is_empty();
        if self.calls_templated {
            let consts = const_values(self, docs);
            let mut locals: Locals = HashMap::default();
            for doc in docs.iter().filter(|d| d.file.kind == FileKind::Terraform) {
                for item in doc.items.iter() {
                    let Some(d) = self.decls.get(&item.id) else { continue };
                    for c in d.computed.iter().filter(|c| c.space == Space::Local) {
                        locals.entry(c.name.clone()).or_insert((doc, item));
                    }
                }
            }
            for (i, parts) in templates {
                out[i].source = resolved(&parts, &consts, &locals, 0);
            }
        }
        let ids = docs
            .iter()
            .filter(|d| calling(d))
            .map(|d| (d.file.path.clone(), d.revision(), d.items.iter().map(|i| i.id).collect()));
        let out: Arc<[Call]> = out.into();
        self.calls_seen = Some((ids.collect(), out.clone()));
        self.libraries_seen = libraries.into();
        out
    }

    /// The module's `symbols "LABEL" { source }` blocks, (label, source) in
    /// order: found with [`Memo::shared_calls`] and as cheaply (a keystroke
    /// that changes no such block visits no item; walking the items' texts
    /// cost ~1 ms at each keystroke in a 10 MB module).
    pub fn symbol_requests(&mut self, docs: &[Document]) -> Arc<[(String, String)]> {
        self.shared_calls(docs);
        self.libraries_seen.clone()
    }

    /// Whether `docs` differ from the items `ids` (per calling document,
    /// with its revision) only by items whose calls stay as they were, in
    /// order; if so `ids` becomes theirs.
    fn same_calls(&mut self, ids: &mut [(PathBuf, Revision, Vec<ItemId>)], docs: &[Document]) -> bool {
        let mut calling_docs = docs.iter().filter(|d| calling(d));
        let mut changes = Vec::new();
        for (k, (path, rev, old)) in ids.iter().enumerate() {
            let Some(doc) = calling_docs.next().filter(|d| d.file.path == *path) else { return false };
            if *rev == doc.revision() {
                continue;
            }
            let new = &doc.items;
            let (front, back) = doc.unchanged_since(*rev).unwrap_or_else(|| {
                let n = old.len().min(new.len());
                let front = old.iter().zip(new.iter()).take_while(|(a, b)| **a == b.id).count();
                let back =
                    old.iter().rev().zip(new.iter().rev()).take(n - front).take_while(|(a, b)| **a == b.id).count();
                (front, back)
            });
            // The edited items call what they called (a keystroke in a
            // `module` block's argument, say): the answer is the same.
            let gone = &old[front..old.len() - back];
            let (mut was, mut was_libraries) = (Vec::new(), Vec::new());
            for id in gone {
                let Some(d) = self.decls.get(id) else { return false };
                was.extend(d.calls.iter().map(call_key));
                was_libraries.extend(d.libraries.iter().cloned());
            }
            let came = &new[front..new.len() - back];
            let (mut is, mut is_libraries) = (Vec::new(), Vec::new());
            for item in came {
                let d =
                    self.decls.entry(item.id).or_insert_with(|| Arc::new(declare(doc, item, &self.context.symbols)));
                is.extend(d.calls.iter().map(call_key));
                is_libraries.extend(d.libraries.iter().cloned());
            }
            if was != is || was_libraries != is_libraries {
                return false;
            }
            changes.push((k, doc.revision(), front..old.len() - back, came.iter().map(|i| i.id).collect::<Vec<_>>()));
        }
        if calling_docs.next().is_some() {
            return false;
        }
        for (k, rev, range, came) in changes {
            ids[k].1 = rev;
            // (In place when as many: a keystroke; no move of the ids after.)
            if range.len() == came.len() {
                ids[k].2[range].copy_from_slice(&came);
            } else {
                ids[k].2.splice(range, came);
            }
        }
        true
    }

    /// The module's interface as its callers see it: its variables (the
    /// declaration each name means) and its outputs with their inferred
    /// types (analysing the module if it was not).
    pub fn interface(&mut self, docs: &[Document]) -> Interface {
        let analysis = self.analysis(docs);
        let dir = docs.first().and_then(|d| d.file.path.parent()).map(Path::to_path_buf).unwrap_or_default();
        let mut inputs: Vec<Input> = Vec::new();
        // Override files after the others, as Terraform merges them
        // (overrides.rs): an override's `default` makes a variable
        // optional, its `type` replaces the base's.
        let terraform = docs.iter().filter(|d| matches!(d.file.kind, FileKind::Terraform | FileKind::Hcl));
        let (overriding, base): (Vec<&Document>, Vec<&Document>) =
            terraform.partition(|d| super::overrides::is_override(&d.file.path));
        for (doc, over) in base.iter().map(|d| (d, false)).chain(overriding.iter().map(|d| (d, true))) {
            for item in doc.items.iter() {
                let Some(d) = self.decls.get(&item.id) else { continue };
                for v in &d.vars {
                    if let Some(input) = inputs.iter_mut().find(|i| i.name == v.name) {
                        if over {
                            input.required &= v.required;
                            // (Its place stays the base's: the type's range
                            // would be in another file than `path`.)
                            if let Some(declared) = &v.declared {
                                input.declared = Some(declared.clone());
                                input.value = v.value.clone();
                            }
                        }
                        continue;
                    }
                    let at = item.range.start;
                    let (description, default) = described(doc, item, "variable", &v.name);
                    inputs.push(Input {
                        name: v.name.clone(),
                        declared: v.declared.clone(),
                        value: v.value.clone(),
                        required: v.required,
                        nullable: v.nullable,
                        description,
                        default,
                        path: doc.file.path.clone(),
                        name_range: shift(&v.name_range, at),
                        type_range: v.type_range.as_ref().map(|r| shift(r, at)),
                        deprecated: deprecation(doc, item, "variable", &v.name),
                        ephemeral: ephemeral(doc, item, "variable", &v.name),
                        sensitive: marked(doc, item, "variable", &v.name, "sensitive"),
                    });
                }
            }
        }
        // A PCL component's inputs are its `config`s.
        for doc in docs.iter().filter(|d| d.file.kind == FileKind::Pcl) {
            for item in doc.items.iter() {
                let Some(d) = self.decls.get(&item.id) else { continue };
                for n in d.names.iter().filter(|n| n.what == "config") {
                    if inputs.iter().any(|i| i.name == n.name) {
                        continue;
                    }
                    let (description, default) = described(doc, item, "config", &n.name);
                    inputs.push(Input {
                        name: n.name.clone(),
                        declared: Some(n.ty.clone()),
                        value: n.ty.clone(),
                        required: default.is_none(),
                        nullable: true,
                        description,
                        default,
                        path: doc.file.path.clone(),
                        name_range: shift(&n.name_range, item.range.start),
                        type_range: None,
                        deprecated: None,
                        ephemeral: false,
                        sensitive: false,
                    });
                }
            }
        }
        // Outputs whose values are sensitive, declared so or not (sensitive.rs).
        let marked_outputs = if super::sensitive::applies(docs, super::module_dialect(docs), &self.context) {
            super::sensitive::marked_outputs(docs, &self.context, |i| self.facts.get(&i.id).map(|f| &f.ephemeral))
        } else {
            Vec::new()
        };
        let mut outputs = Vec::new();
        for s in analysis.symbols.iter().filter(|s| s.kind == SymbolKind::Output) {
            let doc = &docs[s.doc];
            let item = doc.items.iter().find(|i| i.range.start <= s.range.start && s.range.end <= i.range.end);
            outputs.push(OutputInfo {
                name: s.name.clone(),
                ty: s.ty.clone(),
                description: item.and_then(|item| described(doc, item, "output", &s.name).0),
                path: doc.file.path.clone(),
                name_range: s.name_range.clone(),
                deprecated: item.and_then(|item| deprecation(doc, item, "output", &s.name)),
                ephemeral: item.is_some_and(|item| ephemeral(doc, item, "output", &s.name)),
                sensitive: item.is_some_and(|item| marked(doc, item, "output", &s.name, "sensitive"))
                    || marked_outputs.contains(&s.name),
                constant: None,
                typed: item.is_some_and(|item| typed(doc, item, &s.name)),
            });
        }
        included_inputs(docs, &analysis, &mut outputs);
        Interface::new(dir, inputs, outputs).with_providers(super::provider_calls::needs(docs))
    }
}

/// Each plain HCL file's `locals`, as one object
/// ([`crate::calls::INCLUDED_LOCALS`]), and its top-level `inputs = { … }`, whole
/// ([`crate::calls::INCLUDED`]) and value by value (named
/// [`crate::calls::included_input`]), with the file as their path: what a Terragrunt unit
/// that includes the file merges into its own (terragrunt.md §3), typed as
/// the file's own analysis typed them, with their constant values.
fn included_inputs(docs: &[Document], analysis: &ModuleAnalysis, outputs: &mut Vec<OutputInfo>) {
    for (n, doc) in docs.iter().enumerate().filter(|(_, d)| d.file.kind == FileKind::Hcl) {
        // The file's `locals`, one object (`include.LABEL.locals`).
        let locals: Vec<&Symbol> =
            analysis.symbols.iter().filter(|s| s.doc == n && s.kind == SymbolKind::Local).collect();
        if let Some(first) = locals.first() {
            outputs.push(OutputInfo {
                name: crate::calls::INCLUDED_LOCALS.to_string(),
                ty: Type::object(locals.iter().map(|s| (s.name.clone(), s.ty.clone()))),
                description: None,
                path: doc.file.path.clone(),
                name_range: first.name_range.clone(),
                deprecated: None,
                ephemeral: false,
                sensitive: false,
                constant: None,
                typed: false,
            });
        }
        let Some(whole) =
            analysis.symbols.iter().find(|s| s.doc == n && s.kind == SymbolKind::Attribute && s.name == "inputs")
        else {
            continue;
        };
        outputs.push(OutputInfo {
            name: crate::calls::INCLUDED.to_string(),
            ty: whole.ty.clone(),
            description: None,
            path: doc.file.path.clone(),
            name_range: whole.name_range.clone(),
            deprecated: None,
            ephemeral: false,
            sensitive: false,
            constant: None,
            typed: false,
        });
        terragrunt::merge::each_input(doc, |item, src, key, k, v| {
            let Some(key) = key else { return };
            let Some(ty) = whole.ty.attribute(&key) else { return };
            outputs.push(OutputInfo {
                name: crate::calls::included_input(&key),
                ty: ty.clone(),
                description: None,
                path: doc.file.path.clone(),
                name_range: shift(&src.range(k), item.range.start),
                deprecated: None,
                ephemeral: false,
                sensitive: false,
                constant: eval(v, src).ok().map(crate::calls::Constant),
                typed: false,
            });
        });
    }
}

/// The constant value of argument `key` of block `IDENT "NAME"` in an
/// item (in a Terraform file only: Terraform 1.15's `deprecated`, 1.10's
/// `ephemeral`).
fn setting(doc: &Document, item: &Item, ident: &str, name: &str, key: &str) -> Option<Value> {
    if doc.file.kind != FileKind::Terraform || !doc.file.dialect.is_terraform() {
        return None;
    }
    let body = item.body(&doc.file.text)?;
    let b =
        body.blocks().find(|b| b.ident.value().as_str() == ident && b.labels.first().map(label_text) == Some(name))?;
    eval(&b.body.get_attribute(key)?.value, item_source(doc, item)).ok()
}

/// The `deprecated` message of a variable or output.
fn deprecation(doc: &Document, item: &Item, ident: &str, name: &str) -> Option<String> {
    match setting(doc, item, ident, name, "deprecated")? {
        Value::String(s) => Some(s),
        _ => None,
    }
}

/// Whether output `name` declares its `type` (Terraform 1.15).
fn typed(doc: &Document, item: &Item, name: &str) -> bool {
    let Some(body) = item.body(&doc.file.text) else { return false };
    let found = body
        .blocks()
        .find(|b| b.ident.value().as_str() == "output" && b.labels.first().map(label_text) == Some(name))
        .is_some_and(|b| b.body.get_attribute("type").is_some());
    found
}

/// Whether a variable or output is declared `ephemeral = true`.
fn ephemeral(doc: &Document, item: &Item, ident: &str, name: &str) -> bool {
    marked(doc, item, ident, name, "ephemeral")
}

/// Whether a variable or output is declared `KEY = true`.
fn marked(doc: &Document, item: &Item, ident: &str, name: &str, key: &str) -> bool {
    matches!(setting(doc, item, ident, name, key), Some(Value::Bool(true)))
}

/// The `description` and the `default`'s text of block `IDENT "NAME"` in
/// an item.
fn described(doc: &Document, item: &Item, ident: &str, name: &str) -> (Option<String>, Option<String>) {
    let Some(body) = item.body(&doc.file.text) else { return (None, None) };
    let src = item_source(doc, item);
    let Some(b) =
        body.blocks().find(|b| b.ident.value().as_str() == ident && b.labels.first().map(label_text) == Some(name))
    else {
        return (None, None);
    };
    let description = b.body.get_attribute("description").and_then(|a| match eval(&a.value, src) {
        Ok(Value::String(s)) => Some(s),
        _ => None,
    });
    let default = b.body.get_attribute("default").map(|a| src.slice(&a.value)).map(|t| {
        let t = t.trim();
        if t.chars().count() > 200 {
            format!("{}…", t.chars().take(200).collect::<String>())
        } else {
            t.to_string()
        }
    });
    (description, default)
}
