/* Branch counters of an event group, as `perf record -e
 * '{cycles,branch-misses,instructions,cache-misses}:u' -j any,u,counter`
 * on a 6.8 kernel would write them, with instructions not asking for
 * counters: captures written here with the perf.data writer (events,
 * GROUP_DESC and CPU_PMU_CAPS as perf lays them out, samples with
 * counter words packed by hand), then
 * - hwt_brcntr_group_of finds the group, its events with counters in
 *   group order (cycles, branch-misses, cache-misses), their names and
 *   the width; the group's members are those perf 6.1 reads from the
 *   same GROUP_DESC (`perf report --header-only`);
 * - the decode (library and `hwtrace decode`, jsonl and text) gives each
 *   record the counts the word was packed from;
 * - without CPU_PMU_CAPS the words stay whole (no counts), and a
 *   GROUP_DESC naming events the file lacks is refused with the file
 *   and group named, the decode saying so once and going on.
 * perf 6.1 cannot be the oracle of the counts: `perf script -F brcntr`
 * came with 6.8 (6.1: "Invalid field requested."); the counts packed
 * here are. */
#include <unistd.h>

#include "core/perfdata/perfdata_format.h"
#include "harness.h"
#include "hwtrace/brcntr.h"
#include "hwtrace/brstack.h"
#include "hwtrace/decode.h"
#include "hwtrace/error.h"
#include "hwtrace/perfdata.h"

#define NEV 5 /* cycles, branch-misses, instructions, cache-misses, dummy */

/* The counts (cycles, branch-misses, cache-misses) of each record,
 * newest first, and their words at 2 bits each, worked out by hand:
 * 3 | 0<<2 | 2<<4 = 35, 1 | 1<<2 | 1<<4 = 21, 0 | 3<<2 | 0<<4 = 12,
 * and the member's one record 3 | 3<<2 | 3<<4 = 63. */
static const uint64_t counts_a[3][3] = {{3, 0, 2}, {1, 1, 1}, {0, 3, 0}};
static const uint64_t words_a[3] = {35, 21, 12};
static const uint64_t words_b[1] = {63};

struct buf {
	uint8_t b[4096];
	size_t n;
};

static void put32(struct buf *b, uint32_t v)
{
	pd_put32(b->b + b->n, v);
	b->n += 4;
}

static void put64(struct buf *b, uint64_t v)
{
	pd_put64(b->b + b->n, v);
	b->n += 8;
}

/* A perf header string: u32 length (a multiple of 64), text, zeros. */
static void put_str(struct buf *b, const char *s)
{
	uint32_t len = (uint32_t)((strlen(s) + 1 + 63) / 64 * 64);
	put32(b, len);
	memset(b->b + b->n, 0, len);
	memcpy(b->b + b->n, s, strlen(s));
	b->n += len;
}

/* A sample of event @id: IDENTIFIER, IP, TID, TIME, PERIOD and the
 * branch stack of @nr records with their counter words @words. */
static void sample(struct hwt_pd_writer *w, uint64_t id, uint64_t time,
		   unsigned nr, const uint64_t *words)
{
	struct buf r = {.n = 8};
	put64(&r, id);
	put64(&r, 0x402000);
	put32(&r, 100), put32(&r, 100);
	put64(&r, time);
	put64(&r, 10000);
	put64(&r, nr);
	for (unsigned i = 0; i < nr; i++) {
		put64(&r, 0x401000 + 0x100 * i); /* from */
		put64(&r, 0x402000 + 0x100 * i); /* to */
		put64(&r, 0);                    /* flags word */
	}
	for (unsigned i = 0; i < nr; i++)
		put64(&r, words[i]);
	struct perf_event_header h = {PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER,
				      (uint16_t)r.n};
	memcpy(r.b, &h, sizeof(h));
	CHECK_INT(hwt_pd_writer_record(w, r.b), 0);
}

enum shape { GOOD, NO_CAPS, BAD_GROUP };

