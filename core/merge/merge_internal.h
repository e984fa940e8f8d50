/* What the merge's writing side (merge.c) and reading side (merge_read.c)
 * share: each stream's records, where they lie, and where a reader may
 * start. */
#ifndef HWT_MERGE_INTERNAL_H
#define HWT_MERGE_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "core/merge/merge_codec.h"
#include "hwtrace/merge.h"

/* Bytes of a stream kept in memory before they go to the file, and the
 * read buffer of each stream at the end: memory is about twice this per
 * stream, whatever the size of the trace. */
#define CHUNK_BYTES (256u * 1024)

/* Records of a block: the codec starts afresh at each block, so that a
 * reader may start at any block (a slice of the read-back) without
 * decoding the stream from its beginning. */
#define BLOCK_RECORDS 4096u /* a power of two: a cheap remainder */

/* A stream's bytes are one sequence: its chunks in the file, then its
 * tail in memory. A position is an offset in that sequence. */
struct chunk_ref {
	uint64_t offset; /* in the file */
	uint64_t pos;    /* in the stream */
	uint32_t size;
};

struct block {
	uint64_t pos;     /* in the stream: its first record */
	uint64_t time;    /* its first record's order time */
};

struct stream {
	int64_t key;
	int32_t cpu, tid;       /* cpu -1: a per-thread stream */
	bool has_time;
	uint64_t last_time;
	uint8_t *buf;           /* the tail: records not in the file */
	size_t len, cap;
	uint64_t spilled;       /* the stream's bytes in the file */
	struct chunk_ref *chunks;
	size_t nchunks, chunks_cap;
	struct block *blocks;
	size_t nblocks, blocks_cap;
	uint64_t records;
	struct merge_codec wc;
};

struct hwt_merge {
	struct hwt_elem_sink out;
	struct stream *streams; /* in order of appearance */
	size_t n, cap;
	size_t last;            /* the stream the last element went to */
	FILE *spill;
	uint64_t spill_size;
	struct hwt_merge_stats stats;
	/* The decode said it has one stream (hwt_merge_expect_streams):
	 * the first stream's elements go straight out while it is the only
	 * one. */
	bool direct;
};

#endif
