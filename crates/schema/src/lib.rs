//! Provider schemas, as `terraform providers schema -json` prints them
//! (format 1.0, providers keyed by source address, and the old 0.1 with bare
//! names): what resources, data sources and provider functions take and
//! give, as our types.
//!
//! Schemas are large (the google provider's is 4 MB) and shared by every
//! module that uses them, so a schema keeps only what typing and checking
//! need: equal types are one shared value, and descriptions are not held.

use std::collections::HashMap;
use std::sync::{Arc, OnceLock};

use serde_json::Value;

use types::Type;

pub mod bridge;
pub mod pulumi;
mod set;
pub use set::{Found, PackageFile, SchemaFile, Schemas, Searched, Source};

/// Every provider of one schema file.
#[derive(Debug, Default)]
pub struct ProviderSchemas {
    /// The file's `format_version` (`1.0`, or `0.1` for Terraform 0.12).
    pub format_version: String,
    pub providers: Vec<Provider>,
}

#[derive(Debug)]
pub struct Provider {
    /// The source address (`registry.terraform.io/hashicorp/google`), or the
    /// bare name in the 0.1 format (`aws`).
    pub address: String,
    pub resources: HashMap<String, Arc<BlockSchema>>,
    pub data_sources: HashMap<String, Arc<BlockSchema>>,
    /// Terraform 1.14's actions: the body of an `action` block's `config`.
    pub actions: HashMap<String, Arc<BlockSchema>>,
    /// Terraform 1.14's list resources: the body of a `list` block's
    /// `config` (Terraform prints the config block itself:
    /// `marshalProvider` in internal/command/jsonprovider/provider.go).
    pub list_resources: HashMap<String, Arc<BlockSchema>>,
    /// The `provider "NAME" { … }` block's own arguments (`provider.block`
    /// in `providers schema -json`; the plugin protocol's provider
    /// schema), under the provider's name: at most one entry.
    pub config: HashMap<String, Arc<BlockSchema>>,
    pub functions: HashMap<String, FunctionSchema>,
}

/// What a schema types: a block kind of a provider's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BlockKind {
    Resource,
    DataSource,
    /// `action "TYPE" "NAME" { config { … } }` (Terraform 1.14).
    Action,
    /// `provider "NAME" { … }`: the provider's configuration, by its name.
    Provider,
    /// `list "TYPE" "NAME" { config { … } }` in a `.tfquery.hcl` file.
    ListResource,
}

impl BlockKind {
    pub fn of_data(data: bool) -> BlockKind {
        if data {
            BlockKind::DataSource
        } else {
            BlockKind::Resource
        }
    }

    /// The kind's key in `providers schema -json`.
    pub fn key(self) -> &'static str {
        match self {
            BlockKind::Resource => "resource_schemas",
            BlockKind::DataSource => "data_source_schemas",
            BlockKind::Action => "action_schemas",
            BlockKind::ListResource => "list_resource_schemas",
            BlockKind::Provider => "provider",
        }
    }

    /// What messages call one: `data source`.
    pub fn noun(self) -> &'static str {
        match self {
            BlockKind::Resource => "resource",
            BlockKind::DataSource => "data source",
            BlockKind::Action => "action",
            BlockKind::ListResource => "list resource",
            BlockKind::Provider => "provider",
        }
    }
}

impl Provider {
    /// The provider's schemas of one kind.
    pub fn of(&self, kind: BlockKind) -> &HashMap<String, Arc<BlockSchema>> {
        match kind {
            BlockKind::Resource => &self.resources,
            BlockKind::DataSource => &self.data_sources,
            BlockKind::Action => &self.actions,
            BlockKind::ListResource => &self.list_resources,
            BlockKind::Provider => &self.config,
        }
    }

    /// The provider's local name: the last part of its address.
    pub fn name(&self) -> &str {
        self.address.rsplit('/').next().unwrap_or(&self.address)
    }
}

/// A block's arguments and nested blocks.
#[derive(Debug, Default)]
pub struct BlockSchema {
    pub attributes: Vec<AttributeSchema>,
    pub blocks: Vec<NestedBlock>,
    pub deprecated: bool,
    /// [`BlockSchema::value_type`], built on first use.
    value: OnceLock<Type>,
}

