//! What items declare: variables, locals and PCL names, read from one
//! top-level item alone (a broken item through a tolerant outline).

use super::suggest::{generalize, missing_type, placeholder};
use super::*;
use crate::dialects::{stacks, symbol_libraries, terragrunt};

// ---------------------------------------------------------------------------
// What items declare.

/// A declared variable, relative to its item.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct VarDecl {
    pub(crate) name: String,
    pub(crate) name_range: Range<usize>,
    pub(super) range: Range<usize>,
    pub(crate) declared: Option<Type>,
    pub(super) type_range: Option<Range<usize>>,
    pub(super) value: Type,
    /// No `default`: a module call must set it.
    pub(crate) required: bool,
    /// Not `nullable = false`.
    pub(super) nullable: bool,
    /// The type of a non-null `default` of a variable of type `any` (or
    /// without a type): what the variable is where no value is passed.
    pub(super) default: Option<Type>,
    /// `const = true` (Terraform 1.15): usable in a module `source` or
    /// `version`; with its default as a string when that is a constant
    /// string, number or bool.
    pub(super) constant: Option<Option<String>>,
    /// A literal `const = true` / `const = false`.
    pub(super) const_set: Option<bool>,
    /// The default as a string when a constant string, number or bool:
    /// what OpenTofu's static evaluation (1.8) uses for a variable without
    /// `const = false` in a module `source`.
    pub(super) static_default: Option<String>,
    /// How it is read: `var`, or a policy file's `input`.
    pub(super) root: &'static str,
    /// `default = null`: where no value is passed the variable is null
    /// (iterating it, or an attribute of it, fails at plan).
    pub(super) null_default: bool,
}

impl VarDecl {
    /// The same variable as other items see it: name, place and types.
    /// Its description, default or validation may differ (they concern
    /// only the variable's own checks).
    pub(super) fn same_for_others(&self, other: &VarDecl) -> bool {
        self.name == other.name
            && self.name_range == other.name_range
            && self.declared == other.declared
            && self.value == other.value
            && self.default == other.default
    }
}

/// A local or PCL top-level attribute: a name whose type is inferred.
#[derive(Clone, Debug)]
pub(super) struct ComputedDecl {
    pub(super) space: Space,
    pub(super) name: String,
    pub(super) name_range: Range<usize>,
    pub(super) range: Range<usize>,
    pub(super) refs: Vec<(Space, String)>,
}

/// A PCL name with a known type: a config, hook, resource or component.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct NameDecl {
    pub(super) name: String,
    pub(super) ty: Type,
    pub(super) name_range: Range<usize>,
    pub(super) what: &'static str,
    /// A PCL resource's type token, whose package schema types it (one
    /// without `options { range = … }`: that makes a list or map of them).
    pub(super) token: Option<String>,
}

impl NameDecl {
    /// The name's type, given the schemas.
    pub(super) fn value(&self, context: &Context) -> Type {
        let schemas = context.schemas.as_ref();
        match self.token.as_deref().and_then(|t| schemas?.pulumi_resource(t)) {
            Some((r, _)) => r.value.clone(),
            None => self.ty.clone(),
        }
    }
}

/// A piece of a module `source` that is not a constant string.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum SourcePart {
    Lit(String),
    /// `var.NAME`
    Var(String),
    /// `local.NAME`
    Local(String),
}

/// The pieces of a `source` made of literals and `var.NAME` only (`None`
/// for a constant string or anything else).
pub(super) fn source_parts(e: &Expression) -> Option<Vec<SourcePart>> {
    use hcl_edit::template::Element;
    match e {
        Expression::Traversal(t) => Some(vec![named_part(t)?]),
        Expression::Parenthesis(p) => source_parts(p.inner()),
        Expression::StringTemplate(t) => {
            let mut out = Vec::new();
            for el in t.iter() {
                match el {
                    Element::Literal(l) => out.push(SourcePart::Lit(l.value().to_string())),
                    Element::Interpolation(i) => match &i.expr {
                        Expression::Traversal(t) => out.push(named_part(t)?),
                        Expression::String(s) => out.push(SourcePart::Lit(s.value().to_string())),
                        _ => return None,
                    },
                    Element::Directive(_) => return None,
                }
            }
            out.iter().any(|p| !matches!(p, SourcePart::Lit(_))).then_some(out)
        }
        _ => None,
    }
}

