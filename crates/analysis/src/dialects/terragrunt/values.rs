//! Terragrunt stack `values` (docs/spec/terragrunt.md §8): a `unit "NAME"`
//! or `stack "NAME"` block of a stack file generates its component from the
//! configuration `source` names and writes `values` beside it as
//! `terragrunt.values.hcl`, which the component reads as `values.KEY`
//! (`WriteValues`, `ReadValues`, `generateUnits`, `generateStacks` in
//! gruntwork-io/terragrunt `pkg/config/stack.go`). A nested stack's own
//! blocks pass on what it was given (`values = { cidr = values.cidr }`), so
//! the types of those follow the stacks that instantiate it, to a bounded
//! depth (a cycle of stacks stops there).

use std::path::{Path, PathBuf};

use hcl_edit::expr::{Expression, TraversalOperator};
use syntax::constant::{eval, Source};
use types::value::Value;

use crate::workspace::{normalize, Files};

/// How many stacks deep a value is followed (`values.KEY` of a stack that a
/// stack instantiates, …).
pub const MAX_STACK_DEPTH: usize = 8;

/// The name under which an instantiating block's own name and place are
/// kept among its values (no `values.KEY` can spell it).
pub const BLOCK: &str = "#block";

/// A `unit "NAME" { source  path  values }` or `stack "NAME" { … }` of a
/// stack file with a constant local `source`.
#[derive(Clone, Debug, PartialEq)]
pub struct StackUnit {
    /// The stack file, the block's kind (`unit` or `stack`), its label and
    /// the label's range.
    pub stack: PathBuf,
    pub kind: String,
    pub name: String,
    pub name_range: std::ops::Range<usize>,
    /// The directory `source` names (relative to the stack file's), and
    /// whether it lies outside that directory (`..`).
    pub source: PathBuf,
    pub escapes: bool,
    /// Each key of `values = { … }` written as an object, with the type of
    /// its value (a constant's, else `any`) and the key's range in the
    /// stack file; `None` when `values` is built otherwise (not known).
    pub values: Option<Vec<StackValue>>,
}

/// One key of a block's `values`.
#[derive(Clone, Debug, PartialEq)]
pub struct StackValue {
    pub key: String,
    pub ty: types::Type,
    pub range: std::ops::Range<usize>,
    /// `values.KEY` of the stack file itself, passed on: its type is what
    /// the stacks instantiating that file give (see [`resolve`]).
    pub passed: Option<String>,
}

/// The `unit` and `stack` blocks of the stack file `file` with a constant
/// local `source`.
pub fn stack_units(files: &dyn Files, file: &Path) -> Vec<StackUnit> {
    let (Some(dir), Some(text)) = (file.parent(), files.read(file)) else { return Vec::new() };
    let Ok(body) = syntax::deep::parse_body(&text) else { return Vec::new() };
    let src = Source::new(&text, 0);
    let mut out = Vec::new();
    for b in body.blocks().filter(|b| matches!(b.ident.value().as_str(), "unit" | "stack")) {
        let Some(label) = b.labels.first() else { continue };
        let name = crate::module::label_text(label);
        let Some(Ok(Value::String(source))) = b.body.get_attribute("source").map(|a| eval(&a.value, src)) else {
            continue;
        };
        if !crate::calls::is_local(&source) {
            continue;
        }
        let values = match b.body.get_attribute("values").map(|a| &a.value) {
            None => Some(Vec::new()),
            Some(Expression::Object(obj)) => obj
                .iter()
                .map(|(k, v)| {
                    let key = crate::module::literal_key(k)?;
                    let ty = eval(v.expr(), src).map_or_else(|_| types::Type::any(), |v| v.type_of());
                    Some(StackValue { key, ty, range: src.range(k), passed: passed(v.expr()) })
                })
                .collect(),
            Some(_) => None,
        };
        let escapes = normalize(Path::new(&source.replace("//", "/"))).starts_with("..");
        let source = normalize(&dir.join(source.replace("//", "/")));
        out.push(StackUnit {
            stack: file.to_path_buf(),
            kind: b.ident.value().to_string(),
            name: name.to_string(),
            name_range: src.range(label),
            source,
            escapes,
            values,
        });
    }
    out
}

/// `values.KEY` alone: the key passed on.
fn passed(e: &Expression) -> Option<String> {
    let Expression::Traversal(t) = e else { return None };
    let Expression::Variable(v) = &t.expr else { return None };
    match (v.value().as_str(), t.operators.as_slice()) {
        ("values", [op]) => match op.value() {
            TraversalOperator::GetAttr(k) => Some(k.value().to_string()),
            _ => None,
        },
        _ => None,
    }
}

