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
the record as the jsonl writer would write them (record_fields.py; a
gap's detail text is read while the record's pointer is valid); the rare
others (timestamps, errors, samples, ranges with instruction text) are
written as their jsonl line by the library (hwt_elem_records_jsonl) and
parsed, so an element has exactly the fields `hwtrace decode --format
jsonl` prints for it."""
import ctypes as C
import gc
import json
from bisect import bisect_left, bisect_right
from itertools import chain, compress, repeat

from ._lib import check, lib
from .record_fields import (BRANCH, BUILD, CONTEXT, EMPTY, GAP, R_TEXT,
                            R_TEXT_WORD, R_TYPE, RANGE, READ_HERE, RECORD,
                            SAMPLE, TRACE_OFF, TYPES, gap_fields, names)

# The fields that hold addresses, by element type: hex strings in jsonl,
# ints here.
ADDRESS_FIELDS = ("start", "end", "from", "to", "at", "ip")
# Those of the calls listing (decode --calls), whose start and end say
# how a frame began and ended.
CALL_ADDRESS_FIELDS = ("addr", "from")
# The C scanner under json.loads, without its per-call checks: each
# line the library writes is one JSON object.
_scan = json.JSONDecoder().scan_once

NONE_ID = 0xFFFFFFFF  # HWT_ANNOT_NONE: the record is not annotated there
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
            _fill_from(self, BUILD[r[R_TYPE]](r, EMPTY))
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
        self.ptr, self.by_id = None, {NONE_ID: TYPES[BRANCH + 1], 0: None}
        # Ids below known are parsed; the table gives one id to each
        # distinct text of a type, trace_on and trace_off too.
        self.ids, self.known = None, 1
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
            s = L.hwt_annot_text(self.ptr, i, None).decode("utf-8")
            d = dict(TYPES[types[at]])
            if s:
                d.update(json.loads("{" + s[1:] + "}"))
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


def _unannotated(data, i, rtype, base, sym, line):
    """The Element of record @i of the batch @data (at @base in the
    cursor's buffer, whose pointers are valid until its next call), one
    the annotation table leaves out and _read_later does not read later:
    a gap with a detail text, its fields and the text read at once (from
    the text's pointer), the rest their whole jsonl line."""
    if rtype == GAP:
        r = RECORD.unpack_from(data, i * RECORD.size)
        try:
            detail = C.string_at(r[R_TEXT]).decode("utf-8")
        except UnicodeDecodeError:
            pass  # as the jsonl writer escapes it: its own line says
        else:
            return _element_of(gap_fields(r, {"detail": detail}))
    return _whole_line(base + i * RECORD.size, sym, line)


def _read_later(left_out, types, dicts, batch):
    """Of the indexes @left_out, those of the records _unannotated must
    make now; the others, context changes and gaps without a detail
    text (a null pointer in @batch), are read from their record at the
    first read of a field like a range, their prototype put in @dicts:
    a capture with many gaps (sw_branch's, where a thread's code is not
    in the image) then costs no call per gap."""
    if not left_out:
        return left_out
    texts = memoryview(batch).cast("Q")[R_TEXT_WORD::RECORD.size // 8]
    now = []
    for i in left_out:
        t = types[i]
        if t == CONTEXT or (t == GAP and not texts[i]):
            dicts[i] = TYPES[t]
        else:
            now.append(i)
    return now


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


# The byte offsets of the records of a batch, made once: an element
# holds one of these ints instead of a new one of its own.
_OFFSETS = []


def _offsets(n):
    """The offsets of records 0 to @n - 1 (or more) of a batch."""
    global _OFFSETS
    if len(_OFFSETS) < n:
        _OFFSETS = list(range(0, n * RECORD.size, RECORD.size))
    return _OFFSETS


def _made(data, dicts, idx, special):
    """The Elements of the records @idx (a range, or a sorted list of
    indexes) of the batch @data: each a copy of its prototype in @dicts
    with where its record is, or the one made already in @special
    (index: Element, in the order of the indexes)."""
    offs = _offsets(len(dicts))
    if isinstance(idx, range):
        protos = dicts[idx.start:idx.stop]
        offsets = offs[idx.start:idx.stop]
    else:
        protos = map(dicts.__getitem__, idx)
        offsets = map(offs.__getitem__, idx)
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


def _chosen(types, wanted):
    """The indexes of the records of @types whose type is in @wanted."""
    return list(compress(range(len(types)), map(wanted.__contains__, types)))


def element_lists(cursor, batch, disasm=False, wanted=None):
    """Yields the Elements of @cursor (only those of the record types
    @wanted, type_codes(), when not None) in lists of at most
    MADE_AT_ONCE, read @batch records at a time (iterate() chains
    them)."""
    names()
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
                dicts, ids = list(map(TYPES.__getitem__, types)), None
            if wanted is None:
                chosen = range(n)
            else:
                chosen = _chosen(types, wanted)
            # The rare elements not made from a prototype, made now: a
            # gap's detail is read from its pointer, valid until the
            # cursor's next call (or its close). Context changes and gaps
            # without a detail are made from their type's prototype too.
            left_out = _left_out(types, ids, disasm, data)
            if wanted is not None:
                left_out = [i for i in left_out if types[i] in wanted]
            special = {i: _unannotated(data, i, types[i], base, cursor.sym,
                                       line)
                       for i in _read_later(left_out, types, dicts, data)}
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
