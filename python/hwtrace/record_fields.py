"""The fields of an element, as the jsonl writer writes them
(analysis/output.c), made from its struct hwt_elem_record: the record's
struct format, its field and flag bits, the library's names of its enums,
and the element types by name."""
import ctypes as C
import struct

from ._lib import lib
from ._structs import ElemRecord

# struct hwt_elem_record as a struct format, from its ctypes mirror (the
# native alignment of the struct module is the C compiler's).
RECORD = struct.Struct("@" + "".join(t._type_ for _, t in ElemRecord._fields_))
assert RECORD.size == C.sizeof(ElemRecord), "struct hwt_elem_record format"
# Indexes into an unpacked record.
(R_TYPE, R_FIELDS, R_CPU, R_PID, R_TID, R_KIND, R_TIME, R_OFFSET, R_FROM,
 R_TO, R_COUNT, R_SYNC, R_NUMBER, R_VMID, R_TEXT, R_BRANCHES, R_NBRANCHES,
 R_COUNTERS) = range(18)
# The 8-byte word of a record that holds its text pointer.
R_TEXT_WORD = ElemRecord.text.offset // 8
RANGE, BRANCH, TRACE_ON, TRACE_OFF, SAMPLE = 0, 1, 2, 3, 8
CONTEXT, GAP = 5, 6
# The record types made from an annotated prototype; gaps and context
# changes are read from their records too (_unannotated), the others
# written whole.
READ_HERE = (RANGE, BRANCH, TRACE_ON, TRACE_OFF)
# enum hwt_elem_field bits (include/hwtrace/element.h).
F_CPU, F_PID, F_TID, F_TIME = 1, 2, 4, 8
F_OFFSET, F_EL, F_VMID, F_GAP_BYTES = 1 << 4, 1 << 5, 1 << 6, 1 << 8
F_AT, F_EXC_NUM, F_AMBIGUOUS, F_SAMPLED, F_CYCLES = 1 << 9, 1 << 7, 1 << 10, 1 << 12, 1 << 13
F_NO_KIND, F_NO_FROM, F_BR_COUNTERS = 1 << 14, 1 << 15, 1 << 16
# enum hwt_branch_flags (element.h).
B_MISPRED, B_PREDICTED, B_IN_TX, B_ABORT = 1, 2, 4, 8
PRIV_NAMES = (None, "user", "kernel", "hv")
EMPTY = {}


# The first members of an element of each record type: its prototype
# without symbols. The types with no name here are written whole (the
# placeholder is replaced).
TYPES = {RANGE: {"type": "range"}, BRANCH: {"type": "branch"},
          TRACE_ON: {"type": "trace_on"}, TRACE_OFF: {"type": "trace_off"},
          CONTEXT: {"type": "context"}, GAP: {"type": "gap"}}
for _t in range(TRACE_OFF + 1, 32):
    TYPES.setdefault(_t, {"type": None})


class _Names:
    """The library's names of an enum (hwt_isa_name etc.), read once
    per value: the very strings the jsonl writer writes."""

    def __init__(self, fn):
        self._fn, self.names = fn, {}

    def __getitem__(self, code):
        try:
            return self.names[code]
        except KeyError:
            name = self._fn(code)
            self.names[code] = name = name.decode() if name else None
            return name


_tables = None


def names():
    global _tables
    if _tables is None:
        L = lib()
        for f in ("hwt_isa_name", "hwt_branch_kind_name",
                  "hwt_elem_type_name", "hwt_gap_reason_name"):
            getattr(L, f).restype = C.c_char_p
            getattr(L, f).argtypes = [C.c_int]
        _tables = (_Names(L.hwt_elem_type_name), _Names(L.hwt_isa_name),
                   _Names(L.hwt_branch_kind_name),
                   _Names(L.hwt_gap_reason_name))
    return _tables


def _task(r, d):
    f = r[R_FIELDS]
    if f & F_CPU:
        d["cpu"] = r[R_CPU]
    if f & F_PID:
        d["pid"] = r[R_PID]
    if f & F_TID:
        d["tid"] = r[R_TID]
    if f & F_AMBIGUOUS:
        d["task"] = "ambiguous"


def _range_fields(r, ann):
    _, isas, _, _ = _tables
    d = {"type": "range"}
    _task(r, d)
    d["start"], d["end"], d["insns"] = r[R_FROM], r[R_TO], r[R_COUNT]
    if r[R_KIND]:
        d["isa"] = isas[r[R_KIND]]
    if r[R_FIELDS] & F_TIME:
        d["time"] = r[R_TIME]
    d.update(ann)
    return d


