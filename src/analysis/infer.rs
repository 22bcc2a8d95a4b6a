//! Expression types (analysis.md §2) and the checks made while inferring
//! them (§3): one walk over an expression gives its type and diagnostics.

use std::ops::Range;

use hcl_edit::expr::{BinaryOperator, Expression, ForExpr, FuncCall, ObjectKey, TraversalOperator, UnaryOperator};
use hcl_edit::template::{Directive, Element, Template};
use hcl_edit::{Decorated, Ident, Span};

use super::calls::Callee;
use crate::diagnostic::{Code, Diagnostic, Related, Severity};
use crate::functions;
use crate::schema::Schemas;
use crate::suggest;
use crate::syntax::constant::{eval, number_literal, range_at, NotConstant, Source};
use crate::syntax::Dialect;
use crate::types::value::{check_value, Value};
use crate::types::{self, convert_with, unify_safe, unify_safe_fold, ConvertOptions, Kind, Safety, Step, Strip, Type};

/// Name spaces a reference can resolve in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Space {
    /// `var.NAME`
    Var,
    /// `local.NAME`
    Local,
    /// A bare PCL name: config, top-level attribute, resource, component.
    Pcl,
    /// `module.NAME`: a Terraform module call.
    Module,
    /// A Terraform resource `TYPE.NAME` or data source `data.TYPE.NAME`.
    Resource,
}

/// What a module offers the inference of one expression.
pub trait Env {
    fn dialect(&self) -> Dialect;
    /// Unknown `var.`/`local.` names are not reported (test files, whose
    /// module under test lives elsewhere).
    fn lenient(&self) -> bool {
        false
    }
    /// The type of a name, and where it is declared.
    fn lookup(&self, space: Space, name: &str) -> Option<(Type, Option<Related>)>;
    /// The declared name closest to a misspelt one, for "did you mean".
    fn suggest(&self, space: Space, word: &str) -> Option<String>;
    /// What the module call `NAME` leads to (the checks of its arguments).
    fn callee(&self, _call: &str) -> Option<Callee> {
        None
    }
    /// The provider schemas (resource bodies, provider functions).
    fn schemas(&self) -> Option<std::sync::Arc<Schemas>> {
        None
    }
    /// Where output `output` of the module called `call` is declared, and
    /// its description.
    fn module_output(&self, _call: &str, _output: &str) -> Option<(Related, Option<String>)> {
        None
    }
}

/// The type of one sub-expression, recorded for hover.
#[derive(Clone, Debug)]
pub struct Typed {
    pub range: Range<usize>,
    pub ty: Type,
    pub note: Note,
}

/// Why a recorded expression has its type, for hover's prose.
#[derive(Clone, Debug, PartialEq)]
pub enum Note {
    Plain,
    /// A reference to a declaration.
    Reference(Option<Related>),
    /// What the declaration says of itself (a description, a default).
    Doc(String),
    /// A conditional: the two branch types.
    Conditional(Type, Type),
    /// A conversion site: the expected type and how the conversion goes.
    Checked(Type, Safety),
}

pub struct Infer<'e, 's> {
    env: &'e dyn Env,
    src: Source<'s>,
    /// Bound names (for variables, `each`, `count`, iterators), innermost last.
    scope: Vec<(String, Type)>,
    pub diagnostics: Vec<Diagnostic>,
    /// Inside `try(…)`/`can(…)`: failures they catch are not reported.
    suppress: u32,
    /// Whether a suppressed failure happened (so `try` drops that argument).
    caught: bool,
    /// Every sub-expression's type, when asked for (hover).
    pub record: Option<Vec<Typed>>,
}

fn options(dialect: Dialect) -> ConvertOptions {
    let terraform = dialect == Dialect::Terraform;
    ConvertOptions { any_is_safe: true, none_is_universal: terraform, go_cty: terraform }
}

impl<'e, 's> Infer<'e, 's> {
    pub fn new(env: &'e dyn Env, src: Source<'s>) -> Self {
        Infer { env, src, scope: Vec::new(), diagnostics: Vec::new(), suppress: 0, caught: false, record: None }
    }

    pub fn set_source(&mut self, src: Source<'s>) {
        self.src = src;
    }

