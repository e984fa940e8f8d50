/* The input layout of the sample-record fuzz targets: the first 40 bytes
 * choose the event's sample_type (with @always's bits set), read_format,
 * branch_sample_type and register masks; the rest is the record, its
 * size field set to the bytes there are (at most 65535). */
#ifndef HWT_FUZZ_SAMPLE_INPUT_H
#define HWT_FUZZ_SAMPLE_INPUT_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <linux/perf_event.h>

/* An exact-size malloc'ed copy of the record (so that ASan sees a read
 * past it), *@n its size and @attr its event; NULL when the input is too
 * short or memory ran out. */
static inline uint8_t *fuzz_sample_input(const uint8_t *data, size_t size,
					 uint64_t always,
					 struct perf_event_attr *attr, size_t *n)
{
	uint64_t f[5];
	if (size < sizeof(f) + 8)
		return NULL;
	memcpy(f, data, sizeof(f));
	memset(attr, 0, sizeof(*attr));
	attr->sample_type = f[0] | always;
	attr->read_format = f[1];
	attr->branch_sample_type = f[2];
	attr->sample_regs_user = f[3];
	attr->sample_regs_intr = f[4];
	*n = size - sizeof(f);
	if (*n > 65535)
		*n = 65535;
	uint8_t *rec = malloc(*n);
	if (!rec)
		return NULL;
	memcpy(rec, data + sizeof(f), *n);
	struct perf_event_header h = {PERF_RECORD_SAMPLE, 0, (uint16_t)*n};
	memcpy(rec, &h, sizeof(h));
	return rec;
}

#endif
