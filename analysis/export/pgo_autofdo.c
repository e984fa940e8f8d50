/* AutoFDO's text profile, the input of `create_llvm_prof --profiler
 * text` (AutoFDO's TextSampleReaderWriter, the layout simpleperf's
 * `inject` writes): the number of ranges, then "start-last:count" per
 * range, the number of single-address counts (none: ranges say more),
 * then the number of branches and "from->to:count" per branch; hex
 * without 0x, addresses relative to the binary's first loadable segment
 * (create_llvm_prof adds its p_vaddr back), a range from its first to
 * its last instruction. Comment lines after the three sections, which
 * the reader does not read, name the binary. */
#include <inttypes.h>

#include "analysis/export/pgo_internal.h"

void hwt_pgo_write_autofdo(const struct pgo_binary *b, FILE *out)
{
	fprintf(out, "%zu\n", b->nranges);
	for (size_t i = 0; i < b->nranges; i++)
		fprintf(out, "%" PRIx64 "-%" PRIx64 ":%" PRIu64 "\n",
			b->ranges[i].start, b->ranges[i].last, b->ranges[i].n);
	fprintf(out, "0\n%zu\n", b->nbranches);
	for (size_t i = 0; i < b->nbranches; i++)
		fprintf(out, "%" PRIx64 "->%" PRIx64 ":%" PRIu64 "\n",
			b->branches[i].from.addr, b->branches[i].to.addr,
			b->branches[i].n);
	if (*b->build_id)
		fprintf(out, "// build_id: 0x%s\n", b->build_id);
	fprintf(out, "// %s\n", b->path);
}
