//! Semantic tokens of the whole language: the expectation lists, line by
//! line, each token's text, kind and modifiers (`decl`, `ro`, `lib`).

use expect_test::{expect, Expect};
use fixture::Fixture;
use hcl_types_ide as ide;
use ide::modifier::{DECLARATION, DEFAULT_LIBRARY, READONLY};

fn render(text: &str, tokens: &[ide::SemanticToken]) -> String {
    let mut out = String::new();
    let mut line = usize::MAX;
    for t in tokens {
        let l = text[..t.range.start].matches('\n').count() + 1;
        if l != line {
            if line != usize::MAX {
                out.push('\n');
            }
            out.push_str(&format!("{l}:"));
            line = l;
        }
        let mut mods = String::new();
        for (bit, name) in [(DECLARATION, ".decl"), (READONLY, ".ro"), (DEFAULT_LIBRARY, ".lib")] {
            if t.modifiers & bit != 0 {
                mods.push_str(name);
            }
        }
        out.push_str(&format!(" {}={:?}{mods}", &text[t.range.clone()], t.kind));
    }
    out.push('\n');
    out
}

fn check(text: &str, expect: Expect) {
    let f = Fixture::parse(text);
    let a = f.analyse();
    let text = &a.docs[a.doc].file.text;
    let tokens = ide::semantic_tokens(&a.docs, &a.analysis, a.doc);
    for w in tokens.windows(2) {
        assert!(w[0].range.end <= w[1].range.start, "overlapping or unsorted: {w:?}");
    }
    expect.assert_eq(&render(text, &tokens));
}

