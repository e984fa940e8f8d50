/* hwt_merge_request_merge, _output_check, _write and _write_profiles,
 * what `hwtrace merge` does once its options are read: edge partials
 * written by hand in docs/scale-out.md's format merged to the sums worked
 * out by hand and written as the edge writer writes them (or as the
 * merged partial); a new database refused over anything already at -o,
 * a dangling link too; and two AutoFDO partials of one binary merged
 * into the file docs/scale-out.md names (DIR/BINARY.afdo.txt), the
 * counts added up, listed under the line the command prints. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness.h"
#include "hwtrace/error.h"
#include "hwtrace/merge_request.h"
#include "hwtrace/partial.h"

static char dir[] = "/tmp/hwt-merge-request-output.XXXXXX";

static void put(const char *name, const char *text, char *path, size_t size)
{
	snprintf(path, size, "%s/%s", dir, name);
	FILE *f = fopen(path, "w");
	CHECK(f != NULL);
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = calloc(1, 65536);
	CHECK(f != NULL);
	if (f && buf)
		CHECK(fread(buf, 1, 65535, f) > 0);
	if (f)
		fclose(f);
	return buf;
}

static const char part_a[] =
	"hwtrace-partial 2 edges\n"
	"stats 1 2 3 4\n"
	"edge 0x1000 0x2000 5\n"
	"edge 0x3000 0x4000 7\n"
	"end 2\n";

static const char part_b[] =
	"hwtrace-partial 2 edges\n"
	"stats 10 20 30 40\n"
	"edge 0x1000 0x2000 1\n"
	"edge 0x5000 0x6000 2\n"
	"end 2\n";

static char *written(const struct hwt_merge_request *rq,
		     const struct hwt_partial *sum)
{
	struct hwt_merge_write_opts opts = {
		.top = 25, .weight = HWT_WEIGHT_INSNS, .format = HWT_OUTPUT_TEXT,
	};
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);
	CHECK_INT(hwt_merge_request_write(rq, sum, &opts, out), 0);
	fclose(out);
	return text;
}

static void edges_merged_and_written(void)
{
	char a[128], b[128];
	put("a.part", part_a, a, sizeof(a));
	put("b.part", part_b, b, sizeof(b));
	const char *parts[] = {a, b};
	struct hwt_merge_request rq = {.has_kind = true, .kind = HWT_MERGE_EDGES,
				       .nparts = 2};
	struct hwt_partial *sum = NULL;

	CHECK_INT(hwt_merge_request_merge(&rq, parts, &sum), 0);
	if (!sum)
		return;
	/* As the partial: the sums by hand. */
	rq.partial = true;
	char *text = written(&rq, sum);
	CHECK_STR(text, "hwtrace-partial 2 edges\n"
		  "stats 11 22 33 44\n"
		  "edge 0x1000 0x2000 6\n"
		  "edge 0x3000 0x4000 7\n"
		  "edge 0x5000 0x6000 2\n"
		  "end 3\n");
	free(text);
	/* As the result: what the edge writer writes of the sum. */
	rq.partial = false;
	text = written(&rq, sum);
	char *direct = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&direct, &len);
	CHECK_INT(hwt_partial_write_edges(sum, f, HWT_OUTPUT_TEXT), 0);
	fclose(f);
	CHECK(text && strstr(text, "0x5000") != NULL);
	CHECK_STR(text, direct);
	free(text);
	free(direct);
	hwt_partial_free(sum);

	/* Only the first part: nparts is the count merged. */
	rq.nparts = 1;
	rq.partial = true;
	CHECK_INT(hwt_merge_request_merge(&rq, parts, &sum), 0);
	text = sum ? written(&rq, sum) : NULL;
	CHECK_STR(text, part_a);
	free(text);
	hwt_partial_free(sum);

	/* A part of another kind is named. */
	rq.kind = HWT_MERGE_REPORT;
	sum = (struct hwt_partial *)1;
	CHECK_INT(hwt_merge_request_merge(&rq, parts, &sum), HWT_ERR_FORMAT);
	CHECK(sum == NULL);
	char msg[256];
	snprintf(msg, sizeof(msg), "%s: a partial result of kind edges where "
		 "report was asked for", a);
	CHECK_STR(hwt_errmsg(), msg);
	unlink(a);
	unlink(b);
}

