/* BOLT's profiles (llvm-project bolt/docs, DataReader and
 * DataAggregator):
 * - fdata, what `llvm-bolt -data=FILE` reads: a line per taken branch,
 *   "1 FROM_SYM FROM_OFF 1 TO_SYM TO_OFF MISPREDS COUNT", offsets in hex
 *   into the function (symbol-table names, so C++ names mangled, and a
 *   static function "name/N" as BOLT numbers local symbols); a side
 *   in another binary, or in code no symbol names, is "0 [unknown] ADDR"
 *   (ADDR 0 outside the binary). A full trace has no mispredictions: 0.
 *   BOLT infers the fall-through counts from the branches.
 * - pre-aggregated, what `llvm-bolt -pa -p FILE` (and perf2bolt -pa)
 *   reads: "B FROM TO COUNT MISPREDS" per taken branch and
 *   "F START END COUNT" per fall-through trace (from a branch target to
 *   the next taken branch), in the binary's virtual addresses, 0 for the
 *   side outside it. BOLT 15 reads B, F and f; the T records of later
 *   versions are B and F in one line, so B and F serve every version. */
#include <inttypes.h>

#include "analysis/export/pgo_internal.h"

static void fdata_end(const struct pgo_end *e, FILE *out)
{
	if (e->sym)
		fprintf(out, "1 %s %" PRIx64, e->sym, e->off);
	else
		fprintf(out, "0 [unknown] %" PRIx64, e->inside ? e->addr : 0);
}

void hwt_pgo_write_fdata(const struct pgo_binary *b, FILE *out)
{
	for (size_t i = 0; i < b->nbranches; i++) {
		const struct pgo_branch *r = &b->branches[i];
		fdata_end(&r->from, out);
		fputc(' ', out);
		fdata_end(&r->to, out);
		fprintf(out, " 0 %" PRIu64 "\n", r->n);
	}
}

void hwt_pgo_write_preagg(const struct pgo_binary *b, FILE *out)
{
	for (size_t i = 0; i < b->nbranches; i++)
		fprintf(out, "B %" PRIx64 " %" PRIx64 " %" PRIu64 " 0\n",
			b->branches[i].from.addr, b->branches[i].to.addr,
			b->branches[i].n);
	for (size_t i = 0; i < b->nranges; i++)
		fprintf(out, "F %" PRIx64 " %" PRIx64 " %" PRIu64 "\n",
			b->ranges[i].start, b->ranges[i].last, b->ranges[i].n);
}
