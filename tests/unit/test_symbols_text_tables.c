/* The symbolizer's text inputs and names, through the public API: a
 * kallsyms file (module code, the room of the last symbol, hidden
 * addresses), a JIT perf map with damaged lines, the AArch64 program of
 * the simpleperf capture read as a library, and C++ names shown as perf
 * shows them. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "hwtrace/error.h"
#include "hwtrace/symbols.h"

static char dir[] = "/tmp/hwt_symtab_XXXXXX";

static char warnings[4096];
static int nwarnings;

static void on_warn(void *arg, const char *msg)
{
	(void)arg;
	nwarnings++;
	size_t len = strlen(warnings);
	snprintf(warnings + len, sizeof(warnings) - len, "%s\n", msg);
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	CHECK(f != NULL);
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

static struct hwt_symbolizer *make(const char *kallsyms, const char *map_dir)
{
	struct hwt_sym_opts o;
	memset(&o, 0, sizeof(o));
	o.size = sizeof(o);
	o.kallsyms = kallsyms;
	o.perf_map_dir = map_dir;
	o.warn = on_warn;
	struct hwt_symbolizer *s = NULL;
	CHECK_INT(hwt_symbolizer_new(&o, &s), 0);
	warnings[0] = 0;
	nwarnings = 0;
	return s;
}

static void test_kallsyms_modules_and_ends(void)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/kallsyms", dir);
	write_file(path,
		   "ffffffff81000000 T _stext\n"
		   "ffffffff81000100 t do_one\n"
		   "ffffffff81000180 D not_code\n"
		   "ffffffff81000200 W weak_one\n"
		   "garbage line\n"
		   "ffffffffc0010000 t mod_entry\t[demo_mod]\n"
		   "ffffffffc0010040 T mod_exit\t[demo_mod]\n");
	struct hwt_symbolizer *s = make(path, dir);
	struct hwt_symbol sym;
	CHECK_INT(hwt_symbolizer_lookup(s, HWT_PID_ANY, 0xffffffff81000104ull, &sym), 1);
	CHECK_STR(sym.name, "do_one");
	CHECK_U64(sym.offset, 4);
	/* The data symbol is no function: do_one reaches to weak_one. */
	CHECK_U64(sym.size, 0x100);
	CHECK_STR(sym.dso, "[kernel.kallsyms]");
	CHECK_INT(hwt_symbolizer_lookup(s, HWT_PID_ANY, 0xffffffffc001003full, &sym), 1);
	CHECK_STR(sym.name, "mod_entry");
	CHECK_U64(sym.offset, 0x3f);
	CHECK_STR(sym.dso, "[demo_mod]");
	/* The last symbol has no known end. */
	CHECK_INT(hwt_symbolizer_lookup(s, HWT_PID_ANY, 0xffffffffc0010044ull, &sym), 0);
	CHECK_INT(nwarnings, 1);
	char want[600];
	snprintf(want, sizeof(want), "%s: 1 unreadable lines skipped\n", path);
	CHECK_STR(warnings, want);
	hwt_symbolizer_free(s);
}

static void test_kallsyms_line_forms(void)
{
	/* The line forms the hand parser must read as sscanf(" %c %511s
	 * %255s") did: tabs, capital hex digits, a 0x, lines without a name
	 * (unreadable, code or not), a name longer than 511 bytes (its rest
	 * read as the module, which names no module without its '['). */
	char path[512], longname[700];
	snprintf(path, sizeof(path), "%s/forms", dir);
	memset(longname, 'n', 600);
	longname[600] = 0;
	char text[2048];
	snprintf(text, sizeof(text),
		 "ffffffff81000000\tT\ttabbed\n"
		 "FFFFFFFF81000100 t upper_hex\n"
		 "0xffffffff81000200 t with_0x\n"
		 "ffffffff81000300 T\n"
		 "ffffffff81000380 d\n"
		 "ffffffff81000400 T %s\n"
		 "ffffffff81000500 t after_long [mod_a]\n"
		 "ffffffff81000600 t last_one [mod_a]\n",
		 longname);
	write_file(path, text);
	struct hwt_symbolizer *s = make(path, dir);
	struct hwt_symbol sym;
	CHECK_INT(hwt_symbolizer_lookup(s, HWT_PID_ANY, 0xffffffff81000010ull, &sym), 1);
	CHECK_STR(sym.name, "tabbed");
	CHECK_INT(hwt_symbolizer_lookup(s, HWT_PID_ANY, 0xffffffff81000101ull, &sym), 1);
	CHECK_STR(sym.name, "upper_hex");
	CHECK_INT(hwt_symbolizer_lookup(s, HWT_PID_ANY, 0xffffffff81000202ull, &sym), 1);
	CHECK_STR(sym.name, "with_0x");
	CHECK_U64(sym.offset, 2);
	/* The nameless lines are skipped: with_0x reaches to the long one. */
	CHECK_U64(sym.size, 0x200);
	CHECK_INT(hwt_symbolizer_lookup(s, HWT_PID_ANY, 0xffffffff81000400ull, &sym), 1);
	CHECK_INT((int)strlen(sym.name), 511);
	CHECK_STR(sym.dso, "[kernel.kallsyms]");
	CHECK_INT(hwt_symbolizer_lookup(s, HWT_PID_ANY, 0xffffffff81000500ull, &sym), 1);
	CHECK_STR(sym.name, "after_long");
	CHECK_STR(sym.dso, "[mod_a]");
	char want[600];
	snprintf(want, sizeof(want), "%s: 2 unreadable lines skipped\n", path);
	CHECK_STR(warnings, want);
	hwt_symbolizer_free(s);
}

