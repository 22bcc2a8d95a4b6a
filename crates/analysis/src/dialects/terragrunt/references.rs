//! References whose roots Terragrunt files scope (terragrunt.md):
//! `include.LABEL…`, `dependency.NAME.outputs…`, `values.KEY…`, and a
//! stack file's `unit.NAME…` and `stack.NAME…`, asked for by
//! [`super::Terragrunt`]'s [`Handler::reference`](crate::dialects::Handler::reference).

use std::ops::Range;

use hcl_edit::expr::TraversalOperator;
use syntax::diagnostic::{Code, Diagnostic, Related, Severity};
use syntax::Dialect;
use types::Type;

use crate::calls::Callee;
use crate::infer::{Infer, Note, Space};

/// The `.NAME` steps of a Terragrunt file's `ROOT.…` (`include.LABEL…`,
/// `dependency.NAME…`): the attribute name at each step, `None` past the
/// end or at an index; `None` altogether in another dialect or root.
fn terragrunt_steps<'o>(
    dialect: Dialect,
    name: &str,
    root: &str,
    ops: &'o [hcl_edit::Decorated<TraversalOperator>],
) -> Option<impl Fn(usize) -> Option<&'o str>> {
    (dialect == Dialect::Hcl && name == root).then_some(move |i: usize| match ops.get(i).map(|o| o.value()) {
        Some(TraversalOperator::GetAttr(a)) => Some(a.value().as_str()),
        _ => None,
    })
}

impl Infer<'_, '_> {
    /// A Terragrunt stack file's `unit.NAME…` or `stack.NAME…`
    /// (terragrunt.md §5): `BuildComponentRefMap` (internal/hclparse/stack.go
    /// of gruntwork-io/terragrunt) gives each component declared in the same
    /// file an object of its `path`; "referencing an undeclared name fails
    /// generation".
    pub(crate) fn terragrunt_component(
        &mut self,
        kind: &str,
        range: Range<usize>,
        ops: &[hcl_edit::Decorated<TraversalOperator>],
    ) -> (Type, Note) {
        let (attr, rest, full) = match self.first_attr(&range, ops) {
            Ok(found) => found,
            Err(plain) => return plain,
        };
        let key = crate::dialects::terragrunt::stack::component_name(kind, attr);
        let Some((t, related)) = self.env.lookup(Space::Pcl, &key) else {
            if !self.env.lenient() {
                let mut msg = format!(
                    "`{key}` is not declared in this stack file: no `{kind} \"{attr}\"` block (only the file's own components are visible)"
                );
                if let Some(s) = self.env.suggest(Space::Pcl, &key).filter(|s| s.starts_with(&format!("{kind}."))) {
                    msg.push_str(&format!("; did you mean `{s}`?"));
                }
                self.report(Diagnostic::new(Code::UndefinedReference, full, msg));
            }
            return (self.apply(Type::any(), rest), Note::Plain);
        };
        self.note(full, &t, Note::Reference(related.clone()));
        (self.apply_at(t, rest, Some(key)), Note::Reference(related))
    }

    /// A Terragrunt unit's `include.LABEL…` (terragrunt.md §3): only an
    /// include with `expose = true` is there (`includeMapAsCtyVal` in
    /// gruntwork-io/terragrunt `pkg/config/cty_helpers.go` puts the exposed
    /// ones alone in `include`), so another is HCL's "Unsupported attribute"
    /// when Terragrunt parses the unit. `include.LABEL.inputs…` and
    /// `include.LABEL.locals…` are the included file's, as its own analysis
    /// typed them; the rest of an exposed include is `any`. `None` where
    /// `LABEL` is no include of the unit.
    pub(crate) fn included_inputs(
        &mut self,
        dialect: Dialect,
        name: &str,
        range: &Range<usize>,
        ops: &[hcl_edit::Decorated<TraversalOperator>],
    ) -> Option<(Type, Note)> {
        let attr = terragrunt_steps(dialect, name, "include", ops)?;
        let label = attr(0)?;
        self.env.callee(&crate::calls::include_call(label))?;
        let Some(callee) = self.env.callee(&crate::calls::exposed_call(label)) else {
            if !self.env.lenient() {
                let msg = format!(
                    "include `{label}` is not exposed: Terragrunt's `include` holds only the includes with \
                     `expose = true`, so it has no attribute `{label}`"
                );
                let r = range.start..self.range(&ops[0]).end;
                self.report(Diagnostic::new(Code::Traversal, r, msg));
            }
            return Some((Type::any(), Note::Plain));
        };
        let (output, what) = match attr(1)? {
            "inputs" => (crate::calls::INCLUDED, "inputs"),
            "locals" => (crate::calls::INCLUDED_LOCALS, "locals"),
            _ => return None,
        };
        let whole = callee.interface()?.output(output)?;
        let related = Related {
            path: Some(whole.path.clone()),
            range: whole.name_range.clone(),
            message: format!("the {what} of include `{label}`"),
        };
        let t = whole.ty.clone();
        self.note(range.start..self.range(&ops[1]).end, &t, Note::Reference(Some(related.clone())));
        Some((self.apply(t, &ops[2..]), Note::Reference(Some(related))))
    }

