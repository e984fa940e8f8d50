#!/usr/bin/env python3
"""The hottest loops: backward taken branches (a jump or conditional
branch to a lower address, the back edge of a loop) by how often they
were taken, with the function they are in. NumPy batches do the
counting, with no Python object per element.

    hot_loops.py CAPTURE [--top N]
"""
import argparse

import numpy as np

import hwtrace

BRANCH, JUMP, COND = 1, 2, 3  # element type, branch kinds (element.h)


def back_edges(cap):
    """{(from, to): times taken} of the backward jumps and conditional
    branches."""
    counts = {}
    for b in cap.element_batches():
        back = b[(b["type"] == BRANCH) & np.isin(b["kind"], (JUMP, COND)) &
                 (b["to"] <= b["from"])]
        pairs, n = np.unique(np.stack([back["from"], back["to"]], axis=1),
                             axis=0, return_counts=True)
        for (f, t), c in zip(pairs.tolist(), n.tolist()):
            counts[(f, t)] = counts.get((f, t), 0) + c
    return counts


def function_names(cap, addresses):
    """The function holding each of @addresses, from the elements'
    symbols."""
    names = {}
    for e in cap.elements():
        if e.type == "branch" and e["from"] in addresses:
            names.setdefault(e["from"], e.get("from_sym", "?"))
    return names


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("capture")
    ap.add_argument("--top", type=int, default=10)
    args = ap.parse_args()
    with hwtrace.open(args.capture) as cap:
        loops = sorted(back_edges(cap).items(), key=lambda kv: (-kv[1], kv[0]))
        top = loops[:args.top]
        names = function_names(cap, {f for (f, _), _ in top})
    print(f"{len(loops)} loops")
    for (f, t), n in top:
        print(f"{n:10d}  {f:#x} -> {t:#x}  {names.get(f, '?')}")


if __name__ == "__main__":
    main()
