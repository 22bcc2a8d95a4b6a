//! Type expressions read from hcl-edit trees (type-expressions.md §1–2).
//!
//! Every error is reported on its own span and the parse goes on with `any`
//! at the failed position, so half-typed code still has a type.

use std::ops::Range;

use hcl_edit::expr::{Expression, FuncCall, ObjectKey};

use super::constant::{eval, range_at, NotConstant, Source};
use super::Dialect;
use crate::diagnostic::{Code, Diagnostic, Severity};
use types::suggest;
use types::value::check_value;
use types::{is_identifier, Type};

/// Where a type expression stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TypeContext {
    pub dialect: Dialect,
    /// The whole `type` of a Terraform `variable`: bare `list`/`map` and the
    /// legacy quoted forms are recognised (and reported).
    pub terraform_variable: bool,
}

impl TypeContext {
    pub fn new(dialect: Dialect) -> Self {
        TypeContext { dialect, terraform_variable: false }
    }

    pub fn variable(dialect: Dialect) -> Self {
        TypeContext { dialect, terraform_variable: dialect.is_terraform() }
    }
}

/// What a part of a type expression is, for hover and semantic tokens.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NodeKind {
    /// `string`, `any`, … (and a bare `list` in a Terraform variable).
    Keyword,
    /// `list(…)`, `object(…)`, `optional(…)`, …
    Constructor,
    /// An attribute name inside `object({…})`.
    Attribute,
    /// A named type of OpenTofu's symbol libraries, `symbols::LIB::NAME()`
    /// (docs/spec/opentofu-symbol-libraries.md §2).
    Named,
}

/// Named types a type expression may call as `NS::…::NAME()` (OpenTofu's
/// symbol libraries: `symbols::LIB::NAME()`). The analysis, which knows the
/// libraries, answers; this crate only reads the expression.
pub trait NamedTypes {
    /// The type `NS::…::NAME()` denotes, as (declared, value) types;
    /// `Some(Err(message))` when the namespace is one of these but the name
    /// is not; `None` when the namespace is none of these.
    fn named(&self, namespace: &[&str], name: &str) -> Option<Result<(Type, Type), String>>;
}

#[derive(Clone, Debug, PartialEq)]
pub struct TypeNode {
    /// The whole keyword, call or attribute (`list(string)`).
    pub range: Range<usize>,
    /// The keyword, constructor name or attribute name alone.
    pub name_range: Range<usize>,
    pub kind: NodeKind,
    /// The declared type the node denotes (for an attribute: its type).
    pub ty: Type,
}

/// A read type expression.
#[derive(Clone, Debug)]
pub struct TypeExpr {
    /// What values are checked against: `optional(T…)` attributes are
    /// `union(T, none)` and may be absent.
    pub declared: Type,
    /// What a reference yields: `optional(T, default)` attributes are `T`.
    pub value: Type,
    pub diagnostics: Vec<Diagnostic>,
    /// Keywords, constructors and attribute names, outermost first.
    pub nodes: Vec<TypeNode>,
}

impl TypeExpr {
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(|d| d.severity == Severity::Error)
    }
}

const PRIMITIVES: [&str; 7] = ["string", "number", "bool", "any", "int", "none", "id"];
const CONSTRUCTORS: [&str; 9] = ["list", "set", "map", "tuple", "object", "optional", "union", "promise", "output"];

/// The keywords a dialect has (for suggestions and completion).
pub fn keywords(dialect: Dialect) -> Vec<&'static str> {
    PRIMITIVES.iter().copied().filter(|k| keyword_allowed(k, dialect)).collect()
}

/// The constructors a dialect has, `optional` included.
pub fn constructors(dialect: Dialect) -> Vec<&'static str> {
    CONSTRUCTORS.iter().copied().filter(|k| keyword_allowed(k, dialect)).collect()
}

fn keyword_allowed(name: &str, dialect: Dialect) -> bool {
    match name {
        "int" => !dialect.is_terraform(),
        "none" | "union" | "promise" | "output" => dialect == Dialect::Hcl,
        // PCL's binder types a resource's `id` so, but its type
        // expressions (`typeBuiltins` of pulumi/pulumi's
        // hcl2/model/type_scope.go) cannot name it (types.md §3).
        "id" => dialect == Dialect::Hcl,
        _ => true,
    }
}

