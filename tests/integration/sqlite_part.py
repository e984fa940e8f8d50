"""Writes an sqlite partial result of one capture's database, as
docs/scale-out.md describes the format (written here from that text,
not by hwtrace): usage: sqlite_part.py DATABASE PART."""

import sys
import zlib


def digest(data):
    """FNV-1a, 64 bits, over the 8-byte little-endian words, then the
    tail's bytes."""
    h = 0xcbf29ce484222325
    mask = (1 << 64) - 1
    words = len(data) // 8 * 8
    for i in range(0, words, 8):
        h ^= int.from_bytes(data[i:i + 8], "little")
        h = (h * 0x100000001b3) & mask
    for b in data[words:]:
        h ^= b
        h = (h * 0x100000001b3) & mask
    return h


def main(db, part):
    with open(db, "rb") as f:
        data = f.read()
    packed = zlib.compress(data, 1)
    line = "capture %d %016x %d %08x\n" % (len(data), digest(data),
                                           len(packed), zlib.crc32(packed))
    with open(part, "wb") as f:
        f.write(b"hwtrace-partial 2 sqlite\n" + line.encode() + packed
                + b"\nend 1\n")


if __name__ == "__main__":
    main(*sys.argv[1:])
