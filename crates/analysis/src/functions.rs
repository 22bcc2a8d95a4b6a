//! Built-in function signatures (analysis.md §4): Terraform's built-ins and the
//! Pulumi PCL functions, with return types that may depend on the argument types.
//!
//! Parameter types are only as precise as the real functions are strict: a false
//! error on working Terraform is worse than a missed one, so a parameter that
//! accepts several kinds is `any`. Eventuals are the caller's business: it strips
//! them from the arguments before [`return_type`] and lifts the result after.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::sync::LazyLock;

use syntax::Dialect;
use types::{Kind, Type};

pub use crate::dialects::pulumi_hcl::functions::renamed as pulumi_hcl_renamed;
mod returns;

use returns::*;

/// One parameter of a function signature.
pub struct Param {
    pub name: &'static str,
    pub ty: Type,
}

/// A function signature.
pub struct Function {
    pub name: &'static str,
    /// Fixed leading parameters; the first [`Function::arity`]`.0` of them are required.
    pub params: Vec<Param>,
    /// Trailing repeatable parameter, if any.
    pub variadic: Option<Param>,
    /// One short line, for hover and signature help.
    pub summary: &'static str,
    /// The declared return type: what [`return_type`] gives when the arguments
    /// say nothing more precise.
    pub returns: Type,
    /// Minimum argument count. Kept apart from `params` because some fixed
    /// parameters are optional (`lookup`'s default) and some variadics need at
    /// least one value (`try`).
    min: usize,
    infer: Option<Rule>,
}

/// An argument-dependent return type; `None` means "the declared one".
type Rule = fn(&[Type]) -> Option<Type>;

impl Function {
    /// Minimum and maximum argument counts (max `None` = unbounded).
    pub fn arity(&self) -> (usize, Option<usize>) {
        let max = if self.variadic.is_some() { None } else { Some(self.params.len()) };
        (self.min, max)
    }

    /// The parameter an argument at this index is checked against (the variadic
    /// one past the fixed ones), `None` if too many.
    pub fn param(&self, index: usize) -> Option<&Param> {
        self.params.get(index).or(self.variadic.as_ref())
    }

    /// Text like `lookup(inputMap: any, key: string, default: any) -> any`.
    pub fn label(&self) -> String {
        let mut out = format!("{}(", self.name);
        let mut first = true;
        for p in &self.params {
            if !first {
                out.push_str(", ");
            }
            first = false;
            let _ = write!(out, "{}: {}", p.name, p.ty);
        }
        if let Some(v) = &self.variadic {
            if !first {
                out.push_str(", ");
            }
            let _ = write!(out, "{}: {}...", v.name, v.ty);
        }
        let _ = write!(out, ") -> {}", self.returns);
        out
    }

    // Table builders. `arg` is required, `opt` optional (only after the
    // required ones), `rest` the variadic with at least `at_least` values.

    pub(crate) fn new(name: &'static str, returns: Type, summary: &'static str) -> Function {
        Function { name, params: Vec::new(), variadic: None, summary, returns, min: 0, infer: None }
    }

    pub(crate) fn arg(mut self, name: &'static str, ty: Type) -> Function {
        self.params.push(Param { name, ty });
        self.min = self.params.len();
        self
    }

    pub(crate) fn opt(mut self, name: &'static str, ty: Type) -> Function {
        self.params.push(Param { name, ty });
        self
    }

    pub(crate) fn rest(mut self, name: &'static str, ty: Type, at_least: usize) -> Function {
        self.variadic = Some(Param { name, ty });
        self.min = self.params.len() + at_least;
        self
    }

    fn infer(mut self, f: Rule) -> Function {
        self.infer = Some(f);
        self
    }
}

/// The function named `name` in that dialect. Plain HCL has both tables, PCL's
/// first (so `length` is PCL's, returning `int`), and Terragrunt's functions
/// (docs/spec/terragrunt.md). Pulumi HCL has Terraform's and its own asset
/// and URN functions (docs/spec/pulumi-hcl.md).
pub fn lookup(dialect: Dialect, name: &str) -> Option<&'static Function> {
    match dialect {
        Dialect::Terraform => TERRAFORM.get(name),
        Dialect::OpenTofu => OPENTOFU.get(name).or_else(|| TERRAFORM.get(name)),
        Dialect::PulumiHcl => PULUMI_HCL.get(name).or_else(|| TERRAFORM.get(name)),
        Dialect::Pcl => PCL.get(name),
        Dialect::Hcl => PCL.get(name).or_else(|| TERRAFORM.get(name)).or_else(|| TERRAGRUNT.get(name)),
    }
}

/// All function names of a dialect, sorted and unique.
pub fn names(dialect: Dialect) -> Vec<&'static str> {
    let mut out: Vec<&'static str> = match dialect {
        Dialect::Terraform => TERRAFORM.keys().copied().collect(),
        Dialect::OpenTofu => OPENTOFU.keys().chain(TERRAFORM.keys()).copied().collect(),
        Dialect::PulumiHcl => PULUMI_HCL.keys().chain(TERRAFORM.keys()).copied().collect(),
        Dialect::Pcl => PCL.keys().copied().collect(),
        Dialect::Hcl => PCL.keys().chain(TERRAFORM.keys()).chain(TERRAGRUNT.keys()).copied().collect(),
    };
    out.sort_unstable();
    out.dedup();
    out
}