/// Reads a type expression from source text (the CLI and tests). A parse
/// error is a `type-syntax` diagnostic and the type is `any`.
pub fn parse_type_str(text: &str, ctx: TypeContext) -> TypeExpr {
    // Surrounding whitespace is no part of the expression (hcl-edit's
    // expression parser takes none); ranges stay offsets into `text`.
    let lead = text.len() - text.trim_start().len();
    let inner = text.trim();
    let masks = super::scan::expression_masks(inner);
    match hcl_edit::parser::parse_expr(&super::scan::mask(inner, 0..inner.len(), &masks)) {
        Ok(expr) => parse_type(&expr, Source::new(inner, lead), ctx),
        Err(e) => {
            // hcl-edit's offset may fall inside the last multi-byte character.
            let at = lead + e.location().offset().min(inner.len());
            let at = (0..=at).rev().find(|&i| text.is_char_boundary(i)).unwrap_or(0);
            let message = if text.trim().is_empty() {
                "a type is missing: write a keyword such as `string` or a constructor such as `list(string)`"
                    .to_string()
            } else {
                format!("invalid type expression: {}", e.message())
            };
            TypeExpr {
                declared: Type::any(),
                value: Type::any(),
                diagnostics: vec![Diagnostic::new(Code::TypeSyntax, at..text.len().max(at), message)],
                nodes: Vec::new(),
            }
        }
    }
}

/// Reads a type expression from an hcl-edit expression.
pub fn parse_type(expr: &Expression, src: Source<'_>, ctx: TypeContext) -> TypeExpr {
    parse_type_named(expr, src, ctx, None)
}

/// [`parse_type`], where `named` says what namespaced calls
/// (`symbols::LIB::NAME()`) denote.
pub fn parse_type_named(
    expr: &Expression,
    src: Source<'_>,
    ctx: TypeContext,
    named: Option<&dyn NamedTypes>,
) -> TypeExpr {
    let mut p = Parser { src, ctx, named, diagnostics: Vec::new(), nodes: Vec::new() };
    let (declared, value) = p.parse(expr, Position::Top, 0);
    TypeExpr { declared, value, diagnostics: p.diagnostics, nodes: p.nodes }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Position {
    Top,
    Nested,
    Attribute,
}

/// hcl-edit already refuses nesting beyond 64 levels; this guards our own
/// recursion should that ever change.
const MAX_TYPE_DEPTH: usize = 128;

struct Parser<'a> {
    src: Source<'a>,
    ctx: TypeContext,
    named: Option<&'a dyn NamedTypes>,
    diagnostics: Vec<Diagnostic>,
    nodes: Vec<TypeNode>,
}

/// (declared type, value type)
type Pair = (Type, Type);

fn same(t: Type) -> Pair {
    (t.clone(), t)
}

