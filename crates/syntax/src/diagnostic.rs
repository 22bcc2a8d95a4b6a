//! Diagnostics as plain data with byte ranges: what syntax and analysis
//! produce and what the CLI and the server render.

use std::fmt;
use std::ops::Range;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    Error,
    Warning,
    Hint,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Hint => "hint",
        }
    }
}

macro_rules! codes {
    ($($variant:ident = $text:literal, $sev:ident;)*) => {
        /// The stable diagnostic codes of analysis.md §5.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum Code { $($variant,)* }

        impl Code {
            pub const ALL: &'static [Code] = &[$(Code::$variant,)*];

            pub fn as_str(self) -> &'static str {
                match self { $(Code::$variant => $text,)* }
            }

            pub fn default_severity(self) -> Severity {
                match self { $(Code::$variant => Severity::$sev,)* }
            }

            pub fn parse(s: &str) -> Option<Code> {
                match s { $($text => Some(Code::$variant),)* _ => None }
            }
        }
    };
}

codes! {
    Syntax = "syntax", Error;
    TypeSyntax = "type-syntax", Error;
    TypeDialect = "type-dialect", Error;
    IntPrecision = "int-precision", Error;
    TypeMismatch = "type-mismatch", Error;
    UnsafeConversion = "unsafe-conversion", Warning;
    InvalidValue = "invalid-value", Error;
    ImplicitConversion = "implicit-conversion", Hint;
    UndefinedReference = "undefined-reference", Error;
    UnknownFunction = "unknown-function", Error;
    ArgumentCount = "argument-count", Error;
    Traversal = "traversal", Error;
    Cycle = "cycle", Error;
    MissingArgument = "missing-argument", Error;
    UnsupportedArgument = "unsupported-argument", Error;
    ModuleSource = "module-source", Hint;
    Deprecated = "deprecated", Hint;
    MissingType = "missing-type", Hint;
    FileNotRead = "file-not-read", Warning;
    OutsideTree = "outside-tree", Warning;
    Duplicate = "duplicate", Error;
    MetaArgument = "meta-argument", Error;
    OutOfScope = "out-of-scope", Error;
    InvalidName = "invalid-name", Error;
    CheckRule = "check-rule", Error;
    DeadCondition = "dead-condition", Warning;
    NullValue = "null-value", Error;
    NotHcl = "not-hcl", Hint;
    UnusedVariable = "unused-variable", Hint;
    UnusedLocal = "unused-local", Hint;
    UnusedData = "unused-data", Hint;
    UnusedProvider = "unused-provider", Hint;
    NoSchema = "no-schema", Hint;
    SensitiveOutput = "sensitive-output", Error;
    UnusedOutput = "unused-output", Hint;
    SensitiveFlow = "sensitive-flow", Hint;
}

impl Code {
    /// Whether the code is shown when no setting names it: every code is
    /// now. (The lints of unused declarations, analysis.md §5.1, were off
    /// until they proved right on the corpus: issue 44.3; a new lint may
    /// start off here, in [`OFF_BY_DEFAULT`].)
    pub fn on_by_default(self) -> bool {
        !OFF_BY_DEFAULT.contains(&self)
    }
}

/// The codes shown only when a severity names them (none now).
pub const OFF_BY_DEFAULT: [Code; 0] = [];

/// The lints of unused declarations (analysis.md §5.1).
pub const UNUSED_LINTS: [Code; 5] =
    [Code::UnusedVariable, Code::UnusedLocal, Code::UnusedData, Code::UnusedProvider, Code::UnusedOutput];

/// Whether the settings `severity` (a severity per code, `None`: off)
/// show one of [`UNUSED_LINTS`] (on unless all five are turned off): only
/// then are they computed (`analysis::Memo::set_lints`).
pub fn unused_lints_on(severity: &std::collections::BTreeMap<Code, Option<Severity>>) -> bool {
    UNUSED_LINTS.iter().any(|c| severity.get(c).map_or(c.on_by_default(), Option::is_some))
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A location elsewhere that explains a diagnostic (e.g. the declared type
/// a default is checked against). `path` is `None` for the same file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Related {
    pub path: Option<std::path::PathBuf>,
    pub range: Range<usize>,
    pub message: String,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// Byte range in the file's text.
    pub range: Range<usize>,
    pub severity: Severity,
    pub code: Code,
    pub message: String,
    pub related: Vec<Related>,
}

impl Diagnostic {
    /// A diagnostic with its code's default severity.
    pub fn new(code: Code, range: Range<usize>, message: impl Into<String>) -> Self {
        Diagnostic { range, severity: code.default_severity(), code, message: message.into(), related: Vec::new() }
    }

    pub fn with_severity(mut self, severity: Severity) -> Self {
        self.severity = severity;
        self
    }

    pub fn with_related(mut self, related: Related) -> Self {
        self.related.push(related);
        self
    }
}