/// The return type for these argument types (eventuals already stripped). Total:
/// any number of arguments of any type; anything not understood gives the
/// declared return type.
pub fn return_type(f: &Function, args: &[Type]) -> Type {
    f.infer.and_then(|infer| infer(args)).unwrap_or_else(|| f.returns.clone())
}

/// The argument types of a call whose last argument is expanded with `...`, for
/// [`return_type`]: a tuple's element types, a list's or set's element once (its
/// length is unknown, and one stands for any number), else one `any`.
pub fn expand_final(args: &[Type]) -> Vec<Type> {
    let Some((last, init)) = args.split_last() else {
        return Vec::new();
    };
    let mut out = init.to_vec();
    match non_null(last).kind() {
        Kind::Tuple(ts) => out.extend(ts.iter().cloned()),
        Kind::List(e) | Kind::Set(e) => out.push(e.clone()),
        _ => out.push(Type::any()),
    }
    out
}

fn table(fs: Vec<Function>) -> HashMap<&'static str, Function> {
    fs.into_iter().map(|f| (f.name, f)).collect()
}

static TERRAFORM: LazyLock<HashMap<&'static str, Function>> = LazyLock::new(|| table(terraform()));
static PCL: LazyLock<HashMap<&'static str, Function>> = LazyLock::new(|| table(pcl()));
static OPENTOFU: LazyLock<HashMap<&'static str, Function>> = LazyLock::new(|| table(opentofu()));
static PULUMI_HCL: LazyLock<HashMap<&'static str, Function>> =
    LazyLock::new(|| table(crate::dialects::pulumi_hcl::functions::pulumi()));
static TERRAGRUNT: LazyLock<HashMap<&'static str, Function>> =
    LazyLock::new(|| table(crate::dialects::terragrunt::functions::terragrunt()));

/// OpenTofu's functions that Terraform lacks: the `assume…` functions of
/// 1.13 (`internal/lang/funcs/assume.go` in opentofu/opentofu), each giving
/// back its value (`assumeequal`: the assumed one; `assumenotnull`: not null).
fn opentofu() -> Vec<Function> {
    let (s, n, a) = (Type::string, Type::number, Type::any);
    let f = Function::new;
    let mut out = vec![
        f("assumeequal", a(), "The assumed value, after checking that the actual value equals it.")
            .arg("actual_value", a())
            .arg("expected_value", a())
            .infer(|args| args.get(1).cloned()),
        f("assumenotnull", a(), "The value, assumed not null.")
            .arg("value", a())
            .infer(|args| args.first().map(non_null)),
        f("assumestringprefix", s(), "The string, assumed to start with a prefix.")
            .arg("value", s())
            .arg("prefix", s()),
    ];
    let kinds = [("list", Type::list as fn(Type) -> Type), ("set", Type::set), ("map", Type::map)];
    for (noun, kind) in kinds {
        let name = |suffix: &str| -> &'static str { Box::leak(format!("assume{noun}length{suffix}").into_boxed_str()) };
        out.push(
            f(name(""), kind(a()), "The collection, assumed to have a length in the bounds.")
                .arg("value", kind(a()))
                .arg("min_length", n())
                .arg("max_length", n())
                .infer(same),
        );
        out.push(
            f(name("min"), kind(a()), "The collection, assumed to have at least this length.")
                .arg("value", kind(a()))
                .arg("min_length", n())
                .infer(same),
        );
        out.push(
            f(name("max"), kind(a()), "The collection, assumed to have at most this length.")
                .arg("value", kind(a()))
                .arg("max_length", n())
                .infer(same),
        );
    }
    out
}