    pub fn env(&self) -> &'e dyn Env {
        self.env
    }

    pub fn source(&self) -> Source<'s> {
        self.src
    }

    pub fn bind(&mut self, name: impl Into<String>, ty: Type) {
        self.scope.push((name.into(), ty));
    }

    /// Binds a `for`'s key and value variables over a collection (§2);
    /// returns how many names to unbind afterwards.
    fn bind_for(&mut self, key: Option<&Decorated<Ident>>, value: &Decorated<Ident>, coll: &Type) -> usize {
        let (k, v) = iteration(coll);
        if let Some(key) = key {
            self.bind(key.value().as_str(), k);
        }
        self.bind(value.value().as_str(), v);
        1 + usize::from(key.is_some())
    }

    pub fn unbind(&mut self, n: usize) {
        let keep = self.scope.len().saturating_sub(n);
        self.scope.truncate(keep);
    }

    pub fn range(&self, node: &impl Span) -> Range<usize> {
        self.src.range(node)
    }

    pub fn report(&mut self, d: Diagnostic) {
        if self.suppress > 0 && matches!(d.code, Code::Traversal | Code::UndefinedReference | Code::UnknownFunction) {
            if d.severity == Severity::Error {
                self.caught = true;
            }
            return;
        }
        self.diagnostics.push(d);
    }

    pub fn note(&mut self, range: Range<usize>, ty: &Type, note: Note) {
        if let Some(rec) = &mut self.record {
            rec.push(Typed { range, ty: ty.clone(), note });
        }
    }

    /// The type of an expression.
    pub fn expr(&mut self, e: &Expression) -> Type {
        let (ty, note) = self.expr_inner(e);
        let range = self.range(e);
        self.note(range, &ty, note);
        ty
    }

    fn expr_inner(&mut self, e: &Expression) -> (Type, Note) {
        let plain = |t: Type| (t, Note::Plain);
        match e {
            Expression::Null(_) => plain(Type::none()),
            Expression::Bool(_) => plain(Type::bool()),
            Expression::Number(n) => {
                let text = self.src.number_text(n);
                match number_literal(text) {
                    Ok(Value::Int(_)) => plain(Type::int()),
                    Ok(_) => plain(Type::number()),
                    Err(message) => {
                        let start = self.range(n).start;
                        self.report(Diagnostic::new(Code::IntPrecision, start..start + text.len(), message));
                        plain(Type::int())
                    }
                }
            }
            Expression::String(_) => plain(Type::string()),
            Expression::Array(items) => plain(Type::tuple(items.iter().map(|i| self.expr(i)).collect())),
            Expression::Object(obj) => plain(self.object(obj)),
            Expression::StringTemplate(t) => plain(self.template(t)),
            Expression::HeredocTemplate(h) => plain(self.template(&h.template)),
            Expression::Parenthesis(p) => plain(self.expr(p.inner())),
            Expression::Variable(v) => self.variable(v.value().as_str(), self.range(v), &[]),
            Expression::Traversal(t) => self.traversal(&t.expr, &t.operators),
            Expression::Conditional(c) => {
                let cond = self.expr(&c.cond_expr);
                self.check(&c.cond_expr, &cond, &Type::bool(), None);
                let a = self.expr(&c.true_expr);
                let b = self.expr(&c.false_expr);
                let u = unify_safe(&a, &b);
                (Type::lift(u, &[&cond]), Note::Conditional(a, b))
            }
            Expression::UnaryOp(op) => {
                let t = self.expr(&op.expr);
                let r = match op.operator.value() {
                    UnaryOperator::Neg => {
                        self.check(&op.expr, &t, &Type::number(), None);
                        if matches!(t.eventual_element().kind(), Kind::Int) {
                            Type::int()
                        } else {
                            Type::number()
                        }
                    }
                    UnaryOperator::Not => {
                        self.check(&op.expr, &t, &Type::bool(), None);
                        Type::bool()
                    }
                };
                plain(Type::lift(r, &[&t]))
            }
            Expression::BinaryOp(op) => plain(self.binary(&op.lhs_expr, *op.operator.value(), &op.rhs_expr)),
            Expression::ForExpr(f) => plain(self.for_expr(f)),
            Expression::FuncCall(call) => plain(self.call(call)),
        }
    }

    fn object(&mut self, obj: &hcl_edit::expr::Object) -> Type {
        let mut attrs: Vec<(String, Type)> = Vec::new();
        let mut computed = false;
        // Every item in source order, those a repeated key superseded too:
        // HCL evaluates them all, and the last value of a key wins.
        let mut items: Vec<_> = obj.iter().chain(obj.superseded()).collect();
        items.sort_by_key(|(key, _)| self.src.range(*key).start);
        for (key, value) in items {
            let name = match key {
                ObjectKey::Ident(id) => Some(id.value().to_string()),
                ObjectKey::Expression(k) => match k {
                    Expression::Variable(v) => Some(v.value().to_string()),
                    Expression::String(s) => Some(s.value().clone()),
                    Expression::Null(_) => Some("null".into()),
                    Expression::Bool(b) => Some(b.value().to_string()),
                    Expression::Number(_) => Some(self.src.number_text(k).to_string()),
                    _ => {
                        let kt = self.expr(k);
                        self.check(k, &kt, &Type::string(), None);
                        None
                    }
                },
            };
            let t = self.expr(value.expr());
            match name {
                Some(n) => {
                    attrs.retain(|(k, _)| *k != n);
                    attrs.push((n, t));
                }
                None => {
                    computed = true;
                    attrs.push((String::new(), t));
                }
            }
        }
        if computed {
            let values: Vec<Type> = attrs.into_iter().map(|(_, t)| t).collect();
            return Type::map(unify_safe_fold(&values));
        }
        Type::object(attrs)
    }

    fn template(&mut self, t: &Template) -> Type {
        let elements: Vec<&Element> = t.iter().collect();
        if let [Element::Interpolation(i)] = elements.as_slice() {
            // `"${e}"` is e itself.
            return self.expr(&i.expr);
        }
        let mut parts = Vec::new();
        self.template_parts(t, &mut parts);
        let refs: Vec<&Type> = parts.iter().collect();
        Type::lift(Type::string(), &refs)
    }

    fn template_parts(&mut self, t: &Template, parts: &mut Vec<Type>) {
        for element in t.iter() {
            match element {
                Element::Literal(_) => {}
                Element::Interpolation(i) => {
                    let ty = self.expr(&i.expr);
                    self.check(&i.expr, &ty, &Type::string(), None);
                    parts.push(ty);
                }
                Element::Directive(d) => match d.as_ref() {
                    Directive::If(ifd) => {
                        let c = self.expr(&ifd.if_expr.cond_expr);
                        self.check(&ifd.if_expr.cond_expr, &c, &Type::bool(), None);
                        parts.push(c);
                        self.template_parts(&ifd.if_expr.template, parts);
                        if let Some(e) = &ifd.else_expr {
                            self.template_parts(&e.template, parts);
                        }
                    }
                    Directive::For(ford) => {
                        let coll = self.expr(&ford.for_expr.collection_expr);
                        let bound = self.bind_for(ford.for_expr.key_var.as_ref(), &ford.for_expr.value_var, &coll);
                        parts.push(coll);
                        self.template_parts(&ford.for_expr.template, parts);
                        self.unbind(bound);
                    }
                },
            }
        }
    }

    fn binary(&mut self, l: &Expression, op: BinaryOperator, r: &Expression) -> Type {
        use BinaryOperator as B;
        let lt = self.expr(l);
        let rt = self.expr(r);
        let result = match op {
            B::Plus | B::Minus | B::Mul | B::Mod | B::Div => {
                self.check(l, &lt, &Type::number(), None);
                self.check(r, &rt, &Type::number(), None);
                let both_int = matches!(lt.eventual_element().kind(), Kind::Int)
                    && matches!(rt.eventual_element().kind(), Kind::Int);
                if both_int && op != B::Div {
                    Type::int()
                } else {
                    Type::number()
                }
            }
            B::Less | B::LessEq | B::Greater | B::GreaterEq => {
                self.check(l, &lt, &Type::number(), None);
                self.check(r, &rt, &Type::number(), None);
                Type::bool()
            }
            B::And | B::Or => {
                self.check(l, &lt, &Type::bool(), None);
                self.check(r, &rt, &Type::bool(), None);
                Type::bool()
            }
            B::Eq | B::NotEq => Type::bool(),
        };
        Type::lift(result, &[&lt, &rt])
    }

    fn for_expr(&mut self, f: &ForExpr) -> Type {
        let coll = self.expr(&f.intro.collection_expr);
        let bound = self.bind_for(f.intro.key_var.as_ref(), &f.intro.value_var, &coll);
        let mut lifted = vec![coll.clone()];
        if let Some(cond) = &f.cond {
            let c = self.expr(&cond.expr);
            self.check(&cond.expr, &c, &Type::bool(), None);
            lifted.push(c);
        }
        let value = self.expr(&f.value_expr);
        let result = match &f.key_expr {
            Some(key) => {
                let kt = self.expr(key);
                self.check(key, &kt, &Type::string(), None);
                lifted.push(kt);
                let elem = value.strip(Strip::Eventuals);
                if f.grouping {
                    Type::map(Type::list(elem))
                } else {
                    Type::map(elem)
                }
            }
            None => Type::list(value.clone()),
        };
        self.unbind(bound);
        let refs: Vec<&Type> = lifted.iter().collect();
        Type::lift(result, &refs)
    }

    /// A bare name, then traversal operators applied to it.
    fn variable(
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
            let Some((first, rest)) = ops.split_first() else {
                return (Type::any(), Note::Plain);
            };
            let TraversalOperator::GetAttr(attr) = first.value() else {
                return (self.apply(Type::any(), ops), Note::Plain);
            };
            let attr_name = attr.value().as_str();
            let full = range.start..self.range(first).end;
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

    /// `TYPE.NAME…` or `data.TYPE.NAME…` of a declared resource or data
    /// source (its schema's attributes; `any` without one). `None` when
    /// the reference names none: it stays `any`, unreported, as before
    /// resources were declared.
    fn resource_reference(
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

    /// `module.NAME…`: the call's outputs (`module.NAME.OUTPUT` noted as a
    /// reference to the output in the called module).
    fn module_reference(
        &mut self,
        range: Range<usize>,
        ops: &[hcl_edit::Decorated<TraversalOperator>],
    ) -> (Type, Note) {
        let Some((first, rest)) = ops.split_first() else {
            return (Type::any(), Note::Plain);
        };
        let TraversalOperator::GetAttr(attr) = first.value() else {
            return (self.apply(Type::any(), ops), Note::Plain);
        };
        let call = attr.value().as_str();
        let full = range.start..self.range(first).end;
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
                if let Some(d) = description {
                    self.note(out_range.clone(), &t, Note::Doc(d));
                }
                self.note(out_range, &t, Note::Reference(Some(output_related.clone())));
                (self.apply(t, &rest[1..]), Note::Reference(Some(output_related)))
            }
            None => (self.apply(t, rest), Note::Reference(related)),
        }
    }

    fn traversal(&mut self, root: &Expression, ops: &[hcl_edit::Decorated<TraversalOperator>]) -> (Type, Note) {
        if let Expression::Variable(v) = root {
            return self.variable(v.value().as_str(), self.range(v), ops);
        }
        let t = self.expr(root);
        (self.apply(t, ops), Note::Plain)
    }

    /// Applies traversal operators step by step (types.md §5), splats included.
    fn apply(&mut self, mut t: Type, ops: &[hcl_edit::Decorated<TraversalOperator>]) -> Type {
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

    fn call(&mut self, call: &FuncCall) -> Type {
        let name = call.name.name.value().as_str();
        let name_range = self.range(&call.name.name);
        let args: Vec<&Expression> = call.args.iter().collect();
        if call.name.is_namespaced() {
            // Provider-defined functions (provider::NS::NAME) are never
            // unknown; a schema that has one types its arguments and result.
            let types: Vec<Type> = args.iter().map(|a| self.expr(a)).collect();
            return self.provider_function(call, &args, &types).unwrap_or_else(Type::any);
        }
        let catches = matches!(name, "try" | "can");
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
        for a in &args {
            let saved = std::mem::replace(&mut self.caught, false);
            let t = self.expr(a);
            if !self.caught {
                kept.push(t.clone());
            }
            self.caught = saved || (self.caught && self.suppress > 1);
            types.push(t);
        }
        if catches {
            self.suppress -= 1;
        }
        if recover {
            self.unbind(1);
        }
        let dialect = self.env.dialect();
        let Some(f) = functions::lookup(dialect, name) else {
            let mut msg = format!("`{name}` is not a function of the {dialect} dialect");
            if let Some(s) = suggest::closest(name, functions::names(dialect)) {
                msg.push_str(&format!("; did you mean `{s}`?"));
            }
            self.report(Diagnostic::new(Code::UnknownFunction, name_range, msg));
            return Type::lift(Type::any(), &types.iter().collect::<Vec<_>>());
        };
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
    fn pulumi_invoke(&mut self, args: &[&Expression], types: &[Type]) -> Option<Type> {
        let Ok(Value::String(token)) = eval(args.first()?, self.src) else { return None };
        let schemas = self.env.schemas()?;
        let f = schemas.pulumi_function(&token)?;
        let t = f.outputs.clone();
        Some(if types.iter().any(Type::contains_output) { Type::output(t) } else { Type::promise(t) })
    }

    /// The schema file an object type comes from when that file is not
    /// known to match the module's providers.
    fn open_schema(&self, t: &Type) -> Option<String> {
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
    fn provider_function(&mut self, call: &FuncCall, args: &[&Expression], types: &[Type]) -> Option<Type> {
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
    fn lookup_attribute(&self, args: &[&Expression], types: &[Type]) -> Option<Type> {
        let Kind::Object(_) = types.first()?.kind() else { return None };
        let Ok(Value::String(name)) = eval(args.get(1)?, self.src) else { return None };
        match (types[0].attribute(&name), types.get(2)) {
            (Some(t), Some(d)) => Some(unify_safe(t, d)),
            (Some(t), None) => Some(t.clone()),
            (None, Some(d)) => Some(d.clone()),
            (None, None) => None,
        }
    }

    /// A check site without a constant to refine it (an expanded argument).
    fn check_type(&mut self, range: Range<usize>, actual: &Type, expected: &Type) {
        let dialect = self.env.dialect();
        let (safety, why) = types::explain(actual, expected, options(dialect));
        let why = why.map(|w| format!(": {w}")).unwrap_or_default();
        match safety {
            Safety::None => self.report(Diagnostic::new(
                Code::TypeMismatch,
                range,
                format!(
                    "an element of type `{}` cannot be used where `{}` is expected{why}",
                    actual.brief(),
                    expected.brief()
                ),
            )),
            Safety::Unsafe => self.report(Diagnostic::new(
                Code::UnsafeConversion,
                range,
                format!(
                    "an element of type `{}` may not convert to `{}` at run time{why}",
                    actual.brief(),
                    expected.brief()
                ),
            )),
            Safety::Safe => {}
        }
    }

    /// A check site (analysis.md §3): `actual` (the type of `e`) against
    /// `expected`, eventuals looked through, refined by the value when `e`
    /// is a constant. Returns the conversion kind.
    pub fn check(&mut self, e: &Expression, actual: &Type, expected: &Type, related: Option<Related>) -> Safety {
        let dialect = self.env.dialect();
        let s = actual.strip(Strip::Eventuals);
        let mut safety = convert_with(&s, expected, options(dialect));
        // What go-cty alone makes impossible (a bool as a number, a lacking
        // required attribute, a list as a tuple) is judged by value on a
        // constant, at the offending element, as an unsafe conversion is.
        if safety == Safety::None && options(dialect).go_cty && eval(e, self.src).is_ok() {
            let lenient = ConvertOptions { go_cty: false, ..options(dialect) };
            if convert_with(&s, expected, lenient) != Safety::None {
                safety = Safety::Unsafe;
            }
        }
        let range = self.range(e);
        self.note(range.clone(), actual, Note::Checked(expected.clone(), safety));
        let with_related = |d: Diagnostic| match &related {
            Some(r) => d.with_related(r.clone()),
            None => d,
        };
        match safety {
            Safety::None => {
                let (_, why) = types::explain(&s, expected, options(dialect));
                let mut msg =
                    format!("a `{}` value cannot be used where `{}` is expected", actual.brief(), expected.brief());
                if let Some(w) = why {
                    msg.push_str(&format!(": {w}"));
                }
                self.report(with_related(Diagnostic::new(Code::TypeMismatch, range, msg)));
            }
            Safety::Unsafe | Safety::Safe => {
                let constant = match eval(e, self.src) {
                    Ok(v) => Some(v),
                    Err(NotConstant::IntPrecision(..)) | Err(NotConstant::Dynamic(_)) => None,
                };
                match constant {
                    Some(v) => {
                        let vc = check_value(&v, expected, dialect == Dialect::Terraform);
                        for issue in vc.errors {
                            let at = range_at(e, &issue.path, self.src);
                            self.report(with_related(Diagnostic::new(
                                Code::InvalidValue,
                                at,
                                format!("invalid value for `{}`: {}", expected.brief(), issue.message),
                            )));
                        }
                        if safety == Safety::Unsafe {
                            for issue in vc.implicit {
                                let at = range_at(e, &issue.path, self.src);
                                self.report(Diagnostic::new(Code::ImplicitConversion, at, issue.message));
                            }
                        }
                    }
                    None if safety == Safety::Unsafe => {
                        let (_, why) = types::explain(&s, expected, options(dialect));
                        let mut msg =
                            format!("`{}` may not convert to `{}` at run time", actual.brief(), expected.brief());
                        if let Some(w) = why {
                            msg.push_str(&format!(": {w}"));
                        }
                        self.report(with_related(Diagnostic::new(Code::UnsafeConversion, range, msg)));
                    }
                    None => {}
                }
            }
        }
        safety
    }
}

/// The key and value types a `for` binds over a collection (§2).
pub fn iteration(coll: &Type) -> (Type, Type) {
    let (k, v) = key_and_element(coll.eventual_element());
    (k, coll.rewrap(v))
}

/// An empty tuple or object has no element, so the loop body never runs:
/// `any` keeps it from reporting on a value that cannot exist. Elements that
/// are always null come from a traversal already reported as always null;
/// `any` keeps the loop body from repeating that warning.
fn key_and_element(c: &Type) -> (Type, Type) {
    let some_or_any = |t: Type| if t.is_none() { Type::any() } else { t };
    match c.kind() {
        Kind::List(t) => (Type::int(), some_or_any(t.clone())),
        Kind::Tuple(ts) => (Type::int(), some_or_any(Type::union(ts.clone()))),
        Kind::Set(t) => (t.clone(), t.clone()),
        Kind::Map(t) => (Type::string(), t.clone()),
        Kind::Object(attrs) => {
            (Type::string(), some_or_any(Type::union(attrs.iter().map(|(_, t)| t.clone()).collect::<Vec<_>>())))
        }
        // `optional(list(T))`: null has no elements. Members of different
        // shapes (often a for over an object's attributes) give `any`, since
        // which one is iterated depends on a key the types do not follow.
        Kind::Union(ms) => {
            let mut shapes = ms.iter().filter(|m| !m.is_none()).map(key_and_element);
            match (shapes.next(), shapes.next()) {
                (Some(one), None) => one,
                _ => (Type::any(), Type::any()),
            }
        }
        _ => (Type::any(), Type::any()),
    }
}

/// The element a splat works on: a collection's element, else the value itself.
fn splat_element(t: &Type) -> Type {
    let inner = t.eventual_element();
    match inner.kind() {
        Kind::List(e) | Kind::Set(e) => e.clone(),
        Kind::Tuple(ts) if ts.is_empty() => Type::any(),
        Kind::Tuple(ts) => Type::union(ts.clone()),
        Kind::Any => Type::any(),
        // Null gives no element; every other member gives its own elements
        // (a sequence) or itself (anything else is wrapped in a tuple).
        Kind::Union(ms) => Type::union(ms.iter().filter(|m| !m.is_none()).map(splat_element).collect::<Vec<_>>()),
        _ => inner.clone(),
    }
}
