//! Hover and completion in the blocks a provider schema types beyond
//! resources and data sources (Terraform 1.14): an `action`'s `config` and a
//! query file's `list` `config`, typed from `action_schemas` and
//! `list_resource_schemas` as terraform-ls types them. `$0` is the cursor;
//! the schema is `tests/schemas/demo.json`. Also a policy file's `input.` and
//! `attrs` (docs/spec/analysis.md §10).

use expect_test::{expect, Expect};
use fixture::Fixture;
use hcl_types_ide as ide;

const DEMO: &str = include_str!("../../../tests/schemas/demo.json");

fn hover(text: &str, expect: Expect) {
    let f = Fixture::parse(text);
    let mut a = f.analyse_with(Some(fixture::schemas(DEMO)));
    let got = match ide::hover_with(&a.docs, a.doc, a.offset, &mut a.memo) {
        Some(h) => {
            let source = &a.docs[a.doc].shown_text()[h.range.clone()];
            format!("`{source}`: {}\n{}\n", h.ty, h.prose.join("\n---\n"))
        }
        None => "no hover\n".to_string(),
    };
    expect.assert_eq(&got);
}

fn complete(text: &str, expect: Expect) {
    let f = Fixture::parse(text);
    let a = f.analyse_with(Some(fixture::schemas(DEMO)));
    let list = ide::completion(&a.docs, a.doc, a.offset, &a.analysis);
    let mut got = String::new();
    for c in &list.items {
        let detail = c.detail.as_deref().map(|d| format!(" — {d}")).unwrap_or_default();
        got.push_str(&format!("{:?} {}{detail}\n", c.kind, c.label));
    }
    expect.assert_eq(&got);
}

