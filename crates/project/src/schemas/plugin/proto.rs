//! The messages of `GetProviderSchema` that are read, in protocol 5 and 6
//! (Terraform's `docs/plugin-protocol/tfplugin5.proto` and
//! `tfplugin6.proto`, https://github.com/hashicorp/terraform): written here
//! by hand with only the fields a schema needs, their names and numbers
//! those of the wire protocol. The .proto files themselves (MPL-2.0) are
//! not copied, nor code generated from them: a few dozen fields do not
//! need a build-time protobuf compiler.
//!
//! The two versions differ in one field that matters: an attribute's tag
//! 10 is a nested type (an object of attributes) in 6, `write_only` in 5.
//! Both are made by one macro, each with its conversion to the JSON of
//! `terraform providers schema -json` (`internal/command/jsonprovider`),
//! so a schema read over the protocol is loaded exactly as that output is.

use serde_json::{json, Map, Value};
use std::collections::HashMap;

/// The JSON name of a `StringKind` (`PLAIN = 0; MARKDOWN = 1`).
fn kind(k: i32) -> &'static str {
    if k == 1 {
        "markdown"
    } else {
        "plain"
    }
}

/// A cty type as the protocol sends it (its JSON, as bytes).
fn cty(bytes: &[u8]) -> Result<Value, String> {
    serde_json::from_slice(bytes).map_err(|e| format!("a type that is not cty JSON: {e}"))
}

/// Puts `v` under `k` when it is not the zero value (Go's `omitempty`).
fn put(m: &mut Map<String, Value>, k: &str, v: Value) {
    let empty = match &v {
        Value::Bool(b) => !b,
        Value::String(s) => s.is_empty(),
        Value::Object(o) => o.is_empty(),
        Value::Number(n) => n.as_i64() == Some(0),
        Value::Null => true,
        Value::Array(a) => a.is_empty(),
    };
    if !empty {
        m.insert(k.into(), v);
    }
}

/// Nesting modes by number: 1 single, 2 list, 3 set, 4 map, 5 group.
fn nesting(n: i32) -> Result<&'static str, String> {
    ["single", "list", "set", "map", "group"]
        .get(usize::try_from(n - 1).map_err(|_| format!("nesting mode {n}"))?)
        .copied()
        .ok_or_else(|| format!("nesting mode {n}"))
}