fn terraform() -> Vec<Function> {
    let (s, n, b, a) = (Type::string, Type::number, Type::bool, Type::any);
    let f = Function::new;
    let list_any = || Type::list(a());
    // Set functions take lists too (converted, never failing), so no warning
    // for the common list argument, but still an error for a map or a string.
    let setish = || Type::union([Type::set(a()), Type::list(a())]);
    vec![
        // Numeric.
        f("abs", n(), "The absolute value of a number.").arg("num", n()),
        f("ceil", n(), "The closest whole number greater than or equal to the value.").arg("num", n()),
        f("floor", n(), "The closest whole number less than or equal to the value.").arg("num", n()),
        f("log", n(), "The logarithm of a number in a base.").arg("num", n()).arg("base", n()),
        f("max", n(), "The greatest of the numbers.").rest("numbers", n(), 1),
        f("min", n(), "The smallest of the numbers.").rest("numbers", n(), 1),
        f("parseint", n(), "Parses a string as an integer in a base (2 to 62).").arg("number", a()).arg("base", n()),
        f("pow", n(), "Raises a number to a power.").arg("num", n()).arg("power", n()),
        f("signum", n(), "The sign of a number: -1, 0 or 1.").arg("num", n()),
        // String.
        f("chomp", s(), "Removes newline characters at the end of a string.").arg("str", s()),
        f("endswith", b(), "Whether a string ends with a suffix.").arg("str", s()).arg("suffix", s()),
        f("format", s(), "Formats values according to a printf-style spec.").arg("format", s()).rest("args", a(), 0),
        f("formatlist", Type::list(s()), "Formats each element of lists according to a spec.").arg("format", s()).rest(
            "args",
            a(),
            0,
        ),
        f("indent", s(), "Indents every line but the first of a string.").arg("spaces", n()).arg("str", s()),
        f("join", s(), "Joins the elements of lists with a separator.").arg("separator", s()).rest(
            "lists",
            Type::list(s()),
            1,
        ),
        f("lower", s(), "Converts letters to lowercase.").arg("str", s()),
        f("regex", a(), "The first match of a regular expression in a string.").arg("pattern", s()).arg("string", s()),
        f("regexall", Type::list(a()), "All matches of a regular expression in a string.")
            .arg("pattern", s())
            .arg("string", s()),
        f("replace", s(), "Replaces a substring (or regex matches) in a string.")
            .arg("str", s())
            .arg("substr", s())
            .arg("replace", s()),
        f("split", Type::list(s()), "Splits a string at a separator.").arg("separator", s()).arg("str", s()),
        f("startswith", b(), "Whether a string starts with a prefix.").arg("str", s()).arg("prefix", s()),
        f("strcontains", b(), "Whether a string contains a substring.").arg("str", s()).arg("substr", s()),
        f("strrev", s(), "Reverses the characters of a string.").arg("str", s()),
        f("substr", s(), "A substring by offset and length.").arg("str", s()).arg("offset", n()).arg("length", n()),
        f("templatestring", a(), "Renders a template held in a string with variables.")
            .arg("template", s())
            .arg("vars", a()),
        f("title", s(), "Converts the first letter of each word to uppercase.").arg("str", s()),
        f("trim", s(), "Removes the given characters from both ends of a string.").arg("str", s()).arg("cutset", s()),
        f("trimprefix", s(), "Removes a prefix from a string.").arg("str", s()).arg("prefix", s()),
        f("trimsuffix", s(), "Removes a suffix from a string.").arg("str", s()).arg("suffix", s()),
        f("trimspace", s(), "Removes whitespace from both ends of a string.").arg("str", s()),
        f("upper", s(), "Converts letters to uppercase.").arg("str", s()),
        // Collection.
        f("alltrue", b(), "Whether every element is true (true for an empty list).").arg("list", Type::list(b())),
        f("anytrue", b(), "Whether any element is true (false for an empty list).").arg("list", Type::list(b())),
        f("chunklist", Type::list(Type::list(a())), "Splits a list into lists of a fixed size.")
            .arg("list", list_any())
            .arg("size", n())
            .infer(chunklist),
        f("coalesce", a(), "The first argument that is not null or an empty string.")
            .rest("vals", a(), 1)
            .infer(coalesce),
        f("coalescelist", a(), "The first argument that is a non-empty list.").rest("vals", a(), 1).infer(coalesce),
        f("compact", Type::list(s()), "Removes null and empty string elements from a list.")
            .arg("list", Type::list(s())),
        f("concat", list_any(), "Joins lists or tuples into one sequence.").rest("seqs", a(), 1).infer(concat),
        f("contains", b(), "Whether a list, tuple or set contains a value.").arg("list", a()).arg("value", a()),
        f("distinct", list_any(), "Removes duplicate elements from a list.").arg("list", list_any()).infer(to_list),
        f("element", a(), "The element at an index, wrapping around the length.")
            .arg("list", a())
            .arg("index", n())
            .infer(element),
        f("flatten", list_any(), "Replaces nested lists with their elements.").arg("list", a()).infer(flatten),
        f("index", n(), "The index of the first element equal to a value.").arg("list", a()).arg("value", a()),
        f("keys", Type::list(s()), "The keys of a map or the attribute names of an object, sorted.")
            .arg("inputMap", a()),
        f("length", n(), "The number of elements, attributes or characters.").arg("value", a()),
        f("list", list_any(), "Removed in Terraform 0.15: use tolist or [ ... ].").rest("vals", a(), 0).infer(list_of),
        f("lookup", a(), "The value of a map element or object attribute, or a default.")
            .arg("inputMap", a())
            .arg("key", s())
            .opt("default", a())
            .infer(lookup_ret),
        f("map", Type::map(a()), "Removed in Terraform 0.15: use tomap or { ... }.").rest("pairs", a(), 0),
        f("matchkeys", list_any(), "The elements of a list whose keys at the same index are in a search set.")
            .arg("values", list_any())
            .arg("keys", list_any())
            .arg("searchset", list_any())
            .infer(to_list),
        f("merge", a(), "Merges maps or objects; later arguments win.").rest("maps", a(), 0).infer(merge),
        f("one", a(), "The single element of a collection, or null if it is empty.").arg("list", a()).infer(one),
        // range(limit) or range(start, limit[, step]): the first parameter's
        // meaning depends on the count, so its name says both.
        f("range", Type::list(n()), "A list of numbers: range(limit) or range(start, limit[, step]).")
            .arg("start_or_limit", n())
            .opt("limit", n())
            .opt("step", n()),
        f("reverse", list_any(), "The elements of a sequence in reverse order.").arg("list", list_any()).infer(reverse),
        f("setintersection", Type::set(a()), "The elements that all the sets have in common.")
            .arg("first_set", setish())
            .rest("other_sets", setish(), 0)
            .infer(set_union),
        f("setproduct", Type::list(list_any()), "All combinations of one element from each set.")
            .rest("sets", a(), 1)
            .infer(setproduct),
        f("setsubtract", Type::set(a()), "The elements of the first set that are not in the second.")
            .arg("a", setish())
            .arg("b", setish())
            .infer(set_first),
        f("setunion", Type::set(a()), "The elements that are in any of the sets.")
            .arg("first_set", setish())
            .rest("other_sets", setish(), 0)
            .infer(set_union),
        f("slice", list_any(), "The elements from a start index up to (not including) an end index.")
            .arg("list", a())
            .arg("start_index", n())
            .arg("end_index", n())
            .infer(to_list),
        f("sort", Type::list(s()), "The strings of a list in lexicographical order.").arg("list", Type::list(s())),
        f("sum", n(), "The sum of a list or set of numbers.").arg("list", Type::list(n())),
        f("transpose", Type::map(Type::list(s())), "Swaps the keys and values of a map of lists of strings.")
            .arg("values", Type::map(Type::list(s()))),
        f("values", list_any(), "The values of a map or object, in key order.").arg("mapping", a()).infer(values),
        f("zipmap", Type::map(a()), "A map from a list of keys and a list of values.")
            .arg("keys", Type::list(s()))
            .arg("values", a())
            .infer(zipmap),
        // Encoding.
        f("base64decode", s(), "Decodes a Base64 string to UTF-8 text.").arg("str", s()),
        f("base64encode", s(), "Encodes a string as Base64.").arg("str", s()),
        f("base64gzip", s(), "Gzips a string and encodes the result as Base64.").arg("str", s()),
        f("csvdecode", Type::list(Type::map(s())), "Decodes CSV text (with a header row) to a list of maps.")
            .arg("str", s()),
        f("jsondecode", a(), "Decodes a JSON string.").arg("str", s()),
        f("jsonencode", s(), "Encodes a value as JSON.").arg("value", a()),
        f("textdecodebase64", s(), "Decodes Base64 text in a character encoding.")
            .arg("source", s())
            .arg("encoding", s()),
        f("textencodebase64", s(), "Encodes a string in a character encoding, then as Base64.")
            .arg("string", s())
            .arg("encoding", s()),
        f("urlencode", s(), "URL-encodes a string.").arg("str", s()),
        f("yamldecode", a(), "Decodes a YAML string.").arg("src", s()),
        f("yamlencode", s(), "Encodes a value as YAML.").arg("value", a()),
        // Filesystem.
        f("abspath", s(), "The absolute form of a filesystem path.").arg("path", s()),
        f("basename", s(), "The last element of a filesystem path.").arg("path", s()),
        f("dirname", s(), "All but the last element of a filesystem path.").arg("path", s()),
        f("file", s(), "The contents of a file, as UTF-8 text.").arg("path", s()),
        f("filebase64", s(), "The contents of a file, Base64-encoded.").arg("path", s()),
        f("fileexists", b(), "Whether a file exists at a path.").arg("path", s()),
        f("fileset", Type::set(s()), "The file names under a path that match a pattern.")
            .arg("path", s())
            .arg("pattern", s()),
        f("pathexpand", s(), "Expands a leading ~ in a path to the home directory.").arg("path", s()),
        f("templatefile", a(), "Renders a template file with variables.").arg("path", s()).arg("vars", a()),
        // Date and time.
        f("formatdate", s(), "Formats an RFC 3339 timestamp.").arg("spec", s()).arg("timestamp", s()),
        f("plantimestamp", s(), "The time the plan started, as an RFC 3339 timestamp."),
        f("timeadd", s(), "Adds a duration to an RFC 3339 timestamp.").arg("timestamp", s()).arg("duration", s()),
        f("timecmp", n(), "Compares two timestamps: -1, 0 or 1.").arg("timestamp_a", s()).arg("timestamp_b", s()),
        f("timestamp", s(), "The current time, as an RFC 3339 timestamp."),
        // Hash and crypto.
        f("base64sha256", s(), "The SHA-256 hash of a string, Base64-encoded.").arg("str", s()),
        f("base64sha512", s(), "The SHA-512 hash of a string, Base64-encoded.").arg("str", s()),
        f("bcrypt", s(), "The Blowfish hash of a string, with an optional cost.").arg("str", s()).opt("cost", n()),
        f("filebase64sha256", s(), "The SHA-256 hash of a file, Base64-encoded.").arg("path", s()),
        f("filebase64sha512", s(), "The SHA-512 hash of a file, Base64-encoded.").arg("path", s()),
        f("filemd5", s(), "The MD5 hash of a file, in hex.").arg("path", s()),
        f("filesha1", s(), "The SHA-1 hash of a file, in hex.").arg("path", s()),
        f("filesha256", s(), "The SHA-256 hash of a file, in hex.").arg("path", s()),
        f("filesha512", s(), "The SHA-512 hash of a file, in hex.").arg("path", s()),
        f("md5", s(), "The MD5 hash of a string, in hex.").arg("str", s()),
        f("rsadecrypt", s(), "Decrypts RSA-encrypted, Base64-encoded ciphertext with a PEM private key.")
            .arg("ciphertext", s())
            .arg("privatekey", s()),
        f("sha1", s(), "The SHA-1 hash of a string, in hex.").arg("str", s()),
        f("sha256", s(), "The SHA-256 hash of a string, in hex.").arg("str", s()),
        f("sha512", s(), "The SHA-512 hash of a string, in hex.").arg("str", s()),
        f("uuid", s(), "A random UUID (a new one on every run)."),
        f("uuidv5", s(), "A name-based (SHA-1) UUID.").arg("namespace", s()).arg("name", s()),
        // IP network.
        f("cidrhost", s(), "The IP address of a host number within a CIDR prefix.")
            .arg("prefix", s())
            .arg("hostnum", n()),
        f("cidrnetmask", s(), "The netmask of an IPv4 CIDR prefix, in dotted-decimal.").arg("prefix", s()),
        f("cidrsubnet", s(), "A subnet of a CIDR prefix.").arg("prefix", s()).arg("newbits", n()).arg("netnum", n()),
        f("cidrsubnets", Type::list(s()), "Consecutive subnets of a CIDR prefix, one per size.")
            .arg("prefix", s())
            .rest("newbits", n(), 0),
        // Type conversion.
        f("can", b(), "Whether an expression evaluates without error.").arg("expression", a()),
        f("ephemeralasnull", a(), "The value, with ephemeral values replaced by null.").arg("value", a()).infer(same),
        f("issensitive", b(), "Whether a value is marked sensitive.").arg("value", a()),
        f("nonsensitive", a(), "The value, without its sensitive marking.").arg("value", a()).infer(same),
        f("sensitive", a(), "The value, marked sensitive.").arg("value", a()).infer(same),
        f("convert", a(), "Converts a value to the type written as the second argument (Terraform 1.15).")
            .arg("value", a())
            .arg("type", a()),
        f("tobool", b(), "Converts a value to a bool.").arg("v", a()),
        f("tolist", list_any(), "Converts a value to a list.").arg("v", a()).infer(to_list),
        f("tomap", Type::map(a()), "Converts a value to a map.").arg("v", a()).infer(to_map),
        f("tonumber", n(), "Converts a value to a number.").arg("v", a()),
        f("toset", Type::set(a()), "Converts a value to a set.").arg("v", a()).infer(to_set),
        f("tostring", s(), "Converts a value to a string.").arg("v", a()),
        f("try", a(), "The first argument that evaluates without error.").rest("expressions", a(), 1).infer(fold),
        f("type", a(), "The type of a value (terraform console only).").arg("value", a()),
        // OpenTofu additions, so `.tf` files written for it check too.
        f("base64gunzip", s(), "Decodes Base64 and gunzips the result (OpenTofu).").arg("str", s()),
        f("cidrcontains", b(), "Whether a CIDR prefix contains an address or prefix (OpenTofu).")
            .arg("containing_prefix", s())
            .arg("contained_ip_or_prefix", s()),
        f("urldecode", s(), "Decodes a URL-encoded string (OpenTofu).").arg("str", s()),
        // Packer, whose `.pkr.hcl` files use the Terraform dialect.
        f("aws_secretsmanager", s(), "A key of a secret in AWS Secrets Manager (Packer).")
            .arg("name", s())
            .arg("key", s()),
        f("aws_secretsmanager_raw", s(), "A secret in AWS Secrets Manager, unparsed (Packer).").arg("name", s()),
        f("consul_key", s(), "The value of a key in Consul (Packer).").arg("key", s()),
        f("env", s(), "The value of an environment variable (Packer).").arg("name", s()),
        f("legacy_isotime", s(), "The current time formatted with a Go layout (Packer).").arg("format", s()),
        f("legacy_strftime", s(), "The current time formatted with strftime (Packer).").arg("format", s()),
        f("regex_replace", s(), "Replaces the matches of a regular expression in a string (Packer).")
            .arg("string", s())
            .arg("pattern", s())
            .arg("replacement", s()),
        f("uuidv4", s(), "A random UUID (Packer)."),
        f("vault", s(), "A key of a secret in Vault (Packer).").arg("path", s()).arg("key", s()),
    ]
}

