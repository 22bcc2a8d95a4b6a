//! A Terraform resource or data source body against its provider schema,
//! as Terraform checks it when it decodes the block: argument types
//! (value-aware), `Unsupported argument` / `Unsupported block type` (with
//! "did you mean"), computed-only attributes that are set, required
//! arguments and `min_items`, `max_items`, deprecated attributes.
//!
//! A schema the user named is not known to match the module's providers
//! (often it is older): what it does not know is a warning naming it, and
//! so is a required argument it lacks, never an error.

use super::*;
use crate::dialects::pulumi_hcl;
use schema::pulumi::Lookup;
use schema::{BlockKind, BlockSchema, Found};

/// Arguments Terraform itself takes in every resource and data source.
const META: [&str; 4] = ["count", "for_each", "provider", "depends_on"];

/// Arguments Terraform itself takes in a `provider` block
/// (`decodeProviderBlock` in internal/configs/provider.go: `alias` and the
/// deprecated `version`; OpenTofu 1.9's `for_each`): the rest of its body
/// is the provider's configuration.
const PROVIDER_META: [&str; 3] = ["alias", "version", "for_each"];

/// Who reports: the resource type and its schema's trust.
struct Site<'a> {
    /// `resource \`google_compute_network\``
    what: String,
    origin: &'a str,
    trusted: bool,
    kind: BlockKind,
}

impl Site<'_> {
    /// An argument or block the schema does not have (or forbids setting).
    fn unsupported(&self, inf: &mut Infer, range: Range<usize>, msg: String) {
        self.report(inf, Code::UnsupportedArgument, range, msg);
    }

    fn missing(&self, inf: &mut Infer, range: Range<usize>, msg: String) {
        self.report(inf, Code::MissingArgument, range, msg);
    }

    fn report(&self, inf: &mut Infer, code: Code, range: Range<usize>, mut msg: String) {
        if self.trusted {
            inf.report(Diagnostic::new(code, range, msg));
        } else {
            msg.push_str(&format!(" (schema {}; the module's provider may differ)", self.origin));
            inf.report(Diagnostic::new(code, range, msg).with_severity(Severity::Warning));
        }
    }
}

/// The checks of `resource "TYPE" "NAME" { … }` or `data "TYPE" "NAME" { … }`.
pub(super) fn resource(inf: &mut Infer, b: &Block, dialect: Dialect) {
    let data = b.ident.value().as_str() == "data";
    let ty = b.labels.first().map(label_text).unwrap_or("");
    let schemas = inf.env().schemas();
    let Some(found) = schemas.as_ref().and_then(|s| s.find(data, ty)) else {
        if dialect == Dialect::PulumiHcl && !data {
            if let Some(s) = &schemas {
                if pulumi_hcl_resource(inf, b, dialect, s) {
                    return;
                }
            }
        }
        // Without a schema every argument is a value, but the
        // meta-arguments: `provider = aws.west` names a configuration.
        let bound = repetition(inf, &b.body);
        for a in b.body.attributes().filter(|a| !META.contains(&a.key.value().as_str())) {
            inf.expr(&a.value);
        }
        body(inf, &b.body, dialect, true);
        inf.unbind(bound);
        return;
    };
    let mut bound = repetition(inf, &b.body);
    // `self` in provisioners and connections: this instance.
    inf.bind("self", found.block.value_type());
    bound += 1;
    let site = site(&found, data, ty);
    let header = header_range(inf, b);
    if found.block.deprecated {
        let d = Diagnostic::new(Code::Deprecated, header.clone(), format!("{} is deprecated", site.what));
        inf.report(d);
    }
    check_body(inf, &b.body, found.block, &site, header, dialect, true);
    inf.unbind(bound);
}

fn site<'a>(found: &Found<'a>, data: bool, ty: &str) -> Site<'a> {
    site_of(found, BlockKind::of_data(data), ty)
}

fn site_of<'a>(found: &Found<'a>, kind: BlockKind, ty: &str) -> Site<'a> {
    Site { what: format!("{} `{ty}`", kind.noun()), origin: found.origin(), trusted: found.file.trusted, kind }
}

