/* The recorder's loop: poll the rings into the file, answer the control
 * channel, take the snapshots asked for, end on a stop request or when the
 * traced command exits. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "hwtrace/error.h"
#include "recorder_internal.h"

#define HWT_RECORDER_POLL_MS 50

int hwt_recorder_new(const struct hwt_recorder_opts *opts,
		     struct hwt_session *s, struct hwt_pd_writer *w,
		     struct hwt_recorder **out)
{
	struct hwt_recorder *r;

	if (!out || !s || !w || (opts && opts->size < sizeof(size_t)))
		return hwt_error(HWT_ERR_INVAL, "recorder: needs a session and "
				 "a writer");
	r = calloc(1, sizeof(*r));
	if (!r)
		return hwt_error(HWT_ERR_NOMEM, "recorder: out of memory");
	if (opts)
		memcpy(&r->opts, opts, opts->size < sizeof(r->opts) ?
					       opts->size : sizeof(r->opts));
	r->opts.size = sizeof(r->opts);
	if (r->opts.poll_ms <= 0)
		r->opts.poll_ms = HWT_RECORDER_POLL_MS;
	r->s = s;
	r->w = w;
	atomic_init(&r->stop, 0);
	atomic_init(&r->snapshot, 0);
	*out = r;
	return 0;
}

void hwt_recorder_free(struct hwt_recorder *r)
{
	if (r)
		hwt_recorder_trigger_free(r);
	free(r);
}

void hwt_recorder_request_stop(struct hwt_recorder *r)
{
	if (r)
		atomic_store(&r->stop, 1);
}

void hwt_recorder_request_snapshot(struct hwt_recorder *r)
{
	if (r)
		atomic_store(&r->snapshot, 1);
}

bool hwt_recorder_stop_requested(const struct hwt_recorder *r)
{
	return r && atomic_load(&((struct hwt_recorder *)r)->stop);
}

static long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000L + ts.tv_nsec / 1000000L;
}

/* Every command waiting on the control channel, each acknowledged. */
static void answer_control(struct hwt_recorder *r, struct hwt_control *ctl)
{
	enum hwt_control_cmd cmd;

	while ((cmd = hwt_control_read(ctl)) != HWT_CTL_NONE) {
		if (cmd == HWT_CTL_SNAPSHOT && r->opts.snapshot)
			atomic_store(&r->snapshot, 1);
		else if (cmd == HWT_CTL_ENABLE || cmd == HWT_CTL_DISABLE)
			hwt_session_enable(r->s, cmd == HWT_CTL_ENABLE);
		else if (cmd == HWT_CTL_STOP)
			atomic_store(&r->stop, 1);
		hwt_control_ack(ctl);
	}
}

int hwt_recorder_run(struct hwt_recorder *r, struct hwt_control *ctl,
		     struct hwt_workload *wl, int *status)
{
	uint64_t round_mark = 0;
	long next_snap = 0;
	int ret, wstatus = 0;

	if (!r)
		return hwt_error(HWT_ERR_INVAL, "recorder: none");
	if ((ret = hwt_recorder_trigger_start(r)) < 0)
		return ret;
	if (r->opts.interval_ms)
		next_snap = now_ms() + (long)r->opts.interval_ms;
	while (!atomic_load(&r->stop)) {
		struct pollfd extra = {ctl ? hwt_control_fd(ctl) : -1, POLLIN, 0};
		ret = hwt_session_poll(r->s, r->opts.poll_ms, &extra, ctl ? 1 : 0);
		if (ret < 0)
			return ret;
		/* As perf record: a round marker after each pass over the
		 * rings that wrote something, so readers can sort by time
		 * one round at a time. */
		if (hwt_pd_writer_data_size(r->w) != round_mark) {
			int e = hwt_pd_writer_finished_round(r->w);
			if (e < 0)
				return e;
			round_mark = hwt_pd_writer_data_size(r->w);
		}
		if (ret == 1)
			break;
		if (ctl && (extra.revents & POLLIN))
			answer_control(r, ctl);
		if (r->opts.interval_ms && now_ms() >= next_snap) {
			atomic_store(&r->snapshot, 1);
			next_snap += (long)r->opts.interval_ms;
		}
		if (atomic_exchange(&r->snapshot, 0) && r->opts.snapshot) {
			if ((ret = hwt_session_snapshot(r->s)) < 0)
				return ret;
			hwt_recorder_trigger_taken(r);
		}
		if (wl && hwt_workload_poll(wl, &wstatus) == 1) {
			if (status)
				*status = wstatus;
			break;
		}
	}
	/* A fire the loop had no pass left to take: its window now. */
	if (r->opts.snapshot && (r->opts.snapshot_on_exit ||
				 atomic_exchange(&r->snapshot, 0))) {
		if ((ret = hwt_session_snapshot(r->s)) < 0)
			return ret;
		hwt_recorder_trigger_taken(r);
	}
	return hwt_recorder_trigger_finish(r);
}
