"""Elements one at a time, as objects with the jsonl schema's fields
(docs/jsonl.md): each batch of the cursor's records is written by the
library's own jsonl writer, symbols included (hwt_elem_records_jsonl),
and read back, so an element has exactly the fields `hwtrace decode
--format jsonl` prints for it."""
import ctypes as C
import json

from ._lib import check, lib
from ._structs import ElemRecord

# The fields that hold addresses, by element type: hex strings in jsonl,
# ints here.
ADDRESSES = {"range": ("start", "end"), "branch": ("from", "to"),
             "trace_on": ("at",), "trace_off": ("at",), "sample": ("ip",)}
ADDRESS_FIELDS = ("start", "end", "from", "to", "at", "ip")
# Those of the calls listing (decode --calls), whose start and end say
# how a frame began and ended.
CALL_ADDRESS_FIELDS = ("addr", "from")
# The C scanner under json.loads, without its per-call checks: each
# line the library writes is one JSON object.
_scan = json.JSONDecoder().scan_once


class Element(dict):
    """One element: a dict of its jsonl fields (``e["type"]``,
    ``e["from"]``) that also reads them as attributes (``e.type``,
    ``e.from_`` for the keyword). Addresses are ints; a field the element
    does not know is absent (``e.get("time")`` is None)."""
    __slots__ = ()

    def __getattr__(self, name):
        try:
            return self[name[:-1] if name.endswith("_") else name]
        except KeyError:
            raise AttributeError(
                f"this {self.get('type')} element has no field {name!r}"
            ) from None


def to_element(obj, addresses=ADDRESS_FIELDS):
    """The Element of one parsed jsonl object (its @addresses made
    ints)."""
    for k in addresses:
        v = obj.get(k)
        if v.__class__ is str:
            obj[k] = int(v, 16)
    if obj["type"] == "sample" and "branches" in obj:
        obj["branches"] = [to_element(b) for b in obj["branches"]]
    return Element(obj)


def iterate(cursor, batch):
    """Yields the Elements of @cursor, @batch records at a time."""
    fmt = lib().hwt_elem_records_jsonl
    size = C.sizeof(ElemRecord)
    room = 256 * batch
    line = C.create_string_buffer(room)
    done = C.c_size_t()
    sym = cursor.sym
    by_type = ADDRESSES
    for buf, n in cursor.records(batch):
        base, at = C.addressof(buf), 0
        while at < n and cursor.ptr:
            got = fmt(base + at * size, n - at, sym, line, room, C.byref(done))
            if got == -11:  # HWT_ERR_NOSPC: a line longer than the room
                room *= 4
                line = C.create_string_buffer(room)
                continue
            check(got)
            text = line.raw[:got].decode("utf-8")
            at += done.value
            pos = 0
            while pos < got:
                # Closed meanwhile (Capture.close): the iteration ends
                # (the records' strings went with the cursor).
                if not cursor.ptr:
                    return
                obj, pos = _scan(text, pos)
                pos += 1  # the newline
                for k in by_type.get(obj["type"], ()):
                    v = obj.get(k)
                    if v is not None:
                        obj[k] = int(v, 16)
                if obj["type"] == "sample" and "branches" in obj:
                    obj["branches"] = [to_element(b) for b in obj["branches"]]
                yield Element(obj)
