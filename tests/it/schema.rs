//! Real provider schemas (`../shared/schemas`, provenance in its README;
//! each test that needs them skips with one line when it is absent) and our
//! own (`tests/schemas`) read into types: both JSON formats, every resource and data source, and
//! what a reference to a resource gives.

use crate::paths;

use std::path::Path;

use hcl_types::schema::{self, Nesting, ProviderSchemas};

/// The shared `schemas/terraform/FILE`, `None` (with a line) when absent.
fn load(file: &str) -> Option<ProviderSchemas> {
    let path = paths::shared(&format!("schemas/terraform/{file}"), &format!("provider schema {file}"))?;
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    Some(schema::load(&bytes).unwrap_or_else(|e| panic!("{file}: {e}")))
}

#[test]
fn every_real_schema_loads_whole() {
    // (file, format, address, resources, data sources, functions), as the README's table says.
    let cases = [
        ("google-4.27.0.json", "1.0", "registry.terraform.io/hashicorp/google", 479, 103, 0),
        ("aws-2.54.0.json", "0.1", "aws", 551, 161, 0),
        ("docker-3.0.2.json", "1.0", "registry.terraform.io/kreuzwerker/docker", 10, 5, 0),
        ("local-2.5.2.json", "1.0", "registry.terraform.io/hashicorp/local", 2, 2, 1),
    ];
    for (file, format, address, resources, data_sources, functions) in cases {
        let Some(s) = load(file) else { return };
        assert_eq!(s.format_version, format, "{file}");
        assert_eq!(s.providers.len(), 1, "{file}");
        let p = &s.providers[0];
        assert_eq!(p.address, address);
        assert_eq!((p.resources.len(), p.data_sources.len()), (resources, data_sources), "{file}");
        assert!(p.functions.len() >= functions, "{file}");
    }
}

#[test]
fn resource_types_follow_the_schema() {
    let Some(s) = load("google-4.27.0.json") else { return };
    let p = &s.providers[0];
    assert_eq!(p.name(), "google");
    let network = &p.resources["google_compute_network"];
    let t = network.value_type().to_string();
    assert!(
        t.starts_with(
            "object({auto_create_subnetworks = bool, delete_default_routes_on_create = bool, description = string,"
        ),
        "{t}"
    );
    assert!(t.contains("mtu = number") && t.contains("timeouts = object({"), "{t}");
    assert!(network.attribute("name").unwrap().required);
    assert!(network.attribute("self_link").unwrap().computed);

    // SDKv2 nested blocks: a list of at most one node_config.
    let cluster = &p.resources["google_container_cluster"];
    let node_config = cluster.block("node_config").unwrap();
    assert_eq!((node_config.nesting, node_config.max_items), (Nesting::List, 1));
    let t = cluster.value_type().to_string();
    assert!(t.contains("node_config = list(object({"), "{t}");

    // The old format: bare provider names.
    let Some(aws) = load("aws-2.54.0.json") else { return };
    let analyzer = &aws.providers[0].resources["aws_accessanalyzer_analyzer"];
    assert_eq!(
        analyzer.value_type().to_string(),
        "object({analyzer_name = string, arn = string, id = string, tags = map(string), type = string})"
    );
}

#[test]
fn provider_functions() {
    let Some(s) = load("local-2.5.2.json") else { return };
    let f = &s.providers[0].functions["direxists"];
    assert_eq!(f.parameters.iter().map(|(n, t)| format!("{n}: {t}")).collect::<Vec<_>>(), ["path: string"]);
    assert_eq!(f.returns.to_string(), "bool");
    assert!(f.variadic.is_none());
}

#[test]
fn broken_schemas_are_errors_not_panics() {
    for bad in [
        &b""[..],
        b"[]",
        b"{\"provider_schemas\": 1}",
        b"{\"provider_schemas\": {\"x\": {\"resource_schemas\": {\"r\": {}}}}}",
        b"{\"provider_schemas\": {\"x\": {\"resource_schemas\": {\"r\": {\"block\": {\"attributes\": {\"a\": {\"type\": [\"list\"]}}}}}}}}",
        b"{\"provider_schemas\": {\"x\": {\"resource_schemas\": {\"r\": {\"block\": {\"block_types\": {\"b\": {\"nesting_mode\": \"tree\", \"block\": {}}}}}}}}}",
    ] {
        assert!(schema::load(bad).is_err(), "{}", String::from_utf8_lossy(bad));
    }
}

