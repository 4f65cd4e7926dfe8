#!/usr/bin/env python3
"""Device ops of two Studio traces side by side, per rank in start order: name, duration in A and B, B / A.

    scripts/op_spans.py MEASURED.json PREDICTED.json [--rank R]

For a measured run beside the simulator's prediction of it (docs/simulation.md, "Mixture of experts"). The k-th
op of a name on a rank in A is paired with the k-th of that name in B; an op only one side has is shown with a dash.
"""
import argparse
import json
from collections import defaultdict


def device_ops(path, rank):
    with open(path, encoding="utf-8") as f:
        trace = json.load(f)
    events = trace["traceEvents"] if isinstance(trace, dict) else trace
    ops = [e for e in events if e.get("ph") == "X" and e.get("pid") == rank and e["args"].get("stream", -1) >= 0]
    return sorted(ops, key=lambda e: e["ts"])


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("a")
    p.add_argument("b")
    p.add_argument("--rank", type=int, default=0)
    args = p.parse_args()
    b_by_name = defaultdict(list)
    for e in device_ops(args.b, args.rank):
        b_by_name[e["name"]].append(e)
    seen = defaultdict(int)
    print("| op | A us | B us | B / A |")
    print("|---|---|---|---|")
    for e in device_ops(args.a, args.rank):
        k = seen[e["name"]]
        seen[e["name"]] += 1
        other = b_by_name[e["name"]][k] if k < len(b_by_name[e["name"]]) else None
        b = "-" if other is None else "%.1f" % other["dur"]
        ratio = "-" if other is None or e["dur"] == 0 else "%.2f" % (other["dur"] / e["dur"])
        print("| %s | %.1f | %s | %s |" % (e["name"], e["dur"], b, ratio))
    for name, bars in b_by_name.items():
        for e in bars[seen[name]:]:
            print("| %s | - | %.1f | - |" % (name, e["dur"]))


if __name__ == "__main__":
    main()
