//! OpenTofu 1.13's symbol libraries (docs/spec/opentofu-symbol-libraries.md):
//! `symbols "LIB" { source }` blocks, `symbols::LIB::NAME()` types,
//! `symbols::LIB::FN(…)` calls and `symbols.LIB.VALUE` references. The
//! module and library of the blog post of
//! https://github.com/opentofu/opentofu.org/pull/439 are the judge (S1–S5
//! of the spec page); the `.sym.hcl` files follow OpenTofu's documented
//! syntax (website/docs/language/symbol-libraries/index.mdx of
//! opentofu/opentofu, and its implementation in internal/configs/symlib/,
//! spec §4).

use super::check;
use expect_test::expect;

/// S4 and S5 (https://github.com/opentofu/opentofu.org/pull/439): a
/// variable typed `symbols::lib::vec3()` takes the library's object type
/// (its `optional` default too), so a default missing a required attribute
/// is an error; `symbols::lib::hello` has a `string` parameter, so passing
/// the `vec3` object is the error the post's reviewer found; the value
/// `symbols.lib.hello_world` is typed from the library.
#[test]
fn a_library_type_function_and_value_are_checked() {
    check(expect![[r#"
        //- main.tofu
        language { experiments = [symbol_libraries] }

        symbols "lib" {
          source = "./example-lib"
        }

        variable "location" {
          type    = symbols::lib::vec3()
          default = { x = 0, y = 0 }
                   #^^^^^^^^^^^^^^^^ error[invalid-value]
        }

        variable "origin" {
          type    = symbols::lib::vec3()
          default = { x = 0, y = 0, z = 0 }
        }

        output "hello_world" {
          value = symbols.lib.hello_world * 2
                 #^^^^^^^^^^^^^^^^^^^^^^^ warning[unsafe-conversion]
        }

        output "hello_location" {
          value = symbols::lib::hello(var.origin)
                                     #^^^^^^^^^^ error[type-mismatch]
        }

        output "label" {
          type  = number
          value = var.origin.label
                 #^^^^^^^^^^^^^^^^ warning[unsafe-conversion]
        }
        //- example-lib/example.sym.hcl
        typedef "vec3" {
          type = object({ x = number, y = number, z = number, label = optional(string, "origin") })
        }

        function "hello" {
          parameter "name" {
            type = string
          }
          type   = string
          return = "Hello, ${param.name}!"
        }

        values {
          hello_world = "Hello, World!"
        }
    "#]]);
}

/// Names a library does not define, a library no block imports and a
/// wrong argument count are errors, each with the closest name.
#[test]
fn unknown_library_symbols_are_errors() {
    check(expect![[r#"
        //- main.tofu
        language { experiments = [symbol_libraries] }

        symbols "lib" {
          source = "./lib"
        }

        variable "v" {
          type = list(symbols::lib::vec4())
                                   #^^^^ error[type-syntax]
        }

        output "a" {
          value = symbols::lib::helo("x")
                 #^^^^^^^^^^^^^^^^^^ error[unknown-function]
        }

        output "b" {
          value = symbols::lib::hello("x", "y")
                 #^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ error[argument-count]
        }

        output "c" {
          value = symbols.lib.hello_wrld
                 #^^^^^^^^^^^^^^^^^^^^^^ error[undefined-reference]
        }

        output "d" {
          value = symbols::other::hello("x")
                 #^^^^^^^^^^^^^^^^^^^^^ error[undefined-reference]
        }
        //- lib/lib.sym.hcl
        typedef "vec3" {
          type = object({ x = number, y = number, z = number })
        }

        function "hello" {
          parameter "name" {
            type = string
          }
          type   = string
          return = "Hello, ${name}!"
        }

        locals {
          hello_world = "Hello, World!"
        }
    "#]]);
}

/// S1 and S7 (https://github.com/opentofu/opentofu.org/pull/439,
/// https://github.com/opentofu/opentofu/pull/4474): the experiment is
/// enabled by the `language` block's `experiments`; without it each
/// `symbols` block is an error, and its library is still read (one error,
/// not one per use). A local source with no `.sym.hcl` file is a warning;
/// a source that is not local is not read, its symbols `any`.
#[test]
fn symbols_blocks_need_the_experiment_and_a_library() {
    check(expect![[r#"
        //- main.tf
        symbols "lib" {
        ^^^^^^^ error[unsupported-argument]
          source = "./lib"
        }

        symbols "empty" {
        ^^^^^^^ error[unsupported-argument]
          source = "./nothing-here"
                  #^^^^^^^^^^^^^^^^ warning[module-source]
        }

        symbols "remote" {
        ^^^^^^^ error[unsupported-argument]
          source = "git::https://example.com/lib.git"
        }

        output "a" {
          value = symbols::lib::hello("x")
        }

        output "b" {
          value = symbols::remote::anything(1) + symbols.remote.x
        }
        //- lib/lib.sym.hcl
        function "hello" {
          parameter "name" {
            type = string
          }
          type   = string
          return = "Hello, ${name}!"
        }
    "#]]);
}

/// A library file is analysed on its own without false errors (spec §4):
/// `object(…)` in a `typedef` is a type, not a call, and `symbols::T()` one
/// of the library's own (`typeForStaticCall` in
/// internal/configs/symlib/scope.go of opentofu/opentofu); `return` sees
/// `param.NAME` and the function's `local.NAME` and is checked against the
/// return type (S8, https://github.com/opentofu/opentofu/pull/4534: the
/// result is converted to the declared type); `values` are `value.NAME`.
#[test]
fn a_library_file_is_checked_on_its_own() {
    check(expect![[r#"
        //- lib/example.sym.hcl
        language {
          edition = "experimental2026"
        }

        typedef "vec3" {
          type = object({ x = number, y = number, z = optional(number, 0) })
        }

        typedef "path" {
          type = list(symbols::vec3())
        }

        typedef "broken" {
          type = objec({ a = string })
                #^^^^^ error[type-syntax]
        }

        function "names" {
          parameter "prefix" {
            type = string
          }
          type   = list(string)
          locals {
            upper = upper(param.prefix)
          }
          return = ["${param.prefix}-a", "${param.prefix}-b", local.upper, value.greeting]
        }

        function "wrong" {
          parameter "n" {
            type = number
          }
          type   = bool
          return = [param.n]
                  #^^^^^^^^^ error[type-mismatch]
        }

        function "first" {
          parameter "p" {
            type = symbols::path()
          }
          type   = number
          return = param.p[0].z
        }

        values {
          greeting = format("Hello, %s", "World")
          loud     = upper(value.greeting)
        }
    "#]]);
}

/// What OpenTofu's library scope does not have is an error there: a bare
/// name (HCL's "Unknown variable"), a misspelt `param.`/`value.`, a
/// function's `local.` outside it, the module's `var.`, a top-level
/// `locals` block (not in `symbolFileSchema`) and an edition other than
/// "experimental2026" (`CompileLibrary`).
#[test]
fn what_a_library_scope_lacks_is_an_error() {
    check(expect![[r#"
        //- lib/example.sym.hcl
        language {
          edition = "2026"
                   #^^^^^^ error[invalid-value]
        }

        function "add" {
          parameter "a" {
            type = number
          }
          return = a + param.b + value.nope + var.x
                  #^ error[undefined-reference]
                      #^^^^^^^ error[undefined-reference]
                                #^^^^^^^^^^ error[undefined-reference]
                                             #^^^ error[undefined-reference]
        }

        values {
          v = local.x
             #^^^^^ error[undefined-reference]
        }

        locals {
        ^^^^^^ error[unsupported-argument]
          old = 1
        }
    "#]]);
}

/// A `variadic = true` parameter takes any number of arguments of its type
/// after the others (cty's `VarParam`, `Function.Compile` in
/// internal/configs/symlib/functions.go); the function's result type is
/// its declared `type`.
#[test]
fn a_variadic_parameter_takes_any_number_of_arguments() {
    check(expect![[r#"
        //- main.tofu
        language { experiments = [symbol_libraries] }

        symbols "lib" {
          source = "./lib"
        }

        output "three" {
          value = symbols::lib::greeting("Hello", "A", "B")
        }

        output "one" {
          value = symbols::lib::greeting("Hello")
        }

        output "none" {
          value = symbols::lib::greeting()
                 #^^^^^^^^^^^^^^^^^^^^^^^^ error[argument-count]
        }

        output "list" {
          value = symbols::lib::greeting("Hello", ["A"])
                                                 #^^^^^ error[invalid-value]
        }
        //- lib/lib.sym.hcl
        function "greeting" {
          type = list(string)
          parameter "prefix" {
            type = string
          }
          parameter "name" {
            type     = string
            variadic = true
          }
          return = [for n in param.name : "${param.prefix} ${n}"]
        }
    "#]]);
}

/// `convert(value, symbols::lib::T())` (OpenTofu 1.13's `convert` takes a
/// type expression) checks the value against the library's type and gives
/// it, `optional` defaults applied.
#[test]
fn convert_takes_a_library_type() {
    check(expect![[r#"
        //- main.tofu
        language { experiments = [symbol_libraries] }

        symbols "lib" {
          source = "./lib"
        }

        locals {
          p    = convert({ x = 1 }, symbols::lib::point())
          bad  = convert({ x = "one" }, symbols::lib::point())
                              #^^^^^ error[invalid-value]
          y    = local.p.y * 2
          miss = local.p.w
                       #^^ error[traversal]
        }
        //- lib/lib.sym.hcl
        typedef "point" {
          type = object({ x = number, y = optional(number, 0) })
        }
    "#]]);
}

/// An edit of a library reaches a memo that analysed the module before:
/// the variable's declared type (remembered with its declaration) follows
/// the library's new definition, as a fresh analysis's does.
#[test]
fn a_changed_library_is_taken_by_the_next_analysis() {
    let module = |z: &str| {
        format!(
            "//- main.tofu\nlanguage {{ experiments = [symbol_libraries] }}\nsymbols \"lib\" {{\n  source = \"./lib\"\n}}\nvariable \"p\" {{\n  type    = symbols::lib::point()\n  default = {{ x = 1 }}\n}}\n//- lib/lib.sym.hcl\ntypedef \"point\" {{\n  type = object({{ x = number, z = {z} }})\n}}\n"
        )
    };
    let before = fixture::Fixture::parse(&module("optional(number)"));
    let mut a = before.analyse();
    let errors = |a: &std::sync::Arc<hcl_types_analysis::module::ModuleAnalysis>| {
        a.diagnostics.iter().map(|d| d.iter().filter(|d| !fixture::is_unused_lint(d)).count()).sum::<usize>()
    };
    assert_eq!(errors(&a.analysis), 0, "`z` is optional: the default is valid");
    let after = fixture::Fixture::parse(&module("number"));
    a.memo.set_symbols(hcl_types_analysis::dialects::symbol_libraries::libraries::load(&after, &a.docs));
    let again = a.memo.analysis(&a.docs);
    let fresh = after.analyse().analysis;
    assert_eq!(errors(&again), 1, "`z` is now required: {:?}", again.diagnostics);
    assert_eq!(again.diagnostics[0].to_vec(), fresh.diagnostics[0].to_vec());
    let types = |a: &std::sync::Arc<hcl_types_analysis::module::ModuleAnalysis>| {
        a.symbols.iter().map(|s| (s.address.clone(), s.ty.to_string())).collect::<Vec<_>>()
    };
    assert_eq!(types(&again), types(&fresh));
}

/// In an OpenTofu module without `symbols` blocks, `symbols.LIB.NAME` is
/// a library reference all the same: the error says which block is
/// missing (in a Terraform module it stays a resource type's name).
#[test]
fn a_library_reference_without_its_block() {
    check(expect![[r#"
        //- main.tofu
        output "a" {
          value = symbols.lib.hello_world
                 #^^^^^^^^^^^ error[undefined-reference]
        }
    "#]]);
}