fn pcl() -> Vec<Function> {
    let (s, i, n, a) = (Type::string, Type::int, Type::number, Type::any);
    let f = Function::new;
    vec![
        f("assetArchive", a(), "An archive of named assets and archives.").arg("assets", Type::map(a())),
        f("call", Type::output(a()), "Calls a method of a resource.")
            .arg("self", a())
            .arg("method", s())
            .arg("args", a()),
        f("can", Type::bool(), "Whether an expression evaluates without error.").arg("arg", a()),
        f("cwd", s(), "The directory Pulumi was run from."),
        f("element", a(), "The element at an index of a list or tuple.")
            .arg("list", a())
            .arg("index", i())
            .infer(element),
        f("entries", Type::list(entry(a(), a())), "The key/value pairs of a collection, as objects.")
            .arg("collection", a())
            .infer(entries),
        f("fileArchive", a(), "An archive read from a file or directory.").arg("path", s()),
        f("fileAsset", a(), "An asset read from a file.").arg("path", s()),
        f("filebase64", s(), "The contents of a file, Base64-encoded.").arg("path", s()),
        f("filebase64sha256", s(), "The SHA-256 hash of a file, Base64-encoded.").arg("path", s()),
        f("fromBase64", s(), "Decodes a Base64 string.").arg("value", s()),
        f("getOutput", Type::output(a()), "An output of a stack reference.")
            .arg("stackReference", a())
            .arg("outputName", s()),
        // Positional (multi-argument) invokes take one argument per input, then options.
        f("invoke", Type::promise(a()), "Calls a provider function.").arg("token", s()).rest("args", a(), 0),
        f("join", s(), "Joins a list of strings with a separator.")
            .arg("separator", s())
            .arg("strings", Type::list(s())),
        f("length", i(), "The number of elements, attributes or characters.").arg("value", a()),
        f("lookup", a(), "The value of a map element or object attribute, or a default.")
            .arg("map", a())
            .arg("key", s())
            .opt("default", a())
            .infer(lookup_ret),
        f("max", n(), "The greatest of the numbers.").arg("first", n()).rest("rest", n(), 0).infer(pcl_min_max),
        f("mimeType", s(), "The MIME type of a file, from its name.").arg("path", s()),
        f("min", n(), "The smallest of the numbers.").arg("first", n()).rest("rest", n(), 0).infer(pcl_min_max),
        f("notImplemented", a(), "Marks an expression the converter could not translate.").arg("errorMessage", s()),
        f("organization", s(), "The name of the current organization."),
        f("project", s(), "The name of the current project."),
        f("pulumiResourceName", s(), "The name of a resource.").arg("resource", a()),
        f("pulumiResourceType", s(), "The type token of a resource.").arg("resource", a()),
        f("range", Type::list(i()), "A list of integers: range(to) or range(from, to).")
            .arg("fromOrTo", i())
            .opt("to", i()),
        f("readFile", s(), "The contents of a file.").arg("path", s()),
        f("recover", Type::output(a()), "An output's value, or the recovery value if it failed.")
            .arg("value", a())
            .arg("recovery", a())
            .infer(recover),
        f("remoteArchive", a(), "An archive fetched from a URI.").arg("uri", s()),
        f("remoteAsset", a(), "An asset fetched from a URI.").arg("uri", s()),
        f("rootDirectory", s(), "The directory of the Pulumi project."),
        f("secret", Type::output(a()), "The value, marked secret.").arg("value", a()).infer(wrap_output),
        f("sha1", s(), "The SHA-1 hash of a string, in hex.").arg("input", s()),
        f("singleOrNone", a(), "The single element of a list, or none if it is empty.").arg("value", a()).infer(one),
        f("split", Type::list(s()), "Splits a string at a separator.").arg("separator", s()).arg("string", s()),
        f("stack", s(), "The name of the current stack."),
        f("stringAsset", a(), "An asset holding a string.").arg("value", s()),
        f("toBase64", s(), "Encodes a string as Base64.").arg("value", s()),
        f("toJSON", s(), "Encodes a value as JSON.").arg("value", a()),
        f("try", a(), "The first argument that evaluates without error.").rest("args", a(), 1).infer(fold),
        f("unsecret", Type::output(a()), "The value, without its secret marking.").arg("value", a()).infer(wrap_output),
    ]
}
#[cfg(test)]
mod tests {
    use super::*;