static void test_kallsyms_hidden(void)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/hidden", dir);
	write_file(path, "0000000000000000 T _stext\n0000000000000000 t do_one\n");
	struct hwt_symbolizer *s = make(path, dir);
	struct hwt_symbol sym;
	CHECK_INT(hwt_symbolizer_lookup(s, HWT_PID_ANY, 0xffffffff81000104ull, &sym), 0);
	CHECK_INT(hwt_symbolizer_lookup(s, HWT_PID_ANY, 0xffffffff81000108ull, &sym), 0);
	CHECK_INT(nwarnings, 1);
	CHECK(strstr(warnings, "kptr_restrict") != NULL);
	hwt_symbolizer_free(s);
}

static void test_perf_map_garbage(void)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/perf-4242.map", dir);
	write_file(path,
		   "7f0000001000 40 jit_one\n"
		   "\n"
		   "7f0000002000\n"
		   "nothex 10 bad\n"
		   "7f0000003000 0 zero_size\n"
		   "ffffffffffffffff 10 wraps\n"
		   "7f0000002000 20 LuaJIT::trace#7 [hot]\n");
	struct hwt_symbolizer *s = make(NULL, dir);
	struct hwt_symbol sym;
	CHECK_INT(hwt_symbolizer_lookup(s, 4242, 0x7f000000103full, &sym), 1);
	CHECK_STR(sym.name, "jit_one");
	CHECK_U64(sym.offset, 0x3f);
	CHECK_INT(hwt_symbolizer_lookup(s, 4242, 0x7f0000001040ull, &sym), 0);
	CHECK_INT(hwt_symbolizer_lookup(s, 4242, 0x7f0000002010ull, &sym), 1);
	CHECK_STR(sym.name, "LuaJIT::trace#7 [hot]");
	/* Another process has no map: nothing, and no message. */
	CHECK_INT(hwt_symbolizer_lookup(s, 4243, 0x7f0000001000ull, &sym), 0);
	CHECK_INT(nwarnings, 1);
	CHECK(strstr(warnings, "5 lines are not \"START SIZE NAME\"") != NULL);
	hwt_symbolizer_free(s);
}

static void test_other_arch_binary_info(void)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/perf-data/simpleperf-etm/etm_test_loop",
		 HWT_TESTDATA);
	struct hwt_symbolizer *s = make(NULL, dir);
	struct hwt_sym_dso_info info;
	/* Read alone (no traced program to compare with) an AArch64 binary
	 * is fine: decoding may run on another machine. It is stripped and
	 * exports nothing: its one PLT stub (readelf -r: 1 JUMP_SLOT) is
	 * all it names, and it is reported as lacking symbols. */
	CHECK_INT(hwt_symbolizer_dso_info(s, path, &info), 0);
	CHECK(info.symbols_from == NULL);
	CHECK_INT(info.nsymbols, 1);
	CHECK_INT(nwarnings, 1);
	CHECK(strstr(warnings, "no symbols and no debug info (tried the binary") != NULL);
	CHECK(info.debug_file == NULL);
	CHECK(strstr(info.tried, "the binary") != NULL);
	CHECK_INT(hwt_symbolizer_dso_info(s, "/nonexistent/lib.so", &info), HWT_ERR_NOENT);
	CHECK(info.found_at == NULL);
	hwt_symbolizer_free(s);
}

static void test_demangle(void)
{
	char *d = hwt_sym_demangle("_ZN3geo3BoxIiE4growEi");
	CHECK_STR(d, "geo::Box<int>::grow(int)");
	free(d);
	CHECK(hwt_sym_demangle("main") == NULL);
	CHECK(hwt_sym_demangle("_Znot_valid_at_all") == NULL);
}

int main(void)
{
	if (!mkdtemp(dir))
		return 1;
	RUN(test_kallsyms_modules_and_ends);
	RUN(test_kallsyms_line_forms);
	RUN(test_kallsyms_hidden);
	RUN(test_perf_map_garbage);
	RUN(test_other_arch_binary_info);
	RUN(test_demangle);
	char cmd[600];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd)) {
	}
	return hwt_test_summary();
}
