//! Pulumi package schemas (`pulumi package get-schema` output): what a PCL
//! resource takes (`inputProperties`, `requiredInputs`) and gives
//! (`properties`, plus `id` and `urn`), and what an `invoke` returns, as
//! our types. As Pulumi's binder types them: resource attributes are
//! `output(T)`, an invoke is `promise(T)` (`output(T)` when an argument is
//! an output); `$ref`s to `#/types/…` are objects (or an enum's
//! underlying primitive), properties outside `required` may be null.

use std::collections::HashMap;

use serde_json::Value;

use crate::types::Type;

/// One package.
#[derive(Debug, Default)]
pub struct Package {
    pub name: String,
    pub version: String,
    pub resources: HashMap<String, PulumiResource>,
    pub functions: HashMap<String, PulumiFunction>,
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
        for p in ["id", "urn"] {
            if !attrs.iter().any(|(n, _)| n == p) {
                attrs.push((p.to_string(), Type::output(Type::string())));
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
    Ok(Package { name, version, resources, functions })
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

impl Package {
    /// A resource by its token, as PCL writes it: exactly, or with the
    /// module's last part left out (`random:index/randomPassword:RandomPassword`
    /// is also `random:index:RandomPassword`), or `pkg:Type` for `pkg:index:Type`.
    pub fn resource(&self, token: &str) -> Option<&PulumiResource> {
        lookup(&self.resources, token)
    }

    pub fn function(&self, token: &str) -> Option<&PulumiFunction> {
        lookup(&self.functions, token)
    }
}

fn canonical(token: &str) -> Option<(&str, &str, &str)> {
    let mut parts = token.split(':');
    let (pkg, a, b) = (parts.next()?, parts.next()?, parts.next());
    let (module, name) = match b {
        Some(name) => (a.split('/').next().unwrap_or(a), name),
        None => ("index", a),
    };
    Some((pkg, if module.is_empty() { "index" } else { module }, name))
}

fn lookup<'a, T>(map: &'a HashMap<String, T>, token: &str) -> Option<&'a T> {
    if let Some(x) = map.get(token) {
        return Some(x);
    }
    let want = canonical(token)?;
    map.iter().find(|(k, _)| canonical(k) == Some(want)).map(|(_, v)| v)
}

/// The schemas Pulumi cached for the packages `names` (`schema-NAME-VERSION-.json`
/// beside the plugins in `$PULUMI_HOME/plugins`, default `~/.pulumi/plugins`,
/// or in a plugin's own directory): the newest version of each.
pub fn plugin_cache(names: &[String]) -> Vec<std::path::PathBuf> {
    let home = std::env::var_os("PULUMI_HOME")
        .map(std::path::PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| std::path::Path::new(&h).join(".pulumi")));
    let Some(plugins) = home.map(|h| h.join("plugins")) else { return Vec::new() };
    let listing = |dir: &std::path::Path| -> Vec<std::path::PathBuf> {
        std::fs::read_dir(dir).into_iter().flatten().filter_map(Result::ok).map(|e| e.path()).collect()
    };
    let top = listing(&plugins);
    let inner = top.iter().filter(|p| p.is_dir()).flat_map(|d| listing(d));
    let all: Vec<std::path::PathBuf> = top.iter().cloned().chain(inner).collect();
    let mut out = Vec::new();
    for name in names {
        let prefix = format!("schema-{name}-");
        let version_of = |p: &std::path::Path| -> Option<Vec<u64>> {
            let file = p.file_name()?.to_str()?;
            let rest = file.strip_prefix(&prefix)?.strip_suffix(".json")?.trim_end_matches('-');
            // `4.11.2`, not another package whose name starts with this one.
            rest.split('.').map(|n| n.parse().ok()).collect()
        };
        let newest = all.iter().filter_map(|p| Some((version_of(p)?, p))).max_by(|a, b| a.0.cmp(&b.0));
        out.extend(newest.map(|(_, p)| p.clone()));
    }
    out
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
    use super::packages_named;

    #[test]
    fn packages_are_named_by_resource_tokens_and_invokes_not_resource_names() {
        let text = "resource pw \"random:index/randomPassword:RandomPassword\" {}\n\
                    resource \"bucket0\" \"aws:s3:Bucket\" {}\n\
                    resource \"bucket1\" \"aws:s3:Bucket\" {}\n\
                    key = invoke(\"tls:index/getPublicKey:getPublicKey\", {})\n";
        assert_eq!(packages_named(text), ["random", "aws", "tls"]);
    }
}
