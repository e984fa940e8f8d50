/* Address filters resolved into the kernel's string, against the symbols
 * of a real program (tests/programs/filter_twins) as binutils lists them:
 * each expected address is nm -S's value moved from the symbol's section
 * address to its file offset with readelf -S's Addr and Off columns, its
 * size nm -S's. Errors are checked word for word. */
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "hwtrace/addrfilter.h"
#include "hwtrace/error.h"

static char prog[512];

/* The first line of a shell command's output. */
static int run_line(const char *cmd, char *buf, size_t size)
{
	FILE *p = popen(cmd, "r");
	int ok;

	if (!p)
		return -1;
	ok = fgets(buf, (int)size, p) != NULL;
	pclose(p);
	if (!ok)
		return -1;
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

/* nm -S's value and size of the @nth (from 1) symbol called @name, the
 * value turned into a file offset by the section readelf -S places it in. */
static int binutils_sym(const char *name, int nth, uint64_t *off,
			uint64_t *size)
{
	char cmd[2048], line[256];
	uint64_t value, addr, foff, len;
	FILE *p;
	int ret = -1;

	snprintf(cmd, sizeof(cmd), "nm -S '%s' | awk '$4 == \"%s\" { n++; "
		 "if (n == %d) print $1, $2 }'", prog, name, nth);
	if (run_line(cmd, line, sizeof(line)) ||
	    sscanf(line, "%" SCNx64 " %" SCNx64, &value, size) != 2)
		return -1;
	/* Section rows: Name Type Address Off Size ... */
	snprintf(cmd, sizeof(cmd), "readelf -SW '%s' | sed -n "
		 "'s/^ *\\[ *[0-9]*\\] *//p' | awk '{ print $3, $4, $5 }'", prog);
	p = popen(cmd, "r");
	if (!p)
		return -1;
	while (fgets(line, sizeof(line), p))
		if (sscanf(line, "%" SCNx64 " %" SCNx64 " %" SCNx64, &addr, &foff,
			   &len) == 3 && addr && value >= addr &&
		    value < addr + len && ret) {
			*off = value - addr + foff;
			ret = 0;
		}
	pclose(p);
	return ret;
}

static void a_function_filter_covers_the_function(void)
{
	char out[1024], want[1024], in[1024];
	uint64_t off = 0, size = 0;
	size_t n = 0;

	CHECK_INT(binutils_sym("filtered_work", 1, &off, &size), 0);
	CHECK(size > 0);
	snprintf(in, sizeof(in), "filter filtered_work @ %s", prog);
	CHECK_INT(hwt_addr_filter_resolve(in, NULL, out, sizeof(out), &n), 0);
	snprintf(want, sizeof(want), "filter 0x%" PRIx64 "/0x%" PRIx64 "@%s",
		 off, size, prog);
	CHECK_STR(out, want);
	CHECK_INT((int)n, 1);
}

/* start and stop are single addresses; tracestop is the kernel's stop
 * with a range; an explicit size wins over the symbol's; a number is
 * taken as it is. Commas and newlines both separate filters. */
static void every_action_in_the_kernels_words(void)
{
	char out[4096], want[4096], in[4096];
	uint64_t work = 0, work_size = 0, twin_b = 0, twin_b_size = 0, mainoff = 0,
		 main_size = 0;
	size_t n = 0;

	CHECK_INT(binutils_sym("filtered_work", 1, &work, &work_size), 0);
	CHECK_INT(binutils_sym("twin_b", 1, &twin_b, &twin_b_size), 0);
	CHECK_INT(binutils_sym("main", 1, &mainoff, &main_size), 0);
	snprintf(in, sizeof(in),
		 "start main @%s, stop twin_b@%s\n tracestop filtered_work @ %s,"
		 "filter main/0x10 @ %s\nfilter 0x1000/4096 @ %s", prog, prog,
		 prog, prog, prog);
	CHECK_INT(hwt_addr_filter_resolve(in, NULL, out, sizeof(out), &n), 0);
	snprintf(want, sizeof(want),
		 "start 0x%" PRIx64 "@%s,stop 0x%" PRIx64 "@%s,"
		 "stop 0x%" PRIx64 "/0x%" PRIx64 "@%s,"
		 "filter 0x%" PRIx64 "/0x10@%s,filter 0x1000/0x1000@%s",
		 mainoff, prog, twin_b, prog, work, work_size, prog, mainoff, prog,
		 prog);
	CHECK_STR(out, want);
	CHECK_INT((int)n, 5);
	CHECK_INT((int)hwt_addr_filter_count(in), 5);
}

/* Without @ FILE a symbol is the workload's; a bare name is found in
 * PATH as exec finds it. An address without @ FILE is the kernel's, even
 * with a workload, as perf takes it. */
static void the_workload_is_the_default_file(void)
{
	char out[1024], want[1024], dir[512], path[8192];
	const char *old = getenv("PATH");
	uint64_t off = 0, size = 0;

	CHECK_INT(binutils_sym("filtered_work", 1, &off, &size), 0);
	CHECK_INT(hwt_addr_filter_resolve("filter filtered_work", prog, out,
					  sizeof(out), NULL), 0);
	snprintf(want, sizeof(want), "filter 0x%" PRIx64 "/0x%" PRIx64 "@%s",
		 off, size, prog);
	CHECK_STR(out, want);

	snprintf(dir, sizeof(dir), "%s", prog);
	*strrchr(dir, '/') = '\0';
	snprintf(path, sizeof(path), "/nonexistent:%s:%s", dir, old ? old : "");
	setenv("PATH", path, 1);
	CHECK_INT(hwt_addr_filter_resolve("filter filtered_work", "filter_twins",
					  out, sizeof(out), NULL), 0);
	CHECK_STR(out, want);
	if (old)
		setenv("PATH", old, 1);

	CHECK_INT(hwt_addr_filter_resolve("filter 0xffffffff81000000/0x100", NULL,
					  out, sizeof(out), NULL), 0);
	CHECK_STR(out, "filter 0xffffffff81000000/0x100");
	snprintf(want, sizeof(want), "filter 0xffffffff81000000/0x100,start 0x%"
		 PRIx64 "@%s", off, prog);
	CHECK_INT(hwt_addr_filter_resolve("filter 0xffffffff81000000/0x100\n"
					  "start filtered_work", prog, out,
					  sizeof(out), NULL), 0);
	CHECK_STR(out, want);
	CHECK_INT(hwt_addr_filter_resolve("", NULL, out, sizeof(out), NULL), 0);
	CHECK_STR(out, "");
}

static void check_error(const char *in, const char *deflt, int err,
			const char *msg)
{
	char out[1024] = "x";
	size_t n = 7;

	CHECK_INT(hwt_addr_filter_resolve(in, deflt, out, sizeof(out), &n), err);
	CHECK_STR(hwt_errmsg(), msg);
	CHECK_STR(out, "");
	CHECK_INT((int)n, 0);
}

static void errors_name_the_filter_symbol_and_file(void)
{
	char in[1024], msg[4096];
	uint64_t t1 = 0, s1 = 0, t2 = 0, s2 = 0;

	snprintf(in, sizeof(in), "filter no_such_fn @ %s", prog);
	snprintf(msg, sizeof(msg), "filter \"%s\": no symbol no_such_fn in %s "
		 "(list its symbols with: nm %s)", in, prog, prog);
	check_error(in, NULL, HWT_ERR_CONFIG, msg);

	CHECK_INT(binutils_sym("twin", 1, &t1, &s1), 0);
	CHECK_INT(binutils_sym("twin", 2, &t2, &s2), 0);
	CHECK(t1 < t2); /* nm sorts by address, as the message does */
	snprintf(in, sizeof(in), "filter twin @ %s", prog);
	snprintf(msg, sizeof(msg), "filter \"%s\": symbol twin is ambiguous: 2 "
		 "symbols of that name in %s (0x%" PRIx64 "/0x%" PRIx64 ", 0x%"
		 PRIx64 "/0x%" PRIx64 "); give one of the addresses instead", in,
		 prog, t1, s1, t2, s2);
	check_error(in, NULL, HWT_ERR_CONFIG, msg);

	snprintf(in, sizeof(in), "filter zero_size_mark @ %s", prog);
	snprintf(msg, sizeof(msg), "filter \"%s\": symbol zero_size_mark in %s "
		 "has size 0; give the size: zero_size_mark/SIZE", in, prog);
	check_error(in, NULL, HWT_ERR_CONFIG, msg);

	check_error("filter main @ /nonexistent/prog", NULL, HWT_ERR_NOENT,
		    "filter \"filter main @ /nonexistent/prog\": /nonexistent/prog: "
		    "No such file or directory");
	check_error("filter main", NULL, HWT_ERR_CONFIG,
		    "filter \"filter main\": no file to look up symbol main in; "
		    "add @ FILE (kernel symbols are not looked up)");
	check_error("filter 0x1000", NULL, HWT_ERR_CONFIG,
		    "filter \"filter 0x1000\": a range needs a size: 0x1000/SIZE");
	check_error("filter 0x1000/0 @ /bin/sh", NULL, HWT_ERR_CONFIG,
		    "filter \"filter 0x1000/0 @ /bin/sh\": size \"0\" is not a number "
		    "above 0");
	check_error("trace main", prog, HWT_ERR_CONFIG,
		    "filter \"trace main\": trace is not an action: each filter is "
		    "\"filter|start|stop|tracestop SYMBOL|ADDR[/SIZE] [@ FILE]\", "
		    "e.g. filter main @ /bin/ls");
	check_error("filter main @", NULL, HWT_ERR_CONFIG,
		    "filter \"filter main @\": no file after @");
	check_error("filter main @ /etc/hostname", NULL, HWT_ERR_FORMAT,
		    "filter \"filter main @ /etc/hostname\": /etc/hostname is not an "
		    "ELF file, so symbol main cannot be looked up in it; give an "
		    "address instead");
	/* The second filter's error leaves no half-written output. */
	snprintf(in, sizeof(in), "filter 0x10/0x10, stop nope @ %s", prog);
	snprintf(msg, sizeof(msg), "filter \"stop nope @ %s\": no symbol nope in "
		 "%s (list its symbols with: nm %s)", prog, prog, prog);
	check_error(in, NULL, HWT_ERR_CONFIG, msg);
}

static void output_too_small_is_refused(void)
{
	char out[16];

	CHECK_INT(hwt_addr_filter_resolve("filter 0x1000/0x1000", NULL, out,
					  sizeof(out), NULL), HWT_ERR_NOSPC);
	CHECK_STR(out, "");
}

int main(void)
{
	const char *build = getenv("HWT_BUILD_DIR");
	char rel[PATH_MAX], abs[PATH_MAX];

	snprintf(rel, sizeof(rel), "%s/tests/programs/filter_twins",
		 build ? build : ".");
	if (!realpath(rel, abs) || strlen(abs) >= sizeof(prog)) {
		fprintf(stderr, "no %s (HWT_BUILD_DIR)\n", rel);
		return EXIT_FAILURE;
	}
	memcpy(prog, abs, strlen(abs) + 1);
	RUN(a_function_filter_covers_the_function);
	RUN(every_action_in_the_kernels_words);
	RUN(the_workload_is_the_default_file);
	RUN(errors_name_the_filter_symbol_and_file);
	RUN(output_too_small_is_refused);
	return hwt_test_summary();
}
