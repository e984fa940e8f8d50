"""Units from Python: cap.units() lists what `hwtrace units` lists, and
each unit decoded on its own, in a process of its own, gives elements
that merged back are the whole decode: concatenated in unit order they
are `decode --per-cpu`'s, merged by time per CPU they are `decode`'s
(the CLI is the oracle)."""
import heapq
import json
import os
import subprocess
import sys

import pytest

import hwtrace
from conftest import cli, cli_elements, data_file

QUIPPER = ("perf-data", "quipper", "perf.data.intel_pt-4.14")

# One unit's elements as jsonl, decoded by a fresh interpreter.
ONE_UNIT = """
import json, sys, warnings
import hwtrace
warnings.simplefilter("ignore", hwtrace.HwtraceWarning)
with hwtrace.open(sys.argv[1]) as cap:
    for e in cap.elements(unit=int(sys.argv[2])):
        print(json.dumps(e))
"""


def unit_elements(path, number):
    p = subprocess.run([sys.executable, "-c", ONE_UNIT, path, str(number)],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       env=os.environ)
    assert p.returncode == 0, p.stderr.decode(errors="replace")
    return [json.loads(l) for l in p.stdout.decode().splitlines()]


def without_detail(elements):
    """The elements without a gap's "detail": a decode says why an
    image is missing at its first gap only, so a unit decoded alone says
    it again where the whole decode said it before."""
    return [{k: v for k, v in e.items() if k != "detail"} for e in elements]


def test_units_are_the_cli_units():
    path = data_file(*QUIPPER)
    expect = [json.loads(l) for l in cli("units", path).splitlines()]
    with hwtrace.open(path) as cap:
        got = cap.units()
    assert len(got) == len(expect) == 9
    assert [u.number for u in got] == [e["unit"] for e in expect]
    assert {u.cpu for u in got} == {0, 3}


def test_each_unit_in_its_own_process_merges_to_the_whole_decode():
    path = data_file(*QUIPPER)
    with hwtrace.open(path) as cap:
        units = cap.units()
    parts = [unit_elements(path, u.number) for u in units]
    assert all(parts) and len(parts) == 9
    whole_cpu = cli_elements("--per-cpu", path)
    whole = cli_elements(path)
    assert len(whole) == 629
    joined = [e for p in parts for e in p]
    assert without_detail(joined) == without_detail(whole_cpu)
    # Where the whole decode says why, the unit's element says the same.
    for got, want in zip(joined, whole_cpu):
        if "detail" in want:
            assert got["detail"] == want["detail"]
    assert sum("detail" in e for e in joined) > sum(
        "detail" in e for e in whole_cpu)
    # Each CPU's units one after the other, the CPUs merged by time.
    by_queue = {}
    for u, p in zip(units, parts):
        by_queue.setdefault(u.queue, []).extend(without_detail(p))
    assert len(by_queue) == 2
    merged = list(heapq.merge(*by_queue.values(),
                              key=lambda e: e.get("time", 0)))
    assert merged == without_detail(whole)


def test_batches_of_a_unit_are_its_elements():
    import numpy as np
    path = data_file(*QUIPPER)
    with hwtrace.open(path) as cap:
        n = len(list(cap.elements(unit=2, symbols=False)))
        a = np.concatenate(list(cap.element_batches(64, unit=2)))
        starts = [e["start"] for e in cap.elements(unit=2) if
                  e["type"] == "range"]
    assert len(a) == n == 92
    assert list(a["from"][a["type"] == 0]) == starts


def test_a_unit_the_capture_lacks_is_refused():
    path = data_file(*QUIPPER)
    with hwtrace.open(path) as cap:
        with pytest.raises(ValueError, match="unit=10: .* has 9 units"):
            cap.elements(unit=10)
        with pytest.raises(ValueError, match="unit=0"):
            cap.elements(unit=0)
    snap = data_file("opencsd", "ete_mem")
    with hwtrace.open(snapshot=snap) as cap:
        with pytest.raises(hwtrace.HwtraceError):
            cap.units()