impl Parser<'_> {
    fn error(&mut self, code: Code, range: Range<usize>, message: impl Into<String>) {
        self.diagnostics.push(Diagnostic::new(code, range, message));
    }

    fn dialect_check(&mut self, name: &str, range: Range<usize>) {
        if !keyword_allowed(name, self.ctx.dialect) {
            let what = match name {
                "int" => "use `number`",
                "id" => "only PCL's binder makes it (a resource's `id` is `output(id)`); write `string`",
                _ => "it exists only in the extended hcl dialect",
            };
            self.error(
                Code::TypeDialect,
                range,
                format!("`{name}` is not a type in the {} dialect: {what}", self.ctx.dialect),
            );
        }
    }

    fn parse(&mut self, expr: &Expression, pos: Position, depth: usize) -> Pair {
        let range = self.src.range(expr);
        if depth > MAX_TYPE_DEPTH {
            self.error(Code::TypeSyntax, range, "type expression nested too deeply");
            return same(Type::any());
        }
        match expr {
            Expression::Variable(name) => self.keyword(name.value().as_str(), range, pos),
            Expression::FuncCall(call) => self.call(call, range, pos, depth),
            Expression::String(s) if pos == Position::Top && self.ctx.terraform_variable => {
                let text = s.value().clone();
                let inner = parse_type_str(&text, TypeContext::variable(Dialect::Terraform));
                self.error(
                    Code::TypeSyntax,
                    range,
                    format!("quoted type \"{text}\" is a legacy form: remove the quotes and write {text}"),
                );
                same(if inner.has_errors() { Type::any() } else { inner.declared })
            }
            Expression::Null(_) => self.not_a_type(range, "null"),
            Expression::Bool(b) => self.not_a_type(range, &b.value().to_string()),
            Expression::Parenthesis(_) => {
                self.error(
                    Code::TypeSyntax,
                    range,
                    "a type is a keyword or a constructor call: remove the parentheses",
                );
                same(Type::any())
            }
            Expression::String(_) | Expression::StringTemplate(_) | Expression::HeredocTemplate(_) => {
                self.error(
                    Code::TypeSyntax,
                    range,
                    "a type is a keyword or a constructor call, not a string: remove the quotes",
                );
                same(Type::any())
            }
            _ => {
                self.error(
                    Code::TypeSyntax,
                    range,
                    "a type is a keyword such as `string` or a constructor call such as `list(string)`",
                );
                same(Type::any())
            }
        }
    }

    fn not_a_type(&mut self, range: Range<usize>, word: &str) -> Pair {
        let mut msg = format!("`{word}` is not a valid type");
        if let Some(s) = suggest::closest(word, keywords(self.ctx.dialect)) {
            msg.push_str(&format!("; did you mean `{s}`?"));
        }
        self.error(Code::TypeSyntax, range, msg);
        same(Type::any())
    }

    fn keyword(&mut self, name: &str, range: Range<usize>, pos: Position) -> Pair {
        let ty = match name {
            "string" => Type::string(),
            "number" => Type::number(),
            "bool" => Type::bool(),
            "any" => Type::any(),
            "int" => Type::int(),
            "none" => Type::none(),
            "id" => Type::id(),
            "list" | "map" if pos == Position::Top && self.ctx.terraform_variable => {
                let ty = if name == "list" { Type::list(Type::any()) } else { Type::map(Type::any()) };
                self.diagnostics.push(
                    Diagnostic::new(
                        Code::TypeSyntax,
                        range.clone(),
                        format!("bare `{name}` means `{ty}`; write `{ty}` (or a more precise element type)"),
                    )
                    .with_severity(Severity::Hint),
                );
                self.node(range.clone(), range, NodeKind::Keyword, ty.clone());
                return same(ty);
            }
            _ if CONSTRUCTORS.contains(&name) => {
                let example = match name {
                    "tuple" => "tuple([string])",
                    "object" => "object({name = string})",
                    _ => "",
                };
                let example = if example.is_empty() { format!("{name}(string)") } else { example.to_string() };
                self.error(Code::TypeSyntax, range, format!("`{name}` needs its argument, as in `{example}`"));
                return same(Type::any());
            }
            _ => return self.unknown_keyword(name, range),
        };
        self.dialect_check(name, range.clone());
        self.node(range.clone(), range, NodeKind::Keyword, ty.clone());
        same(ty)
    }

    fn unknown_keyword(&mut self, name: &str, range: Range<usize>) -> Pair {
        let mut msg = format!("`{name}` is not a valid type");
        let mut known = keywords(self.ctx.dialect);
        known.extend(constructors(self.ctx.dialect));
        if let Some(s) = suggest::closest(name, known) {
            msg.push_str(&format!("; did you mean `{s}`?"));
        }
        self.error(Code::TypeSyntax, range, msg);
        same(Type::any())
    }

    fn node(&mut self, range: Range<usize>, name_range: Range<usize>, kind: NodeKind, ty: Type) {
        self.nodes.push(TypeNode { range, name_range, kind, ty });
    }

    /// A namespaced call that [`NamedTypes`] knows: the type it names, or
    /// `any` after the error it gives.
    fn named_call(&mut self, call: &FuncCall, range: Range<usize>, name_range: Range<usize>) -> Option<Pair> {
        let named = self.named.filter(|_| call.name.is_namespaced())?;
        let namespace: Vec<&str> = call.name.namespace.iter().map(|n| n.value().as_str()).collect();
        match named.named(&namespace, call.name.name.value().as_str())? {
            Ok((declared, value)) => {
                self.node(range, name_range, NodeKind::Named, declared.clone());
                Some((declared, value))
            }
            Err(message) => {
                self.error(Code::TypeSyntax, name_range, message);
                Some(same(Type::any()))
            }
        }
    }

    fn call(&mut self, call: &FuncCall, range: Range<usize>, pos: Position, depth: usize) -> Pair {
        let name = call.name.name.value().as_str();
        let name_range = self.src.range(&call.name.name);
        let args: Vec<&Expression> = call.args.iter().collect();
        if name == "providerconfig" && self.ctx.dialect == Dialect::Hcl && !call.name.is_namespaced() {
            return self.provider_config(&args, range, name_range);
        }
        if let Some(pair) = self.named_call(call, range.clone(), name_range.clone()) {
            return pair;
        }
        if call.name.is_namespaced() || !(CONSTRUCTORS.contains(&name) || PRIMITIVES.contains(&name)) {
            let mut msg = format!(
                "`{}` is not a type constructor",
                self.src.slice(call).split('(').next().unwrap_or(name).trim()
            );
            if let Some(s) = suggest::closest(name, constructors(self.ctx.dialect)) {
                msg.push_str(&format!("; did you mean `{s}`?"));
            }
            self.error(Code::TypeSyntax, name_range, msg);
            return same(Type::any());
        }
        // Record the node first so nodes stay outermost-first; its type is
        // filled in once the arguments are read.
        let index = self.nodes.len();
        self.node(range.clone(), name_range.clone(), NodeKind::Constructor, Type::any());
        if PRIMITIVES.contains(&name) {
            self.error(
                Code::TypeSyntax,
                range.clone(),
                format!("`{name}` is a primitive type and takes no arguments: write `{name}`"),
            );
            let (t, v) = self.keyword(name, name_range, Position::Nested);
            self.nodes[index].kind = NodeKind::Keyword;
            self.nodes[index].ty = t.clone();
            return (t, v);
        }
        self.dialect_check(name, name_range.clone());
        if call.args.expand_final() && !self.ctx.dialect.is_terraform() {
            let at = args.last().map(|a| self.src.range(*a)).unwrap_or(range.clone());
            self.error(
                Code::TypeSyntax,
                at.end..at.end + 3,
                format!("`...` is not allowed after a type argument in the {} dialect", self.ctx.dialect),
            );
        }
        let result = match name {
            "list" | "set" | "map" | "promise" | "output" => {
                let (t, v) = self.one_arg(name, &args, range.clone(), depth);
                let wrap = |t: Type| match name {
                    "list" => Type::list(t),
                    "set" => Type::set(t),
                    "map" => Type::map(t),
                    "promise" => Type::promise(t),
                    _ => Type::output(t),
                };
                (wrap(t), wrap(v))
            }
            "tuple" => self.tuple(&args, range.clone(), depth),
            "object" => self.object(&args, range.clone(), depth),
            "union" => {
                if args.is_empty() {
                    self.error(
                        Code::TypeSyntax,
                        range.clone(),
                        "`union` needs at least one member type, as in `union(string, number)`",
                    );
                    same(Type::any())
                } else {
                    let parts: Vec<Pair> = args.iter().map(|a| self.parse(a, Position::Nested, depth + 1)).collect();
                    let (ts, vs): (Vec<Type>, Vec<Type>) = parts.into_iter().unzip();
                    (Type::union(ts), Type::union(vs))
                }
            }
            _ => self.optional(&args, range.clone(), pos, depth),
        };
        self.nodes[index].ty = result.0.clone();
        result
    }

    /// `providerconfig(NAME)`: a Terraform Stacks type, a reference to a
    /// configuration of the provider whose local name is NAME
    /// (`internal/stacks/stackconfig/typeexpr/typeexpr.go` in
    /// hashicorp/terraform; docs/spec/stacks.md). Stacks files
    /// (`.tfcomponent.hcl`, `.tfdeploy.hcl`) are plain HCL here, so the plain
    /// HCL dialect has it. The algebra has no kind for a provider
    /// configuration, so it is `any`; the argument must be an identifier, as
    /// Terraform requires.
    fn provider_config(&mut self, args: &[&Expression], range: Range<usize>, name_range: Range<usize>) -> Pair {
        self.node(range.clone(), name_range, NodeKind::Constructor, Type::any());
        match args {
            [Expression::Variable(_)] => {}
            [arg] => {
                let at = self.src.range(*arg);
                self.error(
                    Code::TypeSyntax,
                    at,
                    "the argument to providerconfig must be just the local name of the provider, given as an identifier",
                );
            }
            _ => self.error(
                Code::TypeSyntax,
                range,
                "providerconfig takes one argument, the local name of the provider this configuration is for",
            ),
        }
        same(Type::any())
    }

    fn one_arg(&mut self, name: &str, args: &[&Expression], range: Range<usize>, depth: usize) -> Pair {
        match args {
            [] => {
                self.error(
                    Code::TypeSyntax,
                    range,
                    format!("`{name}` takes exactly one argument, the element type, as in `{name}(string)`"),
                );
                same(Type::any())
            }
            [arg, rest @ ..] => {
                if let (Some(first), Some(last)) = (rest.first(), rest.last()) {
                    let extra = self.src.range(*first).start..self.src.range(*last).end;
                    self.error(
                        Code::TypeSyntax,
                        extra,
                        format!("`{name}` takes exactly one argument, the element type; remove the others"),
                    );
                }
                self.parse(arg, Position::Nested, depth + 1)
            }
        }
    }

    fn tuple(&mut self, args: &[&Expression], range: Range<usize>, depth: usize) -> Pair {
        match args {
            [Expression::Array(items)] => {
                let parts: Vec<Pair> = items.iter().map(|e| self.parse(e, Position::Nested, depth + 1)).collect();
                let (ts, vs): (Vec<Type>, Vec<Type>) = parts.into_iter().unzip();
                (Type::tuple(ts), Type::tuple(vs))
            }
            [arg, rest @ ..] => {
                if !rest.is_empty() {
                    self.error(
                        Code::TypeSyntax,
                        range.clone(),
                        "`tuple` takes exactly one argument, a list of element types: `tuple([string, number])`",
                    );
                }
                if !matches!(arg, Expression::Array(_)) {
                    let r = self.src.range(*arg);
                    self.error(Code::TypeSyntax, r, "the argument of `tuple` must be a list of element types in brackets: `tuple([string, number])`");
                    return same(Type::any());
                }
                let arg: &Expression = arg;
                self.tuple(std::slice::from_ref(&arg), range, depth)
            }
            [] => {
                self.error(Code::TypeSyntax, range, "`tuple` needs a list of element types: `tuple([string, number])`");
                same(Type::any())
            }
        }
    }

    fn object(&mut self, args: &[&Expression], range: Range<usize>, depth: usize) -> Pair {
        let obj = match args {
            [] => {
                self.error(Code::TypeSyntax, range, "`object` needs its attribute types: `object({name = string})`");
                return same(Type::any());
            }
            [arg, rest @ ..] => {
                if !rest.is_empty() {
                    self.error(
                        Code::TypeSyntax,
                        range.clone(),
                        "`object` takes exactly one argument, the attribute types in braces",
                    );
                }
                match arg {
                    Expression::Object(obj) => obj,
                    _ => {
                        let r = self.src.range(*arg);
                        self.error(
                            Code::TypeSyntax,
                            r,
                            "the argument of `object` must be attribute types in braces: `object({name = string})`",
                        );
                        return same(Type::any());
                    }
                }
            }
        };
        let mut declared: Vec<(String, Type)> = Vec::new();
        let mut value: Vec<(String, Type)> = Vec::new();
        // A repeated key is an error here; hcl-edit keeps the items it
        // superseded aside, so every item is read back in source order.
        let mut items: Vec<_> = obj.iter().chain(obj.superseded()).collect();
        items.sort_by_key(|(key, _)| self.src.range(*key).start);
        for (key, val) in items {
            let key_range = self.src.range(key);
            let name = self.attribute_name(key, key_range.clone());
            let (t, v) = self.parse(val.expr(), Position::Attribute, depth + 1);
            let Some(name) = name else { continue };
            if declared.iter().any(|(k, _)| *k == name) {
                self.error(Code::TypeSyntax, key_range, format!("attribute `{name}` is already declared; attribute names must be unique (the first one is used)"));
                continue;
            }
            let whole = key_range.start..self.src.range(val.expr()).end;
            self.node(whole, key_range, NodeKind::Attribute, t.clone());
            declared.push((name.clone(), t));
            value.push((name, v));
        }
        (Type::object(declared), Type::object(value))
    }

    /// The attribute name of an object type key, or `None` (reported) when
    /// it is not one.
    fn attribute_name(&mut self, key: &ObjectKey, range: Range<usize>) -> Option<String> {
        let expr = match key {
            ObjectKey::Ident(id) => return Some(id.value().to_string()),
            ObjectKey::Expression(e) => e,
        };
        match expr {
            Expression::Variable(v) => Some(v.value().to_string()),
            // `null`, `true` and `false` are identifiers in key position.
            Expression::Null(_) => Some("null".into()),
            Expression::Bool(b) => Some(b.value().to_string()),
            Expression::String(s) => {
                if self.ctx.dialect != Dialect::Hcl {
                    let hint = if is_identifier(s.value()) { format!(": write {}", s.value()) } else { String::new() };
                    self.error(
                        Code::TypeSyntax,
                        range,
                        format!("attribute names must be identifiers in the {} dialect{hint}", self.ctx.dialect),
                    );
                }
                Some(s.value().clone())
            }
            Expression::StringTemplate(_) | Expression::HeredocTemplate(_) => {
                self.error(Code::TypeSyntax, range, "an attribute name cannot contain interpolation");
                None
            }
            _ => {
                self.error(Code::TypeSyntax, range, "attribute names must be identifiers");
                None
            }
        }
    }

    fn optional(&mut self, args: &[&Expression], range: Range<usize>, pos: Position, depth: usize) -> Pair {
        let dialect = self.ctx.dialect;
        if pos != Position::Attribute && dialect.is_terraform() {
            self.error(
                Code::TypeDialect,
                range.clone(),
                "`optional` is only allowed as the type of an object attribute in Terraform",
            );
        }
        let max_args = if pos == Position::Attribute && dialect != Dialect::Pcl { 2 } else { 1 };
        let Some(first) = args.first() else {
            self.error(Code::TypeSyntax, range, "`optional` needs the attribute type, as in `optional(string)`");
            return same(Type::any());
        };
        let (t, v) = self.parse(first, Position::Nested, depth + 1);
        if args.len() > max_args {
            let extra = self.src.range(args[max_args]).start..self.src.range(args[args.len() - 1]).end;
            let msg = if max_args == 2 {
                "`optional` takes at most two arguments: the type and a default value".to_string()
            } else if pos == Position::Attribute {
                format!("`optional` takes only the type in the {dialect} dialect: defaults are not supported")
            } else {
                "`optional` takes only the type here: a default is only allowed on an object attribute".to_string()
            };
            self.error(Code::TypeSyntax, extra, msg);
        }
        let declared = Type::optional(t);
        if let (Some(default), 2) = (args.get(1), max_args) {
            self.check_default(default, &declared);
            // The default fills the attribute in before anyone reads it.
            return (declared, v);
        }
        (declared, Type::optional(v))
    }

    fn check_default(&mut self, default: &Expression, declared: &Type) {
        match eval(default, self.src) {
            Ok(value) => {
                let check = check_value(&value, declared, self.ctx.dialect.is_terraform());
                for issue in check.errors {
                    let at = range_at(default, &issue.path, self.src);
                    self.error(Code::InvalidValue, at, format!("invalid default: {}", issue.message));
                }
            }
            Err(NotConstant::Dynamic(at)) => {
                self.error(Code::TypeSyntax, at, "an optional attribute's default must be a constant: literals, and lists, objects, templates and operators built of them");
            }
            Err(NotConstant::IntPrecision(at, message)) => self.error(Code::IntPrecision, at, message),
        }
    }
}
