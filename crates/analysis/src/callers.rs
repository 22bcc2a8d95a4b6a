//! The module calls of a module's text, read from the text alone (the
//! project layer's caller scan walks directories with it).

use super::{Call, Family, FileKind};

/// The module calls of formatted Terraform (`module "NAME" {` at the start
/// of a line, its `source = "…"` before the block's closing line) and the
/// components of formatted PCL (`component "NAME" "SOURCE" {`). A call it
/// misses is only a module the caller does not find affected or ordered
/// first; the analysis itself reads the real calls.
pub fn prescan<'a>(texts: impl IntoIterator<Item = (FileKind, &'a std::path::Path, &'a str)>) -> Vec<Call> {
    let mut out = Vec::new();
    for (kind, path, text) in texts {
        match kind {
            FileKind::Terraform => terraform_calls(text, &mut out),
            FileKind::Pcl => pcl_components(text, &mut out),
            // A test file calls the module under test (and its runs' modules,
            // which are found when it is analysed).
            FileKind::TfTest if !out.iter().any(|c| c.name == crate::calls::TESTED) => out.push(Call {
                name: crate::calls::TESTED.to_string(),
                source: Some(crate::module::tested_source_of(path)),
                family: Family::Terraform,
            }),
            FileKind::Hcl if crate::calls_modules(path) => hcl_calls(path, text, &mut out),
            _ => {}
        }
    }
    out
}

/// The calls of a stack's component file (`component "NAME" {` and its
/// `source = "…"`) and of a Terragrunt unit (`terraform {` and its
/// `source = "…"`, Terragrunt's `//` read as `/`; without one, its own
/// directory), as the analysis names them (stacks.md, terragrunt.md).
fn hcl_calls(path: &std::path::Path, text: &str, out: &mut Vec<Call>) {
    let terragrunt = crate::is_terragrunt_unit(path);
    let mut name: Option<String> = None;
    let mut sourced = false;
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("component \"").filter(|_| !terragrunt) {
            name = rest.split('"').next().map(crate::calls::component_call);
        } else if terragrunt && line.trim_end().strip_prefix("terraform").is_some_and(|r| r.trim() == "{") {
            name = Some(crate::calls::TERRAGRUNT.to_string());
        } else if line.starts_with('}') {
            name = None;
        } else if let (Some(n), Some(v)) = (&name, line.trim_start().strip_prefix("source")) {
            if let Some(src) = v.trim_start().strip_prefix('=').map(str::trim).and_then(|v| v.strip_prefix('"')) {
                let source = src.split('"').next().map(|s| s.replace("//", "/"));
                out.push(Call { name: n.clone(), source, family: Family::Terraform });
                sourced |= terragrunt;
                name = None;
            }
        }
    }
    if terragrunt && !sourced {
        out.push(Call {
            name: crate::calls::TERRAGRUNT_DIR.to_string(),
            source: Some("./".to_string()),
            family: Family::Terraform,
        });
    }
}

/// Whether a call of [`prescan`] is made by a plain HCL unit (a stack's
/// component, a Terragrunt unit), not by a unit of the callee's family.
pub fn from_hcl(call: &Call) -> bool {
    call.name.starts_with("#component:") || call.name.starts_with(crate::calls::TERRAGRUNT)
}

fn terraform_calls(text: &str, out: &mut Vec<Call>) {
    let mut name: Option<&str> = None;
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("module \"") {
            name = rest.split('"').next();
        } else if line.starts_with('}') {
            name = None;
        } else if let (Some(n), Some(v)) = (name, line.trim_start().strip_prefix("source")) {
            if let Some(src) = v.trim_start().strip_prefix('=').map(str::trim).and_then(|v| v.strip_prefix('"')) {
                let source = src.split('"').next().map(str::to_string);
                out.push(Call { name: n.to_string(), source, family: Family::Terraform });
                name = None;
            }
        }
    }
}

