"""elements(types=...) gives only the elements of those types, in the
order and with the fields `hwtrace decode --format jsonl` prints them
(the CLI's full listing, filtered by type, is the oracle); a wrong
types argument is an error naming it."""
import pytest

import hwtrace
from conftest import cli_elements, data_file

QUIPPER = ("perf-data", "quipper", "perf.data.intel_pt-4.14")


@pytest.mark.parametrize("types", ["branch", ("gap", "trace_on"),
                                   ["range", "trace_off", "context"]])
@pytest.mark.parametrize("symbols", [True, False])
def test_types_equal_the_cli_filtered(gap_capture, gap_listing, types,
                                      symbols):
    names = {types} if isinstance(types, str) else set(types)
    flags = () if symbols else ("--no-symbols",)
    quipper = data_file(*QUIPPER)
    for path, every in ((gap_capture, gap_listing[symbols]),
                        (quipper, cli_elements(*flags, quipper))):
        expect = [e for e in every if e["type"] in names]
        # Positive control: the filter leaves some out and keeps some.
        assert 0 < len(expect) < len(every)
        with hwtrace.open(path) as cap:
            got = [dict(e) for e in cap.elements(symbols=symbols,
                                                 types=types, batch=700)]
        assert got == expect


def test_bad_types_name_the_argument():
    with hwtrace.open(data_file(*QUIPPER)) as cap:
        with pytest.raises(ValueError, match=r"types: 'branches' is not an "
                           r"element type \(expected one of range, branch"):
            cap.elements(types="branches")
        with pytest.raises(ValueError, match="types: 'unknown'"):
            cap.elements(types=["branch", "unknown"])
        with pytest.raises(TypeError, match="types must be a type name"):
            cap.elements(types=1)
