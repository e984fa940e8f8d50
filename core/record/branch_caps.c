/* The CPU_PMU_CAPS feature of a branch-record recording: every file of
 * the cpu PMU's caps/ directory, name and value, as perf record writes it
 * (tools/perf/util/header.c, write_cpu_pmu_caps: a u32 count, then per
 * cap two perf header strings, each a u32 length and the NUL-terminated
 * text zero-padded to that length, a multiple of 64). perf reads the LBR
 * depth (caps/branches) and, from Linux 6.8's perf, the branch counters'
 * number and width (caps/branch_counter_nr, _width) from it, to print a
 * record's counters. */
#include <stdlib.h>
#include <string.h>

#include "core/record/recorder_internal.h"
#include "hwtrace/brstack.h"
#include "hwtrace/error.h"
#include "hwtrace/perfdata.h"

#define CAPS_DIR "bus/event_source/devices/cpu/caps"
#define NAME_ALIGN 64u

struct caps_buf {
	const struct hwt_os *os;
	uint8_t *p;
	size_t len, cap;
	uint32_t n;
	int err;
};

static int grow(struct caps_buf *b, size_t more)
{
	if (b->len + more <= b->cap)
		return 0;
	size_t cap = b->cap ? b->cap : 512;
	while (cap < b->len + more)
		cap *= 2;
	uint8_t *p = realloc(b->p, cap);
	if (!p)
		return hwt_error(HWT_ERR_NOMEM, "no memory for the PMU's caps");
	b->p = p;
	b->cap = cap;
	return 0;
}

/* A perf header string: u32 length, the text, NUL and zeros up to it. */
static int put_string(struct caps_buf *b, const char *s)
{
	size_t olen = strlen(s) + 1;
	uint32_t len = (uint32_t)((olen + NAME_ALIGN - 1) / NAME_ALIGN * NAME_ALIGN);
	int err = grow(b, 4 + len);
	if (err)
		return err;
	memcpy(b->p + b->len, &len, 4);
	memset(b->p + b->len + 4, 0, len);
	memcpy(b->p + b->len + 4, s, olen);
	b->len += 4 + len;
	return 0;
}

static int one_cap(void *arg, const char *name, int is_dir)
{
	struct caps_buf *b = arg;
	char path[256], value[256];
	if (is_dir)
		return 0;
	snprintf(path, sizeof(path), CAPS_DIR "/%s", name);
	if (hwt_os_sysfs_read(b->os, path, value, sizeof(value)) < 0)
		return 0; /* unreadable: perf leaves such a cap out too */
	if ((b->err = put_string(b, name)) || (b->err = put_string(b, value)))
		return 1;
	b->n++;
	return 0;
}

int hwt_record_branch_caps(const struct hwt_os *os, struct hwt_pd_writer *w)
{
	struct hwt_branch_hw hw;
	/* A hybrid machine's (cpu_core, cpu_atom) go in PMU_CAPS, named by
	 * PMU, which this does not write; Arm's and AMD BRS's have none. */
	if (hwt_branch_hw_probe(os, &hw) < 0 || strcmp(hw.pmu, "cpu")) {
		hwt_error_clear();
		return 0;
	}
	struct caps_buf b = {os, NULL, 0, 0, 0, 0};
	int err = grow(&b, 4);
	if (!err) {
		b.len = 4; /* the count, once known */
		os->ops->sysfs_list(os->ctx, CAPS_DIR, one_cap, &b);
		err = b.err;
	}
	if (!err) {
		memcpy(b.p, &b.n, 4);
		err = hwt_pd_writer_copy_feature(w, HWT_PD_FEAT_CPU_PMU_CAPS, b.p,
						 b.len);
	}
	free(b.p);
	return err;
}
