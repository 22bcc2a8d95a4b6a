//! Folding ranges: blocks, objects, tuples, calls, heredocs and `for`
//! expressions that span lines, and runs of comment lines. Byte ranges;
//! the server turns them into lines (and, for a client that folds only
//! whole lines, keeps a closing bracket's line visible).

use std::ops::Range;

use analysis::Document;

use crate::nodes::{nodes, NodeKind};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FoldKind {
    /// Code between brackets (or a heredoc's lines).
    Region,
    Comment,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fold {
    /// From the node's first byte to its last (a closing bracket or a
    /// heredoc's end marker), or from a comment run's first `#` to the
    /// end of its last line's text.
    pub range: Range<usize>,
    pub kind: FoldKind,
}

/// The folds of `doc`, sorted by start, each spanning more than one line.
pub fn folding_ranges(doc: &Document) -> Vec<Fold> {
    let text = doc.file.text.as_str();
    let multi_line = |r: &Range<usize>| text.get(r.clone()).is_some_and(|s| s.trim_end().contains('\n'));
    let all = nodes(doc);
    let mut out: Vec<Fold> = all
        .iter()
        .filter(|n| {
            matches!(
                n.kind,
                NodeKind::Block
                    | NodeKind::Object
                    | NodeKind::Tuple
                    | NodeKind::Call
                    | NodeKind::Heredoc
                    | NodeKind::Compound
            )
        })
        .filter(|n| multi_line(&n.range))
        .map(|n| Fold { range: n.range.clone(), kind: FoldKind::Region })
        .collect();
    // Lines of heredocs and multi-line strings are text, not comments.
    let texts: Vec<Range<usize>> = all
        .iter()
        .filter(|n| matches!(n.kind, NodeKind::Heredoc | NodeKind::Compound))
        .map(|n| n.range.clone())
        .collect();
    out.extend(
        comment_runs(text, &texts)
            .into_iter()
            .filter(|r| multi_line(r))
            .map(|range| Fold { range, kind: FoldKind::Comment }),
    );
    out.sort_by_key(|f| (f.range.start, std::cmp::Reverse(f.range.end)));
    out.dedup_by(|a, b| a.range == b.range);
    out
}

/// Runs of consecutive lines that hold only a `#` or `//` comment, and
/// `/* */` comments that start a line, outside the ranges in `skip`.
fn comment_runs(text: &str, skip: &[Range<usize>]) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let mut run: Option<Range<usize>> = None;
    let mut block: Option<usize> = None;
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        let start = at;
        at += line.len();
        let body = line.trim_end();
        let indent = body.len() - body.trim_start().len();
        let first = start + indent;
        if let Some(open) = block {
            if let Some(close) = body.find("*/") {
                out.push(open..start + close + 2);
                block = None;
            }
            continue;
        }
        let inside = skip.iter().any(|r| r.start < first && first < r.end);
        let trimmed = body.trim_start();
        if !inside && (trimmed.starts_with('#') || trimmed.starts_with("//")) {
            let end = start + body.len();
            run = Some(run.map_or(first..end, |r| r.start..end));
            continue;
        }
        out.extend(run.take());
        if !inside && trimmed.starts_with("/*") && !trimmed[2..].contains("*/") {
            block = Some(first);
        }
    }
    out.extend(run);
    out
}
