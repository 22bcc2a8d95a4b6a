//! Conversion safety (types.md §3).

use super::{Brief, Kind, Strip, Type};

/// How a conversion may go. Ordered: `None < Unsafe < Safe`, so a composite
/// rule takes the `min` of its parts and a union destination the `max`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Safety {
    /// Can never succeed: a type error.
    None,
    /// May fail at run time, depending on the value.
    Unsafe,
    /// Always succeeds.
    Safe,
}

impl Safety {
    pub fn as_str(self) -> &'static str {
        match self {
            Safety::None => "none",
            Safety::Unsafe => "unsafe",
            Safety::Safe => "safe",
        }
    }
}

/// Check-site relaxations of analysis.md §3. The calculator uses the default
/// (both off), which is exactly types.md §3.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ConvertOptions {
    /// `any` means "not known": an `any` source converts safely.
    pub any_is_safe: bool,
    /// Terraform's typed nulls: `none` converts safely to every type.
    pub none_is_universal: bool,
    /// go-cty's conversions (Terraform): bool and number never convert
    /// into each other, an object lacking a required attribute and a
    /// list or set as a tuple never convert, and a list as a set merges
    /// duplicates instead of failing (types.md §3, Terraform).
    pub go_cty: bool,
}

/// `convert(from, to)` of types.md §3.
pub fn convert(from: &Type, to: &Type) -> Safety {
    convert_with(from, to, ConvertOptions::default())
}

/// [`convert`] with check-site relaxations.
pub fn convert_with(from: &Type, to: &Type, opts: ConvertOptions) -> Safety {
    Converter { opts, why: None }.run(from, to)
}

/// The conversion and, when it is not safe, a short reason naming the
/// innermost pair of types that decided it (e.g. `string to number fails for
/// non-numeric text`).
pub fn explain(from: &Type, to: &Type, opts: ConvertOptions) -> (Safety, Option<String>) {
    let mut c = Converter { opts, why: Some(Vec::new()) };
    let safety = c.run(from, to);
    if safety == Safety::Safe {
        return (safety, None);
    }
    let reasons = c.why.unwrap_or_default();
    let best = reasons
        .into_iter()
        .filter(|(s, _)| *s == safety)
        .map(|(_, m)| m)
        .next()
        .unwrap_or_else(|| format!("{} to {}", Brief(from), Brief(to)));
    (safety, Some(best))
}

struct Converter {
    opts: ConvertOptions,
    /// Collected reasons (only when explaining), innermost first.
    why: Option<Vec<(Safety, String)>>,
}

impl Converter {
    fn note(&mut self, s: Safety, msg: impl FnOnce() -> String) -> Safety {
        if s != Safety::Safe {
            if let Some(why) = &mut self.why {
                why.push((s, msg()));
            }
        }
        s
    }

    fn run(&mut self, s: &Type, d: &Type) -> Safety {
        let (sb, db) = (Brief(s), Brief(d));
        // Rule 1.
        if s == d || d.is_any() {
            return Safety::Safe;
        }
        if self.opts.none_is_universal && s.is_none() {
            return Safety::Safe;
        }
        // Rule 2: a union source converts member by member.
        if let Kind::Union(ms) = s.kind() {
            let results: Vec<Safety> = ms.iter().map(|m| self.run(m, d)).collect();
            let result = if results.iter().all(|r| *r == Safety::Safe) {
                Safety::Safe
            } else if results.iter().any(|r| *r != Safety::None) {
                Safety::Unsafe
            } else {
                Safety::None
            };
            return self.note(result, || {
                let bad: Vec<String> =
                    ms.iter().zip(&results).filter(|(_, r)| **r != Safety::Safe).map(|(m, _)| m.to_string()).collect();
                match result {
                    Safety::None => format!("no member of {sb} converts to {db}"),
                    _ if bad.iter().any(|b| b == "none") => format!("{sb} may be null, and {db} does not accept null"),
                    _ => format!("{sb} converts to {db} only when the value is not a {}", bad.join(" or ")),
                }
            });
        }
        // Rule 3.
        if s.is_any() {
            let r = if self.opts.any_is_safe { Safety::Safe } else { Safety::Unsafe };
            return self.note(r, || format!("any to {db} depends on the value"));
        }
        // Rule 4: the best member of a union destination.
        if let Kind::Union(ms) = d.kind() {
            let saved = self.why.take();
            let mut best = Safety::None;
            let mut best_why = None;
            for m in ms {
                self.why = saved.as_ref().map(|_| Vec::new());
                let r = self.run(s, m);
                if r > best || best_why.is_none() {
                    best = best.max(r);
                    best_why = self.why.take();
                }
                if best == Safety::Safe {
                    break;
                }
            }
            self.why = saved;
            if let (Some(why), Some(inner)) = (&mut self.why, best_why) {
                why.extend(inner);
            }
            return self.note(best, || format!("{sb} matches no member of {db}"));
        }
        self.by_destination(s, d)
    }

