"""cap.report(), cap.calls() and cap.edges() give what `hwtrace report`,
`decode --calls --format jsonl` and `decode --edges --format jsonl`
print, and report() what call_tree, a program that counts its own calls,
says of itself."""
import json
import re

import hwtrace
from conftest import cli

# `hwtrace report` rows: self insns, self%, total insns, total%, calls,
# then with time self ns, total ns, avg ns, max ns; then the binary and
# the function.
TIMED_ROW = re.compile(r"^ *(\d+) +\S+% +(\d+) +\S+% +(\d+) +(\d+) +(\d+) +"
                       r"(\d+) +(\d+)  (\S+) +(\S.*)$")


def cli_report(path):
    rows = []
    for line in cli("report", "--top", "0", "-j", "1", path).splitlines():
        if line.startswith("#"):
            continue
        m = TIMED_ROW.match(line)
        assert m, f"not a report row: {line!r}"
        rows.append((m.group(9), m.group(8),
                     *map(int, m.group(1, 2, 3, 4, 5, 7))))
    return rows


def py_report(cap, **kw):
    return [(f.name, f.dso, f.insns_self, f.insns_total, f.calls, f.time_self,
             f.time_total, f.duration_max) for f in cap.report(**kw)]


def test_report_equals_hwtrace_report(swb_capture):
    expect = cli_report(swb_capture)
    with hwtrace.open(swb_capture) as cap:
        got = py_report(cap)
        assert py_report(cap, jobs=3) == got
    assert sorted(got) == sorted(expect) and len(got) == len(expect) > 10
    # The table's order: most self instructions first.
    assert [r[2] for r in got] == [r[2] for r in expect]
    # swb_demo's fib(12): 465 calls (its own recursion, from main).
    assert [r[4] for r in got if r[0] == "fib"] == [465]


def test_report_of_call_tree_equals_hwtrace_report(tree_capture):
    # call_tree (tests/programs) runs fib(12): 465 calls, two threads
    # and a signal handler.
    expect = cli_report(tree_capture)
    with hwtrace.open(tree_capture) as cap:
        got = py_report(cap)
    assert sorted(got) == sorted(expect)
    assert [r[4] for r in got if r[0] == "fib"] == [465]


def test_calls_equal_decode_calls(swb_capture):
    lines = cli("decode", "--calls", "--format", "jsonl", "-j", "1",
                swb_capture).splitlines()
    assert json.loads(lines[0])["listing"] == "calls"
    expect = [json.loads(l) for l in lines[1:]]
    for e in expect:
        for k in ("addr", "from"):
            if k in e:
                e[k] = int(e[k], 16)
    with hwtrace.open(swb_capture) as cap:
        got = [dict(c) for c in cap.calls()]
        df = cap.to_pandas("calls")
    assert got == expect and len(got) > 100
    assert len(df) == len(got) and df["sym"].tolist() == [c["sym"] for c in got]


def test_edges_equal_decode_edges(swb_capture):
    lines = cli("decode", "--edges", "--format", "jsonl", "-j", "1",
                swb_capture).splitlines()
    expect = {}
    for l in lines[1:]:
        e = json.loads(l)
        expect[(int(e["from"], 16), int(e["to"], 16))] = e["count"]
    with hwtrace.open(swb_capture) as cap:
        got = cap.edges()
        branches = sum(1 for e in cap.elements(symbols=False)
                       if e.type == "branch")
    assert got == expect
    assert list(got) == sorted(got) and sum(got.values()) == branches


def test_functions_table(swb_capture):
    header = cli("report", "--top", "0", "-j", "1", swb_capture).splitlines()[0]
    insns, funcs = map(int, re.match(r"# (\d+) instructions in (\d+) "
                                     r"functions", header).groups())
    with hwtrace.open(swb_capture) as cap:
        df = cap.to_pandas("functions")
        rows = cap.report()
    assert df["name"].tolist() == [f.name for f in rows]
    assert len(df) == funcs and int(df["insns_self"].sum()) == insns