/// `var.NAME` or `local.NAME`.
fn named_part(t: &hcl_edit::expr::Traversal) -> Option<SourcePart> {
    match (&t.expr, t.operators.as_slice()) {
        (Expression::Variable(v), [op]) => match (v.value().as_str(), op.value()) {
            ("var", TraversalOperator::GetAttr(a)) => Some(SourcePart::Var(a.value().to_string())),
            ("local", TraversalOperator::GetAttr(a)) => Some(SourcePart::Local(a.value().to_string())),
            _ => None,
        },
        _ => None,
    }
}

/// A constant as Terraform converts it to a string (`None`: not a string,
/// number or bool).
pub(super) fn const_string(v: &Value) -> Option<String> {
    match v {
        Value::String(s) | Value::Number(s) => Some(s.clone()),
        Value::Int(i) => Some(i.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

/// How many instances a module call makes: what `module.NAME` is made of.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Repeat {
    One,
    /// `count`: a list of instances.
    Count,
    /// `for_each`: a map of instances.
    ForEach,
    /// OpenTofu's `lifecycle { enabled = … }`: one instance or null.
    Enabled,
    /// A block that does not parse: `any`.
    Unknown,
}

/// [`Repeat::Enabled`] for a body with a `lifecycle` block's `enabled`
/// (OpenTofu 1.11, `resourceLifecycleBlockSchema` in
/// internal/configs/resource.go: "evaluates to null" when false), else `r`.
pub(super) fn enabled_or(r: Repeat, body: &hcl_edit::structure::Body) -> Repeat {
    let enabled = body.get_blocks("lifecycle").any(|l| l.body.has_attribute("enabled"));
    if r == Repeat::One && enabled {
        Repeat::Enabled
    } else {
        r
    }
}

/// A Terraform module call, relative to its item.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct CallDecl {
    pub(crate) name: String,
    pub(crate) name_range: Range<usize>,
    /// The `source`, when a constant string.
    pub(crate) source: Option<String>,
    /// A `source` built of literals and variables (`"./m/${var.env}"`,
    /// Terraform 1.15's const variables), resolved with the module's
    /// variables (see [`Memo::calls`]).
    pub(crate) template: Option<Vec<SourcePart>>,
    pub(crate) repeat: Repeat,
    /// A PCL `component` (named like any PCL name, not `module.NAME`).
    pub(crate) component: bool,
}

impl CallDecl {
    /// What `module.NAME` (a component's `NAME`) is, given what the call
    /// leads to.
    pub(super) fn value(&self, callee: Option<&Callee>) -> Type {
        let Some(i) = callee.and_then(Callee::interface) else {
            return if self.component { Type::output(Type::any()) } else { Type::any() };
        };
        // A component's outputs are eventual, as a resource's are.
        let one = if self.component { Type::output(i.value()) } else { i.value() };
        match self.repeat {
            Repeat::One => one,
            Repeat::Count => Type::list(one),
            Repeat::ForEach => Type::map(one),
            Repeat::Enabled => Type::optional(one),
            Repeat::Unknown if self.component => Type::output(Type::any()),
            Repeat::Unknown => Type::any(),
        }
    }
}

/// A Terraform resource or data source block, relative to its item: the
/// name `TYPE.NAME` (`data.TYPE.NAME`) whose type its schema gives.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct ResourceDecl {
    pub(super) data: bool,
    pub(super) ty: String,
    pub(super) name: String,
    pub(super) name_range: Range<usize>,
    pub(super) repeat: Repeat,
    /// In a Pulumi HCL program: typed from the Pulumi package the type
    /// names when no Terraform schema has it.
    pub(super) pulumi: bool,
}

impl ResourceDecl {
    /// The key of its name in [`Space::Resource`].
    pub(super) fn key(&self) -> String {
        resource_key(self.data, &self.ty, &self.name)
    }

