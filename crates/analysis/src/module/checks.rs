//! Every item's checks: blocks, bodies, meta-arguments, variables and
//! tfvars values.

use super::*;
use crate::dialects::symbol_libraries::libraries::{file_attribute, is_symbol_file, parse_module_type};
use crate::dialects::{nomad, pulumi_hcl, stacks, terragrunt, tftest};

/// One item's checks and the types of the outputs it declares.
#[allow(clippy::too_many_arguments)]
pub(super) fn check_item(
    doc: &Document,
    item: &Item,
    decls: &Decls,
    env: &ModuleEnv,
    module_dialect: Dialect,
    winners: Vec<bool>,
    vars: &HashMap<&str, (&VarRef, Option<Related>)>,
    has_vars: bool,
    record: bool,
) -> (CheckResult, Vec<Typed>) {
    let src = item_source(doc, item);
    let kind = doc.file.kind;
    let view = View::new(env, doc.file.dialect.within(module_dialect), kind == FileKind::TfTest);
    let mut inf = Infer::new(&view, src);
    inf.policy = crate::is_policy_file(&doc.file.path);
    inf.test_file = (kind == FileKind::TfTest).then(|| crate::calls::test_file_name(&doc.file.path));
    inf.json = syntax::json::is_json_path(&doc.file.path);
    inf.terragrunt_stack = kind == FileKind::Hcl && terragrunt::stack::is_stack_file(&doc.file.path);
    if record {
        inf.record = Some(Vec::new());
    }
    let mut outputs = Vec::new();
    let mut type_nodes = Vec::new();
    if let Some(body) = item.body(&doc.file.text) {
        let mut var_decls = decls.vars.iter().zip(&winners);
        let nomad_spec = kind == FileKind::Hcl && nomad::variables::is_spec(doc);
        for s in body.iter() {
            match s {
                // A Nomad variable specification's keys (analysis.md §8.1).
                Structure::Block(b) if nomad_spec => nomad::variables::block(&mut inf, b),
                Structure::Attribute(a) if nomad_spec => {
                    let inferred = env.type_of(&(Space::Pcl, a.key.value().to_string()));
                    nomad::variables::attribute(&mut inf, a, inferred)
                }
                Structure::Block(b) => {
                    let own = if block_ident(b.ident.value().as_str(), &doc.file.path) == "variable"
                        && matches!(kind, FileKind::Terraform | FileKind::Hcl)
                    {
                        var_decls.next().filter(|(_, w)| **w).map(|(v, _)| v)
                    } else {
                        None
                    };
                    if b.ident.value().as_str() == "include"
                        && kind == FileKind::Hcl
                        && crate::is_terragrunt_unit(&doc.file.path)
                    {
                        terragrunt::unit::include(&mut inf, &env.unit(&view, doc), b);
                    }
                    if b.ident.value().as_str() == "dependency"
                        && kind == FileKind::Hcl
                        && crate::is_terragrunt_unit(&doc.file.path)
                    {
                        terragrunt::dependency::block(&mut inf, b);
                    }
                    check_block(&mut inf, doc, b, own);
                    if kind == FileKind::Hcl {
                        stacks::components::deployment(&mut inf, &view, &doc.file.path, b, vars);
                    }
                }
                Structure::Attribute(a) if kind == FileKind::Tfvars => {
                    // Packer's variable files say the same of undeclared names.
                    let packer = crate::dialects::packer::VARS.matches(&doc.file.path);
                    tfvars_value(&mut inf, &view, a, vars, has_vars, if packer { "Packer" } else { "Terraform" })
                }
                // A Terragrunt unit's inputs go to its module (terragrunt.md §2).
                Structure::Attribute(a)
                    if kind == FileKind::Hcl
                        && a.key.value().as_str() == "inputs"
                        && crate::is_terragrunt_unit(&doc.file.path) =>
                {
                    terragrunt::unit::inputs(&mut inf, &env.unit(&view, doc), a)
                }
                // A symbol library file has no top-level arguments.
                Structure::Attribute(a) if kind == FileKind::Hcl && is_symbol_file(&doc.file.path) => {
                    file_attribute(&mut inf, a)
                }
                // PCL attributes were inferred with the names above.
                Structure::Attribute(_) if matches!(kind, FileKind::Pcl | FileKind::Hcl) => {}
                Structure::Attribute(a) => {
                    inf.expr(&a.value);
                }
            }
        }
        if matches!(kind, FileKind::Terraform | FileKind::Pcl | FileKind::Hcl) {
            let quiet = View::new(env, module_dialect, true);
            output_symbols(doc, &body, src, &quiet, &mut outputs, &mut type_nodes);
            let mut deps = view.deps();
            let more = quiet.deps();
            deps.lookups.extend(more.lookups);
            deps.suggested.extend(more.suggested);
            deps.calls.extend(more.calls);
            deps.schemas = deps.schemas.or(more.schemas);
            deps.files.extend(more.files);
            let recorded = inf.record.take().unwrap_or_default();
            let diagnostics = std::mem::take(&mut inf.diagnostics);
            type_nodes.append(&mut inf.type_nodes);
            return (CheckResult { deps, module_dialect, winners, diagnostics, outputs, type_nodes }, recorded);
        }
    }
    let recorded = inf.record.take().unwrap_or_default();
    let diagnostics = std::mem::take(&mut inf.diagnostics);
    type_nodes.append(&mut inf.type_nodes);
    drop(inf);
    (CheckResult { deps: view.deps(), module_dialect, winners, diagnostics, outputs, type_nodes }, recorded)
}

