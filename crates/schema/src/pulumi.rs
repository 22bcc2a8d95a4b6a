//! Pulumi package schemas (`pulumi package get-schema` output): what a PCL
//! resource takes (`inputProperties`, `requiredInputs`) and gives
//! (`properties`, plus `id` and `urn`), and what an `invoke` returns, as
//! our types. As Pulumi's binder types them: resource attributes are
//! `output(T)`, an invoke is `promise(T)` (`output(T)` when an argument is
//! an output); `$ref`s to `#/types/…` are objects (or an enum's
//! underlying primitive), properties outside `required` may be null.

use std::collections::HashMap;

use regex::{Regex, RegexBuilder};
use serde_json::Value;

use types::Type;

/// One package.
#[derive(Debug, Default)]
pub struct Package {
    pub name: String,
    pub version: String,
    pub resources: HashMap<String, PulumiResource>,
    pub functions: HashMap<String, PulumiFunction>,
    /// `meta.moduleFormat`: the part of a token's module that is its
    /// module (its first group), as Pulumi's `TokenToModule` reads it;
    /// none is Pulumi's default `(.*)`, the whole module.
    module_format: Option<Regex>,
    /// The schema's resource and function tokens by their canonical form
    /// (`pkg:module:Name`), each list sorted: a lookup that is no exact
    /// token goes through these, never through a `HashMap`'s (per-process
    /// random) order.
    resource_tokens: HashMap<String, Vec<String>>,
    function_tokens: HashMap<String, Vec<String>>,
}

/// A resource input (or an invoke's argument).
#[derive(Debug)]
pub struct Property {
    pub name: String,
    pub ty: Type,
    pub required: bool,
}

#[derive(Debug)]
pub struct PulumiResource {
    pub inputs: Vec<Property>,
    /// The object a reference gives: every property as `output(T)`, with
    /// `id` and `urn`.
    pub value: Type,
}

#[derive(Debug)]
pub struct PulumiFunction {
    pub inputs: Vec<Property>,
    /// The result object (not yet wrapped in `promise` / `output`).
    pub outputs: Type,
}

/// How deep `$ref`s are followed (schemas have recursive types).
const REF_DEPTH: usize = 12;

struct Reader<'a> {
    types: Option<&'a serde_json::Map<String, Value>>,
    /// Object types by token, built once each.
    seen: HashMap<String, Type>,
    /// Tokens being built (a recursive reference is `any`).
    stack: Vec<String>,
}

/// Reads a package schema.
pub fn load_package(json: &[u8]) -> Result<Package, String> {
    let doc: Value = serde_json::from_slice(json).map_err(|e| format!("not a package schema: {e}"))?;
    let name = doc.get("name").and_then(Value::as_str).ok_or("not a package schema: no `name`")?.to_string();
    let version = doc.get("version").and_then(Value::as_str).unwrap_or_default().to_string();
    let module_format = match doc.pointer("/meta/moduleFormat").and_then(Value::as_str) {
        // Pulumi fails to bind a schema whose format does not compile.
        Some(f) => Some(module_format(f).map_err(|e| format!("not a package schema: `meta.moduleFormat`: {e}"))?),
        None => None,
    };
    let mut r = Reader { types: doc.get("types").and_then(Value::as_object), seen: HashMap::new(), stack: Vec::new() };
    let mut resources = HashMap::new();
    for (token, res) in doc.get("resources").and_then(Value::as_object).into_iter().flatten() {
        let inputs = r.properties(res.get("inputProperties"), res.get("requiredInputs"));
        let required = names(res.get("required"));
        let mut attrs: Vec<(String, Type)> = Vec::new();
        for (p, spec) in res.get("properties").and_then(Value::as_object).into_iter().flatten() {
            let t = r.ty(spec);
            let t = if required.contains(&p.as_str()) { t } else { Type::optional(t) };
            attrs.push((p.clone(), Type::output(t)));
        }
        // The binder's own `id` and `urn`, which a schema property of the
        // name replaces (`computeBaseResourceInputOutputTypes` of
        // pkg/codegen/pcl/binder_resource.go): `id` is `output(id)` since
        // pulumi/pulumi #22702 (df649d6a3b, 2026-08-03).
        for (p, t) in [("id", Type::id()), ("urn", Type::string())] {
            if !attrs.iter().any(|(n, _)| n == p) {
                attrs.push((p.to_string(), Type::output(t)));
            }
        }
        resources.insert(token.clone(), PulumiResource { inputs, value: Type::object(attrs) });
    }
    let mut functions = HashMap::new();
    for (token, f) in doc.get("functions").and_then(Value::as_object).into_iter().flatten() {
        let ins = f.get("inputs");
        let inputs = r.properties(ins.and_then(|i| i.get("properties")), ins.and_then(|i| i.get("required")));
        let outs = f.get("outputs");
        let outputs = match outs {
            Some(o) if o.get("properties").is_some() => r.object(o),
            Some(o) => r.ty(o),
            None => Type::any(),
        };
        functions.insert(token.clone(), PulumiFunction { inputs, outputs });
    }
    let resource_tokens = by_canonical(resources.keys(), module_format.as_ref());
    let function_tokens = by_canonical(functions.keys(), module_format.as_ref());
    Ok(Package { name, version, resources, functions, module_format, resource_tokens, function_tokens })
}

