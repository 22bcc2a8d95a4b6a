//! OpenTofu's symbol libraries in expressions: `symbols::LIB::FN(…)` calls
//! and `symbols.LIB.VALUE` references
//! (docs/spec/opentofu-symbol-libraries.md §3).

use super::*;
use crate::module::symbol_libraries::{Def, Library};

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
    pub(super) fn symbol_function(&mut self, call: &FuncCall, args: &[&Expression], types: &[Type]) -> Option<Type> {
        let [ns, label] = &call.name.namespace[..] else { return None };
        if ns.value().as_str() != "symbols" {
            return None;
        }
        let (label, name) = (label.value().as_str(), call.name.name.value().as_str());
        let full = format!("symbols::{label}::{name}");
        let name_range = self.range(ns).start..self.range(&call.name.name).end;
        let operands: Vec<&Type> = types.iter().collect();
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
        if !call.args.expand_final() && args.len() != f.params.len() {
            let plural = if f.params.len() == 1 { "" } else { "s" };
            let r = self.range(call);
            self.report(Diagnostic::new(
                Code::ArgumentCount,
                r,
                format!("`{full}` takes {} argument{plural}, but {} given", f.params.len(), args.len()),
            ));
        }
        for ((a, t), (_, p)) in args.iter().zip(types).zip(&f.params) {
            self.check(a, t, p, None);
        }
        let what = format!("`{full}` is a function of symbol library `{label}`");
        self.note(name_range, &f.returns, Note::Reference(Some(related(&f.def, what))));
        Some(Type::lift(f.returns.clone(), &operands))
    }

    /// `symbols.LIB.VALUE…`: the type of the library's value, then the
    /// traversal. `None` when a Terraform module imports no library (then
    /// `symbols` is an ordinary root, a resource type's name); in an
    /// OpenTofu module it is always the libraries'.
    pub(super) fn symbol_value(
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