/// Checks of one top-level block.
pub(super) fn check_block(inf: &mut Infer, doc: &Document, b: &Block, own: Option<&VarDecl>) {
    let ident = block_ident(b.ident.value().as_str(), &doc.file.path);
    let kind = doc.file.kind;
    // (OpenTofu's, in a module that has an OpenTofu file.)
    let dialect = doc.file.dialect.within(inf.env().dialect());
    // Terraform's own blocks take only the arguments and blocks its
    // configuration loader knows (Packer's `variable` differs: `.tf` only).
    if kind == FileKind::Terraform && dialect.is_terraform() && doc.file.path.extension() == Some("tf".as_ref()) {
        match ident {
            "variable" => own_schema(inf, b, "a variable", &VARIABLE_ARGUMENTS, &["validation"]),
            "output" => own_schema(inf, b, "an output", &OUTPUT_ARGUMENTS, &["precondition", "postcondition"]),
            _ => {}
        }
        if dialect != Dialect::PulumiHcl {
            super::rules::block(inf, b, dialect);
        }
    }
    // Each dialect's own checks of its files' blocks (src/dialects/).
    if crate::dialects::check_block(inf, doc, b) {
        return;
    }
    if kind == FileKind::Terraform && matches!(ident, "resource" | "data" | "provider") {
        for nested in b.body.blocks().filter(|n| pulumi_hcl::checks::is_options(dialect, n)) {
            pulumi_hcl::checks::options(inf, ident, nested);
        }
    }
    match (ident, kind) {
        ("variable", FileKind::Terraform | FileKind::Hcl) => variable(inf, b, own),
        ("locals", FileKind::Terraform | FileKind::Hcl) => {}
        ("module", FileKind::Terraform) if dialect.is_terraform() => module_call(inf, b, dialect),
        ("resource" | "data", FileKind::Terraform) if dialect.is_terraform() => resource(inf, b, dialect),
        ("component", FileKind::Pcl) => component_call(inf, b),
        // (Its include checks ran in `check_item`: they read the unit's
        // merge, made once per analysis.)
        ("include", FileKind::Hcl) if crate::is_terragrunt_unit(&doc.file.path) => body(inf, &b.body, dialect, false),
        ("component", FileKind::Hcl) if stacks::components::is_component_file(&doc.file.path) => {
            stacks::components::component(inf, b, dialect)
        }
        ("unit" | "stack", FileKind::Hcl) if terragrunt::stack::is_stack_file(&doc.file.path) => {
            terragrunt::stack::block(inf, b);
            body(inf, &b.body, dialect, false)
        }
        ("variables", FileKind::TfTest) => tftest::runs::file_variables(inf, b),
        ("run", FileKind::TfTest) => tftest::runs::run(inf, b),
        ("mock_provider", FileKind::TfTest) => tftest::mocks::provider(inf, b),
        ("override_resource" | "override_data" | "override_module", FileKind::TfTest) => {
            tftest::mocks::block(inf, b);
        }
        ("ephemeral", FileKind::Terraform) if dialect.is_terraform() => ephemeral(inf, b, dialect),
        ("action", FileKind::Terraform) if dialect.is_terraform() => {
            super::resources::configured(inf, b, dialect, schema::BlockKind::Action)
        }
        ("list", FileKind::Terraform) if crate::is_query_file(&doc.file.path) => {
            super::resources::configured(inf, b, dialect, schema::BlockKind::ListResource)
        }
        ("call", FileKind::Terraform) if dialect == Dialect::PulumiHcl => pulumi_hcl::checks::call(inf, b),
        // Addresses, not values: `from`/`to` may name what no longer exists.
        ("moved" | "removed", FileKind::Terraform) => {}
        ("import", FileKind::Terraform) => {
            let (k, v) = match b.body.get_attribute("for_each") {
                Some(f) => import_for_each(inf, &f.value),
                None => (Type::any(), Type::any()),
            };
            inf.bind("each", Type::object([("key".to_string(), k), ("value".to_string(), v)]));
            for a in b.body.attributes() {
                if !matches!(a.key.value().as_str(), "to" | "provider" | "for_each") {
                    inf.expr(&a.value);
                }
            }
            inf.unbind(1);
        }
        ("config", FileKind::Pcl | FileKind::Hcl) => {
            let te = config_type(b, inf.source(), dialect);
            let declared = config_value_type(b, te.map(|t| t.declared));
            for a in b.body.attributes() {
                let t = inf.expr(&a.value);
                if a.key.value().as_str() == "default" && !declared.is_any() {
                    inf.check(&a.value, &t, &declared.strip(Strip::Eventuals), None);
                }
            }
            body(inf, &b.body, dialect, true);
        }
        ("output", FileKind::Pcl | FileKind::Hcl) if b.labels.len() >= 2 || kind == FileKind::Pcl => {
            let declared = b.labels.get(1).map(|l| label_type(l, inf.source(), dialect));
            if let Some(te) = &declared {
                inf.diagnostics.extend(te.diagnostics.iter().cloned());
            }
            for a in b.body.attributes() {
                let t = inf.expr(&a.value);
                if let (Some(te), "value") = (&declared, a.key.value().as_str()) {
                    inf.check(&a.value, &t, &te.declared, None);
                }
            }
            body(inf, &b.body, dialect, true);
        }
        // Terraform 1.15: an output's `type` (with `optional(T, default)`)
        // is a type expression, and its `value` a check site like a
        // variable's default. So is a Terraform stack's (stacks.md).
        ("output", FileKind::Terraform | FileKind::Hcl)
            if dialect.is_terraform() || stacks::components::is_component_file(&doc.file.path) =>
        {
            let declared = b.body.get_attribute("type").map(|a| {
                let libs = inf.env().symbols().cloned().unwrap_or_default();
                let te = parse_module_type(&a.value, inf.source(), TypeContext::variable(dialect), &libs);
                (te, inf.range(&a.value))
            });
            if let Some((te, _)) = &declared {
                inf.diagnostics.extend(te.diagnostics.iter().cloned());
            }
            let name = b.labels.first().map(label_text).unwrap_or("");
            for a in b.body.attributes().filter(|a| a.key.value().as_str() != "type") {
                let t = inf.expr(&a.value);
                if let (Some((te, range)), "value") = (&declared, a.key.value().as_str()) {
                    let related =
                        Related { path: None, range: range.clone(), message: format!("the type of `output.{name}`") };
                    inf.check(&a.value, &t, &te.declared, Some(related));
                }
            }
            body(inf, &b.body, dialect, true);
        }
        // Metadata: nothing to type.
        ("package" | "pulumi", FileKind::Pcl) => {}
        ("hook", FileKind::Pcl) => {
            inf.bind("args", Type::any());
            body(inf, &b.body, dialect, false);
            inf.unbind(1);
        }
        ("resource", FileKind::Pcl) => {
            let bound = bind_range(inf, &b.body);
            pcl_resource(inf, b, dialect);
            inf.unbind(bound);
        }
        ("terraform", FileKind::Terraform) if dialect == Dialect::OpenTofu => {
            terraform_block(inf, b);
            body(inf, &b.body, dialect, false)
        }
        ("provider", FileKind::Terraform) if matches!(dialect, Dialect::Terraform | Dialect::OpenTofu) => {
            if dialect == Dialect::OpenTofu {
                provider_for_each(inf, b);
            }
            if !super::resources::provider(inf, b, dialect) {
                body(inf, &b.body, dialect, false)
            }
        }
        _ => body(inf, &b.body, dialect, false),
    }
}

