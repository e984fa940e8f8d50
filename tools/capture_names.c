#include <stdio.h>
#include <string.h>

#include "hwtrace/perfdata.h"
#include "capture_names.h"

int cli_thread_names(const char *file,
		     int (*name)(void *arg, int32_t pid, int32_t tid,
				 const char *comm),
		     void *arg)
{
	struct hwt_pd_reader *r;
	int err = hwt_pd_reader_open(file, &r);
	if (err)
		return err;
	uint32_t types[] = {PERF_RECORD_COMM, PERF_RECORD_FORK};
	hwt_pd_reader_set_load_aux(r, false);
	hwt_pd_reader_select_types(r, types, 2);
	struct hwt_pd_record rec;
	while ((err = hwt_pd_reader_next(r, &rec)) > 0) {
		const uint8_t *p = rec.data;
		int32_t pid, tid;
		if (rec.type == PERF_RECORD_FORK && rec.size >= 8 + 16) {
			/* {pid, ppid, tid, ptid, time} */
			memcpy(&pid, p + 8, 4);
			memcpy(&tid, p + 16, 4);
			err = name(arg, pid, tid, NULL);
			if (err)
				break;
			continue;
		}
		if (rec.type != PERF_RECORD_COMM || rec.size < 8 + 8 + 1)
			continue;
		memcpy(&pid, p + 8, 4);
		memcpy(&tid, p + 12, 4);
		char comm[64];
		size_t room = (size_t)rec.size - 16;
		size_t max = room < sizeof(comm) - 1 ? room : sizeof(comm) - 1;
		memcpy(comm, p + 16, max);
		comm[max] = 0;
		err = name(arg, pid, tid, comm);
		if (err)
			break;
	}
	hwt_pd_reader_free(r);
	return err < 0 ? err : 0;
}

int cli_build_ids(const char *file,
		  int (*id)(void *arg, const char *path, const char *hex),
		  void *arg)
{
	struct hwt_pd_reader *r;
	int err = hwt_pd_reader_open(file, &r);
	if (err)
		return err;
	struct hwt_pd_build_id b;
	int n;
	for (size_t i = 0; (n = hwt_pd_reader_build_id(r, i, &b)) > 0; i++) {
		char hex[2 * sizeof(b.id) + 1] = "";
		for (size_t k = 0; k < b.size && k < sizeof(b.id); k++)
			snprintf(hex + 2 * k, 3, "%02x", b.id[k]);
		if (b.filename && (err = id(arg, b.filename, hex)))
			break;
	}
	hwt_pd_reader_free(r);
	if (err)
		return err;
	/* A malformed table: the ids are a label, the export goes on. */
	return 0;
}
