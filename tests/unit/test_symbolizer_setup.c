/* hwt_symbolizer_setup and hwt_symbolizer_hook: the kernel symbol file
 * chosen (--kallsyms over the --kcore directory's), one warning for one
 * that cannot be read, a capture of another machine kept from this
 * machine's /proc/kallsyms (its host and kernel as `perf report
 * --header-only` prints them: "hostname : localhost", "os release :
 * 4.14.18"), and the decode's callbacks set. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness.h"
#include "hwtrace/error.h"
#include "hwtrace/sym_setup.h"

#define FOREIGN HWT_TESTDATA "/perf-data/quipper/perf.data.intel_pt-4.14"
#define KADDR 0xffffffff81000120ull

static char dir[] = "/tmp/hwt_symsetup_XXXXXX";
static char warnings[8192];
static int nwarnings;

static void on_warn(void *arg, const char *msg)
{
	(void)arg;
	nwarnings++;
	size_t len = strlen(warnings);
	snprintf(warnings + len, sizeof(warnings) - len, "%s\n", msg);
}

static void write_kallsyms(const char *path, const char *fn)
{
	FILE *f = fopen(path, "w");
	CHECK(f != NULL);
	if (f) {
		fprintf(f, "ffffffff81000000 T _stext\nffffffff81000100 t %s\n"
			"ffffffff81000200 T after\n", fn);
		fclose(f);
	}
}

static struct hwt_sym_setup setup_of(const char *kallsyms, const char *kcore,
				     const char *capture)
{
	struct hwt_sym_setup s;
	memset(&s, 0, sizeof(s));
	s.size = sizeof(s);
	s.sym.kallsyms = kallsyms;
	s.sym.warn = on_warn;
	s.kcore = kcore;
	s.capture = capture;
	warnings[0] = 0;
	nwarnings = 0;
	return s;
}

/* The name of KADDR, or "" when none. */
static const char *kernel_name(struct hwt_symbolizer *sym)
{
	struct hwt_symbol out;
	if (hwt_symbolizer_lookup(sym, HWT_PID_ANY, KADDR, &out) != 1 ||
	    !out.name)
		return "";
	return out.name;
}

static void test_kcore_kallsyms(void)
{
	char kcore[600], path[700];
	snprintf(kcore, sizeof(kcore), "%s/kcore", dir);
	CHECK_INT(mkdir(kcore, 0700), 0);
	snprintf(path, sizeof(path), "%s/kallsyms", kcore);
	write_kallsyms(path, "from_kcore");
	struct hwt_sym_setup s = setup_of(NULL, kcore, NULL);
	struct hwt_symbolizer *sym = NULL;
	CHECK_INT(hwt_symbolizer_setup(&s, &sym), 0);
	/* The path was built on the setup's stack: the symbolizer kept its
	 * own copy, read on the first kernel address. */
	CHECK_STR(kernel_name(sym), "from_kcore");
	CHECK_INT(nwarnings, 0);
	hwt_symbolizer_free(sym);

	/* --kallsyms FILE wins over the --kcore directory's. */
	char own[700];
	snprintf(own, sizeof(own), "%s/own_kallsyms", dir);
	write_kallsyms(own, "from_option");
	s = setup_of(own, kcore, NULL);
	CHECK_INT(hwt_symbolizer_setup(&s, &sym), 0);
	CHECK_STR(kernel_name(sym), "from_option");
	CHECK_INT(nwarnings, 0);
	hwt_symbolizer_free(sym);
}

