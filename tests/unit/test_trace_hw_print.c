/* hwt_trace_hw_scan and hwt_trace_hw_print, the text of `hwtrace list`,
 * on the fake sysfs trees of tests/fixtures/sysfs: every number printed
 * is read here from the fixture's own files (a PMU's type, a format
 * term, nr_addr_filters, a sink's id, a trace unit's register, the
 * depth in caps/branches, the PMU folders present); a tree with a
 * malformed caps/branches gives its error in the branch line. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness.h"
#include "hwtrace/error.h"
#include "hwtrace/os.h"
#include "hwtrace/trace_hw.h"

#define FIXTURES HWT_SOURCE_DIR "/tests/fixtures/sysfs/"
#define DEVICES "/bus/event_source/devices/"

/* The first line of fixture file @tree/@rel, without its newline. */
static const char *fixture(const char *tree, const char *rel, char *buf,
			   size_t size)
{
	char path[1024];
	FILE *f;

	snprintf(path, sizeof(path), FIXTURES "%s%s", tree, rel);
	buf[0] = 0;
	f = fopen(path, "r");
	CHECK(f != NULL);
	if (f) {
		if (!fgets(buf, (int)size, f))
			buf[0] = 0;
		fclose(f);
	}
	buf[strcspn(buf, "\n")] = 0;
	return buf;
}

/* `hwtrace list`'s text for the sysfs tree at @root, shown as @shown,
 * in a string to free; *@hw_out keeps the scan when not NULL. */
static char *listing(const char *root, const char *shown,
		     struct hwt_trace_hw **hw_out)
{
	struct hwt_os *os = hwt_os_linux_new(root);
	struct hwt_trace_hw *hw = NULL;
	char *text = NULL;
	size_t size = 0;

	CHECK(os != NULL);
	if (!os)
		return NULL;
	CHECK_INT(hwt_trace_hw_scan(os, &hw), 0);
	FILE *out = open_memstream(&text, &size);
	if (hw && out)
		CHECK_INT(hwt_trace_hw_print(out, hw, shown), 0);
	if (out)
		fclose(out);
	if (hw_out)
		*hw_out = hw;
	else
		hwt_trace_hw_free(hw);
	hwt_os_free(os);
	return text;
}

static void coresight_with_etr(void)
{
	char want[1024], v[256];
	char *text = listing(FIXTURES "juno", "JUNO", NULL);

	if (!text)
		return;
	snprintf(want, sizeof(want), "Trace PMUs (sysfs at JUNO):\n\ncs_etm: type %s, ",
		 fixture("juno", DEVICES "cs_etm/type", v, sizeof(v)));
	CHECK(!strncmp(text, want, strlen(want)));
	snprintf(want, sizeof(want), " preset=%s ",
		 fixture("juno", DEVICES "cs_etm/format/preset", v, sizeof(v)));
	CHECK_CONTAINS(text, want);
	snprintf(want, sizeof(want), "\n  address filters: %s\n",
		 fixture("juno", DEVICES "cs_etm/nr_addr_filters", v, sizeof(v)));
	CHECK_CONTAINS(text, want);
	snprintf(want, sizeof(want), " tmc_etr0 (id 0x%08lx)",
		 strtoul(fixture("juno", DEVICES "cs_etm/sinks/tmc_etr0", v,
				 sizeof(v)), NULL, 0));
	CHECK_CONTAINS(text, want);
	snprintf(want, sizeof(want), "\n    cpu0   ETMv4  trcauthstatus=");
	CHECK_CONTAINS(text, want);
	snprintf(want, sizeof(want), " trcidr0=%s ",
		 fixture("juno", DEVICES "cs_etm/cpu0/trcidr/trcidr0", v, sizeof(v)));
	CHECK_CONTAINS(text, want);
	/* cpu0 .. cpu5 folders, none with a TRBE. */
	CHECK_CONTAINS(text, "\n  sink path: ETR tmc_etr0 (CPU 0-5 have no TRBE)\n");
	CHECK(!strstr(text, "cpu6"));
	CHECK_CONTAINS(text, "\nBranch records (perf record -b): none");
	CHECK_CONTAINS(text, "\n\nDecoders in this build:");
	free(text);
}

static void coresight_with_trbe(void)
{
	char *text = listing(FIXTURES "armv9-ete-trbe", "T", NULL);

	if (!text)
		return;
	CHECK_CONTAINS(text, "\n    cpu1   ETE    trcdevarch=");
	CHECK_CONTAINS(text, "\n  sink path: TRBE (every CPU has one;");
	free(text);
}

