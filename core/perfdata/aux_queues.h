/* The one builder of AUX queues (aux_queues.c): AUXTRACE buffers sorted
 * into one queue per mmap index (per CPU in per-CPU mode, per thread in
 * per-thread mode), in increasing index order, and contiguous buffers
 * joined into pieces so decoding continues across them. The decode adds
 * the buffers as its record stream passes them; hwt_pd_aux_queues_build
 * (perfdata_auxq.c) adds those it finds from the auxtrace index or a scan
 * of the record headers. */
#ifndef HWT_CORE_PERFDATA_AUX_QUEUES_H
#define HWT_CORE_PERFDATA_AUX_QUEUES_H

#include <stddef.h>
#include <stdint.h>

#include "hwtrace/perfdata.h"

/* A piece holds its bytes (@data, copied from the record stream: pipes,
 * compressed captures) or where they lie in the file (buffers @first to
 * @first + @nbufs - 1 of its queue), read just before it is decoded, so
 * that memory does not grow with the trace. */
struct hwt_aux_piece {
	uint8_t *data;
	uint64_t size, cap;
	uint64_t offset;        /* in the AUX stream */
	uint64_t reference;     /* of its first buffer */
	size_t first, nbufs;
};

struct hwt_aux_queue {
	uint32_t idx;
	int32_t cpu, tid;       /* of its first buffer */
	struct hwt_aux_piece *pieces;
	size_t npieces, cap;
	uint64_t bytes;
	/* The buffers added by their place in the file, in the order added. */
	struct hwt_pd_aux_buffer *buffers;
	size_t nbuffers, buffers_cap;
};

struct hwt_aux_queues {
	struct hwt_aux_queue *q;
	size_t n, cap;
};

/* Adds a buffer by its bytes (copied). */
int hwt_aux_queues_add(struct hwt_aux_queues *qs,
		       const struct hwt_pd_auxtrace *aux, const uint8_t *data);
/* Adds a buffer by where it lies in the file: its AUXTRACE record at
 * @record_offset, @record_size bytes before its payload. */
int hwt_aux_queues_add_at(struct hwt_aux_queues *qs,
			  const struct hwt_pd_auxtrace *aux,
			  uint64_t record_offset, uint16_t record_size);
/* The bytes of piece @pc of @q: its own, or read from @reader into *owned
 * (free()). */
int hwt_aux_piece_load(const struct hwt_aux_queue *q,
		       const struct hwt_aux_piece *pc,
		       struct hwt_pd_reader *reader, const uint8_t **data,
		       void **owned);
void hwt_aux_queues_free(struct hwt_aux_queues *qs);

#endif
