"""element_batches() and to_pandas() hold what the per-element path
gives: the same elements in the same order, field by field, at every
batch size; and to_pandas' tables are those batches."""
import numpy as np
import pytest

import hwtrace
from conftest import data_file

LBR = ("perf-data", "simpleperf-lbr", "perf_lbr.data")
TYPES = ("range", "branch", "trace_on", "trace_off", "timestamp", "context",
         "gap", "error", "sample")
KINDS = ("call", "return", "jump", "cond", "indirect", "syscall", "sysret",
         "exception", "interrupt", "eret")


def expected_row(e):
    """What a batch's record holds for the jsonl element @e
    (struct hwt_elem_record, capture.h: field by field, 0 when not
    known)."""
    t = e["type"]
    row = {"type": TYPES.index(t), "cpu": e.get("cpu", 0),
           "pid": e.get("pid", 0), "tid": e.get("tid", 0),
           "time": e.get("time", 0)}
    if t == "range":
        row.update({"from": e["start"], "to": e["end"], "count": e["insns"]})
    elif t == "branch":
        row.update({"from": e["from"], "to": e["to"],
                    "count": e.get("weight", 0)})
        if "kind" in e:
            row["kind"] = KINDS.index(e["kind"])
    elif t in ("trace_on", "trace_off"):
        row["from"] = e.get("at", 0)
    elif t == "gap":
        row["count"] = e.get("bytes", 0)
    return row


def check_batches(cap, n, **kw):
    want = [expected_row(e) for e in cap.elements(symbols=False, **kw)]
    got = np.concatenate(list(cap.element_batches(n, **kw)))
    assert len(got) == len(want) > 0
    for name in ("type", "cpu", "pid", "tid", "time", "from", "to", "count",
                 "kind"):
        col = [w.get(name, None) for w in want]
        idx = [i for i, v in enumerate(col) if v is not None]
        assert got[name][idx].tolist() == [col[i] for i in idx], name
    return got


@pytest.mark.parametrize("n", [1, 1000, 65536])
def test_batches_equal_the_elements_of_a_sw_branch_capture(swb_capture, n):
    with hwtrace.open(swb_capture) as cap:
        check_batches(cap, n)
        sizes = [len(b) for b in cap.element_batches(n)]
    assert sizes[:-1] == [n] * (len(sizes) - 1) and 0 < sizes[-1] <= n


def test_batch_sizes_and_filters(swb_capture):
    with hwtrace.open(swb_capture) as cap:
        sizes = [len(b) for b in cap.element_batches(700)]
        total = len(list(cap.elements(symbols=False)))
        tid = next(e.tid for e in cap.elements() if "tid" in e)
        check_batches(cap, 500, tid=tid, jobs=2)
    # Every batch is full but the last.
    assert sum(sizes) == total and sizes[:-1] == [700] * (len(sizes) - 1)
    assert 0 < sizes[-1] <= 700


def test_a_dropped_batch_is_filled_again_a_held_one_never(swb_capture):
    # Every batch held: each its own array, none changed by the later ones.
    with hwtrace.open(swb_capture) as cap:
        held = list(cap.element_batches(700))
        whole = check_batches(cap, 700)
        # Each batch dropped once copied: two arrays take turns (a for
        # loop's name still holds the last while the next is filled), the
        # short last batch is a copy of its own.
        copies, addresses = [], set()
        for b in cap.element_batches(700):
            addresses.add(b.__array_interface__["data"][0])
            copies.append(b.copy())
        # A view of each batch kept: its base is held, so never refilled.
        views = [b["from"] for b in cap.element_batches(700)]
    assert len(held) == len(copies) > 5
    assert len({b.__array_interface__["data"][0] for b in held}) == len(held)
    assert np.array_equal(np.concatenate(held), whole)
    assert len(addresses) == 3
    assert np.array_equal(np.concatenate(copies), whole)
    assert np.array_equal(np.concatenate(views), whole["from"])


def test_batches_keep_sampled_branch_records():
    with hwtrace.open(data_file(*LBR)) as cap:
        got = check_batches(cap, 100)
        els = list(cap.elements(symbols=False))
    # cycles, depth, flags, priv packed in sync (capture.h).
    cycles = got["sync"] & 0xffff
    depth = (got["sync"] >> 16) & 0xffff
    assert depth.tolist() == [e["depth"] for e in els]
    assert [int(c) for c, e in zip(cycles, els) if "cycles" in e] == [
        e["cycles"] for e in els if "cycles" in e]


def test_to_pandas_elements_and_branches(swb_capture):
    with hwtrace.open(swb_capture) as cap:
        els = list(cap.elements(symbols=False))
        df = cap.to_pandas("elements")
        br = cap.to_pandas("branches")
    assert len(df) == len(els)
    assert df["type"].tolist() == [e["type"] for e in els]
    assert df["time"].tolist() == [e["time"] for e in els]
    branches = [e for e in els if e["type"] == "branch"]
    assert len(br) == len(branches)
    assert br["from"].tolist() == [e["from"] for e in branches]
    assert br["kind"].tolist() == [e["kind"] for e in branches]
    assert br["tid"].tolist() == [e["tid"] for e in branches]
    # sw_branch is per thread: no CPU, which pandas shows as missing.
    assert br["cpu"].isna().all()


def test_batch_arguments_are_checked(swb_capture):
    with hwtrace.open(swb_capture) as cap:
        with pytest.raises(ValueError, match="n=0"):
            list(cap.element_batches(0))
        with pytest.raises(ValueError, match="to_pandas"):
            cap.to_pandas("nothing")