/// `provider "NAME" { … }` against the provider's configuration schema
/// (`provider.block` of `providers schema -json`), as Terraform's
/// `ValidateProvider` (internal/terraform/node_provider.go) decodes it:
/// argument types, unknown arguments and blocks, required arguments. A
/// block that sets nothing but its meta-arguments is not validated at all
/// there (the provider may be configured from its environment), so nothing
/// is required of it here either. The schema is the one of the provider
/// whose name is the block's label. False when no schema has it (the
/// caller checks the body as any other).
pub(super) fn provider(inf: &mut Infer, b: &Block, dialect: Dialect) -> bool {
    let name = b.labels.first().map(label_text).unwrap_or("");
    let schemas = inf.env().schemas();
    let Some(found) = schemas.as_ref().and_then(|s| s.find_kind(BlockKind::Provider, name)) else { return false };
    let bound = repetition(inf, &b.body);
    let site = site_of(&found, BlockKind::Provider, name);
    let meta_only = b.body.blocks().next().is_none()
        && b.body.attributes().all(|a| PROVIDER_META.contains(&a.key.value().as_str()));
    if meta_only {
        for a in b.body.attributes().filter(|a| a.key.value().as_str() != "for_each") {
            inf.expr(&a.value);
        }
    } else {
        let header = header_range(inf, b);
        check_body(inf, &b.body, found.block, &site, header, dialect, true);
    }
    inf.unbind(bound);
    true
}

/// `action "TYPE" "NAME" { config { … } }` (Terraform 1.14,
/// `actionBlockSchema` in internal/configs/action.go) and a query file's
/// `list "TYPE" "NAME" { config { … } }` (`decodeQueryListBlock` in
/// internal/configs/query_file.go): the `config` block against the
/// provider's action or list resource schema, as terraform-ls types it.
/// A list's `include_resource` is a bool and its `limit` a number
/// (`QueryListResourceBlockSchema`; website/docs/language/block/tfquery/list.mdx).
pub(super) fn configured(inf: &mut Infer, b: &Block, dialect: Dialect, kind: BlockKind) {
    let ty = b.labels.first().map(label_text).unwrap_or("");
    let schemas = inf.env().schemas();
    let found = schemas.as_ref().and_then(|s| s.find_kind(kind, ty));
    let bound = repetition(inf, &b.body);
    for a in b.body.attributes() {
        let key = a.key.value().as_str();
        if matches!(key, "count" | "for_each" | "provider") {
            continue;
        }
        let t = inf.expr(&a.value);
        let want = match (kind, key) {
            (BlockKind::ListResource, "include_resource") => Type::bool(),
            (BlockKind::ListResource, "limit") => Type::number(),
            _ => continue,
        };
        inf.check(&a.value, &t, &want, None);
    }
    for nested in b.body.blocks() {
        match (&found, nested.ident.value().as_str()) {
            (Some(found), "config") => {
                let site = site_of(found, kind, ty);
                let h = header_range(inf, nested);
                check_body(inf, &nested.body, found.block, &site, h, dialect, false);
            }
            _ => nested_body(inf, &nested.body, dialect),
        }
    }
    inf.unbind(bound);
}

/// From the block type to its last label: where a missing argument is reported.
fn header_range(inf: &Infer, b: &Block) -> Range<usize> {
    inf.range(&b.ident).start..b.labels.last().map_or_else(|| inf.range(&b.ident).end, |l| inf.range(l).end)
}

