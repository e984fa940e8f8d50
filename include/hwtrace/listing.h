/* Listings as records: the packet layer of a trace (`decode --packets`)
 * and the branch-count profile (`decode --branch-profile`) come out of
 * the library one record at a time through a callback, as OpenCSD's
 * packet sinks give packets, so a script reads typed fields instead of
 * parsing text. Two printers render the records: text (the lines of
 * `hwtrace decode`) and jsonl (docs/jsonl.md). */
#ifndef HWTRACE_LISTING_H
#define HWTRACE_LISTING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "hwtrace/common.h"

#ifdef __cplusplus
extern "C" {
#endif

enum hwt_packet_rec_type {
	HWT_PACKET_REC_PACKET,     /* a packet, record or message of the trace */
	HWT_PACKET_REC_AUX_BUFFER, /* a perf.data AUXTRACE record: the buffer that follows */
	HWT_PACKET_REC_NOTE,       /* a line about the stream: its size, a decode error */
};

/* One of a packet's fields: a name and its value. */
struct hwt_packet_field {
	const char *name;
	uint64_t value;
};

/* One line of a packet listing. Every pointer is borrowed for the
 * callback's duration. */
struct hwt_packet_rec {
	enum hwt_packet_rec_type type;
	const char *backend;  /* the lister's backend: "intel_pt", "cs_etm", .. */
	bool has_offset;
	uint64_t offset;      /* byte offset in the trace stream */
	/* The packet's kind as the backend names it ("tip", "branch",
	 * "idle", "error"); NULL for a note. */
	const char *kind;
	/* The backend's line for it, without the newline: what the text
	 * printer writes and jsonl's "text". */
	const char *text;
	/* The typed fields the backend decodes (Intel BTS "from" and "to";
	 * N-Trace the TCODE and each field of the message); may be none. */
	const struct hwt_packet_field *fields;
	size_t nfields;
	/* HWT_PACKET_REC_AUX_BUFFER: the AUXTRACE record's idx, cpu and tid
	 * (-1: none), and where its data lies in the file. */
	uint32_t aux_idx;
	int32_t aux_cpu, aux_tid;
	uint64_t aux_size;
};

/* Where packet records go: @packet returns 0 or a negative error, which
 * stops the listing and is the decode's result. */
struct hwt_packet_sink {
	int (*packet)(void *arg, const struct hwt_packet_rec *rec);
	void *arg;
};

/* For a backend's lister: sends @sink the line (@type, @kind, @text) of
 * @backend at @offset (where @has_offset) with its @nfields @fields, no
 * AUX buffer; returns what the sink returns. */
HWT_API int hwt_packet_emit(const struct hwt_packet_sink *sink,
			    const char *backend, enum hwt_packet_rec_type type,
			    bool has_offset, uint64_t offset, const char *kind,
			    const struct hwt_packet_field *fields,
			    size_t nfields, const char *text);

/* The two printers, each a hwt_packet_sink.packet whose @file is a FILE *.
 * Text: the record's line. Jsonl: {"type":"packet"|"aux_buffer"|"note",..}.
 * Errors: HWT_ERR_IO when writing fails. */
HWT_API int hwt_packet_print_text(void *file, const struct hwt_packet_rec *rec);
HWT_API int hwt_packet_print_jsonl(void *file, const struct hwt_packet_rec *rec);

/* One branch of a branch-count profile, most taken first. */
struct hwt_branch_count_rec {
	int32_t pid;            /* HWT_PID_ANY when unknown */
	uint64_t from_addr, to_addr;
	/* The addresses as FILE+0xOFFSET where the image maps a file there,
	 * else as 0xADDRESS. */
	const char *from, *to;
	uint64_t count;
	/* The profile was written with names (hwt_decode_opts.name_addr);
	 * each is NULL where none is known. */
	bool named;
	const char *from_sym, *to_sym;
};

struct hwt_branch_count_sink {
	int (*branch)(void *arg, const struct hwt_branch_count_rec *rec);
	void *arg;
};

/* Text: "FROM->TO COUNT [FROM_SYM TO_SYM]" ("?" for a name not known);
 * jsonl: {"type":"branch_count",..}. @file is a FILE *. Errors:
 * HWT_ERR_IO. */
HWT_API int hwt_branch_count_print_text(void *file,
					const struct hwt_branch_count_rec *rec);
HWT_API int hwt_branch_count_print_jsonl(void *file,
					 const struct hwt_branch_count_rec *rec);

#ifdef __cplusplus
}
#endif

#endif
