//! Expression types (analysis.md §2) and the checks made while inferring
//! them (§3): one walk over an expression gives its type and diagnostics.

use std::ops::Range;

use hcl_edit::expr::{BinaryOperator, Expression, ForExpr, FuncCall, ObjectKey, TraversalOperator, UnaryOperator};
use hcl_edit::template::{Directive, Element, Template};
use hcl_edit::{Decorated, Ident, Span};
use rustc_hash::FxHashMap as HashMap;

use super::calls::Callee;
use crate::functions;
use schema::Schemas;
use syntax::constant::{eval, number_literal, range_at, NotConstant, Source};
use syntax::diagnostic::{Code, Diagnostic, Related, Severity};
use syntax::Dialect;
use types::suggest;
use types::value::{check_value, Value};
use types::{self, convert_with, unify_safe, unify_safe_fold, ConvertOptions, Kind, Safety, Step, Strip, Type};

mod calls;
mod checks;
mod dead;
mod decoded;
mod guards;
mod names;
mod plan;
mod template;

pub use crate::dialects::symbol_libraries::scope::LibraryScope;

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
    /// The directory of the module (for `templatefile`'s `path.module`).
    fn module_dir(&self) -> Option<std::path::PathBuf> {
        None
    }
    /// Whether the module is a Terragrunt unit's directory (it has a
    /// `terragrunt.hcl`): Terragrunt's paths are then relative to it.
    fn terragrunt_unit(&self) -> bool {
        false
    }
    /// A file's text (a template), recorded as read.
    fn read_file(&self, _path: &std::path::Path) -> Option<std::sync::Arc<str>> {
        None
    }
    /// The type of the default of a variable of type `any` (or without a
    /// type), when it has one that is not null.
    fn var_default(&self, _name: &str) -> Option<Type> {
        None
    }
    /// The default of variable `name` when it is a constant string that
    /// may be a file's path (`default = "cfg.json"`) and is used: no
    /// known caller sets the variable (see [`Self::var_default`]).
    fn var_default_path(&self, _name: &str) -> Option<String> {
        None
    }
    /// Whether variable `name` is declared with `default = null`.
    fn var_null_default(&self, _name: &str) -> bool {
        false
    }
    /// The declared name closest to a misspelt one, for "did you mean".
    fn suggest(&self, space: Space, word: &str) -> Option<String>;
    /// What the module call `NAME` leads to (the checks of its arguments).
    fn callee(&self, _call: &str) -> Option<Callee> {
        None
    }
    /// Whether variable `name` is declared `const = true` (`None`: not
    /// declared, or not known here).
    fn is_const(&self, _name: &str) -> Option<bool> {
        None
    }
    /// Whether variable `name` is declared `const = false`: OpenTofu then
    /// refuses it where it evaluates statically (`GetInputVariable` in
    /// internal/configs/static_scope.go of opentofu/opentofu).
    fn is_non_const(&self, _name: &str) -> bool {
        false
    }
    /// The provider schemas (resource bodies, provider functions).
    fn schemas(&self) -> Option<std::sync::Arc<Schemas>> {
        None
    }
    /// The symbol libraries the module imports (OpenTofu's `symbols` blocks).
    fn symbols(&self) -> Option<&crate::dialects::symbol_libraries::libraries::Libraries> {
        None
    }
    /// In a symbol library's directory: the library its `.sym.hcl` files
    /// make, for their own checks (`value.NAME`, `symbols::T()`).
    fn own_library(&self) -> Option<std::sync::Arc<crate::dialects::symbol_libraries::libraries::Library>> {
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
    pub(crate) env: &'e dyn Env,
    pub(crate) src: Source<'s>,
    /// Bound names (for variables, `each`, `count`, iterators), innermost last.
    scope: Vec<(String, Type)>,
    pub diagnostics: Vec<Diagnostic>,
    /// Inside `try(…)`/`can(…)`: failures they catch are not reported.
    suppress: u32,
    /// Whether a suppressed failure happened (so `try` drops that argument).
    caught: bool,
    /// Every sub-expression's type, when asked for (hover).
    pub record: Option<Vec<Typed>>,
    /// The parts of type expressions met in expressions (`convert`'s type
    /// argument), for hover and semantic tokens.
    pub type_nodes: Vec<syntax::typeexpr::TypeNode>,
    /// In a test file (its file name): `run.NAME` is typed from the run's module.
    pub test_file: Option<String>,
    /// In a file of Terraform's JSON syntax (lowered): an object under a
    /// nested block type's name is that block (json.mdx, "Nested Block
    /// Mapping"); the lowering cannot tell blocks from attributes without
    /// the schema, so it writes objects as values.
    pub json: bool,
    /// In a Terraform policy file: `input.NAME` is its input (a variable)
    /// and `local.NAME` may be a policy block's own local
    /// (`scoped_locals`).
    pub policy: bool,
    /// The locals of the policy block being checked (a policy's own
    /// `locals { … }`), found before the file's.
    pub scoped_locals: Vec<(String, Type)>,
    /// In a test's assertions: the call of the module they look at
    /// (`output.NAME`, `var.NAME` are its).
    pub tested: Option<String>,
    /// In a test's `run` block: its name and the variables it sets.
    pub run: Option<(String, Vec<String>)>,
    /// The arguments of each `try(…)` call (by the call's range) that can
    /// be its value: their types, `None` for one that always fails.
    try_args: HashMap<Range<usize>, Vec<Option<Type>>>,
    /// The key type of the last `for` expression with a key (`{ for … : K => V }`).
    pub for_key: Option<Type>,
    /// The paths of references a guard around the expression being
    /// inferred says are not null (`x != null && …`, guards.rs).
    nonnull: Vec<String>,
    /// The paths of references a guard says do not fail (`can(x) ? … :`,
    /// `… if can(x)`, guards.rs).
    succeeds: Vec<String>,
    /// Conditions whose truth the types decide (by range): `can(x)` where x
    /// always fails, `n == true` for a number n (dead.rs).
    decided: HashMap<Range<usize>, bool>,
    /// The message of the last failure `try`/`can` caught.
    caught_why: Option<String>,
    /// Inside `try`/`can`: for which inputs a failure they catch happens,
    /// when only for some (`where var.x keeps its default null`).
    may_fail: Option<String>,
    /// The `try(…)` calls (by range) whose first argument fails on a
    /// misspelt name (dead.rs).
    misspelt_tries: rustc_hash::FxHashSet<Range<usize>>,
    /// The `{ for … }` expressions whose elements differ in type (decoded.rs).
    for_elements: HashMap<Range<usize>, decoded::ForElements>,
    /// The result types of each Terraform conditional (by its range) whose
    /// results unify: at a check site each result is checked (checks.rs).
    branches: HashMap<Range<usize>, (Type, Type)>,
    /// In a symbol library's file: what its expressions may reference
    /// (symbols.rs); `None` elsewhere.
    pub library: Option<LibraryScope>,
    /// In a Terragrunt stack file: `unit.NAME` and `stack.NAME` are its
    /// components (names.rs).
    pub terragrunt_stack: bool,
}

