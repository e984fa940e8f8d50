/* AUXTRACE buffers sorted into one queue per mmap index (per CPU in
 * per-CPU mode, per thread in per-thread mode). */
#include <stdlib.h>
#include <string.h>

#include "core/decode/decode_internal.h"
#include "hwtrace/error.h"

static struct hwt_aux_queue *queue_for(struct hwt_aux_queues *qs,
				       const struct hwt_pd_auxtrace *aux)
{
	for (size_t i = 0; i < qs->n; i++)
		if (qs->q[i].idx == aux->idx)
			return &qs->q[i];
	if (qs->n == qs->cap) {
		size_t ncap = qs->cap ? qs->cap * 2 : 8;
		void *n = realloc(qs->q, ncap * sizeof(*qs->q));
		if (!n)
			return NULL;
		qs->q = n;
		qs->cap = ncap;
	}
	/* Keep queues in index order: output comes out per CPU, in order. */
	size_t at = qs->n;
	while (at > 0 && qs->q[at - 1].idx > aux->idx)
		at--;
	memmove(&qs->q[at + 1], &qs->q[at], (qs->n - at) * sizeof(*qs->q));
	qs->n++;
	struct hwt_aux_queue *q = &qs->q[at];
	memset(q, 0, sizeof(*q));
	q->idx = aux->idx;
	q->cpu = (int32_t)aux->cpu;
	q->tid = (int32_t)aux->tid;
	return q;
}

int hwt_aux_queues_add(struct hwt_aux_queues *qs,
		       const struct hwt_pd_auxtrace *aux, const uint8_t *data)
{
	struct hwt_aux_queue *q = queue_for(qs, aux);
	if (!q)
		return hwt_error(HWT_ERR_NOMEM, "out of memory queueing trace");
	struct hwt_aux_piece *last = q->npieces ? &q->pieces[q->npieces - 1] : NULL;
	if (!last || last->offset + last->size != aux->offset) {
		if (q->npieces == q->cap) {
			size_t ncap = q->cap ? q->cap * 2 : 4;
			void *n = realloc(q->pieces, ncap * sizeof(*q->pieces));
			if (!n)
				return hwt_error(HWT_ERR_NOMEM,
						 "out of memory queueing trace");
			q->pieces = n;
			q->cap = ncap;
		}
		last = &q->pieces[q->npieces++];
		memset(last, 0, sizeof(*last));
		last->offset = aux->offset;
		last->reference = aux->reference;
	}
	if (last->size + aux->size > last->cap) {
		uint64_t ncap = (last->size + aux->size) * 3 / 2 + 4096;
		void *n = realloc(last->data, ncap);
		if (!n)
			return hwt_error(HWT_ERR_NOMEM,
					 "out of memory for %llu bytes of trace",
					 (unsigned long long)ncap);
		last->data = n;
		last->cap = ncap;
	}
	memcpy(last->data + last->size, data, aux->size);
	last->size += aux->size;
	q->bytes += aux->size;
	return 0;
}

void hwt_aux_queues_free(struct hwt_aux_queues *qs)
{
	for (size_t i = 0; i < qs->n; i++) {
		for (size_t j = 0; j < qs->q[i].npieces; j++)
			free(qs->q[i].pieces[j].data);
		free(qs->q[i].pieces);
	}
	free(qs->q);
	memset(qs, 0, sizeof(*qs));
}