def _branch_fields(r, ann):
    kinds = _tables[2]
    f = r[R_FIELDS]
    d = {"type": "branch"}
    _task(r, d)
    if not f & F_NO_FROM:
        d["from"] = r[R_FROM]
    d["to"] = r[R_TO]
    if not f & F_NO_KIND:
        d["kind"] = kinds[r[R_KIND]]
    if f & F_EXC_NUM:
        d["exception"] = r[R_NUMBER]
    if f & F_SAMPLED:
        # The packing of capture.h: cycles, depth, flags, priv in sync,
        # and the counters' split (width, events) in its top 16 bits.
        s = r[R_SYNC]
        flags, priv = (s >> 32) & 0xFF, (s >> 40) & 0xFF
        d["depth"] = (s >> 16) & 0xFFFF
        if r[R_COUNT]:
            d["weight"] = r[R_COUNT]
        if flags & (B_MISPRED | B_PREDICTED):
            d["mispred"] = bool(flags & B_MISPRED)
        if f & F_CYCLES:
            d["cycles"] = s & 0xFFFF
        if f & F_BR_COUNTERS:
            d["counters"] = r[R_COUNTERS]
            width, n = (s >> 48) & 0xFF, (s >> 56) & 0xFF
            if 1 <= width <= 64 and n:
                # hwt_brcntr_count: field i at bits i*width, as fit.
                n = min(n, 64 // width, 16)
                mask = (1 << width) - 1
                d["counts"] = [(r[R_COUNTERS] >> (i * width)) & mask
                               for i in range(n)]
        if flags & B_IN_TX:
            d["in_tx"] = True
        if flags & B_ABORT:
            d["abort"] = True
        if 0 < priv < 4:
            d["priv"] = PRIV_NAMES[priv]
    if f & F_TIME:
        d["time"] = r[R_TIME]
    d.update(ann)
    return d


def _trace_fields(r, ann):
    d = {"type": "trace_on" if r[R_TYPE] == TRACE_ON else "trace_off"}
    _task(r, d)
    if r[R_FIELDS] & F_AT:
        d["at"] = r[R_FROM]
    if r[R_FIELDS] & F_TIME:
        d["time"] = r[R_TIME]
    d.update(ann)
    return d


def _context_fields(r, ann):
    d = {"type": "context"}
    _task(r, d)
    if r[R_FIELDS] & F_EL:
        d["el"] = r[R_NUMBER]
    if r[R_FIELDS] & F_VMID:
        d["vmid"] = r[R_VMID]
    if r[R_FIELDS] & F_TIME:
        d["time"] = r[R_TIME]
    return d


def gap_fields(r, detail):
    """A gap's fields; @detail its detail text (read from the record's
    pointer while it was valid), or the empty dict when it has none."""
    f = r[R_FIELDS]
    d = {"type": "gap"}
    _task(r, d)
    d["reason"] = _tables[3][r[R_KIND]]
    if f & F_GAP_BYTES:
        d["bytes"] = r[R_COUNT]
    if f & F_OFFSET:
        d["offset"] = r[R_OFFSET]
    d.update(detail)
    if f & F_TIME:
        d["time"] = r[R_TIME]
    return d


BUILD = {RANGE: _range_fields, BRANCH: _branch_fields,
          TRACE_ON: _trace_fields, TRACE_OFF: _trace_fields,
          CONTEXT: _context_fields, GAP: gap_fields}


def type_codes(types):
    """The record types of the element type names @types (a name or an
    iterable of names, as jsonl's "type" says them), or None for all;
    ValueError or TypeError naming the argument."""
    if types is None:
        return None
    type_names = names()[0]
    # The library names a code it does not know "unknown".
    known = {type_names[c]: c for c in range(32)
             if type_names[c] not in (None, "unknown")}
    if isinstance(types, str):
        types = (types,)
    try:
        wanted = list(types)
    except TypeError:
        raise TypeError("types must be a type name or names (e.g. "
                        f"'branch'), not {type(types).__name__}") from None
    codes = set()
    for name in wanted:
        if name not in known:
            raise ValueError(f"types: {name!r} is not an element type "
                             f"(expected one of {', '.join(known)})")
        codes.add(known[name])
    return frozenset(codes)
