//! References (`var.`, `local.`, resources, `module.`, PCL names) and the
//! traversals applied to them.

use super::*;

/// The roots of a Terraform reference that need no declaration in the
/// module, or are declared where this analysis does not look (data sources
/// scoped to a `check` block, `ephemeral` and `action` blocks, test files'
/// `run` and `output`), and Packer's (`source`, `build`, `packer`: `.pkr.hcl`
/// files follow the terraform dialect).
const ROOTS: [&str; 16] = [
    "path",
    "terraform",
    "self",
    "count",
    "each",
    "data",
    "ephemeral",
    "action",
    "list",
    "resource",
    "provider",
    "run",
    "output",
    "source",
    "build",
    "packer",
];

impl<'e, 's> Infer<'e, 's> {
    /// A bare name, then traversal operators applied to it.
    pub(super) fn variable(
        &mut self,
        name: &str,
        range: Range<usize>,
        ops: &[hcl_edit::Decorated<TraversalOperator>],
    ) -> (Type, Note) {
        if let Some((_, t)) = self.scope.iter().rev().find(|(n, _)| n == name) {
            let t = t.clone();
            return (self.apply_at(t, ops, Some(name.to_string())), Note::Plain);
        }
        if let Some(found) = self.library_reference(name, range.clone(), ops) {
            return found;
        }
        let dialect = self.env.dialect();
        let tf_like = dialect != Dialect::Pcl;
        if self.test_file.is_some() && dialect.is_terraform() {
            if let Some(found) = self.test_reference(name, &range, ops) {
                return found;
            }
        }
        let input = self.policy && name == "input";
        if tf_like && (name == "var" || name == "local" || input) {
            let space = if name == "local" { Space::Local } else { Space::Var };
            let (attr_name, rest, full) = match self.first_attr(&range, ops) {
                Ok(found) => found,
                Err(plain) => return plain,
            };
            if let Some((_, t)) = self.scoped_locals.iter().rev().find(|(n, _)| space == Space::Local && n == attr_name)
            {
                let t = t.clone();
                return (self.apply_at(t, rest, Some(format!("local.{attr_name}"))), Note::Plain);
            }
            return match self.env.lookup(space, attr_name) {
                Some((t, related)) => {
                    self.note(full, &t, Note::Reference(related.clone()));
                    let root = format!("{name}.{attr_name}");
                    let vouched = self.succeeds.iter().any(|p| p.starts_with(&root));
                    let defaulted = match space {
                        Space::Var if !vouched => {
                            self.env.var_default(attr_name).and_then(|d| self.default_steps(attr_name, d, rest))
                        }
                        _ => None,
                    };
                    let before = self.diagnostics.len();
                    if space == Space::Var && !rest.is_empty() {
                        self.null_default_step(&root);
                    }
                    let ty = self.apply_at(t, rest, Some(root));
                    // (What the declared type already reports is not repeated.)
                    if let Some(d) = defaulted.filter(|_| self.diagnostics.len() == before) {
                        self.report(d);
                    }
                    (ty, Note::Reference(related))
                }
                None => {
                    if !self.env.lenient() {
                        let mut msg = format!("`{name}.{attr_name}` is not declared in this module");
                        if let Some(s) = self.env.suggest(space, attr_name) {
                            msg.push_str(&format!("; did you mean `{name}.{s}`?"));
                        }
                        self.report(Diagnostic::new(Code::UndefinedReference, full, msg));
                    }
                    (Type::any(), Note::Plain)
                }
            };
        }
        if let Some(found) = crate::dialects::reference(self, name, &range, ops) {
            return found;
        }
        if dialect.is_terraform() && name == "module" {
            return self.module_reference(range, ops);
        }
        if !dialect.is_terraform() {
            if let Some((t, related)) = self.env.lookup(Space::Pcl, name) {
                return (self.apply(t, ops), Note::Reference(related));
            }
        }
        if dialect == Dialect::Pcl && !self.env.lenient() {
            let mut msg = format!("`{name}` is not defined in this program");
            if let Some(s) = self.env.suggest(Space::Pcl, name) {
                msg.push_str(&format!("; did you mean `{s}`?"));
            }
            self.report(Diagnostic::new(Code::UndefinedReference, range, msg));
            return (Type::any(), Note::Plain);
        }
        if dialect.is_terraform() {
            if let Some(found) = self.resource_reference(name, range.clone(), ops) {
                return found;
            }
            let pulumi = crate::dialects::pulumi_hcl::checks::is_root(dialect, name);
            if !self.env.lenient() && !ROOTS.contains(&name) && !pulumi {
                return self.undeclared(name, range, ops);
            }
        }
        // Terraform's other roots: path.*, terraform.workspace, resources
        // and data sources no schema describes. They are any.
        let t = match (name, ops.first().map(|o| o.value())) {
            ("path", Some(TraversalOperator::GetAttr(_))) | ("terraform", Some(TraversalOperator::GetAttr(_))) => {
                return (Type::string(), Note::Plain);
            }
            _ => Type::any(),
        };
        (self.apply(t, ops), Note::Plain)
    }

