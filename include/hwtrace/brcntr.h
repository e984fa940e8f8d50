/* Branch counters (PERF_SAMPLE_BRANCH_COUNTERS, `perf record -j counter`,
 * Linux 6.8, Intel's LBR event logging): with them, a branch-stack sample
 * carries one counter word per record after its records. The word packs
 * the occurrences, since the record before, of each event of the sampled
 * event's group that asked for counters: branch_counter_width bits each
 * (the CPU_PMU_CAPS feature of the capture, caps/branch_counter_width of
 * the PMU), in group order, the first such event in the lowest bits. The
 * kernel saturates each count at (1 << width) - 1: a field at that value
 * says "at least this many". docs/branch-records.md has the rest. */
#ifndef HWTRACE_BRCNTR_H
#define HWTRACE_BRCNTR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hwtrace/common.h"
#include "hwtrace/perfdata.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The most events of one group with counters hwtrace splits a word into
 * (Intel has 4 counters; a group asking for more is refused by the
 * kernel, and a file claiming more is refused here). */
#define HWT_BRCNTR_MAX_EVENTS 16u

/* The events whose counts a sample's counter words hold. */
struct hwt_brcntr_group {
	/* Bits of each event's count (branch_counter_width), 1 to 64. */
	unsigned width;
	/* Events with counters in the group: the word's fields, at most
	 * HWT_BRCNTR_MAX_EVENTS, nr * width at most 64. */
	unsigned nr;
	/* The group's leader and member count as the file says them
	 * (GROUP_DESC); an event in no group is its own leader, alone. */
	size_t leader, nmembers;
	/* Field i's event: its index among the reader's attributes, and
	 * its name (EVENT_DESC; NULL when the file has none). */
	size_t events[HWT_BRCNTR_MAX_EVENTS];
	const char *names[HWT_BRCNTR_MAX_EVENTS];
};

/* The counter width and number the capture of @reader says the cpu PMU
 * has: the branch_counter_width and branch_counter_nr keys of its
 * CPU_PMU_CAPS feature (perf record writes every file of the PMU's
 * caps/ there). @nr may be NULL. Errors: HWT_ERR_NOENT when the feature
 * or the width key is absent (the file's recorder did not say; a
 * hybrid machine's caps are in PMU_CAPS, not read), HWT_ERR_FORMAT for
 * a section that is not a list of perf strings or a width that is not
 * 1 to 64 (naming the file and the key). */
HWT_API int hwt_brcntr_caps(const struct hwt_pd_reader *reader,
			    unsigned *width, unsigned *nr);

/* The group of the reader's attribute @attr (an index) and the events of
 * it whose counts its samples' counter words hold, in *@out: the group
 * GROUP_DESC puts it in (its leader's index and the members after it in
 * attribute order), else the event alone; of its members, those whose
 * branch_sample_type has PERF_SAMPLE_BRANCH_COUNTERS, in group order,
 * which is the order the kernel packs them in; the width from
 * hwt_brcntr_caps. An event without PERF_SAMPLE_BRANCH_COUNTERS gives
 * nr 0 and returns 0. Errors: those of hwt_brcntr_caps; HWT_ERR_INVAL
 * for an @attr the reader does not have; HWT_ERR_FORMAT for a GROUP_DESC
 * that is not perf's layout or names events the file does not have, and
 * for more events with counters than HWT_BRCNTR_MAX_EVENTS or than 64
 * bits hold (each named with the file). */
HWT_API int hwt_brcntr_group_of(const struct hwt_pd_reader *reader,
				size_t attr, struct hwt_brcntr_group *out);

/* Splits counter word @word into @nr counts of @width bits (1 to 64)
 * each, field 0 in the lowest bits, into @counts[0..nr). Fields that do
 * not fit in 64 bits are not read: returns how many were written,
 * min(@nr, 64 / @width), 0 for a width of 0 or above 64. */
HWT_API unsigned hwt_brcntr_count(uint64_t word, unsigned width, unsigned nr,
				  uint64_t *counts);

/* Whether @count, a field of @width bits, is the kernel's saturated
 * value (1 << width) - 1: the events happened at least that often. */
HWT_API bool hwt_brcntr_saturated(uint64_t count, unsigned width);

#ifdef __cplusplus
}
#endif

#endif
