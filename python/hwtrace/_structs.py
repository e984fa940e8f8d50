"""ctypes mirrors of the C structures the package passes to libhwtrace
(include/hwtrace/capture.h, image.h, decode.h, symbols.h). Each starts
with the ``size`` field the library reads to know the caller's version."""
import ctypes as C

WARN_FN = C.CFUNCTYPE(None, C.c_void_p, C.c_char_p)
# void (*on_image)(void *arg, struct hwt_image *image)
IMAGE_FN = C.CFUNCTYPE(None, C.c_void_p, C.c_void_p)


class ImageLookup(C.Structure):
    _fields_ = [("size", C.c_size_t), ("symfs", C.c_char_p),
                ("buildid_dir", C.c_char_p), ("vmlinux", C.c_char_p)]


class MapSpec(C.Structure):
    _fields_ = [("path", C.c_char_p), ("vaddr", C.c_uint64)]


class CaptureOpts(C.Structure):
    _fields_ = [("size", C.c_size_t), ("lookup", ImageLookup),
                ("kcore", C.c_char_p), ("cpu_model", C.c_char_p),
                ("ignore_build_ids", C.c_bool),
                ("maps", C.POINTER(MapSpec)), ("nmaps", C.c_size_t)]


class CaptureThread(C.Structure):
    _fields_ = [("pid", C.c_int32), ("tid", C.c_int32)]


class CaptureName(C.Structure):
    _fields_ = [("pid", C.c_int32), ("tid", C.c_int32),
                ("time", C.c_uint64), ("exec", C.c_bool),
                ("name", C.c_char_p)]


class CaptureTask(C.Structure):
    _fields_ = [("pid", C.c_int32), ("tid", C.c_int32),
                ("ppid", C.c_int32), ("ptid", C.c_int32),
                ("time", C.c_uint64), ("fork", C.c_bool),
                ("name", C.c_char_p)]


class CaptureSwitch(C.Structure):
    _fields_ = [("time", C.c_uint64), ("cpu", C.c_int32),
                ("out_pid", C.c_int32), ("out_tid", C.c_int32),
                ("in_pid", C.c_int32), ("in_tid", C.c_int32),
                ("out", C.c_bool), ("preempt", C.c_bool),
                ("out_comm", C.c_char_p), ("in_comm", C.c_char_p)]


class CaptureBuildId(C.Structure):
    _fields_ = [("pid", C.c_int32), ("path", C.c_char_p),
                ("size", C.c_uint8), ("id", C.c_uint8 * 20)]


class CaptureMmap(C.Structure):
    _fields_ = [("pid", C.c_int32), ("vaddr", C.c_uint64),
                ("size", C.c_uint64), ("file_offset", C.c_uint64),
                ("valid_from", C.c_uint64), ("valid_until", C.c_uint64),
                ("path", C.c_char_p), ("found_at", C.c_char_p),
                ("missing", C.c_bool), ("missing_detail", C.c_char_p),
                ("build_id_size", C.c_uint8),
                ("build_id", C.c_uint8 * 20)]


class CaptureLosses(C.Structure):
    _fields_ = [("lost_events", C.c_uint64), ("lost_records", C.c_uint64),
                ("truncated", C.c_uint64), ("collisions", C.c_uint64),
                ("trace_errors", C.c_uint64)]


class CaptureQueue(C.Structure):
    _fields_ = [("idx", C.c_uint32), ("cpu", C.c_int32),
                ("tid", C.c_int32), ("npieces", C.c_size_t),
                ("bytes", C.c_uint64)]


class CaptureUnit(C.Structure):
    _fields_ = [("queue", C.c_size_t), ("piece", C.c_size_t),
                ("segment", C.c_size_t), ("cpu", C.c_int32),
                ("tid", C.c_int32), ("offset", C.c_uint64),
                ("size", C.c_uint64), ("time_from", C.c_uint64),
                ("time_until", C.c_uint64)]


class CursorOpts(C.Structure):
    _fields_ = [("size", C.c_size_t), ("order", C.c_int),
                ("jobs", C.c_uint), ("filter_cpu", C.c_bool),
                ("cpu", C.c_int32), ("filter_tid", C.c_bool),
                ("tid", C.c_int32), ("filter_time", C.c_bool),
                ("time_start", C.c_uint64), ("time_end", C.c_uint64),
                ("disasm", C.c_bool), ("unit", C.c_size_t),
                ("queue_depth", C.c_size_t), ("warn", WARN_FN),
                ("warn_arg", C.c_void_p), ("on_image", C.c_void_p),
                ("on_image_arg", C.c_void_p)]