    fn ret(dialect: Dialect, name: &str, args: &[Type]) -> String {
        return_type(lookup(dialect, name).unwrap(), args).to_string()
    }

    fn tf(name: &str, args: &[Type]) -> String {
        ret(Dialect::Terraform, name, args)
    }

    fn obj(attrs: &[(&str, Type)]) -> Type {
        Type::object(attrs.iter().map(|(k, t)| (k.to_string(), t.clone())))
    }

    #[test]
    fn lookup_per_dialect() {
        assert!(lookup(Dialect::Terraform, "upper").is_some());
        assert!(lookup(Dialect::Pcl, "upper").is_none());
        assert!(lookup(Dialect::Pcl, "toJSON").is_some());
        assert!(lookup(Dialect::Terraform, "toJSON").is_none());
        assert!(lookup(Dialect::Hcl, "upper").is_some());
        assert!(lookup(Dialect::Hcl, "toJSON").is_some());
        assert!(lookup(Dialect::Terraform, "nosuch").is_none());
        // OpenTofu 1.13's assume functions (internal/lang/funcs/assume.go).
        assert!(lookup(Dialect::Terraform, "assumenotnull").is_none());
        let f = lookup(Dialect::OpenTofu, "assumenotnull").unwrap();
        assert_eq!(return_type(f, &[Type::optional(Type::string())]).to_string(), "string");
        let f = lookup(Dialect::OpenTofu, "assumelistlengthmin").unwrap();
        assert_eq!(f.arity(), (2, Some(2)));
        assert_eq!(return_type(f, &[Type::list(Type::number())]).to_string(), "list(number)");
        assert_eq!(lookup(Dialect::OpenTofu, "upper").unwrap().name, "upper");
        assert!(names(Dialect::OpenTofu).contains(&"assumemaplength"));
        // Shared names: plain HCL takes PCL's.
        assert_eq!(lookup(Dialect::Hcl, "length").unwrap().returns.to_string(), "int");
        assert_eq!(lookup(Dialect::Terraform, "length").unwrap().returns.to_string(), "number");
        // Terragrunt's functions are plain HCL's, not Terraform's
        // (createTerragruntEvalContext in terragrunt's pkg/config/config_helpers.go).
        assert!(lookup(Dialect::Terraform, "find_in_parent_folders").is_none());
        let f = lookup(Dialect::Hcl, "find_in_parent_folders").unwrap();
        assert_eq!((f.arity(), f.returns.to_string()), ((0, None), "string".to_string()));
        assert_eq!(lookup(Dialect::Hcl, "get_terragrunt_dir").unwrap().arity(), (0, Some(0)));
        assert_eq!(lookup(Dialect::Hcl, "read_terragrunt_config").unwrap().arity(), (1, Some(2)));
        assert!(names(Dialect::Hcl).contains(&"get_aws_account_id"));
    }

