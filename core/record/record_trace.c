/* hwt_recorder_record_trace: a trace recording from a request to a
 * complete perf.data file. The machine and its session options are
 * record_trace_machine.c's; here the triggers' probes join them, then the
 * writer, the session, the recorder, the header, the poll and the closing
 * lines, and whatever ends the capture early (a full disk, an error)
 * leaves the output as hwt_pd_writer_close says. */
#include <stdlib.h>
#include <string.h>

#include "hwtrace/auxaction.h"
#include "hwtrace/error.h"
#include "hwtrace/perfdata.h"
#include "record_trace_internal.h"

/* What the file is written with; all NULL before it is opened. */
struct trace_file {
	struct hwt_aux_action_set actions; /* the session borrows them */
	struct hwt_pd_writer *w;
	struct hwt_writer_sink *wsink;
	struct hwt_session *s;
	struct hwt_recorder *rec;
	struct hwt_control *ctl;
	bool wl_started;
};

static void stage(const struct hwt_trace_request *rq, enum hwt_trace_stage st,
		  struct hwt_recorder *r)
{
	if (rq->on_stage)
		rq->on_stage(rq->on_stage_arg, st, r);
}

/* resume:/pause: triggers, or a call trigger's probes: uprobes in the AUX
 * event's group. */
static int add_probes(const struct hwt_trace_request *rq,
		      struct trace_machine *m, struct trace_file *f)
{
	const char *binary = rq->argv ? rq->argv[0] : NULL;

	if (rq->ntriggers)
		return hwt_aux_action_setup(&f->actions, rq->triggers,
					    rq->ntriggers, binary, m->so.os,
					    &m->so);
	if (rq->call_trigger)
		return hwt_aux_action_call_probes(&f->actions, rq->call_func,
						  rq->call_latency, binary,
						  m->so.os, &m->so);
	return 0;
}

static int open_writer(const struct hwt_trace_request *rq, struct trace_file *f)
{
	int ret;

	if ((ret = hwt_pd_writer_open(rq->output, &f->w)) < 0)
		return ret;
	hwt_pd_writer_keep_partial(f->w, rq->keep_partial);
	if (rq->compress_level &&
	    (ret = hwt_pd_writer_set_compression(f->w, rq->compress_level,
						 rq->compress_aux ? HWT_PD_COMPRESS_AUX
								  : 0)) < 0)
		return ret;
	/* A command line that does not fit memory is left out, as the
	 * capture is worth more than its description. */
	hwt_pd_writer_set_cmdline(f->w, "hwtrace", rq->cmdline_argc,
				  rq->cmdline_argv);
	return hwt_writer_sink_new(f->w, false, &f->wsink);
}

static int open_recorder(const struct hwt_trace_request *rq,
			 struct trace_file *f)
{
	struct hwt_recorder_opts ro = {
		.size = sizeof(ro),
		.snapshot = rq->trace.snapshot,
		.snapshot_on_exit = rq->snapshot_on_exit,
		.interval_ms = rq->interval_ms,
		.poll_ms = 0,
		.trigger = rq->call_trigger,
		.trigger_count = rq->trigger_count,
	};
	int ret = hwt_recorder_new(&ro, f->s, f->w, &f->rec);

	if (ret >= 0)
		stage(rq, HWT_TRACE_STAGE_RECORDER, f->rec);
	return ret;
}

/* The session's, the trigger's and the compression's closing lines. */
static void closing_lines(const struct hwt_trace_request *rq,
			  struct trace_machine *m, struct trace_file *f)
{
	if (!rq->report)
		return;
	hwt_record_print_session_stats(rq->report, rq->prefix, f->s, m->emu);
	if (rq->call_trigger) {
		struct hwt_recorder_trigger_stats ts;

		hwt_recorder_trigger_stats(f->rec, &ts);
		hwt_record_print_trigger_stats(rq->report, rq->prefix,
					       rq->call_trigger, &ts);
	}
	if (rq->compress_level) {
		uint64_t zin, zout;

		/* Flushed first so that the numbers count every record. */
		hwt_pd_writer_flush(f->w);
		hwt_pd_writer_compression_stats(f->w, &zin, &zout);
		hwt_record_print_compression(rq->report, rq->prefix,
					     rq->compress_aux, zin, zout);
	}
}

