"""hwtrace.open and the Capture it gives (hwt_capture_*)."""
import ctypes as C
import os
import weakref

from . import _structs as S
from ._closable import Closable
from ._lib import check, enc, lib
from .cursor import Cursor, cursor_opts
from .info import read_info, read_units

PANDAS_KINDS = ("elements", "branches", "calls", "functions")


class Capture(Closable):
    """A capture opened once: ``info`` holds its facts, ``elements()``
    and ``element_batches()`` decode it (each call decodes it anew, on a
    thread of the library's). Close it with close() or a with block."""

    def __init__(self, path, kind, symfs, buildid_dir, vmlinux, kcore,
                 kallsyms):
        self.path, self.kind = path, kind
        self.symfs, self.buildid_dir, self.vmlinux = symfs, buildid_dir, vmlinux
        self.kcore, self.kallsyms = kcore, kallsyms
        self._ptr = C.c_void_p()
        self._cursors = weakref.WeakSet()
        self._info = None

    def _handle(self):
        if not self._ptr:
            raise ValueError(f"{self.path}: the capture is closed")
        return self._ptr

    @property
    def info(self):
        """The capture's facts (hwtrace.info.Info): backend, CPUs,
        threads, names, binaries and missing_binaries, time_span,
        losses, queues."""
        if self._info is None:
            self._info = read_info(self._handle())
        return self._info

    def units(self):
        """The capture's units (hwtrace.info.Unit), in the order a
        one-thread decode takes them, as `hwtrace units` lists them:
        each can be decoded on its own, ``elements(unit=u.number)``, in
        any process. HwtraceError for a capture without units (not
        perf.data, or AUX samples)."""
        return read_units(self._handle())

    def _cursor(self, symbols, **filters):
        opts = cursor_opts(**filters)
        if opts.unit:
            # A cursor decodes a unit of the list hwt_capture_units made
            # (made here at the first call).
            n = len(self.units())
            if opts.unit > n:
                raise ValueError(f"unit={opts.unit}: {self.path} has "
                                 f"{n} units (numbered from 1)")
        return Cursor(self, opts, symbols=symbols)

    def elements(self, cpu=None, tid=None, time=None, jobs=1, order="time",
                 symbols=True, disasm=False, batch=4096, unit=None,
                 types=None):
        """Yields the elements (hwtrace.Element), as `hwtrace decode
        --format jsonl` prints them: only those of CPU ``cpu``, thread
        ``tid``, perf times ``time=(start, end)`` (ns, inclusive, either
        None); decoded on ``jobs`` threads (the same elements for every
        value); ``order`` "time" (every CPU merged by time) or "cpu"
        (stream after stream, `decode --per-cpu`); ``symbols=False`` as
        `--no-symbols`, ``disasm`` as `--disasm`; ``unit=N`` only unit N
        of units() (from 1, as `decode --unit N`), in stream order.
        ``types``: only elements of these types (a name or names of
        jsonl's "type", e.g. "branch" as perf's --itrace=b); the others
        are never made. ``batch``: the records read from the library at
        a time."""
        from .elements import element_lists, iterate
        from .record_fields import type_codes
        if not isinstance(batch, int) or batch < 1:
            raise ValueError(f"batch={batch!r}: expected a positive int")
        wanted = type_codes(types)
        cur = self._cursor(symbols, cpu=cpu, tid=tid, time=time, jobs=jobs,
                           order=order, disasm=disasm, unit=unit)
        return iterate(_closing(cur, element_lists(cur, batch, disasm,
                                                   wanted)))

    def element_batches(self, n=65536, cpu=None, tid=None, time=None,
                        jobs=1, order="time", unit=None):
        """Yields NumPy structured arrays of ``n`` elements each (the
        last one shorter)
        (the fields of struct hwt_elem_record, capture.h: type, fields,
        cpu, pid, tid, kind, time, trace_offset, from, to, count, sync,
        number, vmid, nbranches, counters), filled by the library without a
        Python object per element. Filters and ``unit`` as
        elements()."""
        from .batches import batches, need
        need("numpy", "element_batches()")
        if isinstance(n, bool) or not isinstance(n, int) or n < 1:
            raise ValueError(f"n={n!r}: expected a positive int")
        cur = self._cursor(False, cpu=cpu, tid=tid, time=time, jobs=jobs,
                           order=order, unit=unit)
        return _closing(cur, batches(cur, n))

    def report(self, **filters):
        """The function table of `hwtrace report` (hwtrace.Function
        rows, most self instructions first). ``filters``: cpu, tid,
        time, jobs, order, symbols, as elements()."""
        from .analysis import report
        return self._analyse(report, filters)

    def calls(self, **filters):
        """Yields the calls and returns of the rebuilt call stacks, as
        `decode --calls --format jsonl` lists them (type "call" or
        "return", depth, addr, sym, ...). ``filters`` as report()."""
        from .analysis import calls
        yield from self._analyse(calls, filters)

    def edges(self, **filters):
        """The edge map of `decode --edges`: {(from, to): count} of the
        taken branches. ``filters`` as report()."""
        from .analysis import edges
        return self._analyse(edges, dict(filters, symbols=False))

    def _analyse(self, run, filters):
        symbols = filters.pop("symbols", True)
        with self._cursor(symbols, **filters) as cur:
            return run(cur)

    def to_pandas(self, kind="elements", **filters):
        """A pandas DataFrame: "elements" (one row per element: type,
        cpu, pid, tid, time (NA where unknown), kind (ISA, branch kind
        or gap reason), from, to, count, trace_offset, fields) or
        "branches" (cpu, pid, tid, time, from, to, kind, counters: a
        sampled branch record's word of -j counter, NA without one) from
        element_batches(); "calls" (one row per call() record) or
        "functions" (one per report() row). ``filters`` as those
        calls take them."""
        from .batches import frame, need
        if kind not in PANDAS_KINDS:
            raise ValueError(f"to_pandas({kind!r}): expected one of "
                             + ", ".join(PANDAS_KINDS))
        pd = need("pandas", f"to_pandas({kind!r})")
        if kind == "calls":
            return pd.DataFrame(list(self.calls(**filters)))
        if kind == "functions":
            from dataclasses import asdict
            return pd.DataFrame([asdict(f) for f in self.report(**filters)])
        return frame(kind, list(self.element_batches(**filters)))

    def close(self):
        """Stops every decode still running on the capture and frees it."""
        for cur in list(self._cursors):
            cur.close()
        if self._ptr:
            lib().hwt_capture_free(self._ptr)
            self._ptr = C.c_void_p()


    def __repr__(self):
        return f"<hwtrace.Capture {self.kind} {self.path!r}>"


