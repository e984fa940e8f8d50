# branch_samples.py: the branch records of a jsonl decode of a
# branch-record capture, grouped by sample (a sample's records share its
# time), in file order; each sample's records newest first (entry 0, the
# least depth, first), as perf script -F brstack prints them.
import json


def branch_samples(path):
    samples = {}
    for e in map(json.loads, open(path)):
        if e["type"] == "branch":
            samples.setdefault(e["time"], []).append(e)
    for recs in samples.values():
        recs.sort(key=lambda e: e["depth"])
        yield recs
