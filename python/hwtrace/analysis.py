"""What the library's analyses make of a capture's elements: the
function table of `hwtrace report`, the calls and returns of `decode
--calls`, the edges of `decode --edges`. Each runs a cursor into the
library's own consumer (hwt_stack_run_cursor, hwt_calls_decode,
hwt_cursor_run), so the answers are the CLI's."""
import ctypes as C
import json
from dataclasses import dataclass

from . import _structs as S
from ._lib import check, dec, lib, libc
from .elements import CALL_ADDRESS_FIELDS, to_element

JSONL = 1  # enum hwt_output_format


@dataclass
class Function:
    """One row of `hwtrace report`: instructions run in the function
    (self) and in what it called (total), calls, and with time the time
    in it (ns) and its activations' durations; dso is the binary it is
    in, as the table's dso column names it (a name in two binaries is two
    rows)."""
    name: str
    calls: int
    frames: int
    insns_self: int
    insns_total: int
    branches_self: int
    time_self: int
    time_total: int
    timed: int
    duration_sum: int
    duration_max: int
    dso: str


def _namer(cursor):
    if cursor.sym:
        return lib().hwt_symbolizer_namer(cursor.sym)
    return S.FuncNamer()


def report(cursor):
    """The functions of @cursor's elements, most self instructions first
    (then by name), as `hwtrace report --top 0` lists them."""
    L = lib()
    namer = _namer(cursor)
    rep = C.c_void_p()
    check(L.hwt_report_new(C.byref(namer), C.byref(rep)))
    try:
        ops = L.hwt_report_ops(rep)
        check(L.hwt_stack_run_cursor(cursor.ptr, C.byref(ops),
                                     C.byref(namer), None))
        n = C.c_size_t()
        arr = L.hwt_report_funcs(rep, C.byref(n))
        funcs = [Function(dec(f.name), f.calls, f.frames, f.insns_self,
                          f.insns_total, f.branches_self, f.time_self,
                          f.time_total, f.timed, f.duration_sum,
                          f.duration_max, dec(f.dso))
                 for f in (arr[i] for i in range(n.value))]
    finally:
        L.hwt_report_free(rep)
    funcs.sort(key=lambda f: (-f.insns_self, f.name, f.dso))
    return funcs


class _MemStream:
    """A FILE the library writes into, read back as bytes once closed."""

    def __init__(self):
        self.buf, self.size = C.c_void_p(), C.c_size_t()
        self.fp = libc().open_memstream(C.byref(self.buf), C.byref(self.size))
        if not self.fp:
            raise MemoryError("open_memstream failed")

    def close(self):
        """The bytes written, the stream closed and freed."""
        if self.fp:
            libc().fclose(self.fp)
            self.fp = None
        data = C.string_at(self.buf, self.size.value) if self.buf else b""
        libc().free(self.buf)
        self.buf = C.c_void_p()
        return data


def calls(cursor):
    """The call and return records of @cursor's elements, in time order,
    with the fields of `decode --calls --format jsonl` (addresses as
    ints): the lines hwt_calls_decode writes, as the CLI's."""
    namer = _namer(cursor)
    out = _MemStream()
    try:
        run = S.CallsDecode(size=C.sizeof(S.CallsDecode), out=out.fp,
                            format=JSONL, namer=C.pointer(namer),
                            decode=None, cursor=cursor.ptr)
        check(lib().hwt_calls_decode(C.byref(run), None))
    finally:
        text = out.close()
    return [to_element(json.loads(line), CALL_ADDRESS_FIELDS)
            for line in text.splitlines()]


def edges(cursor):
    """{(from, to): count} of every taken branch of @cursor's elements,
    sorted by from, then to (`decode --edges`)."""
    L = lib()
    em = L.hwt_edges_new()
    if not em:
        raise MemoryError("out of memory for the edges")
    try:
        sink = L.hwt_edges_sink(em)
        check(L.hwt_cursor_run(cursor.ptr, C.byref(sink)))
        arr, n = C.POINTER(S.Edge)(), C.c_size_t()
        check(L.hwt_edges_sorted(em, C.byref(arr), C.byref(n)))
        try:
            return {(arr[i].from_, arr[i].to): arr[i].count
                    for i in range(n.value)}
        finally:
            libc().free(C.cast(arr, C.c_void_p))
    finally:
        L.hwt_edges_free(em)