class ElemRecord(C.Structure):
    """struct hwt_elem_record: one element as a flat record."""
    _fields_ = [("type", C.c_uint32), ("fields", C.c_uint32),
                ("cpu", C.c_int32), ("pid", C.c_int32),
                ("tid", C.c_int32), ("kind", C.c_uint32),
                ("time", C.c_uint64), ("trace_offset", C.c_uint64),
                ("from_", C.c_uint64), ("to", C.c_uint64),
                ("count", C.c_uint64), ("sync", C.c_uint64),
                ("number", C.c_uint32), ("vmid", C.c_uint32),
                ("text", C.c_void_p), ("branches", C.c_void_p),
                ("nbranches", C.c_uint64), ("counters", C.c_uint64)]


class SymOpts(C.Structure):
    _fields_ = [("size", C.c_size_t), ("srcline", C.c_bool),
                ("no_demangle", C.c_bool), ("symfs", C.c_char_p),
                ("buildid_dir", C.c_char_p), ("debug_root", C.c_char_p),
                ("kallsyms", C.c_char_p), ("vmlinux", C.c_char_p),
                ("perf_map_dir", C.c_char_p), ("warn", WARN_FN),
                ("warn_arg", C.c_void_p), ("no_host_kallsyms", C.c_bool)]


class ElemSink(C.Structure):
    """struct hwt_elem_sink: a C consumer of elements."""
    _fields_ = [("emit", C.c_void_p), ("arg", C.c_void_p)]


class OutputAnnotator(C.Structure):
    """struct hwt_output_annotator: the symbolizer's, passed back."""
    _fields_ = [("annotate", C.c_void_p), ("arg", C.c_void_p),
                ("cache_tag", C.c_void_p)]


class FuncNamer(C.Structure):
    _fields_ = [("name", C.c_void_p), ("arg", C.c_void_p),
                ("parent", C.c_void_p), ("unnamed", C.c_void_p),
                ("dso", C.c_void_p)]


class StackOps(C.Structure):
    _fields_ = [("on_enter", C.c_void_p), ("on_exit", C.c_void_p),
                ("arg", C.c_void_p), ("function_start", C.c_void_p),
                ("sym_arg", C.c_void_p), ("function_parent", C.c_void_p),
                ("on_caller", C.c_void_p)]


class CallsDecode(C.Structure):
    """struct hwt_calls_decode: decode --calls of a cursor (decode NULL)."""
    _fields_ = [("size", C.c_size_t), ("out", C.c_void_p),
                ("format", C.c_int), ("namer", C.POINTER(FuncNamer)),
                ("decode", C.c_void_p), ("cursor", C.c_void_p)]


class ReportFunc(C.Structure):
    _fields_ = [("name", C.c_char_p), ("calls", C.c_uint64),
                ("frames", C.c_uint64), ("insns_self", C.c_uint64),
                ("insns_total", C.c_uint64), ("branches_self", C.c_uint64),
                ("time_self", C.c_uint64), ("time_total", C.c_uint64),
                ("timed", C.c_uint64), ("duration_sum", C.c_uint64),
                ("duration_max", C.c_uint64), ("dso", C.c_char_p),
                ("pid", C.c_int32), ("tid", C.c_int32), ("comm", C.c_char_p)]


class Edge(C.Structure):
    _fields_ = [("from_", C.c_uint64), ("to", C.c_uint64),
                ("count", C.c_uint64)]


# Recording (hwtrace.record): the emulated machine, the recorder's loop and
# the counters of each ring.
class EmuOpts(C.Structure):
    _fields_ = [("size", C.c_size_t), ("sysfs_root", C.c_char_p),
                ("rate", C.c_uint64), ("burst", C.c_uint64),
                ("head_in_buffer", C.c_bool), ("paced", C.c_bool)]


class RecorderOpts(C.Structure):
    _fields_ = [("size", C.c_size_t), ("snapshot", C.c_bool),
                ("snapshot_on_exit", C.c_bool), ("interval_ms", C.c_uint),
                ("poll_ms", C.c_int), ("trigger", C.c_char_p),
                ("trigger_count", C.c_uint64)]


class CaptureStats(C.Structure):
    _fields_ = [("cpu", C.c_int), ("aux_bytes", C.c_uint64),
                ("aux_chunks", C.c_uint64), ("aux_records", C.c_uint64),
                ("aux_reported", C.c_uint64), ("truncated", C.c_uint64),
                ("collision", C.c_uint64), ("partial", C.c_uint64),
                ("unmatched", C.c_uint64), ("lost_events", C.c_uint64),
                ("lost_records", C.c_uint64), ("reenables", C.c_uint64),
                ("wakeups", C.c_uint64), ("snapshots", C.c_uint64),
                ("snapshot_wraps", C.c_uint64), ("records", C.c_uint64)]
