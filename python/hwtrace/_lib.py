"""Finding and loading libhwtrace.so, and the prototypes of the C
functions the package calls.

The library is looked for, in order: the file $HWTRACE_LIB names; the
library an installation recorded beside the package (_libpath.py, written
by `cmake --install`); a libhwtrace.so.0 in the package's own directory;
and the loader's search path (LD_LIBRARY_PATH, ld.so.cache). When none
loads, LibraryNotFound lists each place and why it failed."""
import ctypes as C
import os

from . import _structs as S
from .errors import HwtraceError, LibraryNotFound

SONAME = "libhwtrace.so.0"
_lib = None


def _candidates():
    env = os.environ.get("HWTRACE_LIB")
    if env:
        yield "$HWTRACE_LIB", env
    try:
        from ._libpath import LIBRARY  # written at installation
        yield "the installed library", LIBRARY
    except ImportError:
        pass
    here = os.path.dirname(os.path.abspath(__file__))
    yield "beside the package", os.path.join(here, SONAME)
    yield "the loader's path", SONAME


def _load():
    tried = []
    for where, path in _candidates():
        if os.sep in path and not os.path.exists(path):
            tried.append(f"{where}: {path}: no such file")
            continue
        try:
            return C.CDLL(path)
        except OSError as e:
            tried.append(f"{where}: {e}")
    raise LibraryNotFound(
        "libhwtrace.so could not be loaded; tried " + "; ".join(tried) +
        ". Set HWTRACE_LIB to the library's path, or install hwtrace "
        "(cmake --install) so that the package records where it is")


def _proto(lib, name, restype, *argtypes):
    f = getattr(lib, name)
    f.restype = restype
    f.argtypes = list(argtypes)


def lib():
    """The loaded library, its prototypes declared (loaded once)."""
    global _lib
    if _lib is not None:
        return _lib
    L = _load()
    P, cp, sz = C.c_void_p, C.c_char_p, C.c_size_t
    _proto(L, "hwt_errmsg", cp)
    _proto(L, "hwt_version", cp)
    _proto(L, "hwt_capture_open", C.c_int, cp, C.POINTER(S.CaptureOpts),
           C.POINTER(P))
    _proto(L, "hwt_capture_open_raw", C.c_int, cp, cp, cp,
           C.POINTER(S.CaptureOpts), C.POINTER(P))
    _proto(L, "hwt_capture_open_snapshot", C.c_int, cp,
           C.POINTER(S.CaptureOpts), C.POINTER(P))
    _proto(L, "hwt_capture_free", None, P)
    _proto(L, "hwt_capture_kind", C.c_int, P)
    _proto(L, "hwt_capture_backend", cp, P)
    _proto(L, "hwt_capture_cpus", sz, P, C.POINTER(C.POINTER(C.c_int32)))
    _proto(L, "hwt_capture_threads", sz, P,
           C.POINTER(C.POINTER(S.CaptureThread)))
    _proto(L, "hwt_capture_names", sz, P, C.POINTER(C.POINTER(S.CaptureName)))
    _proto(L, "hwt_capture_tasks", sz, P, C.POINTER(C.POINTER(S.CaptureTask)))
    _proto(L, "hwt_capture_thread_name", cp, P, C.c_int32)
    _proto(L, "hwt_capture_switches", sz, P,
           C.POINTER(C.POINTER(S.CaptureSwitch)))
    _proto(L, "hwt_capture_build_ids", sz, P,
           C.POINTER(C.POINTER(S.CaptureBuildId)))
    _proto(L, "hwt_capture_mmaps", sz, P, C.POINTER(C.POINTER(S.CaptureMmap)))
    _proto(L, "hwt_capture_time_span", C.c_int, P, C.POINTER(C.c_uint64),
           C.POINTER(C.c_uint64))
    _proto(L, "hwt_capture_losses", None, P, C.POINTER(S.CaptureLosses))
    _proto(L, "hwt_capture_queues", sz, P,
           C.POINTER(C.POINTER(S.CaptureQueue)))
    _proto(L, "hwt_capture_units", C.c_int64, P,
           C.POINTER(C.POINTER(S.CaptureUnit)))
    _proto(L, "hwt_cursor_new", C.c_int, P, C.POINTER(S.CursorOpts),
           C.POINTER(P))
    _proto(L, "hwt_cursor_free", None, P)
    _proto(L, "hwt_cursor_next_batch", C.c_int64, P, P, sz)
    _proto(L, "hwt_symbolizer_new", C.c_int, C.POINTER(S.SymOpts),
           C.POINTER(P))
    _proto(L, "hwt_symbolizer_free", None, P)
    _proto(L, "hwt_elem_records_jsonl", C.c_int64, P, sz, P, C.c_void_p, sz,
           C.POINTER(sz))
    _proto(L, "hwt_symbolizer_annotator", S.OutputAnnotator, P)
    _proto(L, "hwt_annot_table_new", C.c_int, C.POINTER(S.OutputAnnotator),
           C.c_int, C.POINTER(P))
    _proto(L, "hwt_annot_table_free", None, P)
    _proto(L, "hwt_annot_records", C.c_int64, P, P, sz, P)
    _proto(L, "hwt_annot_text", cp, P, C.c_uint32, C.POINTER(sz))
    _proto(L, "hwt_annot_table_stats", None, P, C.POINTER(sz),
           C.POINTER(C.c_uint64))
    _proto(L, "hwt_capture_host_kernel", C.c_bool, cp, C.c_char_p,
           C.c_size_t)
    _proto(L, "hwt_cursor_run", C.c_int, P, C.POINTER(S.ElemSink))
    _proto(L, "hwt_symbolizer_namer", S.FuncNamer, P)
    _proto(L, "hwt_report_new", C.c_int, C.POINTER(S.FuncNamer),
           C.POINTER(P))
    _proto(L, "hwt_report_free", None, P)
    _proto(L, "hwt_report_ops", S.StackOps, P)
    _proto(L, "hwt_report_funcs", C.POINTER(S.ReportFunc), P,
           C.POINTER(sz))
    _proto(L, "hwt_stack_run_cursor", C.c_int, P, C.POINTER(S.StackOps),
           C.POINTER(S.FuncNamer), P)
    _proto(L, "hwt_calls_decode", C.c_int, C.POINTER(S.CallsDecode), P)
    _proto(L, "hwt_edges_new", P)
    _proto(L, "hwt_edges_free", None, P)
    _proto(L, "hwt_edges_sink", S.ElemSink, P)
    _proto(L, "hwt_edges_sorted", C.c_int, P, C.POINTER(C.POINTER(S.Edge)),
           C.POINTER(sz))
    _record_protos(L)
    _lib = L
    return L