    #[test]
    fn names_sorted_and_complete() {
        for d in [Dialect::Terraform, Dialect::Pcl, Dialect::Hcl] {
            let ns = names(d);
            assert!(ns.windows(2).all(|w| w[0] < w[1]), "{d:?} names not sorted and unique");
            for n in &ns {
                assert!(lookup(d, n).is_some(), "{n} listed but not found");
            }
        }
        let tf = names(Dialect::Terraform);
        for n in ["abs", "templatestring", "ephemeralasnull", "cidrsubnets", "plantimestamp", "strcontains"] {
            assert!(tf.contains(&n), "{n}");
        }
        assert_eq!(names(Dialect::Pcl).len(), PCL.len());
        assert!(names(Dialect::Hcl).len() < TERRAFORM.len() + PCL.len() + TERRAGRUNT.len());
    }

    #[test]
    fn arity_and_params() {
        let l = lookup(Dialect::Terraform, "lookup").unwrap();
        assert_eq!(l.arity(), (2, Some(3)));
        assert_eq!(l.param(2).unwrap().name, "default");
        assert!(l.param(3).is_none());

        let j = lookup(Dialect::Terraform, "join").unwrap();
        assert_eq!(j.arity(), (2, None));
        assert_eq!(j.variadic.as_ref().unwrap().ty.to_string(), "list(string)");
        assert_eq!(j.param(5).unwrap().name, "lists");
        assert_eq!(lookup(Dialect::Pcl, "join").unwrap().arity(), (2, Some(2)));

        assert_eq!(lookup(Dialect::Terraform, "try").unwrap().arity(), (1, None));
        assert_eq!(lookup(Dialect::Terraform, "timestamp").unwrap().arity(), (0, Some(0)));
        assert_eq!(lookup(Dialect::Terraform, "bcrypt").unwrap().arity(), (1, Some(2)));
        assert_eq!(lookup(Dialect::Pcl, "invoke").unwrap().arity(), (1, None));
        assert_eq!(lookup(Dialect::Pcl, "recover").unwrap().arity(), (2, Some(2)));
        assert_eq!(lookup(Dialect::Pcl, "range").unwrap().arity(), (1, Some(2)));
        assert_eq!(lookup(Dialect::Terraform, "range").unwrap().arity(), (1, Some(3)));
        assert!(lookup(Dialect::Pcl, "stack").unwrap().param(0).is_none());
    }

