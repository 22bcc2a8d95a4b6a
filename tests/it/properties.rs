//! Algebraic properties of the type system over random types (issue: the
//! type system). Types are generated as values and printed, so the parser
//! is exercised on text it never saw before.

use hcl_types::syntax::typeexpr::{parse_type_str, TypeContext};
use hcl_types::syntax::Dialect;
use hcl_types::types::{convert, unify, unify_safe, Safety, Type};
use proptest::prelude::*;

fn name() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => "[a-z_][a-z0-9_-]{0,6}",
        1 => Just("a b".to_string()),
        1 => Just("${x}".to_string()),
        1 => Just("é".to_string()),
        1 => Just("".to_string()),
        1 => Just("q\"uote\\".to_string()),
    ]
}

fn any_type() -> impl Strategy<Value = Type> {
    let leaf = prop_oneof![
        Just(Type::bool()),
        Just(Type::int()),
        Just(Type::number()),
        Just(Type::string()),
        Just(Type::any()),
        Just(Type::none()),
    ];
    leaf.prop_recursive(5, 48, 4, |inner| {
        prop_oneof![
            inner.clone().prop_map(Type::list),
            inner.clone().prop_map(Type::set),
            inner.clone().prop_map(Type::map),
            prop::collection::vec(inner.clone(), 0..4).prop_map(Type::tuple),
            prop::collection::vec((name(), inner.clone()), 0..4).prop_map(Type::object),
            prop::collection::vec(inner.clone(), 1..4).prop_map(Type::union),
            inner.clone().prop_map(Type::promise),
            inner.prop_map(Type::output),
        ]
    })
}

fn reparse(t: &Type) -> Type {
    let text = t.to_string();
    let parsed = parse_type_str(&text, TypeContext::new(Dialect::Hcl));
    assert!(parsed.diagnostics.is_empty(), "{text} reported {:?}", parsed.diagnostics);
    parsed.declared
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn print_then_parse_round_trips(t in any_type()) {
        prop_assert_eq!(reparse(&t), t);
    }

    #[test]
    fn normalising_twice_changes_nothing(t in any_type()) {
        let once = reparse(&t);
        let twice = reparse(&once);
        prop_assert_eq!(once.to_string(), twice.to_string());
        // Rebuilding from the parts normalises to the same type again.
        prop_assert_eq!(t.map_children(|c| c.clone()), t);
    }

    #[test]
    fn every_type_converts_safely_to_itself(t in any_type()) {
        prop_assert_eq!(convert(&t, &t), Safety::Safe);
    }

    #[test]
    fn everything_converts_safely_to_any(t in any_type()) {
        prop_assert_eq!(convert(&t, &Type::any()), Safety::Safe);
    }

    #[test]
    fn unify_safe_accepts_both_sides(a in any_type(), b in any_type()) {
        let u = unify_safe(&a, &b);
        prop_assert_ne!(convert(&a, &u), Safety::None, "{} into {}", a, u);
        prop_assert_ne!(convert(&b, &u), Safety::None, "{} into {}", b, u);
    }

    #[test]
    fn unify_is_symmetric(a in any_type(), b in any_type()) {
        // Both the type and how safe the unification is.
        prop_assert_eq!(unify(&a, &b), unify(&b, &a));
    }
}
