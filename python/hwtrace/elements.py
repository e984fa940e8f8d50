"""Elements one at a time, as objects with the jsonl schema's fields
(docs/jsonl.md), read lazily from the cursor's batch records.

Each element of a batch of struct hwt_elem_record starts as a copy of a
prototype dict, its type and symbol members, and keeps where its record
is; its other fields are made from the record at their first read. The
symbol members come from the library's own annotator through an
annotation table (hwtrace/annotation_table.h), which gives each distinct
range or branch an id and its `,"sym":...` text once, parsed here once
per distinct text. Ranges, branches, trace_on, trace_off, context
changes and gaps, nearly every element of a trace, get their fields from
the record as the jsonl writer would write them (analysis/output.c; a
gap's detail text is read while the record's pointer is valid); the rare
others (timestamps, errors, samples, ranges with instruction text) are
written as their jsonl line by the library (hwt_elem_records_jsonl) and
parsed, so an element has exactly the fields `hwtrace decode --format
jsonl` prints for it."""
import ctypes as C
import gc
import json
import struct
from bisect import bisect_left, bisect_right
from itertools import chain, compress, repeat
from operator import mul

from ._lib import check, lib
from ._structs import ElemRecord

# The fields that hold addresses, by element type: hex strings in jsonl,
# ints here.
ADDRESS_FIELDS = ("start", "end", "from", "to", "at", "ip")
# Those of the calls listing (decode --calls), whose start and end say
# how a frame began and ended.
CALL_ADDRESS_FIELDS = ("addr", "from")
# The C scanner under json.loads, without its per-call checks: each
# line the library writes is one JSON object.
_scan = json.JSONDecoder().scan_once

# struct hwt_elem_record as a struct format, from its ctypes mirror (the
# native alignment of the struct module is the C compiler's).
RECORD = struct.Struct("@" + "".join(t._type_ for _, t in ElemRecord._fields_))
assert RECORD.size == C.sizeof(ElemRecord), "struct hwt_elem_record format"
# Indexes into an unpacked record.
(R_TYPE, R_FIELDS, R_CPU, R_PID, R_TID, R_KIND, R_TIME, R_OFFSET, R_FROM,
 R_TO, R_COUNT, R_SYNC, R_NUMBER, R_VMID, R_TEXT) = range(15)
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
F_NO_KIND, F_NO_FROM = 1 << 14, 1 << 15
# enum hwt_branch_flags (element.h).
B_MISPRED, B_PREDICTED, B_IN_TX, B_ABORT = 1, 2, 4, 8
PRIV_NAMES = (None, "user", "kernel", "hv")
NONE_ID = 0xFFFFFFFF  # HWT_ANNOT_NONE: the record is not annotated there
_EMPTY = {}


# The first members of an element of each record type; those after
# BRANCH are written whole (the placeholder is replaced).
_TYPES = {RANGE: {"type": "range"}, BRANCH: {"type": "branch"},
          TRACE_ON: {"type": "trace_on"}, TRACE_OFF: {"type": "trace_off"},
          CONTEXT: {"type": "context"}, GAP: {"type": "gap"}}
for _t in range(TRACE_OFF + 1, 32):
    _TYPES.setdefault(_t, {"type": None})


class _Names:
    """The library's names of an enum (hwt_isa_name etc.), read once
    per value: the very strings the jsonl writer writes."""

    def __init__(self, fn):
        self._fn, self._names = fn, {}

    def __getitem__(self, code):
        try:
            return self._names[code]
        except KeyError:
            name = self._fn(code)
            self._names[code] = name = name.decode() if name else None
            return name


_tables = None


def _names():
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
        # The packing of capture.h: cycles, depth, flags, priv in sync.
        s = r[R_SYNC]
        flags, priv = (s >> 32) & 0xFF, (s >> 40) & 0xFF
        d["depth"] = (s >> 16) & 0xFFFF
        if r[R_COUNT]:
            d["weight"] = r[R_COUNT]
        if flags & (B_MISPRED | B_PREDICTED):
            d["mispred"] = bool(flags & B_MISPRED)
        if f & F_CYCLES:
            d["cycles"] = s & 0xFFFF
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