    /// A Terragrunt unit's `dependency.NAME.outputs…` (terragrunt.md §7):
    /// the outputs of the module the dependency's unit runs, so an output
    /// it does not declare is HCL's "Unsupported attribute" once the
    /// dependency is applied. `None` where the dependency's module is not
    /// known (or its outputs are not the module's: `skip_outputs`, mocks
    /// merged with the state).
    pub(crate) fn dependency_outputs(
        &mut self,
        dialect: Dialect,
        name: &str,
        range: &Range<usize>,
        ops: &[hcl_edit::Decorated<TraversalOperator>],
    ) -> Option<(Type, Note)> {
        let attr = terragrunt_steps(dialect, name, "dependency", ops)?;
        let (label, "outputs") = (attr(0)?, attr(1)?) else { return None };
        let Some(Callee::Module(i)) = self.env.callee(&crate::calls::dependency_call(label)) else { return None };
        let whole = i.value();
        if let Some(out) = attr(2) {
            let Some(o) = i.output(out).filter(|_| !out.starts_with('#')) else {
                let mut msg = format!(
                    "the module of dependency `{label}` ({}) has no output `{out}`, so its state has none either \
                     (Terragrunt reads it as an empty value where it renders, not as an error)",
                    i.dir.display()
                );
                let names = i.outputs.iter().map(|o| o.name.as_str()).filter(|n| !n.starts_with('#'));
                if let Some(s) = types::suggest::closest(out, names) {
                    msg.push_str(&format!("; did you mean `{s}`?"));
                }
                // A warning: Terragrunt's own `TestTFRenderJsonWithInputsNotExistingOutput`
                // (test/integration_json_tf_test.go) renders such an input as "".
                let r = range.start..self.range(&ops[2]).end;
                self.report(Diagnostic::new(Code::Traversal, r, msg).with_severity(Severity::Warning));
                return Some((Type::any(), Note::Plain));
            };
            let related = Related {
                path: Some(o.path.clone()),
                range: o.name_range.clone(),
                message: format!("output `{out}` of dependency `{label}`'s module"),
            };
            let t = o.ty.clone();
            self.note(range.start..self.range(&ops[2]).end, &t, Note::Reference(Some(related.clone())));
            return Some((self.apply(t, &ops[3..]), Note::Reference(Some(related))));
        }
        Some((self.apply(whole, &ops[2..]), Note::Plain))
    }

    /// `values.KEY…` in a unit configuration that stacks instantiate
    /// (terragrunt.md §8): each `unit` block whose `source` names it must
    /// set `KEY` in its `values` (Terragrunt reads them from the generated
    /// `terragrunt.values.hcl`, `ReadValues` in `pkg/config/stack.go`; a
    /// key it lacks is "Unsupported attribute" when the unit is parsed).
    /// The type is the value's when every stack gives the same, else `any`.
    pub(crate) fn stack_values(
        &mut self,
        dialect: Dialect,
        name: &str,
        range: &Range<usize>,
        ops: &[hcl_edit::Decorated<TraversalOperator>],
    ) -> Option<(Type, Note)> {
        if dialect != Dialect::Hcl || name != "values" {
            return None;
        }
        let TraversalOperator::GetAttr(key) = ops.first()?.value() else { return None };
        let key = key.value().as_str();
        let mut given: Vec<(Type, Related)> = Vec::new();
        for k in 0.. {
            let Some(Callee::Module(i)) = self.env.callee(&crate::calls::stack_values_call(k)) else { break };
            match i.output(key) {
                Some(o) => given.push((
                    o.ty.clone(),
                    Related {
                        path: Some(o.path.clone()),
                        range: o.name_range.clone(),
                        message: format!("`{key}` is given here"),
                    },
                )),
                None => {
                    // The instantiating block, named with related information.
                    let block = i.output(crate::dialects::terragrunt::values::BLOCK);
                    let what = block.and_then(|b| b.description.clone()).unwrap_or_else(|| "a block".to_string());
                    let mut msg = format!("{what} in `{}` does not set `values.{key}`", i.dir.display());
                    let names = i.outputs.iter().map(|o| o.name.as_str()).filter(|n| !n.starts_with('#'));
                    if let Some(s) = types::suggest::closest(key, names) {
                        msg.push_str(&format!("; did you mean `{s}`?"));
                    }
                    let r = range.start..self.range(&ops[0]).end;
                    let mut d = Diagnostic::new(Code::Traversal, r, msg);
                    if let Some(b) = block {
                        d = d.with_related(Related {
                            path: Some(b.path.clone()),
                            range: b.name_range.clone(),
                            message: format!("{what} is generated from here without `{key}` in its `values`"),
                        });
                    }
                    self.report(d);
                    return Some((Type::any(), Note::Plain));
                }
            }
        }
        let (first, related) = given.first().cloned()?;
        let t = if given.iter().all(|(t, _)| *t == first) { first } else { Type::any() };
        self.note(range.start..self.range(&ops[0]).end, &t, Note::Reference(Some(related.clone())));
        Some((self.apply(t, &ops[1..]), Note::Reference(Some(related))))
    }
}
