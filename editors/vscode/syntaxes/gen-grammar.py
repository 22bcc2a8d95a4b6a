#!/usr/bin/env python3
"""Writes hcl-types.tmLanguage.json beside this file (kept as code: regexes read better here)."""
import json, pathlib

TYPES = "string|number|bool|int|any|list|map|set|tuple|object|union|promise|output|optional|none"
BLOCKS = ("variable|resource|data|output|locals|module|provider|terraform|config|component|"
          "moved|import|check|removed|backend|required_providers|lifecycle|dynamic|content|"
          "provisioner|connection|validation|precondition|postcondition|run|mock_provider|"
          "source|build|packer|ephemeral")
ID = r"[A-Za-z_][A-Za-z0-9_-]*"

def comments():
    return {"patterns": [
        {"name": "comment.line.number-sign.hcl", "match": r"#.*$"},
        {"name": "comment.line.double-slash.hcl", "match": r"//.*$"},
        {"name": "comment.block.hcl", "begin": r"/\*", "end": r"\*/",
         "captures": {"0": {"name": "punctuation.definition.comment.hcl"}}},
    ]}

g = {
    "$schema": "https://raw.githubusercontent.com/martinring/tmlanguage/master/tmlanguage.json",
    "name": "HCL (hcl-types)",
    "scopeName": "source.hcl-types",
    "patterns": [{"include": "#comments"}, {"include": "#block"}, {"include": "#attribute"},
                 {"include": "#expressions"}],
    "repository": {
        "comments": comments(),
        "block": {
            "comment": "A block header: keyword, labels, then {",
            "begin": rf"^\s*({BLOCKS}|{ID})(?=(\s+(\"[^\"]*\"|{ID}))*\s*\{{)",
            "beginCaptures": {"1": {"name": "keyword.other.block.hcl"}},
            "end": r"(?=\{)",
            "patterns": [{"include": "#type_label"}, {"include": "#label"}, {"include": "#comments"}],
        },
        "type_label": {
            "comment": "The type label of a PCL config block: \"list(int)\"",
            "begin": rf"(?<=\"\s)\s*(\")(?=({TYPES})\b[^\"]*\"\s*\{{)",
            "beginCaptures": {"1": {"name": "punctuation.definition.string.begin.hcl"}},
            "end": r"\"",
            "endCaptures": {"0": {"name": "punctuation.definition.string.end.hcl"}},
            "contentName": "meta.type.hcl",
            "patterns": [{"include": "#types"}, {"include": "#punctuation"}],
        },
        "label": {
            "patterns": [
                {"name": "entity.name.label.hcl", "match": r"\"[^\"]*\""},
                {"name": "entity.name.label.hcl", "match": ID},
            ]
        },
        "attribute": {
            "comment": "name = value; a `type = ...` argument gets type highlighting",
            "patterns": [
                {
                    "begin": r"^\s*(type)\s*(=)(?!=)",
                    "beginCaptures": {"1": {"name": "variable.other.property.hcl"},
                                      "2": {"name": "keyword.operator.assignment.hcl"}},
                    "end": r"$",
                    "contentName": "meta.type.hcl",
                    "patterns": [{"include": "#comments"}, {"include": "#strings"}, {"include": "#types"},
                                 {"include": "#expressions"}],
                },
                {
                    "match": rf"^\s*({ID})\s*(=)(?!=)",
                    "captures": {"1": {"name": "variable.other.property.hcl"},
                                 "2": {"name": "keyword.operator.assignment.hcl"}},
                },
            ]
        },
        "types": {
            "patterns": [
                {"name": "support.type.primitive.hcl", "match": r"\b(string|number|bool|int|any|none)\b"},
                {"name": "support.type.constructor.hcl",
                 "match": r"\b(list|map|set|tuple|object|union|promise|output|optional)\b(?=\s*\()"},
                {"name": "support.type.constructor.hcl", "match": r"\b(list|map|set)\b"},
            ]
        },
        "expressions": {
            "patterns": [
                {"include": "#comments"},
                {"include": "#heredoc"},
                {"include": "#strings"},
                {"include": "#numbers"},
                {"include": "#constants"},
                {"include": "#keywords"},
                {"include": "#types"},
                {"include": "#functions"},
                {"include": "#object_key"},
                {"include": "#references"},
                {"include": "#operators"},
                {"include": "#punctuation"},
            ]
        },
        "numbers": {
            "patterns": [
                {"name": "constant.numeric.hcl", "match": r"\b0x[0-9A-Fa-f]+\b"},
                {"name": "constant.numeric.hcl", "match": r"\b\d+(\.\d+)?([eE][+-]?\d+)?\b"},
            ]
        },
        "constants": {"name": "constant.language.hcl", "match": r"\b(true|false|null)\b"},
        "keywords": {"name": "keyword.control.hcl", "match": r"\b(for|in|if|else|endif|endfor)\b"},
        "functions": {
            "match": rf"\b({ID}(?:::{ID})*)\s*(?=\()",
            "captures": {"1": {"name": "support.function.hcl"}},
        },
        "object_key": {
            "match": rf"\b({ID})\s*(=)(?!=)",
            "captures": {"1": {"name": "variable.other.property.hcl"},
                         "2": {"name": "keyword.operator.assignment.hcl"}},
        },
        "references": {
            "patterns": [
                {"match": r"\b(var|local|module|data|each|count|path|self|terraform)\b(?=\.)",
                 "name": "variable.language.hcl"},
                {"match": ID, "name": "variable.other.hcl"},
            ]
        },
        "operators": {
            "patterns": [
                {"name": "keyword.operator.hcl", "match": r"==|!=|<=|>=|&&|\|\||=>|\.\.\.|[-+*/%<>!?:]"},
                {"name": "keyword.operator.assignment.hcl", "match": r"="},
            ]
        },
        "punctuation": {
            "patterns": [
                {"name": "punctuation.separator.hcl", "match": r","},
                {"name": "punctuation.accessor.hcl", "match": r"\."},
                {"name": "punctuation.section.braces.hcl", "match": r"[{}]"},
                {"name": "punctuation.section.brackets.hcl", "match": r"[\[\]]"},
                {"name": "punctuation.section.parens.hcl", "match": r"[()]"},
            ]
        },
        "strings": {
            "name": "string.quoted.double.hcl",
            "begin": r"\"",
            "end": r"\"",
            "beginCaptures": {"0": {"name": "punctuation.definition.string.begin.hcl"}},
            "endCaptures": {"0": {"name": "punctuation.definition.string.end.hcl"}},
            "patterns": [
                {"name": "constant.character.escape.hcl",
                 "match": r"\\([\\\"nrt]|u[0-9A-Fa-f]{4}|U[0-9A-Fa-f]{8})|\$\$\{|%%\{"},
                {"include": "#template"},
            ],
        },
        "template": {
            "patterns": [
                {
                    "name": "meta.embedded.interpolation.hcl",
                    "begin": r"[$%]\{~?",
                    "end": r"~?\}",
                    "beginCaptures": {"0": {"name": "punctuation.section.interpolation.begin.hcl"}},
                    "endCaptures": {"0": {"name": "punctuation.section.interpolation.end.hcl"}},
                    "patterns": [{"include": "#nested_braces"}, {"include": "#expressions"}],
                }
            ]
        },
        "nested_braces": {
            "begin": r"\{",
            "end": r"\}",
            "beginCaptures": {"0": {"name": "punctuation.section.braces.hcl"}},
            "endCaptures": {"0": {"name": "punctuation.section.braces.hcl"}},
            "patterns": [{"include": "#nested_braces"}, {"include": "#expressions"}],
        },
        "heredoc": {
            "name": "string.unquoted.heredoc.hcl",
            "begin": r"(<<-?)\s*([A-Za-z_][A-Za-z0-9_]*)\s*$",
            "beginCaptures": {"1": {"name": "keyword.operator.heredoc.hcl"},
                              "2": {"name": "keyword.control.heredoc-token.hcl"}},
            "end": r"^\s*(\2)\s*$",
            "endCaptures": {"1": {"name": "keyword.control.heredoc-token.hcl"}},
            "patterns": [{"include": "#template"}],
        },
    },
}
out = pathlib.Path(__file__).with_name("hcl-types.tmLanguage.json")
out.write_text(json.dumps(g, indent=2) + "\n")
print(f"wrote {out}")
