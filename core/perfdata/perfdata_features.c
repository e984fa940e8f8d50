/* Decoding the feature sections that are more than one string. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "core/perfdata/perfdata_format.h"
#include "hwtrace/error.h"

int hwt_pd_reader_build_id(const struct hwt_pd_reader *r, size_t index,
			   struct hwt_pd_build_id *out)
{
	const uint8_t *p, *end;
	const void *data;
	uint64_t size, offset;
	size_t i = 0;

	if (hwt_pd_reader_feature_raw(r, HWT_PD_FEAT_BUILD_ID, &offset, &data,
				      &size))
		return 0;
	p = data;
	end = p + size;
	while (end - p >= 8) {
		uint16_t rsize = pd_u16(p + 6);

		/* header, pid, 24 bytes of id, then a NUL-terminated name */
		if (rsize < 8 + 4 + 24 + 1 || rsize > end - p ||
		    !memchr(p + 36, 0, rsize - 36))
			return hwt_error(HWT_ERR_FORMAT, "%s: build id entry %zu "
					 "at byte offset %" PRIu64 " is malformed "
					 "(size %u)", hwt_pd_reader_path(r), i,
					 offset + (uint64_t)(p - (const uint8_t *)data),
					 rsize);
		if (i == index) {
			out->misc = pd_u16(p + 4);
			out->pid = (int32_t)pd_u32(p + 8);
			memcpy(out->id, p + 12, 20);
			out->size = 20;
			if ((out->misc & PD_MISC_BUILD_ID_SIZE) && p[32] <= 20)
				out->size = p[32];
			out->filename = (const char *)p + 36;
			return 1;
		}
		p += rsize;
		i++;
	}
	return 0;
}

int hwt_pd_reader_nr_cpus(const struct hwt_pd_reader *r, uint32_t *nr_avail,
			  uint32_t *nr_online)
{
	const void *data;
	uint64_t size;
	int err = hwt_pd_reader_feature(r, HWT_PD_FEAT_NRCPUS, &data, &size);

	if (err)
		return err;
	if (size < 8)
		return hwt_error(HWT_ERR_FORMAT, "%s: the nrcpus feature section "
				 "has %" PRIu64 " bytes, not 8",
				 hwt_pd_reader_path(r), size);
	*nr_avail = pd_u32(data);
	*nr_online = pd_u32((const uint8_t *)data + 4);
	return 0;
}

int hwt_pd_reader_cmdline(const struct hwt_pd_reader *r, char *buf,
			  size_t bufsize)
{
	const uint8_t *p, *end;
	const void *data;
	uint64_t size;
	size_t used = 0;
	uint32_t nr;
	int err = hwt_pd_reader_feature(r, HWT_PD_FEAT_CMDLINE, &data, &size);

	if (err)
		return err;
	if (bufsize)
		buf[0] = '\0';
	p = data;
	end = p + size;
	if (size < 4)
		goto bad;
	nr = pd_u32(p);
	p += 4;
	for (uint32_t i = 0; i < nr; i++) {
		uint32_t len;
		size_t n;

		if (end - p < 4)
			goto bad;
		len = pd_u32(p);
		if ((uint64_t)(end - p) - 4 < len || !memchr(p + 4, 0, len))
			goto bad;
		n = strlen((const char *)p + 4);
		if (used + n + 2 <= bufsize) {
			if (used)
				buf[used++] = ' ';
			memcpy(buf + used, p + 4, n + 1);
			used += n;
		}
		p += 4 + len;
	}
	return 0;
bad:
	return hwt_error(HWT_ERR_FORMAT, "%s: the cmdline feature section is "
			 "malformed", hwt_pd_reader_path(r));
}