/// The longest `meta.moduleFormat` read, in bytes: real ones are a few
/// (`(.*)(?:/[^/]*)`); a schema is a file a repository can hold.
pub const MODULE_FORMAT_LEN: usize = 1024;

/// The most a compiled `meta.moduleFormat` (and each of its lazy DFA's
/// caches) may take: a costly one in a repository's schema froze the server
/// 14 s (and a 4 MB one `check` for over 300 s); the regex crate's defaults
/// are 10 MB and 2 MB.
pub const MODULE_FORMAT_SIZE: usize = 1 << 20;

/// `meta.moduleFormat` compiled within [`MODULE_FORMAT_LEN`] and
/// [`MODULE_FORMAT_SIZE`]: past them, the schema does not read (as one
/// whose format does not compile, which Pulumi refuses).
fn module_format(f: &str) -> Result<Regex, String> {
    if f.len() > MODULE_FORMAT_LEN {
        return Err(format!("longer than {MODULE_FORMAT_LEN} bytes"));
    }
    RegexBuilder::new(f)
        .size_limit(MODULE_FORMAT_SIZE)
        .dfa_size_limit(MODULE_FORMAT_SIZE)
        .nest_limit(64)
        .build()
        .map_err(|e| e.to_string())
}

fn names(v: Option<&Value>) -> Vec<&str> {
    v.and_then(Value::as_array).into_iter().flatten().filter_map(Value::as_str).collect()
}

impl Reader<'_> {
    fn properties(&mut self, props: Option<&Value>, required: Option<&Value>) -> Vec<Property> {
        let required = names(required);
        props
            .and_then(Value::as_object)
            .into_iter()
            .flatten()
            .map(|(name, spec)| Property {
                name: name.clone(),
                ty: self.ty(spec),
                required: required.contains(&name.as_str()),
            })
            .collect()
    }

    /// An object type spec: its properties, those outside `required` optional.
    fn object(&mut self, spec: &Value) -> Type {
        let required = names(spec.get("required"));
        let mut attrs = Vec::new();
        for (p, s) in spec.get("properties").and_then(Value::as_object).into_iter().flatten() {
            let t = self.ty(s);
            attrs.push((p.clone(), if required.contains(&p.as_str()) { t } else { Type::optional(t) }));
        }
        Type::object(attrs)
    }

    /// A type spec: primitives, arrays, maps, `$ref`s and `oneOf`.
    fn ty(&mut self, spec: &Value) -> Type {
        if let Some(r) = spec.get("$ref").and_then(Value::as_str) {
            return self.reference(r);
        }
        if let Some(alts) = spec.get("oneOf").and_then(Value::as_array) {
            return Type::union(alts.iter().map(|a| self.ty(a)).collect::<Vec<_>>());
        }
        match spec.get("type").and_then(Value::as_str) {
            Some("string") => Type::string(),
            Some("integer") => Type::int(),
            Some("number") => Type::number(),
            Some("boolean") => Type::bool(),
            Some("array") => Type::list(spec.get("items").map_or_else(Type::any, |i| self.ty(i))),
            Some("object") if spec.get("properties").is_some() => self.object(spec),
            Some("object") => Type::map(spec.get("additionalProperties").map_or_else(Type::any, |i| self.ty(i))),
            _ => Type::any(),
        }
    }

    /// `#/types/TOKEN` (an object, or an enum's primitive); anything else
    /// (`pulumi.json#/Any`, assets, archives, other packages) is `any`.
    fn reference(&mut self, r: &str) -> Type {
        let Some(token) = r.strip_prefix("#/types/") else { return Type::any() };
        if let Some(t) = self.seen.get(token) {
            return t.clone();
        }
        if self.stack.iter().any(|s| s == token) || self.stack.len() > REF_DEPTH {
            return Type::any();
        }
        let Some(spec) = self.types.and_then(|t| t.get(token)) else { return Type::any() };
        self.stack.push(token.to_string());
        let t = if spec.get("enum").is_some() {
            match spec.get("type").and_then(Value::as_str) {
                Some("string") => Type::string(),
                Some("integer") => Type::int(),
                Some("number") => Type::number(),
                Some("boolean") => Type::bool(),
                _ => Type::any(),
            }
        } else {
            self.object(spec)
        };
        self.stack.pop();
        self.seen.insert(token.to_string(), t.clone());
        t
    }
}