    #[test]
    fn labels() {
        assert_eq!(
            lookup(Dialect::Terraform, "lookup").unwrap().label(),
            "lookup(inputMap: any, key: string, default: any) -> any"
        );
        assert_eq!(
            lookup(Dialect::Terraform, "join").unwrap().label(),
            "join(separator: string, lists: list(string)...) -> string"
        );
        assert_eq!(lookup(Dialect::Pcl, "cwd").unwrap().label(), "cwd() -> string");
        assert_eq!(lookup(Dialect::Terraform, "merge").unwrap().label(), "merge(maps: any...) -> any");
    }

    #[test]
    fn collection_returns() {
        let (s, i, n) = (Type::string, Type::int, Type::number);
        assert_eq!(tf("concat", &[Type::list(s()), Type::tuple(vec![s()])]), "list(string)");
        assert_eq!(tf("concat", &[Type::list(i()), Type::list(n())]), "list(number)");
        assert_eq!(tf("concat", &[Type::tuple(vec![s()]), Type::tuple(vec![i()])]), "tuple([string, int])");
        assert_eq!(tf("concat", &[Type::list(s()), Type::any()]), "list(any)");
        assert_eq!(tf("merge", &[obj(&[("a", s())]), obj(&[("b", n())])]), "object({a = string, b = number})");
        assert_eq!(tf("merge", &[obj(&[("a", s())]), obj(&[("a", n())])]), "object({a = number})");
        assert_eq!(tf("merge", &[Type::map(i()), Type::map(n())]), "map(number)");
        assert_eq!(tf("merge", &[Type::map(i()), obj(&[("a", s())])]), "any");
        assert_eq!(tf("merge", &[Type::none(), obj(&[("a", s())])]), "object({a = string})");
        assert_eq!(tf("lookup", &[Type::map(i()), s()]), "int");
        assert_eq!(tf("lookup", &[Type::map(s()), s(), Type::none()]), "union(none, string)");
        assert_eq!(tf("lookup", &[obj(&[("a", s()), ("b", i())]), s()]), "union(int, string)");
        assert_eq!(tf("lookup", &[Type::any(), s()]), "any");
        assert_eq!(tf("tolist", &[Type::tuple(vec![s(), s()])]), "list(string)");
        assert_eq!(tf("tolist", &[Type::tuple(vec![])]), "list(any)");
        assert_eq!(tf("toset", &[Type::list(s())]), "set(string)");
        assert_eq!(tf("tomap", &[obj(&[("a", i()), ("b", n())])]), "map(number)");
        assert_eq!(tf("element", &[Type::list(s()), i()]), "string");
        assert_eq!(tf("one", &[Type::list(s())]), "union(none, string)");
        assert_eq!(tf("values", &[Type::map(i())]), "list(int)");
        assert_eq!(tf("values", &[obj(&[("b", s()), ("a", i())])]), "tuple([int, string])");
        assert_eq!(tf("keys", &[Type::map(i())]), "list(string)");
        assert_eq!(tf("zipmap", &[Type::list(s()), Type::list(i())]), "map(int)");
        assert_eq!(
            tf("flatten", &[Type::tuple(vec![Type::list(s()), Type::tuple(vec![Type::list(s())])])]),
            "list(string)"
        );
        assert_eq!(tf("flatten", &[Type::list(Type::any())]), "list(any)");
        assert_eq!(tf("setunion", &[Type::set(s()), Type::list(s())]), "set(string)");
        assert_eq!(tf("setproduct", &[Type::list(s()), Type::list(i())]), "list(tuple([string, int]))");
        assert_eq!(tf("chunklist", &[Type::list(s()), n()]), "list(list(string))");
        assert_eq!(tf("reverse", &[Type::tuple(vec![s(), i()])]), "tuple([int, string])");
        assert_eq!(tf("range", &[n()]), "list(number)");
        assert_eq!(tf("csvdecode", &[s()]), "list(map(string))");
    }

