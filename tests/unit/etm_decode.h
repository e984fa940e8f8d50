/* Test helper: decodes formatted ETMv4 frames of trace ID 0x1e with the
 * trace unit of simpleperf's ETM capture (CPU 7) and its etm_test_loop
 * mapped where the capture ran it, through hwtrace's cs_etm decoder
 * (hwt_decode_raw, in this process), keeping the ranges, branches and
 * trace-on elements with their trace offsets. */
#ifndef HWT_TESTS_ETM_DECODE_H
#define HWT_TESTS_ETM_DECODE_H

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "decode_in_process.h"
#include "hwtrace/decode.h"
#include "hwtrace/element.h"

#define BIN HWT_TESTDATA "/perf-data/simpleperf-etm/etm_test_loop"
/* Its MMAP2 maps file offset 0x1000 at 0x582b2b1000. */
#define BASE 0x582b2b0000ull
#define OPTS "etmv4,formatted,traceid=0x1e,configr=0x40,idr0=0x28000ea1," \
	     "idr1=0x4100f422,idr2=0x20001088,idr8=0x0"
#define MAXE 512

struct elems {
	struct { int type; uint64_t a, b, off; } v[MAXE];
	size_t n;
};

static inline int collect(void *arg, const struct hwt_elem *e)
{
	struct elems *l = arg;
	if (l->n == MAXE)
		return 0;
	if (e->type == HWT_ELEM_RANGE)
		l->v[l->n].a = e->u.range.start, l->v[l->n].b = e->u.range.end;
	else if (e->type == HWT_ELEM_BRANCH)
		l->v[l->n].a = e->u.branch.from, l->v[l->n].b = e->u.branch.to;
	else if (e->type == HWT_ELEM_TRACE_ON)
		l->v[l->n].a = e->u.trace.at;
	else
		return 0;
	l->v[l->n].type = (int)e->type;
	l->v[l->n].off = e->trace_offset;
	l->n++;
	return 0;
}

static inline int decode(const uint8_t *frames, size_t len, struct elems *out)
{
	char path[] = "/tmp/hwt-cs-reencode-XXXXXX";
	int fd = mkstemp(path);
	if (fd < 0 || write(fd, frames, len) != (ssize_t)len)
		return -1;
	close(fd);
	struct hwt_map_spec map = { BIN, BASE };
	struct hwt_decode_opts o = { .size = sizeof(o), .maps = &map, .nmaps = 1,
				     DECODE_IN_PROCESS };
	struct hwt_elem_sink sink = { collect, out };
	memset(out, 0, sizeof(*out));
	int err = hwt_decode_raw("cs_etm", OPTS, path, &o, &sink);
	unlink(path);
	return err;
}

#endif
