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
            return (self.apply(t, ops), Note::Plain);
        }
        let dialect = self.env.dialect();
        let tf_like = dialect != Dialect::Pcl;
        if tf_like && (name == "var" || name == "local") {
            let space = if name == "var" { Space::Var } else { Space::Local };
            let (attr_name, rest, full) = match self.first_attr(&range, ops) {
                Ok(found) => found,
                Err(plain) => return plain,
            };
            return match self.env.lookup(space, attr_name) {
                Some((t, related)) => {
                    self.note(full, &t, Note::Reference(related.clone()));
                    (self.apply(t, rest), Note::Reference(related))
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
        if dialect == Dialect::Terraform && name == "module" {
            return self.module_reference(range, ops);
        }
        if dialect != Dialect::Terraform {
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
        if dialect == Dialect::Terraform {
            if let Some(found) = self.resource_reference(name, range.clone(), ops) {
                return found;
            }
            if !self.env.lenient() && !ROOTS.contains(&name) {
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
    fn first_attr<'o>(
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
        let (call, rest, full) = match self.first_attr(&range, ops) {
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
                        let msg = format!("output `{}` of module `{call}` is deprecated: {why}", o.value());
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

    /// Applies traversal operators step by step (types.md §5), splats included.
    pub(super) fn apply(&mut self, mut t: Type, ops: &[hcl_edit::Decorated<TraversalOperator>]) -> Type {
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
                    continue;
                }
            };
            let r = types::traverse(&t, &step);
            // An object of a schema that may be older than the module's
            // provider (wherever it flowed): what it lacks is a warning.
            if let (Step::Attr(_), false) = (&step, r.diags.is_empty()) {
                if let Some(origin) = self.open_schema(&t) {
                    let msg = format!("{} (schema {origin}; the module's provider may differ)", r.diags[0].message);
                    self.report(Diagnostic::new(Code::Traversal, range, msg).with_severity(Severity::Warning));
                    t = Type::any();
                    i += 1;
                    continue;
                }
            }
            // A step that leaves only null because every other member failed
            // fails at run time, which is what try() and can() catch.
            if self.suppress > 0 && r.ty.is_none() && !t.is_none() && !r.diags.is_empty() {
                self.caught = true;
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
            i += 1;
        }
        t
    }
}