static void test_unreadable_kallsyms(void)
{
	char kcore[600], want[1400];
	snprintf(kcore, sizeof(kcore), "%s/empty_kcore", dir);
	CHECK_INT(mkdir(kcore, 0700), 0);
	struct hwt_sym_setup s = setup_of(NULL, kcore, NULL);
	struct hwt_symbolizer *sym = NULL;
	CHECK_INT(hwt_symbolizer_setup(&s, &sym), 0);
	CHECK_INT(nwarnings, 1);
	snprintf(want, sizeof(want), "warning: --kcore's %s/kallsyms", kcore);
	CHECK(!strncmp(warnings, want, strlen(want)));
	CHECK_CONTAINS(warnings, ": kernel addresses get no names\n");
	/* Nor this machine's names instead: nothing names the kernel. */
	CHECK_STR(kernel_name(sym), "");
	CHECK_INT(nwarnings, 1);
	hwt_symbolizer_free(sym);

	char missing[700];
	snprintf(missing, sizeof(missing), "%s/no_such_kallsyms", dir);
	s = setup_of(missing, NULL, NULL);
	CHECK_INT(hwt_symbolizer_setup(&s, &sym), 0);
	CHECK_INT(nwarnings, 1);
	snprintf(want, sizeof(want), "warning: --kallsyms %s", missing);
	CHECK(!strncmp(warnings, want, strlen(want)));
	hwt_symbolizer_free(sym);
}

static void test_foreign_capture(void)
{
	struct hwt_sym_setup s = setup_of(NULL, NULL, FOREIGN);
	struct hwt_symbolizer *sym = NULL;
	CHECK_INT(hwt_symbolizer_setup(&s, &sym), 0);
	CHECK_INT(nwarnings, 1);
	CHECK_STR(warnings, "the capture was recorded on localhost (kernel "
		  "4.14.18): this machine's /proc/kallsyms does not name its "
		  "kernel addresses; pass --kallsyms FILE saved there, or "
		  "--vmlinux\n");
	hwt_symbolizer_free(sym);

	/* Control: a kallsyms file given, nothing to say, and its names. */
	char own[700];
	snprintf(own, sizeof(own), "%s/own_kallsyms", dir);
	write_kallsyms(own, "from_option");
	s = setup_of(own, NULL, FOREIGN);
	CHECK_INT(hwt_symbolizer_setup(&s, &sym), 0);
	CHECK_INT(nwarnings, 0);
	CHECK_STR(kernel_name(sym), "from_option");
	hwt_symbolizer_free(sym);

	/* The same with --vmlinux in the decode's lookup: no warning. */
	struct hwt_image_lookup lookup;
	memset(&lookup, 0, sizeof(lookup));
	lookup.size = sizeof(lookup);
	lookup.vmlinux = own;
	s = setup_of(NULL, NULL, FOREIGN);
	s.lookup = &lookup;
	CHECK_INT(hwt_symbolizer_setup(&s, &sym), 0);
	CHECK_INT(nwarnings, 0);
	hwt_symbolizer_free(sym);
}

static void test_size_and_hook(void)
{
	struct hwt_sym_setup s = setup_of(NULL, NULL, NULL);
	struct hwt_symbolizer *sym = (struct hwt_symbolizer *)&s;
	s.size = sizeof(s) - 1;
	CHECK_INT(hwt_symbolizer_setup(&s, &sym), HWT_ERR_INVAL);
	CHECK(sym == NULL);
	CHECK_CONTAINS(hwt_errmsg(), "struct hwt_sym_setup");

	s.size = sizeof(s);
	CHECK_INT(hwt_symbolizer_setup(&s, &sym), 0);
	struct hwt_decode_opts opts;
	memset(&opts, 0, sizeof(opts));
	opts.size = sizeof(opts);
	hwt_symbolizer_hook(sym, &opts, NULL);
	CHECK(opts.on_image == hwt_symbolizer_on_image);
	CHECK(opts.on_image_arg == sym);
	CHECK(opts.name_addr == hwt_symbolizer_name);
	CHECK(opts.name_addr_arg == sym);
	hwt_symbolizer_free(sym);
}

int main(void)
{
	if (!mkdtemp(dir))
		return 1;
	RUN(test_kcore_kallsyms);
	RUN(test_unreadable_kallsyms);
	RUN(test_foreign_capture);
	RUN(test_size_and_hook);
	char cmd[600];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd)) {
	}
	return hwt_test_summary();
}