    /// Rule 5: by the kind of the destination.
    fn by_destination(&mut self, s: &Type, d: &Type) -> Safety {
        let (sb, db) = (Brief(s), Brief(d));
        use Safety::{None as No, Safe, Unsafe};
        let r = match (d.kind(), s.kind()) {
            (Kind::String | Kind::Id | Kind::Number | Kind::Int | Kind::Bool | Kind::None, _) => {
                return self.primitive(s, d);
            }
            (Kind::List(t), Kind::List(u) | Kind::Set(u)) => self.run(u, t),
            (Kind::List(t), Kind::Tuple(us)) => self.min_all(us.iter().map(|u| (u, t))),
            (Kind::Tuple(_), Kind::List(_) | Kind::Set(_)) if self.opts.go_cty => {
                return self.note(No, || format!("{sb} to {db} is impossible in Terraform: a tuple is required"));
            }
            (Kind::Set(t), Kind::Set(u)) => self.run(u, t),
            // go-cty merges duplicates: a list or tuple as a set never fails for them.
            (Kind::Set(t), Kind::List(u)) if self.opts.go_cty => self.run(u, t),
            (Kind::Set(t), Kind::Tuple(_)) if self.opts.go_cty => self.run(s, &Type::list(t.clone())),
            (Kind::Set(t), Kind::List(u)) => {
                let r = self.run(u, t);
                let r = if r == No { No } else { Unsafe };
                return self.note(r, || {
                    if r == No {
                        format!("{sb} to {db}: elements cannot convert")
                    } else {
                        format!("{sb} to {db} fails when the list holds elements that are not unique")
                    }
                });
            }
            (Kind::Set(t), Kind::Tuple(_)) => {
                let as_list = self.run(s, &Type::list(t.clone()));
                let r = if as_list == No { No } else { Unsafe };
                return self.note(r, || format!("{sb} to {db} fails when the elements are not unique"));
            }
            (Kind::Map(t), Kind::Map(u)) => self.run(u, t),
            (Kind::Map(t), Kind::Object(attrs)) => self.min_all(attrs.iter().map(|(_, u)| (u, t))),
            (Kind::Tuple(ts), Kind::Tuple(us)) => {
                if ts.len() != us.len() {
                    return self.note(No, || format!("{sb} has {} elements but {db} needs {}", us.len(), ts.len()));
                }
                self.min_all(us.iter().zip(ts.iter()))
            }
            (Kind::Tuple(ts), Kind::List(u) | Kind::Set(u)) => {
                let r = self.min_all(ts.iter().map(|t| (u, t))).min(Unsafe);
                return self
                    .note(r, || format!("{sb} to {db} fails unless the collection has exactly {} elements", ts.len()));
            }
            (Kind::Object(tattrs), Kind::Object(_)) => {
                let none = Type::none();
                let mut r = Safe;
                for (name, t) in tattrs {
                    let sk = s.attribute(name).unwrap_or(&none);
                    let one = if s.attribute(name).is_none() {
                        // go-cty: only an optional attribute may be absent.
                        // (`optional(any)` is `any`: an absent `any` attribute is let be.)
                        let required = self.opts.go_cty && !t.is_any() && !t.members().iter().any(Type::is_none);
                        let one = if required { No } else { self.run(sk, t) };
                        self.note(one, || format!("{sb} lacks the required attribute `{name}` of {db}"))
                    } else {
                        self.run(sk, t)
                    };
                    r = r.min(one);
                }
                r
            }
            (Kind::Object(tattrs), Kind::Map(u)) => {
                // In Terraform a map may lack the key of an attribute that
                // takes null (`optional(…)`): that attribute's conversion
                // can fail only when the key is there.
                let mut r = Safe;
                for (_, t) in tattrs {
                    let one = self.run(u, t);
                    let optional = self.opts.go_cty && t.members().iter().any(Type::is_none);
                    r = r.min(if one == No && optional { Unsafe } else { one });
                }
                let r = r.min(Unsafe);
                return self.note(r, || format!("{sb} to {db} fails unless the map has every attribute"));
            }
            (Kind::Promise(t), Kind::Promise(u)) => self.run(u, t),
            (Kind::Promise(t), Kind::Output(_)) => self.run(s, t),
            (Kind::Promise(t), _) => self.run(&s.strip(Strip::Promises), t),
            (Kind::Output(t), Kind::Output(u)) => self.run(u, t),
            (Kind::Output(t), Kind::Promise(u)) => self.run(&u.strip(Strip::Eventuals), t),
            (Kind::Output(t), _) => self.run(&s.strip(Strip::Eventuals), t),
            _ => No,
        };
        self.note(r, || format!("{sb} cannot convert to {db}"))
    }