def _gap_fields(r, detail):
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


_BUILD = {RANGE: _range_fields, BRANCH: _branch_fields,
          TRACE_ON: _trace_fields, TRACE_OFF: _trace_fields,
          CONTEXT: _context_fields, GAP: _gap_fields}
_fill_from = dict.update


class Element(dict):
    """One element: a dict of its jsonl fields (``e["type"]``,
    ``e["from"]``) that also reads them as attributes (``e.type``,
    ``e.from_`` for the keyword). Addresses are ints; a field the element
    does not know is absent (``e.get("time")`` is None).

    A range or branch holds its type and symbol members from the start
    and where its record is (``_r``: the batch's bytes and the record's
    offset in them): the other fields are made from the record at the
    first read of one (a missing key, or any whole view of the dict)."""
    __slots__ = ("_r",)

    def _full(self):
        at = self._r
        if at is not None:
            self._r = None
            r = RECORD.unpack_from(*at)
            _fill_from(self, _BUILD[r[R_TYPE]](r, _EMPTY))
        return self

    def __missing__(self, key):
        if self._r is None:
            raise KeyError(key)
        return self._full()[key]

    def get(self, key, default=None):
        return dict.get(self._full(), key, default)

    def keys(self):
        return dict.keys(self._full())

    def values(self):
        return dict.values(self._full())

    def items(self):
        return dict.items(self._full())

    def __iter__(self):
        return dict.__iter__(self._full())

    def __len__(self):
        return dict.__len__(self._full())

    def __contains__(self, key):
        return dict.__contains__(self._full(), key)

    def __eq__(self, other):
        if isinstance(other, Element):
            other._full()
        return dict.__eq__(self._full(), other)

    def __ne__(self, other):
        eq = self.__eq__(other)
        return eq if eq is NotImplemented else not eq

    __hash__ = None

    def copy(self):
        return dict(self._full())

    def __reduce__(self):
        return (_element_of, (dict(self._full()),))

    def __repr__(self):
        return f"Element({dict.__repr__(self._full())})"

    def __getattr__(self, name):
        try:
            return self[name[:-1] if name.endswith("_") else name]
        except KeyError:
            raise AttributeError(
                f"this {self.get('type')} element has no field {name!r}"
            ) from None


def _element_of(fields):
    e = Element(fields)
    e._r = None
    return e


def to_element(obj, addresses=ADDRESS_FIELDS):
    """The Element of one parsed jsonl object (its @addresses made
    ints)."""
    for k in addresses:
        v = obj.get(k)
        if v.__class__ is str:
            obj[k] = int(v, 16)
    if obj["type"] == "sample" and "branches" in obj:
        obj["branches"] = [to_element(b) for b in obj["branches"]]
    return _element_of(obj)


class _Annotations:
    """The symbol members of each annotation id of a cursor's table, as
    dicts, parsed once per id (id NONE_ID: none, the record is written
    whole)."""

    def __init__(self, sym):
        L = lib()
        self.ptr, self.by_id = None, {NONE_ID: _TYPES[BRANCH + 1], 0: None}
        self.ids, self.known = None, 1  # ids below known are parsed
        # The prototype of each record type and text: trace_on and
        # trace_off records get an id each, mostly of a text seen before,
        # and their ids share it.
        self.protos = {}
        if sym:
            a = L.hwt_symbolizer_annotator(sym)
            ptr = C.c_void_p()
            check(L.hwt_annot_table_new(C.byref(a), 1, C.byref(ptr)))
            self.ptr, self._annotator = ptr, a

    def of(self, base, n, types):
        """The annotations of the @n records at @base: a list of dicts
        of their type and symbol members (a placeholder for those not
        annotated) and the list of their ids."""
        L = lib()
        if self.ids is None or len(self.ids) < n:
            self.ids = (C.c_uint32 * n)()
        check(L.hwt_annot_records(self.ptr, base, n, self.ids))
        ids = memoryview(self.ids).cast("B").cast("I")[:n].tolist()
        by_id = self.by_id
        texts = C.c_size_t()
        L.hwt_annot_table_stats(self.ptr, C.byref(texts), None)
        # The ids new in this batch: each parsed once, with the type of
        # its first record (an id is of one type: the table's key has it).
        # The table numbers ids in the order of the records it is given,
        # so each new id's first record is after the previous one's.
        at = 0
        for i in range(self.known, texts.value):
            at = ids.index(i, at)
            key = (types[at], L.hwt_annot_text(self.ptr, i, None))
            d = self.protos.get(key)
            if d is None:
                s = key[1].decode("utf-8")
                d = dict(_TYPES[key[0]])
                if s:
                    d.update(json.loads("{" + s[1:] + "}"))
                self.protos[key] = d
            by_id[i] = d
        self.known = texts.value
        return list(map(by_id.__getitem__, ids)), ids

    def close(self):
        if self.ptr:
            lib().hwt_annot_table_free(self.ptr)
            self.ptr = None