/// A block body's attributes and nested blocks, with Terraform's
/// meta-arguments (`count`, `for_each`, `dynamic`, conditions) checked.
/// `skip_own_attributes`: the caller already inferred this body's attributes.
pub(crate) fn body(inf: &mut Infer, body: &Body, dialect: Dialect, skip_own_attributes: bool) {
    body_with(inf, body, dialect, skip_own_attributes, true)
}

/// Arguments whose values are Terraform keywords, not expressions: a
/// provisioner's `when = destroy` and `on_failure = continue`, an action
/// trigger's `events = [before_create, …]` (1.14), and the `terraform`
/// (OpenTofu: `language`) block's `experiments = [name, …]` and OpenTofu's
/// `edition = tofu2024` (website/docs/language/settings/index.mdx).
fn keywords(key: &str, value: &Expression) -> bool {
    let bare = |e: &Expression| matches!(e, Expression::Variable(_));
    match key {
        "when" | "on_failure" => bare(value),
        "events" => matches!(value, Expression::Array(a) if a.iter().all(bare)),
        // OpenTofu 1.12: `language { edition = tofu2024 }`.
        "edition" => bare(value),
        "experiments" => true,
        _ => false,
    }
}

/// An ephemeral resource (Terraform 1.10, OpenTofu 1.11): its meta-arguments
/// are a resource's, so `provider = aws.west` names a provider
/// configuration, not a value (`decodeEphemeralBlock` in
/// internal/configs/resource.go of opentofu/opentofu).
fn ephemeral(inf: &mut Infer, b: &Block, dialect: Dialect) {
    let bound = repetition(inf, &b.body);
    for a in b.body.attributes() {
        if !matches!(a.key.value().as_str(), "count" | "for_each" | "provider") {
            inf.expr(&a.value);
        }
    }
    for nested in b.body.blocks() {
        match nested.ident.value().as_str() {
            "lifecycle" => lifecycle(inf, nested, dialect),
            _ => nested_body(inf, &nested.body, dialect),
        }
    }
    inf.unbind(bound);
}