static void lbr_depth(void)
{
	struct hwt_trace_hw *hw = NULL;
	char want[512], v[64];
	char *text = listing(FIXTURES "intel-lbr", "L", &hw);

	fixture("intel-lbr", DEVICES "cpu/caps/branches", v, sizeof(v));
	CHECK_STR(v, "32");
	if (hw) {
		CHECK_INT(hw->branch_status, 0);
		CHECK_U64(hw->branch.depth, strtoul(v, NULL, 10));
	}
	snprintf(want, sizeof(want), "\nBranch records (perf record -b, -j): LBR "
		 "on cpu, %s records a sample; ", v);
	if (text)
		CHECK_CONTAINS(text, want);
	hwt_trace_hw_free(hw);
	free(text);
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

/* No trace PMU: the PMU folders of the tree, listed as sysfs has them. */
static void none_lists_the_pmus(void)
{
	struct dirent **names;
	char want[2048];
	size_t pos;
	int n = scandir(FIXTURES "no-trace" DEVICES, &names, NULL, by_name);
	struct hwt_trace_hw *hw = NULL;
	char *text = listing(FIXTURES "no-trace", "N", &hw);

	CHECK(n > 2);
	pos = (size_t)snprintf(want, sizeof(want),
			       "\nPMUs present (none of them traces):");
	for (int i = 0, k = 0; i < n; i++) {
		if (names[i]->d_name[0] != '.')
			pos += (size_t)snprintf(want + pos, sizeof(want) - pos,
						"%s %s", k++ ? "," : "",
						names[i]->d_name);
		free(names[i]);
	}
	free(names);
	snprintf(want + pos, sizeof(want) - pos, "\n");
	if (text) {
		CHECK(!strncmp(text, "No trace PMU on this machine.\n\nWhy:\n", 36));
		CHECK_CONTAINS(text, want);
		CHECK(!strstr(text, "Trace PMUs (sysfs at"));
	}
	if (hw) {
		CHECK_INT(hw->pmus->count, 0);
		CHECK_INT(hw->branch_status, HWT_ERR_NOENT);
	}
	hwt_trace_hw_free(hw);
	free(text);
}

/* A caps/branches that is not a number: the error, in the branch line. */
static void bad_branches_file(void)
{
	char root[] = "/tmp/hwt-sysfs-XXXXXX", path[512];
	const char *dirs[] = {"/bus", "/bus/event_source",
			      "/bus/event_source/devices",
			      DEVICES "cpu", DEVICES "cpu/caps"};
	struct hwt_trace_hw *hw = NULL;
	FILE *f;

	CHECK(mkdtemp(root) != NULL);
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		snprintf(path, sizeof(path), "%s%s", root, dirs[i]);
		CHECK_INT(mkdir(path, 0700), 0);
	}
	snprintf(path, sizeof(path), "%s" DEVICES "cpu/type", root);
	if ((f = fopen(path, "w"))) {
		fputs("4\n", f);
		fclose(f);
	}
	snprintf(path, sizeof(path), "%s" DEVICES "cpu/caps/branches", root);
	if ((f = fopen(path, "w"))) {
		fputs("many\n", f);
		fclose(f);
	}
	char *text = listing(root, "B", &hw);
	if (hw) {
		CHECK_INT(hw->branch_status, HWT_ERR_FORMAT);
		CHECK_CONTAINS(hw->branch_error, "branches");
	}
	if (text && hw) {
		char want[700];

		snprintf(want, sizeof(want), "\nBranch records: %s\n",
			 hw->branch_error);
		CHECK_CONTAINS(text, want);
	}
	hwt_trace_hw_free(hw);
	free(text);
	unlink(path);
	snprintf(path, sizeof(path), "%s" DEVICES "cpu/type", root);
	unlink(path);
	for (size_t i = sizeof(dirs) / sizeof(dirs[0]); i-- > 0;) {
		snprintf(path, sizeof(path), "%s%s", root, dirs[i]);
		rmdir(path);
	}
	rmdir(root);
}

int main(void)
{
	RUN(coresight_with_etr);
	RUN(coresight_with_trbe);
	RUN(lbr_depth);
	RUN(none_lists_the_pmus);
	RUN(bad_branches_file);
	return hwt_test_summary();
}
