//! hclwrite's `format` (hclwrite/format.go), rule for rule: it only sets
//! the spaces before tokens. Lines are split into a lead, an assignment
//! (`=` to the end, when its brackets balance) and a trailing comment
//! cell; indentation follows the brackets opened on each line; spacing
//! follows [`space_after`]; the `=` and comment cells of consecutive lines
//! are aligned.

use std::ops::Range;

use unicode_segmentation::UnicodeSegmentation;

use crate::lex::{Tok, K};

#[derive(Default, Clone)]
struct Line {
    lead: Range<usize>,
    assign: Option<Range<usize>>,
    comment: Option<Range<usize>>,
}

/// Sets the spaces before every token (but the final EOF) of `toks`.
pub(crate) fn format(toks: &mut [Tok<'_>]) {
    let lines = lines(toks);
    indent(toks, &lines);
    spaces(toks, &lines);
    cells(toks, &lines);
}

/// Sets only the indentation (the spaces before each line's first token).
pub(crate) fn indent_only(toks: &mut [Tok<'_>]) {
    let lines = lines(toks);
    indent(toks, &lines);
}

/// The net brackets a token opens (positive) or closes (negative).
pub(crate) fn bracket_change(k: K) -> i64 {
    match k {
        K::OBrace | K::OBrack | K::OParen | K::TemplateControl | K::TemplateInterp => 1,
        K::CBrace | K::CBrack | K::CParen | K::TemplateSeqEnd => -1,
        _ => 0,
    }
}

fn lines(toks: &[Tok<'_>]) -> Vec<Line> {
    let mut lines = Vec::new();
    let mut start = 0;
    for (i, t) in toks.iter().enumerate() {
        if t.kind == K::Eof {
            break;
        }
        if t.ends_line() {
            lines.push(Line { lead: start..i + 1, ..Line::default() });
            start = i + 1;
        }
    }
    let end = toks.iter().position(|t| t.kind == K::Eof).unwrap_or(toks.len());
    lines.push(Line { lead: start..end.max(start), ..Line::default() });

    for line in &mut lines {
        let lead = line.lead.clone();
        if lead.is_empty() {
            continue;
        }
        if lead.len() > 1 && toks[lead.end - 1].kind == K::Comment {
            line.comment = Some(lead.end - 1..lead.end);
            line.lead = lead.start..lead.end - 1;
        }
        let lead = line.lead.clone();
        for i in lead.clone() {
            if i > lead.start && toks[i].kind == K::Equal {
                let net: i64 = toks[i..lead.end].iter().map(|t| bracket_change(t.kind)).sum();
                if net == 0 {
                    line.assign = Some(i..lead.end);
                    line.lead = lead.start..i;
                }
                break;
            }
        }
    }
    lines
}

fn indent(toks: &mut [Tok<'_>], lines: &[Line]) {
    let mut indents: Vec<i64> = Vec::new();
    for line in lines {
        if line.lead.is_empty() {
            continue;
        }
        let first = line.lead.start;
        if toks[first].kind == K::Newline {
            toks[first].spaces = 0;
            continue;
        }
        let mut net = 0;
        for t in &toks[line.lead.clone()] {
            net += bracket_change(t.kind);
            if t.kind == K::OHeredoc {
                break;
            }
        }
        if let Some(assign) = &line.assign {
            net += toks[assign.clone()].iter().map(|t| bracket_change(t.kind)).sum::<i64>();
        }
        if net > 0 {
            toks[first].spaces = 2 * indents.len();
            indents.push(net);
        } else {
            let mut closed = -net;
            while closed > 0 {
                let Some(top) = indents.last_mut() else { break };
                if closed > *top {
                    closed -= *top;
                    indents.pop();
                } else if closed < *top {
                    *top -= closed;
                    closed = 0;
                } else {
                    indents.pop();
                    closed = 0;
                }
            }
            toks[first].spaces = 2 * indents.len();
        }
    }
}

fn spaces(toks: &mut [Tok<'_>], lines: &[Line]) {
    for line in lines {
        cell_spaces(toks, line.lead.clone());
        if let Some(assign) = &line.assign {
            toks[assign.start].spaces = 1;
            cell_spaces(toks, assign.clone());
        }
    }
}

fn cell_spaces(toks: &mut [Tok<'_>], cell: Range<usize>) {
    for i in cell.clone() {
        if i + 1 >= cell.end {
            break;
        }
        let before = if i > cell.start { Some(toks[i - 1].kind) } else { None };
        let space = space_after(&toks[i], before, toks[i + 1].kind);
        toks[i + 1].spaces = usize::from(space);
    }
}

/// hclwrite's `spaceAfterToken`; `before` is `None` at the start of a cell.
fn space_after(subject: &Tok<'_>, before: Option<K>, after: K) -> bool {
    let s = subject.kind;
    let opener = |k: K| bracket_change(k) > 0;
    let closer = |k: K| bracket_change(k) < 0;
    if after == K::Newline || after == K::Eof {
        return false;
    }
    if s == K::Ident && after == K::OParen {
        return false;
    }
    if (s == K::Ident && after == K::DoubleColon) || (s == K::DoubleColon && after == K::Ident) {
        return false;
    }
    if s == K::Dot || after == K::Dot {
        return false;
    }
    if after == K::Comma || after == K::Ellipsis {
        return false;
    }
    if s == K::Comma {
        return true;
    }
    if matches!(s, K::QuotedLit | K::StringLit | K::OQuote | K::OHeredoc)
        || matches!(after, K::QuotedLit | K::StringLit | K::CQuote | K::CHeredoc)
    {
        return false;
    }
    if s == K::Ident && subject.text == "in" && before == Some(K::Ident) {
        return true;
    }
    if after == K::OBrack && (s == K::Ident || s == K::NumberLit || closer(s)) {
        return false;
    }
    if s == K::Bang {
        return false;
    }
    if s == K::Minus {
        return match before {
            None => false,
            Some(
                K::OParen
                | K::OBrace
                | K::OBrack
                | K::Equal
                | K::Colon
                | K::Comma
                | K::Question
                | K::Plus
                | K::Star
                | K::Slash
                | K::Percent
                | K::Minus
                | K::EqualOp
                | K::NotEqual
                | K::Gt
                | K::Gte
                | K::Lt
                | K::Lte
                | K::And
                | K::Or
                | K::Bang,
            ) => false,
            Some(_) => true,
        };
    }
    if s == K::OBrace || after == K::CBrace {
        return !(s == K::OBrace && after == K::CBrace);
    }
    if (s == K::TemplateInterp || s == K::TemplateControl) && after == K::OBrace {
        return true;
    }
    if s == K::CBrace && after == K::TemplateSeqEnd {
        return true;
    }
    if s == K::TemplateSeqEnd && (after == K::TemplateInterp || after == K::TemplateControl) {
        return false;
    }
    if opener(s) {
        return false;
    }
    if closer(after) {
        return false;
    }
    true
}

/// The columns a cell takes: spaces, and grapheme clusters of the text.
fn columns(toks: &[Tok<'_>], cell: &Range<usize>) -> usize {
    toks[cell.clone()].iter().map(|t| t.spaces + t.text.graphemes(true).count()).sum()
}

fn cells(toks: &mut [Tok<'_>], lines: &[Line]) {
    // The `=` cells of consecutive lines with one, then the comments.
    let mut i = 0;
    while i < lines.len() {
        if lines[i].assign.is_none() {
            i += 1;
            continue;
        }
        let start = i;
        while i < lines.len() && lines[i].assign.is_some() {
            i += 1;
        }
        let max = lines[start..i].iter().map(|l| columns(toks, &l.lead)).max().unwrap_or(0);
        for l in &lines[start..i] {
            let cols = columns(toks, &l.lead);
            let at = l.assign.as_ref().expect("in a chain").start;
            toks[at].spaces = max - cols + 1;
        }
    }
    let width = |toks: &[Tok<'_>], l: &Line| columns(toks, &l.lead) + l.assign.as_ref().map_or(0, |a| columns(toks, a));
    let mut i = 0;
    while i < lines.len() {
        if lines[i].comment.is_none() {
            i += 1;
            continue;
        }
        let start = i;
        while i < lines.len() && lines[i].comment.is_some() {
            i += 1;
        }
        let max = lines[start..i].iter().map(|l| width(toks, l)).max().unwrap_or(0);
        for l in &lines[start..i] {
            let cols = width(toks, l);
            let at = l.comment.as_ref().expect("in a chain").start;
            toks[at].spaces = max - cols + 1;
        }
    }
}
