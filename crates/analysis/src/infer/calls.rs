//! Function calls: built-in functions, provider-defined functions and
//! Pulumi's `invoke`.

use super::*;
use schema::pulumi::Lookup;

fn dialect_is_terraform(inf: &Infer) -> bool {
    inf.env().dialect().is_terraform()
}

impl<'e, 's> Infer<'e, 's> {
    /// Terraform 1.15's `convert(value, type)`: the second argument is a
    /// type expression (with `optional` defaults), the value a check site
    /// against it, and the result that type with the defaults applied.
    fn convert(&mut self, value: &Expression, ty: &Expression) -> Type {
        let t = self.expr(value);
        let named: Option<&dyn syntax::typeexpr::NamedTypes> =
            self.env.symbols().map(|s| s as &dyn syntax::typeexpr::NamedTypes);
        let ctx = syntax::typeexpr::TypeContext::variable(Dialect::Terraform);
        let te = syntax::typeexpr::parse_type_named(ty, self.src, ctx, named);
        self.diagnostics.extend(te.diagnostics);
        self.type_nodes.extend(te.nodes);
        self.check(value, &t, &te.declared, None);
        te.value
    }

    /// Whether evaluating `e` cannot fail: a constant, or `var.`/`local.`
    /// and attributes that objects of its type all have (a null object's
    /// attribute fails, so none of them may take null).
    fn cannot_fail(&self, e: &Expression) -> bool {
        if eval(e, self.src).is_ok() {
            return true;
        }
        let Expression::Traversal(t) = e else { return false };
        let Expression::Variable(root) = &t.expr else { return false };
        let space = match root.value().as_str() {
            "var" => Space::Var,
            "local" => Space::Local,
            _ => return false,
        };
        if self.scope.iter().any(|(n, _)| n == root.value().as_str()) {
            return false;
        }
        let mut ops = t.operators.iter().map(|o| o.value());
        let Some(TraversalOperator::GetAttr(name)) = ops.next() else { return false };
        let Some((mut ty, _)) = self.env.lookup(space, name.value().as_str()) else { return false };
        for op in ops {
            let TraversalOperator::GetAttr(a) = op else { return false };
            let next = match ty.kind() {
                Kind::Object(_) => ty.attribute(a.value().as_str()).cloned(),
                _ => None,
            };
            match next {
                Some(n) => ty = n,
                None => return false,
            }
        }
        true
    }

