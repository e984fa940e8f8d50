/* The content of a pprof profile, apart from how profile.proto numbers
 * it: locations and samples identified by what they hold (a location by
 * its process, address, binary and lines; a sample by its labels and its
 * stack of locations), so that profiles of several captures, or partial
 * results of them, add up whatever order they come in, and the written
 * profile numbers everything in one canonical order (pprof_write.c):
 * strings sorted, functions by name then file, mappings by binary,
 * locations and samples by their content. For analysis/export/pprof.c
 * and the partial results of analysis/partial/. */
#ifndef HWT_ANALYSIS_EXPORT_PPROF_PROFILE_H
#define HWT_ANALYSIS_EXPORT_PPROF_PROFILE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "analysis/util/strmap.h"

/* One line of a location: a function (by name and source file) and the
 * line in it; start_line is the line the function starts on when this
 * location knows it (the function holding the code), 0 when not (an
 * inlined one). Texts are the profile's own (pprof_text), never NULL. */
struct pprof_line {
	const char *name, *file;
	uint64_t line, start_line;
};

/* A binary's mapping: its path, build id ("" when unknown) and bias
 * (address minus file offset). */
struct pprof_map {
	const char *dso, *build_id;
	uint64_t bias;
};

struct pprof_loc {
	int64_t pid;                 /* -1: none */
	uint64_t addr;
	size_t map;                  /* index + 1 in maps, 0: no binary */
	size_t first_line, nlines;   /* in lines */
};

/* Labels: -1 (NULL for comm) when the sample has none. */
struct pprof_sample {
	int64_t pid, tid, cpu;
	const char *comm;
	size_t first_loc, nlocs;     /* in stack: leaf first */
	uint64_t v[3];               /* instructions, branches, nanoseconds */
};

struct pprof_profile {
	struct hwt_strmap texts;     /* every text, once */
	struct hwt_strmap loc_keys;  /* a location's content -> index + 1 */
	struct pprof_loc *locs;
	size_t nlocs, locs_cap;
	struct pprof_line *lines;
	size_t nlines, lines_cap;
	struct hwt_strmap map_keys;  /* a mapping's content -> index + 1 */
	struct pprof_map *maps;
	size_t nmaps, maps_cap;
	struct hwt_strmap sample_keys; /* labels and stack -> index + 1 */
	struct pprof_sample *samples;
	size_t nsamples, samples_cap;
	size_t *stack;               /* location indexes */
	size_t nstack, stack_cap;
	bool has_time;               /* the nanoseconds column */
	bool srcline;                /* symbols had source lines */
	/* Branch records (sampled stacks): how many, their periods. */
	uint64_t records, period_min, period_max;
};

void pprof_profile_free(struct pprof_profile *p);

/* @s kept in the profile (NULL as ""); NULL when out of memory. */
const char *pprof_text(struct pprof_profile *p, const char *s);

/* The mapping of @m's content (its texts need not be the profile's):
 * its index + 1, 0 when out of memory. */
size_t pprof_add_map(struct pprof_profile *p, const struct pprof_map *m);

/* The location of @l's content, its lines @lines[0..l->nlines) (l's
 * first_line is not read; texts need not be the profile's): its index,
 * SIZE_MAX when out of memory. */
size_t pprof_add_loc(struct pprof_profile *p, const struct pprof_loc *l,
		     const struct pprof_line *lines);

/* Adds @s's values to the sample of its labels and of the stack
 * @stack[0..s->nlocs) (the profile's location indexes; s's first_loc is
 * not read). Errors: HWT_ERR_FORMAT (a value would pass 2^63 - 1, the
 * largest profile.proto holds), HWT_ERR_NOMEM. */
int pprof_add_sample(struct pprof_profile *p, const struct pprof_sample *s,
		     const size_t *stack);

/* Counts @records more branch records of periods @min to @max. */
void pprof_add_records(struct pprof_profile *p, uint64_t records,
		       uint64_t min, uint64_t max);

/* Adds all of @src to @dst. Errors: pprof_add_sample's. */
int pprof_profile_merge(struct pprof_profile *dst,
			const struct pprof_profile *src);

/* The canonical order (pprof_order.c): *@loc_order the location indexes
 * in order, *@loc_rank (by location index) each one's place in it,
 * *@sample_order the sample indexes in order; the caller frees the
 * three. Errors: HWT_ERR_NOMEM. */
int pprof_order(const struct pprof_profile *p, size_t **loc_rank,
		size_t **loc_order, size_t **sample_order);

/* Writes @p as a gzip-compressed profile.proto to @out (pprof_write.c);
 * *@nfuncs the functions it named. Errors: HWT_ERR_NOMEM, HWT_ERR_IO. */
int pprof_profile_write(const struct pprof_profile *p, FILE *out,
			size_t *nfuncs);

/* The profile of a finished pprof export made with opts.partial, owned
 * by @ex; NULL for other exports (pprof.c). */
struct hwt_export;
const struct pprof_profile *hwt_pprof_profile(const struct hwt_export *ex);

#endif