def _record_protos(L):
    """hwtrace.record's calls: the emulated machine, the setup of a
    session from an event string, the writer and the recorder."""
    P, cp, sz = C.c_void_p, C.c_char_p, C.c_size_t
    _proto(L, "hwt_os_linux", P)
    _proto(L, "hwt_emu_new", C.c_int, C.POINTER(S.EmuOpts), C.POINTER(P))
    _proto(L, "hwt_emu_free", None, P)
    _proto(L, "hwt_emu_os", P, P)
    _proto(L, "hwt_emu_set_time_conv", C.c_int, P, C.c_bool)
    _proto(L, "hwt_emu_stream_aux", C.c_int, P, C.c_int, P, C.c_uint64,
           C.c_uint64)
    _proto(L, "hwt_record_setup_new", C.c_int, cp, cp, cp, P, P,
           C.POINTER(P))
    _proto(L, "hwt_record_setup_free", None, P)
    _proto(L, "hwt_record_setup_session_opts", P, P)
    _proto(L, "hwt_record_setup_backend", P, P)
    _proto(L, "hwt_record_setup_pmu", P, P)
    _proto(L, "hwt_record_setup_snapshot", C.c_bool, P)
    _proto(L, "hwt_record_setup_cpus", C.c_int, P,
           C.POINTER(C.POINTER(C.c_int)))
    _proto(L, "hwt_record_setup_session", C.c_int, P, P, C.POINTER(P))
    _proto(L, "hwt_outfile_check", C.c_int, cp, C.POINTER(cp), sz)
    _proto(L, "hwt_pd_writer_open", C.c_int, cp, C.POINTER(P))
    _proto(L, "hwt_pd_writer_data_size", C.c_uint64, P)
    _proto(L, "hwt_pd_writer_close", C.c_int, P)
    _proto(L, "hwt_pd_writer_discard", None, P)
    _proto(L, "hwt_writer_sink_new", C.c_int, P, C.c_bool, C.POINTER(P))
    _proto(L, "hwt_writer_sink_free", None, P)
    _proto(L, "hwt_session_stop", C.c_int, P)
    _proto(L, "hwt_session_free", None, P)
    _proto(L, "hwt_session_nr_rings", sz, P)
    _proto(L, "hwt_session_stats", C.c_int, P, sz, C.POINTER(S.CaptureStats))
    _proto(L, "hwt_recorder_new", C.c_int, C.POINTER(S.RecorderOpts), P, P,
           C.POINTER(P))
    _proto(L, "hwt_recorder_free", None, P)
    _proto(L, "hwt_recorder_write_header", C.c_int, P, P, P, P)
    _proto(L, "hwt_recorder_run", C.c_int, P, P, P, C.POINTER(C.c_int))
    _proto(L, "hwt_recorder_request_stop", None, P)
    _proto(L, "hwt_recorder_stop_requested", C.c_bool, P)


_libc = None


def libc():
    """The C library, for the memory streams the library writes into."""
    global _libc
    if _libc is None:
        _libc = C.CDLL(None)
        _proto(_libc, "open_memstream", C.c_void_p,
               C.POINTER(C.c_void_p), C.POINTER(C.c_size_t))
        _proto(_libc, "fclose", C.c_int, C.c_void_p)
        _proto(_libc, "free", None, C.c_void_p)
    return _libc


def check(rc):
    """Raises HwtraceError with the library's message for a negative
    return, else gives @rc back."""
    if rc < 0:
        msg = lib().hwt_errmsg()
        raise HwtraceError(msg.decode("utf-8", "replace") if msg else
                           f"hwtrace error {rc}", rc)
    return rc


def enc(s):
    """A path or name as the library takes it (bytes), None as NULL."""
    if s is None:
        return None
    return os.fsencode(s)


def dec(b):
    """A name from the library (bytes from the traced machine) as text,
    ill-formed UTF-8 replaced as the jsonl writer does."""
    return None if b is None else b.decode("utf-8", "replace")