macro_rules! protocol {
    ($v:ident, { $($tag10:tt)* }, $nested:expr) => {
        pub mod $v {
            use super::*;

            #[derive(Clone, PartialEq, prost::Message)]
            pub struct Response {
                #[prost(message, optional, tag = "1")]
                pub provider: Option<Schema>,
                #[prost(map = "string, message", tag = "2")]
                pub resource_schemas: HashMap<String, Schema>,
                #[prost(map = "string, message", tag = "3")]
                pub data_source_schemas: HashMap<String, Schema>,
                #[prost(message, repeated, tag = "4")]
                pub diagnostics: Vec<Diagnostic>,
                #[prost(map = "string, message", tag = "7")]
                pub functions: HashMap<String, Function>,
                #[prost(map = "string, message", tag = "8")]
                pub ephemeral_resource_schemas: HashMap<String, Schema>,
            }

            #[derive(Clone, PartialEq, prost::Message)]
            pub struct Diagnostic {
                /// 1: error, 2: warning.
                #[prost(int32, tag = "1")]
                pub severity: i32,
                #[prost(string, tag = "2")]
                pub summary: String,
                #[prost(string, tag = "3")]
                pub detail: String,
            }

            #[derive(Clone, PartialEq, prost::Message)]
            pub struct Schema {
                #[prost(int64, tag = "1")]
                pub version: i64,
                #[prost(message, optional, tag = "2")]
                pub block: Option<Block>,
            }

            #[derive(Clone, PartialEq, prost::Message)]
            pub struct Block {
                #[prost(message, repeated, tag = "2")]
                pub attributes: Vec<Attribute>,
                #[prost(message, repeated, tag = "3")]
                pub block_types: Vec<NestedBlock>,
                #[prost(string, tag = "4")]
                pub description: String,
                #[prost(int32, tag = "5")]
                pub description_kind: i32,
                #[prost(bool, tag = "6")]
                pub deprecated: bool,
            }

            #[derive(Clone, PartialEq, prost::Message)]
            pub struct Attribute {
                #[prost(string, tag = "1")]
                pub name: String,
                #[prost(bytes = "vec", tag = "2")]
                pub r#type: Vec<u8>,
                #[prost(string, tag = "3")]
                pub description: String,
                #[prost(bool, tag = "4")]
                pub required: bool,
                #[prost(bool, tag = "5")]
                pub optional: bool,
                #[prost(bool, tag = "6")]
                pub computed: bool,
                #[prost(bool, tag = "7")]
                pub sensitive: bool,
                #[prost(int32, tag = "8")]
                pub description_kind: i32,
                #[prost(bool, tag = "9")]
                pub deprecated: bool,
                $($tag10)*
            }

            #[derive(Clone, PartialEq, prost::Message)]
            pub struct NestedBlock {
                #[prost(string, tag = "1")]
                pub type_name: String,
                #[prost(message, optional, tag = "2")]
                pub block: Option<Block>,
                #[prost(int32, tag = "3")]
                pub nesting: i32,
                #[prost(int64, tag = "4")]
                pub min_items: i64,
                #[prost(int64, tag = "5")]
                pub max_items: i64,
            }

            /// A nested attribute type (protocol 6 only).
            #[derive(Clone, PartialEq, prost::Message)]
            pub struct Object {
                #[prost(message, repeated, tag = "1")]
                pub attributes: Vec<Attribute>,
                #[prost(int32, tag = "3")]
                pub nesting: i32,
            }

            #[derive(Clone, PartialEq, prost::Message)]
            pub struct Function {
                #[prost(message, repeated, tag = "1")]
                pub parameters: Vec<Parameter>,
                #[prost(message, optional, tag = "2")]
                pub variadic_parameter: Option<Parameter>,
                #[prost(message, optional, tag = "3")]
                pub r#return: Option<Return>,
                #[prost(string, tag = "4")]
                pub summary: String,
                #[prost(string, tag = "5")]
                pub description: String,
                #[prost(string, tag = "7")]
                pub deprecation_message: String,
            }

            #[derive(Clone, PartialEq, prost::Message)]
            pub struct Parameter {
                #[prost(string, tag = "1")]
                pub name: String,
                #[prost(bytes = "vec", tag = "2")]
                pub r#type: Vec<u8>,
                #[prost(bool, tag = "3")]
                pub allow_null_value: bool,
                #[prost(string, tag = "5")]
                pub description: String,
            }

            #[derive(Clone, PartialEq, prost::Message)]
            pub struct Return {
                #[prost(bytes = "vec", tag = "1")]
                pub r#type: Vec<u8>,
            }

            /// The nested type of an attribute, in the protocols that have one.
            fn nested_of(a: &Attribute) -> Option<&Object> {
                let f: fn(&Attribute) -> Option<&Object> = $nested;
                f(a)
            }

            fn attributes(list: &[Attribute]) -> Result<Value, String> {
                let mut out = Map::new();
                for a in list {
                    let mut m = Map::new();
                    match nested_of(a) {
                        Some(o) => {
                            let nested = json!({"attributes": attributes(&o.attributes)?, "nesting_mode": nesting(o.nesting)?});
                            m.insert("nested_type".into(), nested);
                        }
                        None => put(&mut m, "type", cty(&a.r#type)?),
                    }
                    put(&mut m, "description", json!(a.description));
                    m.insert("description_kind".into(), json!(kind(a.description_kind)));
                    put(&mut m, "deprecated", json!(a.deprecated));
                    put(&mut m, "required", json!(a.required));
                    put(&mut m, "optional", json!(a.optional));
                    put(&mut m, "computed", json!(a.computed));
                    put(&mut m, "sensitive", json!(a.sensitive));
                    out.insert(a.name.clone(), Value::Object(m));
                }
                Ok(Value::Object(out))
            }

            fn block(b: &Block) -> Result<Value, String> {
                let mut m = Map::new();
                put(&mut m, "attributes", attributes(&b.attributes)?);
                let mut types = Map::new();
                for t in &b.block_types {
                    let mut bt = Map::new();
                    bt.insert("nesting_mode".into(), json!(nesting(t.nesting)?));
                    bt.insert("block".into(), block(t.block.as_ref().unwrap_or(&Block::default()))?);
                    put(&mut bt, "min_items", json!(t.min_items));
                    put(&mut bt, "max_items", json!(t.max_items));
                    types.insert(t.type_name.clone(), Value::Object(bt));
                }
                put(&mut m, "block_types", Value::Object(types));
                put(&mut m, "description", json!(b.description));
                m.insert("description_kind".into(), json!(kind(b.description_kind)));
                put(&mut m, "deprecated", json!(b.deprecated));
                Ok(Value::Object(m))
            }

            fn schema(s: &Schema) -> Result<Value, String> {
                Ok(json!({"version": s.version, "block": block(s.block.as_ref().unwrap_or(&Block::default()))?}))
            }

            fn schemas(map: &HashMap<String, Schema>) -> Result<Value, String> {
                map.iter().map(|(k, s)| Ok((k.clone(), schema(s).map_err(|e| format!("{k}: {e}"))?))).collect()
            }

            fn parameter(p: &Parameter) -> Result<Value, String> {
                let mut m = Map::new();
                put(&mut m, "name", json!(p.name));
                put(&mut m, "description", json!(p.description));
                put(&mut m, "is_nullable", json!(p.allow_null_value));
                m.insert("type".into(), cty(&p.r#type)?);
                Ok(Value::Object(m))
            }

            fn function(f: &Function) -> Result<Value, String> {
                let mut m = Map::new();
                put(&mut m, "description", json!(f.description));
                put(&mut m, "summary", json!(f.summary));
                put(&mut m, "deprecation_message", json!(f.deprecation_message));
                let ret = f.r#return.as_ref().map(|r| cty(&r.r#type)).transpose()?.unwrap_or(json!("dynamic"));
                m.insert("return_type".into(), ret);
                let params: Result<Vec<Value>, String> = f.parameters.iter().map(parameter).collect();
                put(&mut m, "parameters", Value::Array(params?));
                if let Some(v) = &f.variadic_parameter {
                    m.insert("variadic_parameter".into(), parameter(v)?);
                }
                Ok(Value::Object(m))
            }

            /// The response as one provider's entry of `providers schema -json`;
            /// an error diagnostic is the error.
            pub fn to_json(bytes: &[u8]) -> Result<Value, String> {
                let r = <Response as prost::Message>::decode(bytes).map_err(|e| format!("not a schema response: {e}"))?;
                let errors: Vec<String> = r
                    .diagnostics
                    .iter()
                    .filter(|d| d.severity == 1)
                    .map(|d| format!("{}: {}", d.summary, d.detail).trim_end_matches(": ").to_string())
                    .collect();
                if !errors.is_empty() {
                    return Err(errors.join("; "));
                }
                let mut m = Map::new();
                if let Some(p) = &r.provider {
                    m.insert("provider".into(), schema(p)?);
                }
                put(&mut m, "resource_schemas", schemas(&r.resource_schemas)?);
                put(&mut m, "data_source_schemas", schemas(&r.data_source_schemas)?);
                put(&mut m, "ephemeral_resource_schemas", schemas(&r.ephemeral_resource_schemas)?);
                let functions: Result<Map<String, Value>, String> =
                    r.functions.iter().map(|(k, f)| Ok((k.clone(), function(f)?))).collect();
                put(&mut m, "functions", Value::Object(functions?));
                Ok(Value::Object(m))
            }
        }
    };
}

protocol!(v5, {
    #[prost(bool, tag = "10")]
    pub write_only: bool,
}, |_| None);
protocol!(v6, {
    #[prost(message, optional, tag = "10")]
    pub nested_type: Option<Object>,
}, |a| a.nested_type.as_ref());

#[cfg(test)]
mod tests {
    use super::*;
    use prost::Message;

    #[test]
    fn both_protocols_convert_to_what_providers_schema_json_prints() {
        // Protocol 6: a nested attribute type (tag 10 is an object).
        let nested = v6::Object {
            attributes: vec![v6::Attribute {
                name: "port".into(),
                r#type: b"\"number\"".to_vec(),
                required: true,
                ..Default::default()
            }],
            nesting: 2,
        };
        let attr =
            v6::Attribute { name: "rules".into(), optional: true, nested_type: Some(nested), ..Default::default() };
        let block = v6::NestedBlock {
            type_name: "timeouts".into(),
            block: Some(v6::Block::default()),
            nesting: 1,
            max_items: 1,
            ..Default::default()
        };
        let schema = v6::Schema {
            version: 2,
            block: Some(v6::Block { attributes: vec![attr], block_types: vec![block], ..Default::default() }),
        };
        let r6 = v6::Response { resource_schemas: [("x_thing".to_string(), schema)].into(), ..Default::default() };
        let json = v6::to_json(&r6.encode_to_vec()).expect("v6");
        assert_eq!(
            json,
            serde_json::json!({"resource_schemas": {"x_thing": {"version": 2, "block": {
                "attributes": {"rules": {"nested_type": {"attributes": {"port": {"type": "number", "description_kind": "plain", "required": true}}, "nesting_mode": "list"}, "description_kind": "plain", "optional": true}},
                "block_types": {"timeouts": {"nesting_mode": "single", "block": {"description_kind": "plain"}, "max_items": 1}},
                "description_kind": "plain"}}}})
        );
        // Protocol 5: tag 10 is `write_only`, a bool, read past.
        let attr = v5::Attribute {
            name: "id".into(),
            r#type: b"\"string\"".to_vec(),
            computed: true,
            write_only: true,
            ..Default::default()
        };
        let schema = v5::Schema { version: 0, block: Some(v5::Block { attributes: vec![attr], ..Default::default() }) };
        let r5 = v5::Response { data_source_schemas: [("x_data".to_string(), schema)].into(), ..Default::default() };
        let json = v5::to_json(&r5.encode_to_vec()).expect("v5");
        assert_eq!(
            json["data_source_schemas"]["x_data"]["block"]["attributes"]["id"],
            serde_json::json!({"type": "string", "description_kind": "plain", "computed": true})
        );
        // An error diagnostic is the error; bytes that are no message fail.
        let bad = v6::Response {
            diagnostics: vec![v6::Diagnostic { severity: 1, summary: "broken".into(), detail: String::new() }],
            ..Default::default()
        };
        assert_eq!(v6::to_json(&bad.encode_to_vec()).unwrap_err(), "broken");
        assert!(v6::to_json(&[0xff, 0xff, 0xff]).is_err());
    }
}