def _closing(cursor, gen):
    """@gen, the cursor closed when it ends, fails or is dropped."""
    try:
        with cursor:
            yield from gen
    finally:
        cursor.close()


def _path_arg(name, value):
    if not isinstance(value, (str, bytes, os.PathLike)):
        raise TypeError(f"{name} must be a path, not {type(value).__name__}")
    return os.fsdecode(value)


def open(path=None, *, raw=None, maps=(), snapshot=None, symfs=None,
         buildid_dir=None, vmlinux=None, kcore=None, kallsyms=None,
         cpu_model=None, ignore_build_ids=False):
    """Opens a capture, as `hwtrace decode` takes them:

    - ``open("perf.data")``: a perf.data file;
    - ``open(raw=("intel_pt", "trace.pt"), maps=[("code.bin", 0x100000)])``:
      a raw trace stream of a backend (``"intel_pt,OPTS"`` as --raw
      takes them) with the memory maps (``--map FILE@ADDR``);
    - ``open(snapshot="dir")``: an OpenCSD snapshot directory.

    ``symfs``, ``buildid_dir``, ``vmlinux``, ``kcore``, ``kallsyms``,
    ``cpu_model`` and ``ignore_build_ids`` are the CLI's options of those
    names. Raises HwtraceError with the library's message when the
    capture cannot be read."""
    given = [x is not None for x in (path, raw, snapshot)]
    if sum(given) != 1:
        raise TypeError("open() takes one of path, raw=(backend, trace) "
                        "or snapshot=dir")
    L = lib()
    opts = S.CaptureOpts(size=C.sizeof(S.CaptureOpts))
    opts.lookup.size = C.sizeof(S.ImageLookup)
    paths = {}
    for name, v in (("symfs", symfs), ("buildid_dir", buildid_dir),
                    ("vmlinux", vmlinux), ("kcore", kcore),
                    ("kallsyms", kallsyms)):
        paths[name] = None if v is None else _path_arg(name, v)
    opts.lookup.symfs = enc(paths["symfs"])
    opts.lookup.buildid_dir = enc(paths["buildid_dir"])
    opts.lookup.vmlinux = enc(paths["vmlinux"])
    opts.kcore = enc(paths["kcore"])
    if cpu_model is not None:
        if not isinstance(cpu_model, str):
            raise TypeError("cpu_model must be a string FAMILY/MODEL[/STEPPING]")
        opts.cpu_model = cpu_model.encode()
    opts.ignore_build_ids = bool(ignore_build_ids)
    map_specs = []
    for m in maps:
        if not isinstance(m, (tuple, list)) or len(m) != 2:
            raise TypeError(f"maps: {m!r} is not a pair (file, address)")
        map_specs.append(S.MapSpec(enc(_path_arg("maps", m[0])),
                                   _map_addr(m[1])))
    if map_specs:
        arr = (S.MapSpec * len(map_specs))(*map_specs)
        opts.maps, opts.nmaps = arr, len(map_specs)
    if maps and raw is None:
        raise TypeError("maps are the memory of a raw stream: give raw= too")
    if path is not None:
        cap = Capture(_path_arg("path", path), "perf_data", **paths)
        check(L.hwt_capture_open(enc(cap.path), C.byref(opts),
                                 C.byref(cap._ptr)))
    elif raw is not None:
        if not isinstance(raw, (tuple, list)) or len(raw) != 2:
            raise TypeError("raw must be a pair (backend, trace file)")
        backend, _, boptions = str(raw[0]).partition(",")
        cap = Capture(_path_arg("raw", raw[1]), "raw", **paths)
        check(L.hwt_capture_open_raw(backend.encode(),
                                     boptions.encode() or None,
                                     enc(cap.path), C.byref(opts),
                                     C.byref(cap._ptr)))
    else:
        cap = Capture(_path_arg("snapshot", snapshot), "snapshot_dir", **paths)
        check(L.hwt_capture_open_snapshot(enc(cap.path), C.byref(opts),
                                          C.byref(cap._ptr)))
    return cap


def _map_addr(v):
    if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v < 1 << 64:
        raise ValueError(f"maps: address {v!r} is not a 64-bit address")
    return v
