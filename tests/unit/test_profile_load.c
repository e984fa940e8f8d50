/* Profiles: INI loading with iniparser, command-line overrides winning over
 * the file, perf-style event strings, typed readers and CPU lists. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "hwtrace/config.h"
#include "hwtrace/error.h"

static char tmpdir[] = "/tmp/hwt_profile_XXXXXX";

static const char *write_file(const char *name, const char *text)
{
	static char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", tmpdir, name);
	f = fopen(path, "w");
	CHECK(f != NULL);
	if (f) {
		fputs(text, f);
		fclose(f);
	}
	return path;
}

static void ini_sections_and_keys(void)
{
	struct hwt_profile *p = NULL;
	const char *path = write_file("a.ini",
		"; comment\n"
		"[Session]\n"
		"backend = intel_pt   ; trailing comment\n"
		"Aux_Size = 8M\n"
		"output = \"trace one.data\"\n"
		"[intel_pt]\n"
		"cyc = 1\n"
		"filter = filter main @ /bin/ls\n");

	CHECK_INT(hwt_profile_load(path, &p), 0);
	if (!p)
		return;
	/* iniparser folds section and key names to lower case. */
	CHECK_STR(hwt_profile_get(p, "session:backend"), "intel_pt");
	CHECK_STR(hwt_profile_get(p, "session:aux_size"), "8M");
	CHECK_STR(hwt_profile_get(p, "session:output"), "trace one.data");
	CHECK_STR(hwt_profile_get(p, "intel_pt:filter"), "filter main @ /bin/ls");
	CHECK_STR(hwt_profile_origin(p, "intel_pt:cyc"), path);
	CHECK(hwt_profile_get(p, "intel_pt:mtc") == NULL);
	uint64_t v;
	CHECK_INT(hwt_profile_get_size(p, "session:aux_size", 0, &v), 0);
	CHECK_U64(v, 8u << 20);
	CHECK_INT(hwt_profile_get_size(p, "session:data_size", 12345, &v), 0);
	CHECK_U64(v, 12345);
	hwt_profile_free(p);
}

static void overrides_win_over_the_file(void)
{
	struct hwt_profile *p = NULL;
	const char *path = write_file("b.ini",
		"[session]\nbackend = cs_etm\nmode = full\n"
		"[intel_pt]\ncyc = 0\n");

	CHECK_INT(hwt_profile_load(path, &p), 0);
	if (!p)
		return;
	CHECK_INT(hwt_profile_set(p, "session.mode", "snapshot"), 0);
	CHECK_STR(hwt_profile_get(p, "session:mode"), "snapshot");
	CHECK_STR(hwt_profile_origin(p, "session:mode"), "--set");
	CHECK_INT(hwt_profile_parse_event(p, "intel_pt/cyc,mtc_period=2/u"), 0);
	CHECK_STR(hwt_profile_get(p, "session:backend"), "intel_pt");
	CHECK_STR(hwt_profile_get(p, "intel_pt:cyc"), "1");
	CHECK_STR(hwt_profile_get(p, "intel_pt:mtc_period"), "2");
	CHECK_STR(hwt_profile_get(p, "session:user"), "yes");
	CHECK_STR(hwt_profile_get(p, "session:kernel"), "no");
	CHECK_STR(hwt_profile_origin(p, "intel_pt:cyc"), "-e");
	CHECK_INT(hwt_profile_set(p, "nosection", "x"), HWT_ERR_CONFIG);
	CHECK_STR(hwt_errmsg(), "\"nosection\" is not section.key (e.g. "
				"session.mode or intel_pt.cyc)");
	hwt_profile_free(p);
}

struct seen {
	char keys[256];
};

static int collect(void *arg, const char *key, const char *value)
{
	struct seen *s = arg;
	size_t n = strlen(s->keys);

	snprintf(s->keys + n, sizeof(s->keys) - n, "%s=%s;", key, value);
	return 0;
}

