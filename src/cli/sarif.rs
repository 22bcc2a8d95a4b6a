//! `check --format sarif`: the diagnostics as a SARIF 2.1.0 log, the format
//! code-scanning services and editors read. One run, one rule per
//! diagnostic code (docs/spec/analysis.md §5), results with their related
//! locations and, where the fix is certain, the quick fix the editor offers.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::{json, Value};

use super::check::{effective_severity, Counts, FileReport, IoFailure};
use ide;
use syntax::diagnostic::{Code, Severity};
use syntax::lines::LineIndex;

/// What each code means, for the rule's description (the README's table).
fn rule_text(code: Code) -> &'static str {
    match code {
        Code::Syntax => "A top-level block does not parse; only that block is lost.",
        Code::TypeSyntax => "An invalid type expression.",
        Code::TypeDialect => "A type keyword or constructor that the file's dialect does not have.",
        Code::IntPrecision => "An integer literal beyond 4096 bits.",
        Code::TypeMismatch => "A conversion that can never succeed.",
        Code::UnsafeConversion => "A conversion that may fail at run time.",
        Code::InvalidValue => "A constant that cannot convert to the type it must have.",
        Code::ImplicitConversion => "A constant that converts implicitly, such as count = \"2\".",
        Code::UndefinedReference => "A name that is not declared.",
        Code::UnknownFunction => "A call of a function that does not exist.",
        Code::ArgumentCount => "A call with the wrong number of arguments.",
        Code::Traversal => "An attribute or index that the value's type does not have.",
        Code::Cycle => "Locals that depend on themselves.",
        Code::MissingArgument => "A module call or resource without an argument its callee requires.",
        Code::UnsupportedArgument => "An argument that the module or resource does not declare.",
        Code::ModuleSource => "A module call whose source is not on disk (not installed, or a missing directory).",
        Code::Deprecated => "A deprecated attribute or block of a provider schema.",
        Code::MissingType => {
            "A variable without a type: any value is accepted (the hint names the type its default suggests)."
        }
        Code::FileNotRead => "A file of the module that was not read (over the size limit, or not text).",
        Code::OutsideTree => "A path that leads outside the checked tree (a link, `..`, an absolute path): not read.",
        Code::Duplicate => "A name declared twice in a module (a variable, local, output, resource, module call…).",
        Code::MetaArgument => "A meta-argument Terraform rejects, such as `count` beside `for_each`.",
        Code::OutOfScope => "`count`, `each` or `self` where no instance gives it a value.",
        Code::CheckRule => {
            "A condition Terraform rejects: it refers to nothing, or a validation that does not test its variable."
        }
        Code::InvalidName => "A name Terraform rejects: not an identifier, or reserved (a variable named `count`).",
        Code::DeadCondition => "A condition that can never hold (or always holds): the branch it guards is dead logic.",
        Code::NullValue => "A value that is null where Terraform needs one: it fails at plan (for the inputs named).",
        Code::NotHcl => "A file with an HCL name that is not HCL (encrypted, binary, YAML, JSON): not read.",
        Code::UnusedVariable => "A variable that no expression of its module reads.",
        Code::UnusedLocal => "A local value that no expression of its module reads.",
        Code::UnusedData => "A data source that no expression of its module reads.",
        Code::UnusedProvider => "A required_providers entry that no block of its module uses.",
        Code::NoSchema => {
            "A provider whose resources the module uses, in none of the provider schemas read: they are untyped."
        }
        Code::SensitiveOutput => "A root module output, not marked sensitive, whose value is sensitive.",
        Code::UnusedOutput => "An output of a called module that none of its known callers reads.",
        Code::SensitiveFlow => "A sensitive value in a local or a module argument whose variable is not sensitive.",
    }
}

fn level(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Hint => "note",
    }
}

/// The rule's name: the code in upper camel case (`type-mismatch` →
/// `TypeMismatch`), as SARIF viewers show it next to the id.
fn rule_name(code: Code) -> String {
    code.as_str()
        .split('-')
        .map(|w| {
            let mut c = w.chars();
            c.next().map(|f| f.to_ascii_uppercase().to_string() + c.as_str()).unwrap_or_default()
        })
        .collect()
}

fn rules() -> Vec<Value> {
    Code::ALL
        .iter()
        .map(|&code| {
            json!({
                "id": code.as_str(),
                "name": rule_name(code),
                "shortDescription": { "text": rule_text(code) },
                "defaultConfiguration": { "level": level(code.default_severity()) },
            })
        })
        .collect()
}

/// A path as a URI reference: relative paths stay relative (to where
/// `check` ran, usually the repository root), absolute ones become
/// `file://` URIs; bytes outside the unreserved set are percent-encoded.
pub fn uri(path: &Path) -> String {
    let text = path.to_string_lossy().replace('\\', "/");
    let text = text.strip_prefix("./").unwrap_or(&text);
    let mut out = String::with_capacity(text.len());
    if path.is_absolute() {
        out.push_str("file://");
        if !text.starts_with('/') {
            out.push('/');
        }
    }
    for b in text.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' | b'/' => out.push(b as char),
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

/// Texts and line indexes of the files a log refers to: the analysed ones,
/// and others (a related location in a module read for context) read once.
struct Files<'a> {
    reports: BTreeMap<&'a Path, (&'a str, LineIndex)>,
    others: BTreeMap<PathBuf, Option<(String, LineIndex)>>,
}

