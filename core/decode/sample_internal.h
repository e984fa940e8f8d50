/* AUX samples of a perf.data file, gathered while its records are read
 * and decoded once the memory image is complete (decode_file.c). */
#ifndef HWT_CORE_SAMPLE_INTERNAL_H
#define HWT_CORE_SAMPLE_INTERNAL_H

#include <stdio.h>

#include "core/decode/brstack_internal.h"
#include "hwtrace/perfdata.h"
#include "hwtrace/sample.h"

struct hwt_sample_entry {
	struct hwt_aux_sample s; /* s.aux is not kept: see data */
	uint64_t data;           /* file offset, or arena offset in pipe mode */
};

struct hwt_sample_store {
	struct hwt_sample_entry *e;
	size_t n, cap;
	uint8_t *arena;          /* pipe mode: the payloads */
	size_t arena_len, arena_cap;
	bool in_arena;
	uint64_t bad;            /* samples that did not parse */
	uint64_t max_size;
};

/* The attribute of sample @rec: by its id, or the file's only one; NULL
 * when neither. */
const struct perf_event_attr *hwt_sample_attr(struct hwt_pd_reader *r,
					      const struct hwt_pd_record *rec);

/* Appends @n bytes of @data to the growing buffer *@arena (*@len bytes
 * used of *@cap), *@at where they went. HWT_ERR_NOMEM (no message
 * set), leaving the buffer as it was. */
int hwt_sample_arena_put(uint8_t **arena, size_t *len, size_t *cap,
			 const void *data, size_t n, uint64_t *at);

/* Keeps @rec when it is a sample with AUX data. Errors: HWT_ERR_NOMEM. */
int hwt_sample_store_add(struct hwt_sample_store *ss,
			 struct hwt_pd_reader *reader,
			 const struct hwt_pd_record *rec);

/* Virtual LBR (sample_vlbr.c): what a decode with --virtual-lbr N
 * hands out and found. */
struct hwt_sample_vlbr {
	unsigned int n;                /* records a sample takes, 1 and up */
	struct hwt_brstack_code *code; /* the code between records */
	uint64_t samples;
	uint64_t short_stacks;         /* samples with fewer than n branches */
	uint64_t empty;                /* of those, with none (no sync point,
					* or no taken branch in the window) */
	struct hwt_brstack_stats br;   /* the records and ranges emitted */
};

/* Sample @s, whose window decoded to @res, as the newest vl->n of its
 * branches: branch-stack records (hwt_brstack_emit_stack) to @out;
 * nothing for a window without branches. Counts into @vl. Errors:
 * @out's. */
int hwt_sample_vlbr_emit(struct hwt_sample_vlbr *vl,
			 const struct hwt_aux_sample *s,
			 const struct hwt_window_result *res,
			 const struct hwt_elem_sink *out);

/* Decodes every kept sample's window with @b into SAMPLE elements (and
 * the gaps of windows without a sync point) to @out; with @vl (may be
 * NULL), into virtual LBR records instead of SAMPLE elements. @params
 * carries the capture's info, cpu model and pid_at; @image the code. */
int hwt_sample_store_decode(struct hwt_sample_store *ss,
			    struct hwt_pd_reader *reader,
			    const struct hwt_backend *b,
			    const struct hwt_decode_params *params,
			    struct hwt_image *image,
			    struct hwt_sample_vlbr *vl,
			    const struct hwt_elem_sink *out);

void hwt_sample_store_free(struct hwt_sample_store *ss);

/* Counts the branches of the elements that pass (into @p) and forwards
 * them to @next (NULL: drops them). */
struct hwt_profile_sink {
	struct hwt_branch_profile *p;
	const struct hwt_elem_sink *next;
};

struct hwt_elem_sink hwt_profile_sink(struct hwt_profile_sink *ps);

#endif
