//! The extended HCL type algebra (`docs/spec/types.md`): pure values and
//! functions, no syntax, no I/O.
//!
//! Every constructor normalises (§2), so two equal types are structurally
//! identical and `==` is type equality. Types are reference-counted trees:
//! cloning is cheap, which matters because inference copies types everywhere.

mod convert;
pub mod cty;
mod elements;
mod print;
pub mod suggest;
/// Test helpers shared by the crates above (a seeded generator).
#[doc(hidden)]
pub mod testing;
mod traverse;
mod unify;
pub mod value;

use std::cmp::Ordering;
use std::fmt;
use std::sync::{Arc, LazyLock};

pub use convert::{convert, convert_with, explain, ConvertOptions, Safety};
pub use elements::contains_any;
pub use print::{brief, is_identifier, quote_string, Brief};
pub use traverse::{traverse, Severity, Step, TraverseDiag, TraverseResult, ALWAYS_NULL};
pub use unify::{unify, unify_fold, unify_safe, unify_safe_fold};

/// Deepest type we build. Deeper results collapse to `any`: types come from user
/// input (type expressions, and inference over chains of locals), so every
/// recursive function on them must have a bound, and this is it.
pub const MAX_DEPTH: u32 = 200;

/// A normalised type. Compare with `==`; print with `Display` (canonical text).
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Type(Arc<Node>);

#[derive(PartialEq, Eq, Hash)]
struct Node {
    kind: Kind,
    depth: u32,
    /// Whether an `output(…)` / `promise(…)` occurs anywhere inside, kept so
    /// that lifting and stripping do not walk whole trees.
    has_output: bool,
    has_promise: bool,
}

/// The shape of a type. Object attributes are sorted byte-wise by name and
/// unique; union members are flattened, unique, sorted by canonical text and at
/// least two.
#[derive(Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    Bool,
    Int,
    Number,
    String,
    /// PCL's resource id (`model.IDType` of pulumi/pulumi, #22702): a
    /// scalar of its own that converts safely to and from `string`
    /// (types.md §3). Only the PCL binder makes it: `res.id` is `output(id)`.
    Id,
    Any,
    None,
    List(Type),
    Set(Type),
    Map(Type),
    Tuple(Vec<Type>),
    Object(Vec<(String, Type)>),
    Union(Vec<Type>),
    Promise(Type),
    Output(Type),
}

macro_rules! leaf {
    ($name:ident, $kind:ident) => {
        pub fn $name() -> Type {
            static T: LazyLock<Type> = LazyLock::new(|| Type::leaf(Kind::$kind));
            T.clone()
        }
    };
}

impl Type {
    fn leaf(kind: Kind) -> Type {
        Type(Arc::new(Node { kind, depth: 1, has_output: false, has_promise: false }))
    }

    /// Wraps an already normalised composite kind, collapsing to `any` past
    /// [`MAX_DEPTH`].
    fn composite(kind: Kind) -> Type {
        let depth = 1 + children(&kind).map(|c| c.depth()).max().unwrap_or(0);
        if depth > MAX_DEPTH {
            return Type::any();
        }
        let has_output = matches!(kind, Kind::Output(_)) || children(&kind).any(|c| c.0.has_output);
        let has_promise = matches!(kind, Kind::Promise(_)) || children(&kind).any(|c| c.0.has_promise);
        Type(Arc::new(Node { kind, depth, has_output, has_promise }))
    }

    leaf!(bool, Bool);
    leaf!(int, Int);
    leaf!(number, Number);
    leaf!(string, String);
    leaf!(id, Id);
    leaf!(any, Any);
    leaf!(none, None);

    pub fn list(t: Type) -> Type {
        Type::composite(Kind::List(t))
    }
    pub fn set(t: Type) -> Type {
        Type::composite(Kind::Set(t))
    }
    pub fn map(t: Type) -> Type {
        Type::composite(Kind::Map(t))
    }
    pub fn tuple(ts: Vec<Type>) -> Type {
        Type::composite(Kind::Tuple(ts))
    }

    /// An object type. Later duplicates of a name are dropped (the first wins,
    /// as type-expressions.md §2 asks).
    pub fn object(attrs: impl IntoIterator<Item = (String, Type)>) -> Type {
        let mut attrs: Vec<(String, Type)> = attrs.into_iter().collect();
        // Stable sort keeps the first of equal names first; dedup keeps it.
        attrs.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
        attrs.dedup_by(|later, first| later.0 == first.0);
        Type::composite(Kind::Object(attrs))
    }

    /// `optional(T)`: `union(T, none)`.
    pub fn optional(t: Type) -> Type {
        Type::union([t, Type::none()])
    }

    /// A normalised union (§2 rule 1): flattened, `any` absorbs, sorted by
    /// canonical text, deduplicated; a single member is returned as itself and
    /// an empty union is `none` (the fold of zero types).
    pub fn union(members: impl IntoIterator<Item = Type>) -> Type {
        let mut flat: Vec<Type> = Vec::new();
        for m in members {
            match m.kind() {
                Kind::Any => return Type::any(),
                Kind::Union(inner) => flat.extend(inner.iter().cloned()),
                _ => flat.push(m),
            }
        }
        let mut keyed: Vec<(String, Type)> = flat.into_iter().map(|t| (t.to_string(), t)).collect();
        keyed.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
        keyed.dedup_by(|a, b| a.0 == b.0);
        match keyed.len() {
            0 => Type::none(),
            1 => keyed.pop().map(|(_, t)| t).unwrap_or_else(Type::none),
            _ => Type::composite(Kind::Union(keyed.into_iter().map(|(_, t)| t).collect())),
        }
    }

