/* AUXTRACE queues of a file (hwt_pd_aux_queues_build): where each idx's
 * trace buffers lie, found from the auxtrace index feature or by walking
 * the record headers, and queued by the one builder (aux_queues.c). */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "core/perfdata/aux_queues.h"
#include "core/perfdata/perfdata_format.h"
#include "hwtrace/error.h"

#define SCAN_WINDOW (64 * 1024)

struct hwt_pd_aux_queues {
	struct hwt_pd_aux_buffer *buffers;  /* as found, until queued */
	size_t nbuffers, cap;
	struct hwt_aux_queues built;
	struct hwt_pd_aux_queue *queues;    /* views of built's queues */
	size_t nqueues;
	bool from_index;
};

static int push(struct hwt_pd_aux_queues *q, const struct hwt_pd_auxtrace *aux,
		uint64_t offset, uint16_t rec_size)
{
	if (q->nbuffers == q->cap) {
		size_t cap = q->cap ? q->cap * 2 : 32;
		struct hwt_pd_aux_buffer *p = realloc(q->buffers, cap * sizeof(*p));

		if (!p)
			return hwt_error(HWT_ERR_NOMEM, "out of memory for %zu "
					 "AUXTRACE buffers", cap);
		q->buffers = p;
		q->cap = cap;
	}
	q->buffers[q->nbuffers].aux = *aux;
	q->buffers[q->nbuffers].file_offset = offset;
	q->buffers[q->nbuffers++].data_offset = offset + rec_size;
	return 0;
}

/* Checks one index entry against the record it points at. */
static bool index_entry_ok(struct hwt_pd_reader *r, uint64_t offset,
			   uint64_t data_end, struct hwt_pd_auxtrace *aux,
			   uint16_t *size)
{
	const struct hwt_pd_file_header *h = hwt_pd_reader_header(r);
	uint8_t rec[PD_AUXTRACE_HEADER_SIZE];

	if (offset < h->data_offset || offset + sizeof(rec) > data_end ||
	    pd_pread_full(pd_reader_fd(r), rec, sizeof(rec), offset) != 1)
		return false;
	*size = pd_u16(rec + 6);
	if (pd_u32(rec) != HWT_PD_RECORD_AUXTRACE ||
	    *size < PD_AUXTRACE_HEADER_SIZE)
		return false;
	pd_parse_auxtrace(rec, aux);
	/* offset + 48 <= data_end was checked; the sums cannot wrap. */
	return *size <= data_end - offset &&
	       aux->size <= data_end - offset - *size;
}

static int from_index(struct hwt_pd_reader *r, struct hwt_pd_aux_queues *q)
{
	uint64_t data_end = pd_reader_data_end(r), size, nr;
	const uint8_t *p;
	const void *data;

	if (hwt_pd_reader_feature(r, HWT_PD_FEAT_AUXTRACE, &data, &size) ||
	    size < 8)
		return 1;
	p = data;
	nr = pd_u64(p);
	if (hwt_pd_reader_is_simpleperf(r) && size % 16 == 0) {
		/* simpleperf writes the entries without perf's count. */
		nr = size / 16;
	} else {
		if (nr == 0 || nr > (size - 8) / 16)
			return 1;
		p += 8;
	}
	for (uint64_t i = 0; i < nr; i++) {
		struct hwt_pd_auxtrace aux;
		uint64_t off = pd_u64(p + i * 16);
		uint16_t rec_size;
		int err;

		if (!index_entry_ok(r, off, data_end, &aux, &rec_size)) {
			q->nbuffers = 0;
			return 1;
		}
		if ((err = push(q, &aux, off, rec_size)))
			return err;
	}
	q->from_index = true;
	return 0;
}

/* Walks the record headers of the data section with a window of its own,
 * leaving the reader's stream alone. */
static int scan(struct hwt_pd_reader *r, struct hwt_pd_aux_queues *q)
{
	const struct hwt_pd_file_header *h = hwt_pd_reader_header(r);
	uint64_t pos = h->data_offset, end = pd_reader_data_end(r), win_off = 0;
	uint8_t *win = malloc(SCAN_WINDOW);
	size_t win_len = 0;
	char label[48];
	int err = 0;

	if (!win)
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	while (pos < end) {
		const uint8_t *rec;
		uint64_t trailing;
		uint16_t size;
		uint32_t type;

		if (pos < win_off || pos + PD_AUXTRACE_HEADER_SIZE > win_off + win_len) {
			size_t want = end - pos < SCAN_WINDOW ? (size_t)(end - pos)
							       : SCAN_WINDOW;
			if (pd_pread_full(pd_reader_fd(r), win, want, pos) != 1) {
				err = hwt_error(HWT_ERR_IO, "%s: read failed at "
						"byte offset %" PRIu64,
						hwt_pd_reader_path(r), pos);
				break;
			}
			win_off = pos;
			win_len = want;
		}
		rec = win + (pos - win_off);
		if (end - pos < PD_EVENT_HEADER_SIZE) {
			err = hwt_error(HWT_ERR_TRUNCATED, "%s: the data section "
					"ends inside a record header at byte "
					"offset %" PRIu64, hwt_pd_reader_path(r),
					pos);
			break;
		}
		type = pd_u32(rec);
		size = pd_u16(rec + 6);
		pd_type_label(type, label, sizeof(label));
		if (size < PD_EVENT_HEADER_SIZE || size > end - pos) {
			err = hwt_error(size < PD_EVENT_HEADER_SIZE ?
					HWT_ERR_FORMAT : HWT_ERR_TRUNCATED,
					"%s: record %s at byte offset %" PRIu64
					" has size %u, %s", hwt_pd_reader_path(r),
					label, pos, size,
					size < PD_EVENT_HEADER_SIZE ?
					"less than its header" :
					"past the end of the data");
			break;
		}
		if (type == HWT_PD_RECORD_AUXTRACE &&
		    size < PD_AUXTRACE_HEADER_SIZE) {
			err = hwt_error(HWT_ERR_FORMAT, "%s: record %s at byte "
					"offset %" PRIu64 " has size %u, too small "
					"for its fields", hwt_pd_reader_path(r),
					label, pos, size);
			break;
		}
		/* The window holds 48 bytes from pos, enough for the
		 * AUXTRACE header, whenever the data has them. */
		if (type == HWT_PD_RECORD_AUXTRACE &&
		    pos + PD_AUXTRACE_HEADER_SIZE > win_off + win_len) {
			err = hwt_error(HWT_ERR_TRUNCATED, "%s: record %s at byte "
					"offset %" PRIu64 " is cut short",
					hwt_pd_reader_path(r), label, pos);
			break;
		}
		trailing = pd_trailing_bytes(rec, type, size);
		if (trailing > end - pos - size) {
			err = hwt_error(HWT_ERR_TRUNCATED, "%s: record %s at byte "
					"offset %" PRIu64 " claims %" PRIu64 " bytes "
					"of payload, past the end of the data at %"
					PRIu64, hwt_pd_reader_path(r), label, pos,
					trailing, end);
			break;
		}
		if (type == HWT_PD_RECORD_AUXTRACE) {
			struct hwt_pd_auxtrace aux;

			pd_parse_auxtrace(rec, &aux);
			if ((err = push(q, &aux, pos, size)))
				break;
		}
		pos += size + trailing;
	}
	free(win);
	return err;
}

