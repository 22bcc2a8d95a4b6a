//! `hcl-types outline FILE…` (hidden): what our parser sees in each file,
//! as JSON, for the differential tests against Terraform's own parser
//! (tests/terraform). Per file: its syntax diagnostics, its top-level
//! attribute names, and its blocks (type, labels, attribute names, nested
//! blocks), in source order.

use std::io::Write;
use std::path::PathBuf;

use clap::Args;
use hcl_edit::structure::{BlockLabel, Body, Structure};
use serde_json::{json, Value};

use super::check::load;
use analysis::Document;
use syntax::diagnostic::Code;
use syntax::lines::LineIndex;

#[derive(Args, Debug, Clone)]
pub struct OutlineArgs {
    /// Files to outline.
    pub files: Vec<PathBuf>,
}

/// Prints one JSON array with an outline per file; exit code 2 if a file
/// cannot be read (its entry then has an `error`).
pub fn run(args: OutlineArgs) -> u8 {
    let mut code = 0;
    let files: Vec<Value> = args
        .files
        .iter()
        .map(|path| match load(path, None) {
            Ok((file, problem)) => {
                let doc = Document::parse(file);
                let index = LineIndex::new(&doc.file.text);
                let syntax: Vec<Value> = problem
                    .iter()
                    .chain(&doc.diagnostics)
                    .filter(|d| d.code == Code::Syntax)
                    .map(|d| {
                        let (line, column) = index.position(&doc.file.text, d.range.start);
                        json!({"line": line, "column": column, "message": d.message})
                    })
                    .collect();
                let mut top = Outline::default();
                for item in doc.items.iter() {
                    if let Some(body) = item.body(&doc.file.text) {
                        top.add(&body);
                    }
                }
                json!({
                    "path": path.display().to_string(),
                    "syntax": syntax,
                    "attributes": top.attributes,
                    "blocks": top.blocks,
                })
            }
            Err(message) => {
                code = 2;
                json!({"path": path.display().to_string(), "error": message})
            }
        })
        .collect();
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{}", Value::Array(files));
    code
}

/// A body's attribute names and blocks.
#[derive(Default)]
struct Outline {
    attributes: Vec<String>,
    blocks: Vec<Value>,
}

impl Outline {
    fn add(&mut self, body: &Body) {
        for structure in body.iter() {
            match structure {
                Structure::Attribute(a) => self.attributes.push(a.key.value().to_string()),
                Structure::Block(b) => {
                    let labels: Vec<&str> = b
                        .labels
                        .iter()
                        .map(|l| match l {
                            BlockLabel::Ident(i) => i.value().as_str(),
                            BlockLabel::String(s) => s.value().as_str(),
                        })
                        .collect();
                    let mut inner = Outline::default();
                    inner.add(&b.body);
                    self.blocks.push(json!({
                        "type": b.ident.value().as_str(),
                        "labels": labels,
                        "attributes": inner.attributes,
                        "blocks": inner.blocks,
                    }));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outlines_blocks_labels_attributes_and_nesting() {
        let body: Body = "z = 1\nresource \"aws_x\" this {\n  a = 1\n  inner {\n    b = <<EOT\nx\nEOT\n  }\n}\n"
            .parse()
            .expect("valid HCL");
        let mut outline = Outline::default();
        outline.add(&body);
        assert_eq!(outline.attributes, ["z"]);
        assert_eq!(
            Value::Array(outline.blocks),
            json!([{
                "type": "resource",
                "labels": ["aws_x", "this"],
                "attributes": ["a"],
                "blocks": [{"type": "inner", "labels": [], "attributes": ["b"], "blocks": []}],
            }])
        );
    }
}
