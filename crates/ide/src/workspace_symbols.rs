//! Workspace symbols (`workspace/symbol`): every name a module declares,
//! across every module of the open folders, found by what the user types.
//!
//! A file's symbols come from its items' headers alone (`syntax::scan`
//! splits the file, `syntax::recover::outline` reads each header and, for
//! `locals`, its attribute names): no parse, no analysis, so a monorepo of
//! thousands of modules is indexed in the background in seconds and held
//! in a few bytes per symbol.

use std::ops::Range;

use analysis::FileKind;
use syntax::recover::{outline, Name};
use syntax::scan;

/// What a symbol is, for the editor's icon.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SymbolKind {
    Variable,
    Local,
    Output,
    Module,
    Resource,
    DataSource,
    /// PCL's `config`, Packer's `source` and `build`, a `check`, …
    Other,
}

/// One declared name: how references spell it (`var.region`,
/// `aws_s3_bucket.logs`, `data.aws_ami.ubuntu`), and where its label is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileSymbol {
    pub name: String,
    pub kind: SymbolKind,
    /// The label's byte range in the file.
    pub range: Range<usize>,
}

/// The symbols a file declares, in source order.
pub fn file_symbols(kind: FileKind, text: &str) -> Vec<FileSymbol> {
    if !matches!(kind, FileKind::Terraform | FileKind::Pcl) {
        return Vec::new();
    }
    let mut out = Vec::new();
    for item in scan::split(text) {
        let Some(item_text) = text.get(item.range.clone()) else { continue };
        let o = outline(item_text);
        let Some(block) = &o.block else { continue };
        let at = |n: &Name| item.range.start + n.range.start..item.range.start + n.range.end;
        let mut push = |name: String, kind, label: &Name| out.push(FileSymbol { name, kind, range: at(label) });
        let labels = &o.labels;
        match (kind, block.text.as_str(), labels.as_slice()) {
            (_, "locals", _) => {
                for a in &o.attributes {
                    push(format!("local.{}", a.text), SymbolKind::Local, a);
                }
            }
            (FileKind::Terraform, "variable", [n, ..]) => push(format!("var.{}", n.text), SymbolKind::Variable, n),
            (FileKind::Terraform, "output", [n, ..]) => push(format!("output.{}", n.text), SymbolKind::Output, n),
            (FileKind::Terraform, "module", [n, ..]) => push(format!("module.{}", n.text), SymbolKind::Module, n),
            (FileKind::Terraform, "resource" | "ephemeral", [t, n, ..]) => {
                push(format!("{}.{}", t.text, n.text), SymbolKind::Resource, n)
            }
            (FileKind::Terraform, "data", [t, n, ..]) => {
                push(format!("data.{}.{}", t.text, n.text), SymbolKind::DataSource, n)
            }
            (FileKind::Terraform, "source", [t, n, ..]) => {
                push(format!("source.{}.{}", t.text, n.text), SymbolKind::Other, n)
            }
            (FileKind::Terraform, "check" | "build", [n, ..]) => {
                push(format!("{}.{}", block.text, n.text), SymbolKind::Other, n)
            }
            (FileKind::Pcl, "config", [n, ..]) => push(n.text.clone(), SymbolKind::Variable, n),
            (FileKind::Pcl, "resource", [n, ..]) => push(n.text.clone(), SymbolKind::Resource, n),
            (FileKind::Pcl, "output", [n, ..]) => push(n.text.clone(), SymbolKind::Output, n),
            (FileKind::Pcl, "component", [n, ..]) => push(n.text.clone(), SymbolKind::Module, n),
            _ => {}
        }
    }
    out
}

/// How well a symbol's name matches a query, best first; `None`: not at
/// all. ASCII case is ignored (without allocating: a query looks at every
/// symbol of the workspace). The name itself or its last part, then a name
/// that starts with the query, then one whose last part does (`bucket`
/// finds `var.bucket_name` before `var.logs_bucket`), then the query
/// anywhere, then its characters in order (`vreg` finds `var.region`).
pub fn rank(name: &str, query: &str) -> Option<u8> {
    let (n, q) = (name.as_bytes(), query.as_bytes());
    if q.is_empty() {
        return Some(4);
    }
    // The weakest match first, in one pass: most names of a workspace
    // fail it, and only the rest are looked at again.
    let mut wanted = q.iter().peekable();
    for c in n {
        if wanted.peek().is_some_and(|w| w.eq_ignore_ascii_case(c)) {
            wanted.next();
        }
    }
    if wanted.peek().is_some() {
        return None;
    }
    let last = &n[n.iter().rposition(|&c| c == b'.').map_or(0, |i| i + 1)..];
    let starts = |hay: &[u8]| hay.len() >= q.len() && hay[..q.len()].eq_ignore_ascii_case(q);
    if n.eq_ignore_ascii_case(q) || last.eq_ignore_ascii_case(q) {
        return Some(0);
    }
    if starts(n) {
        return Some(1);
    }
    if starts(last) {
        return Some(2);
    }
    if (0..n.len()).any(|i| starts(&n[i..])) {
        return Some(3);
    }
    Some(5)
}

/// The characters a name holds, as a set (ASCII letters without case,
/// digits; every other character shares one bit): a name can match a query
/// only if it holds all of the query's, so a workspace's names are ruled
/// out by one AND each before [`rank`] reads them.
pub fn letters(s: &str) -> u64 {
    s.bytes().fold(0, |set, c| {
        set | 1
            << match c.to_ascii_lowercase() {
                c @ b'a'..=b'z' => c - b'a',
                c @ b'0'..=b'9' => 26 + c - b'0',
                b'_' => 36,
                b'.' => 37,
                b'-' => 38,
                _ => 63,
            }
    })
}

/// The best `limit` of `symbols` for `query`: by rank, then name, then
/// `order` (each symbol given as its name, a key that orders symbols of the
/// same name, say by file and position, and where it is, `W`).
pub fn search<'a, W>(symbols: impl IntoIterator<Item = (&'a str, u64, W)>, query: &str, limit: usize) -> Vec<W> {
    if limit == 0 {
        return Vec::new();
    }
    let mut found: Vec<(u8, &'a str, u64, W)> =
        symbols.into_iter().filter_map(|(name, order, w)| Some((rank(name, query)?, name, order, w))).collect();
    let key = |a: &(u8, &'a str, u64, W)| (a.0, a.1, a.2);
    let order = |a: &(u8, &'a str, u64, W), b: &(u8, &'a str, u64, W)| key(a).cmp(&key(b));
    // (The best `limit` first, so that an empty query over half a million
    // symbols sorts only what it returns.)
    if found.len() > limit {
        found.select_nth_unstable_by(limit - 1, order);
        found.truncate(limit);
    }
    found.sort_by(order);
    found.into_iter().map(|(.., w)| w).collect()
}