/// One body (the resource's or a nested block's) against its schema.
fn check_body(
    inf: &mut Infer,
    body: &Body,
    schema: &BlockSchema,
    site: &Site,
    header: Range<usize>,
    dialect: Dialect,
    top: bool,
) {
    let mut counts: HashMap<&str, (u64, bool)> = HashMap::default();
    let provider = site.kind == BlockKind::Provider;
    for a in body.attributes() {
        let key = a.key.value().as_str();
        if top && provider && PROVIDER_META.contains(&key) {
            // `for_each` was checked; `alias` and `version` are strings.
            if key != "for_each" {
                inf.expr(&a.value);
            }
            continue;
        }
        if top && !provider && META.contains(&key) {
            // count and for_each were checked; the others are addresses.
            continue;
        }
        if let (true, None, Some(nb)) = (inf.json, schema.attribute(key), schema.block(key)) {
            if let Some(objects) = objects(&a.value) {
                counts.entry(key).or_default().0 += objects.len() as u64;
                let h = inf.range(&a.key);
                for o in objects {
                    check_object(inf, o, &nb.block, site, h.clone());
                }
                continue;
            }
        }
        let t = inf.expr(&a.value);
        let range = inf.range(&a.key);
        let Some(attr) = schema.attribute(key) else {
            let mut msg = format!("{} has no argument `{key}`", site.what);
            let names = schema.attributes.iter().filter(|a| a.required || a.optional).map(|a| a.name.as_str());
            let names = names.chain(schema.blocks.iter().map(|b| b.name.as_str()));
            if let Some(s) = types::suggest::closest(key, names) {
                msg.push_str(&format!("; did you mean `{s}`?"));
            }
            site.unsupported(inf, range, msg);
            continue;
        };
        if attr.computed && !attr.optional && !attr.required {
            site.unsupported(
                inf,
                range,
                format!("`{key}` of {} is computed by the provider: it cannot be set", site.what),
            );
            continue;
        }
        if attr.deprecated {
            inf.report(Diagnostic::new(Code::Deprecated, range, format!("`{key}` of {} is deprecated", site.what)));
        }
        if !matches!(a.value, Expression::Null(_)) {
            inf.check(&a.value, &t, &attr.input, None);
        }
    }
    for nested in body.blocks() {
        let name = nested.ident.value().as_str();
        match name {
            "lifecycle" if top && !provider => lifecycle(inf, nested, dialect),
            "provisioner" | "connection" if top && !provider => nested_body(inf, &nested.body, dialect),
            // Checked by `check_block` (pulumi_hcl.rs).
            "pulumi" if top && pulumi_hcl::checks::is_options(dialect, nested) => {}
            "dynamic" => {
                let label = nested.labels.first().map(label_text).unwrap_or("");
                counts.entry(label).or_default().1 = true;
                match schema.block(label) {
                    Some(nb) => dynamic_block(inf, nested, &nb.block, site, dialect),
                    // Attributes as blocks, generated.
                    None if schema.attribute(label).is_some() => dynamic(inf, nested, dialect),
                    None => {
                        let r = nested.labels.first().map_or_else(|| inf.range(&nested.ident), |l| inf.range(l));
                        site.unsupported(inf, r, format!("{} has no block `{label}`", site.what));
                        dynamic(inf, nested, dialect);
                    }
                }
            }
            // SDKv2's attributes as blocks: a list of objects written as blocks.
            _ if schema.block(name).is_none() && schema.attribute(name).is_some() => {
                nested_body(inf, &nested.body, dialect)
            }
            _ => match schema.block(name) {
                Some(nb) => {
                    counts.entry(name).or_default().0 += 1;
                    let h = header_range(inf, nested);
                    check_body(inf, &nested.body, &nb.block, site, h, dialect, false);
                }
                None => {
                    let mut msg = format!("{} has no block `{name}`", site.what);
                    let names = schema.blocks.iter().map(|b| b.name.as_str());
                    if let Some(s) = types::suggest::closest(name, names) {
                        msg.push_str(&format!("; did you mean `{s}`?"));
                    }
                    let r = inf.range(&nested.ident);
                    site.unsupported(inf, r, msg);
                    nested_body(inf, &nested.body, dialect);
                }
            },
        }
    }
    for attr in schema.attributes.iter().filter(|a| a.required) {
        if !body.has_attribute(&attr.name) {
            site.missing(inf, header.clone(), format!("{} needs the argument `{}`", site.what, attr.name));
        }
    }
    for nb in &schema.blocks {
        let (n, dynamic) = counts.get(nb.name.as_str()).copied().unwrap_or_default();
        if dynamic {
            continue;
        }
        if n < nb.min_items {
            let at_least = if nb.min_items == 1 { String::new() } else { format!("at least {} ", nb.min_items) };
            site.missing(inf, header.clone(), format!("{} needs {at_least}`{}` block", site.what, nb.name));
        }
        if nb.max_items > 0 && n > nb.max_items {
            let r = header.clone();
            site.unsupported(
                inf,
                r,
                format!("{} takes at most {} `{}` block(s), not {n}", site.what, nb.max_items, nb.name),
            );
        }
    }
}

/// The objects a JSON property holds for a nested block: one object, or an
/// array of them (json.mdx, "Nested Block Mapping"); `None` for any other
/// value (then it is an attribute's, or an error).
fn objects(e: &Expression) -> Option<Vec<&hcl_edit::expr::Object>> {
    match e {
        Expression::Object(o) => Some(vec![o]),
        Expression::Array(items) => {
            items.iter().map(|i| if let Expression::Object(o) = i { Some(o) } else { None }).collect()
        }
        _ => None,
    }
}