def _whole_line(rec_addr, sym, line):
    """The Element of the record at @rec_addr from its own jsonl line
    (with @sym's symbol members), written by the library."""
    fmt = lib().hwt_elem_records_jsonl
    done = C.c_size_t()
    while True:
        got = fmt(rec_addr, 1, sym, line[0], len(line[0]), C.byref(done))
        if got != -11:  # HWT_ERR_NOSPC: a line longer than the room
            break
        line[0] = C.create_string_buffer(len(line[0]) * 4)
    check(got)
    obj, _ = _scan(line[0].raw[:got].decode("utf-8"), 0)
    return to_element(obj)


def _lazy(data, i, rtype):
    """An Element of record @i of @data, its fields made at first read."""
    e = Element(_TYPES[rtype])
    e._r = (data, i * RECORD.size)
    return e


def _unannotated(data, i, rtype, base, sym, line):
    """The Element of record @i of the batch @data (at @base in the
    cursor's buffer, whose pointers are valid until its next call), one
    the annotation table leaves out: a context or a gap read from its
    record (a gap's detail text at once, from its pointer), the rest
    their whole jsonl line."""
    if rtype == CONTEXT:
        return _lazy(data, i, rtype)
    if rtype == GAP:
        r = RECORD.unpack_from(data, i * RECORD.size)
        if not r[R_TEXT]:
            return _lazy(data, i, rtype)
        try:
            detail = C.string_at(r[R_TEXT]).decode("utf-8")
        except UnicodeDecodeError:
            pass  # as the jsonl writer escapes it: its own line says
        else:
            return _element_of(_gap_fields(r, {"detail": detail}))
    return _whole_line(base + i * RECORD.size, sym, line)


def _indexes(values, value):
    """The indexes of @value in the list @values (searched in C)."""
    at, found = -1, []
    try:
        while True:
            at = values.index(value, at + 1)
            found.append(at)
    except ValueError:
        return found


