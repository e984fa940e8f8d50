/* hwt_symbolizer_setup and hwt_symbolizer_hook: the kernel symbol file
 * chosen (--kallsyms over the --kcore directory's), one warning for one
 * that cannot be read, a capture of another machine kept from this
 * machine's /proc/kallsyms (its host and kernel as `perf report
 * --header-only` prints them: "hostname : localhost", "os release :
 * 4.14.18"), and the decode's callbacks set. hwt_symbolizer_start and
 * hwt_symbolizer_slot_namer: a namer made before its symbolizer names
 * nothing, then, once the symbolizer is started into the slot and given
 * the image of a real ELF (the RISC-V test program of the test data),
 * every function nm -S lists by its name and start, at its first and its
 * last byte (nm is the oracle). */
#include <inttypes.h>
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
#define ELF HWT_TESTDATA "/riscv-ntrace/t1/test.elf"

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

/* The functions nm -S lists with a size (type T or t) in @bin, at most
 * @max: name, start, size. */
struct nm_func {
	char name[128];
	uint64_t start, size;
};

static int nm_functions(const char *bin, struct nm_func *out, int max)
{
	char cmd[600];
	snprintf(cmd, sizeof(cmd), "nm -S '%s' | awk 'NF == 4 && "
		 "($3 == \"T\" || $3 == \"t\") { print $1, $2, $4 }'", bin);
	FILE *p = popen(cmd, "r");
	if (!p)
		return -1;
	int n = 0;
	while (n < max && fscanf(p, "%" SCNx64 " %" SCNx64 " %127s",
				 &out[n].start, &out[n].size, out[n].name) == 3)
		n++;
	pclose(p);
	return n;
}

/* Functions that share a start (_init and _fini of this program) are one
 * function with two names: the name to expect for @f is @got when @got is
 * any of the names nm gives @f's start, else @f's own. */
static const char *want_name(const struct nm_func *funcs, int n,
			     const struct nm_func *f, const char *got)
{
	for (int i = 0; got && i < n; i++)
		if (funcs[i].start == f->start && !strcmp(funcs[i].name, got))
			return got;
	return f->name;
}

static void test_start_and_slot_namer(void)
{
	struct hwt_symbolizer *slot = NULL;
	struct hwt_func_namer namer = hwt_symbolizer_slot_namer(&slot);
	CHECK(namer.name != NULL && namer.parent != NULL &&
	      namer.unnamed != NULL && namer.dso != NULL);
	struct nm_func funcs[64];
	int n = nm_functions(ELF, funcs, 64);
	/* Positive control of the oracle: the program's functions are
	 * there (main among them). */
	CHECK(n >= 10);
	bool has_main = false;
	for (int i = 0; i < n; i++)
		has_main |= !strcmp(funcs[i].name, "main");
	CHECK(has_main);
	if (n < 1)
		return;
	uint64_t start = 1;
	/* Not started: nothing named, not even an address's binary. */
	CHECK(namer.name(namer.arg, 1, funcs[0].start, &start) == NULL);
	CHECK(!namer.parent(namer.arg, 1, funcs[0].start, &start));
	CHECK(namer.unnamed(namer.arg, 1, funcs[0].start) == NULL);
	CHECK(namer.dso(namer.arg, 1, funcs[0].start) == NULL);

	struct hwt_sym_setup s = setup_of(NULL, NULL, NULL);
	struct hwt_decode_opts opts;
	memset(&opts, 0, sizeof(opts));
	opts.size = sizeof(opts);
	CHECK_INT(hwt_symbolizer_start(&s, &opts, NULL, &slot), 0);
	CHECK(slot != NULL);
	CHECK(opts.on_image == hwt_symbolizer_on_image);
	CHECK(opts.on_image_arg == slot);
	CHECK(opts.name_addr == hwt_symbolizer_name);
	CHECK(opts.name_addr_arg == slot);
	/* The image comes as a decode gives it: through opts.on_image. */
	struct hwt_image *image = hwt_image_new();
	CHECK(image != NULL);
	CHECK_INT(hwt_image_add_elf(image, 1, ELF, 0), 0);
	opts.on_image(opts.on_image_arg, image);
	for (int i = 0; i < n; i++) {
		uint64_t ends[2] = {funcs[i].start,
				    funcs[i].start + funcs[i].size - 1};
		for (int k = 0; k < 2; k++) {
			start = 0;
			const char *got = namer.name(namer.arg, 1, ends[k],
						     &start);
			CHECK_STR(got ? got : "(none)",
				  want_name(funcs, n, &funcs[i], got));
			CHECK_U64(start, funcs[i].start);
		}
		const char *dso = namer.dso(namer.arg, 1, funcs[i].start);
		CHECK_STR(dso ? dso : "(none)", "test.elf");
	}
	hwt_image_free(image);
	hwt_symbolizer_free(slot);
	slot = NULL;
	/* Emptied again: nothing named. */
	CHECK(namer.name(namer.arg, 1, funcs[0].start, &start) == NULL);

	/* A failed start hooks nothing. */
	memset(&opts, 0, sizeof(opts));
	opts.size = sizeof(opts);
	s.size = sizeof(s) - 1;
	CHECK_INT(hwt_symbolizer_start(&s, &opts, NULL, &slot), HWT_ERR_INVAL);
	CHECK(slot == NULL);
	CHECK(opts.on_image == NULL && opts.name_addr == NULL);
}

int main(void)
{
	if (!mkdtemp(dir))
		return 1;
	RUN(test_kcore_kallsyms);
	RUN(test_unreadable_kallsyms);
	RUN(test_foreign_capture);
	RUN(test_size_and_hook);
	RUN(test_start_and_slot_namer);
	char cmd[600];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd)) {
	}
	return hwt_test_summary();
}