static int record(const struct hwt_trace_request *rq, struct trace_machine *m,
		  struct trace_file *f, struct hwt_trace_summary *sum)
{
	int ret;

	if ((ret = add_probes(rq, m, f)) < 0)
		return ret;
	stage(rq, HWT_TRACE_STAGE_OPENING, NULL);
	if ((ret = open_writer(rq, f)) < 0)
		return ret;
	m->so.sink = hwt_writer_sink_get(f->wsink);
	if ((ret = hwt_session_new(&m->so, &f->s)) < 0 ||
	    (ret = hwt_session_open(f->s)) < 0 ||
	    (ret = open_recorder(rq, f)) < 0)
		return ret;
	/* Attributes, then the decoder's metadata, then data. */
	ret = rq->emulate ? hwt_recorder_write_replay_header(f->w, m->emu,
							     rq->emulate, f->s,
							     &m->so)
			  : hwt_recorder_write_header(f->rec, m->backend, m->pmu,
						      &m->so);
	if (ret < 0)
		return ret;
	if (rq->control && (ret = hwt_control_open(rq->control, &f->ctl)) < 0)
		return ret;
	stage(rq, HWT_TRACE_STAGE_RUNNING, f->rec);
	if (m->wl && (ret = hwt_workload_start(m->wl)) < 0)
		return ret;
	f->wl_started = m->wl != NULL;
	if ((ret = hwt_recorder_run(f->rec, f->ctl, m->wl, &sum->status)) < 0 ||
	    (ret = hwt_session_stop(f->s)) < 0)
		return ret;
	closing_lines(rq, m, f);
	sum->recorded = hwt_pd_writer_data_size(f->w) > 0;
	ret = hwt_pd_writer_close(f->w);
	f->w = NULL;
	return ret;
}

/* Frees what the file and the machine hold, keeping the message of the
 * error @ret (the frees may set their own). */
static void finish(const struct hwt_trace_request *rq, int ret,
		   struct trace_machine *m, struct trace_file *f,
		   struct hwt_trace_summary *sum)
{
	char *msg = ret < 0 ? strdup(hwt_errmsg()) : NULL;
	int status = 0;

	hwt_pd_writer_discard(f->w);
	if (f->rec)
		stage(rq, HWT_TRACE_STAGE_DONE, NULL);
	hwt_recorder_free(f->rec);
	hwt_session_free(f->s);
	hwt_control_free(f->ctl);
	sum->command_running = f->wl_started &&
			       hwt_workload_poll(m->wl, &status) == 0;
	if (!sum->command_running && f->wl_started)
		sum->status = status;
	trace_machine_close(m);
	hwt_writer_sink_free(f->wsink);
	if (msg && msg[0])
		hwt_error(ret, "%s", msg);
	else if (ret < 0)
		hwt_error_clear();
	free(msg);
}

int hwt_recorder_record_trace(const struct hwt_trace_request *rq,
			      struct hwt_trace_summary *sum)
{
	struct hwt_trace_summary own;
	struct trace_machine m;
	struct trace_file f;
	int ret;

	if (!sum)
		sum = &own;
	memset(sum, 0, sizeof(*sum));
	if (!rq || rq->size < sizeof(*rq) || !rq->output ||
	    rq->trace.size < sizeof(rq->trace))
		return hwt_error(HWT_ERR_INVAL, "a trace recording needs a "
				 "request with its size, its trace options' size "
				 "and an output");
	memset(&m, 0, sizeof(m));
	memset(&f, 0, sizeof(f));
	ret = trace_machine_open(rq, &m);
	if (ret >= 0)
		ret = record(rq, &m, &f, sum);
	/* A full disk ends the capture where it is: the writer keeps it,
	 * marked as cut short, or keeps the file that was there. */
	if (ret == HWT_ERR_NOSPC && f.w) {
		sum->recorded = hwt_pd_writer_data_size(f.w) > 0;
		ret = hwt_pd_writer_close(f.w);
		f.w = NULL;
	}
	finish(rq, ret, &m, &f, sum);
	return ret < 0 ? ret : 0;
}
