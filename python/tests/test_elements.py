"""cap.elements() gives exactly what `hwtrace decode --format jsonl`
prints (the CLI is the oracle), on the real captures of testdata and a
sw_branch recording: every element, every field, symbols included, and
with the CLI's filters, orders and job counts."""
import re

import pytest

import hwtrace
from conftest import cli, cli_elements, data_file

QUIPPER = ("perf-data", "quipper", "perf.data.intel_pt-4.14")
ETM = ("perf-data", "simpleperf-etm", "perf_etm.data")
LBR = ("perf-data", "simpleperf-lbr", "perf_lbr.data")


def elements(cap, **kw):
    return [dict(e) for e in cap.elements(**kw)]


@pytest.mark.parametrize("parts,count", [(QUIPPER, 629), (LBR, 386)])
def test_perf_data_captures_equal_the_cli(parts, count):
    path = data_file(*parts)
    expect = cli_elements(path)
    assert len(expect) == count
    with hwtrace.open(path) as cap:
        assert elements(cap) == expect
        assert elements(cap, jobs=3) == expect


def test_etm_capture_with_its_binary_has_the_cli_symbols(etm_symfs):
    path = data_file(*ETM)
    expect = cli_elements("--symfs", etm_symfs, path)
    # Positive control: the binary is found, so ranges are named.
    named = [e for e in expect if e.get("sym")]
    assert len(expect) > 100 and named
    with hwtrace.open(path, symfs=etm_symfs) as cap:
        got = elements(cap)
    assert got == expect
    assert [e["sym"] for e in got if e.get("sym")] == [e["sym"] for e in named]


def test_no_symbols_leaves_the_symbol_fields_out(etm_symfs):
    path = data_file(*ETM)
    expect = cli_elements("--symfs", etm_symfs, "--no-symbols", path)
    assert not any("sym" in e or "dso" in e for e in expect)
    with hwtrace.open(path, symfs=etm_symfs) as cap:
        assert elements(cap, symbols=False) == expect


def test_sampled_branch_records_keep_their_fields():
    # LBR records carry depth, weight, mispred and cycles: the record
    # a cursor hands over must keep them (capture.h).
    with hwtrace.open(data_file(*LBR)) as cap:
        got = list(cap.elements())
    first = got[1]
    assert (first.type, first.depth, first.weight, first.mispred,
            first.cycles) == ("branch", 0, 1208, False, 22)
    assert first.from_ == 0x5597dfefd94d and first.to == 0x5597dfefd940


def test_snapshot_directory_equals_the_cli():
    snap = data_file("opencsd", "ete_mem")
    expect = cli_elements("--snapshot", snap)
    assert len(expect) == 3288
    with hwtrace.open(snapshot=snap) as cap:
        assert cap.info.kind == "snapshot_dir"
        assert elements(cap) == expect


def test_raw_stream_with_maps_equals_the_cli():
    pt = data_file("ptt", "expected", "loop-tnt.pt")
    code = data_file("ptt", "expected", "loop-tnt.bin")
    expect = cli_elements("--raw", "intel_pt:" + pt, "--map", code + "@0x100000")
    assert len(expect) == 8
    with hwtrace.open(raw=("intel_pt", pt), maps=[(code, 0x100000)]) as cap:
        assert cap.info.kind == "raw" and cap.info.backend == "intel_pt"
        assert elements(cap) == expect


def test_sw_branch_recording_equals_the_cli(swb_capture):
    expect = cli_elements(swb_capture)
    calls = [e for e in expect if e.get("kind") == "call"]
    assert len(expect) > 1000
    assert any(e.get("to_sym") == "fib" for e in calls)
    with hwtrace.open(swb_capture) as cap:
        got = elements(cap)
        assert got == expect
        assert elements(cap, order="cpu") == cli_elements("--per-cpu",
                                                          swb_capture)


