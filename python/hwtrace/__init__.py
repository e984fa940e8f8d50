"""hwtrace: hardware traces (Intel PT, BTS, CoreSight, RISC-V N-Trace,
branch records, sw_branch) from Python, over libhwtrace.so through
ctypes. See docs/python.md.

    import hwtrace
    with hwtrace.open("perf.data") as cap:
        print(cap.info.backend, cap.info.time_span)
        for e in cap.elements(tid=1234):
            if e.type == "branch" and e.kind == "call":
                print(hex(e.to), e.get("to_sym"))
"""
from .capture import Capture, open
from .elements import Element
from .errors import HwtraceError, HwtraceWarning, LibraryNotFound
from .record import RecordSummary, Recording, RingSummary, record

__all__ = ["open", "Capture", "Element", "HwtraceError", "HwtraceWarning",
           "LibraryNotFound", "library_version", "record", "Recording",
           "RecordSummary", "RingSummary"]
__version__ = "0.1.0"


def library_version():
    """The version of the libhwtrace.so the package runs on."""
    from ._lib import lib
    return lib().hwt_version().decode()
