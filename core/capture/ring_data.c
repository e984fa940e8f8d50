/* Reading the data ring: forward rings with a tail, backward (overwrite)
 * rings without one. */
#include <stdlib.h>
#include <string.h>

#include "core/capture/barrier.h"
#include "hwtrace/ring_data.h"
#include "hwtrace/error.h"

int hwt_ring_data_init(struct hwt_ring_data *r, void *map, uint64_t page_size,
		       uint64_t data_size, bool backward)
{
	struct perf_event_mmap_page *up = map;
	uint64_t offset = up->data_offset ? up->data_offset : page_size;

	memset(r, 0, sizeof(*r));
	if (up->data_size)
		data_size = up->data_size;
	if (!data_size || (data_size & (data_size - 1)))
		return hwt_error(HWT_ERR_INVAL,
				 "data ring size %llu is not a power of two",
				 (unsigned long long)data_size);
	r->bounce = malloc(data_size);
	if (!r->bounce)
		return hwt_error(HWT_ERR_NOMEM, "no memory for a %llu-byte bounce buffer",
				 (unsigned long long)data_size);
	r->up = up;
	r->base = (uint8_t *)map + offset;
	r->size = data_size;
	r->backward = backward;
	r->pos = hwt_head_load(&up->data_head);
	if (!backward)
		r->pos = up->data_tail;
	r->end = r->pos;
	return 0;
}

void hwt_ring_data_fini(struct hwt_ring_data *r)
{
	free(r->bounce);
	r->bounce = NULL;
}

static void copy_out(const struct hwt_ring_data *r, uint64_t pos, void *dst,
		     uint64_t len)
{
	uint64_t off = pos & (r->size - 1);
	uint64_t first = r->size - off;

	if (first >= len) {
		memcpy(dst, r->base + off, len);
		return;
	}
	memcpy(dst, r->base + off, first);
	memcpy((uint8_t *)dst + first, r->base, len - first);
}

/* A backward ring grows down from 0: head is where the newest record
 * starts. Walk records up from head while they fit in one ring's worth;
 * a zero-sized header marks never-written space. */
static uint64_t backward_range(struct hwt_ring_data *r, uint64_t head)
{
	uint64_t pos = head;

	while (pos - head < r->size) {
		struct perf_event_header h;
		if (r->size - (pos - head) < sizeof(h))
			break;
		copy_out(r, pos, &h, sizeof(h));
		if (h.size < sizeof(h) || h.size > r->size - (pos - head))
			break;
		pos += h.size;
	}
	return pos;
}

uint64_t hwt_ring_data_begin(struct hwt_ring_data *r)
{
	uint64_t head = hwt_head_load(&r->up->data_head);

	if (r->backward) {
		r->pos = head;
		r->end = backward_range(r, head);
	} else {
		r->end = head;
	}
	return r->end - r->pos;
}

const struct perf_event_header *hwt_ring_data_next(struct hwt_ring_data *r,
						   int *err)
{
	const struct perf_event_header *h;
	uint64_t avail = r->end - r->pos;
	uint64_t off = r->pos & (r->size - 1);
	struct perf_event_header tmp;

	*err = 0;
	if (!avail)
		return NULL;
	if (avail < sizeof(tmp) || avail > r->size)
		goto corrupt;
	copy_out(r, r->pos, &tmp, sizeof(tmp));
	if (tmp.size < sizeof(tmp) || tmp.size > avail)
		goto corrupt;
	if (off + tmp.size <= r->size) {
		h = (const void *)(r->base + off);
	} else {
		copy_out(r, r->pos, r->bounce, tmp.size);
		h = (const void *)r->bounce;
	}
	r->pos += tmp.size;
	r->records++;
	return h;

corrupt:
	*err = hwt_error(HWT_ERR_FORMAT,
			 "data ring: corrupt record header at ring offset %llu "
			 "(%llu bytes available); skipped the rest",
			 (unsigned long long)off, (unsigned long long)avail);
	r->pos = r->end;
	return NULL;
}

void hwt_ring_data_end(struct hwt_ring_data *r)
{
	if (!r->backward)
		hwt_tail_store(&r->up->data_tail, r->pos);
}