/* Writes the capture of @shape to @path. */
static void write_capture(const char *path, enum shape shape)
{
	static const char *const names[NEV] = {"cycles:u", "branch-misses:u",
					       "instructions:u", "cache-misses:u",
					       "dummy:u"};
	static const uint64_t config[NEV] = {
		PERF_COUNT_HW_CPU_CYCLES, PERF_COUNT_HW_BRANCH_MISSES,
		PERF_COUNT_HW_INSTRUCTIONS, PERF_COUNT_HW_CACHE_MISSES,
		PERF_COUNT_SW_DUMMY};
	struct hwt_pd_writer *w = NULL;
	CHECK_INT(hwt_pd_writer_open(path, &w), 0);
	if (!w)
		return;
	for (unsigned i = 0; i < NEV; i++) {
		struct perf_event_attr a = {0};
		a.size = sizeof(a);
		a.type = i == 4 ? PERF_TYPE_SOFTWARE : PERF_TYPE_HARDWARE;
		a.config = config[i];
		a.exclude_kernel = 1;
		a.sample_period = 10000;
		a.sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP |
				PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
				PERF_SAMPLE_PERIOD;
		if (i < 4) {
			a.sample_type |= PERF_SAMPLE_BRANCH_STACK;
			a.branch_sample_type = PERF_SAMPLE_BRANCH_ANY |
					       PERF_SAMPLE_BRANCH_USER;
			if (i != 2)
				a.branch_sample_type |= HWT_SAMPLE_BRANCH_COUNTERS;
		}
		uint64_t id = 100 + i;
		CHECK_INT(hwt_pd_writer_add_attr(w, &a, &id, 1, names[i]), 0);
	}
	struct buf g = {.n = 0};
	put32(&g, 1);
	put_str(&g, "{anon_group}");
	put32(&g, shape == BAD_GROUP ? 2 : 0); /* leader */
	put32(&g, shape == BAD_GROUP ? 5 : 4); /* members */
	CHECK_INT(hwt_pd_writer_copy_feature(w, HWT_PD_FEAT_GROUP_DESC, g.b, g.n), 0);
	struct buf c = {.n = 0};
	if (shape != NO_CAPS) {
		put32(&c, 3);
		put_str(&c, "branch_counter_nr"), put_str(&c, "4");
		put_str(&c, "branch_counter_width"), put_str(&c, "2");
		put_str(&c, "branches"), put_str(&c, "32");
	}
	CHECK_INT(hwt_pd_writer_copy_feature(w, HWT_PD_FEAT_CPU_PMU_CAPS,
					     shape == NO_CAPS ? NULL : c.b, c.n), 0);
	sample(w, 100, 1000, 3, words_a);
	sample(w, 101, 2000, 1, words_b);
	CHECK_INT(hwt_pd_writer_close(w), 0);
}

static void test_group_of(const char *path)
{
	struct hwt_pd_reader *r = NULL;
	CHECK_INT(hwt_pd_reader_open(path, &r), 0);
	if (!r)
		return;
	struct hwt_brcntr_group g;
	unsigned width = 0, nr = 0;
	CHECK_INT(hwt_brcntr_caps(r, &width, &nr), 0);
	CHECK_INT(width, 2);
	CHECK_INT(nr, 4);
	for (size_t ev = 0; ev < 4; ev++) {
		CHECK_INT(hwt_brcntr_group_of(r, ev, &g), 0);
		CHECK_U64(g.leader, 0);
		CHECK_U64(g.nmembers, 4);
		if (ev == 2) { /* instructions: no counters of its own */
			CHECK_INT(g.nr, 0);
			continue;
		}
		CHECK_INT(g.width, 2);
		CHECK_INT(g.nr, 3);
		CHECK_U64(g.events[0], 0);
		CHECK_U64(g.events[1], 1);
		CHECK_U64(g.events[2], 3);
		CHECK_STR(g.names[0], "cycles:u");
		CHECK_STR(g.names[1], "branch-misses:u");
		CHECK_STR(g.names[2], "cache-misses:u");
	}
	CHECK_INT(hwt_brcntr_group_of(r, 4, &g), 0); /* dummy: alone */
	CHECK_U64(g.leader, 4);
	CHECK_U64(g.nmembers, 1);
	CHECK_INT(g.nr, 0);
	CHECK_INT(hwt_brcntr_group_of(r, 5, &g), HWT_ERR_INVAL);
	hwt_pd_reader_free(r);
}

/* perf reads the same group from the file: `perf report --header-only`
 * prints "# group: {cycles:uh,branch-misses:uh,...}" (its own event
 * names); its members, names up to the ':', are the group's members as
 * hwt_brcntr_group_of found them, in order. */
