#!/usr/bin/env python3
"""perf_sample_cpus.py [--branch-stack] FILE: the CPUs of FILE's samples.

Reads a perf.data file (little-endian PERFILE2, not pipe mode) with the
standard library alone, independently of hwtrace's reader: the header,
each attribute's sample_type and its sample ids, then every
PERF_RECORD_SAMPLE of the data section, whose cpu field comes after
IDENTIFIER, IP, TID, TIME, ADDR, ID and STREAM_ID where the attribute's
sample_type has PERF_SAMPLE_CPU (an AUXTRACE record's trace, which follows
it outside its size, is stepped over). With --branch-stack only the samples of
attributes with PERF_SAMPLE_BRANCH_STACK count (branch records: LBR,
BRBE, BRS). Prints the set as ascending ranges, "0-3, 7" (a run of two
is a range too), an empty line for none; exits 1, naming the file and
the offset, on a file it cannot read.
"""
import struct
import sys

SAMPLE_IP = 1 << 0
SAMPLE_TID = 1 << 1
SAMPLE_TIME = 1 << 2
SAMPLE_ADDR = 1 << 3
SAMPLE_ID = 1 << 6
SAMPLE_CPU = 1 << 7
SAMPLE_STREAM_ID = 1 << 9
SAMPLE_BRANCH_STACK = 1 << 11
SAMPLE_IDENTIFIER = 1 << 16
RECORD_SAMPLE = 9
# Its trace follows the record, outside the record's size.
RECORD_AUXTRACE = 71


class Unreadable(Exception):
    pass


def u64(buf, at):
    if at + 8 > len(buf):
        raise Unreadable("offset %#x: a u64 past the end" % at)
    return struct.unpack_from("<Q", buf, at)[0]


def read_attrs(buf):
    """[(sample_type, [ids])] of the attribute section."""
    attr_size, attrs_off, attrs_size = u64(buf, 16), u64(buf, 24), u64(buf, 32)
    if attr_size < 16 + 32 or attrs_size % attr_size:
        raise Unreadable("header: attribute size %d does not divide the "
                         "section's %d bytes" % (attr_size, attrs_size))
    attrs = []
    for at in range(attrs_off, attrs_off + attrs_size, attr_size):
        sample_type = u64(buf, at + 24)
        # After the perf_event_attr: the file section of its ids.
        ids_off, ids_size = u64(buf, at + attr_size - 16), u64(buf, at + attr_size - 8)
        ids = [u64(buf, ids_off + 8 * i) for i in range(ids_size // 8)]
        attrs.append((sample_type, ids))
    if not attrs:
        raise Unreadable("header: no attribute")
    return attrs


def id_offset(sample_type):
    """Where a sample's id is, from the record's body start, or None."""
    if sample_type & SAMPLE_IDENTIFIER:
        return 0
    if not sample_type & SAMPLE_ID:
        return None
    at = 0
    for bit in (SAMPLE_IP, SAMPLE_TID, SAMPLE_TIME, SAMPLE_ADDR):
        if sample_type & bit:
            at += 8
    return at


def cpu_offset(sample_type):
    at = 0
    for bit in (SAMPLE_IDENTIFIER, SAMPLE_IP, SAMPLE_TID, SAMPLE_TIME,
                SAMPLE_ADDR, SAMPLE_ID, SAMPLE_STREAM_ID):
        if sample_type & bit:
            at += 8
    return at


def sample_cpus(buf, branch_stack_only):
    if buf[:8] != b"PERFILE2":
        raise Unreadable("offset 0: not a little-endian perf.data file "
                         "(PERFILE2), or a pipe-mode one")
    attrs = read_attrs(buf)
    by_id = {i: a for a in attrs for i in a[1]}
    # Every attribute puts its id in the same place (perf needs that to
    # tell them apart); the first one's says where.
    where_id = id_offset(attrs[0][0])
    data_off, data_size = u64(buf, 40), u64(buf, 48)
    end = data_off + data_size
    if end > len(buf):
        raise Unreadable("header: the data section ends at %#x, past the "
                         "file's %#x bytes" % (end, len(buf)))
    cpus = set()
    at = data_off
    while at + 8 <= end:
        rtype, _misc, size = struct.unpack_from("<IHH", buf, at)
        if size < 8 or at + size > end:
            raise Unreadable("offset %#x: a record of %d bytes" % (at, size))
        body = at + 8
        if rtype == RECORD_SAMPLE:
            attr = attrs[0]
            if len(attrs) > 1 and where_id is not None:
                attr = by_id.get(u64(buf, body + where_id), attr)
            st = attr[0]
            if st & SAMPLE_CPU and (not branch_stack_only or
                                    st & SAMPLE_BRANCH_STACK):
                cpu_at = body + cpu_offset(st)
                if cpu_at + 4 > at + size:
                    raise Unreadable("offset %#x: a sample too short for its "
                                     "cpu field" % at)
                cpus.add(struct.unpack_from("<I", buf, cpu_at)[0])
        at += size
        if rtype == RECORD_AUXTRACE:
            at += u64(buf, body)
    return cpus


def ranges(cpus):
    out, run = [], None
    for c in sorted(cpus):
        if run and c == run[1] + 1:
            run[1] = c
        else:
            run = [c, c]
            out.append(run)
    return ", ".join(str(a) if a == b else "%d-%d" % (a, b) for a, b in out)


def main(argv):
    args = [a for a in argv[1:] if a != "--branch-stack"]
    if len(args) != 1:
        sys.stderr.write("usage: perf_sample_cpus.py [--branch-stack] FILE\n")
        return 2
    try:
        with open(args[0], "rb") as f:
            buf = f.read()
        print(ranges(sample_cpus(buf, "--branch-stack" in argv)))
    except (OSError, Unreadable) as e:
        sys.stderr.write("perf_sample_cpus.py: %s: %s\n" % (args[0], e))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
