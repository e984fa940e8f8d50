/* A perf.data file as text, in the spirit of `perf report -D` (what
 * `hwtrace dump` prints): the header, the event attributes and feature
 * sections, each record with its byte offset, size and fields, and the
 * count of records by type. Names from the capture are escaped for a
 * terminal. Each call writes to @out and returns 0 or HWT_ERR_IO. */
#ifndef HWTRACE_PD_DUMP_H
#define HWTRACE_PD_DUMP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "hwtrace/common.h"
#include "hwtrace/perfdata.h"

#ifdef __cplusplus
extern "C" {
#endif

struct hwt_pd_dump_opts {
	size_t size; /* sizeof(struct hwt_pd_dump_opts) */
	bool hex; /* AUXTRACE payloads in hex (else their size and first bytes) */
	bool raw; /* every record's bytes too, as perf -D prints them */
};

/* "# " lines: the file header (file mode), a reader warning, and
 * hwt_pd_dump_events. */
HWT_API int hwt_pd_dump_header(FILE *out, const struct hwt_pd_reader *r);
/* The event attributes and feature sections alone (a pipe-mode file has
 * them only after its records). */
HWT_API int hwt_pd_dump_events(FILE *out, const struct hwt_pd_reader *r);
/* One record @rec read from @r: a blank line, with @o->raw its bytes,
 * then "CPU TIME 0xOFFSET [0xSIZE]: PERF_RECORD_NAME FIELDS". @o may be
 * NULL (neither). */
HWT_API int hwt_pd_dump_record(FILE *out, const struct hwt_pd_reader *r,
			       const struct hwt_pd_record *rec,
			       const struct hwt_pd_dump_opts *o);
/* "# records by type": the reader's counts of the records read so far. */
HWT_API int hwt_pd_dump_counts(FILE *out, const struct hwt_pd_reader *r);

#ifdef __cplusplus
}
#endif

#endif
