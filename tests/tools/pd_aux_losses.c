/* pd_aux_losses IN OUT N[/K|-]...: rewrites the CoreSight capture IN as OUT
 * with another AUX record structure. For N alone, the PERF_RECORD_AUX
 * numbered N (from 1, in file order) gets the TRUNCATED flag, and the
 * first 16 bytes of its trace become the barrier packet the TMC ETR/ETF
 * drivers write at the start of a write that follows lost trace. For N/K,
 * record N is split into two writes, its first K bytes and the rest, as a
 * driver that wrote them in two goes would report them. For N-, record N
 * is left out, as if a full data ring had lost it. Every other
 * record, event, id and string feature is copied unchanged: captures with
 * the record structure of real ones, for tests of replays that must keep
 * it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/perf_event.h>

#include "hwtrace/error.h"
#include "hwtrace/perfdata.h"
#include "unit/pd_copy.h"

#define MAX_MARKS 64

struct mark {
	unsigned long index;
	uint64_t split;    /* 0: mark TRUNCATED; else split after this */
	bool drop;
	int cpu;
	uint64_t offset, size;
};

static struct mark marks[MAX_MARKS];
static size_t nmarks;

static struct mark *marked(unsigned long index)
{
	for (size_t i = 0; i < nmarks; i++)
		if (marks[i].index == index)
			return &marks[i];
	return NULL;
}

/* Pass 1: where the marked records' bytes are. */
static int find_marks(const char *in)
{
	struct hwt_pd_reader *r;
	struct hwt_pd_record rec;
	unsigned long n = 0;
	int err = hwt_pd_reader_open(in, &r);

	if (err)
		return err;
	hwt_pd_reader_set_load_aux(r, false);
	while ((err = hwt_pd_reader_next(r, &rec)) == 1) {
		const uint64_t *body = (const uint64_t *)((const uint8_t *)rec.data + 8);
		struct mark *m;
		if (rec.type != PERF_RECORD_AUX)
			continue;
		m = marked(++n);
		if (!m)
			continue;
		m->cpu = rec.sid.present & PERF_SAMPLE_CPU ? (int)rec.sid.cpu : -1;
		m->offset = body[0];
		m->size = body[1];
	}
	hwt_pd_reader_free(r);
	return err;
}

static void put_barriers(const struct hwt_pd_auxtrace *aux, uint8_t *data)
{
	static const uint8_t barrier[16] = {
		0xff, 0xff, 0xff, 0x7f, 0xff, 0xff, 0xff, 0x7f,
		0xff, 0xff, 0xff, 0x7f, 0xff, 0xff, 0xff, 0x7f,
	};

	for (size_t i = 0; i < nmarks; i++) {
		const struct mark *m = &marks[i];
		if (m->split || m->drop || m->size < sizeof(barrier) ||
		    m->offset < aux->offset ||
		    m->offset + sizeof(barrier) > aux->offset + aux->size)
			continue;
		if (m->cpu >= 0 && (uint32_t)m->cpu != aux->cpu &&
		    aux->cpu != UINT32_MAX)
			continue;
		memcpy(data + (m->offset - aux->offset), barrier, sizeof(barrier));
	}
}

static int copy(const char *in, const char *out)
{
	struct hwt_pd_reader *r;
	struct hwt_pd_writer *w;
	struct hwt_pd_record rec;
	unsigned long n = 0;
	int err = hwt_test_pd_copy_open(in, out, &r, &w);

	if (err)
		return err;
	err = hwt_test_pd_copy_strings(r, w);
	while (!err && (err = hwt_pd_reader_next(r, &rec)) == 1) {
		err = 0;
		if (rec.type == HWT_PD_RECORD_AUXTRACE) {
			uint8_t *data = malloc(rec.aux.size ? rec.aux.size : 1);
			if (!data) {
				err = HWT_ERR_NOMEM;
				break;
			}
			memcpy(data, rec.aux_data, rec.aux.size);
			put_barriers(&rec.aux, data);
			err = hwt_pd_writer_auxtrace(w, &rec.aux, data);
			free(data);
		} else if (rec.type == PERF_RECORD_AUX && marked(++n)) {
			const struct mark *m = marked(n);
			uint8_t copy[65536];
			uint64_t *body = (uint64_t *)(copy + 8);
			memcpy(copy, rec.data, rec.size);
			if (m->drop)
				continue;
			if (!m->split) {
				body[2] |= PERF_AUX_FLAG_TRUNCATED;
			} else if (m->split < body[1]) {
				uint64_t size = body[1];
				body[1] = m->split;
				err = hwt_pd_writer_record(w, copy);
				body[0] += m->split;
				body[1] = size - m->split;
			}
			if (!err)
				err = hwt_pd_writer_record(w, copy);
		} else if (hwt_test_pd_copyable(rec.type)) {
			err = hwt_pd_writer_record(w, rec.data);
		}
	}
	return hwt_test_pd_copy_close(r, w, err);
}

int main(int argc, char **argv)
{
	int err;

	if (argc < 4 || argc - 3 > MAX_MARKS) {
		fprintf(stderr, "usage: pd_aux_losses IN OUT N[/K|-]...\n");
		return 2;
	}
	for (int i = 3; i < argc; i++) {
		char *end;
		marks[nmarks].index = strtoul(argv[i], &end, 10);
		if (*end == '/')
			marks[nmarks].split = strtoull(end + 1, NULL, 10);
		marks[nmarks].drop = *end == '-';
		nmarks++;
	}
	err = find_marks(argv[1]);
	if (!err)
		err = copy(argv[1], argv[2]);
	if (err < 0) {
		fprintf(stderr, "pd_aux_losses: %s\n", hwt_errmsg());
		return 1;
	}
	return 0;
}
