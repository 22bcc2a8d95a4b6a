//! OpenTofu's symbol libraries in expressions: `symbols::LIB::FN(…)` calls
//! and `symbols.LIB.VALUE` references
//! (docs/spec/opentofu-symbol-libraries.md §3).

use std::collections::BTreeMap;
use std::sync::Arc;

use super::libraries::{Def, FunctionDef, Library};
use crate::infer::{Infer, Note};
use hcl_edit::expr::{Expression, FuncCall, TraversalOperator};
use std::ops::Range;
use syntax::diagnostic::{Code, Diagnostic, Related};
use syntax::Dialect;
use types::{suggest, Type};

/// What the expressions of a symbol library's own file may reference
/// (spec §4, after OpenTofu's `symbolScope` and `functionScope` in
/// internal/configs/symlib/scope.go of opentofu/opentofu): `value.NAME`
/// (its `values` blocks), `symbols::NAME(…)` (its functions),
/// `symbols.LIB`/`symbols::LIB::…` (the libraries it imports), and in a
/// function `param.NAME` and `local.NAME` (the function's own). Nothing
/// else: the module's names are not in a library's scope.
#[derive(Clone, Debug, Default)]
pub struct LibraryScope {
    /// The library as read from all its files (`value.NAME`, own functions).
    pub library: Arc<Library>,
    /// Inside a function: its parameters (the variadic one a list).
    pub params: Option<BTreeMap<String, (Type, Def)>>,
    /// Inside a function: its `locals`.
    pub locals: BTreeMap<String, (Type, Def)>,
}

/// One reference kind of a library's scope, for messages.
fn scope_word(root: &str) -> &'static str {
    match root {
        "value" => "a value of this symbol library (its `values` blocks)",
        "param" => "a parameter of this function",
        _ => "a local of this function (its `locals` block)",
    }
}

/// Where a library symbol is defined, as hover and go-to-definition show it
/// (the line is said: the library's file is not one of the module's).
fn related(def: &Def, what: String) -> Related {
    Related {
        path: Some(def.path.clone()),
        range: def.name_range.clone(),
        message: format!("{what}, line {}", def.line),
    }
}

fn no_block(label: &str) -> String {
    format!("no `symbols \"{label}\"` block imports a library `{label}` (OpenTofu's symbol libraries)")
}

