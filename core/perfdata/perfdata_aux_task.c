/* hwt_pd_aux_task: the task a per-CPU capture follows, from the header of
 * its first AUXTRACE record (perf writes the task its per-CPU buffers
 * were opened for into every one of them). */
#include <stdint.h>

#include "hwtrace/perfdata.h"

int hwt_pd_aux_task(const char *path, int32_t *tid)
{
	struct hwt_pd_reader *r;
	struct hwt_pd_record rec;
	int n, err;

	*tid = -1;
	if ((err = hwt_pd_reader_open(path, &r)) < 0)
		return err;
	while ((n = hwt_pd_reader_next(r, &rec)) > 0) {
		if (rec.type != HWT_PD_RECORD_AUXTRACE)
			continue;
		/* Only the first buffer is looked at: every buffer of one
		 * capture was opened for the same task. */
		if (rec.aux.cpu != UINT32_MAX && rec.aux.tid != UINT32_MAX &&
		    rec.aux.tid > 0 && rec.aux.tid <= INT32_MAX)
			*tid = (int32_t)rec.aux.tid;
		break;
	}
	hwt_pd_reader_free(r);
	return n < 0 ? n : 0;
}