/// A JSON object standing for a nested block, checked as
/// [`check_body`] checks a block: its properties against the block's
/// attributes (an object under a nested block's name is that block again),
/// unknown ones and missing required ones reported.
fn check_object(inf: &mut Infer, o: &hcl_edit::expr::Object, schema: &BlockSchema, site: &Site, header: Range<usize>) {
    let mut seen = Vec::new();
    for (key, value) in o.iter() {
        let name = match key {
            hcl_edit::expr::ObjectKey::Ident(id) => id.value().to_string(),
            hcl_edit::expr::ObjectKey::Expression(Expression::String(s)) => s.value().to_string(),
            hcl_edit::expr::ObjectKey::Expression(e) => {
                inf.expr(e);
                inf.expr(value.expr());
                continue;
            }
        };
        let range = inf.range(key);
        let value = value.expr();
        if let (None, Some(nb)) = (schema.attribute(&name), schema.block(&name)) {
            if let Some(objects) = objects(value) {
                for o in objects {
                    check_object(inf, o, &nb.block, site, range.clone());
                }
                seen.push(name);
                continue;
            }
        }
        let t = inf.expr(value);
        match schema.attribute(&name) {
            Some(attr) if attr.computed && !attr.optional && !attr.required => site.unsupported(
                inf,
                range,
                format!("`{name}` of {} is computed by the provider: it cannot be set", site.what),
            ),
            Some(attr) => {
                if !matches!(value, Expression::Null(_)) {
                    inf.check(value, &t, &attr.input, None);
                }
            }
            None => {
                let mut msg = format!("{} has no argument `{name}`", site.what);
                let names = schema.attributes.iter().filter(|a| a.required || a.optional).map(|a| a.name.as_str());
                let names = names.chain(schema.blocks.iter().map(|b| b.name.as_str()));
                if let Some(s) = types::suggest::closest(&name, names) {
                    msg.push_str(&format!("; did you mean `{s}`?"));
                }
                site.unsupported(inf, range, msg);
            }
        }
        seen.push(name);
    }
    for attr in schema.attributes.iter().filter(|a| a.required) {
        if !seen.contains(&attr.name) {
            site.missing(inf, header.clone(), format!("{} needs the argument `{}`", site.what, attr.name));
        }
    }
}

/// `dynamic "NAME" { for_each = …, content { … } }` whose content is a
/// block of the schema.
fn dynamic_block(inf: &mut Infer, b: &Block, schema: &BlockSchema, site: &Site, dialect: Dialect) {
    dynamic_iterator(inf, b);
    for a in b.body.attributes() {
        if !matches!(a.key.value().as_str(), "for_each" | "iterator") {
            inf.expr(&a.value);
        }
    }
    for nested in b.body.blocks() {
        if nested.ident.value().as_str() == "content" {
            let h = header_range(inf, nested);
            check_body(inf, &nested.body, schema, site, h, dialect, false);
        } else {
            nested_body(inf, &nested.body, dialect);
        }
    }
    inf.unbind(1);
}

/// A PCL resource's inputs against its package schema, as Pulumi's binder
/// checks them: each attribute at its input property's type (an output of
/// it is fine: checks look through eventuals), an unknown one
/// `unsupported-argument`, a required one absent `missing-argument`.
pub(super) fn pcl_resource(inf: &mut Infer, b: &Block, dialect: Dialect) {
    let token = b.labels.get(1).map(label_text).unwrap_or("");
    let schemas = inf.env().schemas();
    let (resource, file) = match schemas.as_ref().and_then(|s| s.pulumi_lookup(token)) {
        Some((Lookup::Found(r), file)) => (r, file),
        Some((Lookup::Ambiguous(tokens), file)) => {
            let range = b.labels.get(1).map_or_else(|| header_range(inf, b), |l| inf.range(l));
            inf.report(ambiguous(range, "resource", token, &tokens, &file.label));
            return body(inf, &b.body, dialect, false);
        }
        _ => return body(inf, &b.body, dialect, false),
    };
    let site = Site {
        what: format!("resource `{token}`"),
        origin: &file.label,
        trusted: file.trusted,
        kind: BlockKind::Resource,
    };
    for a in b.body.attributes() {
        let key = a.key.value().as_str();
        let t = inf.expr(&a.value);
        if key.starts_with("__") {
            continue;
        }
        match resource.inputs.iter().find(|p| p.name == key) {
            Some(p) => {
                if !matches!(a.value, Expression::Null(_)) {
                    inf.check(&a.value, &t, &p.ty, None);
                }
            }
            None => {
                let mut msg = format!("{} has no input `{key}`", site.what);
                if let Some(s) = types::suggest::closest(key, resource.inputs.iter().map(|p| p.name.as_str())) {
                    msg.push_str(&format!("; did you mean `{s}`?"));
                }
                let r = inf.range(&a.key);
                site.unsupported(inf, r, msg);
            }
        }
    }
    for nested in b.body.blocks() {
        match nested.ident.value().as_str() {
            "options" => pcl_options(inf, nested),
            _ => nested_body(inf, &nested.body, dialect),
        }
    }
    let header = header_range(inf, b);
    for p in resource.inputs.iter().filter(|p| p.required) {
        if !b.body.has_attribute(&p.name) {
            site.missing(inf, header.clone(), format!("{} needs the input `{}`", site.what, p.name));
        }
    }
}

