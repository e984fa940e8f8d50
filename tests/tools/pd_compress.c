/* pd_compress IN OUT LEVEL [aux]: rewrites the perf.data IN as OUT with
 * the writer's zstd compression (LEVEL 1-22; "aux" compresses AUXTRACE
 * too), record for record: the compressed twin of a capture, for tests
 * that compare how the two decode. LEVEL 0 copies without compression,
 * in the writer's layout: a simpleperf file that perf 6.1 refuses (its
 * 136-byte attributes) becomes one perf reads. Events, ids, names, CPU counts, build
 * ids and string features are copied; records a file-mode writer cannot
 * carry (pipe-mode ATTR, FEATURE, BUILD_ID) are left out. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hwtrace/error.h"
#include "hwtrace/perfdata.h"
#include "unit/pd_copy.h"

static int copy(const char *in, const char *out, int level, unsigned flags)
{
	struct hwt_pd_reader *r;
	struct hwt_pd_writer *w;
	struct hwt_pd_record rec;
	struct hwt_pd_build_id b;
	int err = hwt_test_pd_copy_open(in, out, &r, &w);

	if (err)
		return err;
	if (level)
		err = hwt_pd_writer_set_compression(w, level, flags);
	if (!err)
		err = hwt_test_pd_copy_strings(r, w);
	for (size_t i = 0; !err && hwt_pd_reader_build_id(r, i, &b) > 0; i++)
		err = hwt_pd_writer_add_build_id(w, b.pid, b.misc, b.id, b.size,
						 b.filename);
	while (!err && (err = hwt_pd_reader_next(r, &rec)) == 1) {
		err = 0;
		if (rec.type == HWT_PD_RECORD_AUXTRACE)
			err = hwt_pd_writer_auxtrace(w, &rec.aux, rec.aux_data);
		else if (hwt_test_pd_copyable(rec.type))
			err = hwt_pd_writer_record(w, rec.data);
	}
	return hwt_test_pd_copy_close(r, w, err);
}

int main(int argc, char **argv)
{
	int err;

	if (argc < 4 || (argc > 4 && strcmp(argv[4], "aux"))) {
		fprintf(stderr, "usage: pd_compress IN OUT LEVEL [aux]\n");
		return 2;
	}
	err = copy(argv[1], argv[2], atoi(argv[3]),
		   argc > 4 ? HWT_PD_COMPRESS_AUX : 0);
	if (err < 0) {
		fprintf(stderr, "pd_compress: %s\n", hwt_errmsg());
		return 1;
	}
	return 0;
}
