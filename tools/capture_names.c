#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hwtrace/error.h"
#include "hwtrace/perfdata.h"
#include "hwtrace/records.h"
#include "capture_names.h"

/* The names given so far, by thread, for FORK records to copy. */
struct thread_names {
	struct {
		int32_t tid;
		char name[64];
	} *v;
	size_t n, cap;
};

static const char *thread_names_find(const struct thread_names *tn,
				     int32_t tid)
{
	for (size_t i = tn->n; i-- > 0;)
		if (tn->v[i].tid == tid)
			return tn->v[i].name;
	return NULL;
}

static int thread_names_set(struct thread_names *tn, int32_t tid,
			    const char *name)
{
	if (tn->n == tn->cap) {
		size_t cap = tn->cap ? tn->cap * 2 : 16;
		void *v = realloc(tn->v, cap * sizeof(*tn->v));
		if (!v)
			return hwt_error(HWT_ERR_NOMEM, "out of memory");
		tn->v = v;
		tn->cap = cap;
	}
	tn->v[tn->n].tid = tid;
	snprintf(tn->v[tn->n].name, sizeof(tn->v[tn->n].name), "%s", name);
	tn->n++;
	return 0;
}

/* A new thread has no COMM record of its own (the kernel writes one only
 * at exec or a rename): it takes its parent's name from its FORK record
 * until one comes, as perf shows it. */
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
	struct thread_names names = {0};
	struct hwt_pd_record rec;
	while ((err = hwt_pd_reader_next(r, &rec)) > 0) {
		struct hwt_rec v;
		int32_t pid, tid;
		char comm[64];
		const char *known = NULL;
		if (!hwt_rec_parse(&rec, &v)) {
			continue;
		} else if (rec.type == PERF_RECORD_FORK) {
			pid = v.u.fork.pid;
			tid = v.u.fork.tid;
			known = thread_names_find(&names, v.u.fork.ptid);
			if (known)
				snprintf(comm, sizeof(comm), "%s", known);
		} else if (rec.size > 16) { /* a COMM with a name */
			pid = v.u.comm.pid;
			tid = v.u.comm.tid;
			size_t max = v.u.comm.comm.len < sizeof(comm) - 1
					     ? v.u.comm.comm.len : sizeof(comm) - 1;
			memcpy(comm, v.u.comm.comm.s, max);
			comm[max] = 0;
			known = comm;
		} else {
			continue;
		}
		err = known ? thread_names_set(&names, tid, comm) : 0;
		if (!err)
			err = name(arg, pid, tid, known ? comm : NULL);
		if (err)
			break;
	}
	free(names.v);
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