/// The module calls of formatted Terraform with the arguments each sets
/// (`module "NAME" {`, then `NAME =` lines at the block's first level),
/// read from the text alone as [`prescan`] reads calls: which variables
/// a caller passes, so the callee knows which defaults are used
/// (`analysis::Context::passed`). A name missed keeps a warning about a
/// default; one read wrongly drops one.
pub fn call_arguments(text: &str) -> Vec<(Call, Vec<String>)> {
    let mut out: Vec<(Call, Vec<String>)> = Vec::new();
    let mut depth = 0i32;
    for line in text.lines() {
        if depth == 0 {
            if let Some(rest) = line.strip_prefix("module \"") {
                let name = rest.split('"').next().unwrap_or("").to_string();
                out.push((Call { name, source: None, family: Family::Terraform }, Vec::new()));
                depth = nesting(line);
            }
            continue;
        }
        let Some((call, args)) = out.last_mut() else { break };
        if depth == 1 {
            let t = line.trim_start();
            let key_end = t.find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '-')).unwrap_or(t.len());
            let rest = t[key_end..].trim_start();
            if key_end > 0 && rest.starts_with('=') && !rest.starts_with("==") {
                let key = &t[..key_end];
                if key == "source" {
                    let v = rest[1..].trim().strip_prefix('"');
                    call.source = v.and_then(|v| v.split('"').next()).map(str::to_string);
                } else {
                    args.push(key.to_string());
                }
            }
        }
        depth += nesting(line);
        depth = depth.max(0);
    }
    out
}

/// What a caller reads of one module call's outputs: the names it reads
/// (`module.NAME.OUT`, `module.NAME[0].OUT`, `module.NAME[*].OUT`), or
/// `None` when it reads the module whole (`module.NAME` passed on, to a
/// function, an output, a `for`, `depends_on`): then every output is read.
pub type OutputReads = Option<std::collections::BTreeSet<String>>;

/// Adds what `text` (a caller's Terraform file, native or JSON: a JSON
/// file's expressions are its strings) reads of its module calls' outputs
/// to `reads`, by call name, read from the text alone. Conservative: a
/// `module.NAME` anywhere (a comment, a string) is a read, and one not
/// followed by an output's name reads them all. A read missed would be a
/// hint on an output that is read; one seen wrongly only keeps a hint away.
pub fn output_reads(text: &str, reads: &mut std::collections::HashMap<String, OutputReads>) {
    let ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_' || b == b'-';
    let bytes = text.as_bytes();
    let word = |at: usize| bytes[at..].iter().take_while(|&&b| ident(b)).count();
    // The first `]` at or after where it was last searched from, kept so
    // that every `[` does not search the rest of the file again (a file of
    // `module.a[` without `]` would be quadratic): (searched from, found).
    let mut close: Option<(usize, Option<usize>)> = None;
    let mut close_after = |i: usize| match close {
        Some((from, found)) if from <= i && found.is_none_or(|c| c >= i) => found,
        _ => {
            let found = text[i..].find(']').map(|e| i + e);
            close = Some((i, found));
            found
        }
    };
    for (at, _) in text.match_indices("module.") {
        if at > 0 && (ident(bytes[at - 1])) {
            continue;
        }
        let start = at + "module.".len();
        let name_len = word(start);
        if name_len == 0 {
            continue;
        }
        let name = &text[start..start + name_len];
        let mut i = start + name_len;
        // Instance keys and splats: `[0]`, `["k"]`, `[*]`, `.*`.
        loop {
            match bytes.get(i) {
                Some(b'[') => match close_after(i) {
                    Some(end) => i = end + 1,
                    None => break,
                },
                Some(b'.') if bytes.get(i + 1) == Some(&b'*') => i += 2,
                _ => break,
            }
        }
        let out = match bytes.get(i) {
            Some(b'.') if word(i + 1) > 0 => Some(&text[i + 1..i + 1 + word(i + 1)]),
            _ => None,
        };
        let entry = reads.entry(name.to_string()).or_insert_with(|| Some(Default::default()));
        match (entry.as_mut(), out) {
            (Some(set), Some(out)) => {
                set.insert(out.to_string());
            }
            (Some(_), None) => *entry = None,
            (None, _) => {}
        }
    }
}