#[derive(Debug)]
pub struct AttributeSchema {
    pub name: String,
    /// What a reference gives.
    pub ty: Type,
    /// What an argument must convert to: `ty`, except that a protocol-6
    /// nested attribute that is not required may be left out of its object.
    pub input: Type,
    pub required: bool,
    pub optional: bool,
    pub computed: bool,
    pub sensitive: bool,
    pub deprecated: bool,
    /// Terraform 1.11's write-only attribute (`write_only` in the schema),
    /// or a protocol-6 nested attribute with one inside: the only kind of
    /// resource argument an ephemeral value may reach
    /// (`validateResourceForbiddenEphemeralValues` in
    /// internal/terraform/node_resource_validate.go walks up to the
    /// nearest enclosing attribute).
    pub write_only: bool,
}

/// How a nested block repeats, and so the type of its value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Nesting {
    /// One block: an object (null when absent).
    Single,
    /// One block whose absence still gives an object of nulls.
    Group,
    List,
    Set,
    /// Blocks with one label each: a map by label.
    Map,
}

#[derive(Debug)]
pub struct NestedBlock {
    pub name: String,
    pub nesting: Nesting,
    pub block: BlockSchema,
    pub min_items: u64,
    /// 0 when unbounded.
    pub max_items: u64,
}

/// A provider-defined function (`provider::NAME::fn(…)`).
#[derive(Debug)]
pub struct FunctionSchema {
    pub parameters: Vec<(String, Type)>,
    pub variadic: Option<(String, Type)>,
    pub returns: Type,
}

impl BlockSchema {
    /// The object a reference to such a block gives: every attribute, and
    /// each nested block by its nesting.
    pub fn value_type(&self) -> Type {
        self.value.get_or_init(|| self.build_value_type()).clone()
    }

    fn build_value_type(&self) -> Type {
        let attrs = self.attributes.iter().map(|a| (a.name.clone(), a.ty.clone()));
        let blocks = self.blocks.iter().map(|b| (b.name.clone(), nested(b.nesting, b.block.value_type())));
        Type::object(attrs.chain(blocks).collect::<Vec<_>>())
    }

    pub fn attribute(&self, name: &str) -> Option<&AttributeSchema> {
        self.attributes.iter().find(|a| a.name == name)
    }

    pub fn block(&self, name: &str) -> Option<&NestedBlock> {
        self.blocks.iter().find(|b| b.name == name)
    }
}

/// The value of blocks of one object type `t` repeated by `nesting`.
pub fn nested(nesting: Nesting, t: Type) -> Type {
    match nesting {
        Nesting::Single | Nesting::Group => t,
        Nesting::List => Type::list(t),
        Nesting::Set => Type::set(t),
        Nesting::Map => Type::map(t),
    }
}

/// Reads a `providers schema -json` document.
pub fn load(json: &[u8]) -> Result<ProviderSchemas, String> {
    let doc: Value = serde_json::from_slice(json).map_err(|e| format!("not a provider schema: {e}"))?;
    let format_version = doc.get("format_version").and_then(Value::as_str).unwrap_or_default().to_string();
    let Some(schemas) = doc.get("provider_schemas").and_then(Value::as_object) else {
        return Err(
            "not a provider schema: no `provider_schemas` object (expected `terraform providers schema -json` output)"
                .into(),
        );
    };
    let mut types = Interner::default();
    let mut providers = Vec::new();
    for (address, p) in schemas {
        let blocks = |key: &str, types: &mut Interner| -> Result<HashMap<String, Arc<BlockSchema>>, String> {
            let mut out = HashMap::new();
            for (name, s) in p.get(key).and_then(Value::as_object).into_iter().flatten() {
                let block = s.get("block").ok_or_else(|| format!("{address}: {name} has no `block`"))?;
                let schema = block_schema(block, types).map_err(|e| format!("{address}: {name}: {e}"))?;
                out.insert(name.clone(), Arc::new(schema));
            }
            Ok(out)
        };
        let resources = blocks(BlockKind::Resource.key(), &mut types)?;
        let data_sources = blocks(BlockKind::DataSource.key(), &mut types)?;
        let actions = blocks(BlockKind::Action.key(), &mut types)?;
        let list_resources = blocks(BlockKind::ListResource.key(), &mut types)?;
        let mut config = HashMap::new();
        if let Some(block) = p.get("provider").and_then(|c| c.get("block")) {
            let schema = block_schema(block, &mut types).map_err(|e| format!("{address}: provider: {e}"))?;
            let name = address.rsplit('/').next().unwrap_or(address);
            config.insert(name.to_string(), Arc::new(schema));
        }
        let mut functions = HashMap::new();
        for (name, f) in p.get("functions").and_then(Value::as_object).into_iter().flatten() {
            let f = function(f, &mut types).map_err(|e| format!("{address}: function {name}: {e}"))?;
            functions.insert(name.clone(), f);
        }
        providers.push(Provider {
            address: address.clone(),
            resources,
            data_sources,
            actions,
            list_resources,
            config,
            functions,
        });
    }
    providers.sort_by(|a, b| a.address.cmp(&b.address));
    Ok(ProviderSchemas { format_version, providers })
}