/// The stack files that the `stack` blocks of `found` instantiate and the
/// walk did not find (a source outside the walked roots), read to
/// [`MAX_STACK_DEPTH`]; each file once, so a cycle ends.
///
/// Terragrunt copies a nested stack's directory into the instantiating
/// stack's `.terragrunt-stack/PATH` and generates it there
/// (`generateStacks` in `pkg/config/stack.go`, the levels of
/// `internal/stacks/generate/generate.go`), so a local source inside that
/// directory names the same configuration, but one leading out of it
/// (`..`) depends on where it is generated: not followed.
pub fn nested_stacks(files: &dyn Files, found: &mut Vec<StackUnit>, walked: &[PathBuf]) {
    let mut seen: std::collections::HashSet<PathBuf> = walked.iter().map(|p| normalize(p)).collect();
    let mut from = 0;
    for _ in 0..MAX_STACK_DEPTH {
        let next: Vec<PathBuf> = found[from..]
            .iter()
            .filter(|u| u.kind == "stack")
            .map(|u| u.source.join("terragrunt.stack.hcl"))
            .filter(|f| seen.insert(normalize(f)))
            .collect();
        from = found.len();
        if next.is_empty() {
            break;
        }
        for f in next {
            found.extend(stack_units(files, &f));
        }
    }
    let nested: std::collections::HashSet<PathBuf> =
        found.iter().filter(|u| u.kind == "stack").map(|u| u.source.clone()).collect();
    found.retain(|u| !(u.escapes && u.stack.parent().is_some_and(|d| nested.contains(&normalize(d)))));
}

/// Gives each value passed on (`values.KEY` in a nested stack file) the
/// type of what every block instantiating that file gives `KEY`, when they
/// agree; followed [`MAX_STACK_DEPTH`] stacks deep.
pub fn resolve(units: &mut [StackUnit]) {
    for _ in 0..MAX_STACK_DEPTH {
        let mut changed = false;
        for i in 0..units.len() {
            let Some(dir) = units[i].stack.parent().map(normalize) else { continue };
            let Some(values) = &units[i].values else { continue };
            let updates: Vec<(usize, types::Type)> = values
                .iter()
                .enumerate()
                .filter_map(|(j, v)| Some((j, given(units, &dir, "stack", v.passed.as_deref()?)?)))
                .filter(|(j, t)| values[*j].ty != *t)
                .collect();
            for (j, t) in updates {
                if let Some(values) = &mut units[i].values {
                    values[j].ty = t;
                    changed = true;
                }
            }
        }
        if !changed {
            break;
        }
    }
}

/// The type every `kind` block whose source is `dir` gives `key`, when
/// they all give it the same one; `None` when none instantiates `dir`.
fn given(units: &[StackUnit], dir: &Path, kind: &str, key: &str) -> Option<types::Type> {
    let mut types = units.iter().filter(|u| u.kind == kind && u.source == dir).map(|u| {
        let values = u.values.as_ref()?;
        values.iter().find(|v| v.key == key).map(|v| v.ty.clone())
    });
    let first = types.next()??;
    Some(if types.all(|t| t.as_ref() == Some(&first)) { first } else { types::Type::any() })
}

/// The values the blocks that instantiate the configuration in `dir` give
/// it, one callee per block (`#stack-values:K`, see
/// [`crate::calls::stack_values_call`]): its outputs are the keys, and
/// [`BLOCK`] names the block. `kinds` are the blocks that may: `unit` for a
/// unit's `terragrunt.hcl`, `stack` for a stack file.
pub fn stack_values_into(dir: &Path, units: &[StackUnit], kinds: &[&str]) -> Vec<(String, crate::Callee)> {
    let dir = normalize(dir);
    let mut out = Vec::new();
    for u in units.iter().filter(|u| u.source == dir && kinds.contains(&u.kind.as_str())) {
        let Some(values) = &u.values else {
            // Not known: no key can be said to be missing.
            return Vec::new();
        };
        let what = format!("{} \"{}\"", u.kind, u.name);
        let output = |name: &str, ty: types::Type, range: std::ops::Range<usize>, description: String| {
            crate::calls::OutputInfo {
                name: name.to_string(),
                ty,
                description: Some(description),
                path: u.stack.clone(),
                name_range: range,
                deprecated: None,
                ephemeral: false,
                sensitive: false,
                constant: None,
                typed: false,
            }
        };
        let mut outputs: Vec<_> = values
            .iter()
            .map(|v| output(&v.key, v.ty.clone(), v.range.clone(), format!("the `values` of `{what}`")))
            .collect();
        outputs.push(output(BLOCK, types::Type::any(), u.name_range.clone(), what));
        // (Its `dir` is the stack file, which messages name.)
        let interface = crate::calls::Interface::new(u.stack.clone(), Vec::new(), outputs);
        let name = crate::calls::stack_values_call(out.len());
        out.push((name, crate::Callee::Module(std::sync::Arc::new(interface))));
    }
    out
}