/// Pulumi package schemas (`../shared/schemas/pulumi`): resources as
/// Pulumi's binder types them, tokens found however PCL writes them,
/// `$ref`s to object types, invokes' results.
#[test]
fn pulumi_package_schemas_load() {
    use hcl_types::schema::pulumi::load_package;
    let Some(dir) = paths::shared("schemas/pulumi", "Pulumi package schemas") else { return };
    let load = |file: &str| {
        let path = dir.join(file);
        load_package(&std::fs::read(&path).unwrap()).unwrap_or_else(|e| panic!("{file}: {e}"))
    };
    let random = load("random-4.11.2.json");
    assert_eq!((random.name.as_str(), random.version.as_str()), ("random", "4.11.2"));
    let password = random.resource("random:index:RandomPassword").expect("short token");
    assert!(std::ptr::eq(password, random.resource("random:index/randomPassword:RandomPassword").unwrap()));
    assert_eq!(password.value.attribute("result").unwrap().to_string(), "output(string)");
    assert_eq!(password.value.attribute("urn").unwrap().to_string(), "output(string)");
    let length = password.inputs.iter().find(|p| p.name == "length").unwrap();
    assert!(length.required && length.ty.to_string() == "int");
    assert!(random.resource("random:index:NoSuchThing").is_none());

    let tls = load("tls-4.10.0.json");
    let f = tls.function("tls:index/getCertificate:getCertificate").unwrap();
    let certs = f.outputs.attribute("certificates").unwrap().to_string();
    assert!(certs.starts_with("list(object({certPem = string,"), "{certs}");

    let k8s = load("kubernetes20-test.json");
    let cm = k8s.resource("kubernetes:core/v1:ConfigMap").unwrap();
    let meta = cm.value.attribute("metadata").unwrap().to_string();
    assert!(meta.starts_with("output(object({annotations = union(map(string), none)"), "{meta}");
    assert!(load_package(b"{}").is_err());
}

/// pulumi-random's bridge metadata names `random_pet`
/// `random:index/randomPet:RandomPet`, which the convention misses (its key
/// `pet` is not `randompet`); tls's names follow the convention
/// (`crates/schema/src/bridge.rs`).
#[test]
fn terraform_types_name_package_resources() {
    use hcl_types::schema::bridge::resource;
    use hcl_types::schema::pulumi::load_package;
    let Some(dir) = paths::shared("schemas/pulumi", "Terraform types naming Pulumi resources") else { return };
    let package = |file: &str| load_package(&std::fs::read(dir.join(file)).expect("schema")).expect("package");
    let (random, tls) = (package("random-4.11.2.json"), package("tls-4.10.0.json"));
    let both = [&random, &tls];
    let pet = resource(&both, "random_pet").expect("random_pet");
    assert_eq!(pet.token, "random:index/randomPet:RandomPet");
    assert!(pet.known);
    let shuffle = resource(&both, "random_shuffle").expect("random_shuffle");
    assert_eq!(shuffle.tf_name("inputs"), "input");
    assert_eq!(shuffle.tf_name("resultCount"), "result_count");
    let key = resource(&both, "tls_private_key").expect("tls_private_key");
    assert_eq!(key.token, "tls:index/privateKey:PrivateKey");
    assert_eq!(key.tf_name("rsaBits"), "rsa_bits");
    assert!(resource(&both, "tls_nothing").is_none());
    assert!(resource(&both, "aws_s3_bucket").is_none());
    // Without metadata: the convention and snake case.
    let key = resource(&[&tls], "tls_private_key").map(|b| b.tf_name("ecdsaCurve"));
    assert_eq!(key.as_deref(), Some("ecdsa_curve"));
}

/// Issue 27: a PCL token is found by Pulumi's own rules
/// (`canonicalizeToken` with the schema's `meta.moduleFormat`), the same
/// way in every process: a token that two schema tokens share is
/// ambiguous, never whichever a `HashMap` met first. Each schema is read
/// many times, so each read's map has its own random order.
#[test]
fn pulumi_tokens_resolve_by_pulumis_rules_the_same_every_time() {
    use hcl_types::schema::pulumi::load_package;
    let k8s = paths::shared("schemas/pulumi/kubernetes20-test.json", "the kubernetes half of Pulumi's token rules");
    let k8s = k8s.map(|path| std::fs::read(path).unwrap());
    let demo = std::fs::read(paths::own_schema("pulumi/colliding-test.json")).unwrap();
    for _ in 0..64 {
        // No `moduleFormat`: Pulumi's default `(.*)` keeps the whole module,
        // so `yaml/v1` is no version of `yaml` or `yaml/v2`.
        if let Some(k8s) = &k8s {
            kubernetes_tokens(k8s);
        }

        // `(.*)(?:/[^/]*)`: `storage/queue` is the module `storage`.
        let d = load_package(&demo).unwrap();
        for token in ["demo:storage:Queue", "demo:storage/queue:Queue", "demo:storage/other:Queue"] {
            assert!(d.resource(token).is_some(), "{token}");
        }
        for token in ["demo:index:Thing", "demo:Thing", "demo::Thing", "demo:index/x:Thing"] {
            assert!(d.resource(token).is_some(), "{token}");
        }
        assert!(d.resource("demo:other:Queue").is_none());
        // Two tokens share `demo:storage:Bucket`: either written in full
        // is found, the short form is neither.
        assert!(d.resource("demo:storage:Bucket").is_none());
        assert!(d.resource("demo:storage/misc:Bucket").is_none());
        assert!(d.function("demo:storage:getBucket").is_none());
        let full = d.resource("demo:storage/bucketV1:Bucket").unwrap();
        assert!(full.inputs.iter().any(|p| p.name == "legacyName"));
    }
}