static void test_group_as_perf_reads_it(const char *path)
{
	char cmd[600], line[512], want[512] = "", got[512] = "";
	snprintf(cmd, sizeof(cmd), "perf report --header-only -i '%s' 2>/dev/null",
		 path);
	FILE *p = popen(cmd, "r");
	if (p) {
		while (fgets(line, sizeof(line), p))
			if (!strncmp(line, "# group: {", 10))
				snprintf(got, sizeof(got), "%s", line + 10);
		pclose(p);
	}
	if (!got[0]) {
		HWT_SKIP_PART("perf report --header-only printed no group "
			      "(no perf here?)");
		return;
	}
	/* "cycles:uh,branch-misses:uh,...}\n" to "cycles,branch-misses,..." */
	size_t n = 0;
	for (const char *c = got; *c && *c != '}' && *c != '\n';) {
		while (*c && *c != ':' && *c != ',' && *c != '}')
			got[n++] = *c++;
		while (*c && *c != ',' && *c != '}')
			c++;
		if (*c == ',')
			got[n++] = *c++;
	}
	got[n] = '\0';
	struct hwt_pd_reader *r = NULL;
	CHECK_INT(hwt_pd_reader_open(path, &r), 0);
	if (!r)
		return;
	struct hwt_brcntr_group g;
	CHECK_INT(hwt_brcntr_group_of(r, 1, &g), 0);
	for (size_t i = 0; i < g.nmembers; i++) {
		const char *name = hwt_pd_reader_attr(r, g.leader + i)->name;
		size_t len = strcspn(name, ":");
		snprintf(want + strlen(want), sizeof(want) - strlen(want), "%s%.*s",
			 i ? "," : "", (int)len, name);
	}
	CHECK_STR(got, want);
	CHECK_STR(want, "cycles,branch-misses,instructions,cache-misses");
	hwt_pd_reader_free(r);
}

struct got {
	uint64_t word[8];
	uint64_t counts[8][HWT_BRCNTR_MAX_EVENTS];
	unsigned ncounts[8];
	unsigned n;
	unsigned errors;
	char error[512];
};

static int collect(void *arg, const struct hwt_elem *e)
{
	struct got *g = arg;
	if (e->type == HWT_ELEM_ERROR) {
		if (!g->errors++)
			snprintf(g->error, sizeof(g->error), "%s", e->u.error.message);
		return 0;
	}
	if (e->type != HWT_ELEM_BRANCH || g->n == 8)
		return 0;
	CHECK(e->fields & HWT_FIELD_BR_COUNTERS);
	g->word[g->n] = e->u.branch.counters;
	g->ncounts[g->n] = hwt_brcntr_count(e->u.branch.counters,
					    e->u.branch.counter_width,
					    e->u.branch.counter_events,
					    g->counts[g->n]);
	g->n++;
	return 0;
}

static void decode(const char *path, struct got *g)
{
	struct hwt_decode_opts opts;
	memset(&opts, 0, sizeof(opts));
	opts.size = sizeof(opts);
	memset(g, 0, sizeof(*g));
	struct hwt_elem_sink sink = {collect, g};
	CHECK_INT(hwt_decode_file(path, &opts, &sink), 0);
}

/* Elements come oldest record first: depth 2, 1, 0 of the first
 * sample, then the member's one record. */
static void test_decode_counts(const char *path)
{
	struct got g;
	decode(path, &g);
	CHECK_INT(g.n, 4);
	CHECK_INT(g.errors, 0);
	for (unsigned k = 0; k < 3 && k < g.n; k++) {
		unsigned depth = 2 - k;
		CHECK_U64(g.word[k], words_a[depth]);
		CHECK_INT(g.ncounts[k], 3);
		for (unsigned i = 0; i < 3; i++)
			CHECK_U64(g.counts[k][i], counts_a[depth][i]);
	}
	CHECK_INT(g.ncounts[3], 3);
	for (unsigned i = 0; i < 3; i++) {
		CHECK_U64(g.counts[3][i], 3);
		CHECK(hwt_brcntr_saturated(g.counts[3][i], 2));
	}
}

/* The CLI's output of @args on @path, in @out. */
static void cli(const char *path, const char *args, char *out, size_t size)
{
	const char *hwtrace = getenv("HWTRACE");
	out[0] = '\0';
	if (!hwtrace) {
		HWT_FAIL("HWTRACE (the CLI binary) is not set; run through ctest");
		return;
	}
	char cmd[1024];
	snprintf(cmd, sizeof(cmd), "%s decode %s '%s' 2>/dev/null", hwtrace,
		 args, path);
	FILE *p = popen(cmd, "r");
	CHECK(p != NULL);
	if (!p)
		return;
	size_t n = fread(out, 1, size - 1, p);
	out[n] = '\0';
	CHECK_INT(pclose(p), 0);
}

