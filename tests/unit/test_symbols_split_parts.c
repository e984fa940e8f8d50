/* The parents of the parts a compiler splits off a function (NAME.cold,
 * NAME.part.N, NAME.constprop.N, NAME.isra.N, stacked), found in a symbol
 * table: the outermost parent the table has, the nearest one when two
 * static functions share the name, and none for names that only look
 * like parts. */
#include "analysis/symbols/symbols_internal.h"
#include "harness.h"

static const struct {
	const char *name;
	uint64_t start, parent;
} syms[] = {
	{"foo", 0x1000, 0},
	{"foo.part.0", 0x1100, 0x1000},
	{"foo.constprop.0.isra.0", 0x1200, 0x1000},
	{"foo.cold", 0x8000, 0x1000},
	{"foo.constprop.0.isra.0.cold", 0x8100, 0x1000},
	{"lone.constprop.3", 0x2000, 0},
	{"lone.constprop.3.cold", 0x8200, 0x2000},
	{"bar.cold.1", 0x8300, 0x3000},
	{"bar", 0x3000, 0},
	/* Two static functions named dup, each with its cold part. */
	{"dup", 0x4000, 0},
	{"dup.cold", 0x4800, 0x4000},
	{"dup", 0x9000, 0},
	{"dup.cold", 0x9800, 0x9000},
	/* Look like parts, are not: no number, no dot, no parent. */
	{"baz.part", 0x5000, 0},
	{"baz", 0x5100, 0},
	{"bazcold", 0x5200, 0},
	{"baz.isra", 0x5300, 0},
	{"nobody.cold", 0x8400, 0},
	{".cold", 0x8500, 0},
	{"_Z6level3i.cold", 0x8600, 0x6000},
	{"_Z6level3i", 0x6000, 0},
};

int main(void)
{
	struct sym_table t = {0};
	size_t n = sizeof(syms) / sizeof(syms[0]);
	for (size_t i = 0; i < n; i++)
		CHECK(sym_table_add(&t, syms[i].start, 0x10, syms[i].name) != NULL);
	sym_table_finish(&t);
	CHECK_INT(t.n, n);
	for (size_t i = 0; i < n; i++) {
		const struct sym_entry *e = sym_table_find(&t, syms[i].start);
		CHECK(e != NULL);
		if (!e)
			continue;
		if (e->parent != syms[i].parent)
			HWT_FAIL("%s at 0x%" PRIx64 ": parent 0x%" PRIx64 ", want 0x%"
				 PRIx64, syms[i].name, syms[i].start, e->parent,
				 syms[i].parent);
		hwt_test_checks++;
	}
	sym_table_free(&t);
	printf("%d checks, %d failed\n", hwt_test_checks, hwt_test_failures);
	return hwt_test_failures != 0;
}