/// Pulumi's kubernetes test schema has no `moduleFormat`: Pulumi's default
/// `(.*)` keeps the whole module.
fn kubernetes_tokens(schema: &[u8]) {
    let k = hcl_types::schema::pulumi::load_package(schema).unwrap();
    assert!(k.resource("kubernetes:yaml/v1:ConfigGroup").is_none());
    assert!(k.resource("kubernetes:core:ConfigMap").is_none());
    let exact = k.resource("kubernetes:yaml:ConfigGroup").unwrap();
    assert!(exact.inputs.iter().any(|p| p.name == "transformations"));
    let v2 = k.resource("kubernetes:yaml/v2:ConfigGroup").unwrap();
    assert!(!v2.inputs.iter().any(|p| p.name == "transformations"));
}

/// An ambiguous token names its matches, sorted; a `moduleFormat` that is
/// no regex fails the schema, as Pulumi's binder fails it.
#[test]
fn an_ambiguous_pulumi_token_names_every_match() {
    use hcl_types::schema::pulumi::{load_package, Lookup};
    let demo = std::fs::read(paths::own_schema("pulumi/colliding-test.json")).unwrap();
    let d = load_package(&demo).unwrap();
    match d.lookup_resource("demo:storage:Bucket") {
        Lookup::Ambiguous(tokens) => assert_eq!(tokens, ["demo:storage/bucket:Bucket", "demo:storage/bucketV1:Bucket"]),
        other => panic!("{other:?}"),
    }
    let bad = br#"{"name": "x", "meta": {"moduleFormat": "(unclosed"}}"#;
    assert!(load_package(bad).unwrap_err().contains("moduleFormat"));
}

/// A module's own schemas (issue 15, first source): `EXE providers schema
/// -json` run in an initialised root, kept on disk by the lock file's hash
/// (a second run reads the cache, not the executable), and in the
/// background: `Running` until it is done.
#[test]
fn own_schemas_run_once_per_lock_and_are_cached_on_disk() {
    use hcl_types::project::schemas::own;
    // The cache is `$XDG_CACHE_HOME`'s: this test runs again in a process of
    // its own with it set to a scratch directory (setting it here would set
    // it for every test of the binary, racing their reads).
    const CACHE: &str = "XDG_CACHE_HOME";
    let scratch = crate::scratch::named("test");
    let dir: &Path = &scratch;
    if std::env::var_os("HCL_TYPES_OWN_SCHEMA_CASE").is_none() {
        let test = crate::exact(module_path!(), "own_schemas_run_once_per_lock_and_are_cached_on_disk");
        let out = std::process::Command::new(std::env::current_exe().expect("the test binary"))
            .args(["--exact", &test, "--nocapture", "--test-threads=1"])
            .env("HCL_TYPES_OWN_SCHEMA_CASE", "1")
            .env(CACHE, dir.join("cache"))
            .output()
            .expect("run the case");
        let said = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
        assert!(out.status.success() && said.contains("1 passed"), "{said}");
        return;
    }
    let module = dir.join("module");
    std::fs::create_dir_all(&module).unwrap();
    assert!(!own::initialised(&module));
    std::fs::write(module.join(".terraform.lock.hcl"), "# lock\n").unwrap();
    assert!(own::initialised(&module));
    // A stand-in `terraform` that prints the builtin provider's schema once.
    let schema = paths::own_schema("terraform/builtin-terraform-1.11.4.json");
    let exe = dir.join("terraform");
    let counter = dir.join("runs");
    let script = format!(
        "#!/bin/sh\n[ \"$*\" = \"providers schema -json\" ] || exit 3\necho run >> '{}'\ncat '{}'\n",
        counter.display(),
        schema.display()
    );
    std::fs::write(&exe, script).unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&exe, std::fs::Permissions::from_mode(0o755)).unwrap();

    let key = own::lock_key(&exe, &module).expect("a regular lock file");
    let s = own::run(&exe, &module, key, own::TIMEOUT).expect("schema");
    assert!(s.providers[0].resources.contains_key("terraform_data"));
    assert!(own::cache_path(key).unwrap().is_file());
    own::run(&exe, &module, key, own::TIMEOUT).expect("cached");
    assert_eq!(std::fs::read_to_string(&counter).unwrap().lines().count(), 1, "the second run reads the cache");
    // Another lock file is another key.
    std::fs::write(module.join(".terraform.lock.hcl"), "# lock 2\n").unwrap();
    let mut state = own::in_background(&exe, &module, own::TIMEOUT).unwrap().1;
    for _ in 0..500 {
        if !matches!(state, own::State::Running) {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
        state = own::in_background(&exe, &module, own::TIMEOUT).unwrap().1;
    }
    assert!(matches!(state, own::State::Ready(_)), "{state:?}");
    assert_eq!(std::fs::read_to_string(&counter).unwrap().lines().count(), 2);
    // An executable that fails is a failure with its message, not a schema.
    std::fs::write(module.join(".terraform.lock.hcl"), "# lock 3\n").unwrap();
    let key = own::lock_key(Path::new("/bin/false"), &module).expect("a regular lock file");
    let bad = own::run(Path::new("/bin/false"), &module, key, own::TIMEOUT);
    assert!(bad.is_err());
}
