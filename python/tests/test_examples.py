"""The scripts of python/examples, run as a user runs them, answer what
the CLI's own listings say."""
import json
import os
import re
import subprocess
import sys

from conftest import cli

EXAMPLES = os.path.join(os.path.dirname(__file__), "..", "examples")


def run(script, *args):
    p = subprocess.run([sys.executable, "-W", "ignore",
                        os.path.join(EXAMPLES, script), *args],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert p.returncode == 0, p.stderr.decode(errors="replace")
    return p.stdout.decode()


def report_rows(path):
    text = cli("report", "--top", "0", "-j", "1", path)
    total = int(re.match(r"# (\d+) instructions", text).group(1))
    selfs = {}
    for line in text.splitlines():
        if not line.startswith("#"):
            f = line.split()
            selfs[f[-1]] = int(f[0])
    return total, selfs


def test_hot_paths(swb_capture):
    out = run("hot_paths.py", swb_capture, "--top", "1000").splitlines()
    total, selfs = report_rows(swb_capture)
    assert out[0].startswith(f"{total} instructions in ")
    paths = {l.split()[2]: int(l.split()[0]) for l in out[1:]}
    assert sum(paths.values()) == total
    # is_prime is a leaf only main calls: its one path holds its
    # self instructions in hwtrace report.
    assert paths["main;is_prime"] == selfs["is_prime"] > 0


def test_latency_histogram(swb_capture):
    calls = [json.loads(l) for l in cli("decode", "--calls", "--format",
                                        "jsonl", swb_capture).splitlines()[1:]]
    t_main = next(c["time"] for c in calls
                  if c["type"] == "call" and c["sym"] == "main")
    t_fib = next(c["time"] for c in calls
                 if c["type"] == "call" and c["sym"] == "fib")
    out = run("latency.py", swb_capture, "main", "fib").splitlines()
    want = t_fib - t_main
    assert out[0] == "1 latencies from main to fib"
    assert out[1] == f"min {want} ns, max {want} ns"
    low = 1 << (want.bit_length() - 1)
    assert re.match(rf"\[ *{low}, *{2 * low}\) ns +1 #+$", out[2])


def test_hot_loops(swb_capture):
    edges = {}
    for l in cli("decode", "--edges", "--format", "jsonl",
                 swb_capture).splitlines()[1:]:
        e = json.loads(l)
        edges[(int(e["from"], 16), int(e["to"], 16))] = e["count"]
    syms = {}
    for l in cli("decode", "--format", "jsonl", swb_capture).splitlines()[1:]:
        e = json.loads(l)
        if e["type"] == "branch":
            syms.setdefault(int(e["from"], 16), e.get("from_sym", "?"))
    out = run("hot_loops.py", swb_capture, "--top", "5").splitlines()
    assert re.match(r"\d+ loops$", out[0])
    rows = [l.split() for l in out[1:]]
    assert len(rows) == 5
    for n, f, _, t, name in rows:
        f, t = int(f, 16), int(t, 16)
        assert t <= f and edges[(f, t)] == int(n) and syms[f] == name
    assert [int(r[0]) for r in rows] == sorted((int(r[0]) for r in rows),
                                               reverse=True)
    # swb_demo's is_prime loop runs once per trial divisor.
    assert "is_prime" in [r[4] for r in rows]