/// A nested block's body: `count` and `for_each` there are ordinary
/// arguments (`guest_accelerator { count = 1 }`), not meta-arguments.
pub(crate) fn nested_body(inf: &mut Infer, body: &Body, dialect: Dialect) {
    body_with(inf, body, dialect, false, false)
}

/// [`body`], with `meta`: whether `count` and `for_each` are meta-arguments.
fn body_with(inf: &mut Infer, body: &Body, dialect: Dialect, skip_own_attributes: bool, meta: bool) {
    let bound = if skip_own_attributes || !meta { 0 } else { repetition(inf, body) };
    for s in body.iter() {
        match s {
            Structure::Attribute(a) => {
                let key = a.key.value().as_str();
                if skip_own_attributes || meta && (key == "count" || key == "for_each") || keywords(key, &a.value) {
                    continue;
                }
                let t = inf.expr(&a.value);
                if key == "condition" {
                    inf.check(&a.value, &t, &Type::bool(), None);
                }
            }
            Structure::Block(b) => match b.ident.value().as_str() {
                "dynamic" if dialect != Dialect::Pcl => dynamic(inf, b, dialect),
                // Provider requirements: sources and versions (Terraform
                // 1.17: const variables and locals) and provider addresses
                // (`configuration_aliases = [aws.west]`).
                "required_providers" => {
                    let version = body.get_attribute("required_version").map(|a| &a.value);
                    super::provider_requirements::block(inf, b, dialect, version)
                }
                "lifecycle" => lifecycle(inf, b, dialect),
                // OpenTofu's state encryption (OpenTofu 1.7).
                "encryption" if dialect.is_terraform() => encryption(inf, b, dialect),
                // PCL resource options: some name property paths, not values.
                "options" if dialect == Dialect::Pcl => pcl_options(inf, b),
                // Pulumi HCL's options: `check_block` checks them, knowing
                // whose they are (docs/spec/pulumi-hcl.md).
                "pulumi" if meta && pulumi_hcl::checks::is_options(dialect, b) => {}
                _ => nested_body(inf, &b.body, dialect),
            },
        }
    }
    inf.unbind(bound);
}

/// A `lifecycle` block: `ignore_changes = [tags]` names attributes, not
/// values. OpenTofu's `enabled` (1.11: `resourceLifecycleBlockSchema` in
/// internal/configs/resource.go, `moduleLifecycleBlockSchema` in
/// module_call.go) is a bool, checked in the opentofu dialect.
pub(super) fn lifecycle(inf: &mut Infer, b: &Block, dialect: Dialect) {
    for a in b.body.attributes() {
        let key = a.key.value().as_str();
        if key == "ignore_changes" {
            continue;
        }
        let t = inf.expr(&a.value);
        if key == "enabled" && dialect == Dialect::OpenTofu {
            inf.check(&a.value, &t, &Type::bool(), None);
        }
    }
    for nested in b.body.blocks() {
        nested_body(inf, &nested.body, dialect);
    }
}

