/* libFuzzer target for the branch stack of PERF_RECORD_SAMPLE
 * (PERF_SAMPLE_BRANCH_STACK, hwtrace/brstack.h): the first 40 bytes of
 * the input choose the event's sample_type (the branch stack always in
 * it), read_format, branch_sample_type and register masks; the rest is
 * the record (its size field set to the bytes there are). When the
 * parser accepts a record, its records and counter words must lie inside
 * it, and every record is read (ASan sees a read past the copy). */
#include <stdint.h>
#include <stdlib.h>

#include "fuzz_sample_input.h"
#include "hwtrace/brstack.h"
#include "hwtrace/sample.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct perf_event_attr attr;
	size_t n;
	uint8_t *rec = fuzz_sample_input(data, size, PERF_SAMPLE_BRANCH_STACK,
					 &attr, &n);
	if (!rec)
		return 0;
	struct hwt_aux_sample s;
	if (hwt_aux_sample_parse(rec, &attr, &s) == 0) {
		uint64_t room = s.br ? (uint64_t)(rec + n - s.br) : 0;
		if ((s.br_nr && !s.br) || (s.br && s.br < rec) ||
		    s.br_nr * HWT_BRSTACK_ENTRY_SIZE > room)
			abort();
		if (s.br_cntr && (s.br_cntr < rec ||
				  s.br_nr * 8 > (uint64_t)(rec + n - s.br_cntr)))
			abort();
		uint64_t sum = 0;
		for (uint64_t i = 0; i < s.br_nr; i++) {
			struct hwt_brstack_entry e;
			enum hwt_branch_kind k;
			hwt_brstack_entry_get(&s, i, &e);
			sum += e.from ^ e.to ^ e.counters ^ e.cycles;
			if (hwt_brstack_kind(&e, &k) && (unsigned)k > HWT_BRANCH_ERET)
				abort();
		}
		if (sum == 0x5eed) /* keeps the reads */
			rec[0] ^= 1;
	}
	free(rec);
	return 0;
}