def _left_out(types, ids, disasm, batch):
    """The indexes of the records whose element is not a copy of its
    prototype (_unannotated makes theirs): those the annotation table did
    not annotate (@ids), or without symbols those of @types after
    trace_off (and with @disasm the ranges, which carry their
    instructions' text: their pointer in @batch)."""
    if ids is not None:
        return _indexes(ids, NONE_ID)
    if disasm:
        texts = memoryview(batch).cast("Q")[R_TEXT_WORD::RECORD.size // 8]
        return [i for i, t in enumerate(types) if t not in READ_HERE or
                (t == RANGE and texts[i])]
    found = []
    for t in range(TRACE_OFF + 1, SAMPLE + 1):
        found += _indexes(types, t)
    return sorted(found)


# How many elements are made at a time: fewer than the collector's
# generation-0 threshold (700 by default). A list's elements are freed
# before the next list's are made, so the count of new objects never
# reaches the threshold and no collection walks the elements, which
# would cost more than making them (docs/python.md, Speed).
MADE_AT_ONCE = 512


def _made(data, dicts, idx, special):
    """The Elements of the records @idx (a range, or a sorted list of
    indexes) of the batch @data: each a copy of its prototype in @dicts
    with where its record is, or the one made already in @special
    (index: Element, in the order of the indexes)."""
    size = RECORD.size
    if isinstance(idx, range):
        protos = dicts[idx.start:idx.stop]
        offsets = range(idx.start * size, idx.stop * size, size)
    else:
        protos = map(dicts.__getitem__, idx)
        offsets = map(mul, idx, repeat(size))
    enabled = gc.isenabled()
    gc.disable()  # none of these objects makes a cycle
    try:
        elems = list(map(Element, protos))
        list(map(setattr, elems, repeat("_r"), zip(repeat(data), offsets)))
    finally:
        if enabled:
            gc.enable()
    if special:
        # Those of the special ones among @idx: their indexes are in
        # order, so those in idx's span are found by two searches.
        keys = list(special)
        lo, hi = bisect_left(keys, idx[0]), bisect_right(keys, idx[-1])
        for i in keys[lo:hi]:
            at = i - idx.start if isinstance(idx, range) else \
                bisect_left(idx, i)
            if idx[at] == i:
                elems[at] = special[i]
    return elems


def type_codes(types):
    """The record types of the element type names @types (a name or an
    iterable of names, as jsonl's "type" says them), or None for all;
    ValueError or TypeError naming the argument."""
    if types is None:
        return None
    names = _names()[0]
    # The library names a code it does not know "unknown".
    known = {names[c]: c for c in range(32)
             if names[c] not in (None, "unknown")}
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


def _chosen(types, wanted):
    """The indexes of the records of @types whose type is in @wanted."""
    return list(compress(range(len(types)), map(wanted.__contains__, types)))


def element_lists(cursor, batch, disasm=False, wanted=None):
    """Yields the Elements of @cursor (only those of the record types
    @wanted, type_codes(), when not None) in lists of at most
    MADE_AT_ONCE, read @batch records at a time (iterate() chains
    them)."""
    _names()
    size = RECORD.size
    ann = _Annotations(cursor.sym)
    line = [C.create_string_buffer(4096)]
    try:
        for buf, n in cursor.records(batch):
            base = C.addressof(buf)
            # The batch's bytes, kept by its elements until each reads
            # its record (the buffer itself is refilled by the next call).
            data = memoryview(buf).cast("B")[:n * size].tobytes()
            types = memoryview(data).cast("I")[::size // 4].tolist()
            if ann.ptr:
                dicts, ids = ann.of(base, n, types)
            else:
                dicts, ids = list(map(_TYPES.__getitem__, types)), None
            if wanted is None:
                chosen = range(n)
            else:
                chosen = _chosen(types, wanted)
            # The rare elements not made from a prototype, made now: a
            # gap's detail is read from its pointer, valid until the
            # cursor's next call (or its close).
            special = {i: _unannotated(data, i, types[i], base, cursor.sym,
                                       line)
                       for i in _left_out(types, ids, disasm, data)
                       if wanted is None or types[i] in wanted}
            for start in range(0, len(chosen), MADE_AT_ONCE):
                elems = _made(data, dicts,
                              chosen[start:start + MADE_AT_ONCE], special)
                # Closed meanwhile (Capture.close): the iteration ends,
                # here or, as close() empties the pending list, within it.
                if not cursor.ptr:
                    return
                cursor.pending = elems
                yield elems
                # The list handed out is done with: its elements the
                # caller did not keep go before the next ones are made.
                cursor.pending = elems = None
    finally:
        ann.close()


class Elements(chain):
    """The iterator elements() gives: the element lists chained, each
    step in C (no Python frame per element); close() stops the decode
    (so does dropping the iterator or closing the capture)."""

    def close(self):
        self.lists.close()


def iterate(lists):
    """An Elements iterator over the generator @lists of element
    lists."""
    it = Elements.from_iterable(lists)
    it.lists = lists
    return it