    /// What a reference to it is, given the schemas.
    pub(super) fn value(&self, context: &Context) -> Type {
        let found = context.schemas.as_ref().and_then(|s| s.find(self.data, &self.ty));
        let one = match found {
            Some(found) => found.block.value_type(),
            None => match self.pulumi.then(|| pulumi_value(context, self.data, &self.ty)).flatten() {
                Some(t) => t,
                None => return Type::any(),
            },
        };
        match self.repeat {
            Repeat::One => one,
            Repeat::Count => Type::list(one),
            Repeat::ForEach => Type::map(one),
            Repeat::Enabled => Type::optional(one),
            Repeat::Unknown => Type::any(),
        }
    }
}

/// A Pulumi HCL resource's value from the package resource its type names
/// (pulumi-hcl's resolution, `schema::bridge`): the package's properties
/// (with `id` and `urn`) under their Terraform names, as plain values —
/// a program reads them as Terraform reads attributes, unknown until
/// applied (docs/spec/pulumi-hcl.md §6). Data sources are Pulumi invokes:
/// not typed.
fn pulumi_value(context: &Context, data: bool, ty: &str) -> Option<Type> {
    let schemas = context.schemas.as_ref().filter(|_| !data)?;
    let packages: Vec<&schema::pulumi::Package> = schemas.packages.iter().map(|p| &*p.package).collect();
    let bridged = schema::bridge::resource(&packages, ty)?;
    let types::Kind::Object(attrs) = bridged.resource.value.kind() else { return None };
    // PCL's `id` type is no part of the Terraform language: a string here.
    let plain = attrs.iter().map(|(name, t)| {
        let t = t.strip(types::Strip::Eventuals);
        (bridged.tf_name(name), if matches!(t.kind(), types::Kind::Id) { Type::string() } else { t })
    });
    Some(Type::object(plain.collect::<Vec<_>>()))
}

/// `TYPE.NAME`, or `data.TYPE.NAME` for a data source.
pub(super) fn resource_key(data: bool, ty: &str, name: &str) -> String {
    if data {
        format!("data.{ty}.{name}")
    } else {
        format!("{ty}.{name}")
    }
}

/// How many instances `count` / `for_each` make, from the body's argument names.
pub(super) fn repeat_of<'a>(mut names: impl Iterator<Item = &'a str>) -> Repeat {
    let mut r = Repeat::One;
    for n in names.by_ref() {
        match n {
            "count" => r = Repeat::Count,
            "for_each" => r = Repeat::ForEach,
            _ => {}
        }
    }
    r
}

/// Everything one item declares, relative to its start.
#[derive(Debug, Default)]
pub(crate) struct Decls {
    pub(super) vars: Vec<VarDecl>,
    pub(crate) calls: Vec<CallDecl>,
    pub(super) resource_decls: Vec<ResourceDecl>,
    pub(super) computed: Vec<ComputedDecl>,
    pub(super) names: Vec<NameDecl>,
    pub(super) diagnostics: Vec<Diagnostic>,
    pub(super) type_nodes: Vec<TypeNode>,
    pub(super) symbols: Vec<Symbol>,
    pub(super) resources: Vec<Symbol>,
    /// OpenTofu's `symbols "LABEL" { source = "…" }` blocks: (label,
    /// source), what the project layer loads ([`Memo::symbol_requests`]).
    pub(super) libraries: Vec<(String, String)>,
}

/// The computed names' expressions of an item, in [`declare`]'s order.
pub(super) fn computed_of(body: &Body, kind: FileKind) -> Vec<&Expression> {
    computed_paths(body, kind).into_iter().filter_map(|p| computed_at(body, p)).collect()
}

/// Where a computed value's expression lies in its item's tree: the index
/// of its structure, and within a block the index of the attribute in the
/// block's body. Found once per tree, so that inferring each of the
/// 100 000 locals of one generated block does not walk the block again
/// (which made that quadratic).
pub(super) type ComputedPath = (usize, Option<usize>);