#[test]
fn an_actions_config_argument_hovers_with_its_schema() {
    hover(
        r#"
action "demo_notify" "n" {
  config {
    mess$0age = "hi"
  }
}
"#,
        expect![[r#"
            `message`: string
            `message` of action `demo_notify`: required.
            ---
            What the notification says.
            ---
            From the schema schema.json.
        "#]],
    );
}

#[test]
fn an_actions_nested_config_block_hovers_with_its_schema() {
    hover(
        r#"
action "demo_notify" "n" {
  config {
    message = "hi"
    target {
      chan$0nel = "ops"
    }
  }
}
"#,
        expect![[r#"
            `channel`: string
            `channel` of action `demo_notify`: required.
            ---
            From the schema schema.json.
        "#]],
    );
}

#[test]
fn a_list_blocks_config_argument_hovers_with_its_schema() {
    hover(
        r#"
//- find.tfquery.hcl
list "demo_instance" "all" {
  provider = demo
  config {
    reg$0ion = "eu"
  }
}
"#,
        expect![[r#"
            `region`: string
            `region` of list resource `demo_instance`: required.
            ---
            Where to look for instances.
            ---
            From the schema schema.json.
        "#]],
    );
}

#[test]
fn an_actions_own_arguments_are_not_the_schemas() {
    // `count` is the action block's meta-argument, not its config's.
    hover(
        r#"
action "demo_notify" "n" {
  le$0vel = 1
  config {
    message = "hi"
  }
}
"#,
        expect![[r#"
            no hover
        "#]],
    );
}

#[test]
fn an_actions_config_completes_its_arguments_required_first() {
    complete(
        r#"
action "demo_notify" "n" {
  config {
    $0
  }
}
"#,
        expect![[r#"
            Attribute message — required: string
            Attribute level — number
            Keyword target — block
        "#]],
    );
}

#[test]
fn a_list_blocks_config_completes_what_it_does_not_set() {
    complete(
        r#"
//- find.tfquery.hcl
list "demo_instance" "all" {
  provider = demo
  config {
    region = "eu"
    $0
  }
}
"#,
        expect![[r#"
            Attribute name_prefix — string
        "#]],
    );
}

#[test]
fn a_policy_files_inputs_complete_after_input_dot() {
    complete(
        r#"
//- compute.policy.hcl
input "allowed_sizes" {
  type = list(number)
}
input "strict" {
  type = bool
}
resource_policy "demo_instance" "sizes" {
  filter = input.$0
}
"#,
        expect![[r#"
            Variable allowed_sizes — list(number)
            Variable strict — bool
        "#]],
    );
}

#[test]
fn a_resource_policys_attrs_are_typed_from_the_resources_schema() {
    hover(
        r#"
//- compute.policy.hcl
resource_policy "demo_instance" "sizes" {
  enforce {
    condition     = att$0rs.size > 2
    error_message = "small"
  }
}
"#,
        expect![[r#"
            `attrs.size`: number
            Expected `number` here: this value converts safely.
        "#]],
    );
}

#[test]
fn an_actions_type_completes_from_the_action_schemas() {
    complete(
        r#"
action "demo_$0
"#,
        expect![[r#"
            Variable demo_notify — registry.terraform.io/hashicorp/demo
        "#]],
    );
}

#[test]
fn a_resource_policys_attrs_complete_the_resources_attributes() {
    complete(
        r#"
//- compute.policy.hcl
resource_policy "demo_instance" "sizes" {
  enforce {
    condition = attrs.$0
  }
}
"#,
        expect![[r#"
            Attribute arn — string
            Attribute id — string
            Attribute name — string
            Attribute network — list(object({subnet = string}))
            Attribute size — number
            Attribute tags — map(string)
        "#]],
    );
}

/// Issue 45: hover on a resource or data source type label names its
/// provider and where its schema came from (the fixture's label), or says
/// that no schema has it.
#[test]
fn a_resource_type_label_names_its_provider_and_schema() {
    hover(
        r#"
//- /main.tf
resource "demo_inst$0ance" "a" {}
"#,
        expect![[r#"
            `demo_instance`: object({arn = string, id = string, name = string, network = list(object({subnet = string})), size = number, tags = map(string)})
            Resource `demo_instance` of provider `registry.terraform.io/hashicorp/demo`.
            ---
            Its schema: schema.json.
        "#]],
    );
    hover(
        r#"
//- /main.tf
data "other_th$0ing" "a" {}
"#,
        expect![[r#"
            `other_thing`: any
            No provider schema has data source `other_thing`: its attributes are `any`. `hcl-types schemas DIR` says which providers are typed and from where.
        "#]],
    );
}

/// The diagnostics of the fixture's file with the demo schema, as
/// annotations, then their messages.
fn diagnostics(text: &str, expect: Expect) {
    let f = Fixture::parse(text);
    let a = f.analyse_with(Some(fixture::schemas(DEMO)));
    let body = &f.files[0].1;
    let diags = &a.analysis.diagnostics[a.doc];
    let mut got = fixture::render(body, diags);
    got.extend(diags.iter().map(|d| format!("{}: {}\n", d.code.as_str(), d.message)));
    expect.assert_eq(&got);
}

/// Issue 48: a provider block's own arguments are typed from the
/// provider's configuration schema (`provider.block`), as Terraform's
/// `ValidateProvider` decodes them: types, unknown names, required ones.
/// A block of meta-arguments only (`alias`) is not validated by Terraform,
/// so nothing is required of it.
#[test]
fn a_provider_blocks_arguments_are_checked_against_its_configuration_schema() {
    diagnostics(
        r#"
provider "demo" {
  region = ["a"]
  zone   = "x"
}

provider "demo" {
  alias = "other"
}

provider "demo" {
  alias   = "third"
  project = "p"
  region  = "eu"
}
"#,
        expect![[r#"
            provider "demo" {
            ^^^^^^^^^^^^^^^ error[missing-argument]
              region = ["a"]
                      #^^^^^ error[invalid-value]
              zone   = "x"
             #^^^^ error[unsupported-argument]
            }

            provider "demo" {
              alias = "other"
            }

            provider "demo" {
              alias   = "third"
              project = "p"
              region  = "eu"
            }
            missing-argument: provider `demo` needs the argument `project`
            invalid-value: invalid value for `string`: […] is a collection and cannot become a string
            unsupported-argument: provider `demo` has no argument `zone`
        "#]],
    );
}

#[test]
fn a_provider_blocks_argument_hovers_with_its_schema() {
    hover(
        r#"
provider "demo" {
  proj$0ect = "p"
}
"#,
        expect![[r#"
            `project`: string
            `project` of provider `demo`: required.
            ---
            The project to work in.
            ---
            From the schema schema.json.
        "#]],
    );
    // Its meta-arguments stay the language's.
    hover(
        r#"
provider "demo" {
  ali$0as = "west"
}
"#,
        expect![[r#"
            `alias`: string
            Meta-argument `alias` of a `provider` block: optional (the language's own, not the provider's or the module's).
            ---
            A second name for another configuration of the same provider, referred to as `PROVIDER.ALIAS`.
        "#]],
    );
}

#[test]
fn a_provider_block_completes_its_arguments_required_first() {
    complete(
        r#"
provider "demo" {
  $0
}
"#,
        expect![[r#"
            Attribute project — required: string
            Attribute region — string
        "#]],
    );
}

/// What the server's search of the user's provider binaries gives when it
/// found nothing (issue 45): no schema file, the search's reasons.
fn searched_nothing() -> std::sync::Arc<schema::Schemas> {
    let mut s = schema::Schemas::new(Vec::new(), Vec::new(), 7);
    let why = "no binary of hashicorp/aws in the searched directories".to_string();
    s.searched = Some(schema::Searched { untyped: vec![("aws".into(), why)], reading: Vec::new() });
    std::sync::Arc::new(s)
}

/// Issue 45: with the plugin search run and nothing found, the module still
/// gets its one `no-schema` hint (as `check` does with any schema source),
/// with the search's reason; a provider still being read is not named; and
/// the type label's hover says why.
#[test]
fn a_search_that_found_nothing_still_says_no_schema_and_why() {
    let text = "terraform {\n  required_providers {\n    aws = { source = \"hashicorp/aws\" }\n  }\n}\n\n\
                resource \"aws_insta$0nce\" \"a\" {}\n";
    let f = Fixture::parse(text);
    let mut a = f.analyse_with(Some(searched_nothing()));
    let hints: Vec<String> = a.analysis.diagnostics[a.doc]
        .iter()
        .filter(|d| d.code.as_str() == "no-schema")
        .map(|d| format!("{:?} {}", d.range, d.message))
        .collect();
    assert_eq!(hints.len(), 1, "{hints:?}");
    assert!(hints[0].starts_with("39..42 no schema for the provider `aws` of this module"), "{hints:?}");
    assert!(hints[0].contains("(`aws`: no binary of hashicorp/aws in the searched directories)"), "{hints:?}");
    let h = ide::hover_with(&a.docs, a.doc, a.offset, &mut a.memo).expect("hover");
    assert_eq!(
        h.prose.last().map(String::as_str),
        Some("The plugin cache was searched for `aws`: no binary of hashicorp/aws in the searched directories.")
    );

    // Being read: not said yet.
    let mut s = schema::Schemas::new(Vec::new(), Vec::new(), 8);
    s.searched = Some(schema::Searched { untyped: Vec::new(), reading: vec!["aws".into()] });
    let a = f.analyse_with(Some(std::sync::Arc::new(s)));
    assert!(a.analysis.diagnostics[a.doc].iter().all(|d| d.code.as_str() != "no-schema"));
    // No search and no schema file: nothing is said either.
    let a = f.analyse_with(Some(std::sync::Arc::new(schema::Schemas::new(Vec::new(), Vec::new(), 9))));
    assert!(a.analysis.diagnostics[a.doc].iter().all(|d| d.code.as_str() != "no-schema"));
}

/// A provider block's name: the provider and its configuration schema's
/// origin, or that no schema has it.
#[test]
fn a_provider_blocks_name_names_its_provider_and_schema() {
    hover(
        r#"
//- /main.tf
provider "de$0mo" {}
"#,
        expect![[r#"
            `demo`: object({project = string, region = string})
            Configuration of provider `registry.terraform.io/hashicorp/demo`.
            ---
            Its schema: schema.json.
        "#]],
    );
    hover(
        r#"
//- /main.tf
provider "oth$0er" {}
"#,
        expect![[r#"
            `other`: any
            No provider schema has provider `other`: its configuration's arguments are not typed. `hcl-types schemas DIR` says which providers are typed and from where.
        "#]],
    );
}