    pub(super) fn call(&mut self, call: &FuncCall) -> Type {
        let name = call.name.name.value().as_str();
        let name_range = self.range(&call.name.name);
        let args: Vec<&Expression> = call.args.iter().collect();
        if call.name.is_namespaced() {
            // Provider-defined functions (provider::NS::NAME) are never
            // unknown; a schema that has one types its arguments and result.
            let types: Vec<Type> = args.iter().map(|a| self.expr(a)).collect();
            if let Some(t) = self.symbol_function(call, &args, &types) {
                return t;
            }
            return self.provider_function(call, &args, &types).unwrap_or_else(Type::any);
        }
        if name == "convert" && self.env.dialect().is_terraform() && args.len() == 2 && !call.args.expand_final() {
            return self.convert(args[0], args[1]);
        }
        let catches = matches!(name, "try" | "can");
        let outer = (self.caught_why.take(), self.may_fail.take());
        if catches {
            self.suppress += 1;
        }
        // PCL's `recover(value, fallback)` names the failure `error`.
        let recover = name == "recover" && self.env.dialect() == Dialect::Pcl;
        if recover {
            self.bind("error", Type::string());
        }
        let mut types = Vec::with_capacity(args.len());
        let mut kept = Vec::new();
        let mut parts = Vec::new();
        for a in &args {
            let saved = std::mem::replace(&mut self.caught, false);
            let t = self.expr(a);
            if !self.caught {
                kept.push(t.clone());
            }
            parts.push((!self.caught).then(|| t.clone()));
            self.caught = saved || (self.caught && self.suppress > 1);
            types.push(t);
        }
        if catches {
            self.suppress -= 1;
        }
        let (why, maybe) = (self.caught_why.take(), self.may_fail.take());
        if !catches {
            // What fails in a call's arguments fails its caller's too.
            (self.caught_why, self.may_fail) = (why.clone(), maybe.clone());
        }
        if self.caught_why.is_none() && self.may_fail.is_none() {
            (self.caught_why, self.may_fail) = outer;
        }
        if name == "can" && dialect_is_terraform(self) && matches!(parts.as_slice(), [None]) && why.is_some() {
            self.dead_can(call, why.clone());
        }
        if name == "try" {
            if why.as_deref().is_some_and(dead::misspelt) {
                self.misspelt_tries.insert(self.range(call));
            }
            self.failing_try(call, &parts, why, maybe);
        }
        if name == "templatefile" && dialect_is_terraform(self) && args.len() == 2 && !call.args.expand_final() {
            self.template_file(args[0], args[1], &types[1].strip(Strip::Eventuals));
        }
        if name == "jsondecode" && self.env.dialect() == Dialect::Hcl && args.len() == 1 {
            if let Some(t) = self.tfvars_file(args[0]) {
                return t;
            }
        }
        if name == "read_terragrunt_config" && self.env.dialect() == Dialect::Hcl && (1..=2).contains(&args.len()) {
            if let Some(t) = self.terragrunt_config(args[0], types.get(1)) {
                return t;
            }
        }
        if name == "try" && !call.args.expand_final() {
            // After an argument that cannot fail, the others are never used.
            if let Some(i) = args.iter().position(|a| self.cannot_fail(a)) {
                parts.iter_mut().skip(i + 1).for_each(|p| *p = None);
            }
            let range = self.range(call);
            self.try_args.insert(range, parts);
        }
        if recover {
            self.unbind(1);
        }
        let dialect = self.env.dialect();
        let Some(f) = functions::lookup(dialect, name) else {
            if let Some(new) = functions::pulumi_hcl_renamed(name).filter(|_| dialect == Dialect::PulumiHcl) {
                // Certain, so said as such (the quick fix renames it).
                let msg = format!(
                    "`{name}` was renamed `{new}` in pulumi-hcl (2026-08-03, pulumi/pulumi-hcl#504), with no alias: write `{new}`"
                );
                self.report(Diagnostic::new(Code::UnknownFunction, name_range, msg));
                return Type::lift(Type::any(), &types.iter().collect::<Vec<_>>());
            }
            let mut msg = format!("`{name}` is not a function of the {dialect} dialect");
            if let Some(s) = suggest::closest(name, functions::names(dialect)) {
                msg.push_str(&format!("; did you mean `{s}`?"));
            }
            self.report(Diagnostic::new(Code::UnknownFunction, name_range, msg));
            return Type::lift(Type::any(), &types.iter().collect::<Vec<_>>());
        };
        if dialect.is_terraform() && matches!(name, "list" | "map") {
            // Terraform: "the list function was deprecated in Terraform
            // v0.12 and is no longer available" (an error since 0.15).
            let (what, write) = if name == "list" { ("list", "tolist([…])") } else { ("map", "tomap({…})") };
            let msg = format!("`{name}` was removed in Terraform 0.15: write the {what} as `{write}`");
            self.report(Diagnostic::new(Code::UnknownFunction, self.range(call), msg));
        }
        let expand = call.args.expand_final();
        let (min, max) = f.arity();
        if !expand && (args.len() < min || max.is_some_and(|m| args.len() > m)) {
            let want = match max {
                Some(m) if m == min => format!("{min}"),
                Some(m) => format!("{min} to {m}"),
                None => format!("at least {min}"),
            };
            let plural = if want == "1" { "" } else { "s" };
            self.report(Diagnostic::new(
                Code::ArgumentCount,
                self.range(call),
                format!(
                    "`{}` takes {want} argument{plural}, but {} {} given",
                    f.label(),
                    args.len(),
                    if args.len() == 1 { "is" } else { "are" }
                ),
            ));
        }
        for (i, (a, t)) in args.iter().zip(&types).enumerate() {
            if expand && i == args.len() - 1 {
                // `f(xs...)`: the collection's elements are the arguments.
                let elems = functions::expand_final(std::slice::from_ref(&t.strip(Strip::Eventuals)));
                let range = self.range(*a);
                for (j, e) in elems.iter().enumerate() {
                    if let Some(p) = f.param(i + j) {
                        self.check_type(range.clone(), e, &p.ty.clone());
                    }
                }
                continue;
            }
            if let Some(p) = f.param(i) {
                self.check(a, t, &p.ty.clone(), None);
            }
        }
        if name == "invoke" && dialect == Dialect::Pcl {
            if let Some(t) = self.pulumi_invoke(&args, &types) {
                return t;
            }
        }
        let stripped: Vec<Type> = types.iter().map(|t| t.strip(Strip::Eventuals)).collect();
        let ret = match name {
            "try" => unify_safe_fold(&kept),
            "jsondecode" if dialect.is_terraform() => {
                self.decoded_file(&args).unwrap_or_else(|| functions::return_type(f, &stripped))
            }
            "lookup" if !expand => {
                self.lookup_attribute(&args, &stripped).unwrap_or_else(|| functions::return_type(f, &stripped))
            }
            _ if expand => functions::return_type(f, &functions::expand_final(&stripped)),
            _ => functions::return_type(f, &stripped),
        };
        Type::lift(ret, &types.iter().collect::<Vec<_>>())
    }

