/* pd_aux_losses IN OUT N[/K|-]...: rewrites the CoreSight capture IN as OUT
 * with another AUX record structure. For N alone, the PERF_RECORD_AUX
 * numbered N (from 1, in file order) gets the TRUNCATED flag, and the
 * first 16 bytes of its trace become the barrier packet the TMC ETR/ETF
 * drivers write at the start of a write that follows lost trace. For N/K,
 * record N is split into two writes, its first K bytes and the rest, as a
 * driver that wrote them in two goes would report them; N/K+D reports
 * the rest D ns after the first part. For N-, record N
 * is left out, as if a full data ring had lost it. For N*K+D, record N
 * (the last of its AUXTRACE buffer) is written K times, each copy of its
 * bytes appended to the buffer and reported D ns after the one before,
 * as if the traced code had run K times: a capture with K calls of what
 * record N's trace calls once, each at a time of its own. Every other
 * record, event, id, string feature and build id is copied unchanged:
 * captures with
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
	unsigned long repeat; /* 0: none; else the copies in all */
	uint64_t step_ns;
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
		if (m->split || m->drop || m->repeat || m->size < sizeof(barrier) ||
		    m->offset < aux->offset ||
		    m->offset + sizeof(barrier) > aux->offset + aux->size)
			continue;
		if (m->cpu >= 0 && (uint32_t)m->cpu != aux->cpu &&
		    aux->cpu != UINT32_MAX)
			continue;
		memcpy(data + (m->offset - aux->offset), barrier, sizeof(barrier));
	}
}

/* The copies of repeated records that @aux ends with: its bytes grown
 * by them (*@grown, malloc'd, its new size in @aux). */
static int put_repeats(struct hwt_pd_auxtrace *aux, const uint8_t *data,
		       uint8_t **grown)
{
	uint64_t size = aux->size;
	uint8_t *out = malloc(size ? size : 1);

	if (!out)
		return HWT_ERR_NOMEM;
	memcpy(out, data, size);
	for (size_t i = 0; i < nmarks; i++) {
		const struct mark *m = &marks[i];
		if (!m->repeat || m->offset + m->size != aux->offset + aux->size ||
		    m->offset < aux->offset ||
		    (m->cpu >= 0 && (uint32_t)m->cpu != aux->cpu))
			continue;
		uint8_t *n = realloc(out, size + (m->repeat - 1) * m->size);
		if (!n) {
			free(out);
			return HWT_ERR_NOMEM;
		}
		out = n;
		for (unsigned long k = 1; k < m->repeat; k++, size += m->size)
			memcpy(out + size, data + (m->offset - aux->offset), m->size);
	}
	aux->size = size;
	*grown = out;
	return 0;
}

/* Where a record's sample time is: the sample_id trailer ends with the
 * fields after TIME (ID, STREAM_ID, CPU, IDENTIFIER, 8 bytes each). */
static int time_at(const struct hwt_pd_record *rec)
{
	static const uint64_t after[] = {PERF_SAMPLE_ID, PERF_SAMPLE_STREAM_ID,
					 PERF_SAMPLE_CPU, PERF_SAMPLE_IDENTIFIER};
	int at = rec->size - 8;

	if (!(rec->sid.present & PERF_SAMPLE_TIME))
		return -1;
	for (size_t i = 0; i < 4; i++)
		if (rec->sid.present & after[i])
			at -= 8;
	return at;
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
	/* The build ids too: a replay finds a probe's binary by them. */
	struct hwt_pd_build_id b;
	for (size_t i = 0; !err && hwt_pd_reader_build_id(r, i, &b) == 1; i++)
		err = hwt_pd_writer_add_build_id(w, b.pid, b.misc, b.id, b.size,
						 b.filename);
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
			uint8_t *grown = NULL;
			err = put_repeats(&rec.aux, data, &grown);
			if (!err)
				err = hwt_pd_writer_auxtrace(w, &rec.aux, grown);
			free(grown);
			free(data);
		} else if (rec.type == PERF_RECORD_AUX && marked(++n)) {
			const struct mark *m = marked(n);
			uint8_t copy[65536];
			uint64_t *body = (uint64_t *)(copy + 8);
			memcpy(copy, rec.data, rec.size);
			if (m->drop)
				continue;
			if (m->repeat) {
				int t = time_at(&rec);
				if (t < 0) {
					err = hwt_error(HWT_ERR_FORMAT, "AUX record %lu "
							"has no time to step", n);
					break;
				}
				err = hwt_pd_writer_record(w, copy);
				for (unsigned long k = 1; !err && k < m->repeat; k++) {
					uint64_t time;
					memcpy(&time, copy + t, 8);
					time += m->step_ns;
					memcpy(copy + t, &time, 8);
					body[0] = m->offset + k * m->size;
					err = hwt_pd_writer_record(w, copy);
				}
				continue;
			}
			if (!m->split) {
				body[2] |= PERF_AUX_FLAG_TRUNCATED;
			} else if (m->split < body[1]) {
				uint64_t size = body[1];
				body[1] = m->split;
				err = hwt_pd_writer_record(w, copy);
				body[0] += m->split;
				body[1] = size - m->split;
				int t = time_at(&rec);
				if (m->step_ns && t >= 0) {
					uint64_t time;
					memcpy(&time, copy + t, 8);
					time += m->step_ns;
					memcpy(copy + t, &time, 8);
				}
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
		fprintf(stderr, "usage: pd_aux_losses IN OUT N[/K[+D]|-|*K+D]...\n");
		return 2;
	}
	for (int i = 3; i < argc; i++) {
		char *end;
		marks[nmarks].index = strtoul(argv[i], &end, 10);
		if (*end == '/') {
			marks[nmarks].split = strtoull(end + 1, &end, 10);
			if (*end == '+')
				marks[nmarks].step_ns = strtoull(end + 1, &end, 10);
		}
		marks[nmarks].drop = *end == '-';
		if (*end == '*' && !marks[nmarks].split) {
			marks[nmarks].repeat = strtoul(end + 1, &end, 10);
			if (*end == '+')
				marks[nmarks].step_ns = strtoull(end + 1, NULL, 10);
			if (marks[nmarks].repeat < 1) {
				fprintf(stderr, "pd_aux_losses: %s: N*K+D wants K >= 1\n",
					argv[i]);
				return 2;
			}
		}
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
