#!/usr/bin/env python3
"""Peak memory of the language server opening a small file beside a big one.

    benches/lsp_memory.py target/release/hcl-types DIR [DIR...]

For each DIR (a module holding one big generated file, see `tools/gen-hcl.py --worst`),
writes DIR/small.tf, starts `BIN lsp` with DIR as the workspace, opens small.tf and waits
for its diagnostics and then for 2 s of quiet (the server analyses the whole module,
the big file included). Prints the seconds to the first publication of small.tf and the
server's peak resident set (VmHWM from /proc), then shuts the server down.
See BENCHMARKS.md, "Memory per source byte".
"""
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tests", "e2e"))
from rawlsp import RawServer  # noqa: E402

SMALL = 'variable "small" {\n  type = string\n}\n'


def hwm(pid):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024
    return 0


def measure(binary, d):
    d = os.path.abspath(d)
    small = os.path.join(d, "small.tf")
    with open(small, "w") as f:
        f.write(SMALL)
    big = sum(os.path.getsize(os.path.join(d, n)) for n in os.listdir(d) if n != "small.tf")
    s = RawServer([binary, "lsp"], cwd=d)
    try:
        s.initialize(d)
        uri = "file://" + small
        t0 = time.monotonic()
        s.notify("textDocument/didOpen", {"textDocument": {
            "uri": uri, "languageId": "terraform", "version": 1, "text": SMALL}})
        s.wait_notification("textDocument/publishDiagnostics", lambda p: p.get("uri") == uri, timeout=600)
        first = time.monotonic() - t0
        s.drain(quiet=2.0)
        peak = hwm(s.proc.pid)
        s.request("shutdown", None, timeout=60)
        s.notify("exit")
        s.wait_exit(timeout=30)
        return big, first, peak
    finally:
        s.close()


def main():
    binary = sys.argv[1]
    for d in sys.argv[2:]:
        big, first, peak = measure(binary, d)
        print("%-14s big=%6.1fMB first=%6.2fs peak=%8.1fMB ratio=%6.1f" % (
            os.path.basename(d.rstrip("/")), big / 1e6, first, peak / 2**20, peak / big))


if __name__ == "__main__":
    main()
