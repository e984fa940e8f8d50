/* Which events a branch-stack sample's counter words count
 * (hwtrace/brcntr.h), from the capture's attributes and two feature
 * sections as perf record writes them (tools/perf/util/header.c):
 * - CPU_PMU_CAPS: u32 count, then per cap a name and a value, each a
 *   perf header string (u32 length, NUL-terminated text padded to it);
 * - GROUP_DESC: u32 count, then per group of more than one event its
 *   name (a perf header string), u32 the leader's index among the
 *   attributes and u32 its member count, leader included; the members
 *   are the attributes from the leader on. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "core/perfdata/perfdata_reader_internal.h"
#include "hwtrace/brcntr.h"
#include "hwtrace/brstack.h"
#include "hwtrace/error.h"

/* @s as a decimal number up to @max: false for anything else. */
static bool small_number(const char *s, unsigned max, unsigned *out)
{
	char *end;
	if (*s < '0' || *s > '9')
		return false;
	unsigned long v = strtoul(s, &end, 10);
	while (*end == '\n' || *end == ' ')
		end++; /* sysfs values end in a newline */
	if (*end || v > max)
		return false;
	*out = (unsigned)v;
	return true;
}

int hwt_brcntr_caps(const struct hwt_pd_reader *r, unsigned *width,
		    unsigned *nr)
{
	const void *data;
	uint64_t size;
	const char *path = hwt_pd_reader_path(r);
	if (hwt_pd_reader_feature(r, HWT_PD_FEAT_CPU_PMU_CAPS, &data, &size))
		return hwt_error(HWT_ERR_NOENT, "%s: no cpu_pmu_caps feature: "
				 "the branch counters' width is unknown", path);
	const uint8_t *p = data, *end = p + size;
	if (size < 4)
		return hwt_error(HWT_ERR_FORMAT, "%s: the cpu_pmu_caps feature "
				 "is %" PRIu64 " bytes, too short for its count",
				 path, size);
	uint32_t n = pd_u32(p);
	p += 4;
	bool has_width = false, has_nr = false;
	unsigned w = 0, k = 0;
	for (uint32_t i = 0; i < n; i++) {
		const char *name, *value;
		if (pd_get_string(&p, end, &name) || pd_get_string(&p, end, &value))
			return hwt_error(HWT_ERR_FORMAT, "%s: cap %" PRIu32 " of "
					 "the cpu_pmu_caps feature is not a name "
					 "and a value (perf strings)", path, i);
		if (!strcmp(name, "branch_counter_width")) {
			if (!small_number(value, 64, &w) || !w)
				return hwt_error(HWT_ERR_FORMAT, "%s: cpu_pmu_caps: "
						 "branch_counter_width \"%s\" is "
						 "not a width of 1 to 64 bits",
						 path, value);
			has_width = true;
		} else if (!strcmp(name, "branch_counter_nr")) {
			if (!small_number(value, 64, &k))
				return hwt_error(HWT_ERR_FORMAT, "%s: cpu_pmu_caps: "
						 "branch_counter_nr \"%s\" is not "
						 "a number of 0 to 64", path, value);
			has_nr = true;
		}
	}
	if (!has_width)
		return hwt_error(HWT_ERR_NOENT, "%s: cpu_pmu_caps has no "
				 "branch_counter_width: the branch counters' "
				 "width is unknown", path);
	*width = w;
	if (nr)
		*nr = has_nr ? k : 0;
	return 0;
}

/* The leader and member count of @attr's group from GROUP_DESC (absent:
 * the event alone). */
static int group_span(const struct hwt_pd_reader *r, size_t attr,
		      size_t *leader, size_t *nmembers)
{
	const char *path = hwt_pd_reader_path(r);
	size_t na = hwt_pd_reader_nr_attrs(r);
	const void *data;
	uint64_t size;
	*leader = attr;
	*nmembers = 1;
	if (hwt_pd_reader_feature(r, HWT_PD_FEAT_GROUP_DESC, &data, &size)) {
		hwt_error_clear();
		return 0;
	}
	const uint8_t *p = data, *end = p + size;
	if (size < 4)
		return hwt_error(HWT_ERR_FORMAT, "%s: the group_desc feature is "
				 "%" PRIu64 " bytes, too short for its count",
				 path, size);
	uint32_t n = pd_u32(p);
	p += 4;
	for (uint32_t i = 0; i < n; i++) {
		const char *name;
		if (pd_get_string(&p, end, &name) || end - p < 8)
			return hwt_error(HWT_ERR_FORMAT, "%s: group %" PRIu32 " of "
					 "the group_desc feature is cut short "
					 "(a name, then its leader and member "
					 "count)", path, i);
		uint32_t lead = pd_u32(p), nm = pd_u32(p + 4);
		p += 8;
		if (!nm || lead >= na || nm > na - lead)
			return hwt_error(HWT_ERR_FORMAT, "%s: group %" PRIu32
					 " (%s) of the group_desc feature: "
					 "leader %" PRIu32 " and %" PRIu32
					 " members, and the file has %zu events",
					 path, i, name, lead, nm, na);
		if (attr >= lead && attr - lead < nm) {
			*leader = lead;
			*nmembers = nm;
		}
	}
	return 0;
}

int hwt_brcntr_group_of(const struct hwt_pd_reader *r, size_t attr,
			struct hwt_brcntr_group *out)
{
	const char *path = hwt_pd_reader_path(r);
	memset(out, 0, sizeof(*out));
	if (attr >= hwt_pd_reader_nr_attrs(r))
		return hwt_error(HWT_ERR_INVAL, "%s: no event %zu", path, attr);
	int err = group_span(r, attr, &out->leader, &out->nmembers);
	if (err)
		return err;
	if (!(hwt_pd_reader_attr(r, attr)->attr.branch_sample_type &
	      HWT_SAMPLE_BRANCH_COUNTERS))
		return 0;
	if ((err = hwt_brcntr_caps(r, &out->width, NULL)))
		return err;
	for (size_t i = 0; i < out->nmembers; i++) {
		const struct hwt_pd_attr *a = hwt_pd_reader_attr(r, out->leader + i);
		if (!(a->attr.branch_sample_type & HWT_SAMPLE_BRANCH_COUNTERS))
			continue;
		if (out->nr == HWT_BRCNTR_MAX_EVENTS ||
		    (out->nr + 1) * out->width > 64)
			return hwt_error(HWT_ERR_FORMAT, "%s: the group of event "
					 "%zu has more events with branch "
					 "counters than %u or than 64 bits of "
					 "%u each hold", path, attr,
					 HWT_BRCNTR_MAX_EVENTS, out->width);
		out->events[out->nr] = out->leader + i;
		out->names[out->nr] = a->name;
		out->nr++;
	}
	return 0;
}

unsigned hwt_brcntr_count(uint64_t word, unsigned width, unsigned nr,
			  uint64_t *counts)
{
	if (!width || width > 64)
		return 0;
	unsigned fit = 64 / width, n = nr < fit ? nr : fit;
	uint64_t mask = width == 64 ? ~0ull : (1ull << width) - 1;
	for (unsigned i = 0; i < n; i++)
		counts[i] = (word >> (i * width)) & mask; /* i * width < 64 */
	return n;
}

bool hwt_brcntr_saturated(uint64_t count, unsigned width)
{
	if (!width || width > 64)
		return false;
	return count == (width == 64 ? ~0ull : (1ull << width) - 1);
}
