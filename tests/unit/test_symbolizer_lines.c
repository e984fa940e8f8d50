/* hwt_symbolizer_lines, the source lines of `report --srcline`: a program
 * compiled here with a function inlined twice into main, each address of
 * main's code looked up and checked against `addr2line -f -i` of the same
 * address (the oracle): the line of the code (addr2line's first), and the
 * inlined function when addr2line shows one (outermost first). Positive
 * controls: some address has an inlined function, some has none; an
 * address outside the image, and a NULL symbolizer, have no line. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "hwtrace/symbols.h"

static char dir[] = "/tmp/hwt_symlines_XXXXXX";

static const char program[] =
	"static inline __attribute__((always_inline)) int twice(int v)\n"
	"{\n"
	"\treturn v * 2 + 1;\n"
	"}\n"
	"int main(int argc, char **argv)\n"
	"{\n"
	"\t(void)argv;\n"
	"\tvolatile int a = twice(argc);\n"
	"\tvolatile int b = twice(a);\n"
	"\treturn a + b;\n"
	"}\n";

/* addr2line -f -i: FUNC / FILE:LINE pairs, innermost first. The first
 * pair's line and, when there are two, the first function (the inlined
 * one). */
struct a2l {
	char file[300];
	unsigned line;
	char inlined[128]; /* "" when none */
};

static int addr2line(const char *bin, uint64_t addr, struct a2l *out)
{
	char cmd[700];
	snprintf(cmd, sizeof(cmd), "addr2line -f -i -e '%s' 0x%" PRIx64, bin,
		 addr);
	FILE *p = popen(cmd, "r");
	if (!p)
		return -1;
	char fn[4][128], where[4][300];
	int n = 0;
	while (n < 4 && fgets(fn[n], sizeof(fn[n]), p) &&
	       fgets(where[n], sizeof(where[n]), p))
		n++;
	pclose(p);
	if (!n)
		return -1;
	memset(out, 0, sizeof(*out));
	char *colon = strrchr(where[0], ':');
	if (!colon)
		return -1;
	*colon = 0;
	snprintf(out->file, sizeof(out->file), "%s", where[0]);
	out->line = (unsigned)strtoul(colon + 1, NULL, 10);
	if (n > 1) {
		fn[0][strcspn(fn[0], "\n")] = 0;
		snprintf(out->inlined, sizeof(out->inlined), "%s", fn[0]);
	}
	return 0;
}

/* main's address and size from nm -S. */
static int main_range(const char *bin, uint64_t *start, uint64_t *size)
{
	char cmd[600];
	snprintf(cmd, sizeof(cmd), "nm -S '%s' | awk '$4 == \"main\" "
		 "{ print $1, $2 }'", bin);
	FILE *p = popen(cmd, "r");
	if (!p)
		return -1;
	int got = fscanf(p, "%" SCNx64 " %" SCNx64, start, size);
	pclose(p);
	return got == 2 ? 0 : -1;
}

int main(void)
{
	if (!mkdtemp(dir))
		return 1;
	char src[300], bin[300], cmd[800];
	snprintf(src, sizeof(src), "%s/inl.c", dir);
	snprintf(bin, sizeof(bin), "%s/inl", dir);
	FILE *f = fopen(src, "w");
	CHECK(f != NULL);
	if (f) {
		fputs(program, f);
		fclose(f);
	}
	snprintf(cmd, sizeof(cmd), "cc -g -O1 -o '%s' '%s' 2>/dev/null", bin,
		 src);
	uint64_t start = 0, size = 0;
	if (system(cmd) || main_range(bin, &start, &size)) {
		HWT_SKIP_PART("no C compiler or nm to build the program with");
		goto out;
	}
	struct hwt_sym_opts o;
	memset(&o, 0, sizeof(o));
	o.size = sizeof(o);
	o.srcline = true;
	struct hwt_symbolizer *sym = NULL;
	CHECK_INT(hwt_symbolizer_new(&o, &sym), 0);
	struct hwt_image *image = hwt_image_new();
	CHECK(image != NULL);
	CHECK_INT(hwt_image_add_elf(image, 1, bin, 0), 0);
	hwt_symbolizer_set_image(sym, image);
	struct hwt_report_lines lines = hwt_symbolizer_lines(sym);

	unsigned with_inline = 0, without = 0;
	for (uint64_t a = start; a < start + size; a++) {
		struct a2l want;
		if (addr2line(bin, a, &want) || !want.line)
			continue;
		const char *file = NULL;
		uint32_t line = 0;
		const char *const *inl = NULL;
		size_t ninl = 0;
		CHECK(lines.line(lines.arg, 1, a, &file, &line, &inl, &ninl));
		if (!file)
			continue;
		CHECK_STR(file, want.file);
		CHECK_INT(line, want.line);
		if (want.inlined[0]) {
			with_inline++;
			CHECK_INT(ninl, 1);
			if (ninl == 1)
				CHECK_STR(inl[0], want.inlined);
		} else {
			without++;
			CHECK_INT(ninl, 0);
		}
	}
	CHECK(with_inline > 0);
	CHECK(without > 0);

	const char *file = NULL;
	uint32_t line = 0;
	const char *const *inl = NULL;
	size_t ninl = 0;
	CHECK(!lines.line(lines.arg, 1, 0x10, &file, &line, &inl, &ninl));
	struct hwt_report_lines none = hwt_symbolizer_lines(NULL);
	CHECK(!none.line(none.arg, 1, start, &file, &line, &inl, &ninl));
	hwt_symbolizer_free(sym);
	hwt_image_free(image);
out:
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd)) {
	}
	return hwt_test_summary();
}
