#!/usr/bin/env python3
"""Sums up a server's phase log (HCL_TYPES_PHASES=FILE, see crates/project/src/phases.rs):
p50 and p90 of each step between phases, wall-clock and the thread's CPU time, over
the publications that followed a didChange.

    HCL_TYPES_PHASES=/tmp/phases.log KEYS_BENCH_SIZES=10MB KEYS_BENCH_NODE=0 cargo bench --bench keystroke_kinds
    python3 benches/phases.py /tmp/phases.log
"""
import re
import sys


def percentiles(values):
    values = sorted(values)
    return values[len(values) // 2], values[int(len(values) * 0.9)]


def main(path):
    runs = []
    for line in open(path):
        marks = re.findall(r"(\w+)=(-?\d+)/(-?\d+)", line)
        names = [m[0] for m in marks]
        if "did_change" in names:
            runs.append({n: (int(w), int(c)) for n, w, c in marks})
    if not runs:
        sys.exit(f"{path}: no publication after a didChange")
    order = max((list(r) for r in runs), key=len)
    print(f"{len(runs)} keystrokes; µs per step: wall p50 / p90, thread CPU p50 / p90")
    for a, b in zip(order, order[1:]):
        steps = [r for r in runs if a in r and b in r]
        wall = percentiles([r[b][0] - r[a][0] for r in steps])
        # CPU times are per thread: comparable only when both marks are on one.
        cpu = percentiles([r[b][1] - r[a][1] for r in steps])
        same = all(0 <= r[b][1] - r[a][1] <= r[b][0] - r[a][0] + 50 for r in steps)
        cpu_text = f"{cpu[0]:7.0f} {cpu[1]:7.0f}" if same else "  (other thread)"
        print(f"{a:>10} -> {b:<10} {wall[0]:7.0f} {wall[1]:7.0f}   {cpu_text}")
    total = percentiles([r[order[-1]][0] - r[order[0]][0] for r in runs])
    print(f"{order[0]:>10} -> {order[-1]:<10} {total[0]:7.0f} {total[1]:7.0f}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "/tmp/phases.log")