static int by_file_offset(const void *a, const void *b)
{
	const struct hwt_pd_aux_buffer *x = a, *y = b;

	return x->file_offset < y->file_offset ? -1
					       : x->file_offset > y->file_offset;
}

/* The buffers found, in file order, through the one builder; the queues
 * as the public type shows them. */
static int make_queues(struct hwt_pd_aux_queues *q)
{
	if (q->nbuffers)
		qsort(q->buffers, q->nbuffers, sizeof(*q->buffers), by_file_offset);
	for (size_t i = 0; i < q->nbuffers; i++) {
		const struct hwt_pd_aux_buffer *b = &q->buffers[i];
		int err = hwt_aux_queues_add_at(&q->built, &b->aux, b->file_offset,
						(uint16_t)(b->data_offset - b->file_offset));
		if (err)
			return err;
	}
	/* The builder holds its own copies. */
	free(q->buffers);
	q->buffers = NULL;
	q->nbuffers = q->cap = 0;
	q->queues = calloc(q->built.n ? q->built.n : 1, sizeof(*q->queues));
	if (!q->queues)
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	for (size_t i = 0; i < q->built.n; i++) {
		const struct hwt_aux_queue *b = &q->built.q[i];
		q->queues[q->nqueues++] = (struct hwt_pd_aux_queue){
			.idx = b->idx, .cpu = (uint32_t)b->cpu, .tid = (uint32_t)b->tid,
			.nbuffers = b->nbuffers, .buffers = b->buffers,
			.bytes = b->bytes};
	}
	return 0;
}

int hwt_pd_aux_queues_build(struct hwt_pd_reader *r,
			    struct hwt_pd_aux_queues **out)
{
	struct hwt_pd_aux_queues *q;
	int err, merr;

	*out = NULL;
	if (hwt_pd_reader_is_pipe(r))
		return hwt_error(HWT_ERR_NOSUP, "%s is in pipe mode: take its "
				 "AUXTRACE records from the record stream",
				 hwt_pd_reader_path(r));
	q = calloc(1, sizeof(*q));
	if (!q)
		return hwt_error(HWT_ERR_NOMEM, "out of memory");
	err = from_index(r, q);
	if (err > 0)
		err = scan(r, q);
	if (err == HWT_ERR_NOMEM) {
		hwt_pd_aux_queues_free(q);
		return err;
	}
	merr = make_queues(q);
	if (merr) {
		hwt_pd_aux_queues_free(q);
		return merr;
	}
	*out = q;
	return err;
}

int hwt_pd_reader_auxtrace_index_count(const struct hwt_pd_reader *r,
				       uint64_t *entries)
{
	const void *data;
	uint64_t size;
	if (hwt_pd_reader_feature(r, HWT_PD_FEAT_AUXTRACE, &data, &size) ||
	    size < 8 || hwt_pd_reader_is_simpleperf(r))
		return hwt_error(HWT_ERR_NOENT, "%s has no auxtrace index count",
				 hwt_pd_reader_path(r));
	*entries = pd_u64(data);
	return 0;
}

bool hwt_pd_aux_queues_from_index(const struct hwt_pd_aux_queues *q)
{
	return q->from_index;
}

size_t hwt_pd_aux_queues_count(const struct hwt_pd_aux_queues *q)
{
	return q->nqueues;
}

const struct hwt_pd_aux_queue *
hwt_pd_aux_queues_get(const struct hwt_pd_aux_queues *q, size_t index)
{
	return index < q->nqueues ? &q->queues[index] : NULL;
}

int hwt_pd_aux_buffer_read(struct hwt_pd_reader *r,
			   const struct hwt_pd_aux_buffer *b, void *dst)
{
	return hwt_pd_reader_read_at(r, b->data_offset, dst, (size_t)b->aux.size);
}

void hwt_pd_aux_queues_free(struct hwt_pd_aux_queues *q)
{
	if (!q)
		return;
	free(q->buffers);
	hwt_aux_queues_free(&q->built);
	free(q->queues);
	free(q);
}