/// OpenTofu: of `count`, `for_each` and a `lifecycle` block's `enabled`, a
/// resource, data source or module call takes one ("Invalid combination of
/// …", `repetitionArgs >= 2` in internal/configs/resource.go and
/// module_call.go). Reported at `enabled`.
pub(super) fn enabled_alone(inf: &mut Infer, body: &Body) {
    if inf.env().dialect() != Dialect::OpenTofu {
        return;
    }
    let Some(enabled) = body.get_blocks("lifecycle").find_map(|l| l.body.get_attribute("enabled")) else { return };
    let others: Vec<&str> = ["count", "for_each"].into_iter().filter(|k| body.get_attribute(k).is_some()).collect();
    let Some(other) = others.first() else { return };
    let r = inf.range(&enabled.key);
    inf.report(Diagnostic::new(
        Code::UnsupportedArgument,
        r,
        format!(
            "`enabled` and `{other}` cannot be used together: OpenTofu takes one of `count`, `enabled` and `for_each` to say how many instances there are"
        ),
    ));
}

/// OpenTofu's `encryption` block (1.7): `key_provider "TYPE" "NAME"` and
/// `method "TYPE" "NAME"` blocks, referred to as `key_provider.TYPE.NAME`
/// and `method.TYPE.NAME` within it (website/docs/language/state/encryption.mdx
/// in opentofu/opentofu). Those names are bound while its body is checked.
fn encryption(inf: &mut Infer, b: &Block, dialect: Dialect) {
    let named = |kind: &str| {
        let mut by_type: Vec<(String, Vec<(String, Type)>)> = Vec::new();
        for nb in b.body.get_blocks(kind) {
            let (Some(t), Some(n)) = (nb.labels.first(), nb.labels.get(1)) else { continue };
            let (t, n) = (label_text(t).to_string(), label_text(n).to_string());
            match by_type.iter_mut().find(|(k, _)| *k == t) {
                Some((_, names)) => names.push((n, Type::any())),
                None => by_type.push((t, vec![(n, Type::any())])),
            }
        }
        Type::object(by_type.into_iter().map(|(t, names)| (t, Type::object(names))))
    };
    let (providers, methods) = (named("key_provider"), named("method"));
    inf.bind("key_provider", providers);
    inf.bind("method", methods);
    nested_body(inf, &b.body, dialect);
    inf.unbind(2);
}

/// OpenTofu: a provider's `for_each` needs an `alias` ("Alias required when
/// using "for_each"", internal/configs/provider.go).
fn provider_for_each(inf: &mut Infer, b: &Block) {
    if b.body.get_attribute("alias").is_some() {
        return;
    }
    let Some(f) = b.body.get_attribute("for_each") else { return };
    let r = inf.range(&f.key);
    inf.report(Diagnostic::new(
        Code::MissingArgument,
        r,
        "a provider with `for_each` needs an `alias`: the default configuration of a provider has exactly one instance",
    ));
}

/// PCL resource options: some name property paths, not values.
pub(super) fn pcl_options(inf: &mut Infer, b: &Block) {
    for a in b.body.attributes() {
        let key = a.key.value().as_str();
        if !matches!(key, "ignoreChanges" | "replaceOnChanges" | "additionalSecretOutputs" | "hideDiffs") {
            inf.expr(&a.value);
        }
    }
}

/// A body's `count` and `for_each`, checked, and the `count` / `each`
/// they bind; returns how many names to unbind after the body.
pub(super) fn repetition(inf: &mut Infer, body: &Body) -> usize {
    enabled_alone(inf, body);
    let mut bound = 0;
    if let Some(c) = body.get_attribute("count") {
        let t = inf.expr(&c.value);
        inf.check(&c.value, &t, &Type::number(), None);
        count_value(inf, c);
        inf.bind("count", Type::object([("index".to_string(), Type::int())]));
        bound += 1;
    }
    if let Some(f) = body.get_attribute("for_each") {
        inf.for_key = None;
        let (k, v) = for_each(inf, &f.value);
        // `{ for i, v in LIST : i => v }`: the keys are numbers made strings,
        // which convert back safely (Terraform's for expression converts a
        // key to string; `each.key * 100` is then a number again).
        let numeric = matches!(&f.value, Expression::ForExpr(fe) if fe.key_expr.is_some())
            && inf.for_key.take().is_some_and(|t| matches!(t.strip(Strip::Eventuals).kind(), Kind::Int | Kind::Number));
        inf.bind("each", Type::object([("key".to_string(), k), ("value".to_string(), v)]));
        bound += 1;
        if numeric {
            inf.bind(crate::infer::NUMERIC_EACH_KEY, Type::any());
            bound += 1;
        }
    }
    if bound > 0 {
        // Its body runs only for the instances there are, which its
        // `count` or `for_each` may already keep from a null (plan.rs).
        inf.bind(crate::infer::REPEATED, Type::any());
        bound += 1;
    }
    bound
}

