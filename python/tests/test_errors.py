"""Errors come as Python exceptions with the library's message, and bad
arguments as ValueError/TypeError naming them; never a crash."""
import pytest

import hwtrace
from conftest import cli_failure, data_file


def test_missing_file_says_which(tmp_path):
    missing = tmp_path / "nope.data"
    with pytest.raises(hwtrace.HwtraceError) as ei:
        hwtrace.open(missing)
    # The CLI's message for the same file is the library's.
    assert (1, str(ei.value)) == cli_failure("decode", missing)
    assert str(ei.value) == f"{missing} does not exist"
    assert ei.value.name == "noent"


def test_non_perf_file_is_refused_with_the_cli_message(tmp_path):
    junk = tmp_path / "junk.data"
    junk.write_bytes(b"this is not a perf.data file\n" * 20)
    with pytest.raises(hwtrace.HwtraceError) as ei:
        hwtrace.open(junk)
    assert (1, str(ei.value)) == cli_failure("decode", junk)
    assert str(ei.value).startswith(f"{junk}: not a perf.data file (byte "
                                    "offset 0 holds")
    assert ei.value.name == "format"


def test_snapshot_that_is_not_a_directory(tmp_path):
    with pytest.raises(hwtrace.HwtraceError, match="snapshot|directory"):
        hwtrace.open(snapshot=tmp_path / "none")


@pytest.mark.parametrize("kw,exc,text", [
    ({"cpu": -1}, ValueError, "cpu=-1"),
    ({"cpu": "0"}, TypeError, "cpu must be an int"),
    ({"tid": 1.5}, TypeError, "tid must be an int"),
    ({"time": (5, 1)}, ValueError, "start is after the end"),
    ({"time": 5}, TypeError, "time must be a pair"),
    ({"jobs": 0}, ValueError, "jobs=0"),
    ({"order": "random"}, ValueError, "order='random'"),
])
def test_bad_filters_name_the_argument(swb_capture, kw, exc, text):
    with hwtrace.open(swb_capture) as cap:
        with pytest.raises(exc, match=text):
            cap.elements(**kw)


def test_bad_open_arguments():
    with pytest.raises(TypeError, match="one of path"):
        hwtrace.open()
    with pytest.raises(TypeError, match="path"):
        hwtrace.open(42)
    with pytest.raises(TypeError, match="give raw= too"):
        hwtrace.open(data_file("perf-data", "simpleperf-lbr", "perf_lbr.data"),
                     maps=[("x", 1)])


def test_a_closed_capture_is_refused(swb_capture):
    cap = hwtrace.open(swb_capture)
    it = cap.elements()
    next(it)
    cap.close()  # stops the running decode first
    with pytest.raises(ValueError, match="closed"):
        cap.elements()
    assert list(it) == []


def test_unknown_raw_backend_says_so(tmp_path):
    f = tmp_path / "t.bin"
    f.write_bytes(b"\0" * 64)
    with pytest.raises(hwtrace.HwtraceError, match="nosuch"):
        hwtrace.open(raw=("nosuch", f))
