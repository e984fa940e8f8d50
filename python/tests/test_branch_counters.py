"""A sampled branch record's counters word (-j counter) in the package:
element_batches()' counters field, to_pandas("branches")' counters
column and the per-element objects' counters equal the CLI's jsonl
"counters" element by element (and the per-element objects' counts,
the word split by event, the jsonl's "counts"), and the words the kernel emulator was
to write: each record's count of the recorded trace's branches since the
filter's previous kept one, itself included, saturating at the
intel-lbr-counters fixture's 2 bits (caps/branch_counter_width). The
trace is a sw_branch recording of swb_demo; the branch records are
sampled from it by `hwtrace record --emulate-branches`."""
import os

import numpy as np
import pytest

import hwtrace
from conftest import cli, cli_elements

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
FIXTURE = os.path.join(ROOT, "tests", "fixtures", "sysfs", "intel-lbr-counters")
PERIOD, DEPTH, WIDTH = 20, 32, 2
# -j any_call,any_ret: the kinds of the truth the filter keeps.
KEPT = ("call", "return", "syscall", "sysret")
F_BR_COUNTERS = 1 << 16  # HWT_FIELD_BR_COUNTERS (element.h)


def record(swb_capture, tmp_path, name, branch_filter):
    out = tmp_path / f"{name}.data"
    cli("record", "-j", branch_filter, "-c", PERIOD, "--sysfs", FIXTURE,
        "--emulate-branches", swb_capture, "-o", out)
    return str(out)


@pytest.fixture(scope="module")
def counted(swb_capture, tmp_path_factory):
    return record(swb_capture, tmp_path_factory.mktemp("cnt"), "cnt",
                  "any_call,any_ret,u,counter")


def truth_stacks(swb_capture):
    """Each sample's counters words, newest record first, from the
    recorded trace: every PERIOD-th branch samples the last DEPTH kept
    ones."""
    kinds = [e["kind"] for e in cli_elements("--no-symbols", swb_capture)
             if e["type"] == "branch"]
    count, last = [0] * len(kinds), -1
    for j, k in enumerate(kinds):
        if k in KEPT:
            count[j], last = min(j - last, (1 << WIDTH) - 1), j
    stacks = []
    for i in range(PERIOD - 1, len(kinds), PERIOD):
        at = [j for j in range(i, -1, -1) if kinds[j] in KEPT][:DEPTH]
        stacks.append([count[j] for j in at])
    return stacks


def jsonl_stacks(elements):
    """The CLI's sampled branch records as stacks, newest first (depth
    0), in time order."""
    by_time = {}
    for e in elements:
        if e["type"] == "branch":
            by_time.setdefault(e["time"], []).append(e)
    return [[e["counters"] for e in sorted(recs, key=lambda e: e["depth"])]
            for _, recs in sorted(by_time.items())]


def test_counters_are_the_truths_and_the_clis(swb_capture, counted):
    want = cli_elements("--no-symbols", counted)
    stacks = jsonl_stacks(want)
    assert stacks == truth_stacks(swb_capture)
    # Not all one value: the saturated 3 and the unsaturated 1 and 2.
    assert {c for s in stacks for c in s} == {1, 2, 3}
    want_words = [e["counters"] for e in want if e["type"] == "branch"]

    with hwtrace.open(counted) as cap:
        got = [e for e in cap.elements(symbols=False) if e.type == "branch"]
        batch = np.concatenate(list(cap.element_batches(1000)))
        table = cap.to_pandas("branches")
    assert [e.counters for e in got] == want_words
    assert [e["counters"] for e in got] == want_words
    # Split by the file's one event with counters (2 bits): the jsonl's
    # counts, one a record, the word itself.
    want_counts = [e["counts"] for e in want if e["type"] == "branch"]
    assert want_counts == [[w] for w in want_words]
    assert [e["counts"] for e in got] == want_counts
    assert [e.counts for e in got] == want_counts

    branches = batch[batch["type"] == 1]
    assert branches["counters"].tolist() == want_words
    assert ((branches["fields"] & F_BR_COUNTERS) != 0).all()
    # The batch's depth (sync bits 16-31, capture.h) is the jsonl's.
    assert ((branches["sync"] >> 16) & 0xFFFF).tolist() == \
        [e["depth"] for e in want if e["type"] == "branch"]

    assert table["counters"].tolist() == want_words
    assert not table["counters"].isna().any()


def test_no_counters_without_j_counter(swb_capture, tmp_path):
    plain = record(swb_capture, tmp_path, "plain", "any_call,any_ret,u")
    assert not any("counters" in e for e in cli_elements("--no-symbols", plain))
    with hwtrace.open(plain) as cap:
        got = [e for e in cap.elements(symbols=False) if e.type == "branch"]
        batch = np.concatenate(list(cap.element_batches(1000)))
        table = cap.to_pandas("branches")
    assert got and not any("counters" in e for e in got)
    assert (batch["counters"] == 0).all()
    assert len(table) == len(got) and table["counters"].isna().all()
