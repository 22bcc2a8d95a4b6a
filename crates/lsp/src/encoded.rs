//! A document's whole-document semantic tokens encoded again only where
//! an edit changed them. LSP encodes each token relative to the one
//! before, so the tokens before an edit and those after it (whose text is
//! the same, moved) keep their encoding: only the edited run and the first
//! token after it are encoded again, the rest copied. Where the edit lies
//! is the document's to say (`Document::unchanged_since`, from its items'
//! revisions); the tokens at both ends are compared too, so a token the
//! analysis changed outside the edit is encoded again as well.

use std::sync::Arc;

use analysis::document::Revision;
use analysis::Document;
use tower_lsp_server::ls_types::SemanticToken;

use crate::{text, to_proto, Encoding};

/// Tokens as last encoded for a document.
pub struct Encoded {
    revision: Revision,
    enc: Encoding,
    text_len: usize,
    /// The tokens encoded, in the text's offsets then.
    tokens: Vec<ide::SemanticToken>,
    pub data: Arc<Vec<SemanticToken>>,
    /// The tokens that are not one entry of `data` each (they span
    /// lines): their index and the length of `data` after them.
    split: Vec<(u32, u32)>,
    /// How many tokens were encoded (not copied) for this state.
    again: usize,
}

impl Encoded {
    /// The tokens it encoded, for a buffer.
    pub fn into_tokens(self) -> Vec<ide::SemanticToken> {
        self.tokens
    }

    /// How many tokens were encoded for this state, not copied from the
    /// last encoding.
    pub fn encoded_again(&self) -> usize {
        self.again
    }

    /// Where token `i`'s entries start in `data`.
    fn at(&self, i: usize) -> usize {
        match self.split.partition_point(|s| (s.0 as usize) < i).checked_sub(1) {
            Some(k) => self.split[k].1 as usize + (i - self.split[k].0 as usize - 1),
            None => i,
        }
    }
}

/// `tokens`, document `d`'s whole-document tokens, encoded: from `old`
/// (the last encoding of an earlier state of `d`) where the edits since
/// left them; with it, the last encoding's tokens (a buffer for the
/// next tokens).
pub fn encode(
    old: Option<Encoded>,
    d: &Document,
    tokens: Vec<ide::SemanticToken>,
    enc: Encoding,
) -> (Encoded, Option<Vec<ide::SemanticToken>>) {
    let text = d.file.text.as_str();
    let reused = old.filter(|o| o.enc == enc).and_then(|o| d.unchanged_since(o.revision).map(|u| (o, u)));
    let Some((old, (front, back))) = reused else {
        let tokens_len = tokens.len();
        let mut out = Encoded {
            revision: d.revision(),
            enc,
            text_len: text.len(),
            tokens,
            data: Arc::default(),
            split: Vec::new(),
            again: tokens_len,
        };
        let mut data = Vec::with_capacity(out.tokens.len());
        let mut walk = text::Walk::new(text, enc);
        let split = Some((&mut out.split, 0));
        to_proto::encode_tokens(text, &out.tokens, &mut walk, &mut (0, 0), &mut data, split);
        out.data = Arc::new(data);
        return (out, None);
    };
    // The text is the old one up to `same_to` and after `same_from`
    // (moved by `shift`).
    let items = &d.items;
    let same_to = front.checked_sub(1).map_or(0, |k| items[k].range.end);
    let same_from = items.len().checked_sub(back).and_then(|k| items.get(k)).map_or(text.len(), |i| i.range.start);
    let shift = text.len() as isize - old.text_len as isize;
    let head = tokens.partition_point(|t| t.range.end <= same_to);
    let head = tokens[..head].iter().zip(&old.tokens).take_while(|(a, b)| a == b).count();
    let moved = |t: &ide::SemanticToken| {
        let at = |x: usize| (x as isize + shift) as usize;
        ide::SemanticToken { range: at(t.range.start)..at(t.range.end), ..t.clone() }
    };
    let after = tokens.len() - tokens.partition_point(|t| t.range.start < same_from);
    let tail =
        tokens.iter().rev().zip(old.tokens.iter().rev()).take(after).take_while(|(a, b)| **a == moved(b)).count();
    let tail = tail.min(tokens.len() - head).min(old.tokens.len() - head);
    // Encoded again: from `head` to the first token of the tail.
    let again = head..(tokens.len() - tail + 1).min(tokens.len());
    let mut data = Vec::with_capacity(tokens.len());
    data.extend_from_slice(&old.data[..old.at(head)]);
    let mut split: Vec<(u32, u32)> = old.split.iter().copied().take_while(|s| (s.0 as usize) < head).collect();
    let (mut walk, mut prev) = match head.checked_sub(1).map(|k| &tokens[k]) {
        Some(t) => {
            let last = text::lines(text, t.range.clone()).last().map_or(t.range.start, |r| r.start);
            let mut walk = text::Walk::starting_at(text, enc, last);
            let p = walk.position(last);
            (walk, (p.line, p.character))
        }
        None => (text::Walk::new(text, enc), (0, 0)),
    };
    to_proto::encode_tokens(
        text,
        &tokens[again.clone()],
        &mut walk,
        &mut prev,
        &mut data,
        Some((&mut split, head as u32)),
    );
    let old_next = old.tokens.len() - tail + 1;
    if tail > 0 {
        let (from_old, from_new) = (old.at(old_next), data.len());
        data.extend_from_slice(&old.data[from_old..]);
        let moved_split = old.split.iter().filter(|s| s.0 as usize >= old_next).map(|&(i, end)| {
            ((i as usize + tokens.len() - old.tokens.len()) as u32, (end as usize - from_old + from_new) as u32)
        });
        split.extend(moved_split);
    }
    let again = again.len();
    let spare = Some(old.into_tokens());
    (Encoded { revision: d.revision(), enc, text_len: text.len(), tokens, data: Arc::new(data), split, again }, spare)
}

