/* hwt_pd_writer_copy_features: another capture's feature sections into
 * the file being written, as they are (a replay or a resampling keeps the
 * recording machine's description and build ids). */
#include "hwtrace/perfdata.h"

int hwt_pd_writer_copy_features(struct hwt_pd_writer *writer,
				const struct hwt_pd_reader *reader,
				const unsigned int *features, size_t n)
{
	int err = 0;

	for (size_t i = 0; i < n && err >= 0; i++) {
		const void *data = NULL;
		uint64_t offset, size = 0;
		/* A feature the capture lacks stays out of the file rather
		 * than describing this machine. */
		if (hwt_pd_reader_feature_raw(reader, features[i], &offset, &data,
					      &size) < 0)
			data = NULL;
		err = hwt_pd_writer_copy_feature(writer, features[i], data,
						 (size_t)size);
	}
	return err;
}
