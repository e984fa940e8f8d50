/* cursor_dump: a capture's elements pulled through hwt_capture cursors and
 * written with the library's jsonl writer (tests/integration/
 * test_cursor_matches_decode.sh compares them with `hwtrace decode`).
 *
 *   cursor_dump [-j N] [--batch N] [--stream] [--cpu N] [--tid N]
 *               [--time START,END] FILE                  every element
 *   cursor_dump --raw BACKEND TRACE MAP@ADDR [-j N]      a raw stream
 *   cursor_dump --snapshot DIR [-j N]                    a snapshot directory
 *   cursor_dump --units FILE        "queue piece segment cpu tid offset size"
 *   cursor_dump --unit K FILE       unit K's elements, as binary records
 *   cursor_dump --merge UNITFILE... the binary records of units merged by
 *                                   time, as jsonl
 *   cursor_dump --stop-after N FILE pulls N elements, frees the cursor,
 *                                   prints how many threads the cursor
 *                                   started and how many ended with it
 *                                   ("threads started 0 ended 0" at one
 *                                   job: the decode is on this thread;
 *                                   "started 1 ended 1" when the decode
 *                                   has a thread of its own)
 *   cursor_dump --facts FILE        the capture's facts, one a line */
#include <dirent.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hwtrace/capture.h"
#include "hwtrace/error.h"
#include "hwtrace/merge.h"
#include "hwtrace/output.h"

static int fail(const char *what)
{
	fprintf(stderr, "cursor_dump: %s: %s\n", what, hwt_errmsg());
	return 1;
}

static void on_warn(void *arg, const char *message)
{
	(void)arg;
	fprintf(stderr, "cursor_dump: warning: %s\n", message);
}

/* Every element of @cur into @sink, one at a time or @batch at a time. */
static int drain(struct hwt_cursor *cur, size_t batch,
		 const struct hwt_elem_sink *sink)
{
	struct hwt_elem e;
	if (!batch) {
		int rc;
		while ((rc = hwt_cursor_next(cur, &e)) > 0)
			if (sink->emit(sink->arg, &e) < 0)
				return -1;
		return rc;
	}
	struct hwt_elem_record *v = calloc(batch, sizeof(*v));
	int64_t n = v ? 1 : HWT_ERR_NOMEM;
	while (n > 0 && (n = hwt_cursor_next_batch(cur, v, batch)) > 0)
		for (int64_t i = 0; i < n; i++) {
			hwt_elem_record_to_elem(&e, &v[i]);
			if (sink->emit(sink->arg, &e) < 0)
				n = -1;
		}
	free(v);
	return (int)n;
}

static int dump(struct hwt_capture *cap, struct hwt_cursor_opts *o, size_t batch)
{
	struct hwt_cursor *cur;
	struct hwt_output *out = hwt_output_new(stdout, HWT_OUTPUT_JSONL);
	if (!out || hwt_cursor_new(cap, o, &cur) < 0)
		return fail("cursor");
	struct hwt_elem_sink sink = hwt_output_sink(out);
	int rc = drain(cur, batch, &sink);
	hwt_cursor_free(cur);
	hwt_output_free(out);
	return rc < 0 ? fail("decode") : 0;
}

static int threads_now(void)
{
	DIR *d = opendir("/proc/self/task");
	int n = 0;
	for (struct dirent *de; d && (de = readdir(d));)
		n += de->d_name[0] != '.';
	if (d)
		closedir(d);
	return n;
}

/* A unit's elements as binary records: the record with its pointers
 * cleared, then the text's length and bytes. */
static int write_record(void *arg, const struct hwt_elem *e)
{
	struct hwt_elem_record r;
	hwt_elem_record_from_elem(&r, e);
	const char *text = r.text;
	uint32_t len = text ? (uint32_t)strlen(text) + 1 : 0;
	if (r.nbranches) {
		fprintf(stderr, "cursor_dump: a unit with samples\n");
		return HWT_ERR_NOSUP;
	}
	r.text = NULL;
	fwrite(&r, sizeof(r), 1, stdout);
	fwrite(&len, sizeof(len), 1, stdout);
	fwrite(text ? text : "", 1, len, stdout);
	return ferror(stdout) ? HWT_ERR_IO : 0;
}

static int merge_units(int n, char **files)
{
	struct hwt_output *out = hwt_output_new(stdout, HWT_OUTPUT_JSONL);
	struct hwt_elem_sink sink = hwt_output_sink(out);
	struct hwt_merge *m;
	if (!out || hwt_merge_new(&sink, &m) < 0)
		return fail("merge");
	struct hwt_elem_sink into = hwt_merge_sink(m);
	for (int i = 0; i < n; i++) {
		FILE *f = fopen(files[i], "rb");
		if (!f) {
			fprintf(stderr, "cursor_dump: %s: cannot open\n", files[i]);
			return 1;
		}
		struct hwt_elem_record r;
		uint32_t len;
		char text[65536];
		while (fread(&r, sizeof(r), 1, f) == 1 &&
		       fread(&len, sizeof(len), 1, f) == 1) {
			if (len > sizeof(text) || fread(text, 1, len, f) != len) {
				fprintf(stderr, "cursor_dump: %s: damaged\n", files[i]);
				return 1;
			}
			r.text = len ? text : NULL;
			struct hwt_elem e;
			hwt_elem_record_to_elem(&e, &r);
			if (into.emit(into.arg, &e) < 0)
				return fail("merge");
		}
		fclose(f);
	}
	if (hwt_merge_finish(m) < 0)
		return fail("merge");
	hwt_merge_free(m);
	hwt_output_free(out);
	return 0;
}

