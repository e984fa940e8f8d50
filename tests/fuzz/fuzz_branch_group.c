/* libFuzzer target for -e's event group for branch counters (hwtrace
 * record -j ...,counter -e '{A,B,...}', a profile's [branch] group): any
 * bytes, the first choosing -j's filter bits (counters or not, a
 * privilege level, call-stack mode) and the machine (4 counters of 2
 * bits, as intel-lbr-counters, or none), the rest the group. A group
 * that parses must be whole (1 to HWT_BRANCH_GROUP_MAX members, each
 * named, its PMU name a string, a hardware or raw event) and its check
 * must accept it or say why; every refusal must say why. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "hwtrace/brstack.h"
#include "hwtrace/error.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static bool terminated(const char *s, size_t n)
{
	return memchr(s, 0, n) != NULL;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	char *spec = malloc(size);
	if (!spec)
		abort();
	memcpy(spec, data + 1, size - 1);
	spec[size - 1] = 0;
	struct hwt_branch_group g;
	hwt_error_clear();
	int err = hwt_branch_group_parse(spec, "-e", &g);
	free(spec);
	if (err < 0) {
		if (err != HWT_ERR_CONFIG || !hwt_errmsg()[0])
			abort();
		return 0;
	}
	if (!g.n || g.n > HWT_BRANCH_GROUP_MAX)
		abort();
	for (unsigned i = 0; i < g.n; i++) {
		const struct hwt_branch_member *m = &g.m[i];
		if (!terminated(m->name, sizeof(m->name)) || !m->name[0] ||
		    !terminated(m->pmu, sizeof(m->pmu)) ||
		    (m->type != PERF_TYPE_HARDWARE && m->type != PERF_TYPE_RAW))
			abort();
	}
	uint8_t sel = data[0];
	uint64_t mode = PERF_SAMPLE_BRANCH_ANY;
	if (sel & 1)
		mode |= HWT_SAMPLE_BRANCH_COUNTERS;
	if (sel & 2)
		mode |= PERF_SAMPLE_BRANCH_USER;
	if (sel & 4)
		mode |= PERF_SAMPLE_BRANCH_CALL_STACK;
	struct hwt_branch_hw hw = {.kind = HWT_BRANCH_HW_LBR, .depth = 32,
				   .counters = sel & 8 ? 0 : 4,
				   .pmu = "cpu", .counter_width = sel & 8 ? 0 : 2};
	hwt_error_clear();
	err = hwt_branch_group_check(&g, &hw, mode, "-e G");
	if (err < 0 && (err != HWT_ERR_CONFIG || !hwt_errmsg()[0]))
		abort();
	/* Accepted: the leader asks for counters, no more than the PMU has. */
	unsigned asking = 0;
	for (unsigned i = 0; !err && i < g.n; i++)
		asking += !!(hwt_branch_group_member_mode(&g, i, mode) &
			     HWT_SAMPLE_BRANCH_COUNTERS);
	if (!err && (!asking || asking > hw.counters ||
		     !(hwt_branch_group_member_mode(&g, 0, mode) &
		       HWT_SAMPLE_BRANCH_COUNTERS)))
		abort();
	return 0;
}