impl<'e, 's> Infer<'e, 's> {
    /// The library a `symbols::LABEL::…` or `symbols.LABEL` names: `Err`
    /// after reporting at `range` when no block imports it; `Ok(None)` when
    /// its symbols are not known here (not a local source).
    fn library(&mut self, label: &str, range: Range<usize>, what: &str) -> Result<Option<&'e Library>, ()> {
        match self.env.symbols().and_then(|s| s.get(label)) {
            Some(lib) if lib.known() => Ok(Some(lib)),
            Some(_) => Ok(None),
            None => {
                self.report(Diagnostic::new(Code::UndefinedReference, range, format!("`{what}`: {}", no_block(label))));
                Err(())
            }
        }
    }

    /// `symbols::LIB::FN(args)`: each argument checked against its
    /// parameter's declared type, the declared return type (S5, S8 of the
    /// spec page). `None` when the call is no library's.
    pub(crate) fn symbol_function(&mut self, call: &FuncCall, args: &[&Expression], types: &[Type]) -> Option<Type> {
        let ns = call.name.namespace.first()?;
        if ns.value().as_str() != "symbols" {
            return None;
        }
        let name = call.name.name.value().as_str();
        let name_range = self.range(ns).start..self.range(&call.name.name).end;
        let operands: Vec<&Type> = types.iter().collect();
        // `symbols::NAME(…)` in a library's file: its own function.
        if call.name.namespace.len() == 1 {
            let own = self.library.as_ref()?.library.clone();
            let full = format!("symbols::{name}");
            let Some(f) = own.functions.get(name) else {
                let mut msg = format!("`{full}` is not a function of this symbol library");
                if let Some(s) = suggest::closest(name, own.functions.keys().map(String::as_str)) {
                    msg.push_str(&format!("; did you mean `symbols::{s}`?"));
                }
                self.report(Diagnostic::new(Code::UnknownFunction, name_range, msg));
                return Some(Type::lift(Type::any(), &operands));
            };
            // (The library's own file is at hand: hover says the line itself.)
            let what = format!("`{full}` is a function of this symbol library");
            let at = Related { path: Some(f.def.path.clone()), range: f.def.name_range.clone(), message: what };
            return Some(self.symbol_call(call, &full, name_range, f, at, args, types));
        }
        let [_, label] = &call.name.namespace[..] else { return None };
        let label = label.value().as_str();
        let full = format!("symbols::{label}::{name}");
        // In a library's file, an import of its own (not read here: `any`).
        if let Some(scope) = &self.library {
            if !scope.library.imports.iter().any(|i| i == label) {
                let msg = format!("`{full}`: {}", no_block(label));
                self.report(Diagnostic::new(Code::UndefinedReference, name_range, msg));
            }
            return Some(Type::lift(Type::any(), &operands));
        }
        let Ok(Some(lib)) = self.library(label, name_range.clone(), &full) else {
            return Some(Type::lift(Type::any(), &operands));
        };
        let Some(f) = lib.functions.get(name) else {
            let mut msg = format!("`{full}` is not a function of symbol library `{label}`");
            if let Some(s) = suggest::closest(name, lib.functions.keys().map(String::as_str)) {
                msg.push_str(&format!("; did you mean `symbols::{label}::{s}`?"));
            }
            self.report(Diagnostic::new(Code::UnknownFunction, name_range, msg));
            return Some(Type::lift(Type::any(), &operands));
        };
        let what = format!("`{full}` is a function of symbol library `{label}`");
        Some(self.symbol_call(call, &full, name_range, f, related(&f.def, what), args, types))
    }

    /// A call of a library function: the parameters declared, then any
    /// number of arguments of a `variadic = true` parameter's type (cty's
    /// `VarParam`, `Function.Compile` in internal/configs/symlib/functions.go),
    /// each argument a check site (S5); the declared return type (S8).
    #[allow(clippy::too_many_arguments)]
    fn symbol_call(
        &mut self,
        call: &FuncCall,
        full: &str,
        name_range: Range<usize>,
        f: &FunctionDef,
        at: Related,
        args: &[&Expression],
        types: &[Type],
    ) -> Type {
        let operands: Vec<&Type> = types.iter().collect();
        let n = f.params.len();
        let wrong = match &f.variadic {
            None => args.len() != n,
            Some(_) => args.len() < n,
        };
        if !call.args.expand_final() && wrong {
            let plural = if n == 1 { "" } else { "s" };
            let least = if f.variadic.is_some() { "at least " } else { "" };
            let r = self.range(call);
            self.report(Diagnostic::new(
                Code::ArgumentCount,
                r,
                format!("`{full}` takes {least}{n} argument{plural}, but {} given", args.len()),
            ));
        }
        let variadic = f.variadic.as_ref().map(|(_, t)| t);
        let expected = f.params.iter().map(|(_, p)| p).chain(std::iter::repeat_n(variadic, args.len()).flatten());
        for ((a, t), p) in args.iter().zip(types).zip(expected) {
            self.check(a, t, p, None);
        }
        self.note(name_range, &f.returns, Note::Reference(Some(at)));
        Type::lift(f.returns.clone(), &operands)
    }

    /// A reference in a symbol library's file (see [`LibraryScope`]):
    /// `value.NAME`, `param.NAME`, `local.NAME`, `symbols.LIB…`; any other
    /// root is an error (OpenTofu's library scope has no other names, and
    /// HCL reports a bare name as an unknown variable).
    pub(crate) fn library_reference(
        &mut self,
        name: &str,
        range: Range<usize>,
        ops: &[hcl_edit::Decorated<TraversalOperator>],
    ) -> Option<(Type, Note)> {
        let scope = self.library.as_ref()?;
        let names = match name {
            "value" => {
                Some(scope.library.values.iter().map(|(k, v)| (k.clone(), (v.ty.clone(), v.def.clone()))).collect())
            }
            "param" => scope.params.clone(),
            "local" if scope.params.is_some() => Some(scope.locals.clone()),
            "symbols" => {
                let label = match ops.first().map(|o| o.value()) {
                    Some(TraversalOperator::GetAttr(l)) => l.value().to_string(),
                    _ => return Some((self.apply(Type::any(), ops), Note::Plain)),
                };
                if !scope.library.imports.contains(&label) && !self.env.lenient() {
                    let at = range.start..self.range(&ops[0]).end;
                    let msg = format!("`symbols.{label}`: {}", no_block(&label));
                    self.report(Diagnostic::new(Code::UndefinedReference, at, msg));
                }
                return Some((self.apply(Type::any(), &ops[1..]), Note::Plain));
            }
            _ => None,
        };
        let Some(names) = names else {
            let msg = match name {
                "param" => "`param` is a function's: only a `function` block's expressions see its parameters".to_string(),
                "local" => "a symbol library has no `locals` of its own: only a `function` block has `locals` (read as `local.NAME` in it); a library's values are `value.NAME`".to_string(),
                _ => format!(
                    "`{name}` is not a reference a symbol library knows: its expressions see `value.NAME`, `symbols.LIB.NAME` and, in a function, `param.NAME` and `local.NAME`"
                ),
            };
            self.report(Diagnostic::new(Code::UndefinedReference, range, msg));
            return Some((self.apply(Type::any(), ops), Note::Plain));
        };
        let (attr, rest, full) = match self.first_attr(&range, ops) {
            Ok(found) => found,
            Err(plain) => return Some(plain),
        };
        let Some((ty, def)) = names.get(attr) else {
            let mut msg = format!("`{name}.{attr}` is not {}", scope_word(name));
            if let Some(s) = suggest::closest(attr, names.keys().map(String::as_str)) {
                msg.push_str(&format!("; did you mean `{name}.{s}`?"));
            }
            self.report(Diagnostic::new(Code::UndefinedReference, full, msg));
            return Some((self.apply(Type::any(), rest), Note::Plain));
        };
        // (The library's own file is at hand: hover says the line itself.)
        let what = format!("`{name}.{attr}` is {}", scope_word(name));
        let note = Note::Reference(Some(Related {
            path: Some(def.path.clone()),
            range: def.name_range.clone(),
            message: what,
        }));
        self.note(full, ty, note.clone());
        Some((self.apply_at(ty.clone(), rest, Some(format!("{name}.{attr}"))), note))
    }

    /// `symbols.LIB.VALUE…`: the type of the library's value, then the
    /// traversal. `None` when a Terraform module imports no library (then
    /// `symbols` is an ordinary root, a resource type's name); in an
    /// OpenTofu module it is always the libraries'.
    pub(crate) fn symbol_value(
        &mut self,
        range: Range<usize>,
        ops: &[hcl_edit::Decorated<TraversalOperator>],
    ) -> Option<(Type, Note)> {
        if self.env.symbols().is_none() && self.env.dialect() != Dialect::OpenTofu {
            return None;
        }
        let Some(TraversalOperator::GetAttr(label)) = ops.first().map(|o| o.value()) else {
            return Some((self.apply(Type::any(), ops), Note::Plain));
        };
        let label = label.value().as_str();
        let lib_range = range.start..self.range(&ops[0]).end;
        let lib = match self.library(label, lib_range, &format!("symbols.{label}")) {
            Ok(Some(lib)) => lib,
            _ => return Some((self.apply(Type::any(), &ops[1..]), Note::Plain)),
        };
        let Some(TraversalOperator::GetAttr(name)) = ops.get(1).map(|o| o.value()) else {
            let all = lib.all_values.clone();
            return Some((self.apply(all, &ops[1..]), Note::Plain));
        };
        let name = name.value().as_str();
        let full = range.start..self.range(&ops[1]).end;
        let Some(v) = lib.values.get(name) else {
            let mut msg = format!("`symbols.{label}.{name}` is not a value of symbol library `{label}`");
            if let Some(s) = suggest::closest(name, lib.values.keys().map(String::as_str)) {
                msg.push_str(&format!("; did you mean `symbols.{label}.{s}`?"));
            }
            self.report(Diagnostic::new(Code::UndefinedReference, full, msg));
            return Some((self.apply(Type::any(), &ops[2..]), Note::Plain));
        };
        let note = Note::Reference(Some(related(
            &v.def,
            format!("`symbols.{label}.{name}` is a value of symbol library `{label}`"),
        )));
        self.note(full, &v.ty, note.clone());
        Some((self.apply_at(v.ty.clone(), &ops[2..], Some(format!("symbols.{label}.{name}"))), note))
    }
}