/* The tasks, each one's last name, the switches and the build-id table. */
static void sideband_facts(const struct hwt_capture *cap)
{
	const struct hwt_capture_task *t;
	const struct hwt_capture_switch *sw;
	const struct hwt_capture_build_id *id;
	size_t n = hwt_capture_tasks(cap, &t);
	for (size_t i = 0; i < n; i++) {
		if (t[i].fork)
			printf("task fork %" PRId32 "/%" PRId32 " from %" PRId32 "/%"
			       PRId32, t[i].pid, t[i].tid, t[i].ppid, t[i].ptid);
		else
			printf("task comm %" PRId32 "/%" PRId32, t[i].pid, t[i].tid);
		printf(" %" PRIu64 " %s\n", t[i].time, t[i].name ? t[i].name : "-");
	}
	for (size_t i = 0; i < n; i++) {
		const char *last = hwt_capture_thread_name(cap, t[i].tid);
		printf("lastname %" PRId32 " %s\n", t[i].tid, last ? last : "-");
	}
	n = hwt_capture_switches(cap, &sw);
	for (size_t i = 0; i < n; i++)
		printf("switch %" PRIu64 " cpu %" PRId32 " %s out %" PRId32 "/%" PRId32
		       " %s in %" PRId32 "/%" PRId32 " %s%s\n", sw[i].time, sw[i].cpu,
		       sw[i].out ? "OUT" : "IN", sw[i].out_pid, sw[i].out_tid,
		       sw[i].out_comm ? sw[i].out_comm : "-", sw[i].in_pid,
		       sw[i].in_tid, sw[i].in_comm ? sw[i].in_comm : "-",
		       sw[i].preempt ? " preempt" : "");
	n = hwt_capture_build_ids(cap, &id);
	for (size_t i = 0; i < n; i++) {
		printf("buildid ");
		for (size_t k = 0; k < id[i].size; k++)
			printf("%02x", id[i].id[k]);
		printf(" %s\n", id[i].path);
	}
}

static int facts(struct hwt_capture *cap)
{
	const int32_t *cpus;
	const struct hwt_capture_thread *th;
	const struct hwt_capture_name *nm;
	const struct hwt_capture_mmap *mm;
	const struct hwt_capture_queue *q;
	struct hwt_capture_losses l;
	uint64_t t0, t1;
	printf("backend %s\n", hwt_capture_backend(cap));
	size_t n = hwt_capture_cpus(cap, &cpus);
	printf("cpus");
	for (size_t i = 0; i < n; i++)
		printf(" %" PRId32, cpus[i]);
	printf("\n");
	n = hwt_capture_threads(cap, &th);
	for (size_t i = 0; i < n; i++)
		printf("thread %" PRId32 "/%" PRId32 "\n", th[i].pid, th[i].tid);
	n = hwt_capture_names(cap, &nm);
	for (size_t i = 0; i < n; i++)
		printf("name %" PRId32 "/%" PRId32 " %" PRIu64 " %s%s\n", nm[i].pid,
		       nm[i].tid, nm[i].time, nm[i].name, nm[i].exec ? " exec" : "");
	n = hwt_capture_mmaps(cap, &mm);
	for (size_t i = 0; i < n; i++) {
		printf("mmap %" PRId32 " 0x%" PRIx64 " 0x%" PRIx64 " %s %s", mm[i].pid,
		       mm[i].vaddr, mm[i].size, mm[i].path,
		       mm[i].missing ? "missing" : "found");
		if (mm[i].build_id_size)
			printf(" ");
		for (size_t k = 0; k < mm[i].build_id_size; k++)
			printf("%02x", mm[i].build_id[k]);
		printf("\n");
	}
	if (hwt_capture_time_span(cap, &t0, &t1) == 0)
		printf("time %" PRIu64 " %" PRIu64 "\n", t0, t1);
	hwt_capture_losses(cap, &l);
	printf("losses %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 "\n",
	       l.lost_events, l.lost_records, l.truncated, l.collisions,
	       l.trace_errors);
	n = hwt_capture_queues(cap, &q);
	for (size_t i = 0; i < n; i++)
		printf("queue %" PRIu32 " cpu %" PRId32 " tid %" PRId32 " pieces %zu "
		       "bytes %" PRIu64 "\n", q[i].idx, q[i].cpu, q[i].tid,
		       q[i].npieces, q[i].bytes);
	sideband_facts(cap);
	return 0;
}