/// Bound right after `each` when `each.key` is a number made a string: a
/// `for_each = { for i, v in LIST : i => v }` (analysis.md §1).
pub const NUMERIC_EACH_KEY: &str = "\0each.key holds a number";

/// Bound in the body of a block with `count` or `for_each` (plan.rs).
pub const REPEATED: &str = "\0a repeated block";

pub(crate) fn options(dialect: Dialect) -> ConvertOptions {
    let terraform = dialect.is_terraform();
    ConvertOptions { any_is_safe: true, none_is_universal: terraform, go_cty: terraform }
}

impl<'e, 's> Infer<'e, 's> {
    pub fn new(env: &'e dyn Env, src: Source<'s>) -> Self {
        Infer {
            env,
            src,
            scope: Vec::new(),
            diagnostics: Vec::new(),
            suppress: 0,
            caught: false,
            record: None,
            type_nodes: Vec::new(),
            test_file: None,
            policy: false,
            scoped_locals: Vec::new(),
            json: false,
            tested: None,
            run: None,
            try_args: HashMap::default(),
            for_key: None,
            nonnull: Vec::new(),
            succeeds: Vec::new(),
            decided: HashMap::default(),
            caught_why: None,
            may_fail: None,
            misspelt_tries: Default::default(),
            for_elements: HashMap::default(),
            branches: HashMap::default(),
            library: None,
            terragrunt_stack: false,
        }
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

    /// Whether `e` is `each.key` of an `each` whose keys were numbers
    /// (see [`NUMERIC_EACH_KEY`]): text that converts to a number.
    fn numeric_each_key(&self, e: &Expression) -> bool {
        let Expression::Traversal(t) = e else { return false };
        let is_key = matches!(&t.expr, Expression::Variable(v) if v.value().as_str() == "each")
            && matches!(t.operators.as_slice(), [op] if matches!(op.value(), TraversalOperator::GetAttr(a) if a.value().as_str() == "key"));
        let each = self.scope.iter().rposition(|(n, _)| n == "each");
        is_key && each.is_some_and(|at| self.scope.get(at + 1).is_some_and(|(n, _)| n == NUMERIC_EACH_KEY))
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
                if d.code == Code::Traversal {
                    self.caught_why = Some(d.message);
                }
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
                let truth = self.truth(&c.cond_expr);
                let start = self.diagnostics.len();
                let a = self.guarded(guards::facts(&c.cond_expr, true, self.src), &c.true_expr);
                self.drop_dead(start, truth == Some(false));
                let start = self.diagnostics.len();
                let b = self.guarded(guards::facts(&c.cond_expr, false, self.src), &c.false_expr);
                self.drop_dead(start, truth == Some(true));
                let u = if self.env.dialect().is_terraform() {
                    let before = (self.diagnostics.len(), self.caught);
                    let u = self.terraform_conditional(c, &a, &b);
                    if (self.diagnostics.len(), self.caught) == before {
                        self.branches.insert(self.range(c), (a.clone(), b.clone()));
                        self.held_conditional(c, &a, &b);
                    }
                    u
                } else {
                    unify_safe(&a, &b)
                };
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

    /// A conditional's type in Terraform (types.md §4, Terraform): results
    /// without a common type are Terraform's "Inconsistent conditional
    /// result types", reported from the true result to the false one.
    fn terraform_conditional(&mut self, c: &hcl_edit::expr::Conditional, a: &Type, b: &Type) -> Type {
        match types::cty::conditional(a, b) {
            Ok(t) => t,
            // A result that indexes the instances of a resource, data
            // source or module call fails when their count makes them an
            // empty tuple, and HCL then gives it the unknown type, which
            // unifies with anything: `c ? data.x.y[0] : x.y[0]`, with counts
            // that make one of them empty, works.
            Err(_) if self.indexes_instances(&c.true_expr) || self.indexes_instances(&c.false_expr) => unify_safe(a, b),
            // `try` catches it as any other failure of its argument.
            Err(_) if self.suppress > 0 => {
                self.caught = true;
                Type::any()
            }
            Err(why) => {
                let range = self.range(&c.true_expr).start..self.range(&c.false_expr).end;
                let msg = format!(
                    "inconsistent conditional result types: the true result `{}` and the false result `{}` have \
                     no common type in Terraform ({why})",
                    a.brief(),
                    b.brief()
                );
                self.report(Diagnostic::new(Code::TypeMismatch, range, msg));
                Type::any()
            }
        }
    }

    /// Whether an expression indexes (`x[0]`, `x.0`, `x["k"]`) a
    /// reference that is not a variable, local, iterator or other name
    /// bound here: the instances of a resource, data source or module call;
    /// also in an argument of `try(…)` (whose `null` fallback is then of the
    /// unknown type).
    fn indexes_instances(&self, e: &Expression) -> bool {
        match e {
            Expression::Parenthesis(p) => self.indexes_instances(p.inner()),
            Expression::FuncCall(call) if call.name.name.as_str() == "try" && call.name.namespace.is_empty() => {
                call.args.iter().any(|a| self.indexes_instances(a))
            }
            Expression::Traversal(t) => {
                let Expression::Variable(root) = &t.expr else { return false };
                let root = root.value().as_str();
                let bound = self.scope.iter().any(|(name, _)| name == root);
                let own = ["var", "local", "each", "count", "path", "terraform", "self"].contains(&root);
                !bound
                    && !own
                    && t.operators
                        .iter()
                        .any(|op| matches!(op.value(), TraversalOperator::Index(_) | TraversalOperator::LegacyIndex(_)))
            }
            _ => false,
        }
    }

    fn object(&mut self, obj: &hcl_edit::expr::Object) -> Type {
        // Attributes in order, `None` where a later item repeated the key;
        // where each name is (and the computed keys, whose name is empty):
        // found by hash, since a generated object of 100 000 items made
        // removing each repeat by a scan quadratic.
        let mut attrs: Vec<Option<(String, Type)>> = Vec::new();
        let mut named: HashMap<String, usize> = HashMap::default();
        let mut unnamed: Vec<usize> = Vec::new();
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
                    if n.is_empty() {
                        unnamed.drain(..).for_each(|i| attrs[i] = None);
                    }
                    if let Some(i) = named.insert(n.clone(), attrs.len()) {
                        attrs[i] = None;
                    }
                    attrs.push(Some((n, t)));
                }
                None => {
                    computed = true;
                    unnamed.push(attrs.len());
                    attrs.push(Some((String::new(), t)));
                }
            }
        }
        let attrs = attrs.into_iter().flatten();
        if computed {
            let values: Vec<Type> = attrs.map(|(_, t)| t).collect();
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
        if let B::And | B::Or = op {
            return self.logical(l, op == B::And, r);
        }
        let lt = self.expr(l);
        let rt = self.expr(r);
        if let B::Eq | B::NotEq = op {
            self.dead_comparison(l, op == B::Eq, r, &lt, &rt);
        }
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
            B::And | B::Or => Type::bool(),
            B::Eq | B::NotEq => Type::bool(),
        };
        Type::lift(result, &[&lt, &rt])
    }

    fn for_expr(&mut self, f: &ForExpr) -> Type {
        let coll = self.expr(&f.intro.collection_expr);
        self.null_iteration(&f.intro.collection_expr, &coll, "this `for`");
        let bound = self.bind_for(f.intro.key_var.as_ref(), &f.intro.value_var, &coll);
        let mut lifted = vec![coll.clone()];
        let mut facts = guards::Facts::default();
        let mut dead = false;
        if let Some(cond) = &f.cond {
            let c = self.expr(&cond.expr);
            self.check(&cond.expr, &c, &Type::bool(), None);
            lifted.push(c);
            facts = guards::facts(&cond.expr, true, self.src);
            dead = self.truth(&cond.expr) == Some(false);
        }
        let start = self.diagnostics.len();
        let (n, s) = (facts.nonnull.len(), facts.succeeds.len());
        self.nonnull.extend(facts.nonnull);
        self.succeeds.extend(facts.succeeds);
        let value = self.expr(&f.value_expr);
        let key_type = f.key_expr.as_ref().map(|key| (key, self.expr(key)));
        self.nonnull.truncate(self.nonnull.len() - n);
        self.succeeds.truncate(self.succeeds.len() - s);
        self.drop_dead(start, dead);
        self.record_for_elements(f, &coll.strip(Strip::Eventuals), &value);
        let result = match key_type {
            Some((key, kt)) => {
                self.check(key, &kt, &Type::string(), None);
                self.for_key = Some(kt.clone());
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
        // `optional(list(T))`: null has no elements, nor has an empty tuple
        // or object (`try(var.l, [])`). Members of different shapes (often a
        // for over an object's attributes) give `any`, since which one is
        // iterated depends on a key the types do not follow.
        Kind::Union(ms) => {
            let empty = |m: &Type| match m.kind() {
                Kind::None => true,
                Kind::Tuple(ts) => ts.is_empty(),
                Kind::Object(attrs) => attrs.is_empty(),
                _ => false,
            };
            let mut shapes = ms.iter().filter(|m| !empty(m)).map(key_and_element);
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