/// `count`: a constant must be a whole number ≥ 0.
pub(super) fn count_value(inf: &mut Infer, c: &Attribute) {
    let Ok(v) = eval(&c.value, inf.source()) else { return };
    let ok = match &v {
        Value::Int(i) => *i >= 0.into(),
        Value::Number(_) => v.as_whole().is_some_and(|i| i >= 0.into()),
        // Text that is no number at all: the type check reported it once.
        Value::String(s) if !types::value::is_decimal(s) => true,
        Value::String(_) => v.as_whole().is_some_and(|i| i >= 0.into()),
        _ => true, // type-level checks reported it
    };
    if !ok {
        let r = inf.range(&c.value);
        inf.report(Diagnostic::new(
            Code::InvalidValue,
            r,
            format!("`count` must be a whole number ≥ 0, not {}", v.describe()),
        ));
    }
}

/// `for_each`: a map, an object or a set of strings. Returns what `each.key`
/// and `each.value` are.
pub(super) fn for_each(inf: &mut Infer, e: &Expression) -> (Type, Type) {
    let t = inf.expr(e);
    inf.null_iteration(e, &t, "`for_each`");
    for_each_of(inf, e, t)
}

/// [`for_each`] of `e`, whose type `t` is known.
fn for_each_of(inf: &mut Infer, e: &Expression, t: Type) -> (Type, Type) {
    let inner = t.strip(Strip::Eventuals);
    let members: Vec<Type> = inner.members().iter().filter(|m| !m.is_none()).cloned().collect();
    let inner = if members.len() == 1 { members[0].clone() } else { inner };
    let range = inf.range(e);
    let fail = |inf: &mut Infer, why: String| {
        inf.report(Diagnostic::new(Code::TypeMismatch, range.clone(), why));
        (Type::string(), Type::any())
    };
    // No element known (`try(var.compute.hosts, {})`, the default lacking
    // `hosts`): the body runs for elements the types do not show, so
    // `each.value` is `any`, not the `null` of an empty union (issue 43.5).
    let element = |t: Type| if t.is_none() { Type::any() } else { t };
    match inner.kind() {
        Kind::Any | Kind::Union(_) => (Type::string(), Type::any()),
        Kind::Map(v) => (Type::string(), element(v.clone())),
        Kind::Object(attrs) => (Type::string(), element(Type::union(attrs.iter().map(|(_, t)| t.clone()).collect::<Vec<_>>()))),
        Kind::Set(elem) => {
            inf.check(e, &t, &Type::set(Type::string()), None);
            (elem.clone(), elem.clone())
        }
        Kind::List(_) | Kind::Tuple(_) => fail(
            inf,
            format!("`for_each` needs a map or a set of strings, not `{t}`: convert it with toset() (or build a map with a for expression)"),
        ),
        _ => fail(inf, format!("`for_each` needs a map or a set of strings, not `{t}`")),
    }
}

/// An `import` block's `for_each`, which also takes a list or tuple
/// (Terraform's `ImportValues` allows tuples, unlike a resource's): `each.key`
/// is then the element's index.
fn import_for_each(inf: &mut Infer, e: &Expression) -> (Type, Type) {
    let t = inf.expr(e);
    let inner = t.strip(Strip::Eventuals);
    match inner.kind() {
        Kind::List(elem) => (Type::number(), elem.clone()),
        Kind::Tuple(elems) => (Type::number(), Type::union(elems.to_vec())),
        _ => for_each_of(inf, e, t),
    }
}

/// `dynamic "NAME" { for_each = …, iterator = IT, content { … } }`.
pub(super) fn dynamic(inf: &mut Infer, b: &Block, dialect: Dialect) {
    dynamic_iterator(inf, b);
    for a in b.body.attributes() {
        if !matches!(a.key.value().as_str(), "for_each" | "iterator") {
            inf.expr(&a.value);
        }
    }
    for nested in b.body.blocks() {
        nested_body(inf, &nested.body, dialect);
    }
    inf.unbind(1);
}

/// Binds a `dynamic` block's iterator (one name, to unbind after its body).
pub(super) fn dynamic_iterator(inf: &mut Infer, b: &Block) {
    let name = b
        .body
        .get_attribute("iterator")
        .and_then(|a| match &a.value {
            Expression::Variable(v) => Some(v.value().to_string()),
            _ => None,
        })
        .or_else(|| b.labels.first().map(|l| label_text(l).to_string()))
        .unwrap_or_default();
    let (k, v) = match b.body.get_attribute("for_each") {
        Some(f) => {
            let t = inf.expr(&f.value);
            inf.null_iteration(&f.value, &t, "this dynamic block's `for_each`");
            let inner = t.strip(Strip::Eventuals);
            match inner.kind() {
                // Unlike resources, dynamic blocks iterate lists and tuples too.
                Kind::List(_) | Kind::Tuple(_) | Kind::Set(_) | Kind::Map(_) | Kind::Object(_) => iteration(&inner),
                _ => iteration(&inner),
            }
        }
        None => (Type::any(), Type::any()),
    };
    inf.bind(name, Type::object([("key".to_string(), k), ("value".to_string(), v)]));
}

