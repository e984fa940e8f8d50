/* What the perf.data fuzz targets share: every record of a reader read,
 * with every byte of it and of its AUXTRACE payload touched, so that the
 * sanitizers see a record that claims more than the reader holds. */
#ifndef HWT_FUZZ_READ_RECORDS_H
#define HWT_FUZZ_READ_RECORDS_H

#include <stdint.h>

#include "hwtrace/perfdata.h"

static inline int fuzz_read_records(struct hwt_pd_reader *r)
{
	struct hwt_pd_record rec;
	int n;

	while ((n = hwt_pd_reader_next(r, &rec)) > 0) {
		volatile uint8_t sum = 0;

		for (size_t i = 0; i < rec.size; i++)
			sum += ((const uint8_t *)rec.data)[i];
		if (rec.aux_data && rec.aux.size)
			sum += rec.aux_data[rec.aux.size - 1];
		(void)sum;
	}
	return n;
}

#endif