    fn min_all<'a>(&mut self, pairs: impl Iterator<Item = (&'a Type, &'a Type)>) -> Safety {
        let mut r = Safety::Safe;
        for (from, to) in pairs {
            r = r.min(self.run(from, to));
        }
        r
    }

    /// The primitive table of rule 5.
    fn primitive(&mut self, s: &Type, d: &Type) -> Safety {
        let (sb, db) = (Brief(s), Brief(d));
        use Kind::{Bool, Id, Int, None as Null, Number, String};
        use Safety::{None as No, Safe, Unsafe};
        let (r, why): (Safety, &str) = match (d.kind(), s.kind()) {
            // PCL's `id` converts safely to and from `string`, and from any
            // primitive as a string does; to a number or bool as a string
            // does (`OpaqueType.conversionFromImpl`, types.md §3).
            (String | Id, String | Number | Int | Bool | Id) => (Safe, ""),
            (Number, Id) => (Unsafe, "fails for an id that is not numeric text"),
            (Int, Id) => (Unsafe, "fails for an id that is not a whole number"),
            (Bool, Id) => (Unsafe, "fails for an id other than \"true\" or \"false\""),
            (Number, Number | Int) => (Safe, ""),
            (Number, String) => (Unsafe, "fails for non-numeric text"),
            (Number | Int, Bool) if self.opts.go_cty => (No, "is impossible in Terraform: a bool is never a number"),
            (Bool, Number | Int) if self.opts.go_cty => (No, "is impossible in Terraform: a number is never a bool"),
            (Number, Bool) => (Unsafe, "fails: a bool is never a number"),
            (Int, Int) => (Safe, ""),
            (Int, String) => (Unsafe, "fails for text that is not a whole number"),
            (Int, Number) => (Unsafe, "fails for fractional numbers"),
            (Int, Bool) => (Unsafe, "fails: a bool is never a number"),
            (Bool, Bool) => (Safe, ""),
            (Bool, String) => (Unsafe, "fails for text other than \"true\" or \"false\""),
            (Bool, Number | Int) => (Unsafe, "fails: a number is never a bool"),
            (Null, Null) => (Safe, ""),
            (_, Null) => (No, "is impossible: the value is always null"),
            (Null, _) => (No, "is impossible: only null has type none"),
            _ => (No, "is impossible: a collection, structure or eventual never becomes a primitive"),
        };
        self.note(r, || format!("{sb} to {db} {why}"))
    }
}