    /// `invoke("TOKEN", {…})` of a function a package schema has: its
    /// result, `promise(T)`, or `output(T)` when an argument is an output
    /// (as Pulumi's binder types it).
    pub(super) fn pulumi_invoke(&mut self, args: &[&Expression], types: &[Type]) -> Option<Type> {
        let first = args.first()?;
        let Ok(Value::String(token)) = eval(first, self.src) else { return None };
        let schemas = self.env.schemas()?;
        let f = match schemas.pulumi_function(&token)? {
            (Lookup::Found(f), _) => f,
            (Lookup::Ambiguous(tokens), file) => {
                let range = self.range(*first);
                self.report(crate::module::ambiguous(range, "invoke", &token, &tokens, &file.label));
                return None;
            }
            (Lookup::Missing, _) => return None,
        };
        let t = f.outputs.clone();
        Some(if types.iter().any(Type::contains_output) { Type::output(t) } else { Type::promise(t) })
    }

    /// The schema file an object type comes from when that file is not
    /// known to match the module's providers.
    pub(super) fn open_schema(&self, t: &Type) -> Option<String> {
        let inner = t.strip(Strip::Eventuals);
        let objects: Vec<&Type> = match inner.kind() {
            Kind::Object(_) => vec![&inner],
            Kind::Union(ms) => ms.iter().filter(|m| matches!(m.kind(), Kind::Object(_))).collect(),
            _ => return None,
        };
        let schemas = self.env.schemas()?;
        objects.into_iter().find_map(|o| schemas.open_origin(o).map(String::from))
    }

