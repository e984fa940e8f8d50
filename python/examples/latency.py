#!/usr/bin/env python3
"""Time from entering one function to entering another, per call of the
first: a latency histogram (powers of two of ns).

    latency.py CAPTURE FROM_FUNC TO_FUNC
"""
import argparse
from collections import Counter

import hwtrace


def latencies(cap, start, end):
    """The ns from each call of @start to the next call of @end in the
    same thread (a call of @start without one is left out)."""
    pending, out = {}, []
    for rec in cap.calls():
        if rec.type != "call" or "time" not in rec:
            continue
        if rec.sym == start:
            pending.setdefault(rec.tid, rec.time)
        elif rec.sym == end and rec.tid in pending:
            out.append(rec.time - pending.pop(rec.tid))
    return out


def histogram(values):
    """{(low, high): count} over buckets [2^k, 2^(k+1)) ns."""
    buckets = Counter()
    for v in values:
        k = max(v, 1).bit_length() - 1
        buckets[(1 << k, 1 << (k + 1))] += 1
    return dict(sorted(buckets.items()))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("capture")
    ap.add_argument("start")
    ap.add_argument("end")
    args = ap.parse_args()
    with hwtrace.open(args.capture) as cap:
        values = latencies(cap, args.start, args.end)
    print(f"{len(values)} latencies from {args.start} to {args.end}")
    if not values:
        return
    print(f"min {min(values)} ns, max {max(values)} ns")
    buckets = histogram(values)
    width = max(buckets.values())
    for (low, high), n in buckets.items():
        bar = "#" * max(1, 40 * n // width)
        print(f"[{low:>12}, {high:>12}) ns {n:8d} {bar}")


if __name__ == "__main__":
    main()
