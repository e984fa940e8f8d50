"""Elements in NumPy structured arrays, filled by hwt_cursor_next_batch
with no Python object per element, and pandas tables built from them.
NumPy and pandas are imported only here, when a call needs them."""
import ctypes as C
import sys

from ._structs import ElemRecord

TYPE_NAMES = ("range", "branch", "trace_on", "trace_off", "timestamp",
              "context", "gap", "error", "sample")
BRANCH_KINDS = ("call", "return", "jump", "cond", "indirect", "syscall",
                "sysret", "exception", "interrupt", "eret")
ISA_NAMES = ("", "x86_64", "x86_32", "x86_16", "a64", "a32", "t32", "rv32",
             "rv64")
GAP_REASONS = ("truncated", "collision", "lost", "overflow", "decode_error",
               "no_sync", "no_image")
# enum hwt_elem_field bits (include/hwtrace/element.h).
FIELD_CPU, FIELD_PID, FIELD_TID, FIELD_TIME = 1, 2, 4, 8
FIELD_NO_KIND, FIELD_BR_COUNTERS = 1 << 14, 1 << 16
RANGE, BRANCH = 0, 1
# The record's fields a batch keeps: all but the pointers, which are only
# valid until the cursor's next call.
POINTERS = ("text", "branches")


def need(module, call):
    """Imports NumPy or pandas for @call, or says which package to
    install."""
    try:
        return __import__(module)
    except ImportError as e:
        pkg = {"numpy": "python3-numpy", "pandas": "python3-pandas"}[module]
        raise ImportError(f"{call} needs {module} (Debian: apt-get install "
                          f"{pkg}); the rest of hwtrace works without it"
                          ) from e


def record_dtypes(np):
    """The dtype of struct hwt_elem_record (its C layout, from ctypes)
    and the dtype of a batch: the same records, the pointers left out of
    its fields (their bytes are padding, which no field reads), ``from``
    for the C field from_."""
    names, formats, offsets = [], [], []
    for name, ctype in ElemRecord._fields_:
        names.append("from" if name == "from_" else name)
        formats.append(np.dtype(ctype))
        offsets.append(getattr(ElemRecord, name).offset)
    size = C.sizeof(ElemRecord)
    raw = np.dtype({"names": names, "formats": formats, "offsets": offsets,
                    "itemsize": size})
    keep = [i for i, n in enumerate(names) if n not in POINTERS]
    public = np.dtype({"names": [names[i] for i in keep],
                       "formats": [formats[i] for i in keep],
                       "offsets": [offsets[i] for i in keep],
                       "itemsize": size})
    return raw, public


# How many full arrays already yielded batches() keeps to fill again.
KEPT = 2


def _unheld(kept):
    """Pops and returns the first array of @kept that nothing else holds
    (no name, list, view or frame of the caller's), or None."""
    for i in range(len(kept)):
        # Two references: the list's and the argument's. Any holder of
        # the caller's adds one (a view holds its base).
        if sys.getrefcount(kept[i]) == 2:
            return kept.pop(i)
    return None


def batches(cursor, n):
    """Yields the cursor's elements as structured arrays of @n records
    (the last one shorter; dtype: record_dtypes()[1]), each filled in
    place by the library: no copy, no Python object per element.

    An array yielded before that the caller no longer holds is filled
    again instead of a new one: a new array of 65,536 records is 7 MiB of
    fresh pages the kernel zeroes and faults in, which cost about a tenth
    of a batch loop's CPU. A `for batch in ...` loop still names the
    previous array while it asks for the next one, so two are kept."""
    np = need("numpy", "element_batches()")
    _, public = record_dtypes(np)
    size = public.itemsize
    kept = []
    while True:
        out = _unheld(kept)
        if out is None:
            out = np.empty(n, public)
        base, have = out.ctypes.data, 0
        # A call fills all @n records but at the end of the decode; a
        # short one (its error next) is followed by another.
        while have < n:
            got = cursor.fill(base + have * size, n - have)
            if got == 0:
                break
            have += got
        if have == 0:
            return
        if have < n:
            yield out[:have].copy()
            return
        kept.append(out)
        if len(kept) > KEPT:
            kept.pop(0)
        yield out


def _common(pd, np, a):
    f = a["fields"]
    return {
        "cpu": pd.arrays.IntegerArray(a["cpu"], (f & FIELD_CPU) == 0),
        "pid": pd.arrays.IntegerArray(a["pid"], (f & FIELD_PID) == 0),
        "tid": pd.arrays.IntegerArray(a["tid"], (f & FIELD_TID) == 0),
        "time": pd.arrays.IntegerArray(a["time"], (f & FIELD_TIME) == 0),
    }


def _names(np, table, codes):
    return np.asarray(table, dtype=object)[np.minimum(codes, len(table) - 1)]


def frame(kind, arrays):
    """The DataFrame @kind ("elements" or "branches") of the batch
    arrays @arrays."""
    np = need("numpy", f"to_pandas({kind!r})")
    pd = need("pandas", f"to_pandas({kind!r})")
    _, public = record_dtypes(np)
    a = np.concatenate(list(arrays)) if arrays else np.empty(0, public)
    if kind == "branches":
        a = a[a["type"] == BRANCH]
        cols = _common(pd, np, a)
        cols["from"], cols["to"] = a["from"], a["to"]
        kinds = _names(np, BRANCH_KINDS, a["kind"])
        kinds[(a["fields"] & FIELD_NO_KIND) != 0] = None
        cols["kind"] = pd.Categorical(kinds, categories=BRANCH_KINDS)
        # The record's counters word (-j counter), missing where the
        # branch has none (the jsonl leaves "counters" out there).
        cols["counters"] = pd.arrays.IntegerArray(
            a["counters"], (a["fields"] & FIELD_BR_COUNTERS) == 0)
        return pd.DataFrame(cols)
    cols = {"type": pd.Categorical(_names(np, TYPE_NAMES, a["type"]),
                                   categories=TYPE_NAMES)}
    cols.update(_common(pd, np, a))
    is_range, is_branch = a["type"] == RANGE, a["type"] == BRANCH
    kind_names = np.full(len(a), None, dtype=object)
    kind_names[is_range] = _names(np, ISA_NAMES, a["kind"][is_range])
    kind_names[is_branch] = _names(np, BRANCH_KINDS, a["kind"][is_branch])
    kind_names[is_branch & ((a["fields"] & FIELD_NO_KIND) != 0)] = None
    is_gap = a["type"] == 6
    kind_names[is_gap] = _names(np, GAP_REASONS, a["kind"][is_gap])
    cols["kind"] = kind_names
    for name in ("from", "to", "count", "trace_offset", "fields"):
        cols[name] = a[name]
    return pd.DataFrame(cols)