/// A Terraform variable's default, nullable and validation checks. `own`:
/// the item's declaration of the variable, unless an earlier one wins.
/// The arguments of a `variable` block (Terraform's `variableBlockSchema`;
/// `ephemeral` 1.10, `deprecated` 1.15, `const` later).
const VARIABLE_ARGUMENTS: [&str; 8] =
    ["description", "default", "type", "sensitive", "ephemeral", "nullable", "deprecated", "const"];

/// The arguments of an `output` block (`outputBlockSchema`; `ephemeral`
/// 1.10, `deprecated` and `type` 1.15).
const OUTPUT_ARGUMENTS: [&str; 7] =
    ["description", "value", "depends_on", "sensitive", "ephemeral", "deprecated", "type"];

/// Terraform's "Unsupported argument" / "Unsupported block type" for a
/// block of its own (`what`: "a variable") with these arguments and blocks.
pub(crate) fn own_schema(inf: &mut Infer, b: &Block, what: &str, arguments: &[&str], blocks: &[&str]) {
    for a in b.body.attributes() {
        let key = a.key.value().as_str();
        if arguments.contains(&key) {
            continue;
        }
        let mut msg = format!("`{key}` is not an argument of {what} block");
        if let Some(s) = types::suggest::closest(key, arguments.iter().copied()) {
            msg.push_str(&format!("; did you mean `{s}`?"));
        } else if blocks.contains(&key) {
            msg.push_str(&format!("; `{key}` is a block: write `{key} {{ … }}`"));
        }
        let r = inf.range(&a.key);
        inf.report(Diagnostic::new(Code::UnsupportedArgument, r, msg));
    }
    for nested in b.body.blocks() {
        let key = nested.ident.value().as_str();
        if blocks.contains(&key) {
            continue;
        }
        let mut msg = format!("`{key}` is not a block of {what} block");
        if let Some(s) = types::suggest::closest(key, blocks.iter().copied()) {
            msg.push_str(&format!("; did you mean `{s}`?"));
        } else if arguments.contains(&key) {
            msg.push_str(&format!("; `{key}` is an argument: write `{key} = …`"));
        }
        let r = inf.range(&nested.ident);
        inf.report(Diagnostic::new(Code::UnsupportedArgument, r, msg));
    }
}

pub(super) fn variable(inf: &mut Infer, b: &Block, own: Option<&VarDecl>) {
    let name = b.labels.first().map(label_text).unwrap_or("");
    // Terraform 1.15: a const variable's value is used during init (module
    // sources), which neither a sensitive nor an ephemeral value may be.
    let flag =
        |key: &str| matches!(b.body.get_attribute(key).map(|a| &a.value), Some(Expression::Bool(x)) if *x.value());
    if flag("const") {
        let head = inf.range(&b.ident);
        let end = b.labels.last().map_or(head.end, |l| inf.range(l).end);
        for (key, what) in [("sensitive", "sensitive"), ("ephemeral", "ephemeral")] {
            if flag(key) {
                let msg = format!(
                    "Const variable cannot be {what}: a variable that is marked as `const` cannot also be marked as `{key}`"
                );
                inf.report(Diagnostic::new(Code::InvalidValue, head.start..end, msg));
            }
        }
    }
    let default = b.body.get_attribute("default");
    if let (Some(v), Some(d)) = (own, default) {
        let t = inf.expr(&d.value);
        if let Some(declared) = &v.declared {
            let related = Related {
                path: None,
                range: v.type_range.clone().unwrap_or(v.name_range.clone()),
                message: format!("the type of `var.{name}`"),
            };
            inf.check(&d.value, &t, declared, Some(related));
            if inf.env().dialect() == Dialect::OpenTofu {
                ignored_attributes(inf, &d.value, declared, &mut Vec::new());
            }
        }
        let non_nullable =
            matches!(b.body.get_attribute("nullable").map(|a| &a.value), Some(Expression::Bool(x)) if !*x.value());
        if non_nullable && matches!(d.value, Expression::Null(_)) {
            let r = inf.range(&d.value);
            inf.report(Diagnostic::new(
                Code::InvalidValue,
                r,
                "the default is null, but `nullable = false` forbids null",
            ));
        }
    }
    for a in b.body.attributes() {
        if !matches!(a.key.value().as_str(), "type" | "default") {
            inf.expr(&a.value);
        }
    }
    for v in b.body.get_blocks("validation") {
        nested_body(inf, &v.body, Dialect::Terraform);
    }
}

