//! Whether a `Pulumi.yaml` makes its directory (and those below it) a
//! Pulumi HCL program: `runtime: hcl`, or `runtime: { name: hcl }` in
//! either YAML form (Pulumi's project schema: `runtime` is a string or an
//! object with `name` and `options`; pulumi-hcl's docs/language-reference.md
//! "Overview"). The caller reads the file; this only reads its text, so the
//! analysis stays free of I/O (docs/spec/pulumi-hcl.md §1).
//!
//! A few lines of YAML are read by hand rather than with a YAML parser: the
//! one key wanted is a top-level scalar or a one-level mapping, and a
//! dependency for it would be read by every build.

/// The file's name, as Pulumi looks it up (also `Pulumi.yml`).
pub const PROJECT_FILES: [&str; 2] = ["Pulumi.yaml", "Pulumi.yml"];

/// Whether this `Pulumi.yaml` text names the `hcl` runtime.
pub fn is_hcl_runtime(text: &str) -> bool {
    let mut lines = text.lines().peekable();
    while let Some(line) = lines.next() {
        let Some(rest) = line.strip_prefix("runtime:") else { continue };
        let rest = strip_comment(rest).trim();
        if rest.is_empty() {
            // Block form: the indented lines below, up to the next key.
            while let Some(next) = lines.peek() {
                if !next.starts_with([' ', '\t']) && !next.trim().is_empty() {
                    break;
                }
                let entry = strip_comment(next).trim();
                if let Some(name) = entry.strip_prefix("name:") {
                    return scalar(name) == "hcl";
                }
                lines.next();
            }
            return false;
        }
        if let Some(inner) = rest.strip_prefix('{').and_then(|r| r.strip_suffix('}')) {
            return inner
                .split(',')
                .filter_map(|kv| kv.split_once(':'))
                .any(|(k, v)| scalar(k) == "name" && scalar(v) == "hcl");
        }
        return scalar(rest) == "hcl";
    }
    false
}

fn strip_comment(s: &str) -> &str {
    s.find(" #").map_or(s, |i| &s[..i])
}

/// A plain or quoted YAML scalar.
fn scalar(s: &str) -> &str {
    let s = s.trim();
    s.strip_prefix('"')
        .and_then(|r| r.strip_suffix('"'))
        .or_else(|| s.strip_prefix('\'').and_then(|r| r.strip_suffix('\'')))
        .unwrap_or(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// pulumi-hcl's examples/simple/Pulumi.yaml, and the object forms of
    /// Pulumi's project schema.
    #[test]
    fn the_runtime_forms() {
        let yes = [
            "name: test-hcl\nruntime: hcl\ndescription: Test HCL program\n",
            "name: p\nruntime: \"hcl\" # the HCL host\n",
            "name: p\nruntime:\n  name: hcl\n  options: {}\n",
            "runtime: { name: hcl, options: { x: 1 } }\n",
        ];
        for t in yes {
            assert!(is_hcl_runtime(t), "{t}");
        }
        let no = [
            "name: p\nruntime: yaml\n",
            "name: p\nruntime:\n  name: nodejs\n",
            "name: p\ndescription: runtime: hcl\n",
            "name: p\n",
            "runtime:\nname: hcl\n",
        ];
        for t in no {
            assert!(!is_hcl_runtime(t), "{t}");
        }
    }
}