/// The paths of [`computed_of`]'s expressions, in its order.
pub(super) fn computed_paths(body: &Body, kind: FileKind) -> Vec<ComputedPath> {
    let mut out = Vec::new();
    for (si, s) in body.iter().enumerate() {
        match s {
            Structure::Block(b)
                if b.ident.value().as_str() == "locals" && matches!(kind, FileKind::Terraform | FileKind::Hcl) =>
            {
                let attributes = b.body.iter().enumerate().filter(|(_, s)| s.is_attribute());
                out.extend(attributes.map(|(ai, _)| (si, Some(ai))));
            }
            Structure::Block(b) if b.ident.value().as_str() == "local" && kind == FileKind::Terraform => {
                if let Some((_, e)) = packer_local(b) {
                    let at = b.body.iter().position(|s| s.as_attribute().is_some_and(|a| std::ptr::eq(&a.value, e)));
                    out.extend(at.map(|ai| (si, Some(ai))));
                }
            }
            Structure::Attribute(_) if matches!(kind, FileKind::Pcl | FileKind::Hcl) => out.push((si, None)),
            _ => {}
        }
    }
    out
}

/// The expression at `path` (see [`computed_paths`]).
pub(super) fn computed_at(body: &Body, (si, ai): ComputedPath) -> Option<&Expression> {
    let s = body.get(si)?;
    let a = match (s, ai) {
        (Structure::Block(b), Some(ai)) => b.body.get(ai)?.as_attribute()?,
        (Structure::Attribute(a), None) => a,
        _ => return None,
    };
    Some(&a.value)
}

/// Packer's single `local "NAME" { expression = … }` block (for sensitive
/// locals): its label and value.
pub(super) fn packer_local(b: &Block) -> Option<(&BlockLabel, &Expression)> {
    Some((b.labels.first()?, &b.body.get_attribute("expression")?.value))
}

/// What one item declares.
pub(super) fn declare(doc: &Document, item: &Item, symbols: &symbol_libraries::libraries::Libraries) -> Decls {
    let mut d = Decls::default();
    let Some(body) = item.body(&doc.file.text) else { return recovered(doc, item) };
    let src = item_source(doc, item);
    let kind = doc.file.kind;
    let dialect = doc.file.dialect;
    for s in body.iter() {
        match s {
            Structure::Block(b) => declare_block(doc, b, src, symbols, &mut d),
            Structure::Attribute(a) if matches!(kind, FileKind::Pcl | FileKind::Hcl) => {
                if a.key.value().as_str() == "inputs" && crate::is_terragrunt_unit(&doc.file.path) {
                    d.calls.push(terragrunt::unit::own_dir_decl(src.range(&a.key)));
                }
                d.computed.push(ComputedDecl {
                    space: Space::Pcl,
                    name: a.key.value().to_string(),
                    name_range: src.range(&a.key),
                    range: src.range(a),
                    refs: references(&a.value, dialect),
                });
            }
            Structure::Attribute(_) => {}
        }
    }
    if matches!(kind, FileKind::Terraform | FileKind::Pcl | FileKind::Hcl) {
        resources(doc, &body, src, &mut d.resources);
    }
    if kind == FileKind::TfTest {
        test_calls(doc, &body, src, &mut d);
    }
    d
}