    /// `promise(T)` with every promise inside T replaced by its element (§2 rule 3).
    pub fn promise(t: Type) -> Type {
        Type::composite(Kind::Promise(t.strip(Strip::Promises)))
    }

    /// `output(T)` with every eventual inside T replaced by its element (§2 rule 2).
    pub fn output(t: Type) -> Type {
        Type::composite(Kind::Output(t.strip(Strip::Eventuals)))
    }

    pub fn kind(&self) -> &Kind {
        &self.0.kind
    }

    /// Nesting depth: 1 for a leaf.
    pub fn depth(&self) -> u32 {
        self.0.depth
    }

    pub fn is_any(&self) -> bool {
        matches!(self.kind(), Kind::Any)
    }
    pub fn is_none(&self) -> bool {
        matches!(self.kind(), Kind::None)
    }
    pub fn is_primitive(&self) -> bool {
        matches!(self.kind(), Kind::Bool | Kind::Int | Kind::Number | Kind::String | Kind::Id)
    }
    pub fn is_eventual(&self) -> bool {
        matches!(self.kind(), Kind::Promise(_) | Kind::Output(_))
    }

    /// Members of a union; a non-union is its own single member.
    pub fn members(&self) -> &[Type] {
        match self.kind() {
            Kind::Union(ms) => ms,
            _ => std::slice::from_ref(self),
        }
    }

    /// The element of `promise(T)`/`output(T)`, or the type itself.
    pub fn eventual_element(&self) -> &Type {
        match self.kind() {
            Kind::Promise(t) | Kind::Output(t) => t,
            _ => self,
        }
    }

    /// Whether an `output(…)` occurs anywhere inside.
    pub fn contains_output(&self) -> bool {
        self.0.has_output
    }

    /// Whether a `promise(…)` occurs anywhere inside.
    pub fn contains_promise(&self) -> bool {
        self.0.has_promise
    }

    /// The type with every `promise(…)` (and, for [`Strip::Eventuals`], every
    /// `output(…)`) anywhere inside replaced by its element.
    pub fn strip(&self, what: Strip) -> Type {
        let has = match what {
            Strip::Promises => self.contains_promise(),
            Strip::Eventuals => self.contains_promise() || self.contains_output(),
        };
        if !has {
            return self.clone();
        }
        match self.kind() {
            Kind::Promise(t) => t.strip(what),
            Kind::Output(t) if what == Strip::Eventuals => t.strip(what),
            _ => self.map_children(|c| c.strip(what)),
        }
    }

    /// Rebuilds the type with `f` applied to each direct child (normalising again).
    pub fn map_children(&self, mut f: impl FnMut(&Type) -> Type) -> Type {
        match self.kind() {
            Kind::Bool | Kind::Int | Kind::Number | Kind::String | Kind::Id | Kind::Any | Kind::None => self.clone(),
            Kind::List(t) => Type::list(f(t)),
            Kind::Set(t) => Type::set(f(t)),
            Kind::Map(t) => Type::map(f(t)),
            Kind::Tuple(ts) => Type::tuple(ts.iter().map(f).collect()),
            Kind::Object(attrs) => Type::object(attrs.iter().map(|(k, t)| (k.clone(), f(t)))),
            Kind::Union(ms) => Type::union(ms.iter().map(f).collect::<Vec<_>>()),
            Kind::Promise(t) => Type::promise(f(t)),
            Kind::Output(t) => Type::output(f(t)),
        }
    }

    /// Re-wraps `inner` in the same eventual as `self` (if any).
    pub fn rewrap(&self, inner: Type) -> Type {
        match self.kind() {
            Kind::Promise(_) => Type::promise(inner),
            Kind::Output(_) => Type::output(inner),
            _ => inner,
        }
    }

    /// Wraps a result in the eventual an operand had, as analysis lifting
    /// does: `output` wins over `promise`.
    pub fn lift(inner: Type, operands: &[&Type]) -> Type {
        if operands.iter().any(|t| t.contains_output()) {
            Type::output(inner)
        } else if operands.iter().any(|t| t.contains_promise()) {
            Type::promise(inner)
        } else {
            inner
        }
    }

    /// The type for a message: in full when short, else its outer shape.
    pub fn brief(&self) -> String {
        brief(self, 80)
    }

    pub fn attribute(&self, name: &str) -> Option<&Type> {
        match self.kind() {
            Kind::Object(attrs) => {
                attrs.binary_search_by(|(k, _)| k.as_bytes().cmp(name.as_bytes())).ok().map(|i| &attrs[i].1)
            }
            _ => None,
        }
    }
}

/// What [`Type::strip`] removes.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Strip {
    Promises,
    Eventuals,
}

fn children(kind: &Kind) -> Box<dyn Iterator<Item = &Type> + '_> {
    match kind {
        Kind::Bool | Kind::Int | Kind::Number | Kind::String | Kind::Id | Kind::Any | Kind::None => {
            Box::new(std::iter::empty())
        }
        Kind::List(t) | Kind::Set(t) | Kind::Map(t) | Kind::Promise(t) | Kind::Output(t) => {
            Box::new(std::iter::once(t))
        }
        Kind::Tuple(ts) | Kind::Union(ts) => Box::new(ts.iter()),
        Kind::Object(attrs) => Box::new(attrs.iter().map(|(_, t)| t)),
    }
}

impl fmt::Debug for Type {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self}")
    }
}

impl PartialOrd for Type {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// Types order by their canonical text, the order union members use.
impl Ord for Type {
    fn cmp(&self, other: &Self) -> Ordering {
        if self == other {
            return Ordering::Equal;
        }
        self.to_string().as_bytes().cmp(other.to_string().as_bytes())
    }
}