int main(int argc, char **argv)
{
	struct hwt_cursor_opts o = {.size = sizeof(o), .warn = on_warn};
	struct hwt_capture_opts copts = {.size = sizeof(copts)};
	struct hwt_map_spec map;
	struct hwt_capture *cap;
	size_t batch = 0, stop_after = 0;
	const char *mode = "dump", *raw = NULL, *trace = NULL;
	int i = 1;
	for (; i < argc && argv[i][0] == '-' && argv[i][1]; i++) {
		if (!strcmp(argv[i], "-j") && i + 1 < argc)
			o.jobs = (unsigned)strtoul(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--batch") && i + 1 < argc)
			batch = strtoul(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--stream"))
			o.order = HWT_CURSOR_ORDER_STREAM;
		else if (!strcmp(argv[i], "--cpu") && i + 1 < argc) {
			o.filter_cpu = true;
			o.cpu = (int32_t)strtol(argv[++i], NULL, 0);
		} else if (!strcmp(argv[i], "--tid") && i + 1 < argc) {
			o.filter_tid = true;
			o.tid = (int32_t)strtol(argv[++i], NULL, 0);
		} else if (!strcmp(argv[i], "--time") && i + 1 < argc) {
			char *end;
			o.filter_time = true;
			o.time_start = strtoull(argv[++i], &end, 0);
			o.time_end = strtoull(*end == ',' ? end + 1 : end, NULL, 0);
		}
		else if (!strcmp(argv[i], "--unit") && i + 1 < argc) {
			o.unit = strtoul(argv[++i], NULL, 0) + 1;
			mode = "unit";
		} else if (!strcmp(argv[i], "--stop-after") && i + 1 < argc) {
			stop_after = strtoul(argv[++i], NULL, 0);
			mode = "stop";
		} else if (!strcmp(argv[i], "--raw") && i + 3 < argc) {
			raw = argv[++i];
			trace = argv[++i];
			char *at = strchr(argv[++i], '@');
			if (!at)
				return 2;
			*at = 0;
			map = (struct hwt_map_spec){argv[i], strtoull(at + 1, NULL, 0)};
			copts.maps = &map;
			copts.nmaps = 1;
			mode = "raw";
		} else if (!strcmp(argv[i], "--snapshot") && i + 1 < argc) {
			trace = argv[++i];
			mode = "snapshot";
		} else if (!strcmp(argv[i], "--units") || !strcmp(argv[i], "--merge") ||
			   !strcmp(argv[i], "--facts"))
			mode = argv[i] + 2;
		else {
			fprintf(stderr, "cursor_dump: %s?\n", argv[i]);
			return 2;
		}
	}
	if (!strcmp(mode, "merge"))
		return merge_units(argc - i, argv + i);
	if (!strcmp(mode, "raw") || !strcmp(mode, "snapshot")) {
		if ((raw ? hwt_capture_open_raw(raw, NULL, trace, &copts, &cap)
			 : hwt_capture_open_snapshot(trace, &copts, &cap)) < 0)
			return fail(trace);
		int rc = dump(cap, &o, batch);
		hwt_capture_free(cap);
		return rc;
	}
	if (i + 1 != argc) {
		fprintf(stderr, "cursor_dump: one capture, please\n");
		return 2;
	}
	if (hwt_capture_open(argv[i], &copts, &cap) < 0)
		return fail(argv[i]);
	int rc = 0;
	const struct hwt_capture_unit *u;
	int64_t nu;
	if (!strcmp(mode, "facts")) {
		rc = facts(cap);
	} else if (!strcmp(mode, "units") || !strcmp(mode, "unit")) {
		if ((nu = hwt_capture_units(cap, &u)) < 0) {
			rc = fail("units");
		} else if (!strcmp(mode, "units")) {
			for (int64_t k = 0; k < nu; k++)
				printf("%zu %zu %zu %" PRId32 " %" PRId32 " %" PRIu64
				       " %" PRIu64 "\n", u[k].queue, u[k].piece,
				       u[k].segment, u[k].cpu, u[k].tid, u[k].offset,
				       u[k].size);
		} else {
			struct hwt_cursor *cur = NULL;
			struct hwt_elem_sink sink = {write_record, NULL};
			if (hwt_cursor_new(cap, &o, &cur) < 0)
				rc = fail("cursor");
			else if (drain(cur, 0, &sink) < 0)
				rc = fail("unit decode");
			hwt_cursor_free(cur);
		}
	} else if (!strcmp(mode, "stop")) {
		struct hwt_cursor *cur;
		struct hwt_elem e;
		int before = threads_now();
		if (hwt_cursor_new(cap, &o, &cur) < 0)
			return fail("cursor");
		size_t got = 0;
		while (got < stop_after && hwt_cursor_next(cur, &e) > 0)
			got++;
		/* Counted as a difference while the decode waits for room:
		 * an emulator (qemu-user) and the sanitizers' runtimes have
		 * threads of their own. */
		int during = threads_now();
		hwt_cursor_free(cur);
		printf("pulled %zu threads started %d ended %d\n", got,
		       during - before, during - threads_now());
	} else {
		rc = dump(cap, &o, batch);
	}
	hwt_capture_free(cap);
	return rc;
}