#[cfg(test)]
mod tests {
    use super::*;
    use analysis::module::Memo;
    use analysis::SourceFile;

    fn tokens(d: &Document) -> Vec<ide::SemanticToken> {
        let docs = vec![d.clone()];
        ide::semantic_tokens(&docs, &Memo::default().analysis(&docs), 0)
    }

    /// After any edits, the tokens encoded from the last encoding are
    /// those encoded whole, in both encodings (lines with non-ASCII text
    /// and tokens that span lines included).
    #[test]
    fn encoding_again_where_edits_changed_equals_encoding_whole() {
        let pieces = ["\"", "{", "}", "\n", "x", "é", "/* a\n b */", "# c\n", "${", "]", "<<EOT\n", "\nEOT\n", "𝄞"];
        let mut text = String::new();
        for i in 0..20 {
            text.push_str(&format!(
                "variable \"v{i}\" {{\n  type = list(string) /* é\n 𝄞 */\n  default = [\"é${{{i}}}\"]\n}}\n\n"
            ));
        }
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as usize
        };
        for enc in [Encoding::Utf16, Encoding::Utf8] {
            let mut doc = Document::parse(SourceFile::new("main.tf", text.as_str()).unwrap());
            let mut last: Option<Encoded> = None;
            let mut text = text.clone();
            for step in 0..200 {
                let toks = tokens(&doc);
                let whole = to_proto::semantic_tokens(&text, &toks, enc, None);
                let e = encode(last.take(), &doc, toks, enc).0;
                assert!(*e.data == whole, "step {step} ({enc:?}): encoded again differs for\n{text}");
                last = Some(e);
                let mut at = next(text.len() + 1);
                while !text.is_char_boundary(at) {
                    at -= 1;
                }
                if next(3) == 0 {
                    let mut end = (at + 1 + next(10)).min(text.len());
                    while !text.is_char_boundary(end) {
                        end += 1;
                    }
                    text.replace_range(at..end, "");
                } else {
                    text.insert_str(at, pieces[next(pieces.len())]);
                }
                doc = doc.edited(SourceFile::new("main.tf", text.as_str()).unwrap());
            }
        }
    }

    /// A keystroke in one item encodes that item's tokens and the one
    /// after them again, not the document's.
    #[test]
    fn a_keystroke_encodes_its_item_again_only() {
        let mut text = String::new();
        for i in 0..300 {
            text.push_str(&format!("resource \"a\" \"r{i}\" {{\n  name = \"n{i}\"\n  tags = {{ k = var.v }}\n}}\n"));
        }
        let doc = Document::parse(SourceFile::new("main.tf", text.as_str()).unwrap());
        let first = encode(None, &doc, tokens(&doc), Encoding::Utf16).0;
        assert_eq!(first.encoded_again(), first.tokens.len());
        text.insert(text.find("n150").unwrap(), 'x');
        let doc = doc.edit(SourceFile::new("main.tf", text.as_str()).unwrap());
        let toks = tokens(&doc);
        let whole = to_proto::semantic_tokens(&text, &toks, Encoding::Utf16, None);
        let e = encode(Some(first), &doc, toks, Encoding::Utf16).0;
        assert_eq!(*e.data, whole);
        assert!(e.encoded_again() <= 16, "{} of {} tokens encoded again", e.again, e.tokens.len());
    }
}