static void test_cli_counts(const char *path)
{
	static char out[16384];
	cli(path, "--format jsonl", out, sizeof(out));
	CHECK_CONTAINS(out, "{\"type\":\"header\",\"version\":4,");
	CHECK_CONTAINS(out, "\"depth\":2,\"weight\":10000,\"counters\":12,"
			    "\"counts\":[0,3,0]");
	CHECK_CONTAINS(out, "\"depth\":1,\"weight\":10000,\"counters\":21,"
			    "\"counts\":[1,1,1]");
	CHECK_CONTAINS(out, "\"depth\":0,\"weight\":10000,\"counters\":35,"
			    "\"counts\":[3,0,2]");
	CHECK_CONTAINS(out, "\"counters\":63,\"counts\":[3,3,3]");
	cli(path, "", out, sizeof(out));
	CHECK_CONTAINS(out, " counters 12 counts 0,3,0");
	CHECK_CONTAINS(out, " counters 21 counts 1,1,1");
	CHECK_CONTAINS(out, " counters 35 counts 3,0,2");
	CHECK_CONTAINS(out, " counters 63 counts 3,3,3");
}

/* No CPU_PMU_CAPS: the width is unknown, the words stay whole. */
static void test_no_caps(const char *path)
{
	struct hwt_pd_reader *r = NULL;
	CHECK_INT(hwt_pd_reader_open(path, &r), 0);
	if (!r)
		return;
	struct hwt_brcntr_group g;
	CHECK_INT(hwt_brcntr_group_of(r, 0, &g), HWT_ERR_NOENT);
	CHECK_CONTAINS(hwt_errmsg(), "no cpu_pmu_caps feature");
	hwt_pd_reader_free(r);
	struct got got;
	decode(path, &got);
	CHECK_INT(got.n, 4);
	CHECK_INT(got.errors, 0);
	CHECK_U64(got.word[2], 35);
	CHECK_INT(got.ncounts[2], 0);
	static char out[16384];
	cli(path, "--format jsonl", out, sizeof(out));
	CHECK_CONTAINS(out, "\"counters\":35");
	CHECK(!strstr(out, "\"counts\""));
}

/* A group of 5 events from event 2 in a file of 5: refused, named. */
static void test_bad_group(const char *path)
{
	struct hwt_pd_reader *r = NULL;
	CHECK_INT(hwt_pd_reader_open(path, &r), 0);
	if (!r)
		return;
	struct hwt_brcntr_group g;
	CHECK_INT(hwt_brcntr_group_of(r, 0, &g), HWT_ERR_FORMAT);
	CHECK_CONTAINS(hwt_errmsg(), path);
	CHECK_CONTAINS(hwt_errmsg(), "group 0 ({anon_group}) of the group_desc "
				     "feature: leader 2 and 5 members, and the "
				     "file has 5 events");
	hwt_pd_reader_free(r);
	struct got got;
	decode(path, &got);
	CHECK_INT(got.n, 4);
	CHECK_INT(got.errors, 1); /* once, not once per event */
	CHECK_CONTAINS(got.error, "leader 2 and 5 members");
	CHECK_CONTAINS(got.error, "the branch counters are left as words");
	CHECK_INT(got.ncounts[0], 0);
	CHECK_U64(got.word[0], 12);
}

int main(void)
{
	char good[] = "/tmp/hwt-brcntr-XXXXXX", nocaps[] = "/tmp/hwt-brcntr-XXXXXX",
	     bad[] = "/tmp/hwt-brcntr-XXXXXX";
	char *paths[] = {good, nocaps, bad};
	for (int i = 0; i < 3; i++) {
		int fd = mkstemp(paths[i]);
		CHECK(fd >= 0);
		if (fd >= 0)
			close(fd);
	}
	write_capture(good, GOOD);
	write_capture(nocaps, NO_CAPS);
	write_capture(bad, BAD_GROUP);
	test_group_of(good);
	test_group_as_perf_reads_it(good);
	test_decode_counts(good);
	test_cli_counts(good);
	test_no_caps(nocaps);
	test_bad_group(bad);
	for (int i = 0; i < 3; i++)
		unlink(paths[i]);
	return hwt_test_summary();
}
