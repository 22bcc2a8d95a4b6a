//! Nomad variable specifications (`*.nv.hcl`, analysis.md §8.1): what
//! `nomad var put @FILE` reads, one variable a file. `parseVariableSpecImpl`
//! of hashicorp/nomad's `command/var_put.go` decodes the file (HCL1) into
//! an `api.Variable`, after `helper.CheckHCLKeys` refuses any key but
//! these; `items` is a `map[string]string` (`WeakDecode`: a number or bool
//! becomes its text, a list or object fails). `nomad var init` writes
//! `items { … }` as a block, `nomad var get -out hcl` as `items = { … }`.

use crate::document::Document;
use crate::infer::Infer;
use hcl_edit::structure::{Attribute, Block, Structure};
use std::ops::Range;
use syntax::diagnostic::{Code, Diagnostic};
use types::{Kind, Type};

/// The keys a specification may hold, with their types.
pub fn arguments() -> [(&'static str, Type); 7] {
    [
        ("namespace", Type::string()),
        ("path", Type::string()),
        // "must be integer" (create/modify index), "must be a int64" (times).
        ("create_index", Type::int()),
        ("modify_index", Type::int()),
        ("create_time", Type::int()),
        ("modify_time", Type::int()),
        ("items", Type::map(Type::string())),
    ]
}

/// Whether `doc` is a variable specification.
pub(crate) fn is_spec(doc: &Document) -> bool {
    crate::is_nomad_variable_spec(&doc.file.path)
}

fn unsupported(inf: &mut Infer, range: Range<usize>, key: &str) {
    let names = arguments().map(|(n, _)| n);
    let mut msg = format!("`{key}` is not a key of a Nomad variable specification (`nomad var put` refuses it)");
    if let Some(s) = types::suggest::closest(key, names.iter().copied()) {
        msg.push_str(&format!("; did you mean `{s}`?"));
    }
    inf.report(Diagnostic::new(Code::UnsupportedArgument, range, msg));
}

/// A top-level `KEY = value`, whose type the module's pass inferred
/// (`inferred`): checked against the key's type.
pub(crate) fn attribute(inf: &mut Infer, a: &Attribute, inferred: Option<&Type>) {
    let key = a.key.value().as_str();
    let Some((_, want)) = arguments().into_iter().find(|(n, _)| *n == key) else {
        let r = inf.range(&a.key);
        return unsupported(inf, r, key);
    };
    match inferred {
        // `value.(int)`: no text is an index or a time, not even digits.
        Some(t) if want == Type::int() && matches!(t.kind(), Kind::String) => {
            let r = inf.range(&a.value);
            let msg = format!("`{key}` must be an integer; `nomad var put` does not convert text to one");
            inf.report(Diagnostic::new(Code::TypeMismatch, r, msg));
        }
        Some(t) => {
            inf.check(&a.value, t, &want, None);
        }
        None => {}
    }
}

/// A top-level block: `items { KEY = value … }`, each value a string.
pub(crate) fn block(inf: &mut Infer, b: &Block) {
    let key = b.ident.value().as_str();
    if key != "items" || !b.labels.is_empty() {
        let r = inf.range(&b.ident);
        return unsupported(inf, r, key);
    }
    for s in b.body.iter() {
        match s {
            Structure::Attribute(a) => {
                let t = inf.expr(&a.value);
                inf.check(&a.value, &t, &Type::string(), None);
            }
            Structure::Block(nested) => {
                let r = inf.range(&nested.ident);
                let msg = "an item of a Nomad variable is a string, not a block";
                inf.report(Diagnostic::new(Code::TypeMismatch, r, msg));
            }
        }
    }
}