    /// A reference whose root Terraform does not know: `TYPE.NAME` of a
    /// resource no block declares is "Reference to undeclared resource", a
    /// bare name (`p` for `var.p`) "Invalid reference" (Terraform's
    /// `addrs.ParseRef`, reported by `validate` without any schema).
    fn undeclared(
        &mut self,
        name: &str,
        range: Range<usize>,
        ops: &[hcl_edit::Decorated<TraversalOperator>],
    ) -> (Type, Note) {
        let (msg, full, rest) = match ops.first().map(|o| o.value()) {
            Some(TraversalOperator::GetAttr(attr)) => {
                let key = format!("{name}.{}", attr.value());
                let mut msg = format!(
                    "`{key}` is not declared in this module: no `resource \"{name}\" \"{}\"` block",
                    attr.value()
                );
                if let Some(s) = self.env.suggest(Space::Resource, &key) {
                    msg.push_str(&format!("; did you mean `{s}`?"));
                }
                (msg, range.start..self.range(&ops[0]).end, &ops[1..])
            }
            _ => {
                let mut msg = format!("`{name}` is not a reference Terraform knows");
                if self.env.lookup(Space::Var, name).is_some() {
                    msg.push_str(&format!("; did you mean `var.{name}`?"));
                } else if self.env.lookup(Space::Local, name).is_some() {
                    msg.push_str(&format!("; did you mean `local.{name}`?"));
                } else {
                    msg.push_str(": a resource type must be followed by the resource's name (`TYPE.NAME`)");
                }
                (msg, range, ops)
            }
        };
        self.report(Diagnostic::new(Code::UndefinedReference, full, msg));
        (self.apply(Type::any(), rest), Note::Plain)
    }

    /// `TYPE.NAME…` or `data.TYPE.NAME…` of a declared resource or data
    /// source (its schema's attributes; `any` without one). `None` when
    /// the reference names none: it stays `any`, unreported, as before
    /// resources were declared.
    pub(super) fn resource_reference(
        &mut self,
        name: &str,
        range: Range<usize>,
        ops: &[hcl_edit::Decorated<TraversalOperator>],
    ) -> Option<(Type, Note)> {
        if matches!(name, "path" | "terraform" | "self" | "count" | "each") {
            return None;
        }
        let attr = |i: usize| match ops.get(i).map(|o| o.value()) {
            Some(TraversalOperator::GetAttr(a)) => Some(a.value().as_str()),
            _ => None,
        };
        let (key, used) = if name == "data" {
            (format!("data.{}.{}", attr(0)?, attr(1)?), 2)
        } else {
            (format!("{name}.{}", attr(0)?), 1)
        };
        let (t, related) = self.env.lookup(Space::Resource, &key)?;
        let full = range.start..self.range(&ops[used - 1]).end;
        self.note(full, &t, Note::Reference(related.clone()));
        Some((self.apply(t, &ops[used..]), Note::Reference(related)))
    }