def test_filters_equal_the_cli_filters(swb_capture):
    all_ = cli_elements(swb_capture)
    times = [e["time"] for e in all_ if "time" in e]
    a, b = times[len(times) // 4], times[len(times) // 2]
    tid = next(e["tid"] for e in all_ if "tid" in e)
    with hwtrace.open(swb_capture) as cap:
        by_time = elements(cap, time=(a, b))
        assert by_time == cli_elements("--time", f"{a},{b}", swb_capture)
        assert 0 < len(by_time) < len(all_)
        assert elements(cap, time=(a, None)) == cli_elements(
            "--time", f"{a},", swb_capture)
        assert elements(cap, tid=tid) == cli_elements("--tid", tid,
                                                      swb_capture)
        assert elements(cap, tid=tid + 100000) == []
    quipper = data_file(*QUIPPER)
    with hwtrace.open(quipper) as cap:
        for cpu in cap.info.cpus:
            assert elements(cap, cpu=cpu) == cli_elements("--cpu", cpu,
                                                          quipper)


def test_attributes_read_the_fields(swb_capture):
    with hwtrace.open(swb_capture) as cap:
        e = next(e for e in cap.elements() if e.type == "branch")
    assert e.from_ == e["from"] and e.kind == e["kind"]
    with pytest.raises(AttributeError, match="no field 'insns'"):
        e.insns


def test_info_is_the_capture_facts(swb_capture):
    path = data_file(*QUIPPER)
    # The oracle: `hwtrace info` (whose buffers perf report -D confirms:
    # testdata's *.perf-report-D.txt).
    text = cli("info", path)
    threads = re.findall(r"^  (\d+)/(\d+) ", text, re.M)
    missing = re.findall(r"^  (\S+) MISSING$", text, re.M)
    last = int(re.search(r"^time: +\d+ \.\. (\d+)", text, re.M).group(1))
    with hwtrace.open(path) as cap:
        info = cap.info
    assert info.backend == "intel_pt" and info.kind == "perf_data"
    assert info.cpus == [0, 3]
    assert [(q.cpu, q.bytes) for q in info.queues] == [(0, 12240), (3, 137728)]
    # hwt_capture_threads names the threads of COMM, FORK and
    # ITRACE_START records: echo's; `hwtrace info` lists 13 more, seen
    # in other records.
    assert len(threads) == 14
    assert [(t.pid, t.tid) for t in info.threads] == [(3174, 3174)]
    assert {(t.pid, t.tid) for t in info.threads} <= {
        (int(p), int(t)) for p, t in threads}
    assert missing and set(missing) <= set(info.missing_binaries)
    assert info.time_span[1] == last
    assert info.losses.lost_events == 0 and info.losses.truncated == 0
    with hwtrace.open(swb_capture) as cap:
        info = cap.info
    # sw_branch writes Intel BTS records (docs/sw-branch.md).
    assert info.backend == "intel_bts" and info.cpus == []
    assert any(n.name == "swb_demo" for n in info.names)


def test_info_tasks_switches_build_ids():
    path = data_file(*QUIPPER)
    # The oracles: perf report -D's COMM records and perf buildid-list's
    # table, saved beside the capture.
    with open(path + ".perf-report-D.txt") as f:
        comms = [(int(m.group(3)), int(m.group(4)), int(m.group(1)), m.group(2))
                 for m in re.finditer(r"^\S+ (\d+) \S+ \S+ PERF_RECORD_COMM"
                                      r"(?: exec)?: (.*):(\d+)/(\d+)$",
                                      f.read(), re.M)]
    with open(path + ".buildids") as f:
        ids = sorted((p_, i) for i, p_ in (line.split(" ", 1)
                                          for line in f.read().splitlines()))
    with hwtrace.open(path) as cap:
        info = cap.info
    assert len(comms) == 3
    assert [(t.pid, t.tid, t.time, t.name) for t in info.tasks] == comms
    assert not any(t.fork for t in info.tasks)
    assert sorted(info.build_ids) == ids
    # Every switch names echo (3174) on one side: no other thread has a
    # COMM record, and the idle task alone is left out.
    assert len(info.switches) == 60
    assert all((3174, 3174) in (s.out_thread, s.in_thread)
               for s in info.switches)
    assert [s.time for s in info.switches] == sorted(s.time for s in info.switches)


def test_disasm_ranges_equal_the_cli(swb_capture):
    # Ranges with instruction text are written whole by the library; the
    # others are read from their records: both as --disasm prints them.
    expect = cli_elements("--disasm", swb_capture)
    assert sum("insn" in e for e in expect) > 1000
    with hwtrace.open(swb_capture) as cap:
        assert elements(cap, disasm=True) == expect
    expect = cli_elements("--disasm", "--no-symbols", swb_capture)
    with hwtrace.open(swb_capture) as cap:
        assert elements(cap, disasm=True, symbols=False) == expect


def test_json_and_pickle_see_every_field(swb_capture):
    import json
    import pickle
    expect = cli_elements(swb_capture)[:50]
    with hwtrace.open(swb_capture) as cap:
        got = list(cap.elements())[:50]
    assert [json.loads(json.dumps(e)) for e in got] == expect
    assert [dict(pickle.loads(pickle.dumps(e))) for e in got] == expect
    # A field read first (here "to") makes the rest as well.
    b = next(e for e in got if e["type"] == "branch")
    assert isinstance(b["to"], int) and len(b) == len(dict(b))
