/* Test helper: starts copying a perf.data, so tests and benchmarks can
 * write a capture rebuilt record by record from a real one. */
#ifndef HWT_TESTS_PD_COPY_H
#define HWT_TESTS_PD_COPY_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "hwtrace/perfdata.h"

/* Opens @src for reading and @dst for writing, and copies the attrs (with
 * their ids and names) and the CPU counts. On success the caller owns *r
 * and *w (close the writer, free the reader); on error neither is left
 * open. */
static inline int hwt_test_pd_copy_open(const char *src, const char *dst,
					struct hwt_pd_reader **r,
					struct hwt_pd_writer **w)
{
	uint32_t avail, online;
	int err = hwt_pd_reader_open(src, r);

	if (err)
		return err;
	err = hwt_pd_writer_open(dst, w);
	if (err) {
		hwt_pd_reader_free(*r);
		return err;
	}
	for (size_t i = 0; i < hwt_pd_reader_nr_attrs(*r) && !err; i++) {
		const struct hwt_pd_attr *a = hwt_pd_reader_attr(*r, i);
		err = hwt_pd_writer_add_attr(*w, &a->attr, a->ids, a->nids,
					     a->name);
	}
	if (!err && hwt_pd_reader_nr_cpus(*r, &avail, &online) == 0)
		err = hwt_pd_writer_set_nr_cpus(*w, avail, online);
	if (err) {
		hwt_pd_writer_close(*w);
		hwt_pd_reader_free(*r);
	}
	return err;
}

/* Copies the string features (hostname, os release, arch, version, CPU
 * description, cpuid) that @r has. */
static inline int hwt_test_pd_copy_strings(struct hwt_pd_reader *r,
					   struct hwt_pd_writer *w)
{
	static const enum hwt_pd_feature strings[] = {
		HWT_PD_FEAT_HOSTNAME, HWT_PD_FEAT_OSRELEASE, HWT_PD_FEAT_ARCH,
		HWT_PD_FEAT_VERSION, HWT_PD_FEAT_CPUDESC, HWT_PD_FEAT_CPUID,
	};
	int err = 0;

	for (size_t i = 0; !err && i < sizeof(strings) / sizeof(*strings); i++) {
		char buf[512];
		if (hwt_pd_reader_feature_string(r, strings[i], buf, sizeof(buf)) == 0)
			err = hwt_pd_writer_set_feature(w, strings[i], buf,
							strlen(buf) + 1);
	}
	return err;
}

/* Whether a file-mode writer carries a record of @type as a record:
 * pipe-mode ATTR, FEATURE and BUILD_ID records are not. */
static inline bool hwt_test_pd_copyable(uint32_t type)
{
	return type != HWT_PD_RECORD_HEADER_ATTR &&
	       type != HWT_PD_RECORD_HEADER_FEATURE &&
	       type != HWT_PD_RECORD_HEADER_BUILD_ID;
}

/* Closes both; the first error of @err and the close. */
static inline int hwt_test_pd_copy_close(struct hwt_pd_reader *r,
					 struct hwt_pd_writer *w, int err)
{
	int cerr = hwt_pd_writer_close(w);

	hwt_pd_reader_free(r);
	return err ? err : cerr;
}

#endif