    /// The name of `var.NAME…`-like traversals: the first `.NAME`, the
    /// operators after it and the range up to it; else what the traversal
    /// is without one (`any`).
    #[allow(clippy::type_complexity)]
    pub(crate) fn first_attr<'o>(
        &mut self,
        range: &Range<usize>,
        ops: &'o [hcl_edit::Decorated<TraversalOperator>],
    ) -> Result<(&'o str, &'o [hcl_edit::Decorated<TraversalOperator>], Range<usize>), (Type, Note)> {
        let Some((first, rest)) = ops.split_first() else {
            return Err((Type::any(), Note::Plain));
        };
        let TraversalOperator::GetAttr(attr) = first.value() else {
            return Err((self.apply(Type::any(), ops), Note::Plain));
        };
        Ok((attr.value().as_str(), rest, range.start..self.range(first).end))
    }

    /// `module.NAME…`: the call's outputs (`module.NAME.OUTPUT` noted as a
    /// reference to the output in the called module).
    pub(super) fn module_reference(
        &mut self,
        range: Range<usize>,
        ops: &[hcl_edit::Decorated<TraversalOperator>],
    ) -> (Type, Note) {
        let (call, _, _) = match self.first_attr(&range, ops) {
            Ok(found) => found,
            Err(plain) => return plain,
        };
        self.module_reference_of(call, "module", range, ops)
    }

    /// `ROOT.NAME.OUTPUT…` of the call `call` (`module.NAME`, a test's `run.NAME`).
    pub(crate) fn module_reference_of(
        &mut self,
        call: &str,
        root: &str,
        range: Range<usize>,
        ops: &[hcl_edit::Decorated<TraversalOperator>],
    ) -> (Type, Note) {
        let (shown, rest, full) = match self.first_attr(&range, ops) {
            Ok(found) => found,
            Err(plain) => return plain,
        };
        let Some((t, related)) = self.env.lookup(Space::Module, call) else {
            if !self.env.lenient() {
                let mut msg = format!("`module.{call}` is not declared in this module");
                if let Some(s) = self.env.suggest(Space::Module, call) {
                    msg.push_str(&format!("; did you mean `module.{s}`?"));
                }
                self.report(Diagnostic::new(Code::UndefinedReference, full, msg));
            }
            return (self.apply(Type::any(), rest), Note::Plain);
        };
        self.note(full, &t, Note::Reference(related.clone()));
        let output = rest.first().and_then(|op| match op.value() {
            TraversalOperator::GetAttr(o) => self.env.module_output(call, o.value().as_str()).map(|r| (op, r)),
            _ => None,
        });
        match output {
            Some((op, (output_related, description))) => {
                let t = self.apply(t, &rest[..1]);
                let out_range = range.start..self.range(op).end;
                if let TraversalOperator::GetAttr(o) = op.value() {
                    let callee = self.env.callee(call);
                    let output = callee.as_ref().and_then(|c| c.interface()).and_then(|i| i.output(o.value()));
                    if let Some(why) = output.and_then(|o| o.deprecated.clone()) {
                        // Terraform 1.15 warns where a deprecated output is used.
                        let msg = format!("output `{}` of {root} `{shown}` is deprecated: {why}", o.value());
                        let d = Diagnostic::new(Code::Deprecated, out_range.clone(), msg);
                        self.report(d.with_severity(Severity::Warning));
                    }
                }
                if let Some(d) = description {
                    self.note(out_range.clone(), &t, Note::Doc(d));
                }
                self.note(out_range, &t, Note::Reference(Some(output_related.clone())));
                (self.apply(t, &rest[1..]), Note::Reference(Some(output_related)))
            }
            None => (self.apply(t, rest), Note::Reference(related)),
        }
    }

    /// A test file's `run.NAME…` (the run's module's outputs), and in its
    /// assertions `output.NAME` and `var.NAME` (the module they look at);
    /// `None` for other names, and for `var.NAME` the module does not
    /// declare (a test-only variable, `any`).
    fn test_reference(
        &mut self,
        name: &str,
        range: &Range<usize>,
        ops: &[hcl_edit::Decorated<TraversalOperator>],
    ) -> Option<(Type, Note)> {
        match name {
            "run" => {
                let (run, _, full) = match self.first_attr(range, ops) {
                    Ok(found) => found,
                    Err(plain) => return Some(plain),
                };
                let file = self.test_file.clone().unwrap_or_default();
                let call = crate::calls::run_call(&file, run);
                if self.env.lookup(Space::Module, &call).is_none() {
                    // Terraform: "Reference to unknown run block".
                    let msg = format!("`run.{run}` is not a run block of this test file");
                    self.report(Diagnostic::new(Code::UndefinedReference, full, msg));
                    return Some((self.apply(Type::any(), &ops[1..]), Note::Plain));
                }
                if let Some((current, _)) = self.run.clone() {
                    let here = self.env.lookup(Space::Module, &crate::calls::run_call(&file, &current));
                    let there = self.env.lookup(Space::Module, &call);
                    let later = match (here.and_then(|h| h.1), there.and_then(|t| t.1)) {
                        (Some(h), Some(t)) => h.path == t.path && t.range.start > h.range.start,
                        _ => false,
                    };
                    // Terraform: "Self reference", and a "Cycle" for a later
                    // run (each run follows the ones above it).
                    let why = if run == current {
                        Some("a run's outputs are not known inside the run itself")
                    } else if later {
                        Some("it runs after this one, so its outputs are not known here")
                    } else {
                        None
                    };
                    if let Some(why) = why {
                        let msg = format!("`run.{run}` cannot be used here: {why}");
                        self.report(Diagnostic::new(Code::UndefinedReference, full, msg));
                        return Some((self.apply(Type::any(), &ops[1..]), Note::Plain));
                    }
                }
                Some(self.module_reference_of(&call, "run", range.clone(), ops))
            }
            "output" | "var" => {
                let tested = self.tested.clone()?;
                let callee = self.env.callee(&tested)?;
                let i = callee.interface()?;
                let (attr, rest, full) = match self.first_attr(range, ops) {
                    Ok(found) => found,
                    Err(plain) => return Some(plain),
                };
                let (ty, related, doc) = if name == "var" {
                    let Some(input) = i.input(attr) else {
                        // A test-only variable: the file's or the run's (any).
                        let own = self.run.as_ref().is_some_and(|(_, vars)| vars.iter().any(|v| v == attr));
                        let file = self.test_file.clone().unwrap_or_default();
                        if !own && self.env.lookup(Space::Module, &crate::calls::test_var(&file, attr)).is_none() {
                            // Terraform: "Reference to undeclared input variable".
                            let msg = format!(
                                "`var.{attr}` is declared neither in the module under test nor in this test file's `variables`"
                            );
                            self.report(Diagnostic::new(Code::UndefinedReference, full, msg));
                        }
                        return Some((self.apply(Type::any(), rest), Note::Plain));
                    };
                    let r = Related {
                        path: Some(input.path.clone()),
                        range: input.name_range.clone(),
                        message: format!("variable `{attr}` of the module under test"),
                    };
                    (input.value.clone(), r, input.description.clone())
                } else {
                    let Some(o) = i.output(attr) else {
                        let mut msg = format!("`output.{attr}` is not declared in the module under test");
                        if let Some(s) = types::suggest::closest(attr, i.outputs.iter().map(|o| o.name.as_str())) {
                            msg.push_str(&format!("; did you mean `output.{s}`?"));
                        }
                        self.report(Diagnostic::new(Code::UndefinedReference, full, msg));
                        return Some((self.apply(Type::any(), rest), Note::Plain));
                    };
                    let r = Related {
                        path: Some(o.path.clone()),
                        range: o.name_range.clone(),
                        message: format!("output `{attr}` of the module under test"),
                    };
                    (o.ty.clone(), r, o.description.clone())
                };
                if let Some(d) = doc {
                    self.note(full.clone(), &ty, Note::Doc(d));
                }
                self.note(full, &ty, Note::Reference(Some(related.clone())));
                Some((self.apply(ty, rest), Note::Reference(Some(related))))
            }
            _ => None,
        }
    }

    pub(super) fn traversal(
        &mut self,
        root: &Expression,
        ops: &[hcl_edit::Decorated<TraversalOperator>],
    ) -> (Type, Note) {
        if let Expression::Variable(v) = root {
            return self.variable(v.value().as_str(), self.range(v), ops);
        }
        let t = self.expr(root);
        (self.apply(t, ops), Note::Plain)
    }

    /// A variable of type `any` is its default where no value is passed:
    /// the first step of `ops` that fails on the default's type, as a
    /// warning (a caller may pass another shape). Steps after a splat or a
    /// key that is not a constant are not followed.
    fn default_steps(
        &self,
        name: &str,
        default: Type,
        ops: &[hcl_edit::Decorated<TraversalOperator>],
    ) -> Option<Diagnostic> {
        let mut t = default.clone();
        for op in ops {
            let step = match op.value() {
                TraversalOperator::GetAttr(a) => Step::Attr(a.value().to_string()),
                TraversalOperator::LegacyIndex(n) => Step::Index(Value::Int((*n.value()).into())),
                TraversalOperator::Index(key) => match eval(key, self.src) {
                    Ok(v @ (Value::Int(_) | Value::Number(_) | Value::String(_) | Value::Bool(_))) => Step::Index(v),
                    _ => return None,
                },
                _ => return None,
            };
            let r = types::traverse(&t, &step);
            if let Some(d) = r.diags.iter().find(|d| d.severity == types::Severity::Error) {
                let msg = format!(
                    "`var.{name}` takes any type, and where no value is passed it is its default, a `{}`: {}",
                    default.brief(),
                    d.message
                );
                return Some(Diagnostic::new(Code::Traversal, self.range(op), msg).with_severity(Severity::Warning));
            }
            t = r.ty;
        }
        None
    }

    /// Applies traversal operators step by step (types.md §5), splats included.
    pub(crate) fn apply(&mut self, t: Type, ops: &[hcl_edit::Decorated<TraversalOperator>]) -> Type {
        self.apply_at(t, ops, None)
    }

    /// [`Self::apply`] to the reference `path` (its root name, or
    /// `var.NAME`/`local.NAME`), whose steps a null guard may narrow
    /// (guards.rs); `None` once a step is not a constant one.
    pub(crate) fn apply_at(
        &mut self,
        mut t: Type,
        ops: &[hcl_edit::Decorated<TraversalOperator>],
        mut path: Option<String>,
    ) -> Type {
        if self.nonnull.is_empty() && self.succeeds.is_empty() {
            path = None;
        }
        if let Some(p) = &path {
            t = self.narrow(p, t);
        }
        let mut i = 0;
        let mut nulled = false;
        while i < ops.len() {
            let op = &ops[i];
            let range = self.range(op);
            let step = match op.value() {
                TraversalOperator::GetAttr(name) => Step::Attr(name.value().to_string()),
                TraversalOperator::LegacyIndex(n) => Step::Index(Value::Int((*n.value()).into())),
                TraversalOperator::Index(key) => {
                    let kt = self.expr(key);
                    match eval(key, self.src) {
                        Ok(v @ (Value::Int(_) | Value::Number(_) | Value::String(_) | Value::Bool(_))) => {
                            Step::Index(v)
                        }
                        _ => Step::Typed(kt),
                    }
                }
                TraversalOperator::AttrSplat(_) | TraversalOperator::FullSplat(_) => {
                    // An attribute splat takes the attribute accesses after
                    // it; a full splat takes every operator after it.
                    let full = matches!(op.value(), TraversalOperator::FullSplat(_));
                    let end = if full {
                        ops.len()
                    } else {
                        i + 1
                            + ops[i + 1..]
                                .iter()
                                .take_while(|o| matches!(o.value(), TraversalOperator::GetAttr(_)))
                                .count()
                    };
                    let elem = splat_element(&t);
                    let inner = self.apply(elem.strip(Strip::Eventuals), &ops[i + 1..end]);
                    t = t.rewrap(Type::list(inner));
                    i = end;
                    path = None;
                    continue;
                }
            };
            let r = types::traverse(&t, &step);
            // A guard says this step does not fail (`can(x.a) ? x.a : …`):
            // where the type says it does, the value has another shape.
            let next = path.as_ref().and_then(|p| Some(p.clone() + &guards::step_text(&step)?));
            // (Not a misspelt name, "did you mean": a guard on it is the
            // bug, reported where the branch uses it.)
            let misspelt = r.diags.iter().any(|d| d.message.contains("did you mean"));
            if next.as_deref().is_some_and(|p| self.vouched(p)) && !misspelt {
                let failed = r.diags.iter().any(|d| d.severity == types::Severity::Error);
                t = if failed { Type::any() } else { self.narrow(next.as_deref().unwrap_or_default(), r.ty) };
                path = next;
                i += 1;
                continue;
            }
            // An object of a schema that may be older than the module's
            // provider (wherever it flowed): what it lacks is a warning.
            if let (Step::Attr(_), false) = (&step, r.diags.is_empty()) {
                if let Some(origin) = self.open_schema(&t) {
                    let msg = format!("{} (schema {origin}; the module's provider may differ)", r.diags[0].message);
                    self.report(Diagnostic::new(Code::Traversal, range, msg).with_severity(Severity::Warning));
                    t = Type::any();
                    i += 1;
                    path = None;
                    continue;
                }
            }
            // A step that leaves only null because every other member failed
            // fails at run time, which is what try() and can() catch.
            let only_null = r.ty.is_none() && !t.is_none() && !r.diags.is_empty();
            if self.suppress > 0 && only_null {
                self.caught = true;
                self.caught_why = r.diags.first().map(|d| d.message.clone());
            }
            // Terraform: the non-null members' type says what the value has
            // (an `optional(object(…))` lacking the attribute), and HCL checks
            // the type before the value: "Unsupported attribute" whether the
            // value is null or not (types.md §5, Terraform).
            if only_null && self.env.dialect().is_terraform() {
                for d in &r.diags {
                    let msg = d.message.strip_prefix(types::ALWAYS_NULL).unwrap_or(&d.message);
                    let msg = format!("{msg} (whether the value is null or not)");
                    self.report(Diagnostic::new(Code::Traversal, range.clone(), msg));
                }
                t = Type::any();
                i += 1;
                path = None;
                continue;
            }
            // Once a step has said the chain is always null, the steps after
            // it on that null would only repeat it.
            let repeats = nulled && t.is_none();
            nulled = r.ty.is_none() && !r.diags.is_empty();
            for d in r.diags.iter().filter(|_| !repeats) {
                let sev = if d.severity == types::Severity::Error { Severity::Error } else { Severity::Warning };
                self.report(Diagnostic::new(Code::Traversal, range.clone(), d.message.clone()).with_severity(sev));
            }
            t = r.ty;
            path = path.and_then(|p| Some(p + &guards::step_text(&step)?));
            if let Some(p) = &path {
                t = self.narrow(p, t);
            }
            i += 1;
        }
        match &path {
            Some(p) => self.refine(p, t),
            None => t,
        }
    }
}