/// What a token names in a package.
#[derive(Debug)]
pub enum Lookup<'a, T> {
    Found(&'a T),
    /// Several schema tokens share the token's canonical form (sorted).
    /// Pulumi refuses such a schema ("multiple tokens map to …"), and its
    /// own alias lookup misses an ambiguous token rather than pick one:
    /// none is taken.
    Ambiguous(Vec<&'a str>),
    Missing,
}

impl<'a, T> Lookup<'a, T> {
    pub fn found(self) -> Option<&'a T> {
        match self {
            Lookup::Found(x) => Some(x),
            _ => None,
        }
    }
}

impl Package {
    /// A resource by its token, as Pulumi's PCL binder finds it
    /// (`LookupResource`): the schema's token exactly, or any token with
    /// the same canonical form (see [`canonical`]). With AWS's module
    /// format `(.*)(?:/[^/]*)`, `aws:s3:Bucket` is `aws:s3/bucket:Bucket`;
    /// `random:index:RandomPassword` and `random:RandomPassword` are
    /// `random:index/randomPassword:RandomPassword`.
    pub fn resource(&self, token: &str) -> Option<&PulumiResource> {
        self.lookup_resource(token).found()
    }

    pub fn lookup_resource(&self, token: &str) -> Lookup<'_, PulumiResource> {
        lookup(&self.resources, &self.resource_tokens, self.module_format.as_ref(), token)
    }

    pub fn function(&self, token: &str) -> Option<&PulumiFunction> {
        self.lookup_function(token).found()
    }

    /// pulumi-hcl's `tokenSearchKey`: the token's module (as
    /// `TokenToModule` reads it) and name, lowercased, without `/` and `_`.
    pub fn search_key(&self, token: &str) -> Option<String> {
        let c = canonical(token, self.module_format.as_ref())?;
        let mut parts = c.splitn(3, ':').skip(1);
        let (module, name) = (parts.next()?, parts.next()?);
        Some(format!("{module}{name}").to_lowercase().replace(['/', '_'], ""))
    }

    pub fn lookup_function(&self, token: &str) -> Lookup<'_, PulumiFunction> {
        lookup(&self.functions, &self.function_tokens, self.module_format.as_ref(), token)
    }
}

/// A token's canonical form, as Pulumi's `canonicalizeToken` (pkg/codegen/pcl)
/// writes it: `pkg:module:Name`, the module as `TokenToModule` reads it
/// (the format's first group; empty for `index`, a two-part token or a
/// module the format does not match). None for a malformed token.
fn canonical(token: &str, format: Option<&Regex>) -> Option<String> {
    let parts: Vec<&str> = token.split(':').collect();
    let (pkg, module, name) = match parts[..] {
        [pkg, name] => (pkg, "", name),
        [pkg, module, name] => (pkg, module, name),
        _ => return None,
    };
    if pkg.is_empty() || name.is_empty() {
        return None;
    }
    let module = if pkg == "pulumi" && matches!(module, "pulumi" | "providers") {
        ""
    } else {
        // The default format `(.*)` is the whole module.
        let m = match format {
            Some(f) => f.captures(module).and_then(|c| c.get(1)).map_or("", |g| g.as_str()),
            None => module,
        };
        if m == "index" {
            ""
        } else {
            m
        }
    };
    Some(format!("{pkg}:{module}:{name}"))
}

