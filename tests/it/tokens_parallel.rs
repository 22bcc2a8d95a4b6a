//! A document's first whole-document tokens classify its items on rayon's
//! pool (`ide::TokenCache`, issue 48): the answer must be the one-thread
//! walk's (`ide::semantic_tokens`), token for token, whatever the text,
//! and the cache it leaves must serve the next answers as the walk's did.

use std::path::Path;

use hcl_types::analysis::{analyze, Document, SourceFile};
use hcl_types::ide::{self, TokenCache};
use proptest::prelude::*;

/// Bodies of items, whole or broken: a broken one moves where the
/// document's item scan finds the next items.
const BODIES: &[&str] = &[
    "  a = 1\n",
    "  type = list(object({ a = string, b = optional(number) }))\n",
    "  v = \"${var.x}-%{ if local.y }z%{ endif }\"\n",
    "  f = [for k, v in var.m : upper(v) if k != \"\"]\n",
    "  n {\n    m = each.value\n  }\n",
    "  h = <<EOF\n  ${x}\nEOF\n",
    "  x = provider::p::f(1, 2.5e3)\n",
    "  # comment\n",
    "  s = \"unclosed\n",
    "  o = {\n",
    "  }\n",
    "  /* c */ c = count.index\n",
    "  u = \"é😀\"\n",
    "}\n",
    "{\n",
];

const HEADS: &[&str] =
    &["resource \"aws_instance\" \"web", "variable \"v", "locals {\n", "output \"o", "module \"m", "data \"d\" \"x"];

const BETWEEN: &[&str] = &["", "\n", "# note\n", "// note\n", "/* a\nb */\n", "\n\n"];

fn item() -> impl Strategy<Value = String> {
    (
        prop::sample::select(HEADS),
        prop::collection::vec(prop::sample::select(BODIES), 0..5),
        prop::sample::select(BETWEEN),
        any::<bool>(),
    )
        .prop_map(|(head, body, between, closed)| {
            let open = if head.ends_with('\n') { String::new() } else { "\" {\n".to_string() };
            let close = if closed { "}\n" } else { "" };
            format!("{between}{head}{open}{}{close}", body.concat())
        })
}

/// Enough items that the first answer takes the parallel path.
fn document() -> impl Strategy<Value = String> {
    prop::collection::vec(item(), 70..140).prop_map(|v| v.concat())
}

fn first_answer_equals_the_walk(name: &str, text: &str, at: usize, insert: &str) {
    let path = Path::new("/tmp/tokens").join(name);
    let docs = vec![Document::parse(SourceFile::new(&path, text).expect("a source file"))];
    let analysis = analyze(&docs);
    let mut cache = TokenCache::default();
    let sequential = ide::semantic_tokens(&docs, &analysis, 0);
    assert_eq!(cache.tokens(&docs, &analysis, 0), sequential, "the first answer");
    assert_eq!(cache.classified(), docs[0].items.len(), "every item classified once");
    // The cache is filled as the walk fills it: the same answer again
    // classifies nothing, and an edit's answer classifies its items only.
    assert_eq!(cache.tokens(&docs, &analysis, 0), sequential, "again");
    assert_eq!(cache.classified(), 0, "again: all remembered");
    let mut edited = text.to_string();
    let mut at = at % (text.len() + 1);
    while !edited.is_char_boundary(at) {
        at -= 1;
    }
    edited.insert_str(at, insert);
    let docs = vec![docs[0].edit(SourceFile::new(&path, edited.as_str()).expect("a source file"))];
    let analysis = analyze(&docs);
    assert_eq!(cache.tokens(&docs, &analysis, 0), ide::semantic_tokens(&docs, &analysis, 0), "after an edit");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn parallel_first_tokens_equal_the_sequential_walk(
        t in document(),
        at in any::<usize>(),
        insert in prop::sample::select(&["x", "\"", "{", "}\n", "\n", "# c\n", "${", "/*"][..]),
    ) {
        first_answer_equals_the_walk("main.tf", &t, at, insert);
        first_answer_equals_the_walk("main.pp", &t, at, insert);
    }
}
