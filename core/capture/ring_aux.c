/* Reading the AUX ring. */
#include <stdlib.h>
#include <string.h>

#include "core/capture/barrier.h"
#include "core/capture/ring_aux.h"
#include "hwtrace/error.h"

int hwt_ring_aux_init(struct hwt_ring_aux *r, void *up, const void *aux,
		      uint64_t size, bool snapshot)
{
	memset(r, 0, sizeof(*r));
	if (!size || (size & (size - 1)))
		return hwt_error(HWT_ERR_INVAL,
				 "AUX ring size %llu is not a power of two",
				 (unsigned long long)size);
	if (snapshot) {
		r->copy = malloc(size);
		if (!r->copy)
			return hwt_error(HWT_ERR_NOMEM,
					 "no memory to copy a %llu-byte AUX snapshot",
					 (unsigned long long)size);
	}
	r->up = up;
	r->base = aux;
	r->size = size;
	r->snapshot = snapshot;
	r->pos = snapshot ? 0 : ((struct perf_event_mmap_page *)up)->aux_tail;
	return 0;
}

void hwt_ring_aux_fini(struct hwt_ring_aux *r)
{
	free(r->copy);
	r->copy = NULL;
}

int hwt_ring_aux_peek(struct hwt_ring_aux *r, struct hwt_aux_span span[2])
{
	uint64_t head = hwt_head_load(&r->up->aux_head);
	uint64_t len = head - r->pos;
	uint64_t off = r->pos & (r->size - 1);

	if (!len)
		return 0;
	if (len > r->size)
		return hwt_error(HWT_ERR_FORMAT,
				 "AUX ring: aux_head %llu is %llu bytes past the "
				 "read position, more than the %llu-byte buffer",
				 (unsigned long long)head, (unsigned long long)len,
				 (unsigned long long)r->size);
	span[0].data = r->base + off;
	span[0].offset = r->pos;
	if (off + len <= r->size) {
		span[0].len = len;
		return 1;
	}
	span[0].len = r->size - off;
	span[1].data = r->base;
	span[1].offset = r->pos + span[0].len;
	span[1].len = len - span[0].len;
	return 2;
}

void hwt_ring_aux_consume(struct hwt_ring_aux *r, uint64_t upto)
{
	r->pos = upto;
	hwt_tail_store(&r->up->aux_tail, upto);
}

int hwt_ring_aux_default_find_snapshot(const uint8_t *aux, uint64_t aux_size,
				       uint64_t head, uint64_t prev_head,
				       uint64_t *start, uint64_t *len,
				       bool *wrapped)
{
	uint64_t n = head - prev_head;

	*wrapped = n > aux_size;
	*len = n > aux_size ? aux_size : n;
	*start = (head - *len) & (aux_size - 1);
	return 0;
}

int hwt_ring_aux_snapshot(struct hwt_ring_aux *r, hwt_find_snapshot_fn find,
			  struct hwt_aux_span *span, bool *wrapped)
{
	uint64_t head = hwt_head_load(&r->up->aux_head);
	uint64_t start = 0, len = 0, first;
	int err;

	*wrapped = false;
	if (!find)
		find = hwt_ring_aux_default_find_snapshot;
	err = find(r->base, r->size, head, r->prev_head, &start, &len, wrapped);
	if (err < 0)
		return err;
	if (start >= r->size || len > r->size)
		return hwt_error(HWT_ERR_FORMAT,
				 "AUX snapshot: start %llu / length %llu is outside "
				 "the %llu-byte buffer (aux_head %llu)",
				 (unsigned long long)start, (unsigned long long)len,
				 (unsigned long long)r->size, (unsigned long long)head);
	r->prev_head = head;
	first = r->size - start;
	if (first >= len) {
		/* One part: perf trims it the same way, which drops nothing
		 * from a whole number of records. */
		if (r->alignment)
			len -= len % r->alignment;
		if (!len)
			return 0;
		memcpy(r->copy, r->base + start, len);
	} else {
		uint64_t cut = r->alignment ? first % r->alignment : 0;

		memcpy(r->copy, r->base + start, first - cut);
		memcpy(r->copy + first - cut, r->base, len - first);
		len -= cut;
	}
	span->data = r->copy;
	span->len = len;
	span->offset = r->snap_pos;
	r->snap_pos += len;
	return 1;
}
