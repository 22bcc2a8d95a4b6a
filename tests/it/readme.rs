//! The README's command examples (its ```console blocks), run against the
//! built binary from the checkout's root, output compared line by line
//! (`...` stands for any lines). The README stays the source: after a change
//! that means to alter an example, `TRYCMD=overwrite cargo test --test it -- readme::`
//! writes the new output into it (review with `git diff README.md`; where it
//! spelled out the lines of a `...`, put the `...` back).

#[test]
fn readme_examples() {
    trycmd::TestCases::new().register_bin("hcl-types", trycmd::cargo::cargo_bin!("hcl-types")).case("README.md");
}
