"""A capture's facts (hwt_capture_* accessors) as plain Python objects."""
import ctypes as C
from dataclasses import dataclass, field
from typing import List, Optional, Tuple

from . import _structs as S
from ._lib import check, dec, lib

KINDS = {0: "perf_data", 1: "raw", 2: "snapshot_dir"}
TIME_END = (1 << 64) - 1


@dataclass
class Thread:
    pid: int
    tid: int


@dataclass
class Name:
    """From ``time`` on (0: the record has none) thread ``tid`` of
    ``pid`` is called ``name``; ``exec`` when a program was started."""
    pid: int
    tid: int
    time: int
    exec: bool
    name: str


@dataclass
class Task:
    """A COMM record (``fork`` False: thread ``tid`` of ``pid`` is called
    ``name``) or a FORK record (``fork`` True: made from ``ptid`` of
    ``ppid``, with its parent's ``name`` then, None when it had none),
    in file order (hwt_capture_tasks)."""
    pid: int
    tid: int
    ppid: Optional[int]
    ptid: Optional[int]
    time: int
    fork: bool
    name: Optional[str]


@dataclass
class Switch:
    """A context switch as perf's database export gives it
    (hwt_capture_switches): a side no COMM record named is None."""
    time: int
    cpu: Optional[int]
    out_thread: Optional[Tuple[int, int]]
    in_thread: Optional[Tuple[int, int]]
    out_comm: Optional[str]
    in_comm: Optional[str]
    out: bool
    preempt: bool


@dataclass
class Binary:
    """A mapping of code. ``found_at`` is the file read (None when
    ``missing``); ``valid_until`` None means to the end; ``pid`` None:
    every process (the kernel)."""
    path: str
    pid: Optional[int]
    vaddr: int
    size: int
    file_offset: int
    valid_from: int
    valid_until: Optional[int]
    found_at: Optional[str]
    missing: bool
    missing_detail: Optional[str]
    build_id: Optional[str]


@dataclass
class Losses:
    lost_events: int
    lost_records: int
    truncated: int
    collisions: int
    trace_errors: int


@dataclass
class Queue:
    """An AUX queue: the trace of a CPU (cpu, tid None) or a thread."""
    idx: int
    cpu: Optional[int]
    tid: Optional[int]
    pieces: int
    bytes: int


@dataclass
class Info:
    kind: str
    backend: str
    cpus: List[int]
    threads: List[Thread]
    names: List[Name]
    binaries: List[Binary]
    time_span: Optional[Tuple[int, int]]
    losses: Losses
    queues: List[Queue] = field(default_factory=list)
    tasks: List[Task] = field(default_factory=list)
    switches: List[Switch] = field(default_factory=list)
    # The header's build-id table: path as recorded -> build id (hex).
    build_ids: List[Tuple[str, str]] = field(default_factory=list)

    @property
    def missing_binaries(self):
        """The paths of the mappings whose code was not found."""
        seen = []
        for b in self.binaries:
            if b.missing and b.path not in seen:
                seen.append(b.path)
        return seen


def _array(fn, cap, ctype):
    p = C.POINTER(ctype)()
    n = fn(cap, C.byref(p))
    return [p[i] for i in range(n)]


def _side(pid, tid):
    return None if tid < 0 else (pid, tid)


def _sideband(L, cap):
    """The tasks, switches and build-id table of @cap."""
    tasks = [Task(t.pid, t.tid, t.ppid if t.fork else None,
                  t.ptid if t.fork else None, t.time, bool(t.fork),
                  dec(t.name))
             for t in _array(L.hwt_capture_tasks, cap, S.CaptureTask)]
    switches = [Switch(s.time, None if s.cpu < 0 else s.cpu,
                       _side(s.out_pid, s.out_tid), _side(s.in_pid, s.in_tid),
                       dec(s.out_comm), dec(s.in_comm), bool(s.out),
                       bool(s.preempt))
                for s in _array(L.hwt_capture_switches, cap, S.CaptureSwitch)]
    ids = [(dec(b.path), bytes(b.id[:b.size]).hex())
           for b in _array(L.hwt_capture_build_ids, cap, S.CaptureBuildId)]
    return tasks, switches, ids


def read_info(cap):
    """The Info of the capture handle @cap."""
    L = lib()
    cpus = _array(L.hwt_capture_cpus, cap, C.c_int32)
    threads = [Thread(t.pid, t.tid)
               for t in _array(L.hwt_capture_threads, cap, S.CaptureThread)]
    names = [Name(n.pid, n.tid, n.time, bool(n.exec), dec(n.name))
             for n in _array(L.hwt_capture_names, cap, S.CaptureName)]
    binaries = []
    for m in _array(L.hwt_capture_mmaps, cap, S.CaptureMmap):
        bid = bytes(m.build_id[:m.build_id_size]).hex() or None
        binaries.append(Binary(
            dec(m.path), None if m.pid == -1 else m.pid, m.vaddr, m.size,
            m.file_offset, m.valid_from,
            None if m.valid_until == TIME_END else m.valid_until,
            dec(m.found_at), bool(m.missing), dec(m.missing_detail), bid))
    first, last = C.c_uint64(), C.c_uint64()
    span = None
    if L.hwt_capture_time_span(cap, C.byref(first), C.byref(last)) == 0:
        span = (first.value, last.value)
    lo = S.CaptureLosses()
    L.hwt_capture_losses(cap, C.byref(lo))
    queues = [Queue(q.idx, None if q.cpu < 0 else q.cpu,
                    None if q.tid < 0 else q.tid, q.npieces, q.bytes)
              for q in _array(L.hwt_capture_queues, cap, S.CaptureQueue)]
    return Info(KINDS.get(L.hwt_capture_kind(cap), "unknown"),
                dec(L.hwt_capture_backend(cap)), list(cpus), threads, names,
                binaries, span,
                Losses(lo.lost_events, lo.lost_records, lo.truncated,
                       lo.collisions, lo.trace_errors), queues,
                *_sideband(L, cap))


@dataclass
class Unit:
    """One unit of a capture (hwt_capture_units, `hwtrace units`): a
    piece of one AUX queue's trace its decoder starts on its own.
    ``number`` counts from 1, as `decode --unit N` and elements(unit=N)
    take it; ``cpu`` (-1: per-thread trace) and ``tid`` (-1: per-CPU)
    are its queue's; ``offset`` and ``size`` its bytes in the capture;
    ``time_from``/``time_until`` the perf times of its piece (0: none)."""
    number: int
    queue: int
    piece: int
    segment: int
    cpu: int
    tid: int
    offset: int
    size: int
    time_from: int
    time_until: int


def read_units(handle):
    """The Units of the capture @handle."""
    arr = C.POINTER(S.CaptureUnit)()
    n = check(lib().hwt_capture_units(handle, C.byref(arr)))
    return [Unit(i + 1, *(getattr(arr[i], f) for f, _ in
                          S.CaptureUnit._fields_)) for i in range(n)]