/// What a broken item still declares, all of it `any`: its own syntax
/// error is the one diagnostic it costs, and references to its names are
/// not "undefined" anywhere else.
pub(super) fn recovered(doc: &Document, item: &Item) -> Decls {
    let mut d = Decls::default();
    let text = &doc.file.text[item.range.clone()];
    let o = outline(text);
    let kind = doc.file.kind;
    // A name's declaration runs to the end of its line, as far as a tolerant reader can tell.
    let computed = |d: &mut Decls, space: Space, n: &Name| {
        let end = text[n.range.end..].find('\n').map_or(text.len(), |p| n.range.end + p);
        d.computed.push(ComputedDecl {
            space,
            name: n.text.clone(),
            name_range: n.range.clone(),
            range: n.range.start..end,
            refs: Vec::new(),
        })
    };
    if kind == FileKind::TfTest {
        recovered_test_calls(doc, text, o.block.as_ref().map(|b| b.text.as_str()), o.labels.first(), &mut d);
        if o.block.as_ref().is_some_and(|b| b.text == "variables") {
            for n in &o.attributes {
                d.calls.push(CallDecl {
                    template: None,
                    name: crate::calls::test_var(&crate::calls::test_file_name(&doc.file.path), &n.text),
                    name_range: n.range.clone(),
                    source: None,
                    repeat: Repeat::Unknown,
                    component: false,
                });
            }
        }
    }
    let Some(block) = &o.block else {
        if matches!(kind, FileKind::Pcl | FileKind::Hcl) {
            o.attributes.iter().for_each(|n| computed(&mut d, Space::Pcl, n));
        }
        return d;
    };
    let range = 0..item.range.len();
    match (block_ident(&block.text, &doc.file.path), kind, o.labels.first()) {
        ("variable", FileKind::Terraform | FileKind::Hcl, Some(label)) => d.vars.push(VarDecl {
            root: var_root(&doc.file.path),
            name: label.text.clone(),
            name_range: label.range.clone(),
            range,
            declared: None,
            type_range: None,
            value: Type::any(),
            // Unknown: a broken declaration costs its own diagnostic only.
            required: false,
            nullable: true,
            default: None,
            constant: None,
            const_set: None,
            static_default: None,
            null_default: false,
        }),
        ("locals", FileKind::Terraform | FileKind::Hcl, _) => {
            o.attributes.iter().for_each(|n| computed(&mut d, Space::Local, n));
        }
        ("module", FileKind::Terraform, Some(label)) => d.calls.push(CallDecl {
            name: label.text.clone(),
            name_range: label.range.clone(),
            source: None,
            template: None,
            repeat: Repeat::Unknown,
            component: false,
        }),
        // Like a parsed block, so that typing in a resource keeps patching.
        ("resource" | "data", FileKind::Terraform, Some(ty)) if doc.file.dialect.is_terraform() => {
            if let Some(label) = o.labels.get(1) {
                d.resource_decls.push(ResourceDecl {
                    data: block.text == "data",
                    ty: ty.text.clone(),
                    name: label.text.clone(),
                    name_range: label.range.clone(),
                    repeat: repeat_of(o.attributes.iter().map(|a| a.text.as_str())),
                    pulumi: doc.file.dialect == Dialect::PulumiHcl,
                });
            }
        }
        ("unit" | "stack", FileKind::Hcl, Some(label)) if terragrunt::stack::is_stack_file(&doc.file.path) => {
            d.names.push(NameDecl {
                name: terragrunt::stack::component_name(&block.text, &label.text),
                ty: Type::any(),
                name_range: label.range.clone(),
                what: if block.text == "unit" { "unit" } else { "stack" },
                token: None,
            });
        }
        ("config" | "resource" | "component" | "read" | "hook", FileKind::Pcl | FileKind::Hcl, Some(label)) => {
            let label = if block.text == "hook" { o.labels.last().unwrap_or(label) } else { label };
            let (ty, what) = match block.text.as_str() {
                "config" => (Type::any(), "config"),
                "hook" => (Type::any(), "hook"),
                "resource" => (Type::output(Type::any()), "resource"),
                "component" => (Type::output(Type::any()), "component"),
                _ => (Type::output(Type::any()), "read"),
            };
            let token = o.labels.get(1).filter(|_| what == "resource").map(|t| t.text.clone());
            d.names.push(NameDecl { name: label.text.clone(), ty, name_range: label.range.clone(), what, token });
        }
        _ => {}
    }
    d
}

