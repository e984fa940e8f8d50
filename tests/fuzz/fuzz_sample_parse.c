/* libFuzzer target for PERF_RECORD_SAMPLE parsing with PERF_SAMPLE_AUX:
 * the first 40 bytes of the input choose the event's sample_type,
 * read_format, branch_sample_type and register masks; the rest is the
 * record (its size field set to the bytes there are). The parser must
 * never read outside the record and, when it accepts one, point the AUX
 * data inside it. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <linux/perf_event.h>

#include "hwtrace/sample.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct perf_event_attr attr;
	uint64_t f[5];
	if (size < sizeof(f) + 8)
		return 0;
	memcpy(f, data, sizeof(f));
	memset(&attr, 0, sizeof(attr));
	attr.sample_type = f[0] | PERF_SAMPLE_AUX;
	attr.read_format = f[1];
	attr.branch_sample_type = f[2];
	attr.sample_regs_user = f[3];
	attr.sample_regs_intr = f[4];
	size_t n = size - sizeof(f);
	if (n > 65535)
		n = 65535;
	/* An exact-size copy, so that ASan sees any read past the record. */
	uint8_t *rec = malloc(n);
	if (!rec)
		return 0;
	memcpy(rec, data + sizeof(f), n);
	struct perf_event_header h = {PERF_RECORD_SAMPLE, 0, (uint16_t)n};
	memcpy(rec, &h, sizeof(h));
	struct hwt_aux_sample s;
	if (hwt_aux_sample_parse(rec, &attr, &s) == 0 && s.aux &&
	    (s.aux < rec || s.aux + s.aux_size > rec + n))
		abort();
	free(rec);
	return 0;
}