/// Schema tokens by canonical form, each list sorted.
fn by_canonical<'a>(tokens: impl Iterator<Item = &'a String>, format: Option<&Regex>) -> HashMap<String, Vec<String>> {
    let mut out: HashMap<String, Vec<String>> = HashMap::new();
    for t in tokens {
        if let Some(c) = canonical(t, format) {
            out.entry(c).or_default().push(t.clone());
        }
    }
    for v in out.values_mut() {
        v.sort();
    }
    out
}

/// The exact token first (it names one entry, whatever else shares its
/// form), then as Pulumi's binder looks: the token as a canonical form
/// (`aws:s3:Bucket` is one already; the format would read its module
/// `s3` as no module), then the token's canonical form. One entry is
/// found, several are ambiguous.
fn lookup<'a, T>(
    map: &'a HashMap<String, T>,
    index: &'a HashMap<String, Vec<String>>,
    format: Option<&Regex>,
    token: &str,
) -> Lookup<'a, T> {
    if let Some(x) = map.get(token) {
        return Lookup::Found(x);
    }
    let entries = index.get(token).or_else(|| index.get(&canonical(token, format)?));
    match entries.map(Vec::as_slice) {
        Some([one]) => map.get(one).map_or(Lookup::Missing, Lookup::Found),
        Some(several) if several.len() > 1 => Lookup::Ambiguous(several.iter().map(String::as_str).collect()),
        _ => Lookup::Missing,
    }
}

/// The packages a PCL program's text names in resource tokens and invokes
/// (`resource x "random:…"`, `invoke("tls:…"`). A resource's token is its
/// quoted label with a colon: its name may be quoted too (`resource "x"
/// "random:…"`), and was taken for a package, one per resource.
pub fn packages_named(text: &str) -> Vec<String> {
    // Once per keystroke on the whole program: one pass, each name once.
    let mut out: Vec<String> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    let mut take = |token: &str| {
        let pkg = token.split(':').next().unwrap_or("");
        if !pkg.is_empty() && pkg.chars().all(|c| c.is_ascii_alphanumeric() || c == '-') && seen.insert(pkg.to_string())
        {
            out.push(pkg.to_string());
        }
    };
    for line in text.lines() {
        let line = line.trim_start();
        if line.starts_with("resource ") {
            // The token is the first quoted string with a `:` (the
            // resource's name may be quoted too).
            if let Some(token) = line.split('"').skip(1).step_by(2).find(|q| q.contains(':')) {
                take(token);
            }
        }
    }
    for (at, _) in text.match_indices("invoke(\"") {
        take(text[at + "invoke(\"".len()..].split('"').next().unwrap_or(""));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{load_package, packages_named};

    fn with_format(format: &str) -> Result<super::Package, String> {
        let schema = serde_json::json!({"name": "p", "meta": {"moduleFormat": format}, "resources": {"p:m/x:X": {}}});
        load_package(schema.to_string().as_bytes())
    }

    /// A costly or long `meta.moduleFormat` is refused within the size
    /// limits, before it is built whole (issue 42: a repository's schema
    /// froze the server 14 s); a real one reads.
    #[test]
    fn a_costly_module_format_is_refused() {
        assert!(with_format("(.*)(?:/[^/]*)").is_ok());
        // Compiles under the regex crate's default 10 MB, not under 1 MB.
        assert!(regex::Regex::new(r"\w{60}").is_ok());
        let e = with_format(r"\w{60}").unwrap_err();
        assert!(e.starts_with("not a package schema: `meta.moduleFormat`: ") && e.contains("size limit"), "{e}");
        let e = with_format(&"a".repeat(1025)).unwrap_err();
        assert_eq!(e, "not a package schema: `meta.moduleFormat`: longer than 1024 bytes");
    }

    #[test]
    fn packages_are_named_by_resource_tokens_and_invokes_not_resource_names() {
        let text = "resource pw \"random:index/randomPassword:RandomPassword\" {}\n\
                    resource \"bucket0\" \"aws:s3:Bucket\" {}\n\
                    resource \"bucket1\" \"aws:s3:Bucket\" {}\n\
                    key = invoke(\"tls:index/getPublicKey:getPublicKey\", {})\n";
        assert_eq!(packages_named(text), ["random", "aws", "tls"]);
    }
}
