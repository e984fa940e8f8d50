/* libFuzzer target for PERF_RECORD_SAMPLE parsing with PERF_SAMPLE_AUX:
 * the first 40 bytes of the input choose the event's sample_type,
 * read_format, branch_sample_type and register masks; the rest is the
 * record (its size field set to the bytes there are). The parser must
 * never read outside the record and, when it accepts one, point the AUX
 * data inside it. */
#include <stdint.h>
#include <stdlib.h>

#include "fuzz_sample_input.h"
#include "hwtrace/sample.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct perf_event_attr attr;
	size_t n;
	uint8_t *rec = fuzz_sample_input(data, size, PERF_SAMPLE_AUX, &attr, &n);
	if (!rec)
		return 0;
	struct hwt_aux_sample s;
	if (hwt_aux_sample_parse(rec, &attr, &s) == 0 && s.aux &&
	    (s.aux < rec || s.aux + s.aux_size > rec + n))
		abort();
	free(rec);
	return 0;
}