/// OpenTofu 1.11's "Object attribute is ignored" warning on a variable's
/// default: an object constructor's attribute that the object type it
/// converts to lacks is dropped (`lintVariableDefaultValue` in
/// internal/configs/named_values.go, `DiscardedObjectConstructorAttrs`).
/// `path`: the attributes and elements leading to `e`, for the message.
fn ignored_attributes(inf: &mut Infer, e: &Expression, target: &Type, path: &mut Vec<String>) {
    // An optional attribute's type, `union(T, none)`, converts as T.
    let members: Vec<&Type> = target.members().iter().filter(|m| !m.is_none()).collect();
    let target = match members.as_slice() {
        [only] => *only,
        _ => target,
    };
    match (e, target.kind()) {
        (Expression::Object(obj), Kind::Object(attrs)) => {
            for (key, value) in obj.iter() {
                let name = match key {
                    hcl_edit::expr::ObjectKey::Ident(id) => id.value().to_string(),
                    hcl_edit::expr::ObjectKey::Expression(Expression::String(s)) => s.value().to_string(),
                    _ => continue,
                };
                match attrs.iter().find(|(n, _)| *n == name) {
                    Some((_, t)) => {
                        path.push(format!(".{name}"));
                        ignored_attributes(inf, value.expr(), t, path);
                        path.pop();
                    }
                    None => {
                        let whose = if path.is_empty() {
                            "the object type of this variable".to_string()
                        } else {
                            format!("the object type of `{}`", path.concat().trim_start_matches('.'))
                        };
                        let mut msg = format!("`{name}` is ignored: {whose} has no attribute `{name}`");
                        if let Some(s) = types::suggest::closest(&name, attrs.iter().map(|(n, _)| n.as_str())) {
                            msg.push_str(&format!("; did you mean `{s}`?"));
                        }
                        let r = inf.range(key);
                        inf.report(Diagnostic::new(Code::UnsupportedArgument, r, msg).with_severity(Severity::Warning));
                    }
                }
            }
        }
        (Expression::Object(obj), Kind::Map(elem)) => {
            for (key, value) in obj.iter() {
                let name = match key {
                    hcl_edit::expr::ObjectKey::Ident(id) => id.value().to_string(),
                    hcl_edit::expr::ObjectKey::Expression(Expression::String(s)) => s.value().to_string(),
                    _ => "…".to_string(),
                };
                path.push(format!("[\"{name}\"]"));
                ignored_attributes(inf, value.expr(), elem, path);
                path.pop();
            }
        }
        (Expression::Array(items), Kind::List(elem) | Kind::Set(elem)) => {
            for (i, item) in items.iter().enumerate() {
                path.push(format!("[{i}]"));
                ignored_attributes(inf, item, elem, path);
                path.pop();
            }
        }
        (Expression::Array(items), Kind::Tuple(elems)) => {
            for (i, (item, elem)) in items.iter().zip(elems.iter()).enumerate() {
                path.push(format!("[{i}]"));
                ignored_attributes(inf, item, elem, path);
                path.pop();
            }
        }
        _ => {}
    }
}

/// A `.tfvars` value against its variable (when the directory declares any);
/// `tool` is who reads the file (Terraform or Packer). `vars` holds at
/// least the variables the item assigns. The variable's name is recorded
/// as looked up (and a suggestion for an unknown one as asked), so that a
/// patch finds the values to check again when a variable changes.
pub(super) fn tfvars_value(
    inf: &mut Infer,
    view: &View,
    a: &Attribute,
    vars: &HashMap<&str, (&VarRef, Option<Related>)>,
    has_vars: bool,
    tool: &str,
) {
    let t = inf.expr(&a.value);
    if !has_vars {
        return;
    }
    let name = a.key.value().as_str();
    view.lookups.borrow_mut().push((Space::Var, name.to_string()));
    match vars.get(name) {
        Some((v, related)) => {
            if let Some(declared) = &v.decl.declared {
                inf.check(&a.value, &t, declared, related.clone());
            }
        }
        None => {
            let mut msg = format!("`{name}` is not a variable of this module; {tool} ignores it with a warning");
            // The module's variable names (the answer does not depend on their order).
            if let Some(s) = view.suggest(Space::Var, name) {
                msg.push_str(&format!(" (did you mean `{s}`?)"));
            }
            let r = inf.range(&a.key);
            inf.report(Diagnostic::new(Code::UndefinedReference, r, msg).with_severity(Severity::Warning));
        }
    }
}
