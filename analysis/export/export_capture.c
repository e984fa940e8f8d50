/* A capture's facts into an export (hwtrace/export.h): the threads, build
 * ids and context switches hwt_capture read from the file, given to the
 * export's own setters, so a program that exports a capture needs no copy
 * of them. */
#include "analysis/export/export_internal.h"
#include "hwtrace/capture.h"
#include "hwtrace/elfid.h"
#include "hwtrace/export.h"

int hwt_export_capture_build_ids(struct hwt_export *ex,
				 const struct hwt_capture *cap)
{
	const struct hwt_capture_build_id *id;
	size_t n = hwt_capture_build_ids(cap, &id);
	int err = 0;

	for (size_t i = 0; !err && i < n; i++) {
		char hex[2 * HWT_BUILD_ID_MAX + 1];
		hwt_build_id_hex(id[i].id, id[i].size, hex);
		err = hwt_export_set_build_id(ex, id[i].path, hex);
	}
	return err;
}

int hwt_export_capture_facts(struct hwt_export *ex,
			     const struct hwt_capture *cap)
{
	const struct hwt_capture_task *t;
	const struct hwt_capture_switch *s;
	size_t n = hwt_capture_tasks(cap, &t);
	int err = 0;

	for (size_t i = 0; !err && i < n; i++)
		err = hwt_export_name_thread(ex, t[i].pid, t[i].tid, t[i].name);
	if (!err)
		err = hwt_export_capture_build_ids(ex, cap);
	n = hwt_capture_switches(cap, &s);
	for (size_t i = 0; !err && i < n; i++)
		err = hwt_export_context_switch(ex, &(struct hwt_export_switch){
			.time = s[i].time, .cpu = s[i].cpu,
			.out_pid = s[i].out_pid, .out_tid = s[i].out_tid,
			.in_pid = s[i].in_pid, .in_tid = s[i].in_tid,
			.flags = (s[i].out ? 1 : 0) | (s[i].preempt ? 2 : 0),
			.out_comm = s[i].out_comm, .in_comm = s[i].in_comm});
	return err;
}

int hwt_export_capture_file(struct hwt_export *ex, const char *path,
			    bool later)
{
	struct hwt_capture *cap = NULL;
	int err = hwt_capture_open(path, NULL, &cap);
	enum hwt_export_format f = ex->opts.format;
	bool all = !later || f == HWT_EXPORT_PPROF || f == HWT_EXPORT_SQLITE;

	if (!err)
		err = all ? hwt_export_capture_facts(ex, cap)
			  : hwt_export_capture_build_ids(ex, cap);
	hwt_capture_free(cap);
	return err;
}
