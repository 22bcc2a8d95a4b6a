//! The type-expression parser on arbitrary text, in every dialect and
//! context. Whatever it reads must print and read back as itself (plain HCL
//! has every constructor), and convert safely to itself.

#![no_main]

use hcl_types::syntax::typeexpr::{parse_type_str, TypeContext};
use hcl_types::syntax::Dialect;
use hcl_types::types::{convert, unify, Safety};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    for dialect in [Dialect::Terraform, Dialect::Pcl, Dialect::Hcl] {
        for ctx in [TypeContext::new(dialect), TypeContext::variable(dialect)] {
            let parsed = parse_type_str(text, ctx);
            for d in &parsed.diagnostics {
                let r = &d.range;
                assert!(r.start <= r.end && r.end <= text.len(), "{d:?} out of {} bytes", text.len());
                assert!(text.is_char_boundary(r.start) && text.is_char_boundary(r.end), "{d:?}");
            }
            for n in &parsed.nodes {
                for r in [&n.range, &n.name_range] {
                    assert!(r.start <= r.end && r.end <= text.len(), "{n:?} out of {} bytes", text.len());
                }
            }
            for t in [&parsed.declared, &parsed.value] {
                let printed = t.to_string();
                let again = parse_type_str(&printed, TypeContext::new(Dialect::Hcl));
                assert!(again.diagnostics.is_empty(), "{text:?} printed as {printed} reported {:?}", again.diagnostics);
                assert_eq!(&again.declared, t, "{text:?} printed as {printed}");
                assert_eq!(convert(t, t), Safety::Safe, "{printed} into itself");
                let _ = t.brief();
            }
            let _ = unify(&parsed.declared, &parsed.value);
        }
    }
});
