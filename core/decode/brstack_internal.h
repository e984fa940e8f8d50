/* Branch-stack samples of a perf.data file (LBR, Arch LBR, BRBE, BRS),
 * gathered while its records are read and turned into elements once the
 * memory image is complete (decode_file.c, brstack_file.c). */
#ifndef HWT_CORE_BRSTACK_INTERNAL_H
#define HWT_CORE_BRSTACK_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "core/decode/cpu_set.h"
#include "hwtrace/brstack.h"
#include "hwtrace/decode.h"
#include "hwtrace/element.h"
#include "hwtrace/image.h"
#include "hwtrace/perfdata.h"

struct hwt_brstack_sample {
	/* The reader's attribute index: a pointer would not outlive a pipe
	 * that brings more attributes later. */
	size_t attr;
	uint64_t at;   /* file offset, or arena offset when in_arena */
	uint32_t size; /* of the record */
};

struct hwt_brstack_store {
	struct hwt_brstack_sample *e;
	size_t n, cap;
	uint8_t *arena; /* pipe mode, compressed files: the records */
	size_t arena_len, arena_cap;
	bool in_arena;
	uint64_t bad;   /* samples that did not parse */
	uint64_t first_bad; /* the first one's file offset */
	uint64_t bytes; /* of the samples kept */
	/* The element streams the samples make, keyed as the time-ordered
	 * merge keys them (CPU, else thread): the first one's key, and
	 * whether another came. With one stream there is nothing to order. */
	int64_t stream_key;
	bool streams_many;
	/* The CPUs of the kept samples that carry one (PERF_SAMPLE_CPU), for
	 * saying which there are when --cpu names none of them. */
	struct hwt_cpu_set cpus;
};

/* Element streams the kept samples make: 0, 1 or 2 (more than one). */
uint32_t hwt_brstack_store_streams(const struct hwt_brstack_store *bs);

/* What turning the records into elements found. */
struct hwt_brstack_stats {
	uint64_t samples, records;
	uint64_t ranges;       /* ranges between records, code walked */
	uint64_t no_code;      /* ranges left out: code not in the image */
	uint64_t not_straight; /* left out: the code between does not run
				* straight from one record to the next */
};

/* One record of a stack as hwt_brstack_emit_stack takes it: the kind
 * is known (has_kind) from its type field, or from the trace decoder
 * that found the branch; else the code at its source tells. */
struct hwt_brstack_rec {
	struct hwt_brstack_entry e;
	bool has_kind;
	enum hwt_branch_kind kind;
	bool has_counters; /* e.counters is the sample's (-j counter) */
	/* With has_counters, the word's split (hwtrace/brcntr.h): bits
	 * a count and counts; 0 and 0 when the capture does not say. */
	uint8_t counter_width, counter_events;
};

/* One stack: @nr records that @get gives by depth (0: the newest), all
 * with @head's common fields (cpu, pid, tid, time; every other byte 0)
 * and @weight. @every: the stack holds every taken branch, so straight
 * code runs between two records. */
struct hwt_brstack_stack {
	const struct hwt_elem *head;
	uint64_t weight;
	bool every;
	uint64_t nr;
	void (*get)(const void *arg, uint64_t i, struct hwt_brstack_rec *out);
	const void *arg;
};

/* The code between records, read from @image (may be NULL) with an
 * instruction decoder for @isa (none for HWT_ISA_UNKNOWN: records go out
 * without ranges), and a cache of the walks done. Errors: HWT_ERR_NOMEM. */
struct hwt_brstack_code;
int hwt_brstack_code_new(struct hwt_image *image, enum hwt_isa isa,
			 struct hwt_brstack_code **out);
/* NULL is a no-op. */
void hwt_brstack_code_free(struct hwt_brstack_code *c);

/* The common fields of sample @s's elements (cpu, pid, tid, time) in
 * *@head, every other byte 0. */
void hwt_brstack_head(const struct hwt_aux_sample *s, struct hwt_elem *head);

/* Emits @s's records to @out oldest first: a BRANCH element per record
 * (HWT_FIELD_SAMPLED, depth, weight; HWT_BRANCH_CONSECUTIVE where the
 * record before it is the branch before it) and, between two records of
 * an @every stack, the RANGE from the older one's target to the newer
 * one's branch where the code is known and runs straight. Counts into
 * @st (not cleared). Errors: @out's. */
int hwt_brstack_emit_stack(struct hwt_brstack_code *c,
			   const struct hwt_brstack_stack *s,
			   const struct hwt_elem_sink *out,
			   struct hwt_brstack_stats *st);

/* Keeps @rec when it is a sample with a branch stack (and no AUX data:
 * AUX samples are sample_file.c's). Errors: HWT_ERR_NOMEM. */
int hwt_brstack_store_add(struct hwt_brstack_store *bs,
			  struct hwt_pd_reader *reader,
			  const struct hwt_pd_record *rec);

/* Emits every kept sample's records to @out, each stack oldest record
 * first: a BRANCH element per record (HWT_FIELD_SAMPLED) and, between
 * two records, the RANGE that ran from the older one's target to the
 * newer one's branch, where @image (may be NULL) holds that code and it
 * runs straight. @isa is the traced code's. Errors: @out's,
 * HWT_ERR_NOMEM, the reader's. */
int hwt_brstack_store_decode(struct hwt_brstack_store *bs,
			     struct hwt_pd_reader *reader,
			     struct hwt_image *image, enum hwt_isa isa,
			     const struct hwt_elem_sink *out,
			     struct hwt_brstack_stats *stats);

void hwt_brstack_store_free(struct hwt_brstack_store *bs);

#endif