impl<'a> Files<'a> {
    fn new(reports: &'a [FileReport]) -> Self {
        let reports = reports.iter().map(|r| (r.path.as_path(), (r.text.as_str(), LineIndex::new(&r.text)))).collect();
        Files { reports, others: BTreeMap::new() }
    }

    /// The SARIF region of a byte range, if the file can be read.
    fn region(&mut self, path: &Path, range: &std::ops::Range<usize>) -> Option<Value> {
        let (text, index) = match self.reports.get(path) {
            Some((text, index)) => (*text, index),
            None => {
                let other = self.others.entry(path.to_path_buf()).or_insert_with(|| {
                    let text = project::fsread::read_regular_to_string(path, project::fsread::SOURCE_CAP).ok()?;
                    let index = LineIndex::new(&text);
                    Some((text, index))
                });
                let (text, index) = other.as_ref()?;
                (text.as_str(), index)
            }
        };
        let (start_line, start_column) = index.position(text, range.start);
        let (end_line, end_column) = index.position(text, range.end);
        Some(json!({
            "startLine": start_line,
            "startColumn": start_column,
            "endLine": end_line,
            "endColumn": end_column,
        }))
    }

    fn location(&mut self, path: &Path, range: &std::ops::Range<usize>) -> Value {
        let mut physical = json!({ "artifactLocation": { "uri": uri(path) } });
        if let Some(region) = self.region(path, range) {
            physical["region"] = region;
        }
        physical
    }
}

/// The SARIF log of `check`'s diagnostics, with severity overrides applied
/// (`None` = off) and files that could not be read as tool notifications.
pub fn render(
    reports: &[FileReport],
    overrides: &BTreeMap<Code, Option<Severity>>,
    failures: &[IoFailure],
) -> (Value, Counts) {
    let mut files = Files::new(reports);
    let mut counts = Counts::default();
    let mut results = Vec::new();
    for r in reports {
        for d in &r.diagnostics {
            let Some(severity) = effective_severity(d, overrides) else { continue };
            counts.add(severity);
            let mut result = json!({
                "ruleId": d.code.as_str(),
                "ruleIndex": Code::ALL.iter().position(|&c| c == d.code),
                "level": level(severity),
                "message": { "text": d.message },
                "locations": [{ "physicalLocation": files.location(&r.path, &d.range) }],
            });
            if !d.related.is_empty() {
                let related: Vec<Value> = d
                    .related
                    .iter()
                    .enumerate()
                    .map(|(id, rel)| {
                        let path = rel.path.as_deref().unwrap_or(&r.path);
                        json!({
                            "id": id,
                            "physicalLocation": files.location(path, &rel.range),
                            "message": { "text": rel.message },
                        })
                    })
                    .collect();
                result["relatedLocations"] = Value::Array(related);
            }
            if let Some(fix) = ide::quick_fix(d, &r.text) {
                let deleted = files.region(&r.path, &fix.range);
                result["fixes"] = json!([{
                    "description": { "text": fix.title },
                    "artifactChanges": [{
                        "artifactLocation": { "uri": uri(&r.path) },
                        "replacements": [{
                            "deletedRegion": deleted,
                            "insertedContent": { "text": fix.replacement },
                        }],
                    }],
                }]);
            }
            results.push(result);
        }
    }
    let notifications: Vec<Value> = failures
        .iter()
        .map(|f| {
            json!({
                "level": "error",
                "message": { "text": f.message },
                "locations": [{ "physicalLocation": { "artifactLocation": { "uri": uri(&f.path) } } }],
            })
        })
        .collect();
    let log = json!({
        "$schema": "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": { "driver": {
                "name": "hcl-types",
                "version": env!("CARGO_PKG_VERSION"),
                "rules": rules(),
            }},
            "invocations": [{
                "executionSuccessful": failures.is_empty(),
                "toolExecutionNotifications": notifications,
            }],
            "columnKind": "unicodeCodePoints",
            "results": results,
        }],
    });
    (log, counts)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uris_are_encoded_references() {
        assert_eq!(uri(Path::new("./examples/a b/main.tf")), "examples/a%20b/main.tf");
        assert_eq!(uri(Path::new("/tmp/ü.tf")), "file:///tmp/%C3%BC.tf");
        assert_eq!(uri(Path::new("dir/x#1.tf")), "dir/x%231.tf");
    }

    #[test]
    fn rule_names_are_camel_case() {
        assert_eq!(rule_name(Code::UndefinedReference), "UndefinedReference");
        assert_eq!(rule_name(Code::Cycle), "Cycle");
    }
}
