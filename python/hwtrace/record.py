"""hwtrace.record and Recording: a capture into a perf.data file through
the library's session and recorder (hwt_record_setup, hwt_recorder), as
`hwtrace record -e EVENT -o FILE` makes it.

    summary = hwtrace.record("pt.data", event="intel_pt//", cpus="0",
                             sysfs="tests/fixtures/sysfs/intel-client",
                             emulate_trace="stream.pt")
    print(summary.bytes, summary.lost)

A recording runs the library's poll loop on a thread of its own (the
loop releases the interpreter), so the caller's thread stays free to
stop it: Recording.stop() from any thread, a duration, or Ctrl-C (SIGINT)
in record(), which all end with a complete file."""
import ctypes as C
import os
import signal
import stat
import threading
from dataclasses import dataclass
from typing import Optional, Tuple

from . import _structs as S
from ._lib import check, enc, lib
from .errors import HwtraceError


_ASYNC_SIGNALS = {signal.SIGINT, signal.SIGTERM, signal.SIGHUP,
                  signal.SIGUSR1, signal.SIGUSR2}


@dataclass(frozen=True)
class RingSummary:
    """The counters of one ring: a CPU (``cpu`` None for the thread of a
    per-thread session), as `hwtrace record` prints them."""
    cpu: Optional[int]
    bytes: int            # AUX trace bytes captured
    chunks: int           # AUXTRACE records written
    records: int          # sideband (data ring) records moved
    truncated: int        # AUX records flagged TRUNCATED: trace lost
    collisions: int
    partial: int
    lost_events: int      # PERF_RECORD_LOST seen
    lost_records: int     # records they say were lost
    wakeups: int
    snapshots: int

    @property
    def lost(self):
        """Losses of every kind: truncated and collided AUX writes and
        lost sideband records."""
        return self.truncated + self.collisions + self.lost_records


@dataclass(frozen=True)
class RecordSummary:
    """What a recording wrote: ``bytes`` of trace and ``records`` of
    sideband over every ring, ``lost`` their losses (RingSummary.lost
    summed), per-ring counters in ``rings``; ``stopped`` when it ended on
    a stop (stop(), a duration or SIGINT) rather than with the trace."""
    output: str
    bytes: int
    chunks: int
    records: int
    lost: int
    file_bytes: int       # the file's data section
    stopped: bool
    rings: Tuple[RingSummary, ...]


def _ring(st):
    return RingSummary(
        cpu=None if st.cpu < 0 else st.cpu, bytes=st.aux_bytes,
        chunks=st.aux_chunks, records=st.records, truncated=st.truncated,
        collisions=st.collision, partial=st.partial,
        lost_events=st.lost_events, lost_records=st.lost_records,
        wakeups=st.wakeups, snapshots=st.snapshots)


