#!/usr/bin/env python3
"""The hottest call paths of one thread: instructions run in each
distinct stack of functions (main;work;leaf), most first.

    hot_paths.py CAPTURE [--tid TID] [--top N]
"""
import argparse
from collections import Counter

import hwtrace


def hot_paths(cap, tid=None):
    """{path: instructions run in the path's innermost function}."""
    paths = Counter()
    stacks = {}  # tid -> the open frames' names, outermost first
    for rec in cap.calls(tid=tid):
        stack = stacks.setdefault(rec.tid, [])
        if rec.type == "call":
            # A caller seen only when its callee returned (inferred,
            # below the outermost frame) goes under the stack.
            if rec.start == "inferred" and stack:
                stack.insert(0, rec.sym)
            else:
                stack.append(rec.sym)
            continue
        # A return ends the innermost frame: its own instructions.
        paths[";".join(stack)] += rec.get("insns_self", 0)
        if stack:
            stack.pop()
    return paths


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("capture")
    ap.add_argument("--tid", type=int)
    ap.add_argument("--top", type=int, default=10)
    args = ap.parse_args()
    with hwtrace.open(args.capture) as cap:
        paths = hot_paths(cap, args.tid)
    total = sum(paths.values())
    print(f"{total} instructions in {len(paths)} call paths")
    for path, insns in paths.most_common(args.top):
        print(f"{insns:10d} {100 * insns / max(total, 1):6.2f}%  {path}")


if __name__ == "__main__":
    main()
