"""Gaps are read from their records (not written as jsonl lines and
parsed): on a generated sw_branch capture with gaps of every kind it
makes (with and without a detail text, with bytes), across many batches,
each element equals what `hwtrace decode --format jsonl` prints for it
(the CLI is the oracle). Context changes, read the same way, are in the
ETM capture test_elements compares."""
import pytest

import hwtrace
import hwtrace.elements as E


@pytest.fixture
def whole_lines(monkeypatch):
    """Counts the elements made from their own jsonl line."""
    calls = []
    written = E._whole_line

    def counted(*args):
        calls.append(args)
        return written(*args)

    monkeypatch.setattr(E, "_whole_line", counted)
    return calls


@pytest.mark.parametrize("symbols", [True, False])
def test_gaps_read_from_records_equal_the_cli(gap_capture, gap_listing,
                                              whole_lines, symbols):
    expect = gap_listing[symbols]
    gaps = [e for e in expect if e["type"] == "gap"]
    # Positive control: the capture has gaps of each shape read here.
    assert any("detail" in g for g in gaps)
    assert any("detail" not in g for g in gaps)
    assert any("bytes" in g for g in gaps)
    with hwtrace.open(gap_capture) as cap:
        # Small batches: annotation ids and gaps in many of them.
        got = [dict(e) for e in cap.elements(symbols=symbols, batch=512)]
    assert got == expect
    assert whole_lines == []


def test_gap_fields_read_lazily_equal_the_cli(gap_capture, gap_listing):
    expect = [e for e in gap_listing[True] if e["type"] == "gap"]
    with hwtrace.open(gap_capture) as cap:
        gaps = [e for e in cap.elements() if e["type"] == "gap"]
    # Read after the batches are gone: each gap kept what it needs.
    assert [e.reason for e in gaps] == [g["reason"] for g in expect]
    assert [e.get("detail") for e in gaps] == [g.get("detail")
                                               for g in expect]
    assert [dict(e) for e in gaps] == expect