    #[test]
    fn conversion_and_fallback_returns() {
        let (s, i) = (Type::string, Type::int);
        assert_eq!(tf("try", &[i(), s()]), "string");
        assert_eq!(tf("coalesce", &[Type::optional(s()), Type::none(), s()]), "string");
        assert_eq!(tf("tostring", &[i()]), "string");
        assert_eq!(tf("sensitive", &[Type::list(s())]), "list(string)");
        assert_eq!(tf("can", &[Type::any()]), "bool");
        // Totality: missing, extra and odd arguments fall back to the declared type.
        for name in names(Dialect::Hcl) {
            let f = lookup(Dialect::Hcl, name).unwrap();
            let odd = [Type::any(), Type::none(), Type::output(s()), Type::union([s(), i()])];
            for args in [&[][..], &odd[..1], &odd[..2], &odd[..]] {
                let _ = return_type(f, args);
            }
        }
        assert_eq!(tf("concat", &[]), "list(any)");
        assert_eq!(tf("element", &[]), "any");
    }

    #[test]
    fn expanded_arguments() {
        let (s, i) = (Type::string, Type::int);
        let sets = Type::list(Type::set(s()));
        assert_eq!(tf("setunion", &expand_final(&[sets])), "set(string)");
        let objs = Type::tuple(vec![obj(&[("a", s())]), obj(&[("b", i())])]);
        assert_eq!(tf("merge", &expand_final(&[objs])), "object({a = string, b = int})");
        assert_eq!(tf("concat", &expand_final(&[Type::any()])), "list(any)");
        assert!(expand_final(&[]).is_empty());
    }

    #[test]
    fn pcl_returns() {
        let (s, i) = (Type::string, Type::int);
        let pcl = |name: &str, args: &[Type]| ret(Dialect::Pcl, name, args);
        assert_eq!(pcl("secret", &[s()]), "output(string)");
        assert_eq!(pcl("unsecret", &[s()]), "output(string)");
        assert_eq!(pcl("entries", &[Type::map(i())]), "list(object({key = string, value = int}))");
        assert_eq!(pcl("entries", &[Type::list(s())]), "list(object({key = int, value = string}))");
        assert_eq!(pcl("invoke", &[s(), Type::any()]), "promise(any)");
        assert_eq!(pcl("getOutput", &[Type::any(), s()]), "output(any)");
        assert_eq!(pcl("length", &[s()]), "int");
        assert_eq!(pcl("range", &[i()]), "list(int)");
        assert_eq!(pcl("max", &[i(), i()]), "int");
        assert_eq!(pcl("max", &[i(), Type::number()]), "number");
        assert_eq!(pcl("max", &[Type::tuple(vec![i(), i()])]), "int");
        assert_eq!(pcl("singleOrNone", &[Type::list(s())]), "union(none, string)");
        assert_eq!(pcl("recover", &[s(), s()]), "output(string)");
        assert_eq!(pcl("stack", &[]), "string");
        assert_eq!(pcl("fileAsset", &[s()]), "any");
    }
}