static void event_strings(void)
{
	struct hwt_profile *p = hwt_profile_new();
	struct seen s = {""};

	CHECK_INT(hwt_profile_parse_event(p, "cs_etm/@tmc_etr0,timestamp,"
					  "cycacc=1/k"), 0);
	CHECK_STR(hwt_profile_get(p, "session:backend"), "cs_etm");
	CHECK_INT(hwt_profile_foreach(p, "cs_etm", collect, &s), 0);
	CHECK_STR(s.keys, "sink=tmc_etr0;timestamp=1;cycacc=1;");
	CHECK_STR(hwt_profile_get(p, "session:user"), "no");
	CHECK_STR(hwt_profile_get(p, "session:kernel"), "yes");
	hwt_profile_free(p);

	p = hwt_profile_new();
	CHECK_INT(hwt_profile_parse_event(p, "intel_bts//"), 0);
	CHECK_STR(hwt_profile_get(p, "session:backend"), "intel_bts");
	CHECK(hwt_profile_get(p, "session:user") == NULL);
	CHECK_INT(hwt_profile_parse_event(p, "intel_pt"), HWT_ERR_CONFIG);
	CHECK_STR(hwt_errmsg(), "-e intel_pt: expected PMU/terms/modifiers, e.g. "
				"intel_pt/cyc,mtc_period=2/u");
	CHECK_INT(hwt_profile_parse_event(p, "intel_pt/cyc"), HWT_ERR_CONFIG);
	CHECK_STR(hwt_errmsg(), "-e intel_pt/cyc: the terms need a closing '/', "
				"e.g. intel_pt//u");
	CHECK_INT(hwt_profile_parse_event(p, "intel_pt//x"), HWT_ERR_CONFIG);
	CHECK_STR(hwt_errmsg(), "-e intel_pt//x: unknown modifier 'x' (hwtrace "
				"knows u and k)");
	CHECK_INT(hwt_profile_parse_event(p, "cs_etm/@/"), HWT_ERR_CONFIG);
	CHECK_INT(hwt_profile_parse_event(p, "cs_etm/=3/"), HWT_ERR_CONFIG);
	hwt_profile_free(p);
}

static void typed_readers(void)
{
	struct hwt_profile *p = hwt_profile_new();
	uint64_t v;
	bool b;

	hwt_profile_set(p, "s.n", "0x10");
	hwt_profile_set(p, "s.bad", "12abc");
	hwt_profile_set(p, "s.neg", "-1");
	hwt_profile_set(p, "s.yes", "On");
	hwt_profile_set(p, "s.size", "64k");
	hwt_profile_set(p, "s.badsize", "lots");
	CHECK_INT(hwt_profile_get_u64(p, "s:n", 0, &v), 0);
	CHECK_U64(v, 16);
	CHECK_INT(hwt_profile_get_u64(p, "s:bad", 0, &v), HWT_ERR_CONFIG);
	CHECK_STR(hwt_errmsg(), "--set: s:bad = \"12abc\" is not a number (use "
				"decimal or 0x-hexadecimal)");
	CHECK_INT(hwt_profile_get_u64(p, "s:neg", 0, &v), HWT_ERR_CONFIG);
	CHECK_INT(hwt_profile_get_bool(p, "s:yes", false, &b), 0);
	CHECK(b);
	CHECK_INT(hwt_profile_get_bool(p, "s:n", false, &b), HWT_ERR_CONFIG);
	CHECK_INT(hwt_profile_get_size(p, "s:size", 0, &v), 0);
	CHECK_U64(v, 65536);
	CHECK_INT(hwt_profile_get_size(p, "s:badsize", 0, &v), HWT_ERR_CONFIG);
	hwt_profile_free(p);
	hwt_profile_free(NULL);
}

static void cpu_lists(void)
{
	int *cpus = NULL;
	size_t n = 0;

	CHECK_INT(hwt_cpu_list_parse("4-6,0,2,5", &cpus, &n), 0);
	CHECK_INT(n, 5);
	if (n == 5) {
		CHECK_INT(cpus[0], 0);
		CHECK_INT(cpus[1], 2);
		CHECK_INT(cpus[2], 4);
		CHECK_INT(cpus[4], 6);
	}
	free(cpus);
	CHECK_INT(hwt_cpu_list_parse("0-3\n", &cpus, &n), 0);
	CHECK_INT(n, 4);
	free(cpus);
	CHECK_INT(hwt_cpu_list_parse("3-1", &cpus, &n), HWT_ERR_CONFIG);
	CHECK_STR(hwt_errmsg(), "\"3-1\" is not a CPU list (use e.g. 0-3,6 or all)");
	CHECK_INT(hwt_cpu_list_parse("", &cpus, &n), HWT_ERR_CONFIG);
	CHECK_INT(hwt_cpu_list_parse("1,,2", &cpus, &n), HWT_ERR_CONFIG);
}

static void unreadable_and_malformed_files(void)
{
	struct hwt_profile *p = NULL;
	const char *path;

	CHECK_INT(hwt_profile_load("/nonexistent/x.ini", &p), HWT_ERR_NOENT);
	CHECK_STR(hwt_errmsg(), "profile /nonexistent/x.ini does not exist");
	path = write_file("bad.ini", "[session\nbackend = intel_pt\n");
	CHECK_INT(hwt_profile_load(path, &p), HWT_ERR_FORMAT);
	CHECK_CONTAINS(hwt_errmsg(), "is not a valid INI file");
	CHECK(p == NULL);
}

int main(void)
{
	if (!mkdtemp(tmpdir)) {
		fprintf(stderr, "cannot create a temporary directory\n");
		return 1;
	}
	RUN(ini_sections_and_keys);
	RUN(overrides_win_over_the_file);
	RUN(event_strings);
	RUN(typed_readers);
	RUN(cpu_lists);
	RUN(unreadable_and_malformed_files);
	char cmd[600];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", tmpdir);
	return hwt_test_summary();
}