/// What one top-level block declares.
pub(super) fn declare_block(
    doc: &Document,
    b: &Block,
    src: Source<'_>,
    symbols: &symbol_libraries::libraries::Libraries,
    d: &mut Decls,
) {
    let dialect = doc.file.dialect;
    let kind = doc.file.kind;
    let ident = block_ident(b.ident.value().as_str(), &doc.file.path);
    match (ident, kind) {
        ("variable", FileKind::Terraform | FileKind::Hcl) => {
            let Some(label) = b.labels.first() else { return };
            let (declared, value, type_range) = match b.body.get_attribute("type") {
                Some(a) => {
                    let te = symbol_libraries::libraries::parse_module_type(
                        &a.value,
                        src,
                        TypeContext::variable(dialect),
                        symbols,
                    );
                    d.diagnostics.extend(te.diagnostics);
                    d.type_nodes.extend(te.nodes);
                    let range = src.range(&a.value);
                    // `type = any` with a default that says more: the type
                    // to narrow it to (terraform-ls#1476's other half).
                    let any = doc.file.text.get(range.clone()).is_some_and(|t| t.trim() == "any");
                    if let (true, true, Some(v)) = (any, dialect.is_terraform(), b.body.get_attribute("default")) {
                        let default = generalize(&Infer::new(&Empty(dialect), src).expr(&v.value));
                        // Only a type that says everything (`suggested_type`).
                        if let Some(t) = super::suggest::suggested_type(&[default], true) {
                            let name = label_text(label);
                            let message = format!(
                                "variable `{name}` has `type = any`, so any value is accepted; its default suggests `type = {t}`"
                            );
                            d.diagnostics.push(Diagnostic::new(Code::MissingType, range.clone(), message));
                        }
                    }
                    (Some(te.declared), te.value, Some(range))
                }
                None => {
                    let value = match b.body.get_attribute("default") {
                        Some(v) if !placeholder(&v.value) => {
                            generalize(&Infer::new(&Empty(dialect), src).expr(&v.value))
                        }
                        _ => Type::any(),
                    };
                    if dialect.is_terraform() {
                        d.diagnostics.push(missing_type(label_text(label), src.range(label), &value));
                    }
                    (None, value, None)
                }
            };
            // `type = any` (or none): where no value is passed, the
            // default's own type (Terraform converts it to `any` unchanged).
            let default = match b.body.get_attribute("default") {
                Some(v) if declared.as_ref().is_none_or(Type::is_any) => {
                    Some(Infer::new(&Empty(dialect), src).expr(&v.value)).filter(|t| !t.is_none() && !t.is_any())
                }
                _ => None,
            };
            d.vars.push(VarDecl {
                root: var_root(&doc.file.path),
                null_default: matches!(b.body.get_attribute("default").map(|a| &a.value), Some(Expression::Null(_))),
                default,
                name: label_text(label).to_string(),
                name_range: src.range(label),
                range: src.range(b),
                declared,
                type_range,
                value,
                required: !b.body.has_attribute("default"),
                nullable: !matches!(
                    b.body.get_attribute("nullable").map(|a| &a.value),
                    Some(Expression::Bool(x)) if !*x.value()
                ),
                constant: matches!(
                    b.body.get_attribute("const").map(|a| &a.value),
                    Some(Expression::Bool(x)) if *x.value()
                )
                .then(|| {
                    let d = b.body.get_attribute("default")?;
                    eval(&d.value, src).ok().as_ref().and_then(const_string)
                }),
                const_set: match b.body.get_attribute("const").map(|a| &a.value) {
                    Some(Expression::Bool(x)) => Some(*x.value()),
                    _ => None,
                },
                static_default: b
                    .body
                    .get_attribute("default")
                    .and_then(|d| eval(&d.value, src).ok().as_ref().and_then(const_string)),
            });
        }
        ("module", FileKind::Terraform) if dialect.is_terraform() => {
            let Some(label) = b.labels.first() else { return };
            let source = b.body.get_attribute("source").and_then(|a| match eval(&a.value, src) {
                Ok(Value::String(s)) => Some(s),
                _ => None,
            });
            let template =
                b.body.get_attribute("source").filter(|_| source.is_none()).and_then(|a| source_parts(&a.value));
            let repeat = if b.body.has_attribute("count") {
                Repeat::Count
            } else if b.body.has_attribute("for_each") {
                Repeat::ForEach
            } else {
                Repeat::One
            };
            d.calls.push(CallDecl {
                name: label_text(label).to_string(),
                name_range: src.range(label),
                source,
                template,
                repeat: enabled_or(repeat, &b.body),
                component: false,
            });
        }
        ("resource" | "data", FileKind::Terraform) if dialect.is_terraform() => {
            let (Some(ty), Some(label)) = (b.labels.first(), b.labels.get(1)) else { return };
            d.resource_decls.push(ResourceDecl {
                data: ident == "data",
                ty: label_text(ty).to_string(),
                name: label_text(label).to_string(),
                name_range: src.range(label),
                repeat: enabled_or(repeat_of(b.body.attributes().map(|a| a.key.value().as_str())), &b.body),
                pulumi: dialect == Dialect::PulumiHcl,
            });
        }
        ("component", FileKind::Hcl) if stacks::components::is_component_file(&doc.file.path) => {
            d.calls.extend(stacks::components::component_decl(b, src))
        }
        ("symbols", FileKind::Terraform) => {
            if let Some(label) = b.labels.first() {
                let source = match b.body.get_attribute("source").map(|a| &a.value) {
                    Some(Expression::String(s)) => s.value().to_string(),
                    _ => String::new(),
                };
                d.libraries.push((label_text(label).to_string(), source));
            }
        }
        // A Terragrunt stack's components: `unit.NAME.path`, `stack.NAME.path`.
        ("unit" | "stack", FileKind::Hcl) if terragrunt::stack::is_stack_file(&doc.file.path) => {
            if let Some(label) = b.labels.first() {
                let name = terragrunt::stack::component_name(ident, label_text(label));
                d.symbols.push(Symbol {
                    address: name.clone(),
                    name: label_text(label).to_string(),
                    kind: SymbolKind::Resource,
                    name_range: src.range(label),
                    range: src.range(b),
                    ty: terragrunt::stack::component_type(),
                    doc: 0,
                });
                d.names.push(NameDecl {
                    name,
                    ty: terragrunt::stack::component_type(),
                    name_range: src.range(label),
                    what: if ident == "unit" { "unit" } else { "stack" },
                    token: None,
                });
            }
        }
        ("terraform", FileKind::Hcl) if crate::is_terragrunt_unit(&doc.file.path) => {
            d.calls.extend(terragrunt::unit::terraform_decl(b, src))
        }
        ("include", FileKind::Hcl) if crate::is_terragrunt_unit(&doc.file.path) => {
            d.calls.extend(terragrunt::unit::include_decl(b, src))
        }
        ("dependency", FileKind::Hcl) if crate::is_terragrunt_unit(&doc.file.path) => {
            d.calls.extend(terragrunt::dependency::decl(b, src))
        }
        ("locals", FileKind::Terraform | FileKind::Hcl) => {
            for a in b.body.attributes() {
                d.computed.push(ComputedDecl {
                    space: Space::Local,
                    name: a.key.value().to_string(),
                    name_range: src.range(&a.key),
                    range: src.range(a),
                    refs: references(&a.value, dialect),
                });
            }
        }
        ("local", FileKind::Terraform) => {
            if let Some((label, value)) = packer_local(b) {
                d.computed.push(ComputedDecl {
                    space: Space::Local,
                    name: label_text(label).to_string(),
                    name_range: src.range(label),
                    range: src.range(b),
                    refs: references(value, dialect),
                });
            }
        }
        ("config", FileKind::Pcl | FileKind::Hcl) => {
            let Some(label) = b.labels.first() else { return };
            let name = label_text(label).to_string();
            let name_range = src.range(label);
            let te = config_type(b, src, dialect);
            if let Some(te) = &te {
                d.diagnostics.extend(te.diagnostics.iter().cloned());
                d.type_nodes.extend(te.nodes.iter().cloned());
            }
            let ty = config_value_type(b, te.map(|t| t.declared));
            d.symbols.push(Symbol {
                address: format!("config.{name}"),
                name: name.clone(),
                kind: SymbolKind::Config,
                name_range: name_range.clone(),
                range: src.range(b),
                ty: ty.clone(),
                doc: 0,
            });
            d.names.push(NameDecl { name, ty, name_range, what: "config", token: None });
        }
        ("hook", FileKind::Pcl) => {
            // `hook KIND "NAME"`: resources name hooks in `options { hooks = … }`.
            let Some(label) = b.labels.last() else { return };
            d.names.push(NameDecl {
                name: label_text(label).to_string(),
                ty: Type::any(),
                name_range: src.range(label),
                what: "hook",
                token: None,
            });
        }
        ("resource" | "component" | "read", FileKind::Pcl | FileKind::Hcl) => {
            let Some(label) = b.labels.first() else { return };
            let what = match ident {
                "resource" => "resource",
                "component" => "component",
                _ => "read",
            };
            if ident == "component" && kind == FileKind::Pcl {
                d.calls.push(CallDecl {
                    name: label_text(label).to_string(),
                    name_range: src.range(label),
                    source: b.labels.get(1).map(|l| label_text(l).to_string()),
                    template: None,
                    repeat: component_repeat(&b.body),
                    component: true,
                });
            }
            // Without a schema, every attribute of a resource is an output of unknown type.
            let ranged = b.body.get_blocks("options").any(|o| o.body.has_attribute("range"));
            let token = b.labels.get(1).filter(|_| what == "resource" && !ranged).map(|t| label_text(t).to_string());
            d.names.push(NameDecl {
                name: label_text(label).to_string(),
                ty: Type::output(Type::any()),
                name_range: src.range(label),
                what,
                token,
            });
        }
        _ => {}
    }
}
/// The type label of a PCL `config` or `output`: a quoted type expression
/// (spans mapped into the label) or a bare keyword.
pub(super) fn label_type(label: &BlockLabel, src: Source<'_>, dialect: Dialect) -> TypeExpr {
    let range = src.range(label);
    match label {
        BlockLabel::String(s) => {
            let mut te = parse_type_str(s.value(), TypeContext::new(dialect));
            let base = range.start + 1;
            for d in &mut te.diagnostics {
                d.range = d.range.start + base..d.range.end + base;
            }
            for n in &mut te.nodes {
                n.range = n.range.start + base..n.range.end + base;
                n.name_range = n.name_range.start + base..n.name_range.end + base;
            }
            te
        }
        BlockLabel::Ident(i) => {
            let mut te = parse_type_str(i.value().as_str(), TypeContext::new(dialect));
            for d in &mut te.diagnostics {
                d.range = d.range.start + range.start..d.range.end + range.start;
            }
            for n in &mut te.nodes {
                n.range = n.range.start + range.start..n.range.end + range.start;
                n.name_range = n.name_range.start + range.start..n.name_range.end + range.start;
            }
            te
        }
    }
}