static void database_never_replaces(void)
{
	char there[128], link_path[128], absent[128], msg[512];
	put("there.db", "", there, sizeof(there));
	snprintf(link_path, sizeof(link_path), "%s/dangling.db", dir);
	snprintf(absent, sizeof(absent), "%s/absent.db", dir);
	CHECK_INT(symlink(absent, link_path), 0);
	struct hwt_merge_request rq = {.has_kind = true, .kind = HWT_MERGE_SQLITE,
				       .output = there, .nparts = 1};

	CHECK_INT(hwt_merge_request_output_check(&rq), HWT_ERR_CONFIG);
	snprintf(msg, sizeof(msg), "%s exists: give another -o (the merge "
		 "creates a database, it does not replace one)", there);
	CHECK_STR(hwt_errmsg(), msg);
	rq.output = link_path;
	CHECK_INT(hwt_merge_request_output_check(&rq), HWT_ERR_CONFIG);
	rq.output = absent;
	CHECK_INT(hwt_merge_request_output_check(&rq), 0);
	/* Only a new database is refused: a stream or a partial replaces. */
	rq.output = there;
	rq.partial = true;
	CHECK_INT(hwt_merge_request_output_check(&rq), 0);
	rq.partial = false;
	rq.kind = HWT_MERGE_REPORT;
	CHECK_INT(hwt_merge_request_output_check(&rq), 0);
	unlink(there);
	unlink(link_path);
}

static const char afdo_a[] =
	"hwtrace-partial 2 autofdo\n"
	"binary /opt/app/prog % 0x400000\n"
	"range 0x1000 0x1010 3\n"
	"end 2\n";

static const char afdo_b[] =
	"hwtrace-partial 2 autofdo\n"
	"binary /opt/app/prog % 0x400000\n"
	"range 0x1000 0x1010 4\n"
	"range 0x1020 0x1030 1\n"
	"end 3\n";

static void profiles_listed_once_in_place(void)
{
	char a[128], b[128], out[128], file[160], want[512];
	put("a.afdo", afdo_a, a, sizeof(a));
	put("b.afdo", afdo_b, b, sizeof(b));
	snprintf(out, sizeof(out), "%s/profiles", dir);
	CHECK_INT(mkdir(out, 0755), 0);
	const char *parts[] = {a, b};
	struct hwt_merge_request rq = {.has_kind = true,
				       .kind = HWT_MERGE_AUTOFDO, .output = out,
				       .nparts = 2};
	struct hwt_partial *sum = NULL;

	CHECK_INT(hwt_merge_request_merge(&rq, parts, &sum), 0);
	if (!sum)
		return;
	char *report = NULL;
	size_t len = 0;
	FILE *r = open_memstream(&report, &len);
	CHECK_INT(hwt_merge_request_write_profiles(&rq, sum, r,
						   "hwtrace merge: "), 0);
	fclose(r);
	snprintf(file, sizeof(file), "%s/prog.afdo.txt", out);
	snprintf(want, sizeof(want), "hwtrace merge: 2 partial results merged "
		 "into the files:\n  %s (/opt/app/prog)\n", file);
	CHECK_STR(report, want);
	free(report);
	/* AutoFDO's text: the ranges with their summed counts, no
	 * branches, and the comment export ends each file with. */
	char *afdo = slurp(file);
	CHECK_STR(afdo, "2\n1000-1010:7\n1020-1030:1\n0\n0\n"
		  "// /opt/app/prog\n");
	free(afdo);
	unlink(file);

	/* A kind without files: the error, and nothing said. */
	struct hwt_merge_request edges = {.has_kind = true,
					  .kind = HWT_MERGE_EDGES, .output = out,
					  .nparts = 1};
	char ep[128];
	put("e.part", part_a, ep, sizeof(ep));
	const char *eparts[] = {ep};
	struct hwt_partial *esum = NULL;
	CHECK_INT(hwt_merge_request_merge(&edges, eparts, &esum), 0);
	report = NULL;
	r = open_memstream(&report, &len);
	CHECK_INT(hwt_merge_request_write_profiles(&edges, esum, r, "x: "),
		  HWT_ERR_INVAL);
	fclose(r);
	CHECK_STR(report, "");
	free(report);
	hwt_partial_free(esum);
	hwt_partial_free(sum);
	unlink(a);
	unlink(b);
	unlink(ep);
	rmdir(out);
}

int main(void)
{
	if (!mkdtemp(dir)) {
		perror(dir);
		return 1;
	}
	RUN(edges_merged_and_written);
	RUN(database_never_replaces);
	RUN(profiles_listed_once_in_place);
	rmdir(dir);
	return hwt_test_summary();
}