/// Equal types from one schema become one shared value (attribute types
/// repeat thousands of times: `string`, `map(string)`, `list(object(…))`).
#[derive(Default)]
struct Interner {
    seen: HashMap<String, Type>,
}

impl Interner {
    fn cty(&mut self, v: &Value) -> Result<Type, String> {
        if let Value::String(s) = v {
            return primitive(s);
        }
        let key = v.to_string();
        if let Some(t) = self.seen.get(&key) {
            return Ok(t.clone());
        }
        let t = cty_type(v, self)?;
        self.seen.insert(key, t.clone());
        Ok(t)
    }
}

fn primitive(s: &str) -> Result<Type, String> {
    match s {
        "string" => Ok(Type::string()),
        "number" => Ok(Type::number()),
        "bool" => Ok(Type::bool()),
        "dynamic" => Ok(Type::any()),
        other => Err(format!("unknown cty type `{other}`")),
    }
}

/// A cty type in its JSON form: `"string"`, `["list", T]`, `["set", T]`,
/// `["map", T]`, `["object", {…}]` (a third element names the optional
/// attributes), `["tuple", […]]`.
fn cty_type(v: &Value, types: &mut Interner) -> Result<Type, String> {
    match v {
        Value::String(s) => primitive(s),
        Value::Array(parts) => match (parts.first().and_then(Value::as_str), parts.get(1)) {
            (Some("list"), Some(e)) => Ok(Type::list(types.cty(e)?)),
            (Some("set"), Some(e)) => Ok(Type::set(types.cty(e)?)),
            (Some("map"), Some(e)) => Ok(Type::map(types.cty(e)?)),
            (Some("tuple"), Some(Value::Array(es))) => {
                Ok(Type::tuple(es.iter().map(|e| types.cty(e)).collect::<Result<_, _>>()?))
            }
            (Some("object"), Some(Value::Object(attrs))) => {
                let optional: Vec<&str> =
                    parts.get(2).and_then(Value::as_array).into_iter().flatten().filter_map(Value::as_str).collect();
                let mut out = Vec::with_capacity(attrs.len());
                for (name, t) in attrs {
                    let t = types.cty(t)?;
                    out.push((name.clone(), if optional.contains(&name.as_str()) { Type::optional(t) } else { t }));
                }
                Ok(Type::object(out))
            }
            _ => Err(format!("unknown cty type {v}")),
        },
        _ => Err(format!("unknown cty type {v}")),
    }
}

fn flag(v: &Value, key: &str) -> bool {
    v.get(key).and_then(Value::as_bool).unwrap_or(false)
}

fn block_schema(block: &Value, types: &mut Interner) -> Result<BlockSchema, String> {
    let mut attributes = Vec::new();
    for (name, a) in block.get("attributes").and_then(Value::as_object).into_iter().flatten() {
        let mut write_only = flag(a, "write_only");
        let (ty, input) = match (a.get("type"), a.get("nested_type")) {
            (Some(t), _) => {
                let t = types.cty(t)?;
                (t.clone(), t)
            }
            // Protocol 6: an attribute with nested attributes of its own.
            (None, Some(n)) => {
                let inner = block_schema(n, types)?;
                write_only |= inner.attributes.iter().any(|a| a.write_only);
                let mode = nesting(n.get("nesting_mode"))?;
                let input = inner.attributes.iter().map(|a| {
                    let t = a.input.clone();
                    (a.name.clone(), if a.required { t } else { Type::optional(t) })
                });
                (nested(mode, inner.value_type()), nested(mode, Type::object(input.collect::<Vec<_>>())))
            }
            (None, None) => return Err(format!("attribute {name} has no type")),
        };
        attributes.push(AttributeSchema {
            name: name.clone(),
            ty,
            input,
            required: flag(a, "required"),
            optional: flag(a, "optional"),
            computed: flag(a, "computed"),
            sensitive: flag(a, "sensitive"),
            deprecated: flag(a, "deprecated"),
            write_only,
        });
    }
    let mut blocks = Vec::new();
    for (name, b) in block.get("block_types").and_then(Value::as_object).into_iter().flatten() {
        let inner = b.get("block").ok_or_else(|| format!("block {name} has no `block`"))?;
        blocks.push(NestedBlock {
            name: name.clone(),
            nesting: nesting(b.get("nesting_mode"))?,
            block: block_schema(inner, types)?,
            min_items: b.get("min_items").and_then(Value::as_u64).unwrap_or(0),
            max_items: b.get("max_items").and_then(Value::as_u64).unwrap_or(0),
        });
    }
    Ok(BlockSchema { attributes, blocks, deprecated: flag(block, "deprecated"), value: OnceLock::new() })
}