pub(super) fn config_type(b: &Block, src: Source<'_>, dialect: Dialect) -> Option<TypeExpr> {
    b.labels.get(1).map(|l| label_type(l, src, dialect))
}

/// Pulumi's adjustments to a config type (type-expressions.md §3).
pub(super) fn config_value_type(b: &Block, declared: Option<Type>) -> Type {
    let Some(t) = declared else { return Type::any() };
    let optional_attrs = |t: &Type| match t.kind() {
        Kind::Object(attrs) => Type::object(attrs.iter().map(|(k, v)| (k.clone(), Type::optional(v.clone())))),
        _ => t.clone(),
    };
    let mut t = match t.kind() {
        Kind::List(e) => Type::list(optional_attrs(e)),
        Kind::Map(e) => Type::map(optional_attrs(e)),
        _ => optional_attrs(&t),
    };
    if matches!(b.body.get_attribute("default").map(|a| &a.value), Some(Expression::Null(_))) {
        t = Type::optional(t);
    }
    if matches!(b.body.get_attribute("secret").map(|a| &a.value), Some(Expression::Bool(v)) if *v.value()) {
        t = Type::output(t);
    }
    t
}

pub(crate) fn label_text(l: &BlockLabel) -> &str {
    match l {
        BlockLabel::Ident(i) => i.value().as_str(),
        BlockLabel::String(s) => s.value().as_str(),
    }
}

/// An object key's name when it is one written out (`name`, `"name"`).
pub(crate) fn literal_key(key: &hcl_edit::expr::ObjectKey) -> Option<String> {
    match key {
        hcl_edit::expr::ObjectKey::Ident(id) => Some(id.value().to_string()),
        hcl_edit::expr::ObjectKey::Expression(Expression::String(s)) => Some(s.value().to_string()),
        hcl_edit::expr::ObjectKey::Expression(_) => None,
    }
}

/// A block's type as declarations read it: a policy file's `input "NAME"`
/// is a variable (`input.NAME`; developer.hashicorp.com/terraform/policy/reference/policy/input:
/// "These blocks behave like variable blocks within Terraform").
pub(super) fn block_ident<'a>(ident: &'a str, path: &Path) -> &'a str {
    if ident == "input" && crate::is_policy_file(path) {
        "variable"
    } else {
        ident
    }
}

/// How a file's variables are read: a policy file's are `input.NAME`.
fn var_root(path: &Path) -> &'static str {
    if crate::is_policy_file(path) {
        "input"
    } else {
        "var"
    }
}
