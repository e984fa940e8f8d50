/* The one builder of AUX queues (aux_queues.h). */
#include <stdlib.h>
#include <string.h>

#include "core/perfdata/aux_queues.h"
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

/* The piece that @aux continues, or a new one. */
static struct hwt_aux_piece *piece_for(struct hwt_aux_queues *qs,
				       const struct hwt_pd_auxtrace *aux)
{
	struct hwt_aux_queue *q = queue_for(qs, aux);
	if (!q)
		return NULL;
	struct hwt_aux_piece *last = q->npieces ? &q->pieces[q->npieces - 1] : NULL;
	if (!last || last->offset + last->size != aux->offset) {
		if (q->npieces == q->cap) {
			size_t ncap = q->cap ? q->cap * 2 : 4;
			void *n = realloc(q->pieces, ncap * sizeof(*q->pieces));
			if (!n)
				return NULL;
			q->pieces = n;
			q->cap = ncap;
		}
		last = &q->pieces[q->npieces++];
		memset(last, 0, sizeof(*last));
		last->offset = aux->offset;
		last->reference = aux->reference;
	}
	q->bytes += aux->size;
	return last;
}

int hwt_aux_queues_add(struct hwt_aux_queues *qs,
		       const struct hwt_pd_auxtrace *aux, const uint8_t *data)
{
	struct hwt_aux_piece *last = piece_for(qs, aux);
	if (!last)
		return hwt_error(HWT_ERR_NOMEM, "out of memory queueing trace");
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
	return 0;
}

int hwt_aux_queues_add_at(struct hwt_aux_queues *qs,
			  const struct hwt_pd_auxtrace *aux,
			  uint64_t record_offset, uint16_t record_size)
{
	struct hwt_aux_piece *last = piece_for(qs, aux);
	if (!last)
		return hwt_error(HWT_ERR_NOMEM, "out of memory queueing trace");
	struct hwt_aux_queue *q = queue_for(qs, aux);
	if (q->nbuffers == q->buffers_cap) {
		size_t ncap = q->buffers_cap ? q->buffers_cap * 2 : 8;
		void *n = realloc(q->buffers, ncap * sizeof(*q->buffers));
		if (!n)
			return hwt_error(HWT_ERR_NOMEM, "out of memory queueing trace");
		q->buffers = n;
		q->buffers_cap = ncap;
	}
	if (!last->nbufs)
		last->first = q->nbuffers;
	q->buffers[q->nbuffers++] = (struct hwt_pd_aux_buffer){
		*aux, record_offset, record_offset + record_size};
	last->nbufs++;
	last->size += aux->size;
	return 0;
}

int hwt_aux_piece_load(const struct hwt_aux_queue *q,
		       const struct hwt_aux_piece *pc,
		       struct hwt_pd_reader *reader, const uint8_t **data,
		       void **owned)
{
	*owned = NULL;
	if (!pc->nbufs) {
		*data = pc->data;
		return 0;
	}
	uint8_t *buf = malloc(pc->size ? pc->size : 1);
	if (!buf)
		return hwt_error(HWT_ERR_NOMEM, "out of memory for %llu bytes "
				 "of trace", (unsigned long long)pc->size);
	uint64_t at = 0;
	for (size_t i = pc->first; i < pc->first + pc->nbufs; i++) {
		int err = hwt_pd_aux_buffer_read(reader, &q->buffers[i], buf + at);
		if (err < 0) {
			free(buf);
			return err;
		}
		at += q->buffers[i].aux.size;
	}
	*data = buf;
	*owned = buf;
	return 0;
}

void hwt_aux_queues_free(struct hwt_aux_queues *qs)
{
	for (size_t i = 0; i < qs->n; i++) {
		for (size_t j = 0; j < qs->q[i].npieces; j++)
			free(qs->q[i].pieces[j].data);
		free(qs->q[i].pieces);
		free(qs->q[i].buffers);
	}
	free(qs->q);
	memset(qs, 0, sizeof(*qs));
}
