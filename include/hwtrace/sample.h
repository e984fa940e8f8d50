/* AUX sampling (DESIGN.md §4): samples of an ordinary event (cycles,
 * branch-misses, ...) that each carry the last bytes of trace the AUX
 * event wrote before them (PERF_SAMPLE_AUX), decoded into a branch stack
 * per sample. */
#ifndef HWTRACE_SAMPLE_H
#define HWTRACE_SAMPLE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <linux/perf_event.h>

#include "hwtrace/backend.h"
#include "hwtrace/common.h"
#include "hwtrace/element.h"
#include "hwtrace/image.h"

#ifdef __cplusplus
extern "C" {
#endif

/* perf's limits (tools/perf/util/auxtrace.c): the size asked for when none
 * is given, and the most that leaves room for the rest of a sample in a
 * record whose size field is 16 bits. */
#define HWT_AUX_SAMPLE_DEFAULT_SIZE 4096u
#define HWT_AUX_SAMPLE_MAX_SIZE (60u * 1024u)

/* One PERF_RECORD_SAMPLE of an event with PERF_SAMPLE_AUX or
 * PERF_SAMPLE_BRANCH_STACK. */
struct hwt_aux_sample {
	uint64_t present;        /* PERF_SAMPLE_* bits the record carried */
	uint64_t ip, time, id, period, addr;
	uint32_t pid, tid, cpu;
	const uint8_t *aux;      /* inside the record; NULL when size is 0 */
	uint64_t aux_size;
	uint64_t aux_pos;        /* byte offset of aux in the record */
	/* PERF_SAMPLE_BRANCH_STACK: br_nr records of
	 * HWT_BRSTACK_ENTRY_SIZE bytes at br, newest first (read them with
	 * hwt_brstack_entry_get, hwtrace/brstack.h); br NULL when br_nr is
	 * 0. br_cntr: the br_nr counter words of
	 * PERF_SAMPLE_BRANCH_COUNTERS, else NULL. */
	const uint8_t *br;
	const uint8_t *br_cntr;
	uint64_t br_nr;
	uint64_t br_hw_idx;      /* valid when has_hw_idx */
	bool has_hw_idx;         /* PERF_SAMPLE_BRANCH_HW_INDEX */
};

/* Parses a PERF_RECORD_SAMPLE (header included) of the event @attr, walking
 * every field its sample_type, read_format and branch_sample_type put
 * before the AUX data. @out points into @record. Errors: HWT_ERR_FORMAT
 * when the record is not a sample, is cut short, or a length inside it
 * runs past its end. */
HWT_API int hwt_aux_sample_parse(const void *record,
				 const struct perf_event_attr *attr,
				 struct hwt_aux_sample *out);

/* Checks an AUX sample size against perf's limits and, for Intel PT, the
 * PSB period (2^(psb_period + 11) bytes between PSBs): a window of at
 * most the period plus 256 bytes may hold no PSB and decode to nothing.
 * @psb_period < 0 when not known. Returns 0 (with @warn set to a message
 * when the size is risky, else to "") or HWT_ERR_CONFIG for a size of 0 or
 * above HWT_AUX_SAMPLE_MAX_SIZE, naming @what (the option or INI key). */
HWT_API int hwt_aux_sample_size_check(uint64_t size, int psb_period,
				      const char *what, char *warn,
				      size_t warn_size);

/* What decoding one window gave. Pointers are valid until the next call
 * on the decoder. */
struct hwt_window_result {
	const struct hwt_branch_entry *branches; /* newest first; may be
						     NULL when nbranches is 0 */
	size_t nbranches;
	bool synced;           /* a synchronisation point was found */
	uint64_t sync_offset;  /* where, from the window's start */
	uint64_t errors;       /* decode errors and gaps after the sync */
};

struct hwt_window_decoder;

/* A decoder of windows of trace with backend @backend's decoder, reading
 * code from @image (borrowed, may be NULL). @params may be NULL or carry
 * the AUXTRACE_INFO, cpu model, pid_at and aux_attr of the capture (its
 * image and sink are ignored). @gaps, when non-NULL, receives the gap and
 * error elements of each window except the leading bytes before the
 * first sync point (which every window has). Errors: HWT_ERR_NOSUP (no
 * decoder), HWT_ERR_NOMEM, and the decoder's own. */
HWT_API int hwt_window_decoder_new(const struct hwt_backend *backend,
				   const struct hwt_decode_params *params,
				   struct hwt_image *image,
				   const struct hwt_elem_sink *gaps,
				   struct hwt_window_decoder **out);

/* NULL is a no-op. */
HWT_API void hwt_window_decoder_free(struct hwt_window_decoder *wd);

/* Decodes @size bytes at @data (the @size bytes of the stream that end
 * at the sample) alone: it syncs at the first synchronisation point inside
 * and decodes to the end. @cpu/@tid as in struct hwt_aux_chunk (they pick
 * the process whose code is read). @offset is the window's position in its
 * stream, for gap offsets. Errors: the decoder's, the gap sink's,
 * HWT_ERR_NOMEM. */
HWT_API int hwt_window_decode(struct hwt_window_decoder *wd,
			      const uint8_t *data, uint64_t size,
			      uint64_t offset, int32_t cpu, int32_t tid,
			      struct hwt_window_result *res);

/* A branch-count profile: how often each from->to branch was taken. */
struct hwt_branch_profile;

/* NULL when out of memory. */
HWT_API struct hwt_branch_profile *hwt_branch_profile_new(void);
/* NULL is a no-op. */
HWT_API void hwt_branch_profile_free(struct hwt_branch_profile *p);

/* Counts one branch, seen in process @pid (HWT_PID_ANY when unknown).
 * Errors: HWT_ERR_NOMEM. */
HWT_API int hwt_branch_profile_add(struct hwt_branch_profile *p, int32_t pid,
				   uint64_t from, uint64_t to);

/* Counts the branches of an element: a BRANCH element's, or every branch
 * in a SAMPLE element's stack. Other elements are ignored. */
HWT_API int hwt_branch_profile_add_elem(struct hwt_branch_profile *p,
					const struct hwt_elem *elem);

/* Distinct branches, and the count of @from->@to (0 when never seen). */
HWT_API size_t hwt_branch_profile_size(const struct hwt_branch_profile *p);
HWT_API uint64_t hwt_branch_profile_count(const struct hwt_branch_profile *p,
					  uint64_t from, uint64_t to);

/* Writes "FROM->TO COUNT" lines, most taken first (ties by address), with
 * an address as FILE+0xOFFSET (offset in the file) where @image (may be
 * NULL) maps a file there, else as 0xADDRESS. Errors: HWT_ERR_IO,
 * HWT_ERR_NOMEM. */
HWT_API int hwt_branch_profile_write(const struct hwt_branch_profile *p,
				     struct hwt_image *image, FILE *out);

/* The same with two more columns, the names of FROM and TO, from
 * @name_addr (see hwt_decode_opts.name_addr; "?" where it knows none).
 * @name_addr NULL: as hwt_branch_profile_write. */
HWT_API int hwt_branch_profile_write_named(
	const struct hwt_branch_profile *p, struct hwt_image *image, FILE *out,
	int (*name_addr)(void *arg, int32_t pid, uint64_t addr, char *buf,
			 size_t size),
	void *name_addr_arg);

/* The same as records to @sink (listing.h), most taken first; with
 * @name_addr NULL the records are not named. Errors: HWT_ERR_NOMEM, and
 * the sink's, which stop the listing. */
HWT_API int hwt_branch_profile_emit(
	const struct hwt_branch_profile *p, struct hwt_image *image,
	int (*name_addr)(void *arg, int32_t pid, uint64_t addr, char *buf,
			 size_t size),
	void *name_addr_arg, const struct hwt_branch_count_sink *sink);

#ifdef __cplusplus
}
#endif

#endif
