/* What one decode of a capture is asked to list, as typed values (the
 * options of `hwtrace decode`), and the check of what goes together:
 * perf script's -F lines, the --comm, --dso and --sym filters, and the
 * listings other than elements (packets, the branch profile, calls,
 * edges). A script or a batch worker fills the request from its own
 * settings and gets the refusals the command prints, word for word (they
 * name the command's options, the words the user knows them by). */
#ifndef HWTRACE_DECODE_REQUEST_H
#define HWTRACE_DECODE_REQUEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hwtrace/capture.h"
#include "hwtrace/common.h"

#ifdef __cplusplus
extern "C" {
#endif

struct hwt_decode_request {
	size_t size;                  /* sizeof(struct hwt_decode_request) */
	enum hwt_capture_kind input;  /* FILE, --raw or --snapshot */
	bool maps;                    /* --map or --elf given */
	bool packets;                 /* --packets */
	bool profile;                 /* --branch-profile */
	bool calls;                   /* --calls */
	bool edges;                   /* --edges (or --edges-bitmap) */
	uint64_t edges_bitmap;        /* --edges-bitmap SIZE; 0: not given */
	bool partial;                 /* --partial */
	uint64_t unit;                /* --unit N; 0: not given */
	bool disasm;                  /* --disasm */
	bool jsonl;                   /* --format jsonl */
	bool no_symbols;              /* --no-symbols */
	uint32_t script_fields;       /* -F (hwt_script_field bits); 0: none */
	/* --comm, --dso, --sym lists; NULL: not given (an empty list is a
	 * filter given, as the command takes it). Borrowed. */
	const char *comms, *dsos, *syms;
	bool per_cpu;                 /* --per-cpu: each stream whole, in
				       * file order */
};

/* Checks that what @req asks for goes together, in the order the command
 * checks it: maps only with raw input, calls only on a perf.data capture,
 * -F with no other listing nor jsonl, the filters only on the elements of
 * a perf.data capture (and --dso, --sym with symbols), then the listings
 * among themselves (--calls, --packets, --disasm, --edges, --partial,
 * --unit). Returns 0, or HWT_ERR_CONFIG with the first refusal as the
 * message (hwt_errmsg), or HWT_ERR_INVAL for a NULL or short @req. */
HWT_API int hwt_decode_request_check(const struct hwt_decode_request *req);

/* The listing @req asks for, by the name a jsonl header gives it:
 * "edges" (--edges or --edges-bitmap), else "packets", "branch_profile",
 * "calls", and "elements" when none of them is asked. A static string;
 * "elements" for a NULL @req. */
HWT_API const char *hwt_decode_request_listing(
	const struct hwt_decode_request *req);

/* Whether @req's elements go to the library's printer alone: no -F
 * lines and none of the --comm, --dso, --sym filters, which write their
 * own lines in front of it. Such a decode may be written by the merged
 * decode's lanes (hwt_decode_merged's output); the others go one element
 * at a time through their consumer (hwt_decode_consumer_new). false for
 * a NULL @req. */
HWT_API bool hwt_decode_request_printer_alone(
	const struct hwt_decode_request *req);

/* Whether @req's elements are a perf.data capture's streams merged by
 * time (hwt_decode_merged): elements or -F lines of a FILE, not
 * --per-cpu. The branch profile, packets, edges and calls are made from
 * each stream in file order (calls through hwt_stack_decode, which
 * merges by itself). false for a NULL @req. */
HWT_API bool hwt_decode_request_time_merged(
	const struct hwt_decode_request *req);

#ifdef __cplusplus
}
#endif

#endif
