//! `templatefile(path, vars)` (terraform): the template file is read and
//! typed with the names `vars` passes, as Terraform renders it (analysis.md
//! §4): a name it uses that `vars` does not pass is Terraform's "vars map
//! does not contain key", and what its types reject (an attribute of a
//! string, a list interpolated, a condition that is no bool) is reported
//! at the call, naming the template's line.

use std::path::{Path, PathBuf};

use super::*;

/// The names a template sees: only those `vars` passes (no `var.`, no
/// `local.`, no resources); functions are Terraform's.
struct TemplateEnv;

impl Env for TemplateEnv {
    fn dialect(&self) -> Dialect {
        Dialect::Terraform
    }
    fn lookup(&self, _: Space, _: &str) -> Option<(Type, Option<Related>)> {
        None
    }
    fn suggest(&self, _: Space, _: &str) -> Option<String> {
        None
    }
}

impl<'e, 's> Infer<'e, 's> {
    /// Checks the template `templatefile(path, vars)` renders, where `vars`
    /// has type `vars_ty`, reporting at `vars` (names, types) or `path`.
    pub(super) fn template_file(&mut self, path: &Expression, vars: &Expression, vars_ty: &Type) {
        // Only an object says which names are passed.
        let Kind::Object(attrs) = vars_ty.kind() else { return };
        let Some(file) = self.template_path(path) else { return };
        let Some(text) = self.env.read_file(&file) else {
            // Terraform: "no file exists" (a file written by a resource is
            // no template). A warning: what is checked may be part of a
            // checkout (a corpus of `.tf` files only).
            if file.parent().is_some_and(Path::is_dir) && !file.exists() {
                let r = self.range(path);
                let msg = format!(
                    "no file exists at `{}`: templatefile fails unless it ships with the configuration",
                    file.display()
                );
                self.report(Diagnostic::new(Code::UndefinedReference, r, msg).with_severity(Severity::Warning));
            }
            return;
        };
        let Ok(template) = hcl_edit::parser::parse_template(&text) else { return };
        let shown = file.file_name().map_or_else(|| file.display().to_string(), |n| n.to_string_lossy().to_string());
        let mut inner = Infer::new(&TemplateEnv, Source::new(&text, 0));
        for (name, t) in attrs {
            inner.bind(name.as_str(), t.clone());
        }
        inner.template(&template);
        let at = self.range(vars);
        let mut missing: Vec<String> = Vec::new();
        for d in std::mem::take(&mut inner.diagnostics) {
            let (line, col) = syntax::lines::line_col(&text, d.range.start);
            let place = format!("`{shown}` line {line}, column {col}");
            let msg = if d.code == Code::UndefinedReference {
                let used = text.get(d.range.clone()).unwrap_or("");
                let name = used.split(['.', '[']).next().unwrap_or(used).trim().to_string();
                if missing.contains(&name) {
                    continue;
                }
                missing.push(name.clone());
                let mut msg = format!("the template {place} uses `{name}`, which `vars` does not pass");
                let names = attrs.iter().map(|(k, _)| k.as_str());
                if let Some(s) = suggest::closest(&name, names) {
                    msg.push_str(&format!(" (did you mean `{s}`?)"));
                }
                Diagnostic::new(Code::UndefinedReference, at.clone(), msg)
            } else {
                let mut moved = d.clone();
                moved.range = at.clone();
                moved.message = format!("in the template {place}: {}", d.message);
                moved.related.clear();
                moved
            };
            self.report(msg);
        }
    }

    /// The file `templatefile`'s first argument names: a constant path, or
    /// `"${path.module}/…"`, relative to the module's directory.
    pub(super) fn template_path(&self, path: &Expression) -> Option<PathBuf> {
        let rel = match eval(path, self.src) {
            Ok(Value::String(s)) => s,
            _ => {
                let Expression::StringTemplate(t) = path else { return None };
                let mut parts = t.iter();
                let Some(Element::Interpolation(first)) = parts.next() else { return None };
                let Expression::Traversal(tr) = &first.expr else { return None };
                let is_module = matches!(&tr.expr, Expression::Variable(v) if v.value().as_str() == "path")
                    && matches!(tr.operators.as_slice(), [op] if matches!(op.value(), TraversalOperator::GetAttr(a) if a.value().as_str() == "module"));
                if !is_module {
                    return None;
                }
                let mut rest = String::from(".");
                for p in parts {
                    let Element::Literal(l) = p else { return None };
                    rest.push_str(l.value());
                }
                rest
            }
        };
        self.module_path(&rel)
    }

    /// A path as `file` and `templatefile` read it: relative to the
    /// module's directory.
    pub(super) fn module_path(&self, rel: &str) -> Option<PathBuf> {
        let rel = Path::new(rel);
        if rel.is_absolute() {
            return Some(rel.to_path_buf());
        }
        // (`dir/./x.tpl` as `dir/x.tpl`.)
        Some(self.env.module_dir()?.join(rel).components().collect())
    }
}
