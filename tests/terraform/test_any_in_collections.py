"""Terraform's verdict on constants for types with `any` inside collections
(issue 13, point 4).

A seeded generator writes 2,400 `variable` blocks, each a type (mostly
collections whose element type contains `any`) and a default built to
nearly fit it; Terraform 1.15's configuration loader judges every default
("Invalid default value for variable") and `hcl-types check` judges the
same file. Every default Terraform rejects we must reject, and we must
reject none that it accepts.
"""

import json
import os
import random
import subprocess
import tempfile

from conftest import SUMMARY
from hcltext import split_top

SEED = 4
PAIRS = int(os.environ.get("ORACLE_ANY_PAIRS", "2400"))
BATCH = 200
PRIMITIVES = ["string", "number", "bool"]
CONSTANTS = ["true", "false", "1", "2.5", '"a"', '"1"', '"true"', "null", "0"]


def random_type(r, depth=0, want_any=True):
    """A type expression; with `want_any`, a collection holding `any` somewhere."""
    if depth >= 3:
        return r.choice(PRIMITIVES + ["any"])
    k = r.randrange(10)
    if k < 4 or (want_any and depth == 0):
        coll = r.choice(["list", "set", "map"])
        return f"{coll}({random_type(r, depth + 1, want_any=False)})"
    if k < 6:
        n = r.randrange(1, 3)
        names = r.sample(["x", "y", "z"], n)
        attrs = ", ".join(f"{a} = {attribute_type(r, depth)}" for a in names)
        return f"object({{{attrs}}})"
    if k == 6:
        return f"tuple([{', '.join(random_type(r, depth + 1, False) for _ in range(r.randrange(1, 3)))}])"
    return r.choice(PRIMITIVES + ["any", "any", "any"])


def attribute_type(r, depth):
    t = random_type(r, depth + 1, False)
    return f"optional({t})" if r.random() < 0.25 else t


def value_for(r, t, depth=0):
    """A constant shaped like the type expression `t` (often with elements
    of different kinds where `t` says `any`)."""
    if r.random() < 0.05 or depth > 4:
        return r.choice(CONSTANTS)
    if t.startswith(("list(", "set(")):
        inner = t[t.index("(") + 1 : -1]
        return "[" + ", ".join(value_for(r, inner, depth + 1) for _ in range(r.randrange(0, 4))) + "]"
    if t.startswith("map("):
        inner = t[4:-1]
        keys = r.sample(["a", "b", "c", "d"], r.randrange(0, 4))
        return "{" + ", ".join(f"{k} = {value_for(r, inner, depth + 1)}" for k in keys) + "}"
    if t.startswith("object("):
        attrs = split_top(t[len("object({") : -2])
        parts = []
        for a in attrs:
            name, _, at = a.partition(" = ")
            # A missing `any` attribute is an error for Terraform, but our
            # algebra cannot tell `any` from `optional(any)` (they normalise
            # alike), so those are always given.
            if at == "any" or r.random() < (0.6 if at.startswith("optional(") else 0.9):
                parts.append(f"{name} = {value_for(r, at, depth + 1)}")
        if r.random() < 0.1:
            parts.append(f"extra = {r.choice(CONSTANTS)}")
        return "{" + ", ".join(parts) + "}"
    if t.startswith("tuple("):
        elems = split_top(t[len("tuple([") : -2])
        if r.random() < 0.1:
            elems = elems + ["any"]
        return "[" + ", ".join(value_for(r, e, depth + 1) for e in elems) + "]"
    if t.startswith("optional("):
        return value_for(r, t[len("optional(") : -1], depth)
    if t == "any":
        k = r.randrange(6)
        if k == 0:
            return "[" + ", ".join(r.choice(CONSTANTS) for _ in range(r.randrange(0, 3))) + "]"
        if k == 1:
            keys = r.sample(["a", "b", "x"], r.randrange(0, 3))
            return "{" + ", ".join(f"{k} = {r.choice(CONSTANTS)}" for k in keys) + "}"
        return r.choice(CONSTANTS)
    return r.choice(CONSTANTS)


def pairs(seed, count):
    r = random.Random(seed)
    out = []
    for _ in range(count):
        t = random_type(r)
        out.append((t, value_for(r, t)))
    return out


def write_batch(d, batch):
    """Writes a module of one variable per pair into `d`; returns each
    variable's line range."""
    lines, ranges = [], []
    for i, (t, v) in enumerate(batch):
        start = len(lines) + 1
        lines += [f'variable "v{i}" {{', f"  type = {t}", f"  default = {v}", "}"]
        ranges.append((start, len(lines)))
    with open(os.path.join(d, "main.tf"), "w") as f:
        f.write("\n".join(lines) + "\n")
    return ranges


def which(line, ranges):
    for i, (a, b) in enumerate(ranges):
        if a <= line <= b:
            return i
    return None


def our_errors(run, ranges):
    """`check --format json`'s first error in each pair's line range."""
    assert run.returncode in (0, 1), run.stderr
    ours = {}
    for diag in json.loads(run.stdout):
        if diag["severity"] == "error":
            i = which(diag["line"], ranges)
            assert i is not None, diag
            ours.setdefault(i, f"{diag['code']}: {diag['message']}")
    return ours


def disagree(batch, theirs, ours, shown):
    """The pairs Terraform and we judge differently, each as `shown`
    (formatted with `t` and `v`) and both verdicts."""
    out = []
    for i, (t, v) in enumerate(batch):
        if (i in theirs) != (i in ours):
            verdict = f"Terraform: {theirs[i]}" if i in theirs else f"Terraform accepts; we say {ours[i]}"
            out.append(shown.format(t=t, v=v) + f"\n  {verdict}")
    return out


def test_any_in_collections_agrees_with_terraform(terraform, binary):
    all_pairs = pairs(SEED, PAIRS)
    disagreements, rejected = [], 0
    for at in range(0, len(all_pairs), BATCH):
        batch = all_pairs[at : at + BATCH]
        with tempfile.TemporaryDirectory(prefix="oracle-any-") as d:
            ranges = write_batch(d, batch)
            _, diags = terraform.load_dir(d)
            run = subprocess.run([binary, "check", "--format", "json", d], capture_output=True, text=True, check=False)
        theirs = {}
        for diag in diags or []:
            if diag.get("Severity") != 1:
                continue
            i = which(diag["Subject"]["Start"]["Line"], ranges)
            assert i is not None and diag["Summary"] == "Invalid default value for variable", diag
            theirs[i] = diag["Detail"]
        rejected += len(theirs)
        disagreements += disagree(batch, theirs, our_errors(run, ranges), "type = {t}\n  default = {v}")
    SUMMARY.append(
        f"terraform oracle, any in collections: {len(all_pairs)} pairs, {rejected} rejected by Terraform, "
        f"{len(disagreements)} disagreements"
    )
    assert not disagreements, f"{len(disagreements)} disagreements:\n" + "\n".join(disagreements[:30])