/// A Pulumi HCL resource against the package resource its type names
/// (pulumi-hcl's resolution, `schema::bridge`; docs/spec/pulumi-hcl.md §6):
/// each argument, by its Terraform name, at its property's type. Only
/// properties of scalars and collections of them are checked: an object is
/// written as a nested block or an attribute as the Terraform schema says,
/// which the package schema does not, and a list given where a scalar is
/// taken may be a `MaxItemsOne` field, projected to one value. With the
/// package's bridge metadata, an unknown argument is `unsupported-argument`
/// and a required input neither set nor written as a block
/// `missing-argument`. `false` when no package resource is named.
fn pulumi_hcl_resource(inf: &mut Infer, b: &Block, dialect: Dialect, schemas: &schema::Schemas) -> bool {
    let ty = b.labels.first().map(label_text).unwrap_or("");
    let packages: Vec<&schema::pulumi::Package> = schemas.packages.iter().map(|p| &*p.package).collect();
    let Some(bridged) = schema::bridge::resource(&packages, ty) else { return false };
    let Some(file) = schemas.packages.iter().find(|p| p.package.resources.contains_key(bridged.token)) else {
        return false;
    };
    let site = Site {
        what: format!("resource `{ty}` ({})", bridged.token),
        origin: &file.label,
        trusted: file.trusted,
        kind: BlockKind::Resource,
    };
    let inputs: Vec<(String, &schema::pulumi::Property)> =
        bridged.resource.inputs.iter().map(|p| (bridged.tf_name(&p.name), p)).collect();
    let bound = repetition(inf, &b.body);
    for a in b.body.attributes() {
        let key = a.key.value().as_str();
        if META.contains(&key) {
            continue;
        }
        let t = inf.expr(&a.value);
        match inputs.iter().find(|(tf, _)| tf == key) {
            Some((_, p)) => {
                let listed = matches!(t.kind(), Kind::Tuple(_) | Kind::List(_) | Kind::Set(_));
                let scalar = matches!(p.ty.kind(), Kind::String | Kind::Number | Kind::Int | Kind::Bool);
                if plain(&p.ty) && !(listed && scalar) && !matches!(a.value, Expression::Null(_)) {
                    inf.check(&a.value, &t, &p.ty, None);
                }
            }
            None if bridged.known => {
                let mut msg = format!("{} has no argument `{key}`", site.what);
                if let Some(s) = types::suggest::closest(key, inputs.iter().map(|(tf, _)| tf.as_str())) {
                    msg.push_str(&format!("; did you mean `{s}`?"));
                }
                let r = inf.range(&a.key);
                site.unsupported(inf, r, msg);
            }
            None => {}
        }
    }
    body(inf, &b.body, dialect, true);
    if bridged.known {
        let header = header_range(inf, b);
        for (tf, _) in inputs.iter().filter(|(_, p)| p.required) {
            if !b.body.has_attribute(tf) && !b.body.blocks().any(|n| n.ident.value().as_str() == tf) {
                site.missing(inf, header.clone(), format!("{} needs the argument `{tf}`", site.what));
            }
        }
    }
    inf.unbind(bound);
    true
}

/// A type of scalars and collections of them (no object).
fn plain(t: &Type) -> bool {
    match t.kind() {
        Kind::Bool | Kind::Int | Kind::Number | Kind::String | Kind::Any => true,
        Kind::List(e) | Kind::Set(e) | Kind::Map(e) => plain(e),
        _ => false,
    }
}

/// A PCL token that several of a package schema's tokens share the
/// canonical form of: a warning naming them all (the schema is the
/// user's file, and Pulumi refuses it), and the resource or invoke left
/// untyped rather than typed by an arbitrary one of them.
pub(crate) fn ambiguous(range: Range<usize>, what: &str, token: &str, tokens: &[&str], origin: &str) -> Diagnostic {
    let list = tokens.iter().map(|t| format!("`{t}`")).collect::<Vec<_>>().join(", ");
    let msg = format!(
        "{what} token `{token}` matches {} tokens of {origin}: {list}; write one of them in full \
         (Pulumi refuses a schema whose tokens share a canonical form)",
        tokens.len()
    );
    Diagnostic::new(Code::UndefinedReference, range, msg).with_severity(Severity::Warning)
}
