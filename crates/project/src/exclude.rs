//! `--exclude` and the configuration's `exclude`: glob patterns of files and
//! directories `check` leaves out, read as `.gitignore` reads its lines: a
//! pattern with a `/` is a path from its base directory (`examples/**`,
//! `modules/legacy`), one without is a name matched at any depth
//! (`*.auto.tfvars`, `testdata`). `*` stays within one path component, `**`
//! crosses them. An excluded directory is not walked.

use std::path::{Component, Path, PathBuf};

use globset::{GlobBuilder, GlobSet, GlobSetBuilder};

/// The most patterns one run or configuration file may give: real ones
/// give tens. Each is compiled to a regex and every path walked is matched
/// against all of them; 100,000 (a 3 MB configuration file) took 1.1 GB
/// and held every editor request for seconds.
pub const MAX_PATTERNS: usize = 1000;

/// The longest pattern, in bytes (a glob's `{a,b,…}` alternatives make
/// its regex as long).
pub const MAX_PATTERN_LEN: usize = 1024;

/// Compiled patterns; empty excludes nothing.
#[derive(Debug, Clone, Default)]
pub struct Exclude {
    /// Patterns with a `/`, made absolute against their base.
    paths: GlobSet,
    /// Patterns without one, matched against a file or directory name.
    names: GlobSet,
    /// Whether there is any pattern (an empty set is not checked at all).
    any: bool,
    /// The current directory when compiled (a walk asks once a file).
    cwd: PathBuf,
}

impl Exclude {
    /// Compiles `(base, pattern)` pairs: the command line's patterns are
    /// based at the current directory, the configuration's at its own.
    pub fn new(patterns: &[(PathBuf, String)]) -> Result<Exclude, String> {
        within_limits(patterns.iter().map(|(_, p)| p.as_str()))?;
        let mut paths = GlobSetBuilder::new();
        let mut names = GlobSetBuilder::new();
        for (base, pattern) in patterns {
            let trimmed = pattern.trim_end_matches('/');
            let glob = |p: &str| {
                GlobBuilder::new(p)
                    .literal_separator(true)
                    .build()
                    .map_err(|e| format!("exclude pattern `{pattern}`: {}", e.kind()))
            };
            if trimmed.contains('/') {
                let rel = trimmed.trim_start_matches("./");
                if Path::new(rel).is_absolute() {
                    paths.add(glob(rel)?);
                } else {
                    // `[`, `{` or `*` in the base directory's own name are literal.
                    let base = normalize(&absolute(base)).display().to_string();
                    paths.add(glob(&format!("{}/{rel}", globset::escape(base.trim_end_matches('/'))))?);
                }
            } else if !trimmed.is_empty() {
                names.add(glob(trimmed)?);
            }
        }
        let build = |b: GlobSetBuilder| b.build().map_err(|e| e.to_string());
        let cwd = std::env::current_dir().map(|d| normalize(&d)).unwrap_or_default();
        Ok(Exclude { paths: build(paths)?, names: build(names)?, any: !patterns.is_empty(), cwd })
    }

    /// Whether `path` (as walked or named, relative to the current
    /// directory or absolute) is excluded: itself or a directory it is in
    /// (a named file inside an excluded directory is excluded too). Name
    /// patterns look at the components below the current directory only, so
    /// where the checkout lives does not matter.
    pub fn matches(&self, path: &Path) -> bool {
        if !self.any {
            return false;
        }
        let full = normalize(&self.cwd.join(path));
        let below = full.strip_prefix(&self.cwd).unwrap_or(path);
        let named = below.components().any(|c| match c {
            Component::Normal(name) => self.names.is_match(name),
            _ => false,
        });
        named || full.ancestors().any(|a| self.paths.is_match(a))
    }
}

/// Refuses more than [`MAX_PATTERNS`] patterns or one longer than
/// [`MAX_PATTERN_LEN`], before any is compiled.
pub fn within_limits<'a>(patterns: impl ExactSizeIterator<Item = &'a str>) -> Result<(), String> {
    let n = patterns.len();
    if n > MAX_PATTERNS {
        return Err(format!("{n} exclude patterns: at most {MAX_PATTERNS} are read"));
    }
    match patterns.into_iter().find(|p| p.len() > MAX_PATTERN_LEN) {
        Some(long) => {
            let start: String = long.chars().take(40).collect();
            Err(format!("exclude pattern `{start}…`: longer than {MAX_PATTERN_LEN} bytes"))
        }
        None => Ok(()),
    }
}

fn absolute(path: &Path) -> PathBuf {
    if path.is_absolute() {
        path.to_path_buf()
    } else {
        std::env::current_dir().map(|d| d.join(path)).unwrap_or_else(|_| path.to_path_buf())
    }
}

/// `.` components dropped and `..` applied, without touching the disk (a
/// link is not followed: the pattern names the path as the user sees it).
fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(base: &str, patterns: &[&str]) -> Exclude {
        let pairs: Vec<(PathBuf, String)> = patterns.iter().map(|p| (PathBuf::from(base), p.to_string())).collect();
        Exclude::new(&pairs).unwrap()
    }

    #[test]
    fn patterns_match_as_gitignore_lines() {
        let e = at("/repo", &["examples/**", "*.auto.tfvars", "modules/legacy/", "./build/*.tf"]);
        let yes = [
            "/repo/examples/a/main.tf",
            "x/prod.auto.tfvars",
            "/repo/modules/legacy",
            "/repo/./build/main.tf",
            "/repo/y/../build/main.tf",
        ];
        let no = ["/repo/main.tf", "/repo/x/examples/main.tf", "/repo/build/sub/main.tf", "/repo/modules/legacy2"];
        // Inside an excluded directory.
        assert!(e.matches(Path::new("/repo/modules/legacy/main.tf")));
        for p in yes {
            assert!(e.matches(Path::new(p)), "{p} should be excluded");
        }
        for p in no {
            assert!(!e.matches(Path::new(p)), "{p} should not be excluded");
        }
    }

    #[test]
    fn nothing_is_excluded_without_patterns_and_bad_globs_are_errors() {
        assert!(!Exclude::default().matches(Path::new("/a/b.tf")));
        let err = Exclude::new(&[(PathBuf::from("/"), "a/[".into())]).unwrap_err();
        assert!(err.contains("a/["), "{err}");
    }

    /// Too many or too long patterns are refused before any is compiled
    /// (issue 42: 100,000 took 1.1 GB).
    #[test]
    fn too_many_or_too_long_patterns_are_errors() {
        let many: Vec<(PathBuf, String)> =
            (0..=MAX_PATTERNS).map(|i| (PathBuf::from("/"), format!("d{i}/**"))).collect();
        assert_eq!(Exclude::new(&many).unwrap_err(), "1001 exclude patterns: at most 1000 are read");
        assert!(Exclude::new(&many[..MAX_PATTERNS]).is_ok());
        let long = format!("{{{}}}", vec!["a"; 600].join(","));
        let err = Exclude::new(&[(PathBuf::from("/"), long)]).unwrap_err();
        assert!(err.ends_with("…`: longer than 1024 bytes"), "{err}");
    }

    #[test]
    fn a_base_with_glob_characters_is_literal() {
        let e = at("/r[1]", &["x/*.tf"]);
        assert!(e.matches(Path::new("/r[1]/x/a.tf")));
        assert!(!e.matches(Path::new("/r1/x/a.tf")));
    }
}
