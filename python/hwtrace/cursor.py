"""A cursor on a capture (hwt_cursor_*): the checked arguments of
elements() and element_batches(), the symbolizer that names the
elements, and the decode's warnings."""
import ctypes as C
import os
import warnings

from . import _structs as S
from ._closable import Closable
from ._lib import check, enc, lib
from .errors import HwtraceWarning

ORDERS = {"time": 0, "cpu": 1, "stream": 1}
U64_MAX = (1 << 64) - 1


def _int_arg(name, value, low, high):
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be an int, not {type(value).__name__}")
    if not low <= value <= high:
        raise ValueError(f"{name}={value} is out of range ({low} to {high})")
    return value


def cursor_opts(cpu=None, tid=None, time=None, jobs=1, order="time",
                disasm=False, unit=None):
    """The struct hwt_cursor_opts of elements()' keyword arguments,
    each checked: TypeError or ValueError naming the argument."""
    o = S.CursorOpts(size=C.sizeof(S.CursorOpts))
    if order not in ORDERS:
        raise ValueError(f"order={order!r}: expected 'time' (merged by "
                         "time) or 'cpu' (each CPU's or thread's stream "
                         "after the other)")
    o.order = ORDERS[order]
    o.jobs = _int_arg("jobs", jobs, 1, 256)
    if cpu is not None:
        o.filter_cpu, o.cpu = True, _int_arg("cpu", cpu, 0, 2**31 - 1)
    if tid is not None:
        o.filter_tid, o.tid = True, _int_arg("tid", tid, 0, 2**31 - 1)
    if time is not None:
        if not isinstance(time, (tuple, list)) or len(time) != 2:
            raise TypeError("time must be a pair (start, end) of perf "
                            "times in ns (either may be None)")
        start = 0 if time[0] is None else _int_arg("time[0]", time[0], 0,
                                                   U64_MAX)
        end = U64_MAX if time[1] is None else _int_arg("time[1]", time[1],
                                                       0, U64_MAX)
        if start > end:
            raise ValueError(f"time=({start}, {end}): the start is after "
                             "the end")
        o.filter_time, o.time_start, o.time_end = True, start, end
    o.disasm = bool(disasm)
    if unit is not None:
        # Units count from 1 (hwtrace units, decode --unit N); the
        # library says when the capture has no such unit.
        o.unit = _int_arg("unit", unit, 1, 2**63 - 1)
    return o


def _recorded_elsewhere(path):
    """Whether the capture @path is not known to come from this machine's
    running kernel: then /proc/kallsyms does not describe it (the
    library's rule, hwt_capture_host_kernel, which `hwtrace decode`
    follows too)."""
    why = C.create_string_buffer(600)
    return not lib().hwt_capture_host_kernel(enc(path) if path else None,
                                             why, len(why))


class Cursor(Closable):
    """A running decode of a capture, its symbolizer and its warnings;
    close() (or the end of the with block) stops it."""

    def __init__(self, capture, opts, symbols=True):
        L = lib()
        self._capture = capture
        self._warnings = []
        self._warn = S.WARN_FN(self._on_warning)  # kept alive with us
        self.sym = None
        # The batch of elements being handed out (elements.iterate):
        # emptied by close(), which so ends its iteration.
        self.pending = None
        opts.warn = self._warn
        if symbols:
            self.sym = self._symbolizer()
            opts.on_image = C.cast(L.hwt_symbolizer_on_image, C.c_void_p)
            opts.on_image_arg = self.sym
        self.ptr = C.c_void_p()
        try:
            check(L.hwt_cursor_new(capture._handle(), C.byref(opts),
                                   C.byref(self.ptr)))
        except Exception:
            self.close()
            raise
        capture._cursors.add(self)

    def _symbolizer(self):
        c = self._capture
        so = S.SymOpts(size=C.sizeof(S.SymOpts))
        so.symfs, so.buildid_dir = enc(c.symfs), enc(c.buildid_dir)
        so.vmlinux, so.kallsyms = enc(c.vmlinux), enc(c.kallsyms)
        if c.kcore and not c.kallsyms:
            so.kallsyms = enc(os.path.join(c.kcore, "kallsyms"))
        so.warn = self._warn
        if (not so.kallsyms and not so.vmlinux and c.kind == "perf_data" and
                _recorded_elsewhere(c.path)):
            so.no_host_kallsyms = True
        sym = C.c_void_p()
        check(lib().hwt_symbolizer_new(C.byref(so), C.byref(sym)))
        return sym

    def _on_warning(self, arg, message):
        # Called on the decode thread (at more than one job; at one, on
        # ours, after the decode has switched back): only kept, said on
        # the reader's.
        self._warnings.append(message.decode("utf-8", "replace"))

    def _say_warnings(self):
        while self._warnings:
            warnings.warn(self._warnings.pop(0), HwtraceWarning, stacklevel=4)

    def records(self, n):
        """Yields (array, count): up to @n struct hwt_elem_record at a
        time in one ctypes array, refilled by each step (its text
        pointers are valid until the next)."""
        L = lib()
        buf = (S.ElemRecord * n)()
        addr = C.addressof(buf)
        while self.ptr:
            got = L.hwt_cursor_next_batch(self.ptr, addr, n)
            self._say_warnings()
            if got == 0:
                return
            check(got)
            yield buf, got

    def fill(self, address, n):
        """Fills up to @n records at @address; returns how many (0 once
        the cursor is closed)."""
        if not self.ptr:
            return 0
        got = lib().hwt_cursor_next_batch(self.ptr, address, n)
        self._say_warnings()
        return check(got)

    def close(self):
        L = lib()
        if getattr(self, "pending", None) is not None:
            self.pending.clear()
        if getattr(self, "ptr", None):
            L.hwt_cursor_free(self.ptr)
            self.ptr = C.c_void_p()
        if self.sym:
            L.hwt_symbolizer_free(self.sym)
            self.sym = None
        self._capture._cursors.discard(self)
        self._say_warnings()

