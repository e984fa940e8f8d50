"""Elements one at a time, as objects with the jsonl schema's fields
(docs/jsonl.md): each record of the cursor is written by the library's
own jsonl writer, symbols included (hwt_elem_record_jsonl), and read
back, so an element has exactly the fields `hwtrace decode --format
jsonl` prints for it."""
import ctypes as C
import json

from ._lib import check, lib
from ._structs import ElemRecord

# The fields that hold addresses: hex strings in jsonl, ints here.
ADDRESS_FIELDS = ("start", "end", "from", "to", "at", "ip")
# Those of the calls listing (decode --calls), whose start and end say
# how a frame began and ended.
CALL_ADDRESS_FIELDS = ("addr", "from")


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
    if "branches" in obj and obj["type"] == "sample":
        obj["branches"] = [to_element(b) for b in obj["branches"]]
    return Element(obj)


def iterate(cursor, batch):
    """Yields the Elements of @cursor, @batch records at a time."""
    fmt = lib().hwt_elem_record_jsonl
    size = C.sizeof(ElemRecord)
    room = 4096
    line = C.create_string_buffer(room)
    sym = cursor.sym
    loads = json.loads
    for buf, n in cursor.records(batch):
        base = C.addressof(buf)
        for i in range(n):
            # Closed meanwhile (Capture.close): the records' strings and
            # the symbolizer are gone with the cursor.
            if not cursor.ptr:
                return
            rec = base + i * size
            need = fmt(rec, sym, line, room)
            if need < 0 or need >= room:
                check(need)
                room = need + 1
                line = C.create_string_buffer(room)
                fmt(rec, sym, line, room)
            yield to_element(loads(line.value))