fn nesting(v: Option<&Value>) -> Result<Nesting, String> {
    match v.and_then(Value::as_str) {
        Some("single") => Ok(Nesting::Single),
        Some("group") => Ok(Nesting::Group),
        Some("list") => Ok(Nesting::List),
        Some("set") => Ok(Nesting::Set),
        Some("map") => Ok(Nesting::Map),
        other => Err(format!("unknown nesting mode {other:?}")),
    }
}

fn function(f: &Value, types: &mut Interner) -> Result<FunctionSchema, String> {
    let param = |p: &Value, types: &mut Interner| -> Result<(String, Type), String> {
        let name = p.get("name").and_then(Value::as_str).unwrap_or_default().to_string();
        let ty = p.get("type").map(|t| types.cty(t)).transpose()?.unwrap_or_else(Type::any);
        Ok((name, ty))
    };
    let mut parameters = Vec::new();
    for p in f.get("parameters").and_then(Value::as_array).into_iter().flatten() {
        parameters.push(param(p, types)?);
    }
    let variadic = f.get("variadic_parameter").map(|p| param(p, types)).transpose()?;
    let returns = f.get("return_type").map(|t| types.cty(t)).transpose()?.unwrap_or_else(Type::any);
    Ok(FunctionSchema { parameters, variadic, returns })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cty_types() {
        let mut i = Interner::default();
        let t = |s: &str, i: &mut Interner| i.cty(&serde_json::from_str(s).unwrap()).map(|t| t.to_string());
        assert_eq!(t(r#"["map",["set","bool"]]"#, &mut i).unwrap(), "map(set(bool))");
        assert_eq!(
            t(r#"["object",{"a":"number","b":"string"},["b"]]"#, &mut i).unwrap(),
            "object({a = number, b = union(none, string)})"
        );
        assert_eq!(t(r#"["tuple",["string","dynamic"]]"#, &mut i).unwrap(), "tuple([string, any])");
        assert!(t(r#"["list"]"#, &mut i).is_err());
        assert!(t(r#""float""#, &mut i).is_err());
    }

    #[test]
    fn blocks_by_nesting_mode_and_nested_attributes() {
        let json = br#"{"format_version":"1.0","provider_schemas":{"registry.terraform.io/x/y":{
          "resource_schemas":{"y_thing":{"version":0,"block":{
            "attributes":{"name":{"type":"string","required":true},
                          "id":{"type":"string","computed":true},
                          "rules":{"nested_type":{"attributes":{"port":{"type":"number","required":true},"proto":{"type":"string","optional":true}},"nesting_mode":"list"},"optional":true}},
            "block_types":{"one":{"nesting_mode":"single","block":{"attributes":{"a":{"type":"bool","optional":true}}}},
                           "many":{"nesting_mode":"set","block":{},"min_items":1,"max_items":3},
                           "by_key":{"nesting_mode":"map","block":{"attributes":{"v":{"type":"string","optional":true}}}}}}}}}}}"#;
        let s = load(json).unwrap();
        let p = &s.providers[0];
        assert_eq!(p.name(), "y");
        let r = &p.resources["y_thing"];
        assert_eq!(
            r.value_type().to_string(),
            "object({by_key = map(object({v = string})), id = string, many = set(object({})), name = string, one = object({a = bool}), rules = list(object({port = number, proto = string}))})"
        );
        assert!(r.attribute("name").unwrap().required && r.attribute("id").unwrap().computed);
        // An argument may leave a nested attribute out unless it is required.
        assert_eq!(
            r.attribute("rules").unwrap().input.to_string(),
            "list(object({port = number, proto = union(none, string)}))"
        );
        assert_eq!((r.block("many").unwrap().min_items, r.block("many").unwrap().max_items), (1, 3));
        assert!(load(b"{}").is_err());
        assert!(load(b"not json").is_err());
    }
}
