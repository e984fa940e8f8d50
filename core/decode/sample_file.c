/* The AUX samples of a capture: kept while the records stream by, decoded
 * into branch stacks once the sideband has built the memory image. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "core/decode/sample_internal.h"
#include "hwtrace/error.h"

const struct perf_event_attr *hwt_sample_attr(struct hwt_pd_reader *r,
					      const struct hwt_pd_record *rec)
{
	const struct hwt_pd_attr *a = NULL;
	if (rec->sid.present & PERF_SAMPLE_ID)
		a = hwt_pd_reader_attr_by_id(r, rec->sid.id);
	if (!a && hwt_pd_reader_nr_attrs(r) == 1)
		a = hwt_pd_reader_attr(r, 0);
	return a ? &a->attr : NULL;
}

int hwt_sample_store_add(struct hwt_sample_store *ss,
			 struct hwt_pd_reader *reader,
			 const struct hwt_pd_record *rec)
{
	const struct perf_event_attr *attr = hwt_sample_attr(reader, rec);
	if (rec->type != PERF_RECORD_SAMPLE || !attr ||
	    !(attr->sample_type & PERF_SAMPLE_AUX))
		return 0;
	struct hwt_sample_entry en;
	if (hwt_aux_sample_parse(rec->data, attr, &en.s) < 0) {
		ss->bad++;
		return 0;
	}
	if (ss->n == ss->cap) {
		size_t cap = ss->cap ? ss->cap * 2 : 64;
		void *p = realloc(ss->e, cap * sizeof(*ss->e));
		if (!p)
			return hwt_error(HWT_ERR_NOMEM, "out of memory for samples");
		ss->e = p;
		ss->cap = cap;
	}
	/* File mode reads the payload again when decoding; a pipe cannot. */
	ss->in_arena = hwt_pd_reader_is_pipe(reader);
	if (ss->in_arena) {
		if (hwt_sample_arena_put(&ss->arena, &ss->arena_len,
					 &ss->arena_cap, en.s.aux, en.s.aux_size,
					 &en.data) < 0)
			return hwt_error(HWT_ERR_NOMEM,
					 "out of memory for AUX samples");
	} else {
		en.data = rec->file_offset + en.s.aux_pos;
	}
	en.s.aux = NULL;
	if (en.s.aux_size > ss->max_size)
		ss->max_size = en.s.aux_size;
	ss->e[ss->n++] = en;
	return 0;
}

int hwt_sample_arena_put(uint8_t **arena, size_t *len, size_t *cap,
			 const void *data, size_t n, uint64_t *at)
{
	if (*len + n > *cap) {
		size_t c = *cap ? *cap : 65536;
		while (c < *len + n)
			c *= 2;
		void *p = realloc(*arena, c);
		if (!p)
			return HWT_ERR_NOMEM;
		*arena = p;
		*cap = c;
	}
	if (n)
		memcpy(*arena + *len, data, n);
	*at = *len;
	*len += n;
	return 0;
}

void hwt_sample_store_free(struct hwt_sample_store *ss)
{
	free(ss->e);
	free(ss->arena);
	memset(ss, 0, sizeof(*ss));
}

/* Stamps the window's gaps with the sample's context. */
struct gap_ctx {
	const struct hwt_elem *sample;
	const struct hwt_elem_sink *out;
};

static int gap_emit(void *arg, const struct hwt_elem *e)
{
	struct gap_ctx *g = arg;
	struct hwt_elem c = *e;
	uint32_t keep = HWT_FIELD_CPU | HWT_FIELD_PID | HWT_FIELD_TID |
			HWT_FIELD_TIME;
	c.fields = (c.fields & ~keep) | (g->sample->fields & keep);
	c.cpu = g->sample->cpu;
	c.pid = g->sample->pid;
	c.tid = g->sample->tid;
	c.time = g->sample->time;
	return g->out->emit(g->out->arg, &c);
}

int hwt_sample_store_decode(struct hwt_sample_store *ss,
			    struct hwt_pd_reader *reader,
			    const struct hwt_backend *b,
			    const struct hwt_decode_params *params,
			    struct hwt_image *image,
			    struct hwt_sample_vlbr *vl,
			    const struct hwt_elem_sink *out)
{
	struct hwt_elem se;
	struct gap_ctx g = {&se, out};
	struct hwt_elem_sink gsink = {gap_emit, &g};
	struct hwt_window_decoder *wd = NULL;
	uint8_t *buf = NULL;
	int err = hwt_window_decoder_new(b, params, image, &gsink, &wd);
	if (err < 0)
		return err;
	if (!ss->in_arena && !(buf = malloc(ss->max_size ? ss->max_size : 1))) {
		hwt_window_decoder_free(wd);
		return hwt_error(HWT_ERR_NOMEM, "out of memory for AUX samples");
	}
	for (size_t i = 0; i < ss->n && err >= 0; i++) {
		const struct hwt_aux_sample *s = &ss->e[i].s;
		const uint8_t *data;
		if (ss->in_arena) {
			data = ss->arena + ss->e[i].data;
		} else {
			err = hwt_pd_reader_read_at(reader, ss->e[i].data, buf,
						    s->aux_size);
			if (err < 0)
				break;
			data = buf;
		}
		hwt_brstack_head(s, &se);
		se.type = HWT_ELEM_SAMPLE;
		/* The sample names its thread: read that process's code. */
		struct hwt_window_result res;
		err = hwt_window_decode(wd, data, s->aux_size, 0, -1,
					se.fields & HWT_FIELD_TID ? se.tid : -1,
					&res);
		if (err < 0)
			break;
		if (vl) {
			err = hwt_sample_vlbr_emit(vl, s, &res, out);
			continue;
		}
		se.u.sample.ip = s->ip;
		se.u.sample.period = s->present & PERF_SAMPLE_PERIOD ? s->period : 0;
		se.u.sample.window = s->aux_size;
		se.u.sample.sync = res.sync_offset;
		se.u.sample.branches = res.branches;
		se.u.sample.nbranches = res.nbranches;
		err = out->emit(out->arg, &se);
	}
	if (err >= 0 && ss->bad) {
		char msg[128];
		memset(&se, 0, sizeof(se));
		se.type = HWT_ELEM_ERROR;
		snprintf(msg, sizeof(msg),
			 "%" PRIu64 " AUX samples could not be parsed and were skipped",
			 ss->bad);
		se.u.error.message = msg;
		err = out->emit(out->arg, &se);
	}
	free(buf);
	hwt_window_decoder_free(wd);
	return err;
}

static int profile_emit(void *arg, const struct hwt_elem *e)
{
	struct hwt_profile_sink *ps = arg;
	int err = hwt_branch_profile_add_elem(ps->p, e);
	if (err < 0 || !ps->next)
		return err;
	return ps->next->emit(ps->next->arg, e);
}

struct hwt_elem_sink hwt_profile_sink(struct hwt_profile_sink *ps)
{
	struct hwt_elem_sink s = {profile_emit, ps};
	return s;
}