    /// `provider::NAME::FUNCTION(…)` from a provider schema's `functions`:
    /// each argument checked against its parameter, the declared result.
    pub(super) fn provider_function(&mut self, call: &FuncCall, args: &[&Expression], types: &[Type]) -> Option<Type> {
        let [ns, provider] = &call.name.namespace[..] else { return None };
        if ns.value().as_str() != "provider" {
            return None;
        }
        let schemas = self.env.schemas()?;
        let f = schemas.function(provider.value().as_str(), call.name.name.value().as_str())?;
        let fixed = f.parameters.len();
        if args.len() < fixed || (f.variadic.is_none() && args.len() > fixed) {
            let want = if f.variadic.is_some() { format!("at least {fixed}") } else { fixed.to_string() };
            let r = self.range(call);
            self.report(Diagnostic::new(
                Code::ArgumentCount,
                r,
                format!(
                    "`provider::{}::{}` takes {want} argument(s), but {} given",
                    provider.value().as_str(),
                    call.name.name.value().as_str(),
                    args.len()
                ),
            ));
        }
        for (i, (a, t)) in args.iter().zip(types).enumerate() {
            let p = f.parameters.get(i).or(f.variadic.as_ref());
            if let Some((_, ty)) = p {
                self.check(a, t, ty, None);
            }
        }
        Some(Type::lift(f.returns.clone(), &types.iter().collect::<Vec<_>>()))
    }

    /// `lookup(object, "name", default)` with a literal name: that
    /// attribute's type, or the default's when the object lacks it (more
    /// precise than the union of all attributes a signature can give).
    pub(super) fn lookup_attribute(&self, args: &[&Expression], types: &[Type]) -> Option<Type> {
        let Kind::Object(_) = types.first()?.kind() else { return None };
        let Ok(Value::String(name)) = eval(args.get(1)?, self.src) else { return None };
        match (types[0].attribute(&name), types.get(2)) {
            (Some(t), Some(d)) => Some(unify_safe(t, d)),
            (Some(t), None) => Some(t.clone()),
            (None, Some(d)) => Some(d.clone()),
            (None, None) => None,
        }
    }
}

impl Infer<'_, '_> {
    /// `jsondecode(read_tfvars_file(PATH))` in a Terragrunt file
    /// (terragrunt.md §9): Terragrunt's `read_tfvars_file` gives a tfvars
    /// file's values as JSON (`readTFVarsFileImpl` in gruntwork-io/terragrunt
    /// `pkg/config/config_helpers.go`, PATH relative to the working
    /// directory, the unit's), so the decoded object has the file's
    /// attributes, each of its constant's type (else `any`). `None` for a
    /// path not constant, a `.json` file, or a file not read.
    fn tfvars_file(&mut self, e: &Expression) -> Option<Type> {
        let Expression::FuncCall(call) = e else { return None };
        if call.name.is_namespaced() || call.name.name.value().as_str() != "read_tfvars_file" || call.args.len() != 1 {
            return None;
        }
        let arg = call.args.iter().next()?;
        let path = match eval(arg, self.src) {
            Ok(Value::String(s)) => s,
            _ => {
                // `"${get_terragrunt_dir()}/REST"`
                let Expression::StringTemplate(t) = arg else { return None };
                let mut parts = t.iter();
                let Some(hcl_edit::template::Element::Interpolation(i)) = parts.next() else { return None };
                let Expression::FuncCall(f) = &i.expr else { return None };
                if f.name.name.value().as_str() != "get_terragrunt_dir" || !f.args.is_empty() {
                    return None;
                }
                let mut rest = String::new();
                for p in parts {
                    let hcl_edit::template::Element::Literal(l) = p else { return None };
                    rest.push_str(l.value());
                }
                rest.strip_prefix('/')?.to_string()
            }
        };
        if path.ends_with("json") || std::path::Path::new(&path).is_absolute() {
            return None;
        }
        let file: std::path::PathBuf = self.env.module_dir()?.join(path).components().collect();
        let text = self.env.read_file(&file)?;
        let body = syntax::deep::parse_body(&text).ok()?;
        let src = syntax::constant::Source::new(&text, 0);
        let attrs = body
            .attributes()
            .map(|a| {
                let t = eval(&a.value, src).map_or_else(|_| Type::any(), |v| v.type_of());
                (a.key.value().to_string(), t)
            })
            .collect::<Vec<_>>();
        Some(Type::object(attrs))
    }
}
