/* The recorder's call triggers (hwt_recorder_opts.trigger): it watches
 * the samples of the session's probe events as the rings are read, and
 * asks for a snapshot when FUNC is entered (symbol:) or when a call of it
 * returned after longer than the threshold (latency:). Each firing is
 * described in the file's trigger feature, in the "key: value" lines
 * sw_branch's windows use, numbered by the snapshot that holds it: fires
 * that come within one pass over the rings share a window. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hwtrace/error.h"
#include "hwtrace/perfdata.h"
#include "hwtrace/trigger.h"
#include "recorder_internal.h"

#define MAX_OPEN_CALLS 64

struct open_call {
	uint32_t tid;
	uint64_t time, nth;
};

struct recorder_trigger {
	bool latency;
	char func[512];
	uint64_t threshold_ns;
	const uint64_t *entry_ids, *return_ids;
	size_t nentry, nreturn;
	uint64_t sample_type;   /* the probes' (all probes share one layout) */
	struct open_call open[MAX_OPEN_CALLS];
	unsigned depth;
	bool pending;           /* fired since the last window */
	char desc[8192];
	size_t len;
};

/* The ids of the session's event named @name, and its sample_type. */
static void ids_of(struct hwt_session *s, const char *name,
		   const uint64_t **ids, size_t *n, uint64_t *sample_type)
{
	const struct perf_event_attr *a;
	const char *nm;

	*ids = NULL;
	*n = 0;
	for (size_t i = 0; hwt_session_attr(s, i, &a, ids, n, &nm) == 0; i++)
		if (!strcmp(nm, name)) {
			*sample_type = a->sample_type;
			return;
		}
	*ids = NULL;
	*n = 0;
}

static bool has_id(const uint64_t *ids, size_t n, uint64_t id)
{
	for (size_t i = 0; i < n; i++)
		if (ids[i] == id)
			return true;
	return false;
}

static void fire(struct hwt_recorder *r, uint32_t tid, uint64_t time,
		 uint64_t nth, const struct open_call *call)
{
	struct recorder_trigger *t = r->trig;
	size_t room = sizeof(t->desc) - t->len;
	int n;

	if (r->opts.trigger_count && r->trigger_fired >= r->opts.trigger_count)
		return;
	r->trigger_fired++;
	t->pending = true;
	atomic_store(&r->snapshot, 1);
	n = snprintf(t->desc + t->len, room, "trigger: %s\nwindow: %" PRIu64
		     "\ntime: %" PRIu64 "\ntid: %u\nentry: %" PRIu64 "\n",
		     r->opts.trigger, r->trigger_windows + 1, time, tid, nth);
	if (n > 0 && (size_t)n < room && call) {
		t->len += (size_t)n;
		room -= (size_t)n;
		n = snprintf(t->desc + t->len, room, "call_start: %" PRIu64
			     "\nduration_ns: %" PRIu64 "\n", call->time,
			     time - call->time);
	}
	/* A description that no longer fits is cut at the last whole one. */
	if (n > 0 && (size_t)n < room)
		t->len += (size_t)n;
}

/* A probe sample, in the probes' layout: their own, or a replayed
 * capture's (capture_session.c gives them its id layout). */
static void observe(void *arg, const struct perf_event_header *h)
{
	struct hwt_recorder *r = arg;
	struct recorder_trigger *t = r->trig;
	struct hwt_pd_sample_id sid = {0};
	const uint64_t need = PERF_SAMPLE_ID | PERF_SAMPLE_TID | PERF_SAMPLE_TIME;
	uint64_t id, time;
	uint32_t tid;

	if (h->type != PERF_RECORD_SAMPLE ||
	    hwt_pd_parse_sample_id(h, t->sample_type, false, &sid) < 0 ||
	    (sid.present & need) != need)
		return;
	id = sid.id;
	tid = sid.tid;
	time = sid.time;
	if (has_id(t->entry_ids, t->nentry, id)) {
		r->trigger_entries++;
		if (!t->latency)
			fire(r, tid, time, r->trigger_entries, NULL);
		else if (t->depth < MAX_OPEN_CALLS)
			t->open[t->depth++] = (struct open_call){tid, time,
								 r->trigger_entries};
		return;
	}
	if (!has_id(t->return_ids, t->nreturn, id))
		return;
	/* The innermost open call of that thread returned. */
	for (unsigned i = t->depth; i-- > 0;) {
		if (t->open[i].tid != tid)
			continue;
		struct open_call c = t->open[i];
		memmove(&t->open[i], &t->open[i + 1],
			(t->depth - i - 1) * sizeof(t->open[0]));
		t->depth--;
		r->trigger_calls++;
		if (time - c.time > t->threshold_ns)
			fire(r, tid, time, c.nth, &c);
		return;
	}
}

int hwt_recorder_trigger_start(struct hwt_recorder *r)
{
	struct recorder_trigger *t;
	char name[600];
	int ret;

	if (!r->opts.trigger)
		return 0;
	if (!r->opts.snapshot)
		return hwt_error(HWT_ERR_CONFIG, "--trigger %s takes snapshots: "
				 "record in snapshot mode (-S)", r->opts.trigger);
	if (!(t = calloc(1, sizeof(*t))))
		return hwt_error(HWT_ERR_NOMEM, "recorder: out of memory");
	r->trig = t;
	ret = hwt_trigger_parse_call(r->opts.trigger, t->func, sizeof(t->func),
				     &t->latency, &t->threshold_ns);
	if (ret <= 0)
		return ret < 0 ? ret : hwt_error(HWT_ERR_CONFIG, "--trigger %s: the "
						 "recorder takes symbol: and latency: "
						 "triggers", r->opts.trigger);
	t->func[strcspn(t->func, "@")] = '\0';
	snprintf(name, sizeof(name), "probe:%s", t->func);
	ids_of(r->s, name, &t->entry_ids, &t->nentry, &t->sample_type);
	snprintf(name, sizeof(name), "probe:%s__return", t->func);
	ids_of(r->s, name, &t->return_ids, &t->nreturn, &t->sample_type);
	if (!t->nentry || (t->latency && !t->nreturn))
		return hwt_error(HWT_ERR_INVAL, "--trigger %s: the session has no "
				 "probe:%s%s event (hwt_aux_action_call_probes)",
				 r->opts.trigger, t->func,
				 t->latency && t->nentry ? "__return" : "");
	hwt_session_set_observer(r->s, observe, r);
	return 0;
}

void hwt_recorder_trigger_taken(struct hwt_recorder *r)
{
	if (r->trig && r->trig->pending) {
		r->trig->pending = false;
		r->trigger_windows++;
	}
}

int hwt_recorder_trigger_finish(struct hwt_recorder *r)
{
	struct recorder_trigger *t = r->trig;

	if (!t)
		return 0;
	hwt_session_set_observer(r->s, NULL, NULL);
	if (!t->len)
		return 0;
	return hwt_pd_writer_set_feature(r->w, HWT_PD_FEAT_HWTRACE_TRIGGER,
					 t->desc, t->len);
}

void hwt_recorder_trigger_free(struct hwt_recorder *r)
{
	free(r->trig);
	r->trig = NULL;
}

void hwt_recorder_trigger_stats(const struct hwt_recorder *r,
				struct hwt_recorder_trigger_stats *st)
{
	memset(st, 0, sizeof(*st));
	if (!r)
		return;
	st->entries = r->trigger_entries;
	st->calls = r->trigger_calls;
	st->fired = r->trigger_fired;
	st->windows = r->trigger_windows;
}
