//! Reference counts for code lenses (opt-in, as terraform-ls's
//! `codelens.referenceCount`): how often each variable of a document is
//! read in its module (`var.NAME`), and each output in the callers the
//! server knows (`module.CALL.NAME`, for each of their calls to this
//! module). All counting is here, so the lens and any other consumer
//! agree. A module's documents also count the calls to the module
//! ([`caller_count`]).

use std::ops::Range;

use analysis::{Document, Symbol, SymbolKind};
use hcl_edit::expr::{Expression, TraversalOperator};

use crate::nodes::each_expr;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReferenceCount {
    /// The declaration's name (its label).
    pub range: Range<usize>,
    pub count: usize,
}

/// A caller of the module: its documents and the names of its calls to
/// this module (a module can be called several times).
pub struct Caller<'a> {
    pub docs: &'a [Document],
    pub calls: Vec<String>,
}

/// The reference counts of the variables and outputs `symbols` declares
/// in `docs[doc]`.
pub fn reference_counts(
    symbols: &[Symbol],
    docs: &[Document],
    doc: usize,
    callers: &[Caller<'_>],
) -> Vec<ReferenceCount> {
    let vars = count_traversals(docs, |root, first, _| (root == "var").then(|| first.to_string()));
    let mut outs = std::collections::HashMap::<String, usize>::new();
    for c in callers {
        let counts = count_traversals(c.docs, |root, call, out| {
            (root == "module" && c.calls.iter().any(|n| n == call)).then(|| out.map(str::to_string)).flatten()
        });
        for (k, v) in counts {
            *outs.entry(k).or_default() += v;
        }
    }
    let mut out: Vec<ReferenceCount> = symbols
        .iter()
        .filter(|s| s.doc == doc)
        .filter_map(|s| {
            let count = match s.kind {
                SymbolKind::Variable => vars.get(&s.name).copied().unwrap_or(0),
                SymbolKind::Output => outs.get(&s.name).copied().unwrap_or(0),
                _ => return None,
            };
            Some(ReferenceCount { range: s.name_range.clone(), count })
        })
        .collect();
    out.sort_by_key(|r| r.range.start);
    out
}

/// The callers lens of a module's document (issue 32 item 3, "callers of
/// a module"): how many module calls of the known callers call this
/// module, on the document's first item (a module has no declaration of
/// its own to put it on); `None` when no caller is known.
pub fn caller_count(docs: &[Document], doc: usize, callers: &[Caller<'_>]) -> Option<ReferenceCount> {
    let count: usize = callers.iter().map(|c| c.calls.len()).sum();
    let first = docs.get(doc)?.items.iter().next()?;
    (count > 0).then_some(ReferenceCount { range: first.range.start..first.range.start, count })
}

/// Counts, per key, the traversals `ROOT.A[.B]` of `docs` that `key`
/// names (given the root, the first and, if any, the second attribute).
fn count_traversals(
    docs: &[Document],
    key: impl Fn(&str, &str, Option<&str>) -> Option<String>,
) -> std::collections::HashMap<String, usize> {
    let mut out = std::collections::HashMap::new();
    for d in docs {
        for item in d.items.iter() {
            let Some(body) = item.body(&d.file.text) else { continue };
            each_expr(&body, &mut |e| {
                let Expression::Traversal(t) = e else { return };
                let Expression::Variable(root) = &t.expr else { return };
                let attr = |i: usize| match t.operators.get(i).map(|o| o.value()) {
                    Some(TraversalOperator::GetAttr(a)) => Some(a.as_str()),
                    _ => None,
                };
                let Some(first) = attr(0) else { return };
                if let Some(k) = key(root.as_str(), first, attr(1)) {
                    *out.entry(k).or_insert(0) += 1;
                }
            });
        }
    }
    out
}
