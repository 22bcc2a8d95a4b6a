//! `hcl-types type …`: the calculator over the type algebra.

use std::io::Write;

use clap::Subcommand;

use syntax::constant::{eval, Source};
use syntax::typeexpr::{parse_type_str, TypeContext, TypeExpr};
use syntax::Dialect;
use types::{self, value::Value, ConvertOptions, Severity, Step, Type};

#[derive(Subcommand, Debug)]
pub enum TypeCommand {
    /// Print the canonical text of TYPE.
    Normalize {
        /// Parse as this dialect would (terraform, pcl or hcl).
        #[arg(long, default_value = "hcl", value_parser = super::parse_dialect)]
        dialect: Dialect,
        #[arg(allow_hyphen_values = true)]
        ty: String,
    },
    /// Whether FROM converts to TO: safe, unsafe or none.
    Convert {
        #[arg(allow_hyphen_values = true)]
        from: String,
        #[arg(allow_hyphen_values = true)]
        to: String,
    },
    /// The type a conditional over these types would get.
    Unify {
        /// Print the plain fold's type and its kind instead.
        #[arg(long)]
        raw: bool,
        #[arg(required = true)]
        types: Vec<String>,
    },
    /// The type after traversal steps: .name, .0, [0], ["key"], [true], [<TYPE>].
    Traverse {
        #[arg(allow_hyphen_values = true)]
        ty: String,
        steps: Vec<String>,
    },
}

pub fn run(cmd: TypeCommand) -> u8 {
    let mut out = std::io::stdout().lock();
    match calc(cmd) {
        Ok(lines) => {
            for line in lines {
                let _ = writeln!(out, "{line}");
            }
            0
        }
        Err(errors) => {
            let mut err = std::io::stderr().lock();
            for e in errors {
                let _ = writeln!(err, "error: {e}");
            }
            1
        }
    }
}

/// The calculator's output lines, or the error messages of its arguments.
pub fn calc(cmd: TypeCommand) -> Result<Vec<String>, Vec<String>> {
    match cmd {
        TypeCommand::Normalize { dialect, ty } => Ok(vec![parse(&ty, dialect)?.to_string()]),
        TypeCommand::Convert { from, to } => {
            let (from, to) = (parse(&from, Dialect::Hcl)?, parse(&to, Dialect::Hcl)?);
            let (safety, why) = types::explain(&from, &to, ConvertOptions::default());
            Ok(std::iter::once(safety.as_str().to_string()).chain(why).collect())
        }
        TypeCommand::Unify { raw, types: args } => {
            let ts = args.iter().map(|t| parse(t, Dialect::Hcl)).collect::<Result<Vec<_>, _>>()?;
            Ok(vec![if raw {
                let (t, k) = types::unify_fold(&ts);
                format!("{t}\t{}", k.as_str())
            } else {
                types::unify_safe_fold(&ts).to_string()
            }])
        }
        TypeCommand::Traverse { ty, steps } => {
            let mut t = parse(&ty, Dialect::Hcl)?;
            let steps = steps.iter().map(|s| parse_step(s)).collect::<Result<Vec<_>, _>>()?;
            let mut diags = Vec::new();
            for step in &steps {
                let r = types::traverse(&t, step);
                t = r.ty;
                diags.extend(r.diags);
            }
            let mut lines = vec![t.to_string()];
            lines.extend(diags.into_iter().map(|d| {
                let sev = if d.severity == Severity::Error { "error" } else { "warning" };
                format!("{sev}: {}", d.message)
            }));
            Ok(lines)
        }
    }
}

/// A type argument; its errors (with the offending text) on failure.
fn parse(text: &str, dialect: Dialect) -> Result<Type, Vec<String>> {
    let parsed: TypeExpr = parse_type_str(text, TypeContext::new(dialect));
    if !parsed.has_errors() {
        return Ok(parsed.declared);
    }
    Err(parsed
        .diagnostics
        .iter()
        .filter(|d| d.severity == syntax::diagnostic::Severity::Error)
        .map(|d| match text.get(d.range.clone()) {
            Some(s) if !s.is_empty() => {
                let shown: String = s.chars().take(60).collect();
                let more = if shown.len() < s.len() { "…" } else { "" };
                format!("{} (at `{shown}{more}`)", d.message)
            }
            _ => d.message.clone(),
        })
        .collect())
}

/// A traversal step as cli.md writes it.
pub fn parse_step(s: &str) -> Result<Step, Vec<String>> {
    let s = s.trim();
    let bad = || vec![format!("`{s}` is not a traversal step: write .name, .0, [0], [\"key\"], [true] or [<TYPE>]")];
    if let Some(name) = s.strip_prefix('.') {
        if !name.is_empty() && name.bytes().all(|b| b.is_ascii_digit()) {
            return syntax::constant::number_literal(name).map(Step::Index).map_err(|e| vec![e]);
        }
        if types::is_identifier(name) {
            return Ok(Step::Attr(name.to_string()));
        }
        return Err(bad());
    }
    let inner = s.strip_prefix('[').and_then(|r| r.strip_suffix(']')).ok_or_else(bad)?.trim();
    if let Some(ty) = inner.strip_prefix('<').and_then(|r| r.strip_suffix('>')) {
        return parse(ty, Dialect::Hcl).map(Step::Typed);
    }
    let expr = hcl_edit::parser::parse_expr(inner).map_err(|_| bad())?;
    match eval(&expr, Source::new(inner, 0)) {
        Ok(v @ (Value::Int(_) | Value::Number(_) | Value::String(_) | Value::Bool(_) | Value::Null)) => {
            Ok(Step::Index(v))
        }
        _ => Err(bad()),
    }
}