/// How much a line opens brackets (`{`, `[`, `(`) minus what it closes,
/// outside quoted strings and comments.
fn nesting(line: &str) -> i32 {
    let (mut n, mut quoted, mut escaped) = (0, false, false);
    let bytes = line.as_bytes();
    for (i, &b) in bytes.iter().enumerate() {
        match (quoted, b) {
            (true, _) if escaped => escaped = false,
            (true, b'\\') => escaped = true,
            (true, b'"') => quoted = false,
            (true, _) => {}
            (false, b'"') => quoted = true,
            (false, b'#') => break,
            (false, b'/') if matches!(bytes.get(i + 1), Some(b'/')) => break,
            (false, b'{' | b'[' | b'(') => n += 1,
            (false, b'}' | b']' | b')') => n -= 1,
            _ => {}
        }
    }
    n
}

fn pcl_components(text: &str, out: &mut Vec<Call>) {
    for line in text.lines() {
        let Some(rest) = line.strip_prefix("component \"") else { continue };
        // NAME" "SOURCE" {
        let mut parts = rest.split('"');
        if let (Some(name), Some(gap), Some(source)) = (parts.next(), parts.next(), parts.next()) {
            if gap.trim().is_empty() {
                out.push(Call { name: name.to_string(), source: Some(source.to_string()), family: Family::Pcl });
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A stack's components and a Terragrunt unit's module, as the
    /// analysis names their calls.
    #[test]
    fn hcl_calls_are_read_from_formatted_text() {
        let stack = "component \"pet\" {\n  source = \"./pet\"\n}\n";
        let unit = "terraform {\n  source = \"../modules//app\"\n}\n";
        let own = "inputs = {\n  a = 1\n}\n";
        let texts = [
            (FileKind::Hcl, std::path::Path::new("s/main.tfcomponent.hcl"), stack),
            (FileKind::Hcl, std::path::Path::new("u/terragrunt.hcl"), unit),
            (FileKind::Hcl, std::path::Path::new("o/terragrunt.hcl"), own),
            (FileKind::Hcl, std::path::Path::new("x/other.hcl"), stack),
        ];
        let got: Vec<(String, Option<String>, bool)> =
            prescan(texts).iter().map(|c| (c.name.clone(), c.source.clone(), from_hcl(c))).collect();
        let want = [("#component:pet", "./pet"), ("#terragrunt", "../modules/app"), ("#terragrunt-dir", "./")];
        let want: Vec<(String, Option<String>, bool)> =
            want.iter().map(|(n, s)| (n.to_string(), Some(s.to_string()), true)).collect();
        assert_eq!(got, want);
    }

    /// Issue 43.3: the arguments each call sets, at the block's first
    /// level only (not an object's attributes, nor a nested block's).
    #[test]
    fn call_arguments_are_read_from_formatted_text() {
        let text = "module \"kv\" {\n  source  = \"../kv\"\n  objects = {\n    primary = { sku = \"s\" } # {\n  }\n\
                    \"quoted\" = 1\n  vaults = \"}{\"\n  rules = [\n    { port = 443 },\n  ]\n  tags = var.tags\n}\n\
                    locals {\n  x = 1\n}\nmodule \"one\" { source = \"./one\" }\nmodule \"b\" {\n  n == 1\n}\n";
        let got: Vec<(String, Option<String>, Vec<String>)> =
            call_arguments(text).into_iter().map(|(c, a)| (c.name, c.source, a)).collect();
        let args = |a: &[&str]| a.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(
            got,
            vec![
                ("kv".to_string(), Some("../kv".to_string()), args(&["objects", "vaults", "rules", "tags"])),
                ("one".to_string(), None, args(&[])),
                ("b".to_string(), None, args(&[])),
            ]
        );
    }

    /// Issue 44.3: the outputs a caller reads of each call, `None` when
    /// it reads the module whole.
    #[test]
    fn output_reads_are_read_from_text() {
        let text = "locals {\n  a = module.net.vpc_id\n  b = module.net[0].subnets\n  c = module.net[*].cidr\n\
                    d = \"${module.app.url}\"\n  e = module.app[\"k\"].arn\n  f = values(module.all)\n\
                    g = module.legacy.*.id\n  h = var.submodule.x\n}\noutput \"x\" { value = module.whole }\n\
                    output \"y\" { value = module.whole.id }\n";
        let mut reads = std::collections::HashMap::new();
        output_reads(text, &mut reads);
        let set = |names: &[&str]| Some(names.iter().map(|s| s.to_string()).collect());
        let mut got: Vec<(String, OutputReads)> = reads.into_iter().collect();
        got.sort();
        let want: Vec<(String, OutputReads)> = vec![
            ("all".into(), None),
            ("app".into(), set(&["arn", "url"])),
            ("legacy".into(), set(&["id"])),
            ("net".into(), set(&["cidr", "subnets", "vpc_id"])),
            ("whole".into(), None),
        ];
        assert_eq!(got, want);
    }

    /// The `]` search is kept between reads: keys after keys, a `]` far
    /// ahead, and a last `[` never closed (its module read whole) read as
    /// each one alone; a file of unclosed `module.a[` is one pass.
    #[test]
    fn output_reads_keep_their_bracket_search() {
        let text = "module.a[0].x module.b[\"k\"][1].y module.c[ 2 ].z module.d[";
        let mut reads = std::collections::HashMap::new();
        output_reads(text, &mut reads);
        let one = |s: &str| Some([s.to_string()].into_iter().collect());
        assert_eq!(reads["a"], one("x"));
        assert_eq!(reads["b"], one("y"));
        assert_eq!(reads["c"], one("z"));
        assert_eq!(reads["d"], None);
        let hostile = "module.a[".repeat(200_000);
        let mut reads = std::collections::HashMap::new();
        output_reads(&hostile, &mut reads);
        assert_eq!(reads["a"], None);
    }

    #[test]
    fn calls_are_read_from_formatted_text() {
        let text = "module \"a\" {\n  source = \"./a\"\n}\nmodule \"b\" {\n  count = 1\n  source  = \"../b\" # x\n}\n\
                    module \"c\" {\n}\n  source = \"./not-a-call\"\n";
        let pcl = "component \"net\" \"./net\" {\n}\ncomponent \"broken\" {\n}\n  component \"nested\" \"./x\" {\n";
        let p = std::path::Path::new("m/x.tf");
        let calls = prescan([(FileKind::Terraform, p, text), (FileKind::Pcl, p, pcl), (FileKind::Hcl, p, text)]);
        let got: Vec<(&str, Option<&str>, Family)> =
            calls.iter().map(|c| (c.name.as_str(), c.source.as_deref(), c.family)).collect();
        assert_eq!(
            got,
            [
                ("a", Some("./a"), Family::Terraform),
                ("b", Some("../b"), Family::Terraform),
                ("net", Some("./net"), Family::Pcl)
            ]
        );
    }

    /// A test file calls the module under test (docs/spec/tests.md §1): so
    /// `check` analyses that module first and hands it to the tests,
    /// instead of analysing it again as their callee.
    #[test]
    fn test_files_call_the_module_under_test() {
        let calls = |path: &str| {
            let files = [
                (FileKind::TfTest, std::path::Path::new(path), ""),
                (FileKind::TfTest, std::path::Path::new(path), ""),
            ];
            prescan(files).into_iter().map(|c| (c.name, c.source, c.family)).collect::<Vec<_>>()
        };
        let tested =
            |source: &str| vec![(crate::calls::TESTED.to_string(), Some(source.to_string()), Family::Terraform)];
        assert_eq!(calls("m/a.tftest.hcl"), tested("./"), "once for all the unit's files");
        assert_eq!(calls("m/tests/a.tftest.hcl"), tested("../"));
        assert_eq!(calls("m/tests/unit/a.tftest.hcl"), tested("../../"));
    }
}