#[test]
fn every_kind_of_a_terraform_file() {
    check(
        r#"
# A comment
variable "region" {
  type    = map(object({ name = string, tags = optional(list(string), []) }))
  default = {}
}

locals {
  names = [for k, v in var.region : upper(k) if v.name != null]
  count = length(local.names) * 2 /* inline */
}

resource "aws_instance" "web" {
  ami   = data.aws_ami.ubuntu.id
  tags  = { Name = "web-${local.count}", Flag = true }
  arn   = provider::aws::arn_parse(module.net.arn)
  count = each.key == "a" ? 1 : 0
  dynamic "ingress" {
    for_each = aws_instance.other[*].id
  }
}

output "id" {
  value = <<-EOT
    id: ${aws_instance.web.id} %{ if true }yes%{ endif }
  EOT
}
"#,
        expect![[r#"
            1: # A comment=Comment
            2: variable=Type "region"=Parameter.decl
            3: type=Property map=Function.lib object=Function.lib name=Property string=Type.lib tags=Property optional=Function.lib list=Function.lib string=Type.lib
            4: default=Property
            7: locals=Type
            8: names=Variable.decl.ro for=Keyword k=Variable.decl v=Variable.decl in=Keyword var=Namespace.lib region=Parameter :=Operator upper=Function.lib k=Variable if=Keyword v=Variable name=Property !==Operator null=Keyword
            9: count=Variable.decl.ro length=Function.lib local=Namespace.lib names=Variable.ro *=Operator 2=Number /* inline */=Comment
            12: resource=Type "aws_instance"=Type "web"=Variable.decl
            13: ami=Property data=Namespace.lib aws_ami=Type ubuntu=Variable id=Property
            14: tags=Property Name=Property "=String web-=String ${=Operator local=Namespace.lib count=Variable.ro }=Operator "=String Flag=Property true=Keyword
            15: arn=Property provider=Namespace aws=Namespace arn_parse=Function module=Namespace.lib net=Namespace arn=Property
            16: count=Property each=Namespace.lib key=Property ===Operator "=String a=String "=String ?=Operator 1=Number :=Operator 0=Number
            17: dynamic=Type "ingress"=EnumMember
            18: for_each=Property aws_instance=Type other=Variable *=Operator id=Property
            22: output=Type "id"=Property.decl
            23: value=Property <<-EOT=String
            24:     id: =String ${=Operator aws_instance=Type web=Variable id=Property }=Operator  =String %{=Operator if=Keyword true=Keyword }=Operator yes=String %{=Operator endif=Keyword }=Operator
            25: EOT=String
        "#]],
    );
}

#[test]
fn a_dynamic_blocks_iterator_and_a_line_comment_ending_a_statement() {
    check(
        r#"
resource "aws_security_group" "sg" {
  dynamic "ingress" {
    for_each = var.ports # one per port
    content { from_port = ingress.value }
  }
  name = "sg"
}
"#,
        expect![[r#"
            1: resource=Type "aws_security_group"=Type "sg"=Variable.decl
            2: dynamic=Type "ingress"=EnumMember
            3: for_each=Property var=Namespace.lib ports=Parameter # one per port=Comment
            4: content=Type from_port=Property ingress=Variable value=Property
            6: name=Property "=String sg=String "=String
        "#]],
    );
}

#[test]
fn tfvars_assign_input_variables() {
    check(
        r#"
//- prod.tfvars
region = "eu-west-1"
sizes  = { web = 2 }
"#,
        expect![[r#"
            1: region=Parameter "=String eu-west-1=String "=String
            2: sizes=Parameter web=Property 2=Number
        "#]],
    );
}

#[test]
fn a_test_file_stacks_and_terragrunt() {
    check(
        r#"
//- main.tftest.hcl
run "plan" {
  command = plan
  assert {
    condition     = output.id == run.setup.id
    error_message = "bad"
  }
}
"#,
        expect![[r#"
            1: run=Type "plan"=Variable.decl
            2: command=Property plan=Variable
            3: assert=Type
            4: condition=Property output=Namespace.lib id=Property ===Operator run=Namespace.lib setup=Variable id=Property
            5: error_message=Property "=String bad=String "=String
        "#]],
    );
    check(
        r#"
//- stack/main.tfcomponent.hcl
component "net" {
  source = "./net"
  inputs = { cidr = var.cidr }
  providers = { aws = provider.aws.this }
}
"#,
        expect![[r#"
            1: component=Type "net"=Variable.decl
            2: source=Property "=String ./net=String "=String
            3: inputs=Property cidr=Property var=Namespace.lib cidr=Parameter
            4: providers=Property aws=Property provider=Namespace.lib aws=Variable this=Property
        "#]],
    );
    check(
        r#"
//- live/app/terragrunt.hcl
include "root" { path = find_in_parent_folders() }
dependency "vpc" { config_path = "../vpc" }
inputs = { vpc_id = dependency.vpc.outputs.id }
"#,
        expect![[r#"
            1: include=Type "root"=Variable.decl path=Property find_in_parent_folders=Function.lib
            2: dependency=Type "vpc"=Variable.decl config_path=Property "=String ../vpc=String "=String
            3: inputs=Property vpc_id=Property dependency=Namespace.lib vpc=Variable outputs=Property id=Property
        "#]],
    );
}

#[test]
fn pcl_packer_and_plain_hcl() {
    check(
        r#"
//- main.pp
config region "string" {}
resource bucket "aws:s3:Bucket" { bucketPrefix = region }
"#,
        expect![[r#"
            1: config=Type region=Parameter.decl string=Type.lib
            2: resource=Type bucket=Variable.decl "aws:s3:Bucket"=Type bucketPrefix=Property region=Variable
        "#]],
    );
    check(
        r#"
//- build.pkr.hcl
source "amazon-ebs" "ubuntu" { ami_name = "x-${local.ts}" }
build { sources = ["source.amazon-ebs.ubuntu"] }
"#,
        expect![[r#"
            1: source=Type "amazon-ebs"=Type "ubuntu"=Variable.decl ami_name=Property "=String x-=String ${=Operator local=Namespace.lib ts=Variable.ro }=Operator "=String
            2: build=Type sources=Property "=String source.amazon-ebs.ubuntu=String "=String
        "#]],
    );
    check(
        r#"
//- job.hcl
job "web" {
  count = 2 + other.x
}
"#,
        expect![[r#"
            1: job=Type "web"=EnumMember
            2: count=Property 2=Number +=Operator other=Variable x=Property
        "#]],
    );
}

#[test]
fn a_json_file_has_only_its_type_expressions() {
    check(
        r#"
//- main.tf.json
{"variable": {"x": {"type": "list(string)"}}}
"#,
        expect![[r#"
            2: list=Function.lib string=Type.lib
        "#]],
    );
}

#[test]
fn half_typed_text_is_coloured_up_to_where_it_breaks_and_after() {
    check(
        r#"
resource "a" "b" {
  x = "unclosed
  y = [for
}
/* never closed
"#,
        expect![[r#"
            1: resource=Type "a"=Type "b"=Variable.decl
            2: x=Property "=String unclosed=String
            3: y=Property for=Keyword
            5: /* never closed=Comment
        "#]],
    );
}

/// A broken item colours only itself: the unclosed interpolation of the
/// first block does not make the next block an expression.
#[test]
fn a_broken_item_does_not_colour_the_next() {
    check(
        r#"
variable "a" {
  default = "${var.b
}

output "b" {
  value = var.a
}
"#,
        expect![[r#"
            1: variable=Type "a"=Parameter.decl
            2: default=Property "=String ${=Operator var=Namespace.lib b=Parameter
            3: }=Operator
            5: output=Type "b"=Property.decl
            6: value=Property var=Namespace.lib a=Parameter
        "#]],
    );
}

mod cache {
    use analysis::module::Memo;
    use analysis::{Document, SourceFile};
    use hcl_types_ide as ide;

    /// Pieces the random edits type or delete: brackets, quotes,
    /// templates, heredocs, comments and whole blocks, the things that
    /// move item boundaries.
    const PIECES: [&str; 16] = [
        "\"",
        "{",
        "}",
        "\n",
        "x",
        "# c\n",
        "${",
        "%{",
        "/*",
        "*/",
        "[",
        "<<EOT\n",
        "\nEOT\n",
        "resource \"r\" \"n\" {\n  a = 1\n}\n",
        "\nlocals {\n  l = \"${var.v}\"\n}\n",
        "é",
    ];

    fn text(n: usize) -> String {
        let mut text = String::from("# head\n\n");
        for i in 0..n {
            text.push_str(&format!(
                "variable \"v{i}\" {{\n  type = object({{ a = list(string) }})\n  default = {{ a = [\"${{{i}}}\"] }}\n}}\n\n# c{i}\nlocals {{\n  l{i} = <<EOT\n  x ${{var.v{i}}}\nEOT\n}}\n"
            ));
        }
        text
    }

    /// A small random number generator (xorshift): the same edits every run.
    struct Rng(u64);
    impl Rng {
        fn below(&mut self, n: usize) -> usize {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            (self.0 % n as u64) as usize
        }
    }

    /// The property the cache stands on: after any edits, the tokens it
    /// puts together from remembered items are those of the text parsed
    /// and classified afresh.
    #[test]
    fn tokens_from_the_cache_after_random_edits_are_those_computed_fresh() {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        let mut text = text(30);
        let mut doc = Document::parse(SourceFile::new("main.tf", text.as_str()).unwrap());
        let mut cache = ide::TokenCache::default();
        for step in 0..300 {
            let docs = vec![doc.clone()];
            let analysis = Memo::default().analysis(&docs);
            let cached = cache.tokens(&docs, &analysis, 0).to_vec();
            let fresh_docs = vec![Document::parse(SourceFile::new("main.tf", text.as_str()).unwrap())];
            let fresh = ide::semantic_tokens(&fresh_docs, &Memo::default().analysis(&fresh_docs), 0);
            assert!(cached == fresh, "step {step}: the cache's tokens differ from fresh ones for\n{text}");
            let mut at = rng.below(text.len() + 1);
            while !text.is_char_boundary(at) {
                at -= 1;
            }
            if rng.below(3) == 0 {
                let mut end = (at + 1 + rng.below(12)).min(text.len());
                while !text.is_char_boundary(end) {
                    end += 1;
                }
                text.replace_range(at..end, "");
            } else {
                text.insert_str(at, PIECES[rng.below(PIECES.len())]);
            }
            doc = doc.edited(SourceFile::new("main.tf", text.as_str()).unwrap());
        }
    }

    /// What the cache saves: after a keystroke only the edited item is
    /// classified again.
    #[test]
    fn a_keystroke_classifies_the_edited_item_only() {
        let mut text = text(200);
        let docs = vec![Document::parse(SourceFile::new("main.tf", text.as_str()).unwrap())];
        let mut cache = ide::TokenCache::default();
        cache.tokens(&docs, &Memo::default().analysis(&docs), 0);
        assert_eq!(cache.classified(), docs[0].items.len());
        assert_eq!(docs[0].items.len(), 400);
        text.insert(text.find("v150").unwrap(), 'x');
        let docs = vec![docs[0].edit(SourceFile::new("main.tf", text.as_str()).unwrap())];
        let tokens = cache.tokens(&docs, &Memo::default().analysis(&docs), 0).to_vec();
        assert_eq!(cache.classified(), 1);
        assert_eq!(tokens, ide::semantic_tokens(&docs, &Memo::default().analysis(&docs), 0));
    }
}