def _read_trace(path):
    """The bytes of --emulate-trace's file; a FIFO, device or directory
    is refused in words (nothing blocks on a FIFO)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError as e:
        raise HwtraceError(f"emulate_trace: {path}: {e.strerror}") from None
    with os.fdopen(fd, "rb") as f:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise HwtraceError(f"emulate_trace: {path} is not a regular "
                               "file: give the file of raw trace bytes")
        return f.read()


def _text(name, value):
    if value is not None and not isinstance(value, (str, os.PathLike)):
        raise TypeError(f"{name}={value!r}: a string is expected")
    return value


class Recording:
    """One recording into ``output``. Nothing is opened until start();
    stop() (thread- and signal-safe) ends the loop at its next wake-up,
    wait() finishes the file and gives the RecordSummary. As a context
    manager: started on entry, stopped and waited for on exit.

    ``event`` is `hwtrace record -e`'s (``"intel_pt/cyc/"``), ``profile``
    its -c INI file, ``cpus`` its -C list (``"0-3,6"``). ``sysfs`` makes
    the machine an emulated one, the PMUs of that sysfs tree (e.g.
    tests/fixtures/sysfs/intel-client), whose trace units write the bytes
    of ``emulate_trace`` (at ``emulate_rate`` bytes per second per CPU, 0:
    at once), with a TSC when ``emulate_tsc``; without it the real kernel
    is traced (CPU-wide: no command is run). An existing ``output`` is
    replaced only with ``overwrite=True``; the file appears when the
    recording is complete, and a failed one leaves nothing behind."""

    def __init__(self, output, event=None, *, profile=None, cpus=None,
                 sysfs=None, emulate_trace=None, emulate_rate=0,
                 emulate_tsc=False, overwrite=False, poll_ms=0):
        for name, value in (("output", output), ("event", event),
                            ("profile", profile), ("cpus", cpus),
                            ("sysfs", sysfs),
                            ("emulate_trace", emulate_trace)):
            _text(name, value)
        if output is None:
            raise TypeError("output: the path of the perf.data to write")
        if event is None and profile is None:
            raise ValueError("event or profile: which trace? give an "
                             "event such as intel_pt// (see `hwtrace list`)")
        if (emulate_trace is not None or emulate_tsc or emulate_rate) and \
                sysfs is None:
            raise ValueError("emulate_trace, emulate_rate and emulate_tsc "
                             "need sysfs= (the emulated machine)")
        if not isinstance(emulate_rate, (int, float)) or emulate_rate < 0:
            raise ValueError(f"emulate_rate={emulate_rate!r}: bytes per "
                             "second, 0 or more")
        if not isinstance(poll_ms, int) or poll_ms < 0:
            raise ValueError(f"poll_ms={poll_ms!r}: milliseconds, 0 or more")
        self.output = os.fspath(output)
        self._args = (event, profile, cpus, sysfs, emulate_trace,
                      int(emulate_rate), bool(emulate_tsc))
        self._overwrite = bool(overwrite)
        self._poll_ms = poll_ms
        self._emu = C.c_void_p()
        self._setup = C.c_void_p()
        self._writer = C.c_void_p()
        self._wsink = C.c_void_p()
        self._session = C.c_void_p()
        self._recorder = C.c_void_p()
        self._trace = None
        self._thread = None
        self._error = None
        self._summary = None
        self._lock = threading.RLock()  # stop() from a handler

    def _refuse_existing(self):
        if not self._overwrite and os.path.lexists(self.output):
            raise FileExistsError(
                f"{self.output} exists: hwtrace.record does not replace a "
                "file unless asked (overwrite=True)")

    def _check_output(self, inputs):
        self._refuse_existing()
        ins = [enc(p) for p in inputs if p is not None]
        arr = (C.c_char_p * max(len(ins), 1))(*ins)
        check(lib().hwt_outfile_check(enc(self.output), arr, len(ins)))

    def _machine(self, sysfs, rate, tsc):
        L = lib()
        if sysfs is None:
            return L.hwt_os_linux()
        eo = S.EmuOpts(size=C.sizeof(S.EmuOpts), sysfs_root=enc(sysfs),
                       rate=rate)
        check(L.hwt_emu_new(C.byref(eo), C.byref(self._emu)))
        # Without a TSC by default, as `hwtrace record --sysfs`: perf 6.1
        # decodes the emulated machine's captures only without timing.
        check(L.hwt_emu_set_time_conv(self._emu, tsc))
        return L.hwt_emu_os(self._emu)

    def _stream(self):
        """Every traced CPU's emulated trace unit writes the bytes."""
        cpus = C.POINTER(C.c_int)()
        n = lib().hwt_record_setup_cpus(self._setup, C.byref(cpus))
        buf = C.create_string_buffer(self._trace, len(self._trace))
        self._trace = buf  # the emulator reads it while it runs
        for i in range(n):
            check(lib().hwt_emu_stream_aux(self._emu, cpus[i], buf,
                                           len(self._trace), 1))

    def start(self):
        """Opens the session and the file's header and starts the loop
        on a thread of its own. HwtraceError (the library's message) when
        the event, profile, machine or output is refused."""
        if self._thread is not None:
            raise ValueError(f"{self.output}: the recording was started")
        event, profile, cpus, sysfs, trace, rate, tsc = self._args
        L = lib()
        # The threads the library starts here (the emulator's trace units)
        # and the loop's thread inherit a mask without the interpreter's
        # signals, so that SIGINT reaches the waiting thread, never one
        # of theirs in a sleep it would cut short.
        mask = signal.pthread_sigmask(signal.SIG_BLOCK, _ASYNC_SIGNALS)
        try:
            self._start(L, event, profile, cpus, sysfs, trace, rate, tsc)
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, mask)
        return self

    def _start(self, L, event, profile, cpus, sysfs, trace, rate, tsc):
        try:
            self._check_output([profile, trace])
            os_ = self._machine(sysfs, rate, tsc)
            if trace is not None:
                self._trace = _read_trace(trace)
            check(L.hwt_record_setup_new(enc(profile), enc(event), enc(cpus),
                                         os_, self._emu,
                                         C.byref(self._setup)))
            if self._trace:
                self._stream()
            check(L.hwt_pd_writer_open(enc(self.output),
                                       C.byref(self._writer)))
            check(L.hwt_writer_sink_new(self._writer, False,
                                        C.byref(self._wsink)))
            check(L.hwt_record_setup_session(self._setup, self._wsink,
                                             C.byref(self._session)))
            # A snapshot profile's buffer is copied once, at the end (as
            # `hwtrace record -Se`): there is no signal or FIFO to ask.
            snap = L.hwt_record_setup_snapshot(self._setup)
            ro = S.RecorderOpts(size=C.sizeof(S.RecorderOpts), snapshot=snap,
                                snapshot_on_exit=snap, poll_ms=self._poll_ms)
            with self._lock:
                check(L.hwt_recorder_new(C.byref(ro), self._session,
                                         self._writer,
                                         C.byref(self._recorder)))
            check(L.hwt_recorder_write_header(
                self._recorder, L.hwt_record_setup_backend(self._setup),
                L.hwt_record_setup_pmu(self._setup),
                L.hwt_record_setup_session_opts(self._setup)))
        except BaseException:
            self._free()
            raise
        self._thread = threading.Thread(target=self._run,
                                        name="hwtrace.record", daemon=True)
        self._thread.start()

    def _run(self):
        try:
            check(lib().hwt_recorder_run(self._recorder, None, None, None))
        except HwtraceError as e:
            self._error = e

    def stop(self):
        """Asks the loop to end at its next wake-up (at most poll_ms, 50
        ms by default, later). Safe from any thread and from a signal
        handler; a no-op before start() and after wait()."""
        with self._lock:
            if self._recorder:
                lib().hwt_recorder_request_stop(self._recorder)

    def started(self):
        """Whether start() succeeded."""
        return self._thread is not None

    def running(self):
        """Whether the loop is still polling."""
        return self._thread is not None and self._thread.is_alive()

    def join(self, timeout=None):
        """Waits up to @timeout seconds (None: until it ends) for the
        loop to end; whether it has."""
        if self._thread is None:
            raise ValueError(f"{self.output}: the recording was not started")
        self._thread.join(timeout)
        return not self._thread.is_alive()

    def wait(self):
        """Waits for the loop to end (stop() it first, or it runs until
        the trace ends), drains the rings, completes the file and gives
        the RecordSummary (the same one at every call). HwtraceError when
        the loop or the file failed; nothing is left at ``output`` then."""
        if self._summary is not None:
            return self._summary
        self.join()
        L = lib()
        try:
            if self._error is not None:
                raise self._error
            stopped = bool(L.hwt_recorder_stop_requested(self._recorder))
            check(L.hwt_session_stop(self._session))
            rings = []
            for i in range(L.hwt_session_nr_rings(self._session)):
                st = S.CaptureStats()
                if L.hwt_session_stats(self._session, i, C.byref(st)) == 0:
                    rings.append(_ring(st))
            file_bytes = L.hwt_pd_writer_data_size(self._writer)
            # A file made at output while this recorded is not replaced.
            self._refuse_existing()
            writer, self._writer = self._writer, C.c_void_p()
            check(L.hwt_pd_writer_close(writer))
        finally:
            self._free()
        self._summary = RecordSummary(
            output=self.output, bytes=sum(r.bytes for r in rings),
            chunks=sum(r.chunks for r in rings),
            records=sum(r.records for r in rings),
            lost=sum(r.lost for r in rings), file_bytes=file_bytes,
            stopped=stopped, rings=tuple(rings))
        return self._summary

    def _free(self):
        L = lib()
        # stop() may run here from a signal handler of this thread: it
        # finds the recorder gone before it is freed.
        with self._lock:
            recorder, self._recorder = self._recorder, C.c_void_p()
        L.hwt_recorder_free(recorder)
        if self._session:
            L.hwt_session_stop(self._session)
        L.hwt_session_free(self._session)
        L.hwt_pd_writer_discard(self._writer)  # removes its temporary
        L.hwt_writer_sink_free(self._wsink)
        L.hwt_record_setup_free(self._setup)
        L.hwt_emu_free(self._emu)
        self._session, self._writer = C.c_void_p(), C.c_void_p()
        self._wsink, self._setup, self._emu = (C.c_void_p(), C.c_void_p(),
                                               C.c_void_p())
        self._trace = None

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()
        if exc[0] is None:
            self.wait()
        else:
            self.join()
            self._free()
        return False

    def __del__(self):
        # An abandoned recording: its loop is stopped and its temporary
        # file removed, never left running.
        try:
            if self._thread is not None and self._summary is None:
                self.stop()
                self.join()
                self._free()
        except Exception:
            pass


def record(output, event=None, *, duration=None, **options):
    """Records into ``output`` and gives the RecordSummary: until the
    trace ends (an emulated machine's stream), ``duration`` seconds have
    passed, or SIGINT (Ctrl-C), which ends the capture with a complete
    file as `hwtrace record` does (the summary's ``stopped`` says so).
    The options are Recording's (profile, cpus, sysfs, emulate_trace,
    emulate_rate, emulate_tsc, overwrite, poll_ms)."""
    if duration is not None and (not isinstance(duration, (int, float)) or
                                 duration < 0):
        raise ValueError(f"duration={duration!r}: seconds, 0 or more")
    rec = Recording(output, event, **options)
    try:
        # A SIGINT while the session opens is held until it is open.
        rec.start()
        # Short waits, so that the interpreter sees SIGINT between them.
        if duration is None:
            while not rec.join(0.1):
                pass
        else:
            rec.join(duration)
        if rec.running():
            rec.stop()
    except KeyboardInterrupt:
        if not rec.started():
            raise       # start() failed: nothing is recording
        rec.stop()
    return rec.wait()
